//! Compressing a directory of tables: the compressed distribution form
//! (`.jtbz`) of every plain table, checked against its source before it
//! counts.
//!
//! The policy, shared with [`generate`](crate::batch::generate) (see `files.rs`):
//! each material is claimed while its compressed table is written, so
//! runs may share a directory; what a killed run left of it is removed; a
//! complete compressed table of the same source (same header, same choice
//! of don't-cares) is kept, so an interrupted run resumes; a written table
//! that does not answer as its source is moved aside (never left under a
//! table's name, never deleted).

use crate::batch::claim::Claim;
use crate::batch::files::{move_aside_as, select_files};
use crate::error::SolveError;
use crate::notice::Notice;
use jungletb_indexer::Material;
use jungletb_rules::Ruleset;
use jungletb_tablebase::{
    compressed_table_path, write_compressed_table, Backend, CompressedSizes, Header, Table,
    Tablebase, TablebaseOptions, TABLE_EXTENSION,
};
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What to compress.
#[derive(Debug, Clone)]
pub struct CompressOptions {
    /// A tables root (one directory per rule set) or one rule set's
    /// directory.
    pub tables: PathBuf,
    /// A tables root where the compressed tables go, each in its rule
    /// set's directory (`OUT/standard/ELvR.jtbz`, whether `tables` was a
    /// root or one rule set's directory; `None`: beside the plain ones,
    /// which are kept).
    pub out: Option<PathBuf>,
    /// zstd level of the distance blocks (1–22).
    pub zstd_level: i32,
    /// Positions a capture or a den entry decides store don't-care values,
    /// recovered by a search at probe time (needs the tables the captures
    /// lead into beside each table, here and when probing).
    pub dont_cares: bool,
    /// Only these materials (any colour order; empty: every table).
    pub materials: Vec<Material>,
}

/// The outcome for one table.
#[derive(Debug, Clone)]
pub struct CompressedTable {
    /// The compressed table written or kept.
    pub path: PathBuf,
    /// A complete compressed table of the same source was there already.
    pub kept: bool,
    /// Positions stored.
    pub positions: u64,
    /// Size of the plain source.
    pub plain_bytes: u64,
    /// Size of the compressed table.
    pub bytes: u64,
    /// Bytes of the WDL and distance streams.
    pub sizes: Option<CompressedSizes>,
    /// How long writing and checking it took (`None` when kept).
    pub timing: Option<CompressTiming>,
}

/// The two phases of compressing one table, timed.
#[derive(Debug, Clone, Copy)]
pub struct CompressTiming {
    /// Writing the compressed table (deciding don't-cares, encoding).
    pub write: Duration,
    /// Checking that it answers every position as the plain table does.
    pub check: Duration,
}

/// A phase of compressing one table (see [`CompressEvent::Phase`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompressPhase {
    /// Writing begins.
    Writing,
    /// Written; the check begins.
    Checking,
}

/// What [`compress`] reports as it goes (from worker threads too).
#[derive(Debug)]
pub enum CompressEvent<'a> {
    /// The request: plain tables to look at.
    Start {
        /// Plain tables found.
        tables: usize,
    },
    /// A table's write or check begins (not sent for a table kept).
    Phase {
        /// The plain table.
        path: &'a Path,
        /// Which phase.
        phase: CompressPhase,
        /// The table's index slots.
        slots: u64,
    },
    /// A table is done: written and checked, or kept.
    Done(&'a CompressedTable),
    /// A table could not be compressed (the run goes on with the others).
    Failed {
        /// The plain table.
        path: &'a Path,
        /// Why.
        error: &'a SolveError,
    },
    /// Waiting for another run, or leftovers of an interrupted run removed.
    Notice(Notice<'a>),
}

/// The outcome of a run.
#[derive(Debug)]
pub struct CompressReport {
    /// Every table done, in no particular order.
    pub tables: Vec<CompressedTable>,
    /// The tables that failed, with why.
    pub failed: Vec<(PathBuf, SolveError)>,
    /// Wall time.
    pub elapsed: Duration,
}

/// Compresses the plain tables under `opts.tables`, on the current rayon
/// thread pool. Fails as a whole only when the request cannot start (no
/// such directory, no plain table, a header that names no rule set);
/// a table that fails is reported in [`CompressReport::failed`].
pub fn compress(
    opts: &CompressOptions,
    on_event: &(dyn Fn(CompressEvent) + Sync),
) -> Result<CompressReport, SolveError> {
    let start = Instant::now();
    let selected = select_files(&opts.tables, &opts.materials)?;
    let files: Vec<PathBuf> = selected
        .iter()
        .filter(|p| p.extension().and_then(|x| x.to_str()) == Some(TABLE_EXTENSION))
        .cloned()
        .collect();
    if files.is_empty() && !selected.is_empty() {
        return Err(SolveError::NoPlainTables {
            dir: opts.tables.clone(),
            compressed: selected.len(),
        });
    }
    if files.is_empty() {
        return Err(SolveError::NoTables {
            dir: opts.tables.clone(),
            materials: opts.materials.clone(),
        });
    }
    on_event(CompressEvent::Start {
        tables: files.len(),
    });
    // The plain tables of each rule-set directory, for the search that
    // finds the positions a capture decides.
    let mut searches: HashMap<PathBuf, Tablebase> = HashMap::new();
    if opts.dont_cares {
        for path in &files {
            let dir = parent(path);
            if searches.contains_key(&dir) {
                continue;
            }
            // The header alone: the table itself is checked when it is
            // compressed (a 6-piece table read here too would be read twice).
            let header = Header::read(path)?;
            let rules = Ruleset::from_canonical_string(&header.ruleset)?;
            // Maps capped: the search reads every plain table once, and
            // keeping them all mapped would count the whole set (page
            // cache) in the resident size.
            let options = TablebaseOptions {
                max_mapped_bytes: 1 << 30,
                ..TablebaseOptions::default()
            };
            searches.insert(
                dir.clone(),
                Tablebase::with_dir_and_options(dir, rules, options),
            );
        }
    }
    let results: Vec<Result<CompressedTable, (PathBuf, SolveError)>> = files
        .par_iter()
        .map(|path| {
            let search = searches.get(&parent(path));
            match compress_one(path, opts.out.as_deref(), opts.zstd_level, search, on_event) {
                Ok(done) => {
                    on_event(CompressEvent::Done(&done));
                    Ok(done)
                }
                Err(error) => {
                    on_event(CompressEvent::Failed {
                        path,
                        error: &error,
                    });
                    Err((path.clone(), error))
                }
            }
        })
        .collect();
    let (mut tables, mut failed) = (Vec::new(), Vec::new());
    for r in results {
        match r {
            Ok(t) => tables.push(t),
            Err(f) => failed.push(f),
        }
    }
    Ok(CompressReport {
        tables,
        failed,
        elapsed: start.elapsed(),
    })
}

fn parent(path: &Path) -> PathBuf {
    path.parent().unwrap_or(Path::new(".")).to_path_buf()
}

/// The directory a table's compressed form goes to: beside it, or under
/// `out` in its rule set's directory, named as the table's own directory
/// is when that name is its rule set's label (`popular-custom-…` keeps its
/// base), else by the label of the rules its header records. So `--out`
/// mirrors the rule-set directories whether the source was a tables root
/// or one rule set's directory, and readers find the rule set there.
fn output_dir(path: &Path, ruleset: &str, out: Option<&Path>) -> Result<PathBuf, SolveError> {
    let dir = parent(path);
    let Some(out) = out else { return Ok(dir) };
    let rules = Ruleset::from_canonical_string(ruleset)?;
    let label = rules.label();
    let custom = format!("-custom-{:016x}", rules.id());
    let name = dir
        .file_name()
        .and_then(|n| n.to_str())
        .filter(|n| *n == label || n.ends_with(&custom))
        .map_or(label.clone(), str::to_string);
    Ok(out.join(name))
}

/// Compresses one table under its claim (unless a valid compressed form
/// of the same source and the same choice of don't-cares is there
/// already) and checks that it answers the same values. With `search`
/// (the plain tables of the table's directory), positions a capture
/// decides become don't-cares.
fn compress_one(
    path: &Path,
    out: Option<&Path>,
    level: i32,
    search: Option<&Tablebase>,
    on_event: &(dyn Fn(CompressEvent) + Sync),
) -> Result<CompressedTable, SolveError> {
    // Read by positional reads, not mapped: it is read from end to end
    // (its checksum, each section, the check), and a map would keep all
    // of it in the resident size (a 6-piece table: 5-17 GB).
    let plain = Table::open_any_with(path, Backend::Pread)?;
    let header = plain.header();
    let out_dir = &output_dir(path, &header.ruleset, out)?;
    let target = compressed_table_path(out_dir, header.material);
    let positions: u64 = header.sides.iter().map(|s| s.positions).sum();
    let done = |c: &Table, sizes: Option<CompressedSizes>, timing: Option<CompressTiming>| {
        CompressedTable {
            path: target.clone(),
            kept: timing.is_none(),
            positions,
            plain_bytes: plain.file_len(),
            bytes: c.file_len(),
            sizes,
            timing,
        }
    };
    let phase = |phase| {
        on_event(CompressEvent::Phase {
            path,
            phase,
            slots: plain.index().size(),
        })
    };
    std::fs::create_dir_all(out_dir)
        .map_err(|e| SolveError::io(out_dir, "creating the directory", e))?;
    let claim = Claim::take(out_dir, header.material, || {
        on_event(CompressEvent::Notice(Notice::Waiting { table: &target }))
    })?;
    for p in claim.remove_leftovers()? {
        on_event(CompressEvent::Notice(Notice::LeftoverRemoved { path: &p }));
    }
    // Resumable: a complete compressed table of the same source is kept.
    if let Ok(existing) = Table::open_any(&target) {
        let (h, e) = (plain.header(), existing.header());
        let same = e.compressed
            && h.ruleset == e.ruleset
            && h.material == e.material
            && h.sides == e.sides
            && existing.has_dont_cares() == search.is_some();
        if same {
            return Ok(done(&existing, existing.compressed_sizes()?, None));
        }
    }
    // Written in a work directory of the claim and checked there: only a
    // table that answers as its source takes the table's name, and what a
    // run stopped during the check left is a leftover, not a table.
    let work = tempfile::Builder::new()
        .prefix(&claim.work_prefix())
        .tempdir_in(out_dir)
        .map_err(|e| SolveError::io(out_dir, "creating a work directory", e))?;
    phase(CompressPhase::Writing);
    let started = Instant::now();
    let (stats, sizes) = write_compressed_table(work.path(), &plain, level, search)?;
    let write = started.elapsed();
    phase(CompressPhase::Checking);
    let started = Instant::now();
    // A written table that does not open, or answers otherwise, is moved
    // aside: the evidence kept, never a bad table under a table's name.
    let opened = Table::open_any(&stats.path).map_err(jungletb_tablebase::ProbeError::from);
    let same = opened.and_then(|written| {
        match search {
            Some(tb) => tb.same_answers(&plain, &written),
            None => plain.same_values(&written).map_err(Into::into),
        }
        .map(|()| written)
    });
    let written = match same {
        Ok(written) => written,
        Err(e) => {
            let moved_to = move_aside_as(&stats.path, &target)?;
            return Err(SolveError::Disagrees {
                path: target,
                moved_to,
                source: Box::new(e),
            });
        }
    };
    let timing = CompressTiming {
        write,
        check: started.elapsed(),
    };
    let result = done(&written, Some(sizes), Some(timing));
    drop(written);
    std::fs::rename(&stats.path, &target)
        .map_err(|e| SolveError::io(&target, "moving the checked table in place", e))?;
    Ok(result)
}
