//! Generating every table of a request, in dependency order.

use crate::batch::claim::Claim;
use crate::batch::files::move_aside;
use crate::batch::space::{available_space, check_space, DiskNeed};
use crate::error::SolveError;
use crate::notice::Notice;
use crate::solve::checkpoint::checkpoint_path;
use crate::solve::memory::{in_memory_bytes, minimum_memory};
use crate::solve::solve_material_until;
use crate::solve::values::RawValues;
use crate::watch::Watch;
use jungletb_indexer::{Material, PositionIndex};
use jungletb_rules::Ruleset;
use jungletb_tablebase::{table_dir, table_path, write_table, Table, Tablebase};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
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
    /// Memory budget in bytes (`None`: no limit). Working arrays that would
    /// not fit in it live in memory-mapped files in the tables directory.
    pub mem: Option<u64>,
    /// Refuse, before solving anything, a request whose tables the tables
    /// directory's file system has no space for (each at least its header
    /// and a byte a slot, plus the working files of a solve beyond `mem`),
    /// and check each material again before its own solve. `false` skips
    /// the checks, for file systems that store a table in less than its
    /// size (compression, deduplication); a full disk then fails the write.
    pub check_space: bool,
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
    /// Distance levels processed (zero when kept).
    pub levels: u16,
    /// One-byte cells: slots the levels' scans read, and slots they would
    /// have read without passing by blocks (see `SolveStats::scanned_slots`).
    pub scanned_slots: (u64, u64),
}

/// What [`generate_with`] reports as it goes (the library never prints: the
/// caller decides what to show).
#[derive(Debug)]
pub enum GenerateEvent<'a> {
    /// The request: tables to look at, and index slots of those missing.
    Start {
        /// Materials of the request.
        tables: usize,
        /// Index slots of the materials not present yet.
        slots_to_solve: u64,
    },
    /// A material is being solved now.
    Solving {
        /// The material.
        material: Material,
        /// Its index slots.
        slots: u64,
    },
    /// This many more index slots swept (from any worker thread).
    Swept(u64),
    /// The propagation of the material being solved starts a level (from
    /// the solving thread; the first after a resumed checkpoint may be any
    /// level).
    Level {
        /// The material.
        material: Material,
        /// The level: positions decided at this many plies are expanded.
        level: u16,
    },
    /// A material is done: kept or solved.
    Done(&'a MaterialReport),
    /// Something the user should know: waiting for another generator, a
    /// table moved aside, leftovers of an interrupted run removed.
    Notice(Notice<'a>),
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

/// Generates the requested tables, on the current rayon thread pool (the
/// caller chooses it: `pool.install(|| generate(&opts))`). Complete, valid tables already in the
/// directory are kept; invalid ones are renamed aside (never deleted) and
/// solved again. Small materials (every one of up to 4 pieces) are solved
/// side by side, one a thread; larger ones one at a time on every thread.
///
/// Many generators may work on one directory at once (on one machine or on
/// many sharing a file system): each material is claimed while it is solved
/// (an exclusive lock on `.locks/<MATERIAL>.lock`), a generator that needs a
/// material another one is solving waits for it and then uses its table, and
/// whatever a killed generator left of a material is cleared by the next one
/// to claim it.
pub fn generate(opts: &GenerateOptions) -> Result<GenerateReport, SolveError> {
    generate_with(opts, &|_| {})
}

/// [`generate`], reporting progress to `on_event` (called from worker
/// threads too, hence `Sync`).
pub fn generate_with(
    opts: &GenerateOptions,
    on_event: &(dyn Fn(GenerateEvent) + Sync),
) -> Result<GenerateReport, SolveError> {
    generate_until(opts, on_event, &AtomicBool::new(false))
}

/// [`generate_with`] that stops cleanly once `stop` is set (from another
/// thread: a Ctrl-C handler, a Python caller's signal check): before the
/// next material, or inside a solve at its next group of the sweep or
/// level of the propagation, with [`SolveError::Interrupted`] (or
/// `Checkpointed`, naming the first material stopped: small materials
/// solved side by side may each leave a checkpoint). Finished tables are
/// kept and the interrupted materials' working files removed, so the same
/// request again resumes.
pub fn generate_until(
    opts: &GenerateOptions,
    on_event: &(dyn Fn(GenerateEvent) + Sync),
    stop: &AtomicBool,
) -> Result<GenerateReport, SolveError> {
    let start = Instant::now();
    let rules = &opts.rules;
    rules.check_supported()?;
    let dir = table_dir(&opts.root, rules);
    let list = if opts.materials.is_empty() {
        Material::all(opts.max_pieces, |a| rules.animal_allowed(a))
    } else {
        Material::with_dependencies(&opts.materials)
    };
    let total_positions = check_request(opts, &list, &dir)?;

    // Only now that the request is known to be possible: nothing is
    // created for a request that is refused.
    std::fs::create_dir_all(&dir).map_err(|e| SolveError::io(&dir, "creating the directory", e))?;
    on_event(GenerateEvent::Start {
        tables: list.len(),
        slots_to_solve: total_positions,
    });
    let subtables = Tablebase::with_dir(dir.clone(), rules.clone());
    let run = Run {
        opts,
        dir: &dir,
        subtables: &subtables,
        on_event,
        stop,
    };
    let mut reports = Vec::new();
    let mut moved_aside = Vec::new();
    // Captures remove a piece: the materials of one piece count never
    // depend on each other, and the list is in piece-count order.
    for group in list.chunk_by(|a, b| a.piece_count() == b.piece_count()) {
        for handled in run.group(group)? {
            moved_aside.extend(handled.moved_aside);
            reports.push(handled.report);
        }
    }
    Ok(GenerateReport {
        dir,
        materials: reports,
        moved_aside,
        elapsed: start.elapsed(),
    })
}

/// Materials below this many index slots (every one of up to 4 pieces) are
/// solved side by side, each on one thread, rather than one after another
/// on every thread: a small solve's levels are too short to keep two
/// threads busy (ELvTR: 0.52 s on one thread, 0.32 s on two), and alone
/// on its thread a solve updates its cells by plain stores.
pub(crate) const SIDE_BY_SIDE_BELOW: u64 = 1 << 24;

/// One run of [`generate_until`]: what handling a material needs.
struct Run<'a> {
    opts: &'a GenerateOptions,
    dir: &'a std::path::Path,
    subtables: &'a Tablebase,
    on_event: &'a (dyn Fn(GenerateEvent) + Sync),
    stop: &'a AtomicBool,
}

/// What became of one material.
struct Handled {
    report: MaterialReport,
    /// The invalid table found in its place and moved aside.
    moved_aside: Option<(PathBuf, PathBuf)>,
}

impl Run<'_> {
    /// Handles `group`, materials none of which depends on another, in
    /// order: the small ones (below [`SIDE_BY_SIDE_BELOW`]) side by side,
    /// one a thread of the current pool (fewer if the memory budget holds
    /// fewer), then the others one at a time on every thread. What became
    /// of each, in `group`'s order; the first error (in that order) stops
    /// the group once the solves under way end.
    fn group(&self, group: &[Material]) -> Result<Vec<Handled>, SolveError> {
        let rules = &self.opts.rules;
        let mut small = Vec::new();
        for (k, &m) in group.iter().enumerate() {
            if PositionIndex::new(m, rules)?.size() < SIDE_BY_SIDE_BELOW {
                small.push(k);
            }
        }
        let budget = self.opts.mem.unwrap_or(u64::MAX);
        let room = budget / in_memory_bytes(SIDE_BY_SIDE_BELOW);
        let workers = rayon::current_num_threads()
            .min(small.len())
            .min(room as usize);
        let mut out: Vec<Option<Result<Handled, SolveError>>> =
            group.iter().map(|_| None).collect();
        if workers > 1 {
            let next = AtomicUsize::new(0);
            let failed = AtomicBool::new(false);
            let results = Mutex::new(Vec::new());
            std::thread::scope(|scope| {
                for _ in 0..workers {
                    scope.spawn(|| {
                        let pool = match rayon::ThreadPoolBuilder::new().num_threads(1).build() {
                            Ok(pool) => pool,
                            Err(e) => {
                                failed.store(true, Ordering::Relaxed);
                                let e = SolveError::io(
                                    self.dir,
                                    "starting a thread",
                                    std::io::Error::other(e),
                                );
                                results.lock().unwrap().push((usize::MAX, Err(e)));
                                return;
                            }
                        };
                        while !failed.load(Ordering::Relaxed) {
                            let Some(&k) = small.get(next.fetch_add(1, Ordering::Relaxed)) else {
                                break;
                            };
                            let handled =
                                pool.install(|| self.one(group[k], budget / workers as u64));
                            failed.fetch_or(handled.is_err(), Ordering::Relaxed);
                            results.lock().unwrap().push((k, handled));
                        }
                    });
                }
            });
            for (k, handled) in results.into_inner().unwrap() {
                match out.get_mut(k) {
                    Some(slot) => *slot = Some(handled),
                    None => return handled.map(|_| Vec::new()),
                }
            }
        }
        for (k, &m) in group.iter().enumerate() {
            if out[k].is_none() && out.iter().flatten().all(|h| h.is_ok()) {
                out[k] = Some(self.one(m, budget));
            }
        }
        // A material is missing only after an error, returned here.
        out.into_iter().flatten().collect()
    }

    /// Keeps `m`'s complete valid table or solves it within `budget` bytes.
    fn one(&self, m: Material, budget: u64) -> Result<Handled, SolveError> {
        let (rules, dir, on_event) = (&self.opts.rules, self.dir, self.on_event);
        let say = |n: Notice| on_event(GenerateEvent::Notice(n));
        let path = table_path(dir, m);
        let done = |report: MaterialReport, moved_aside| {
            on_event(GenerateEvent::Done(&report));
            Ok(Handled {
                report,
                moved_aside,
            })
        };
        // A valid table is kept without taking the claim; anything else is
        // looked at again under the claim, as another generator may be
        // writing it right now.
        if let Ok(t) = Table::open(&path, rules, m) {
            // A run killed between moving its table in place and removing
            // its working directory left that directory: removed here,
            // unless another process holds the claim (and will). A
            // directory where no claim can be taken (read-only) is only
            // read: its complete tables are kept as before.
            if let Ok(Some(claim)) = Claim::try_take(dir, m) {
                for p in claim.remove_leftovers()? {
                    say(Notice::LeftoverRemoved { path: &p });
                }
            }
            return done(kept(m, &t), None);
        }
        if self.stop.load(Ordering::Relaxed) {
            return Err(SolveError::Interrupted { material: m });
        }
        let claim = Claim::take(dir, m, || say(Notice::Waiting { table: &path }))?;
        let mut moved_aside = None;
        if path.exists() {
            match Table::open(&path, rules, m) {
                Ok(t) => return done(kept(m, &t), None),
                Err(e) => {
                    let aside = move_aside(&path)?;
                    say(Notice::MovedAside {
                        error: &e,
                        to: &aside,
                    });
                    moved_aside = Some((path.clone(), aside));
                }
            }
        }
        for p in claim.remove_leftovers()? {
            say(Notice::LeftoverRemoved { path: &p });
        }
        let report = solve_one(self, m, budget, &claim)?;
        drop(claim);
        done(report, moved_aside)
    }
}

/// Checks that the request can run before anything is created: the
/// largest material within `--mem` (the requested materials first, so that
/// an error names what was asked) and the disk for every missing table.
/// The index slots of the missing tables.
fn check_request(
    opts: &GenerateOptions,
    list: &[Material],
    dir: &std::path::Path,
) -> Result<u64, SolveError> {
    let rules = &opts.rules;
    let mut largest: Option<(Material, u64)> = None;
    for m in opts
        .materials
        .iter()
        .map(|m| m.canonical().0)
        .chain(list.iter().copied())
    {
        let index = PositionIndex::new(m, rules)?;
        if largest.is_none_or(|(_, size)| index.size() > size) {
            largest = Some((m, index.size()));
        }
    }
    if let (Some(mem), Some((m, size))) = (opts.mem, largest) {
        let need = minimum_memory(size);
        if mem < need {
            return Err(SolveError::MemoryTooSmall {
                budget: mem,
                material: m,
                need,
            });
        }
    }
    let budget = opts.mem.unwrap_or(u64::MAX);
    let mut total_positions = 0u64;
    let mut needs = Vec::new();
    for &m in list.iter().filter(|&&m| !table_path(dir, m).exists()) {
        let index = PositionIndex::new(m, rules)?;
        total_positions += index.size();
        needs.push(DiskNeed::of(rules, &index, budget));
    }
    if opts.check_space {
        check_space(dir, &needs, available_space(dir)?)?;
    }
    Ok(total_positions)
}

/// Solves `m`, claimed, within `budget` bytes and writes its table.
fn solve_one(
    run: &Run,
    m: Material,
    budget: u64,
    claim: &Claim,
) -> Result<MaterialReport, SolveError> {
    let (opts, dir, subtables, on_event, stop) =
        (run.opts, run.dir, run.subtables, run.on_event, run.stop);
    let rules = &opts.rules;
    let index = PositionIndex::new(m, rules)?;
    // Again for this table alone: the disk may have filled since the
    // start (other generators, other writers).
    if opts.check_space {
        let need = DiskNeed::of(rules, &index, budget);
        check_space(dir, &[need], available_space(dir)?)?;
    }
    let t0 = Instant::now();
    let work = tempfile::Builder::new()
        .prefix(&claim.work_prefix())
        .tempdir_in(dir)
        .map_err(|e| SolveError::io(dir, "creating a working directory", e))?;
    on_event(GenerateEvent::Solving {
        material: m,
        slots: index.size(),
    });
    let on_progress = |k| on_event(GenerateEvent::Swept(k));
    let on_level = |level| on_event(GenerateEvent::Level { material: m, level });
    let checkpoint = checkpoint_path(dir, m);
    let watch = Watch {
        on_progress: &on_progress,
        on_level: &on_level,
        stop,
        checkpoint: Some(&checkpoint),
    };
    let (raw, stats) = solve_material_until(m, rules, subtables, work.path(), budget, watch)?;
    let written = match raw.raw() {
        RawValues::Bytes(values) => write_table(dir, rules, &index, values)?,
        RawValues::Wide(values) => write_table(dir, rules, &index, values)?,
    };
    // The table is safe: its checkpoint is not needed any more.
    match std::fs::remove_file(&checkpoint) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(SolveError::io(&checkpoint, "removing the checkpoint", e))
        }
        _ => {}
    }
    Ok(MaterialReport {
        material: m,
        solved: true,
        positions: stats.positions,
        bytes: written.bytes,
        time: t0.elapsed(),
        sweep: stats.sweep,
        propagate: stats.propagate,
        levels: stats.levels,
        scanned_slots: stats.scanned_slots,
    })
}

/// The report for `m`'s complete, valid table `t`, kept as it is.
fn kept(m: Material, t: &Table) -> MaterialReport {
    MaterialReport {
        material: m,
        solved: false,
        positions: t.header().sides.iter().map(|s| s.positions).sum(),
        bytes: t.file_len(),
        time: Duration::ZERO,
        sweep: Duration::ZERO,
        propagate: Duration::ZERO,
        levels: 0,
        scanned_slots: (0, 0),
    }
}
