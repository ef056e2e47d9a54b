//! Typed errors for table files.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A table file is missing, unreadable or not a valid table for the request.
///
/// `Clone` (an I/O error is shared behind an [`Arc`]) so that a tablebase
/// can keep the error of a table that failed to open and answer it again.
#[derive(Debug, Clone)]
pub enum TableError {
    /// The file does not exist.
    Missing(PathBuf),
    /// The directory asked for is not a directory.
    NotADirectory(PathBuf),
    /// Reading or writing the file failed ([`source`](std::error::Error::source)
    /// is the operating system's error).
    Io {
        /// The file.
        path: PathBuf,
        /// What was being done ("reading", "writing", "compressing").
        doing: &'static str,
        /// The operating system's error.
        source: Arc<std::io::Error>,
    },
    /// The file does not start with the jungletb magic bytes.
    NotATable(PathBuf),
    /// Shorter or longer than its header says.
    Truncated {
        /// The file.
        path: PathBuf,
        /// Size the header implies.
        expected: u64,
        /// Size on disk.
        found: u64,
    },
    /// Written by a format or index scheme this version cannot read.
    UnsupportedVersion {
        /// The file.
        path: PathBuf,
        /// What is unsupported.
        what: Unsupported,
    },
    /// Solved under another rule set than the one asked for.
    WrongRuleset {
        /// The file.
        path: PathBuf,
        /// The rule set asked for.
        expected: String,
        /// The rule set in the file.
        found: String,
    },
    /// Holds another material than its name says.
    WrongMaterial {
        /// The file.
        path: PathBuf,
        /// Material asked for.
        expected: String,
        /// Material in the file.
        found: String,
    },
    /// A checksum does not match: the file is corrupt.
    ChecksumMismatch {
        /// The file.
        path: PathBuf,
        /// Header or payload.
        part: &'static str,
    },
    /// Opening the table would exceed the tablebase's limits on mapped
    /// bytes and open files.
    Limit {
        /// The file.
        path: PathBuf,
        /// Which limits.
        what: String,
    },
    /// The table stores "don't care" values for positions a capture or an
    /// immediate win decides (see [`crate::compressed`]): its values are
    /// answered only with the search that recovers them, through a
    /// [`crate::Tablebase`] holding the tables the captures lead into.
    NeedsSearch(PathBuf),
    /// A plain table offered range by range (over HTTP, say): with no
    /// checks of its own parts, it is read only whole, with its checksum.
    NeedsWholeFile(PathBuf),
    /// Any other inconsistency.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
}

/// What a table uses that this jungletb does not read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unsupported {
    /// Another table format version.
    FormatVersion {
        /// The file's version.
        found: u32,
        /// The version this jungletb reads.
        supported: u32,
    },
    /// Another index scheme.
    IndexScheme {
        /// The file's scheme.
        found: u32,
        /// The scheme this jungletb uses.
        supported: u32,
    },
    /// Header flags this jungletb does not know.
    HeaderFlags {
        /// The flags byte.
        flags: u8,
    },
    /// A compressed payload of an older jungletb (LZ4 WDL blocks, or blocks
    /// without checks or checkpoints).
    OldCompressedPayload,
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unsupported::FormatVersion { found, supported } => write!(
                f,
                "format version {found} (this jungletb reads version {supported})"
            ),
            Unsupported::IndexScheme { found, supported } => write!(
                f,
                "index scheme version {found} (this jungletb uses version {supported})"
            ),
            Unsupported::HeaderFlags { flags } => write!(f, "header flags {flags:#04x}"),
            Unsupported::OldCompressedPayload => f.write_str(
                "compressed payload of an older jungletb (LZ4 WDL blocks, or blocks \
                 without checks or checkpoints)",
            ),
        }
    }
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Missing(p) => write!(f, "{}: table file not found", p.display()),
            TableError::NotADirectory(p) => write!(f, "{}: not a directory", p.display()),
            TableError::Io { path, doing, .. } => write!(f, "{}: {doing} failed", path.display()),
            TableError::NotATable(p) => {
                write!(f, "{}: not a jungletb table (bad magic bytes)", p.display())
            }
            TableError::Truncated {
                path,
                expected,
                found,
            } => write!(
                f,
                "{}: truncated or padded table: {found} bytes, header implies {expected}",
                path.display()
            ),
            TableError::UnsupportedVersion { path, what } => {
                write!(f, "{}: unsupported {what}", path.display())
            }
            TableError::WrongRuleset {
                path,
                expected,
                found,
            } => write!(
                f,
                "{}: table was solved under rule set '{found}', not '{expected}'",
                path.display()
            ),
            TableError::WrongMaterial {
                path,
                expected,
                found,
            } => write!(
                f,
                "{}: file holds material {found}, expected {expected}",
                path.display()
            ),
            TableError::ChecksumMismatch { path, part } => {
                write!(
                    f,
                    "{}: {part} checksum mismatch: the file is corrupt",
                    path.display()
                )
            }
            TableError::Limit { path, what } => {
                write!(f, "{}: not opened: {what}", path.display())
            }
            TableError::NeedsSearch(p) => write!(
                f,
                "{}: this compressed table leaves the values of positions decided by a \
                 capture or an immediate win to a search at probe time, through a \
                 tablebase; read slot by slot (alone, or as a smaller table while \
                 generating) it needs its plain table, or a compressed one without \
                 don't-cares",
                p.display()
            ),
            TableError::NeedsWholeFile(p) => write!(
                f,
                "{}: a plain table is not read range by range (its parts carry no \
                 checks of their own, and its whole-file checksum needs every byte): \
                 serve its compressed table, or the whole file",
                p.display()
            ),
            TableError::Corrupt { path, what } => {
                write!(f, "{}: corrupt table: {what}", path.display())
            }
        }
    }
}

impl std::error::Error for TableError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TableError::Io { source, .. } => Some(&**source),
            _ => None,
        }
    }
}

/// Equal when of the same kind about the same file (I/O errors: the same
/// operation and error kind).
impl PartialEq for TableError {
    fn eq(&self, other: &TableError) -> bool {
        use TableError::*;
        match (self, other) {
            (
                Io {
                    path: a,
                    doing: x,
                    source: e,
                },
                Io {
                    path: b,
                    doing: y,
                    source: g,
                },
            ) => a == b && x == y && e.kind() == g.kind(),
            (Missing(a), Missing(b))
            | (NotADirectory(a), NotADirectory(b))
            | (NotATable(a), NotATable(b))
            | (NeedsSearch(a), NeedsSearch(b))
            | (NeedsWholeFile(a), NeedsWholeFile(b)) => a == b,
            _ => format!("{self:?}") == format!("{other:?}"),
        }
    }
}

impl Eq for TableError {}

impl TableError {
    /// The error for an I/O failure on `path`: [`TableError::Missing`] if
    /// the file does not exist, else [`TableError::Io`] (`doing` says what
    /// was being done: "reading", "writing").
    pub fn from_io(path: &Path, doing: &'static str, e: std::io::Error) -> TableError {
        if e.kind() == std::io::ErrorKind::NotFound {
            TableError::Missing(path.to_path_buf())
        } else {
            TableError::io(path, doing, e)
        }
    }

    /// [`TableError::Io`] for `path`, whatever the error's kind.
    pub fn io(path: &Path, doing: &'static str, e: std::io::Error) -> TableError {
        TableError::Io {
            path: path.to_path_buf(),
            doing,
            source: Arc::new(e),
        }
    }

    /// The file the error is about.
    pub fn path(&self) -> &Path {
        use TableError::*;
        match self {
            Missing(p) | NotADirectory(p) | NotATable(p) | NeedsSearch(p) | NeedsWholeFile(p) => p,
            Io { path, .. }
            | Truncated { path, .. }
            | UnsupportedVersion { path, .. }
            | WrongRuleset { path, .. }
            | WrongMaterial { path, .. }
            | ChecksumMismatch { path, .. }
            | Limit { path, .. }
            | Corrupt { path, .. } => path,
        }
    }
}
