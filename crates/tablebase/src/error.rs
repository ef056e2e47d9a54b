//! Typed errors of probes.

use crate::game_over::GameOver;
use jungletb_format::TableError;
use jungletb_rules::{PositionError, RulesError};
use std::fmt;
use std::path::PathBuf;

/// A probe could not be answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProbeError {
    /// The position cannot occur under the rules.
    Position(PositionError),
    /// The game is already over: no table holds the position
    /// ([`Tablebase::evaluate`](crate::Tablebase::evaluate) answers it).
    GameOver(GameOver),
    /// The rule set is not one the tables can be solved or probed under.
    Rules(RulesError),
    /// No tables directory for this rule set under the tables root.
    NoTables {
        /// The rule set's label (its directory name).
        ruleset: String,
        /// The directory that would hold the tables: `<root>/<label>`.
        /// (The tables root is its parent; not kept apart, so that probe
        /// results stay as small as before: 80 bytes.)
        dir: PathBuf,
        /// The rule-set directories the root does hold.
        found: Vec<String>,
    },
    /// A table needed for the answer is missing or invalid.
    Table(TableError),
    /// The position was given under other rules than the tables': its
    /// answer under these tables would be an answer under the wrong rules.
    RulesetMismatch {
        /// The label of the rule set the position was given under.
        position: String,
        /// The label of the tables' rule set.
        tables: String,
    },
    /// A move asked about is not legal in the position.
    IllegalMove {
        /// The position, in jungletb notation.
        position: String,
        /// The move, from-square then to-square.
        mv: String,
    },
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::Position(e) => write!(f, "{e}"),
            ProbeError::GameOver(g) => write!(f, "game over: {}", g.describe()),
            ProbeError::Rules(e) => write!(f, "{e}"),
            ProbeError::NoTables {
                ruleset,
                dir,
                found,
            } => {
                let root = dir.parent().unwrap_or(dir);
                write!(
                    f,
                    "no tables for rule set '{ruleset}' in '{}' (no directory '{}')",
                    root.display(),
                    dir.display()
                )?;
                if !found.is_empty() {
                    write!(f, "; tables found for: {}", found.join(", "))?;
                }
                Ok(())
            }
            ProbeError::Table(e) => write!(f, "{e}"),
            ProbeError::RulesetMismatch { position, tables } => write!(
                f,
                "the position is under rule set '{position}' but the tables are of rule set '{tables}'"
            ),
            ProbeError::IllegalMove { position, mv } => {
                write!(f, "{mv} is not a legal move in {position}")
            }
        }
    }
}

impl std::error::Error for ProbeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            // The message is the inner error's too: printers of cause
            // chains skip a cause that repeats the message before it.
            ProbeError::Position(e) => Some(e),
            ProbeError::Rules(e) => Some(e),
            ProbeError::Table(e) => Some(e),
            ProbeError::GameOver(_)
            | ProbeError::NoTables { .. }
            | ProbeError::RulesetMismatch { .. }
            | ProbeError::IllegalMove { .. } => None,
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
