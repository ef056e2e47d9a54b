#![allow(unexpected_cfgs)] // pyo3 0.22's macros test a `gil-refs` feature this crate does not declare
#![allow(clippy::useless_conversion)] // raised inside the code #[pymethods] generates (PyO3 0.22)
//! The native module of the `jungletb` Python package (`jungletb._jungletb`):
//! a thin layer over [`jungletb_tablebase::Tablebase`], the solver and the
//! command line. The Python-facing API, documented for users, is
//! `python/jungletb/__init__.py`.

mod errors;
mod generate;
mod position;
mod rules;
mod tablebase;

use pyo3::prelude::*;

#[pymodule]
fn _jungletb(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<tablebase::Tablebase>()?;
    m.add_class::<position::Position>()?;
    m.add_class::<position::Move>()?;
    m.add_class::<position::Outcome>()?;
    m.add_function(wrap_pyfunction!(position::_position_from_state, m)?)?;
    m.add_function(wrap_pyfunction!(generate::generate, m)?)?;
    m.add_function(wrap_pyfunction!(generate::run_cli, m)?)?;
    m.add(
        "MissingTableError",
        py.get_type_bound::<errors::MissingTableError>(),
    )?;
    m.add(
        "BadTableError",
        py.get_type_bound::<errors::BadTableError>(),
    )?;
    m.add(
        "RulesetMismatch",
        py.get_type_bound::<errors::RulesetMismatch>(),
    )?;
    m.add("MISSING", tablebase::MISSING)?;
    m.add("__version__", pep440(env!("CARGO_PKG_VERSION")))?;
    Ok(())
}

/// The crate's version as Python spells it (PEP 440, as pip and the
/// wheel's metadata give it): `0.3.0-dev` is `0.3.0.dev0`, `0.3.0-rc.1`
/// is `0.3.0rc1`, `0.3.0` stays.
fn pep440(cargo: &str) -> String {
    let Some((release, pre)) = cargo.split_once('-') else {
        return cargo.to_string();
    };
    let (tag, n) = pre.split_once('.').unwrap_or((pre, "0"));
    match tag {
        "dev" => format!("{release}.dev{n}"),
        "alpha" | "a" => format!("{release}a{n}"),
        "beta" | "b" => format!("{release}b{n}"),
        "rc" => format!("{release}rc{n}"),
        _ => format!("{release}.dev0"),
    }
}
