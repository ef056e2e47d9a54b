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
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
