//! Generating every table of a request, in dependency order.

use crate::claim::Claim;
use crate::error::SolveError;
use crate::progress::Progress;
use crate::solve::minimum_memory;
use crate::solve::solve_material;
use jungletb_format::{table_dir, table_path, write_table, Table, Tablebase};
use jungletb_indexer::{Material, PositionIndex};
use jungletb_rules::Ruleset;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What to generate.
#[derive(Debug, Clone)]
pub struct GenerateOptions {
    /// The tables root; tables go to `root/<rule-set label>/`.
    pub root: PathBuf,
    /// The rule set.
    pub rules: Ruleset,
    /// Every material with 2..=`max_pieces` pieces (when `materials` is empty).
    pub max_pieces: u32,
    /// Just these materials and what they depend on (if non-empty).
    pub materials: Vec<Material>,
    /// Worker threads (`None`: all cores).
    pub threads: Option<usize>,
    /// No progress bars.
    pub quiet: bool,
    /// Print a line of figures per solved table (to stderr).
    pub verbose: bool,
    /// Memory budget in bytes (`None`: no limit). Working arrays that would
    /// not fit in it live in memory-mapped files in the tables directory.
    pub mem: Option<u64>,
}

/// The outcome for one material.
#[derive(Debug, Clone)]
pub struct MaterialReport {
    /// The material.
    pub material: Material,
    /// Solved now (`false`: a complete valid table was kept).
    pub solved: bool,
    /// Positions stored.
    pub positions: u64,
    /// File size.
    pub bytes: u64,
    /// Solve time including writing (zero when kept).
    pub time: Duration,
    /// Time of the forward sweep.
    pub sweep: Duration,
    /// Time of the level-by-level propagation.
    pub propagate: Duration,
}

/// The outcome of a run.
#[derive(Debug, Clone)]
pub struct GenerateReport {
    /// The rule set's table directory.
    pub dir: PathBuf,
    /// Every material of the request, in the order handled.
    pub materials: Vec<MaterialReport>,
    /// Tables found invalid and moved aside (old path, new path).
    pub moved_aside: Vec<(PathBuf, PathBuf)>,
    /// Wall time.
    pub elapsed: Duration,
}

/// Generates the requested tables. Complete, valid tables already in the
/// directory are kept; invalid ones are renamed aside (never deleted) and
/// solved again.
///
/// Many generators may work on one directory at once (on one machine or on
/// many sharing a file system): each material is claimed while it is solved
/// (an exclusive lock on `.locks/<MATERIAL>.lock`), a generator that needs a
/// material another one is solving waits for it and then uses its table, and
/// whatever a killed generator left of a material is cleared by the next one
/// to claim it.
pub fn generate(opts: &GenerateOptions) -> Result<GenerateReport, SolveError> {
    let start = Instant::now();
    let rules = &opts.rules;
    rules
        .check_supported()
        .map_err(|e| SolveError::Invalid(e.to_string()))?;
    let dir = table_dir(&opts.root, rules);
    std::fs::create_dir_all(&dir).map_err(|e| SolveError::Io(format!("{}: {e}", dir.display())))?;
    let list = if opts.materials.is_empty() {
        Material::all(opts.max_pieces, |a| rules.animal_allowed(a))
    } else {
        Material::with_dependencies(&opts.materials)
    };
    // The requested materials first, so that an error names what was asked.
    let mut largest: Option<(Material, u64)> = None;
    for m in opts
        .materials
        .iter()
        .map(|m| m.canonical().0)
        .chain(list.iter().copied())
    {
        let index = PositionIndex::new(m, rules).map_err(|e| SolveError::Invalid(e.to_string()))?;
        if largest.is_none_or(|(_, size)| index.size() > size) {
            largest = Some((m, index.size()));
        }
    }
    if let (Some(mem), Some((m, size))) = (opts.mem, largest) {
        let need = minimum_memory(size);
        if mem < need {
            return Err(SolveError::Invalid(format!(
                "--mem {mem} bytes is too small to make progress: {m} needs at least {need} bytes in memory (its frontier bitmaps and buffers; everything else can live in files)"
            )));
        }
    }
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(t) = opts.threads {
        pool = pool.num_threads(t.max(1));
    }
    let pool = pool
        .build()
        .map_err(|e| SolveError::Invalid(format!("thread pool: {e}")))?;

    let total_positions: u64 = list
        .iter()
        .filter(|&&m| !table_path(&dir, m).exists())
        .map(|&m| PositionIndex::new(m, rules).map(|i| i.size()).unwrap_or(0))
        .sum();
    let progress = Progress::new(opts.quiet, list.len() as u64, total_positions);
    let say = |msg: String| {
        if !opts.quiet {
            progress.tables.suspend(|| eprintln!("{msg}"));
        }
    };
    let subtables = Tablebase::with_dir(dir.clone(), rules.clone());
    let mut reports = Vec::new();
    let mut moved_aside = Vec::new();
    for &m in &list {
        progress.tables.set_message(m.to_string());
        let path = table_path(&dir, m);
        // A valid table is kept without taking the claim; anything else is
        // looked at again under the claim, as another generator may be
        // writing it right now.
        if let Some(report) = existing_table(&path, rules, m) {
            reports.push(report);
            progress.tables.inc(1);
            continue;
        }
        let (claim, _) = Claim::take(&dir, m, || {
            say(format!("{m}: another generator is solving it; waiting"))
        })?;
        if path.exists() {
            match Table::open(&path, rules, m) {
                Ok(_) => {
                    reports.extend(existing_table(&path, rules, m));
                    progress.tables.inc(1);
                    continue;
                }
                Err(e) => {
                    let aside = aside_name(&path);
                    std::fs::rename(&path, &aside)
                        .map_err(|e| SolveError::Io(format!("{}: {e}", path.display())))?;
                    say(format!(
                        "warning: {e}; moved to {} and solving again",
                        aside.display()
                    ));
                    moved_aside.push((path.clone(), aside));
                }
            }
        }
        for p in claim.remove_leftovers()? {
            say(format!(
                "removed {} left by an interrupted run",
                p.display()
            ));
        }
        let t0 = Instant::now();
        let work = tempfile::Builder::new()
            .prefix(&claim.work_prefix())
            .tempdir_in(&dir)
            .map_err(|e| SolveError::Io(format!("{}: {e}", dir.display())))?;
        let bar = progress.positions.clone();
        let budget = opts.mem.unwrap_or(u64::MAX);
        let (raw, stats) = pool.install(|| {
            solve_material(m, rules, &subtables, work.path(), budget, &|k| bar.inc(k))
        })?;
        let index = PositionIndex::new(m, rules).map_err(|e| SolveError::Invalid(e.to_string()))?;
        let written = write_table(&dir, rules, &index, &raw)?;
        drop(raw);
        drop(work);
        drop(claim);
        reports.push(MaterialReport {
            material: m,
            solved: true,
            positions: stats.positions,
            bytes: written.bytes,
            time: t0.elapsed(),
            sweep: stats.sweep,
            propagate: stats.propagate,
        });
        if opts.verbose {
            say(format!(
                "{m}: {} positions, sweep {:.3} s, propagate {:.3} s ({} levels), total {:.3} s",
                stats.positions,
                stats.sweep.as_secs_f64(),
                stats.propagate.as_secs_f64(),
                stats.levels,
                t0.elapsed().as_secs_f64()
            ));
        }
        progress.tables.inc(1);
    }
    progress.finish();
    Ok(GenerateReport {
        dir,
        materials: reports,
        moved_aside,
        elapsed: start.elapsed(),
    })
}

/// The report for a complete, valid table at `path`, if there is one.
fn existing_table(path: &Path, rules: &Ruleset, m: Material) -> Option<MaterialReport> {
    let t = Table::open(path, rules, m).ok()?;
    Some(MaterialReport {
        material: m,
        solved: false,
        positions: t.header().sides.iter().map(|s| s.positions).sum(),
        bytes: t.file_len(),
        time: Duration::ZERO,
        sweep: Duration::ZERO,
        propagate: Duration::ZERO,
    })
}

/// A free name beside `path` for an invalid table: `ELvR.jtb.invalid-N`.
fn aside_name(path: &Path) -> PathBuf {
    (1..)
        .map(|k| PathBuf::from(format!("{}.invalid-{k}", path.display())))
        .find(|p| !p.exists())
        .expect("some free name")
}
