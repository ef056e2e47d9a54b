//! Errors of the solver.

use jungletb_indexer::{IndexError, Material};
use jungletb_rules::RulesError;
use jungletb_tablebase::{ProbeError, TableError};
use std::fmt;
use std::path::PathBuf;

/// Generation, compression or verification failed.
#[derive(Debug)]
pub enum SolveError {
    /// Reading, writing or allocating failed
    /// ([`source`](std::error::Error::source) is the operating system's error).
    Io {
        /// The file or directory; `None` for anonymous memory.
        path: Option<PathBuf>,
        /// What was being done.
        doing: &'static str,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// A sub-table is missing or invalid, or a table could not be written.
    Table(TableError),
    /// A sub-table probe failed.
    Probe(ProbeError),
    /// The rule set cannot be solved under.
    Rules(RulesError),
    /// A material has no index under the rule set.
    Index(IndexError),
    /// The caller asked the solve of `material` to stop (see
    /// [`Watch::stop`](crate::Watch)); nothing of that material was kept,
    /// every table finished before it was.
    Interrupted {
        /// The material being solved.
        material: Material,
    },
    /// The caller asked the solve of `material` to stop and gave it a
    /// checkpoint file: the state between two levels is saved there, and
    /// the same solve started again resumes from it (see
    /// [`Watch::checkpoint`](crate::Watch)).
    Checkpointed {
        /// The material being solved.
        material: Material,
        /// The checkpoint file.
        path: PathBuf,
        /// The level the solve resumes at.
        level: u16,
    },
    /// A checkpoint that cannot be resumed from: of another jungletb
    /// version, material or rule set, or damaged. It is left as it is.
    CheckpointRefused {
        /// The checkpoint file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// A memory budget below what the solve of `material` needs to make
    /// progress (its buffers and, for a 6-piece material, the buckets of a
    /// level's rounds).
    MemoryTooSmall {
        /// The budget given, in bytes.
        budget: u64,
        /// The material that needs more.
        material: Material,
        /// The least it needs, in bytes.
        need: u64,
    },
    /// The file system of the tables directory has less space available
    /// than the tables still to solve need at least (checked before solving:
    /// each table at one byte a slot, with its header, and the largest
    /// working files of a solve beyond the memory budget).
    NoSpace {
        /// The rule set's table directory.
        dir: PathBuf,
        /// Tables still to solve that the need counts.
        tables: usize,
        /// The one of them that needs the most.
        largest: Material,
        /// The least they need, in bytes.
        need: u64,
        /// What the file system has available, in bytes.
        available: u64,
    },
    /// The free space of the tables directory's file system could not be
    /// read, so the check before solving could not be made
    /// ([`source`](std::error::Error::source) is the operating system's error).
    SpaceUnknown {
        /// Where the space was read: the rule set's table directory or, before
        /// it exists, its nearest existing ancestor.
        dir: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// A request found no table file to work on.
    NoTables {
        /// The directory searched.
        dir: PathBuf,
        /// The materials asked for (empty: any).
        materials: Vec<Material>,
    },
    /// `compress` found compressed tables but no plain one to compress.
    NoPlainTables {
        /// The directory searched.
        dir: PathBuf,
        /// The compressed tables (`.jtbz`) found there.
        compressed: usize,
    },
    /// A table just written does not answer as its source; it was moved
    /// aside.
    Disagrees {
        /// The table written.
        path: PathBuf,
        /// Where it is now.
        moved_to: PathBuf,
        /// The first difference found.
        source: Box<ProbeError>,
    },
    /// A table file is not named after the material it holds.
    WrongName {
        /// The file.
        path: PathBuf,
        /// The name it must have.
        expected: String,
    },
    /// The worker threads could not be started.
    ThreadPool(rayon::ThreadPoolBuildError),
    /// A distance outgrew what the working cells can hold.
    DistanceOverflow {
        /// The material being solved.
        material: Material,
        /// The most plies a working cell holds.
        limit: u16,
        /// The distance came from a smaller table (read through a capture).
        in_subtable: bool,
    },
    /// A position has more successors than a working cell counts (not
    /// reachable below 9 pieces).
    TooManyMoves {
        /// The material being solved.
        material: Material,
        /// The weighted successor count found.
        count: usize,
        /// The most a cell counts.
        limit: usize,
    },
}

impl SolveError {
    /// [`SolveError::Io`] for `path`.
    pub(crate) fn io(path: impl Into<PathBuf>, doing: &'static str, e: std::io::Error) -> Self {
        SolveError::Io {
            path: Some(path.into()),
            doing,
            source: e,
        }
    }

    /// [`SolveError::Io`] of anonymous memory (no file).
    pub(crate) fn memory(doing: &'static str, e: std::io::Error) -> Self {
        SolveError::Io {
            path: None,
            doing,
            source: e,
        }
    }
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Io {
                path: None, doing, ..
            } => write!(f, "{doing} failed"),
            SolveError::Io {
                path: Some(path),
                doing,
                ..
            } => write!(f, "{}: {doing} failed", path.display()),
            SolveError::Table(e) => write!(f, "{e}"),
            SolveError::Probe(e) => write!(f, "{e}"),
            SolveError::Rules(e) => write!(f, "{e}"),
            SolveError::Index(e) => write!(f, "{e}"),
            SolveError::ThreadPool(_) => f.write_str("starting the worker threads failed"),
            SolveError::Interrupted { .. }
            | SolveError::Checkpointed { .. }
            | SolveError::CheckpointRefused { .. } => self.fmt_stop(f),
            SolveError::MemoryTooSmall { .. }
            | SolveError::NoSpace { .. }
            | SolveError::SpaceUnknown { .. } => self.fmt_resources(f),
            SolveError::NoTables { .. }
            | SolveError::NoPlainTables { .. }
            | SolveError::Disagrees { .. }
            | SolveError::WrongName { .. } => self.fmt_files(f),
            SolveError::DistanceOverflow { .. } | SolveError::TooManyMoves { .. } => {
                self.fmt_cells(f)
            }
        }
    }
}

/// The messages of [`SolveError`]'s variants, by kind; `Display` sends
/// each variant to its kind.
impl SolveError {
    /// A stopped solve, and its checkpoint.
    fn fmt_stop(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Interrupted { material } => write!(
                f,
                "interrupted while solving {material}; the tables finished before it are kept, \
                 and the same request again resumes"
            ),
            SolveError::Checkpointed {
                material,
                path,
                level,
            } => write!(
                f,
                "stopped while solving {material}: its state at level {level} is saved in {}, \
                 and the same request again resumes there",
                path.display()
            ),
            SolveError::CheckpointRefused { path, reason } => write!(
                f,
                "{}: cannot resume from this checkpoint: {reason}",
                path.display()
            ),
            _ => unreachable!("Display sends only stops here"),
        }
    }

    /// Memory or disk space short, or unknown.
    fn fmt_resources(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::MemoryTooSmall {
                budget,
                material,
                need,
            } => write!(
                f,
                "a memory budget of {budget} bytes is too small to make progress: {material} \
                 needs at least {need} bytes in memory (buffers and move tables, and for 6 pieces \
                 the buckets of a level's rounds; the cells can live in a file)"
            ),
            SolveError::NoSpace {
                dir,
                tables,
                largest,
                need,
                available,
            } => {
                write!(f, "{}: {available} bytes available, but ", dir.display())?;
                no_space_need(f, *tables, *largest, *need)
            }
            SolveError::SpaceUnknown { dir, .. } => write!(
                f,
                "{}: reading the free space failed, so the space the tables need was not checked",
                dir.display()
            ),
            _ => unreachable!("Display sends only resources here"),
        }
    }

    /// Table files missing, already compressed, wrong or misnamed.
    fn fmt_files(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::NoTables { dir, materials } if materials.is_empty() => {
                write!(f, "no table files in '{}'", dir.display())
            }
            SolveError::NoTables { dir, materials } => {
                let names: Vec<String> = materials.iter().map(|m| m.to_string()).collect();
                write!(
                    f,
                    "no table for {} in '{}'",
                    names.join(", "),
                    dir.display()
                )
            }
            SolveError::NoPlainTables { dir, compressed } => write!(
                f,
                "no plain table (.jtb) to compress in '{}': its {compressed} table{} compressed \
                 already (.jtbz)",
                dir.display(),
                if *compressed == 1 { " is" } else { "s are" }
            ),
            SolveError::Disagrees { path, moved_to, .. } => write!(
                f,
                "{}: does not answer as its source (moved to {})",
                path.display(),
                moved_to.display()
            ),
            SolveError::WrongName { path, expected } => write!(
                f,
                "{}: holds another material, so it must be named {expected}",
                path.display()
            ),
            _ => unreachable!("Display sends only files here"),
        }
    }

    /// A material whose distances or counts its cells cannot hold.
    fn fmt_cells(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::DistanceOverflow {
                material,
                limit,
                in_subtable,
            } => {
                let whose = if *in_subtable {
                    "a smaller table holds"
                } else {
                    "the solve reached"
                };
                write!(
                    f,
                    "{material}: {whose} distances beyond {limit} plies, more than the working \
                     cells hold"
                )
            }
            SolveError::TooManyMoves {
                material,
                count,
                limit,
            } => write!(
                f,
                "{material}: a position with a weighted count of {count} successors, more than \
                 the {limit} a working cell counts"
            ),
            _ => unreachable!("Display sends only cell limits here"),
        }
    }
}

/// What a [`SolveError::NoSpace`] needs, for one table or for many.
fn no_space_need(
    f: &mut fmt::Formatter<'_>,
    tables: usize,
    largest: Material,
    need: u64,
) -> fmt::Result {
    if tables == 1 {
        write!(
            f,
            "solving {largest} needs at least {need} (its table at a byte a slot, and any \
             working files)"
        )
    } else {
        write!(
            f,
            "the {tables} tables still to solve need at least {need} (a byte a slot each, \
             {largest} the largest, and any working files)"
        )
    }
}

impl std::error::Error for SolveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SolveError::Io { source, .. } | SolveError::SpaceUnknown { source, .. } => Some(source),
            SolveError::Table(e) => e.source(),
            SolveError::Probe(e) => e.source(),
            SolveError::Rules(e) => e.source(),
            SolveError::Index(e) => e.source(),
            SolveError::ThreadPool(e) => Some(e),
            SolveError::Disagrees { source, .. } => Some(&**source),
            SolveError::MemoryTooSmall { .. }
            | SolveError::Interrupted { .. }
            | SolveError::Checkpointed { .. }
            | SolveError::CheckpointRefused { .. }
            | SolveError::NoSpace { .. }
            | SolveError::DistanceOverflow { .. }
            | SolveError::TooManyMoves { .. }
            | SolveError::NoTables { .. }
            | SolveError::NoPlainTables { .. }
            | SolveError::WrongName { .. } => None,
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

impl From<IndexError> for SolveError {
    fn from(e: IndexError) -> Self {
        SolveError::Index(e)
    }
}

impl From<RulesError> for SolveError {
    fn from(e: RulesError) -> Self {
        SolveError::Rules(e)
    }
}
