//! Solving with one byte a slot (issue 42's working memory):
//! [`Propagation::ByteCells`](crate::Propagation::ByteCells).
//!
//! The 16-bit solve (`solve.rs`) keeps, per slot, a value or a floor and a
//! count of undecided successors, beside two frontier bitmaps and lists of
//! the positions decided ahead of their level: 2.6-2.7 bytes a slot at the
//! peak of a 6-piece solve. Here the whole state is one byte a slot:
//!
//! - **A value or a count.** An undecided position's byte holds the
//!   weighted count of its quiet successors not yet won for the opponent
//!   (as the 16-bit cell does, see `cell::weight`), and one bit: whether
//!   it has a floor, the earliest level it can be lost at (1 + the longest
//!   win a capture leads into). Each successor won at level `d` counts it
//!   down; at 0 it is lost, at `d + 1` or, with a floor, at
//!   `max(d + 1, floor)`, the floor being found again then from its
//!   captures into the sub-tables (one loss in six on ELTvET). Only counts
//!   drop at a won level, so the thread that takes the last one is the
//!   only one to touch the byte. (Until 2026-12-05 the byte held the floor
//!   and no count, and a position was checked by generating its moves
//!   each time a successor was won: `docs/lab/2026-12-05-one-byte-counts.md`.)
//! - **No frontiers and no lists.** The positions of level `d` are the
//!   bytes equal to `d + 2` (the table's raw value of a loss in `d` plies,
//!   `d` even, or of a win, `d` odd): each level scans the bytes for them,
//!   eight at a time, passing by the blocks that hold none
//!   (`byte_presence.rs`). Tentative wins and losses held back by a floor
//!   wait in their bytes for their level's scan; a tentative win improved
//!   meanwhile is simply not found there. A level with no position (known
//!   from exact counts per value) is not scanned.
//!
//! The byte of a slot ([`Layout`]): 0 unused, 1 draw, `n + 2` decided in
//! `n` plies (as the table stores it), up to 172 plies, and above them
//! the counts, 1 to 40 with and without a floor, and [`NO_LOSS`] for a
//! position with a capture into a drawn table (it can win or draw, never
//! lose, and needs no count). A material whose distances pass 172 plies
//! fails with [`SolveError::DistanceOverflow`] and is solved with 16-bit
//! cells instead (see `solve.rs`). When the solve ends, every undecided
//! byte becomes a draw and the bytes are the table's payload.
//!
//! The bytes live in 64-bit words, read and written only as words (a
//! byte's update is a compare-and-swap of its word, or a plain store on
//! one thread), so that the scan reads eight slots a load and no access
//! mixes sizes. Below [`REGIONS_FROM_SLOTS`](crate::REGIONS_FROM_SLOTS)
//! updates are queued with their words prefetched and applied as they
//! come, as in `propagate.rs`; from there on (every 6-piece material) a
//! level runs in rounds, its updates gathered in buckets by region of 2
//! MB and each region applied by one thread with plain loads and stores
//! (`buckets.rs`, as the 16-bit solve does by `regions.rs`).
//!
//! Between levels the whole state is the bytes and the level: a checkpoint
//! is the bytes (see `checkpoint.rs`), the counts are taken again from
//! them on resuming. Within a level, a checkpoint also names the chunks
//! already run (by regions: those of the rounds applied), and the resumed
//! solve runs only the others.
//!
//! The values written are the 16-bit solve's, byte for byte (tested on
//! fixture materials of 3 to 5 pieces, on one to three threads, and
//! against the recorded CRCs of every 5-piece table).

use crate::buckets::{Buckets, Rounds};
pub(crate) use crate::byte_cells::{ByteCells, ByteCtx, Counts};
pub(crate) use crate::byte_codes::Layout;
use crate::byte_codes::{decided, MAX_COUNT, NO_LOSS};
use crate::byte_presence::BLOCK;
use crate::byte_updates::{apply_region, Batch, ByteUpdates};
use crate::cell::weight;
use crate::error::SolveError;
use crate::watch::Watch;
use jungletb_format::encoding::{RAW_DRAW, RAW_UNUSED};
use jungletb_indexer::{Decoder, Neighbours, PositionIndex};
use jungletb_rules::{NoMoveRule, RawPosition};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// Slots a thread scans or sweeps at a time (a whole number of words).
const CHUNK: usize = 1 << 16;
/// Each byte of a word set to 1.
const ONES: u64 = 0x0101_0101_0101_0101;

fn add(mut total: Counts, part: Counts) -> Counts {
    for (t, p) in total.iter_mut().zip(part) {
        *t += p;
    }
    total
}

/// The slot ranges of `n` slots a thread takes at a time.
fn chunks(n: usize) -> impl IndexedParallelIterator<Item = std::ops::Range<usize>> {
    (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(move |c| c * CHUNK..((c + 1) * CHUNK).min(n))
}

/// The forward sweep: every slot's first byte, and the counts of the
/// decided values written. With a checkpoint to save, a stop lets the
/// sweep run to its end (see [`Watch::stop`]).
pub(crate) fn sweep(ctx: &ByteCtx, watch: &Watch<'_>) -> Result<Counts, SolveError> {
    let material = ctx.index.material();
    watch.check(material)?;
    let n = ctx.index.size() as usize;
    chunks(n)
        .map(|range| {
            if watch.checkpoint.is_none() {
                watch.check(material)?;
            }
            let len = range.len() as u64;
            let out = sweep_chunk(ctx, range);
            (watch.on_progress)(len);
            out
        })
        .try_reduce(|| [0; 256], |a, b| Ok(add(a, b)))
}

/// The counts of the decided values in the bytes (for a resumed solve).
pub(crate) fn count(ctx: &ByteCtx) -> Counts {
    let top = ctx.layout.undecided as usize;
    chunks(ctx.index.size() as usize)
        .map(|range| {
            let mut counts = [0; 256];
            for i in range {
                let b = ctx.cells.get(i as u64) as usize;
                if (2..top).contains(&b) {
                    counts[b] += 1;
                    ctx.present.mark(i as u64, b as u8);
                }
            }
            counts
        })
        .reduce(|| [0; 256], add)
}

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

/// Words of a bitmap with a bit for each chunk of `n` slots.
pub(crate) fn chunk_words(n: u64) -> usize {
    n.div_ceil(CHUNK as u64).div_ceil(64) as usize
}

/// Runs the levels from `state` on. Returns where the levels ended (the
/// level at which nothing waited, and the highest level run), or stops at
/// a level with `save(state)` when `watch.stop` is set.
pub(crate) fn propagate(
    ctx: &ByteCtx,
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
            // others, and only those (see `level_chunk`): a chunk is marked
            // once it has run whole. The counts of a resumed solve are taken
            // from the bytes, so the skipped chunks' are not missed.
            let words = chunk_words(n as u64);
            let done: Vec<AtomicU64> = (0..words)
                .map(|w| AtomicU64::new(state.done.get(w).copied().unwrap_or(0)))
                .collect();
            let stop = || watch.stop.load(Relaxed);
            let (delta, stopped) = match rounds.as_mut() {
                Some(rounds) => level_by_regions(ctx, rounds, d, &done, stop)?,
                None => {
                    let stopped = AtomicBool::new(false);
                    let delta = chunks(n)
                        .map(|range| -> Result<Counts, SolveError> {
                            let c = range.start / CHUNK;
                            let bit = 1u64 << (c % 64);
                            if done[c / 64].load(Relaxed) & bit != 0 {
                                return Ok([0; 256]);
                            }
                            if stop() {
                                stopped.store(true, Relaxed);
                                return Ok([0; 256]);
                            }
                            let delta = level_chunk(ctx, expand, layout, d, range)?;
                            done[c / 64].fetch_or(bit, Relaxed);
                            Ok(delta)
                        })
                        .try_reduce(|| [0; 256], |a, b| Ok(add(a, b)))?;
                    (delta, stopped.into_inner())
                }
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

/// Level `d`'s work on the slots of `range` (laid out as `layout`): every
/// position of the level there expanded. The counts of the values written
/// (and taken back).
///
/// A chunk must run once a level: run again, a won level's chunk would
/// count its predecessors down twice (a lost level's would write nothing
/// new). A solve stopped within a level saves which chunks ran.
fn level_chunk(
    ctx: &ByteCtx,
    expand: Expand<Batch>,
    layout: Layout,
    d: u16,
    range: std::ops::Range<usize>,
) -> Result<Counts, SolveError> {
    let mut delta = [0; 256];
    let mut batch = Batch::new();
    let mut result = Ok(());
    let mut decoder = ctx.index.decoder();
    scan_chunk(ctx, decided(d), range, |i| {
        expand(ctx, d, i, &mut decoder, &mut batch);
        if batch.full() && result.is_ok() {
            result = batch.apply(ctx, layout, d, &mut delta);
        }
    });
    result?;
    batch.apply(ctx, layout, d, &mut delta)?;
    Ok(delta)
}

/// Level `d`'s work by regions (`buckets.rs`): the chunks not yet `done`
/// expanded in rounds, each round's updates applied region by region, by
/// plain loads and stores. After each round its chunks are marked done
/// and, unless the level is over, `stop()` may end it there. The counts of
/// the values written, and whether the level stopped before its end.
fn level_by_regions(
    ctx: &ByteCtx,
    rounds: &mut Rounds,
    d: u16,
    done: &[AtomicU64],
    stop: impl Fn() -> bool,
) -> Result<(Counts, bool), SolveError> {
    let n = ctx.index.size() as usize;
    let chunks = n.div_ceil(CHUNK) as u64;
    let expand = expand_for::<Buckets>(ctx.index);
    let layout = ctx.layout;
    let code = decided(d);
    let is_done = |c: usize| done[c / 64].load(Relaxed) & 1 << (c % 64) != 0;
    let mut total: Result<Counts, SolveError> = Ok([0; 256]);
    let mut marked = 0;
    let mut stopped = false;
    rounds.run(
        chunks,
        |c, buckets| {
            let c = c as usize;
            if !is_done(c) {
                let range = c * CHUNK..((c + 1) * CHUNK).min(n);
                let mut decoder = ctx.index.decoder();
                scan_chunk(ctx, code, range, |i| {
                    expand(ctx, d, i, &mut decoder, buckets)
                });
            }
        },
        || Ok([0; 256]),
        |base, entries, out: &mut Result<Counts, SolveError>| {
            if let Ok(delta) = out {
                if let Err(e) = apply_region(ctx, layout, d, base, entries, delta) {
                    *out = Err(e);
                }
            }
        },
        |outs, taken| {
            for out in outs {
                total = match (std::mem::replace(&mut total, Ok([0; 256])), out) {
                    (Ok(a), Ok(b)) => Ok(add(a, b)),
                    (Err(e), _) | (_, Err(e)) => Err(e),
                };
            }
            // The chunks taken so far have run whole, their updates applied.
            for c in marked..taken as usize {
                done[c / 64].fetch_or(1 << (c % 64), Relaxed);
            }
            marked = taken as usize;
            stopped = taken < chunks && stop();
            total.is_err() || stopped
        },
    );
    Ok((total?, stopped))
}

/// Calls `f(i)` for every position `i` of `range` (a chunk) whose byte is
/// `code`, passing by the blocks that hold none; counts the slots read.
fn scan_chunk(ctx: &ByteCtx, code: u8, range: std::ops::Range<usize>, mut f: impl FnMut(u64)) {
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
/// whose byte is `code` (not 0), eight bytes a load.
#[inline]
fn scan(cells: ByteCells, range: std::ops::Range<usize>, code: u8, mut f: impl FnMut(u64)) {
    let pattern = ONES * code as u64;
    let words = &cells.0[range.start / 8..range.end.div_ceil(8)];
    for (k, word) in words.iter().enumerate() {
        let x = word.load(Relaxed) ^ pattern;
        // A byte of `x` is 0 where the byte is `code`; this test finds
        // every word with one (and may flag a few without).
        if x.wrapping_sub(ONES) & !x & (ONES << 7) == 0 {
            continue;
        }
        for b in 0..8 {
            if (x >> (b * 8)) as u8 == 0 {
                // Bytes past the material's slots are 0 and never match.
                f(((range.start / 8 + k) * 8 + b) as u64);
            }
        }
    }
}

/// The forward sweep of one chunk: each slot's first byte, and the counts
/// of the decided values written.
fn sweep_chunk(ctx: &ByteCtx, range: std::ops::Range<usize>) -> Result<Counts, SolveError> {
    let mut counts = [0; 256];
    let mut word = 0u64;
    let slots = range.start as u64..range.end as u64;
    for (i, pos) in ctx.index.raw_positions(slots) {
        let i = i as usize;
        let code = first_byte(ctx, pos)?;
        if (2..ctx.layout.undecided).contains(&code) {
            counts[code as usize] += 1;
            ctx.present.mark(i as u64, code);
        }
        word |= (code as u64) << (i % 8 * 8);
        if i % 8 == 7 || i + 1 == range.end {
            // This thread alone writes the words of its chunk here.
            ctx.cells.0[i / 8].store(word, Relaxed);
            word = 0;
        }
    }
    Ok(counts)
}

/// The byte of a slot, whose position is `pos` (`None`: an unused slot),
/// before any level: unused, a draw, a value decided by the moves that end
/// the game or leave the material, or undecided.
fn first_byte(ctx: &ByteCtx, pos: Option<RawPosition>) -> Result<u8, SolveError> {
    let layout = ctx.layout;
    let overflow = || SolveError::DistanceOverflow {
        material: ctx.index.material(),
        limit: layout.max_plies(),
        in_subtable: true,
    };
    let Some(pos) = pos else {
        return Ok(RAW_UNUSED as u8);
    };
    let moves = ctx.subs.weigh_moves(&ctx.tables, &pos)?;
    Ok(if !moves.any_move {
        match ctx.rules.no_move {
            NoMoveRule::Loss => decided(0),
            NoMoveRule::Draw => RAW_DRAW as u8,
        }
    } else if moves.immediate {
        decided(1)
    } else if let Some(w) = moves.best_win {
        // Tentative: a win found inside the material may be shorter.
        if w > layout.max_plies() {
            return Err(overflow());
        }
        decided(w)
    } else if moves.outside_draw {
        NO_LOSS
    } else if moves.floor > layout.max_plies() {
        return Err(overflow());
    } else if moves.quiet == 0 {
        // Every move is a capture into a table won for the opponent.
        decided(moves.floor)
    } else if ctx
        .tables
        .steps_into_den(&pos, pos.side_to_move().opponent())
    {
        // Every quiet move lets the opponent into the den at once: lost
        // in 2 plies, or later through a capture. Level 1 would have
        // counted it down to that, and passes by the den entries for it
        // (see `expand`).
        decided(moves.floor.max(2))
    } else {
        // Every position holds its true count, so that the counts never
        // drop below 0.
        let count = moves.quiet as usize * weight(&pos) as usize;
        if count > MAX_COUNT as usize {
            return Err(SolveError::TooManyMoves {
                material: ctx.index.material(),
                count,
                limit: MAX_COUNT as usize,
            });
        }
        Layout::count_code(count as u8, moves.floor > 0)
    })
}

/// Expands position `c`, decided at level `d`: its predecessors win at
/// `d + 1` (it is lost) or count down (it is won): the updates are queued
/// in `updates`, a [`Batch`] or region [`Buckets`]. The positions of a
/// chunk come in slot order, decoded by one `decoder` (a position in the
/// run of the one before costs one piece moved: ELTvET's propagation
/// about 4 % faster, `docs/lab/2026-12-05-cheaper-decoding.md`).
fn expand<const N: usize, U: ByteUpdates>(
    ctx: &ByteCtx,
    d: u16,
    c: u64,
    decoder: &mut Decoder<'_>,
    updates: &mut U,
) {
    let pos = decoder.raw_position(c);
    if d == 1 && ctx.tables.steps_into_den(&pos, pos.side_to_move()) {
        // Won by entering the den, an entry every predecessor had too:
        // their sweep decided them all (`first_byte`), so there is
        // nothing here to count down. Most of level 1 (7.5 × 10^9 of
        // ELTvELT's updates, a seventh of its propagation).
        return;
    }
    let before = pos.side_to_move().opponent();
    let near = ctx
        .index
        .neighbours::<N>(pos.squares(), before)
        .expect("N is the piece count");
    // A lost position's predecessors win (weight 0); a won one's count
    // down by its weight.
    let w = if d.is_multiple_of(2) { 0 } else { weight(&pos) };
    ctx.tables.for_each_quiet_unmove(&pos, |code, from| {
        updates.push(ctx, near.index_after(code, from), w);
    });
}

/// [`expand`] for one piece count.
type Expand<U> = for<'a> fn(&ByteCtx, u16, u64, &mut Decoder<'a>, &mut U);

/// [`expand`] for the piece count of `index`.
fn expand_for<U: ByteUpdates>(index: &PositionIndex) -> Expand<U> {
    match index.piece_count() {
        2 => expand::<2, U>,
        3 => expand::<3, U>,
        4 => expand::<4, U>,
        5 => expand::<5, U>,
        6 => expand::<6, U>,
        _ => expand::<{ Neighbours::<16>::PIECES_ANY }, U>,
    }
}

/// Turns every undecided byte into a draw, the levels having ended: the
/// bytes become the table's values. The positions (used
/// slots).
pub(crate) fn finish(ctx: &ByteCtx) -> u64 {
    let top = ctx.layout.undecided;
    chunks(ctx.index.size() as usize)
        .map(|range| {
            let mut positions = 0;
            for w in &ctx.cells.0[range.start / 8..range.end.div_ceil(8)] {
                let mut word = w.load(Relaxed).to_le_bytes();
                for b in &mut word {
                    if *b >= top {
                        *b = RAW_DRAW as u8;
                    }
                    positions += (*b != RAW_UNUSED as u8) as u64;
                }
                w.store(u64::from_le_bytes(word), Relaxed);
            }
            positions
        })
        .sum()
}

#[cfg(test)]
#[path = "byte_solve_tests.rs"]
mod tests;
