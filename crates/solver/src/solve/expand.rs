//! Expanding a decided position of a level (`levels.rs`) into the updates
//! of its predecessors.
//!
//! A level's positions come in slot order, so that those of one run (the
//! slots that differ only in the last piece's square, see
//! `jungletb_indexer::RunNeighbours`) come one after another. The un-moves
//! of the other pieces are the same for every position of a run but where
//! the last piece stands in their way, and each one's predecessors differ
//! only in the last piece's square: [`Expander`] finds them and their
//! bases once a run, and a predecessor then costs a bit test and a
//! population count instead of a whole index. The last piece's own
//! un-moves are indexed from the run's own base. A material equal on both
//! sides stores its predecessors colour swapped: their bases are of
//! another width (`jungletb_indexer::SWAPPED`: a count and three bit tests
//! a predecessor), chosen once for the material. Runs the bases do not
//! serve (leading pairs on the mirror axis) index each predecessor alone,
//! through `Neighbours`.
//!
//! A predecessor in which a piece of its side to move stands one sure step
//! from the other side's den (`MoveTables::den_steppers`) wins at once:
//! the sweep decided it, and no update changes it. Such predecessors are
//! passed by before they are indexed (a seventh of ELTvEL's updates):
//! every one of a position where two pieces of that side stand so (an
//! un-move moves one piece), and those whose un-moved piece goes back to
//! such a square or leaves the one other there. Most of this is known
//! once a run.

use super::cells::ByteCtx;
use super::codes::weight;
use super::updates::ByteUpdates;
use jungletb_indexer::{Decoder, Neighbours, PositionIndex, Shifted, SWAPPED};
use jungletb_rules::{square_bit, MoveTables, RawPosition};

/// Un-moves of the pieces other than the last one a run keeps at most:
/// eight pieces a side, four each.
const MOST_UNMOVES: usize = 32;

/// What expanding the positions of one chunk, in slot order, carries from
/// one position to the next: the decoder, and the un-moves of the run.
pub(crate) struct Expander<'a> {
    decoder: Decoder<'a>,
    /// The decoder's run the un-moves are of (see
    /// `Decoder::runs_started`); `None` before the first position.
    run: Option<u64>,
    /// The run's un-moves where the predecessors are stored as they are,
    /// and where they are stored colour swapped: the material decides.
    plain: RunUnmoves<0>,
    swapped: RunUnmoves<SWAPPED>,
}

/// The un-moves of a run, their predecessors' bases of width `L` (see
/// `jungletb_indexer::RunNeighbours`).
struct RunUnmoves<const L: usize> {
    /// The run's positions with their side to move changed, and the code
    /// of its last piece; `None` where the predecessors are indexed alone.
    still: Option<(Shifted<L>, usize)>,
    /// The un-moves of the other pieces: the squares each needs free, and
    /// its predecessors' base, or `None` with the piece and the square it
    /// came from where they are indexed alone.
    unmoves: [(u64, Option<Shifted<L>>, u8, u8); MOST_UNMOVES],
    len: usize,
    /// The pieces other than the last that win at once by a den step in
    /// the predecessors (see the module docs), a bit per code; the run's
    /// un-moves above leave out those whose predecessors they make win so.
    stepping: u16,
    /// The squares from which the last piece steps into the den, if it is
    /// of the side to move in the predecessors, else none.
    last_steps: u64,
}

/// The run's un-moves of width `L` of an [`Expander`].
trait Width<const L: usize> {
    fn bases(&mut self) -> &mut RunUnmoves<L>;
}

impl Width<0> for Expander<'_> {
    #[inline(always)]
    fn bases(&mut self) -> &mut RunUnmoves<0> {
        &mut self.plain
    }
}

impl Width<SWAPPED> for Expander<'_> {
    #[inline(always)]
    fn bases(&mut self) -> &mut RunUnmoves<SWAPPED> {
        &mut self.swapped
    }
}

impl<const L: usize> RunUnmoves<L> {
    fn new() -> RunUnmoves<L> {
        RunUnmoves {
            still: None,
            unmoves: [(0, None, 0, 0); MOST_UNMOVES],
            len: 0,
            stepping: 0,
            last_steps: 0,
        }
    }

    /// Finds the un-moves of the run of `pos`.
    #[inline(always)]
    fn enter<const N: usize, const W: usize>(&mut self, ctx: &ByteCtx<W>, pos: &RawPosition) {
        self.len = 0;
        let before = pos.side_to_move().opponent();
        let Some(run) = ctx.index.run_neighbours::<N, L>(pos.squares(), before) else {
            self.still = None;
            return;
        };
        let last = run.last_code();
        self.still = Some((run.still(), last));
        let stepping = ctx.tables.den_steppers(pos, before) & !(1 << last);
        self.stepping = stepping;
        self.last_steps = if last / 8 == before.index() {
            ctx.tables.den_steps(last)
        } else {
            0
        };
        let others = pos.occupied() & !square_bit(pos.squares()[last]);
        let unmoves = &mut self.unmoves;
        let len = &mut self.len;
        ctx.tables.for_each_quiet_unmove_among(
            pos,
            !(1u16 << last),
            others,
            |code, from, clear| {
                if !wins_at_once(&ctx.tables, stepping, code, from) {
                    unmoves[*len] = (clear, run.after(code, from), code as u8, from);
                    *len += 1;
                }
            },
        );
    }
}

impl<'a> Expander<'a> {
    /// An expander of positions of `index`.
    pub(crate) fn new(index: &'a PositionIndex) -> Expander<'a> {
        Expander {
            decoder: index.decoder(),
            run: None,
            plain: RunUnmoves::new(),
            swapped: RunUnmoves::new(),
        }
    }

    /// True if the position the decoder gave last starts a run other than
    /// the one whose un-moves are held.
    #[inline(always)]
    fn new_run(&mut self) -> bool {
        let run = Some(self.decoder.runs_started());
        let new = run != self.run;
        self.run = run;
        new
    }
}

/// True if the predecessor made by un-moving piece `code` back to `from`
/// wins at once by a den step (see the module docs), `stepping` being the
/// pieces that stand a den step away.
#[inline(always)]
fn wins_at_once(tables: &MoveTables, stepping: u16, code: usize, from: u8) -> bool {
    stepping & !(1 << code) != 0 || tables.den_steps(code) >> from & 1 != 0
}

/// Expands position `c`, decided at level `d`: its predecessors win at
/// `d + 1` (it is lost) or count down (it is won): the updates are queued
/// in `updates`, a `Batch` or region `Buckets`. The positions of a chunk
/// come in slot order, through one `expander` (see the module docs).
fn expand<const N: usize, U: ByteUpdates, const W: usize, const L: usize>(
    ctx: &ByteCtx<W>,
    d: u16,
    c: u64,
    expander: &mut Expander<'_>,
    updates: &mut U,
) where
    for<'a> Expander<'a>: Width<L>,
{
    let pos = expander.decoder.raw_position(c);
    if d == 1 && ctx.tables.steps_into_den(&pos, pos.side_to_move()) {
        // Won by entering the den, an entry every predecessor had too:
        // their sweep decided them all (`first_byte`), so there is
        // nothing here to count down. Most of level 1 (7.5 × 10^9 of
        // ELTvELT's updates, a seventh of its propagation).
        return;
    }
    let before = pos.side_to_move().opponent();
    // A lost position's predecessors win (weight 0); a won one's count
    // down by its weight.
    let w = if d.is_multiple_of(2) { 0 } else { weight(&pos) };
    let alone = || {
        ctx.index
            .neighbours::<N>(pos.squares(), before)
            .expect("N is the piece count")
    };
    let new_run = expander.new_run();
    let bases = Width::<L>::bases(expander);
    if new_run {
        bases.enter::<N, W>(ctx, &pos);
    }
    let Some((still, last)) = bases.still else {
        // No run bases (fewer than three pieces too): each alone.
        let stepping = ctx.tables.den_steppers(&pos, before);
        if stepping & stepping.wrapping_sub(1) != 0 {
            return;
        }
        let near = alone();
        ctx.tables.for_each_quiet_unmove(&pos, |code, from| {
            if !wins_at_once(&ctx.tables, stepping, code, from) {
                updates.push(ctx, near.index_after(code, from), w);
            }
        });
        return;
    };
    let s = pos.squares()[last];
    let on = square_bit(s);
    let (stepping, last_steps) = (bases.stepping, bases.last_steps);
    // With the last piece a den step away, only its own un-moves may
    // lead elsewhere than to a win at once.
    if last_steps & on == 0 {
        for &(clear, shifted, code, from) in &bases.unmoves[..bases.len] {
            if clear & on == 0 {
                let p = match shifted {
                    Some(shifted) => shifted.index_with_last_on(s),
                    None => alone().index_after(code as usize, from),
                };
                updates.push(ctx, p, w);
            }
        }
    }
    if stepping != 0 {
        return;
    }
    ctx.tables
        .for_each_quiet_unmove_among(&pos, 1u16 << last, pos.occupied(), |_, from, _| {
            if last_steps >> from & 1 == 0 {
                updates.push(ctx, still.index_with_last_on(from), w);
            }
        });
}

/// [`expand`] for one piece count.
pub(crate) type Expand<U, const W: usize> =
    for<'a, 'b> fn(&ByteCtx<W>, u16, u64, &'b mut Expander<'a>, &mut U);

/// [`expand`] for the piece count of `index`.
pub(crate) fn expand_for<U: ByteUpdates, const W: usize>(index: &PositionIndex) -> Expand<U, W> {
    if index.white_to_move_only() {
        expand_of::<U, W, SWAPPED>(index)
    } else {
        expand_of::<U, W, 0>(index)
    }
}

/// [`expand`] for the piece count of `index`, its predecessors' run bases
/// of width `L`.
fn expand_of<U: ByteUpdates, const W: usize, const L: usize>(index: &PositionIndex) -> Expand<U, W>
where
    for<'a> Expander<'a>: Width<L>,
{
    match index.piece_count() {
        2 => expand::<2, U, W, L>,
        3 => expand::<3, U, W, L>,
        4 => expand::<4, U, W, L>,
        5 => expand::<5, U, W, L>,
        6 => expand::<6, U, W, L>,
        _ => expand::<{ Neighbours::<16>::PIECES_ANY }, U, W, L>,
    }
}
