//! Errors of the solver.

use jungletb_tablebase::{ProbeError, TableError};
use std::fmt;

/// Generation failed.
#[derive(Debug)]
pub enum SolveError {
    /// Reading or writing a file failed.
    Io(String),
    /// A sub-table is missing or invalid, or a table could not be written.
    Table(TableError),
    /// A sub-table probe failed.
    Probe(ProbeError),
    /// The material or rule set is not valid.
    Invalid(String),
    /// A distance outgrew what the table format can store.
    DistanceOverflow(String),
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Io(m) => write!(f, "I/O error: {m}"),
            SolveError::Table(e) => write!(f, "{e}"),
            SolveError::Probe(e) => write!(f, "{e}"),
            SolveError::Invalid(m) => f.write_str(m),
            SolveError::DistanceOverflow(m) => write!(f, "distance overflow: {m}"),
        }
    }
}

impl std::error::Error for SolveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SolveError::Table(e) => Some(e),
            SolveError::Probe(e) => Some(e),
            _ => None,
        }
    }
}

impl From<TableError> for SolveError {
    fn from(e: TableError) -> Self {
        SolveError::Table(e)
    }
}

impl From<ProbeError> for SolveError {
    fn from(e: ProbeError) -> Self {
        SolveError::Probe(e)
    }
}
