//! Solving one material by retrograde analysis (see the crate docs): the
//! entry points, the choice of the cell's width, and the solve's state
//! from the sweep (`sweep.rs`) through the levels (`levels.rs`) to the
//! values. What a cell's codes mean: `codes.rs`; the cells in words and
//! what the passes share: `cells.rs`; a level's position expanded into
//! its predecessors' updates: `expand.rs`; applying updates: `updates.rs`, by
//! region: `buckets.rs`; the blocks a scan passes by: `presence.rs`;
//! stopping and resuming: `checkpoint.rs`; the tables captures lead into:
//! `subtables.rs`; memory or mapped files: `work.rs`, `memory.rs`.

pub(crate) mod buckets;
pub(crate) mod cells;
pub(crate) mod checkpoint;
pub(crate) mod codes;
pub(crate) mod expand;
pub(crate) mod groups;
pub(crate) mod levels;
pub(crate) mod memory;
pub(crate) mod presence;
pub(crate) mod subtables;
pub(crate) mod sweep;
pub(crate) mod updates;
pub(crate) mod values;
pub(crate) mod work;

use crate::error::SolveError;
use crate::watch::Watch;
use buckets::{byte_region_bits, Rounds};
use cells::{ByteCells, ByteCtx};
use checkpoint::Identity;
use codes::Layout;
use jungletb_indexer::{Material, PositionIndex};
use jungletb_rules::{MoveTables, Ruleset};
use jungletb_tablebase::Tablebase;
use levels::LevelState;
use memory::working_file_bytes;
use presence::Presence;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};
use subtables::SubTables;
use values::SolvedValues;
use work::WorkArray;

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
    /// Slots the levels' scans read, and slots they would have read
    /// without passing by the blocks that hold none of a level's
    /// positions, over the levels this run ran (a resumed solve's from its
    /// checkpoint on).
    pub scanned_slots: (u64, u64),
    /// Bytes of a cell: 1, or 2 for a material whose distances or counts
    /// a byte cannot hold.
    pub cell_bytes: u8,
}

/// Solves canonical `material` under `rules`, reading its sub-materials from
/// `subtables`, with working files under `work_dir`. Returns the raw values
/// (see [`jungletb_format::encoding`]) for every slot of the material's index.
///
/// `mem_budget` (bytes) decides where the cells live: when they fit in it
/// (see [`in_memory_bytes`](crate::in_memory_bytes)) they are ordinary
/// memory, otherwise a memory-mapped file in `work_dir`, which the kernel
/// pages to disk as needed. Only the buckets of a 6-piece material's
/// rounds must fit in memory (see
/// [`minimum_memory`](crate::minimum_memory)). `on_progress` is called with
/// counts of positions swept.
pub fn solve_material(
    material: Material,
    rules: &Ruleset,
    subtables: &Tablebase,
    work_dir: &Path,
    mem_budget: u64,
    on_progress: &(dyn Fn(u64) + Sync),
) -> Result<(SolvedValues, SolveStats), SolveError> {
    let never = AtomicBool::new(false);
    let watch = Watch {
        on_progress,
        on_level: &|_| {},
        stop: &never,
        checkpoint: None,
    };
    solve_material_until(material, rules, subtables, work_dir, mem_budget, watch)
}

/// [`solve_material`] that stops when `watch.stop` is set, saving its
/// state in `watch.checkpoint` (if given) for the same call to resume.
pub fn solve_material_until(
    material: Material,
    rules: &Ruleset,
    subtables: &Tablebase,
    work_dir: &Path,
    mem_budget: u64,
    watch: Watch<'_>,
) -> Result<(SolvedValues, SolveStats), SolveError> {
    let index = PositionIndex::new(material, rules)?;
    let solve = CellSolve {
        index: &index,
        rules,
        work_dir,
        mem_budget,
        regions: byte_region_bits(index.size(), rayon::current_num_threads()),
    };
    let subs = SubTables::open(material, subtables)?;
    // A checkpoint decides the width; else a byte where it holds the
    // material's counts and its captures' distances.
    let byte = Layout::for_width(1);
    let fits =
        byte.counts_fit(material) && subs.longest_win().is_none_or(|w| w + 2 <= byte.max_plies());
    let width = watch
        .checkpoint
        .and_then(checkpoint::saved_width)
        .unwrap_or(if fits { 1 } else { 2 });
    if width == 1 {
        match solve.solve::<1>(subs, watch, byte) {
            Err(SolveError::DistanceOverflow { .. }) => {
                // A distance inside the material past a byte's: the same
                // solve again in two bytes. Its checkpoint is of no use.
                if let Some(path) = watch.checkpoint {
                    let _ = std::fs::remove_file(path);
                }
            }
            done => return done,
        }
    } else {
        return solve.solve::<2>(subs, watch, Layout::for_width(2));
    }
    let subs = SubTables::open(material, subtables)?;
    solve.solve::<2>(subs, watch, Layout::for_width(2))
}

/// A material to solve, in cells of one width or another.
pub(crate) struct CellSolve<'a> {
    pub(crate) index: &'a PositionIndex,
    pub(crate) rules: &'a Ruleset,
    pub(crate) work_dir: &'a Path,
    pub(crate) mem_budget: u64,
    /// Updates by regions of 2^bits slots applied in parts of 2^part_bits
    /// (`buckets.rs`), or as found.
    pub(crate) regions: Option<(u32, u32)>,
}

impl CellSolve<'_> {
    /// Solves the material from its sub-tables `subs` in cells of `W`
    /// bytes laid out as `layout`.
    pub(crate) fn solve<const W: usize>(
        &self,
        subs: SubTables,
        watch: Watch<'_>,
        layout: Layout,
    ) -> Result<(SolvedValues, SolveStats), SolveError> {
        let material = self.index.material();
        let n = self.index.size();
        let cells = if working_file_bytes(n * W as u64, self.mem_budget) == 0 {
            WorkArray::anonymous(n as usize, W)?
        } else {
            WorkArray::file(self.work_dir, "cells", n as usize, W)?
        };
        let id = Identity {
            material,
            rules: self.rules,
            slots: n,
            width: W,
        };
        let resumed = match watch.checkpoint {
            Some(path) if path.exists() => {
                Some(checkpoint::load(path, &id, &cells, cells::chunk_words(n))?)
            }
            _ => None,
        };
        let ctx = ByteCtx {
            rules: self.rules,
            tables: MoveTables::new(self.rules),
            index: self.index,
            subs,
            cells: ByteCells::<W>(cells.atomic_u64()),
            layout,
            present: Presence::new(n),
            scanned: Default::default(),
        };
        let t0 = Instant::now();
        let (counts, start) = match resumed {
            Some(((level, highest), done)) => (
                sweep::count(&ctx),
                LevelState {
                    level,
                    highest,
                    done,
                },
            ),
            None => (
                sweep::sweep(&ctx, &watch)?,
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
            cell_bytes: W as u8,
            ..Default::default()
        };
        let t1 = Instant::now();
        let save = |state: &LevelState| match watch.checkpoint {
            Some(path) => {
                checkpoint::save(
                    path,
                    &id,
                    &cells,
                    (state.level, state.highest),
                    (&state.done, cells::chunk_words(n)),
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
            .regions
            .map(|bits| Rounds::new(n, bits, rayon::current_num_threads()));
        let end = levels::propagate(&ctx, &watch, counts, start, &save, rounds)?;
        stats.scanned_slots = (ctx.scanned[0].load(Relaxed), ctx.scanned[1].load(Relaxed));
        stats.levels = end.highest;
        stats.propagate = t1.elapsed();
        stats.positions = levels::finish(&ctx);
        drop(ctx);
        Ok((SolvedValues::new(cells, W as u8), stats))
    }
}

#[cfg(test)]
mod tests;
