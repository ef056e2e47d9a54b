//! The levels of a solve (see the crate docs), in cells of `W` bytes
//! (`codes.rs`), after the sweep (`sweep.rs`).
//!
//! - **A value or a count** (`codes.rs`). Each successor won at level `d`
//!   counts an undecided position down; at 0 it is lost, at `d + 1` or,
//!   with a floor, at `max(d + 1, floor)`, the floor being found again
//!   then from its captures into the sub-tables (one loss in six on
//!   ELTvET). Only counts drop at a won level, so the thread that takes
//!   the last one is the only one to touch the cell.
//! - **No frontiers and no lists.** The positions of level `d` are the
//!   cells equal to `d + 2` (a loss in `d` plies, `d` even, or a win, `d`
//!   odd): each level scans the cells for them, passing by the blocks that
//!   hold none (`presence.rs`). Tentative wins and losses held back by a
//!   floor wait in their cells for their level's scan; a tentative win
//!   improved meanwhile is not found there. A level with no position
//!   (known from exact counts per code) is not scanned.
//! - **Den entries** are decided by the sweep and passed by at level 1
//!   (see `sweep.rs` and `expand.rs`).
//!
//! A material whose distances pass what its cells hold fails with
//! [`SolveError::DistanceOverflow`], and `mod.rs` solves it again in two
//! bytes a cell. When the solve ends, every undecided cell becomes a draw.
//!
//! The cells live in 64-bit words, read and written only as words (a
//! compare-and-swap, or a plain store where no other thread writes the
//! word), so that the scan reads a word a load and no access mixes sizes.
//! A small material's updates are queued with their words prefetched and
//! applied as they come; a 6-piece one's by regions (`buckets.rs`).
//!
//! **Two threads, a side each.** A position's predecessors have the other
//! side to move, and a material unequal on its two sides stores each side
//! to move in its own half of the slots. On two threads, each thread takes
//! the chunks of one half, so that each alone writes the other half, by
//! plain stores (the one word astride the halves is always locked). The
//! thread done first asks the other to lock from its next batch on, then
//! helps with its chunks. Without the locks a 4-piece solve takes about a
//! tenth less CPU. On other thread counts, and materials equal on both
//! sides (stored White to move only), every thread takes any chunk and
//! locks every update.
//!
//! Between levels the whole state is the cells and the level: a checkpoint
//! is the cells (`checkpoint.rs`), the counts are taken again from them on
//! resuming. Within a level, a checkpoint also names the chunks already
//! run (by regions: those of the rounds applied), and the resumed solve
//! runs only the others.

use super::buckets::{Buckets, Rounds};
use super::cells::{
    add, chunk_done, chunk_words, chunks, mark_chunk, zero, ByteCells, ByteCtx, Counts, CHUNK,
};
use super::codes::decided;
use super::expand::{expand_for, Expand, Expander};
use super::groups::{finish_group, scan_group, GROUP};
use super::presence::BLOCK;
use super::updates::{apply_region, Batch};
use crate::error::SolveError;
use crate::watch::Watch;
use rayon::prelude::*;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize};

/// Where a byte solve stands between levels, or within one.
pub(crate) struct LevelState {
    /// The level to run next (or to finish).
    pub(crate) level: u16,
    /// The highest level run so far.
    pub(crate) highest: u16,
    /// The chunks of `level` already run, a bit each (of [`CHUNK`] slots,
    /// in [`chunk_words`] words); empty when none is.
    pub(crate) done: Vec<u64>,
}

/// Runs the levels from `state` on. Returns where the levels ended (the
/// level at which nothing waited, and the highest level run), or stops at
/// a level with `save(state)` when `watch.stop` is set.
pub(crate) fn propagate<const W: usize>(
    ctx: &ByteCtx<W>,
    watch: &Watch<'_>,
    mut counts: Counts,
    mut state: LevelState,
    save: &dyn Fn(&LevelState) -> Result<SolveError, SolveError>,
    mut rounds: Option<Rounds>,
) -> Result<LevelState, SolveError> {
    let material = ctx.index.material();
    let n = ctx.index.size() as usize;
    let expand = expand_for(ctx.index);
    loop {
        let d = state.level;
        let layout = ctx.layout;
        let code = decided(d) as usize;
        let top = layout.undecided as usize;
        if code >= top || counts[code..top].iter().all(|&k| k == 0) {
            // Nothing waits at this level or beyond: every undecided
            // position is a draw.
            return Ok(state);
        }
        (watch.on_level)(d);
        if watch.stop.load(Relaxed) {
            return Err(save(&state)?);
        }
        if counts[code] > 0 {
            if d + 1 > layout.max_plies() {
                return Err(SolveError::DistanceOverflow {
                    material,
                    limit: layout.max_plies(),
                    in_subtable: false,
                });
            }
            // A stop need not wait for the level's end: the chunks run so
            // far are saved with the bytes, and a resumed solve runs the
            // others, and only those (see `level_as_found`): a chunk is marked
            // once it has run whole. The counts of a resumed solve are taken
            // from the bytes, so the skipped chunks' are not missed.
            let words = chunk_words(n as u64);
            let done: Vec<AtomicU64> = (0..words)
                .map(|w| AtomicU64::new(state.done.get(w).copied().unwrap_or(0)))
                .collect();
            let stop = || watch.stop.load(Relaxed);
            let (delta, stopped) = match rounds.as_mut() {
                Some(rounds) => level_by_regions(ctx, rounds, d, &done, stop)?,
                None => level_as_found(ctx, expand, d, &done, stop)?,
            };
            if stopped {
                state.done = done.into_iter().map(AtomicU64::into_inner).collect();
                return Err(save(&state)?);
            }
            counts = add(counts, delta);
            state.highest = d;
        }
        // The chunks run belong to this level alone.
        state.done.clear();
        state.level += 1;
    }
}

/// Level `d`'s updates applied as found: the chunks not yet `done` run on
/// every thread of the pool, on two a side to move each (see the module
/// docs). The counts of the values written, and whether `stop()` ended
/// the level before its end.
///
/// A chunk must run once a level: run again, a won level's chunk would
/// count its predecessors down twice (a lost level's would write nothing
/// new). It is marked done once its updates are applied.
pub(crate) fn level_as_found<const W: usize>(
    ctx: &ByteCtx<W>,
    expand: Expand<Batch, W>,
    d: u16,
    done: &[AtomicU64],
    stop: impl Fn() -> bool + Sync,
) -> Result<(Counts, bool), SolveError> {
    let n = ctx.index.size() as usize;
    let threads = rayon::current_num_threads();
    let by_sides = threads == 2 && !ctx.index.white_to_move_only();
    // Each side's whole chunks (else all in the first), the chunk astride
    // both (run once both threads lock), and the word of cells both halves
    // share, always locked.
    let half = if by_sides { n / 2 } else { n };
    let (first, astride) = (half / CHUNK, half.div_ceil(CHUNK));
    let sides = [0..first, astride..n.div_ceil(CHUNK), first..astride];
    let shared = if by_sides {
        half as u64 / ByteCells::<W>::LANES
    } else {
        u64::MAX
    };
    let next = sides.clone().map(|s| AtomicUsize::new(s.start));
    // `asked[s]`: the other thread waits to help with side `s`;
    // `locked[s]`: side `s`'s thread writes no more by plain stores.
    let [asked, locked] = [(); 2].map(|_| [AtomicBool::new(false), AtomicBool::new(false)]);
    let stopped = AtomicBool::new(false);
    // Chunk `c`'s positions expanded, `lock()` asked before each batch.
    let chunk = |c: usize, delta: &mut Counts, lock: &mut dyn FnMut() -> bool| {
        let range = c * CHUNK..((c + 1) * CHUNK).min(n);
        let (mut batch, mut expander, mut result) =
            (Batch::new(), Expander::new(ctx.index), Ok(()));
        let mut apply = |batch: &mut Batch, delta: &mut Counts| {
            let locked = lock();
            if result.is_ok() {
                result = batch.apply(ctx, (ctx.layout, d), delta, locked, shared);
            }
        };
        scan_chunk(ctx, decided(d), range, |i| {
            expand(ctx, d, i, &mut expander, &mut batch);
            if batch.full() {
                apply(&mut batch, delta);
            }
        });
        apply(&mut batch, delta);
        if result.is_ok() {
            mark_chunk(done, c);
        }
        result
    };
    let outs = rayon::broadcast(|thread| {
        let me = thread.index();
        let _unlock = by_sides.then(|| Unlock(&locked[me]));
        let (mut delta, mut result) = (zero(ctx), Ok(()));
        // Locked but alone; by sides, once the other thread asks.
        let mut lock = !by_sides && threads > 1;
        let order = if by_sides { [me, 2, 1 - me] } else { [0, 2, 1] };
        for (k, side) in order.into_iter().enumerate() {
            if k == 1 && by_sides {
                locked[me].store(true, Release);
                asked[1 - me].store(true, Relaxed);
                while !locked[1 - me].load(Acquire) {
                    std::thread::yield_now();
                }
                lock = true;
            }
            loop {
                let c = next[side].fetch_add(1, Relaxed);
                let end = c >= sides[side].end;
                // (An error stops the level too, and is returned.)
                if end || stop() || stopped.load(Relaxed) {
                    stopped.fetch_or(!end, Relaxed);
                    break;
                }
                if chunk_done(done, c) {
                    continue;
                }
                let mut lock_now = || {
                    if !lock && by_sides && asked[me].load(Relaxed) {
                        locked[me].store(true, Release);
                        lock = true;
                    }
                    lock
                };
                if let Err(e) = chunk(c, &mut delta, &mut lock_now) {
                    result = Err(e);
                    stopped.store(true, Relaxed);
                }
            }
        }
        result.map(|()| delta)
    });
    let mut delta = zero(ctx);
    for part in outs {
        delta = add(delta, part?);
    }
    Ok((delta, stopped.into_inner()))
}

/// Marks a thread's side locked when it leaves its level, even by a panic
/// (the other thread may wait for it).
struct Unlock<'a>(&'a AtomicBool);

impl Drop for Unlock<'_> {
    fn drop(&mut self) {
        self.0.store(true, Release);
    }
}

/// Level `d`'s work by regions (`buckets.rs`): the chunks not yet `done`
/// expanded in rounds, each round's updates applied region by region, by
/// plain loads and stores. After each round its chunks are marked done
/// and, unless the level is over, `stop()` may end it there. The counts of
/// the values written, and whether the level stopped before its end.
pub(crate) fn level_by_regions<const W: usize>(
    ctx: &ByteCtx<W>,
    rounds: &mut Rounds,
    d: u16,
    done: &[AtomicU64],
    stop: impl Fn() -> bool,
) -> Result<(Counts, bool), SolveError> {
    let n = ctx.index.size() as usize;
    let chunks = n.div_ceil(CHUNK) as u64;
    let expand = expand_for::<Buckets, W>(ctx.index);
    let layout = ctx.layout;
    let code = decided(d);
    let mut total: Result<Counts, SolveError> = Ok(zero(ctx));
    let mut marked = 0;
    let mut stopped = false;
    rounds.run(
        chunks,
        |c, buckets| {
            let c = c as usize;
            if !chunk_done(done, c) {
                let range = c * CHUNK..((c + 1) * CHUNK).min(n);
                let mut expander = Expander::new(ctx.index);
                scan_chunk(ctx, code, range, |i| {
                    expand(ctx, d, i, &mut expander, buckets)
                });
            }
        },
        || Ok(zero(ctx)),
        |base, entries, out: &mut Result<Counts, SolveError>| {
            if let Ok(delta) = out {
                if let Err(e) = apply_region(ctx, layout, d, base, entries, delta) {
                    *out = Err(e);
                }
            }
        },
        |outs, taken| {
            for out in outs {
                total = match (std::mem::replace(&mut total, Ok(Vec::new())), out) {
                    (Ok(a), Ok(b)) => Ok(add(a, b)),
                    (Err(e), _) | (_, Err(e)) => Err(e),
                };
            }
            // The chunks taken so far have run whole, their updates applied.
            for c in marked..taken as usize {
                mark_chunk(done, c);
            }
            marked = taken as usize;
            stopped = taken < chunks && stop();
            total.is_err() || stopped
        },
    );
    Ok((total?, stopped))
}

/// Calls `f(i)` for every position `i` of `range` (a chunk) whose code is
/// `code`, passing by the blocks that hold none; counts the slots read.
fn scan_chunk<const W: usize>(
    ctx: &ByteCtx<W>,
    code: u16,
    range: std::ops::Range<usize>,
    mut f: impl FnMut(u64),
) {
    // Chunks start on a block.
    let mut scanned = 0;
    for start in range.clone().step_by(BLOCK) {
        if ctx.present.may_hold(start / BLOCK, code) {
            let block = start..(start + BLOCK).min(range.end);
            scanned += block.len() as u64;
            scan(ctx.cells, block, code, &mut f);
        }
    }
    ctx.scanned[0].fetch_add(scanned, Relaxed);
    ctx.scanned[1].fetch_add(range.len() as u64, Relaxed);
}

/// Calls `f(i)` for every slot `i` of `range` (which starts on a word)
/// whose code is `code` (not 0), a group of words at a time
/// (`groups.rs`). Cells past the material's slots are 0 and never match.
#[inline]
fn scan<const W: usize>(
    cells: ByteCells<W>,
    range: std::ops::Range<usize>,
    code: u16,
    mut f: impl FnMut(u64),
) {
    let lanes = ByteCells::<W>::LANES as usize;
    let words = &cells.0[range.start / lanes..range.end.div_ceil(lanes)];
    for (g, group) in words.chunks(GROUP).enumerate() {
        let start = range.start + g * GROUP * lanes;
        scan_group::<W>(group, code, |k| f((start + k) as u64));
    }
}

/// Turns every undecided cell into a draw, the levels having ended: the
/// cells become the table's values. The positions (used slots).
pub(crate) fn finish<const W: usize>(ctx: &ByteCtx<W>) -> u64 {
    let top = ctx.layout.undecided;
    let lanes = ByteCells::<W>::LANES as usize;
    chunks(ctx.index.size() as usize)
        .map(|range| {
            ctx.cells.0[range.start / lanes..range.end.div_ceil(lanes)]
                .chunks(GROUP)
                .map(|group| finish_group::<W>(group, top))
                .sum::<u64>()
        })
        .sum()
}
