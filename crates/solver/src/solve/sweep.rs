//! The forward sweep: every position visited once, its moves generated,
//! what the moves that end the game or leave the material decide written
//! as its first code (a value, or a count of its quiet successors).
//!
//! The slots come in order, so that the positions of a run (the same but
//! for the last piece's square) come one after another: the other pieces'
//! moves are sorted once a run (`jungletb_rules::RunMoves`), and each
//! position costs a look-up for them and the last piece's own moves.

use super::cells::{add, chunks, zero, ByteCells, ByteCtx, Counts};
use super::codes::{decided, weight};
use crate::error::SolveError;
use crate::watch::Watch;
use jungletb_format::encoding::{RAW_DRAW, RAW_UNUSED};
use jungletb_rules::{NoMoveRule, RawPosition, RunMoves};
use rayon::prelude::*;
use std::sync::atomic::Ordering::Relaxed;

/// The forward sweep: every slot's first byte, and the counts of the
/// decided values written. With a checkpoint to save, a stop lets the
/// sweep run to its end (see [`Watch::stop`]).
pub(crate) fn sweep<const W: usize>(
    ctx: &ByteCtx<W>,
    watch: &Watch<'_>,
) -> Result<Counts, SolveError> {
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
        .try_reduce(|| zero(ctx), |a, b| Ok(add(a, b)))
}

/// The counts of the decided values in the cells (for a resumed solve).
pub(crate) fn count<const W: usize>(ctx: &ByteCtx<W>) -> Counts {
    let top = ctx.layout.undecided as usize;
    chunks(ctx.index.size() as usize)
        .map(|range| {
            let mut counts = zero(ctx);
            for i in range {
                let b = ctx.cells.get(i as u64) as usize;
                if (2..top).contains(&b) {
                    counts[b] += 1;
                    ctx.present.mark(i as u64, b as u16);
                }
            }
            counts
        })
        .reduce(|| zero(ctx), add)
}

/// The forward sweep of one chunk: each slot's first byte, and the counts
/// of the decided values written.
fn sweep_chunk<const W: usize>(
    ctx: &ByteCtx<W>,
    range: std::ops::Range<usize>,
) -> Result<Counts, SolveError> {
    let mut counts = zero(ctx);
    let mut word = 0u64;
    let lanes = ByteCells::<W>::LANES;
    let mut decoder = ctx.index.decoder();
    // The moves of the run the decoder is in (see `RunMoves`), made at
    // its first stored position.
    let moving = ctx.index.code_at(ctx.index.piece_count() - 1);
    let mut run: Option<(u64, RunMoves)> = None;
    for i in range.start as u64..range.end as u64 {
        let code = match decoder.stored_position(i) {
            Some(pos) => {
                let started = decoder.runs_started();
                let moves = match &mut run {
                    Some((id, moves)) if *id == started => moves,
                    _ => &mut run.insert((started, ctx.tables.run_moves(&pos, moving))).1,
                };
                first_code(ctx, moves, &pos)?
            }
            None => RAW_UNUSED,
        };
        if (2..ctx.layout.undecided).contains(&code) {
            counts[code as usize] += 1;
            ctx.present.mark(i, code);
        }
        word |= (code as u64) << ByteCells::<W>::shift(i);
        if i % lanes == lanes - 1 || i + 1 == range.end as u64 {
            // This thread alone writes the words of its chunk here.
            ctx.cells.word(i).store(word, Relaxed);
            word = 0;
        }
    }
    Ok(counts)
}

/// The code of a used slot, whose position is `pos` (of `run`), before any level: a
/// draw, a value decided by the moves that end the game or leave the
/// material, or undecided.
fn first_code<const W: usize>(
    ctx: &ByteCtx<W>,
    run: &RunMoves,
    pos: &RawPosition,
) -> Result<u16, SolveError> {
    let layout = ctx.layout;
    let overflow = || SolveError::DistanceOverflow {
        material: ctx.index.material(),
        limit: layout.max_plies(),
        in_subtable: true,
    };
    let moves = ctx.subs.weigh_moves(&ctx.tables, run, pos)?;
    Ok(if !moves.any_move {
        match ctx.rules.no_move {
            NoMoveRule::Loss => decided(0),
            NoMoveRule::Draw => RAW_DRAW,
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
        layout.no_loss
    } else if moves.floor > layout.max_plies() {
        return Err(overflow());
    } else if moves.quiet == 0 {
        // Every move is a capture into a table won for the opponent.
        decided(moves.floor)
    } else if ctx
        .tables
        .steps_into_den(pos, pos.side_to_move().opponent())
    {
        // Every quiet move lets the opponent into the den at once: lost
        // in 2 plies, or later through a capture. Level 1 would have
        // counted it down to that, and passes by the den entries for it
        // (see `expand`).
        decided(moves.floor.max(2))
    } else {
        // Every position holds its true count, so that the counts never
        // drop below 0.
        let count = moves.quiet as usize * weight(pos) as usize;
        if count > layout.max_count as usize {
            return Err(SolveError::TooManyMoves {
                material: ctx.index.material(),
                count,
                limit: layout.max_count as usize,
            });
        }
        layout.count_code(count as u16, moves.floor > 0)
    })
}
