//! Typed errors of probes.

use jungletb_format::TableError;
use jungletb_rules::{PositionError, RulesError};
use std::fmt;

/// A probe could not be answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProbeError {
    /// The position cannot occur under the rules.
    Position(PositionError),
    /// The game is already over (a side has no pieces).
    GameOver(String),
    /// The rule set is not one the tables can be solved or probed under.
    Rules(RulesError),
    /// No tables directory for this rule set.
    NoTables(String),
    /// A table needed for the answer is missing or invalid.
    Table(TableError),
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::Position(e) => write!(f, "{e}"),
            ProbeError::GameOver(m) => write!(f, "game over: {m}"),
            ProbeError::Rules(e) => write!(f, "{e}"),
            ProbeError::NoTables(m) => f.write_str(m),
            ProbeError::Table(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ProbeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ProbeError::Position(e) => Some(e),
            ProbeError::Rules(e) => Some(e),
            ProbeError::Table(e) => Some(e),
            ProbeError::GameOver(_) | ProbeError::NoTables(_) => None,
        }
    }
}

impl From<PositionError> for ProbeError {
    fn from(e: PositionError) -> Self {
        ProbeError::Position(e)
    }
}

impl From<TableError> for ProbeError {
    fn from(e: TableError) -> Self {
        ProbeError::Table(e)
    }
}
