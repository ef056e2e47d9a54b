//! The package's exceptions, and which one each failure raises.

use jungletb_rules::Ruleset;
use jungletb_solver::SolveError;
use jungletb_tablebase::{ProbeError, TableError};
use jungletb_wire::ErrorKind;
use pyo3::create_exception;
use pyo3::exceptions::{PyKeyError, PyKeyboardInterrupt, PyOSError, PyRuntimeError, PyValueError};
use pyo3::PyErr;
use std::path::Path;

create_exception!(
    _jungletb,
    MissingTableError,
    PyKeyError,
    "The table a probe needs is not there (the message names the material and the directory)."
);
create_exception!(
    _jungletb,
    BadTableError,
    PyRuntimeError,
    "A table is damaged, truncated or of another rule set."
);
create_exception!(
    _jungletb,
    RulesetMismatch,
    PyValueError,
    "A position under other rules than the tablebase's: no answer is given under rules it was not asked under."
);

/// Which exception a probe failure raises: `"missing"`, `"bad_table"`,
/// `"mismatch"` or `"value"` (batches carry the kind across threads).
pub fn kind(e: &ProbeError) -> &'static str {
    // From the one mapping of failures to kinds (the HTTP API's, the
    // command line's, the browser's).
    match ErrorKind::of(e) {
        ErrorKind::MissingTable | ErrorKind::NoTables => "missing",
        ErrorKind::BadTable => "bad_table",
        ErrorKind::RulesetMismatch => "mismatch",
        _ => "value",
    }
}

/// The exception of a failure of `kind` with `message`.
pub fn of_kind(kind: &str, message: String) -> PyErr {
    match kind {
        "missing" => MissingTableError::new_err(message),
        "bad_table" => BadTableError::new_err(message),
        "mismatch" => RulesetMismatch::new_err(message),
        _ => PyValueError::new_err(message),
    }
}

/// The Python exception for a probe failure.
pub fn probe(e: ProbeError) -> PyErr {
    of_kind(kind(&e), message(&e))
}

/// The message of a probe failure: for a missing table or rule set, with
/// the call (and the command) that makes it, as the command line's hint.
pub fn message(e: &ProbeError) -> String {
    let make = |root: &Path, label: &str, what: &str, cli: &str| {
        let rules = match Ruleset::by_name(label) {
            Ok(_) => format!("ruleset={label:?}"),
            Err(_) => format!("rules=<the options of {label}>"),
        };
        format!(
            "{e}; make {what} with jungletb.generate({:?}, {rules}, {cli}) (or the command `jungletb generate --out {}`)",
            root.display().to_string(),
            root.display()
        )
    };
    match e {
        ProbeError::Table(TableError::Missing(path)) => {
            let parts = (|| {
                let material = path.file_stem()?.to_str()?;
                let dir = path.parent()?;
                Some((material, dir.file_name()?.to_str()?, dir.parent()?))
            })();
            match parts {
                Some((material, label, root)) => {
                    make(root, label, "it", &format!("materials=[{material:?}]"))
                }
                None => e.to_string(),
            }
        }
        ProbeError::NoTables { ruleset, dir, .. } => match dir.parent() {
            Some(root) => make(root, ruleset, "them", "max_pieces=3"),
            None => e.to_string(),
        },
        _ => e.to_string(),
    }
}

/// The Python exception for a failed generation, with the whole chain.
pub fn solve(e: SolveError) -> PyErr {
    let message = jungletb_wire::chain(&e);
    match e {
        SolveError::Interrupted { .. } | SolveError::Checkpointed { .. } => {
            PyKeyboardInterrupt::new_err(message)
        }
        SolveError::Io { .. } | SolveError::NoSpace { .. } | SolveError::SpaceUnknown { .. } => {
            PyOSError::new_err(message)
        }
        SolveError::Rules(_) | SolveError::Index(_) | SolveError::MemoryTooSmall { .. } => {
            PyValueError::new_err(message)
        }
        SolveError::Probe(p) => probe(p),
        _ => PyRuntimeError::new_err(message),
    }
}
