//! Generating every table of a request, in dependency order.

use crate::error::SolveError;
use crate::progress::Progress;
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
pub fn generate(opts: &GenerateOptions) -> Result<GenerateReport, SolveError> {
    let start = Instant::now();
    let rules = &opts.rules;
    rules
        .check_supported()
        .map_err(|e| SolveError::Invalid(e.to_string()))?;
    let dir = table_dir(&opts.root, rules);
    std::fs::create_dir_all(&dir).map_err(|e| SolveError::Io(format!("{}: {e}", dir.display())))?;
    // One generator per directory at a time; then whatever a killed run left
    // behind (working directories, unfinished temporary tables) is ours to
    // clear. Complete tables are only ever created by an atomic rename, so
    // nothing partial carries a table's name.
    let _lock = lock_dir(&dir)?;
    remove_leftovers(&dir, opts.quiet)?;
    let list = if opts.materials.is_empty() {
        Material::all(opts.max_pieces, |a| rules.animal_allowed(a))
    } else {
        Material::with_dependencies(&opts.materials)
    };
    for m in &list {
        PositionIndex::new(*m, rules).map_err(|e| SolveError::Invalid(e.to_string()))?;
    }
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(t) = opts.threads {
        pool = pool.num_threads(t.max(1));
    }
    let pool = pool
        .build()
        .map_err(|e| SolveError::Invalid(format!("thread pool: {e}")))?;

    // Which tables are already there and valid?
    let mut todo = Vec::new();
    let mut reports = Vec::new();
    let mut moved_aside = Vec::new();
    for &m in &list {
        let path = table_path(&dir, m);
        if path.exists() {
            match Table::open(&path, rules, m) {
                Ok(t) => {
                    reports.push(MaterialReport {
                        material: m,
                        solved: false,
                        positions: t.header().sides.iter().map(|s| s.positions).sum(),
                        bytes: t.file_len(),
                        time: Duration::ZERO,
                        sweep: Duration::ZERO,
                        propagate: Duration::ZERO,
                    });
                    continue;
                }
                Err(e) => {
                    let aside = aside_name(&path);
                    std::fs::rename(&path, &aside)
                        .map_err(|e| SolveError::Io(format!("{}: {e}", path.display())))?;
                    if !opts.quiet {
                        eprintln!(
                            "warning: {e}; moved to {} and solving again",
                            aside.display()
                        );
                    }
                    moved_aside.push((path, aside));
                }
            }
        }
        todo.push(m);
    }

    let total_positions: u64 = todo
        .iter()
        .map(|&m| PositionIndex::new(m, rules).map(|i| i.size()).unwrap_or(0))
        .sum();
    let progress = Progress::new(opts.quiet, todo.len() as u64, total_positions);
    let subtables = Tablebase::with_dir(dir.clone(), rules.clone());
    for &m in &todo {
        progress.tables.set_message(m.to_string());
        let t0 = Instant::now();
        let work = tempfile::Builder::new()
            .prefix(".work-")
            .tempdir_in(&dir)
            .map_err(|e| SolveError::Io(format!("{}: {e}", dir.display())))?;
        let bar = progress.positions.clone();
        let (raw, stats) =
            pool.install(|| solve_material(m, rules, &subtables, work.path(), &|k| bar.inc(k)))?;
        let index = PositionIndex::new(m, rules).map_err(|e| SolveError::Invalid(e.to_string()))?;
        let written = write_table(&dir, rules, &index, &raw)?;
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
            progress.tables.suspend(|| {
                eprintln!(
                    "{m}: {} positions, sweep {:.3} s, propagate {:.3} s ({} levels), total {:.3} s",
                    stats.positions,
                    stats.sweep.as_secs_f64(),
                    stats.propagate.as_secs_f64(),
                    stats.levels,
                    t0.elapsed().as_secs_f64()
                )
            });
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

/// Takes the directory's generator lock (released when the file closes,
/// including when the process dies).
fn lock_dir(dir: &Path) -> Result<std::fs::File, SolveError> {
    let path = dir.join(".jungletb.lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| SolveError::Io(format!("{}: {e}", path.display())))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(SolveError::Io(format!(
            "another `jungletb generate` is writing to {} (lock {})",
            dir.display(),
            path.display()
        ))),
        Err(std::fs::TryLockError::Error(e)) => {
            Err(SolveError::Io(format!("{}: {e}", path.display())))
        }
    }
}

/// Removes working directories (`.work-*`) and unfinished temporary tables
/// (`.*.tmp`) left by an interrupted run.
fn remove_leftovers(dir: &Path, quiet: bool) -> Result<(), SolveError> {
    let io = |e: std::io::Error| SolveError::Io(format!("{}: {e}", dir.display()));
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        let removed = if name.starts_with(".work-") && path.is_dir() {
            std::fs::remove_dir_all(&path).map_err(io)?;
            true
        } else if name.starts_with('.') && name.ends_with(".tmp") && path.is_file() {
            std::fs::remove_file(&path).map_err(io)?;
            true
        } else {
            false
        };
        if removed && !quiet {
            eprintln!("removed {} left by an interrupted run", path.display());
        }
    }
    Ok(())
}

/// A free name beside `path` for an invalid table: `ELvR.jtb.invalid-N`.
fn aside_name(path: &Path) -> PathBuf {
    (1..)
        .map(|k| PathBuf::from(format!("{}.invalid-{k}", path.display())))
        .find(|p| !p.exists())
        .expect("some free name")
}
