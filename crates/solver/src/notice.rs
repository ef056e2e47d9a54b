//! What a run tells its user about the files it finds, as data: the caller
//! words it (the CLI marks a table moved aside as a warning).

use jungletb_tablebase::TableError;
use std::fmt;
use std::path::Path;

/// Something [`generate`](crate::generate_with) or
/// [`compress`](crate::compress()) met on disk that the user should know.
#[derive(Debug, Clone, Copy)]
pub enum Notice<'a> {
    /// Another run holds the claim on this table: waiting for it to finish.
    Waiting {
        /// The table being written by the other run.
        table: &'a Path,
    },
    /// A table found invalid was renamed aside (never deleted) and is
    /// solved again.
    MovedAside {
        /// Why it was refused.
        error: &'a TableError,
        /// Where it is now.
        to: &'a Path,
    },
    /// A file an interrupted run left behind was removed.
    LeftoverRemoved {
        /// The file.
        path: &'a Path,
    },
}

impl Notice<'_> {
    /// A table was set aside: the user's data moved, which deserves a
    /// warning rather than a note.
    pub fn is_warning(&self) -> bool {
        matches!(self, Notice::MovedAside { .. })
    }
}

impl fmt::Display for Notice<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Notice::Waiting { table } => {
                write!(f, "{}: another run is writing it; waiting", table.display())
            }
            Notice::MovedAside { error, to } => {
                write!(f, "{error}; moved to {} and solving again", to.display())
            }
            Notice::LeftoverRemoved { path } => {
                write!(f, "removed {} left by an interrupted run", path.display())
            }
        }
    }
}
