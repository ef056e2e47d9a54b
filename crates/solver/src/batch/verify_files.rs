//! Verifying a directory of tables, file by file: which check each file
//! gets.
//!
//! - A plain table, or a compressed one with no plain table beside it:
//!   checksums and header on opening, then forward consistency
//!   ([`crate::verify_material`]): every stored value agrees with its successors'.
//! - A compressed table with its plain table beside it: it must answer
//!   every position as the plain one does (the plain one is verified on its
//!   own). With don't-cares, "answers" means through the search that
//!   recovers them, as probes do.
//! - A file whose name is not its material's is a failure.

use crate::batch::files::select_files;
use crate::error::SolveError;
use crate::verify::verify_material_with;
use jungletb_indexer::Material;
use jungletb_rules::{Ruleset, Value};
use jungletb_tablebase::{
    Header, Table, TableError, Tablebase, COMPRESSED_EXTENSION, TABLE_EXTENSION,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What to verify.
#[derive(Debug, Clone)]
pub struct VerifyOptions {
    /// A tables root (one directory per rule set) or one rule set's
    /// directory.
    pub tables: PathBuf,
    /// Only these materials (any colour order; empty: every table).
    pub materials: Vec<Material>,
}

/// The verdict on one file.
#[derive(Debug)]
pub struct FileVerdict {
    /// The file.
    pub path: PathBuf,
    /// Positions checked (0 when the file failed before any).
    pub positions: u64,
    /// What the check found.
    pub outcome: Outcome,
}

/// What the check of one file found.
#[derive(Debug)]
pub enum Outcome {
    /// Every position agrees with its successors.
    Consistent {
        /// The rule set's label.
        ruleset: String,
    },
    /// A compressed table answers every position as the plain table beside it.
    AnswersAsPlain {
        /// The plain table.
        plain: PathBuf,
    },
    /// Some positions disagree with their successors.
    Inconsistent {
        /// How many.
        mismatches: u64,
        /// Up to ten: (position, stored, what the successors give).
        examples: Vec<(String, Value, Value)>,
    },
    /// The file could not be checked, or is not what its name says.
    Failed(SolveError),
}

impl FileVerdict {
    /// The file passed.
    pub fn passed(&self) -> bool {
        matches!(
            self.outcome,
            Outcome::Consistent { .. } | Outcome::AnswersAsPlain { .. }
        )
    }

    fn failed(path: &Path, e: impl Into<SolveError>) -> FileVerdict {
        FileVerdict {
            path: path.to_path_buf(),
            positions: 0,
            outcome: Outcome::Failed(e.into()),
        }
    }
}

/// Verifies every table file under `opts.tables`, in name order, on the
/// current rayon thread pool, calling `on_verdict` after each file. Fails
/// as a whole only when there is nothing to verify.
pub fn verify(
    opts: &VerifyOptions,
    on_verdict: &mut dyn FnMut(&FileVerdict),
) -> Result<Vec<FileVerdict>, SolveError> {
    verify_with(opts, on_verdict, &|_| {})
}

/// How far the forward check of one file has got (see [`verify_with`]).
#[derive(Debug, Clone, Copy)]
pub struct VerifyProgress<'a> {
    /// The file being checked.
    pub path: &'a Path,
    /// Index slots checked so far.
    pub done: u64,
    /// Index slots of the table.
    pub slots: u64,
}

/// [`verify`], calling `on_progress` from the worker threads while a
/// file's forward check runs (every few thousand slots; a 6-piece table
/// takes minutes).
pub fn verify_with(
    opts: &VerifyOptions,
    on_verdict: &mut dyn FnMut(&FileVerdict),
    on_progress: &(dyn Fn(VerifyProgress) + Sync),
) -> Result<Vec<FileVerdict>, SolveError> {
    let files = select_files(&opts.tables, &opts.materials)?;
    if files.is_empty() {
        return Err(SolveError::NoTables {
            dir: opts.tables.clone(),
            materials: opts.materials.clone(),
        });
    }
    // One Tablebase per (directory, rule set), so sub-tables are shared.
    let mut bases: BTreeMap<(PathBuf, u64), Tablebase> = BTreeMap::new();
    let mut verdicts = Vec::with_capacity(files.len());
    for path in &files {
        let v = check(path, &mut bases, on_progress);
        on_verdict(&v);
        verdicts.push(v);
    }
    Ok(verdicts)
}

/// A table of `rules` in a directory named after another rule set
/// (`standard/` holding a leiden table): probes under that name refuse it,
/// so verify fails it too. A directory of any other name holds whatever
/// rules its tables record.
fn misplaced(dir: &Path, rules: &Ruleset, path: &Path) -> Option<TableError> {
    let name = dir.file_name()?.to_str()?;
    let named_id = match name.split_once("-custom-") {
        Some((_, id)) => u64::from_str_radix(id, 16).ok()?,
        None => Ruleset::by_name(name).ok()?.id(),
    };
    (named_id != rules.id()).then(|| TableError::WrongRuleset {
        path: path.to_path_buf(),
        expected: name.to_string(),
        found: rules.label(),
    })
}

/// Checks one file (see the module docs).
fn check(
    path: &Path,
    bases: &mut BTreeMap<(PathBuf, u64), Tablebase>,
    on_progress: &(dyn Fn(VerifyProgress) + Sync),
) -> FileVerdict {
    // The header names the rule set and material; the Tablebase then opens
    // the table once, checksums included.
    let header = match Header::read(path) {
        Ok(h) => h,
        Err(e) => return FileVerdict::failed(path, e),
    };
    let ext = if header.compressed {
        COMPRESSED_EXTENSION
    } else {
        TABLE_EXTENSION
    };
    let expected = format!("{}.{ext}", header.material);
    if path.file_name().and_then(|n| n.to_str()) != Some(expected.as_str()) {
        return FileVerdict::failed(
            path,
            SolveError::WrongName {
                path: path.to_path_buf(),
                expected,
            },
        );
    }
    let rules = match Ruleset::from_canonical_string(&header.ruleset) {
        Ok(r) => r,
        Err(e) => return FileVerdict::failed(path, e),
    };
    let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    if let Some(e) = misplaced(&dir, &rules, path) {
        return FileVerdict::failed(path, e);
    }
    let tb = bases
        .entry((dir.clone(), rules.id()))
        .or_insert_with(|| Tablebase::with_dir(dir, rules.clone()));
    let plain = path.with_extension(TABLE_EXTENSION);
    if header.compressed && plain.exists() {
        let same = Table::open_any(path)
            .and_then(|c| Ok((c, Table::open_any(&plain)?)))
            .map_err(SolveError::from)
            .and_then(|(c, p)| {
                tb.same_answers(&p, &c)
                    .map_err(SolveError::from)
                    .map(|()| p.header().sides)
            });
        return match same {
            Ok(sides) => FileVerdict {
                path: path.to_path_buf(),
                positions: sides.iter().map(|s| s.positions).sum(),
                outcome: Outcome::AnswersAsPlain { plain },
            },
            Err(e) => FileVerdict::failed(path, e),
        };
    }
    let progress = |done, slots| on_progress(VerifyProgress { path, done, slots });
    match verify_material_with(tb, header.material, &progress) {
        Ok(r) => FileVerdict {
            path: path.to_path_buf(),
            positions: r.positions,
            outcome: if r.mismatches == 0 {
                Outcome::Consistent {
                    ruleset: rules.label(),
                }
            } else {
                Outcome::Inconsistent {
                    mismatches: r.mismatches,
                    examples: r.examples,
                }
            },
        },
        Err(e) => FileVerdict::failed(path, e),
    }
}
