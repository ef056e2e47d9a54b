//! Errors of the solver.

use jungletb_indexer::{IndexError, Material};
use jungletb_rules::RulesError;
use jungletb_tablebase::{ProbeError, TableError};
use std::path::PathBuf;

/// Generation, compression or verification failed.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// Reading, writing or allocating failed
    /// ([`source`](std::error::Error::source) is the operating system's error).
    #[error("{}{doing} failed", in_path(.path))]
    Io {
        /// The file or directory; `None` for anonymous memory.
        path: Option<PathBuf>,
        /// What was being done.
        doing: &'static str,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// A sub-table is missing or invalid, or a table could not be written.
    #[error(transparent)]
    Table(#[from] TableError),
    /// A sub-table probe failed.
    #[error(transparent)]
    Probe(#[from] ProbeError),
    /// The rule set cannot be solved under.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// A material has no index under the rule set.
    #[error(transparent)]
    Index(#[from] IndexError),
    /// The caller asked the solve of `material` to stop (see
    /// [`Watch::stop`](crate::Watch)); nothing of that material was kept,
    /// every table finished before it was.
    #[error(
        "interrupted while solving {material}; the tables finished before it are kept, \
         and the same request again resumes"
    )]
    Interrupted {
        /// The material being solved.
        material: Material,
    },
    /// The caller asked the solve of `material` to stop and gave it a
    /// checkpoint file: the state between two levels is saved there, and
    /// the same solve started again resumes from it (see
    /// [`Watch::checkpoint`](crate::Watch)).
    #[error(
        "stopped while solving {material}: its state at level {level} is saved in {}, \
         and the same request again resumes there",
        .path.display()
    )]
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
    #[error("{}: cannot resume from this checkpoint: {reason}", .path.display())]
    CheckpointRefused {
        /// The checkpoint file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// A memory budget below what the solve of `material` needs to make
    /// progress (its buffers and, for a 6-piece material, the buckets of a
    /// level's rounds).
    #[error(
        "a memory budget of {budget} bytes is too small to make progress: {material} needs at \
         least {need} bytes in memory (buffers and move tables, and for 6 pieces the buckets \
         of a level's rounds; the cells can live in a file)"
    )]
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
    #[error("{}: {available} bytes available, but {}", .dir.display(), space_need(*.tables, *.largest, *.need))]
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
    #[error(
        "{}: reading the free space failed, so the space the tables need was not checked",
        .dir.display()
    )]
    SpaceUnknown {
        /// Where the space was read: the rule set's table directory or, before
        /// it exists, its nearest existing ancestor.
        dir: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// A request found no table file to work on.
    #[error("no table {}in '{}'", for_materials(.materials), .dir.display())]
    NoTables {
        /// The directory searched.
        dir: PathBuf,
        /// The materials asked for (empty: any).
        materials: Vec<Material>,
    },
    /// `compress` found compressed tables but no plain one to compress.
    #[error(
        "no plain table (.jtb) to compress in '{}': its {compressed} table{} compressed \
         already (.jtbz)",
        .dir.display(),
        if *.compressed == 1 { " is" } else { "s are" }
    )]
    NoPlainTables {
        /// The directory searched.
        dir: PathBuf,
        /// The compressed tables (`.jtbz`) found there.
        compressed: usize,
    },
    /// A table just written does not answer as its source; it was moved
    /// aside.
    #[error(
        "{}: does not answer as its source (moved to {})",
        .path.display(),
        .moved_to.display()
    )]
    Disagrees {
        /// The table written.
        path: PathBuf,
        /// Where it is now.
        moved_to: PathBuf,
        /// The first difference found.
        source: Box<ProbeError>,
    },
    /// A table file is not named after the material it holds.
    #[error("{}: holds another material, so it must be named {expected}", .path.display())]
    WrongName {
        /// The file.
        path: PathBuf,
        /// The name it must have.
        expected: String,
    },
    /// The worker threads could not be started.
    #[error("starting the worker threads failed")]
    ThreadPool(#[source] rayon::ThreadPoolBuildError),
    /// A distance outgrew what the working cells can hold.
    #[error(
        "{material}: {} distances beyond {limit} plies, more than the working cells hold",
        if *.in_subtable { "a smaller table holds" } else { "the solve reached" }
    )]
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
    #[error(
        "{material}: a position with a weighted count of {count} successors, more than the \
         {limit} a working cell counts"
    )]
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

/// The start of [`SolveError::Io`]'s message: its path, if any.
fn in_path(path: &Option<PathBuf>) -> String {
    path.as_ref()
        .map_or(String::new(), |p| format!("{}: ", p.display()))
}

/// The materials of [`SolveError::NoTables`]'s message, if any.
fn for_materials(materials: &[Material]) -> String {
    if materials.is_empty() {
        return "files ".into();
    }
    let names: Vec<String> = materials.iter().map(|m| m.to_string()).collect();
    format!("for {} ", names.join(", "))
}

/// What a [`SolveError::NoSpace`] needs, for one table or for many.
fn space_need(tables: usize, largest: Material, need: u64) -> String {
    if tables == 1 {
        format!(
            "solving {largest} needs at least {need} (its table at a byte a slot, and any \
             working files)"
        )
    } else {
        format!(
            "the {tables} tables still to solve need at least {need} (a byte a slot each, \
             {largest} the largest, and any working files)"
        )
    }
}
