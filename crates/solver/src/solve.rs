//! Solving one material by retrograde analysis (see the crate docs).
//!
//! Working state: one 16-bit cell per index slot (see `cell.rs`), in memory
//! or a memory-mapped file. Pass 1 (here) sweeps every slot; pass 2 runs
//! level by level, each level's work in `propagate.rs`.

use crate::buckets::Rounds;
use crate::byte_codes::counts_fit;
use crate::byte_presence::Presence;
use crate::byte_solve::{self, ByteCells, ByteCtx, Layout, LevelState};
use crate::cell::{
    is_undecided, loss, undecided, weight, win, MAX_COUNT, MAX_FLOOR, MAX_WORK_PLIES,
};
use crate::checkpoint::{self, Identity, Resume};
use crate::context::Ctx;
use crate::error::SolveError;
use crate::frontier::Frontier;
use crate::levels::LevelLists;
use crate::memory::working_file_bytes;
use crate::propagate::{propagate_slots, LevelOutcome};
use crate::regions::{byte_region_bits, ByRegions, Propagation};
use crate::schedule::Schedule;
use crate::solved_values::SolvedValues;
use crate::subtables::SubTables;
use crate::watch::Watch;
use crate::work::WorkArray;
use jungletb_format::encoding::{RAW_DRAW, RAW_UNUSED};
use jungletb_indexer::{Material, PositionIndex};
use jungletb_rules::{MoveTables, NoMoveRule, Ruleset};
use jungletb_tablebase::Tablebase;
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Index slots the forward sweep hands to a thread at a time.
const CHUNK: usize = 4096;
/// Chunks of the sweep whose seeds are gathered at a time (4 M slots).
const GROUP: usize = 1024;

/// Figures of one solve.
#[derive(Debug, Clone, Default)]
pub struct SolveStats {
    /// Index slots.
    pub slots: u64,
    /// Positions (used slots).
    pub positions: u64,
    /// Highest distance level processed.
    pub levels: u16,
    /// Time of the forward sweep (pass 1).
    pub sweep: Duration,
    /// Time of the level-by-level propagation (pass 2).
    pub propagate: Duration,
    /// One-byte cells only: slots the levels' scans read, and slots they
    /// would have read without passing by the blocks that hold none of a
    /// level's positions, over the levels this run ran (a resumed solve's
    /// from its checkpoint on; 0 and 0 for 16-bit cells).
    pub scanned_slots: (u64, u64),
}

/// Solves canonical `material` under `rules`, reading its sub-materials from
/// `subtables`, with working files under `work_dir`. Returns the raw values
/// (see [`jungletb_format::encoding`]) for every slot of the material's index.
///
/// `mem_budget` (bytes) decides where the big arrays live: when the cells
/// and the output fit in it (see [`in_memory_bytes`](crate::in_memory_bytes))
/// they are ordinary memory, otherwise memory-mapped files in `work_dir`,
/// which the kernel pages to disk as needed. Only the frontier bitmaps
/// (1/4 byte per slot) and the buckets must fit in memory (see
/// [`minimum_memory`](crate::minimum_memory)). `on_progress` is called
/// with counts of positions swept. Levels are propagated as
/// [`Propagation::Auto`] chooses.
pub fn solve_material(
    material: Material,
    rules: &Ruleset,
    subtables: &Tablebase,
    work_dir: &Path,
    mem_budget: u64,
    on_progress: &(dyn Fn(u64) + Sync),
) -> Result<(SolvedValues, SolveStats), SolveError> {
    solve_material_with(
        material,
        rules,
        subtables,
        work_dir,
        mem_budget,
        Propagation::Auto,
        on_progress,
    )
}

/// [`solve_material`] with the way levels are propagated chosen by the
/// caller (every [`Propagation`] writes the same values; benchmarks and
/// tests compare them).
pub fn solve_material_with(
    material: Material,
    rules: &Ruleset,
    subtables: &Tablebase,
    work_dir: &Path,
    mem_budget: u64,
    propagation: Propagation,
    on_progress: &(dyn Fn(u64) + Sync),
) -> Result<(SolvedValues, SolveStats), SolveError> {
    let never = AtomicBool::new(false);
    let watch = Watch {
        on_progress,
        on_level: &|_| {},
        stop: &never,
        checkpoint: None,
    };
    solve_material_until(
        material,
        rules,
        subtables,
        work_dir,
        mem_budget,
        propagation,
        watch,
    )
}

/// [`solve_material_with`] that stops when `watch.stop` is set.
pub fn solve_material_until(
    material: Material,
    rules: &Ruleset,
    subtables: &Tablebase,
    work_dir: &Path,
    mem_budget: u64,
    propagation: Propagation,
    watch: Watch<'_>,
) -> Result<(SolvedValues, SolveStats), SolveError> {
    let index = PositionIndex::new(material, rules)?;
    let n = index.size() as usize;
    let subs = SubTables::open(material, subtables)?;
    // A checkpoint decides the kind of cells (the values are the same).
    let propagation = match watch.checkpoint.and_then(checkpoint::saved_in_bytes) {
        Some(true) => Propagation::ByteCells,
        Some(false) if propagation == Propagation::ByteCells => Propagation::Auto,
        _ => propagation,
    };
    if propagation == Propagation::ByteCells {
        // A win through a capture is stored as the sub-table's longest
        // win + 2 plies at most.
        // And no position may have more quiet moves than a byte counts.
        let layout = Layout::default();
        if counts_fit(material)
            && subs
                .longest_win()
                .is_none_or(|w| w + 2 <= layout.max_plies())
        {
            let bytes = ByteSolve {
                index: &index,
                rules,
                layout,
                work_dir,
                mem_budget,
                region_bits: byte_region_bits(n as u64, rayon::current_num_threads()),
            };
            match bytes.solve(subs, watch) {
                Err(SolveError::DistanceOverflow { .. }) => {
                    // Its bytes are of no use to the 16-bit solve.
                    if let Some(path) = watch.checkpoint {
                        let _ = std::fs::remove_file(path);
                    }
                }
                done => return done,
            }
        }
        return solve_material_until(
            material,
            rules,
            subtables,
            work_dir,
            mem_budget,
            Propagation::Auto,
            watch,
        );
    }
    let in_memory = working_file_bytes(n as u64, mem_budget, propagation) == 0;
    let mut cells = if in_memory {
        WorkArray::anonymous(n, 2)?
    } else {
        WorkArray::file(work_dir, "cells", n, 2)?
    };
    let id = Identity {
        material,
        rules,
        slots: n as u64,
    };
    let resumed = match watch.checkpoint {
        Some(path) if path.exists() => Some(checkpoint::load(path, &id, &cells)?),
        _ => None,
    };
    let ctx = Ctx {
        rules,
        tables: MoveTables::new(rules),
        index: &index,
        subs,
        cells: cells.atomic_u16(),
    };

    // Pass 1: the forward sweep (unless resumed between levels).
    let t0 = Instant::now();
    let start = match resumed {
        Some(start) => start,
        None => {
            let current = Frontier::new(n);
            let next = Frontier::new(n);
            let mut levels = LevelLists::default();
            let pending = sweep_pass(&ctx, material, &watch, [&current, &next], &mut levels)?;
            Resume {
                level: 0,
                highest: 0,
                pending,
                current,
                next,
                levels,
            }
        }
    };
    let mut stats = SolveStats {
        slots: n as u64,
        sweep: t0.elapsed(),
        ..Default::default()
    };

    // Pass 2: level by level.
    let t1 = Instant::now();
    let save = |path: &Path, state: &Resume| checkpoint::save(path, &id, &cells, state);
    stats.levels = propagate_pass(&ctx, material, propagation, &watch, start, &save)?;
    drop(ctx);
    stats.propagate = t1.elapsed();

    // Undecided positions are draws. The values replace the cells in place.
    stats.positions = cells.map_u16(
        |c| if is_undecided(c) { RAW_DRAW } else { c },
        |v| v != RAW_UNUSED,
    );
    let raw = SolvedValues::new(cells, 2);
    Ok((raw, stats))
}

/// A material to solve in one-byte cells (see `byte_solve.rs`).
pub(crate) struct ByteSolve<'a> {
    pub(crate) index: &'a PositionIndex,
    pub(crate) rules: &'a Ruleset,
    pub(crate) layout: Layout,
    pub(crate) work_dir: &'a Path,
    pub(crate) mem_budget: u64,
    /// Updates by regions of 2^bits slots (`buckets.rs`), or as found.
    pub(crate) region_bits: Option<u32>,
}

impl ByteSolve<'_> {
    /// Solves the material from its sub-tables `subs`.
    pub(crate) fn solve(
        &self,
        subs: SubTables,
        watch: Watch<'_>,
    ) -> Result<(SolvedValues, SolveStats), SolveError> {
        let material = self.index.material();
        let n = self.index.size();
        let cells = if working_file_bytes(n, self.mem_budget, Propagation::ByteCells) == 0 {
            WorkArray::anonymous(n as usize, 1)?
        } else {
            WorkArray::file(self.work_dir, "bytes", n as usize, 1)?
        };
        let id = Identity {
            material,
            rules: self.rules,
            slots: n,
        };
        let resumed = match watch.checkpoint {
            Some(path) if path.exists() => Some(checkpoint::load_bytes(
                path,
                &id,
                &cells,
                byte_solve::chunk_words(n),
            )?),
            _ => None,
        };
        let ctx = ByteCtx {
            rules: self.rules,
            tables: MoveTables::new(self.rules),
            index: self.index,
            subs,
            cells: ByteCells(cells.atomic_u64()),
            layout: self.layout,
            present: Presence::new(n),
            scanned: Default::default(),
            alone: rayon::current_num_threads() == 1,
        };
        let t0 = Instant::now();
        let (counts, start) = match resumed {
            Some(((level, highest), done)) => (
                byte_solve::count(&ctx),
                LevelState {
                    level,
                    highest,
                    done,
                },
            ),
            None => (
                byte_solve::sweep(&ctx, &watch)?,
                LevelState {
                    level: 0,
                    highest: 0,
                    done: Vec::new(),
                },
            ),
        };
        let mut stats = SolveStats {
            slots: n,
            sweep: t0.elapsed(),
            ..Default::default()
        };
        let t1 = Instant::now();
        let save = |state: &LevelState| match watch.checkpoint {
            Some(path) => {
                checkpoint::save_bytes(
                    path,
                    &id,
                    &cells,
                    (state.level, state.highest),
                    (&state.done, byte_solve::chunk_words(n)),
                )?;
                Ok(SolveError::Checkpointed {
                    material,
                    path: path.to_path_buf(),
                    level: state.level,
                })
            }
            None => Ok(SolveError::Interrupted { material }),
        };
        let rounds = self
            .region_bits
            .map(|bits| Rounds::new(n, bits, rayon::current_num_threads()));
        let end = byte_solve::propagate(&ctx, &watch, counts, start, &save, rounds)?;
        stats.scanned_slots = (ctx.scanned[0].load(Relaxed), ctx.scanned[1].load(Relaxed));
        stats.levels = end.highest;
        stats.propagate = t1.elapsed();
        stats.positions = byte_solve::finish(&ctx);
        drop(ctx);
        Ok((SolvedValues::new(cells, 1), stats))
    }
}

/// Pass 1, the forward sweep: positions decided at levels 0 (no move) and
/// 1 (an immediate win) go straight to the two frontiers; the rest (wins
/// through captures, losses with a floor) to per-level lists. Chunks are
/// swept in groups, each group's seeds appended (in slot order) before the
/// next group starts, so that only one group's pairs wait at a time. The
/// positions put in each frontier.
fn sweep_pass(
    ctx: &Ctx,
    material: Material,
    watch: &Watch<'_>,
    frontiers: [&Frontier; 2],
    levels: &mut LevelLists,
) -> Result<(u64, u64), SolveError> {
    let n = ctx.index.size() as usize;
    let (mut pending, mut pending_next) = (0u64, 0u64);
    let chunks = n.div_ceil(CHUNK);
    for group in (0..chunks).step_by(GROUP) {
        // A stop before the first group loses nothing. Later, with a
        // checkpoint to save, the sweep runs to its end, the next safe
        // point (352 s of ELTvELT's 1,373 s; Slurm's signal comes up to
        // ten minutes before the limit); without one, it ends here.
        if group == 0 || watch.checkpoint.is_none() {
            watch.check(material)?;
        }
        let seeds: Vec<Result<SweepSeeds, SolveError>> = (group..(group + GROUP).min(chunks))
            .into_par_iter()
            .map(|c| {
                let range = c * CHUNK..((c + 1) * CHUNK).min(n);
                let len = range.len() as u64;
                let out = sweep_chunk(ctx, range, frontiers);
                (watch.on_progress)(len);
                out
            })
            .collect();
        for s in seeds {
            let s = s?;
            pending += s.first[0];
            pending_next += s.first[1];
            for (level, i) in s.later {
                levels.push_sorted(level, i);
            }
        }
    }
    Ok((pending, pending_next))
}

/// Pass 2, level by level: each decided position visits its predecessors.
/// Positions decided for the next level go to a bitmap (see `frontier`);
/// the few losses held back by a floor, and the seeds beyond level 1, wait
/// in lists. The highest level processed.
fn propagate_pass(
    ctx: &Ctx,
    material: Material,
    propagation: Propagation,
    watch: &Watch<'_>,
    start: Resume,
    save: &dyn Fn(&Path, &Resume) -> Result<(), SolveError>,
) -> Result<u16, SolveError> {
    let n = ctx.index.size();
    let Resume {
        level: mut d,
        mut highest,
        pending: (mut pending, mut pending_next),
        mut current,
        mut next,
        mut levels,
    } = start;
    // Which thread expands which slots, and where cell updates may be
    // plain (see `schedule.rs`).
    let threads = rayon::current_num_threads();
    let schedule = Schedule::new(n, threads, !ctx.index.white_to_move_only());
    // Or by regions (see `regions.rs`).
    let mut by_regions = propagation
        .region_bits(n, threads)
        .map(|bits| ByRegions::new(n, bits, threads));
    loop {
        // Between levels: the whole state is these variables (see
        // `checkpoint.rs`).
        (watch.on_level)(d);
        if watch.stop.load(Ordering::Relaxed) {
            let state = Resume {
                level: d,
                highest,
                pending: (pending, pending_next),
                current,
                next,
                levels,
            };
            return Err(match watch.checkpoint {
                Some(path) => {
                    save(path, &state)?;
                    SolveError::Checkpointed {
                        material,
                        path: path.to_path_buf(),
                        level: d,
                    }
                }
                None => SolveError::Interrupted { material },
            });
        }
        pending += levels.take(d, |i| current.insert(i));
        if pending == 0 && pending_next == 0 {
            match levels.first_level() {
                Some(l) => {
                    d = l;
                    continue;
                }
                None => break,
            }
        }
        if pending == 0 {
            // Nothing at this level, but some at the next.
            std::mem::swap(&mut current, &mut next);
            (pending, pending_next) = (pending_next, 0);
            d += 1;
            continue;
        }
        if d >= MAX_WORK_PLIES - 1 {
            return Err(SolveError::DistanceOverflow {
                material,
                limit: MAX_WORK_PLIES,
                in_subtable: false,
            });
        }
        watch.check(material)?;
        highest = d;
        let outcomes = match &mut by_regions {
            Some(by_regions) => by_regions.level(ctx, d, &current, &next),
            None => schedule.run(|slots, shared, out: &mut LevelOutcome| {
                if shared {
                    propagate_slots::<true>(ctx, d, &current, slots, &next, out)
                } else {
                    propagate_slots::<false>(ctx, d, &current, slots, &next, out)
                }
            }),
        };
        let found = outcomes.iter().map(|o| o.found).sum::<u64>();
        let later = outcomes.into_iter().flat_map(|o| o.later);
        for (level, i) in later {
            levels.push(level, i);
        }
        std::mem::swap(&mut current, &mut next);
        (pending, pending_next) = (pending_next + found, 0);
        d += 1;
    }
    Ok(highest)
}

/// What the sweep of one chunk decided: counts of the positions put in the
/// level-0 and level-1 frontiers, and the other decided positions by level.
struct SweepSeeds {
    first: [u64; 2],
    later: Vec<(u16, u64)>,
}

/// The forward sweep over one chunk of slots: counts each position's moves
/// inside the material and resolves the others.
fn sweep_chunk(
    ctx: &Ctx,
    range: std::ops::Range<usize>,
    first: [&Frontier; 2],
) -> Result<SweepSeeds, SolveError> {
    let mut seeds = SweepSeeds {
        first: [0, 0],
        later: Vec::new(),
    };
    let mut seed = |level: u16, i: usize| {
        if level < 2 {
            first[level as usize].insert(i as u64);
            seeds.first[level as usize] += 1;
        } else {
            seeds.later.push((level, i as u64));
        }
    };
    for (i, pos) in ctx
        .index
        .raw_positions(range.start as u64..range.end as u64)
    {
        let i = i as usize;
        let Some(pos) = pos else {
            ctx.cells[i].store(RAW_UNUSED, Relaxed);
            continue;
        };
        let moves = ctx.subs.weigh_moves(&ctx.tables, &pos)?;
        // Quiet moves: successors in this material.
        let inside = moves.quiet as usize;
        if !moves.any_move {
            let value = match ctx.rules.no_move {
                NoMoveRule::Loss => {
                    seed(0, i);
                    loss(0)
                }
                NoMoveRule::Draw => RAW_DRAW,
            };
            ctx.cells[i].store(value, Relaxed);
            continue;
        }
        if moves.best_win.unwrap_or(0) > MAX_WORK_PLIES || moves.floor > MAX_FLOOR {
            return Err(SolveError::DistanceOverflow {
                material: ctx.index.material(),
                limit: if moves.floor > MAX_FLOOR {
                    MAX_FLOOR - 1
                } else {
                    MAX_WORK_PLIES
                },
                in_subtable: true,
            });
        }
        // Every position stores its true count, so decrements never underflow.
        let count = inside * weight(&pos) as usize + moves.outside_draw as usize;
        if count > MAX_COUNT {
            return Err(SolveError::TooManyMoves {
                material: ctx.index.material(),
                count,
                limit: MAX_COUNT,
            });
        }
        let count = count as u8;
        let value = if moves.immediate {
            seed(1, i);
            win(1)
        } else if let Some(w) = moves.best_win {
            // Tentative: a win found inside the material may be shorter.
            seed(w, i);
            win(w)
        } else if count == 0 {
            // Every move is a capture into a smaller table lost for us.
            seed(moves.floor, i);
            loss(moves.floor)
        } else {
            undecided(moves.floor, count)
        };
        ctx.cells[i].store(value, Relaxed);
    }
    Ok(seeds)
}
