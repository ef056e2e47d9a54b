//! Rule sets as Python names them: a named rule set (or, with tables, the
//! label of a custom one) and a list of `KEY=VALUE` options.

use jungletb_rules::Ruleset;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use std::path::Path;

/// The `rules=` argument as a list of options: a list or tuple of strings
/// (or `None`). A lone string is refused: iterating it would split it into
/// characters.
pub fn rule_list(rules: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
    let Some(rules) = rules.filter(|r| !r.is_none()) else {
        return Ok(Vec::new());
    };
    if let Ok(s) = rules.downcast::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "rules= is a list of 'KEY=VALUE' strings: pass [{:?}], not a string",
            s.to_string_lossy()
        )));
    }
    rules.extract().map_err(|_| {
        PyTypeError::new_err("rules= is a list of 'KEY=VALUE' strings, e.g. [\"dog_swims=true\"]")
    })
}

/// The rule set `name` with `options` applied. `name` is `standard`,
/// `leiden` or `popular`; with `tables` (a tables root or one rule set's
/// directory), also the label of a custom rule set found there
/// (`popular-custom-96041d7177d2e47e`), whose options its tables record.
pub fn ruleset_from(name: &str, options: &[String], tables: Option<&Path>) -> PyResult<Ruleset> {
    let mut r = match Ruleset::by_name(name) {
        Ok(r) => r,
        Err(e) => match tables.and_then(|t| jungletb_tablebase::ruleset_of_label(t, name)) {
            Some(r) => r,
            None if name.contains("-custom-") => {
                return Err(PyValueError::new_err(format!(
                    "rule set '{name}': a custom label is known only from tables that record \
                     its options; open the tablebase with it (its tables are under that \
                     label), or name the base rule set and its options \
                     (ruleset=\"popular\", rules=[\"KEY=VALUE\", ...])"
                )))
            }
            None => return Err(PyValueError::new_err(e.to_string())),
        },
    };
    for kv in options {
        r.apply_override(kv)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    r.check_supported()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(r)
}

/// The base name of `rules` and the options in which they differ from it:
/// what `ruleset_from` takes to build them again.
pub fn ruleset_state(rules: &Ruleset) -> (&'static str, Vec<String>) {
    let base = Ruleset::named(rules.base);
    let theirs = base.options();
    let options = rules
        .options()
        .into_iter()
        .zip(theirs)
        .filter(|((_, mine), (_, base))| mine != base)
        .map(|((k, v), _)| format!("{k}={v}"))
        .collect();
    (rules.base.name(), options)
}
