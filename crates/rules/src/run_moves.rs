//! The moves of a run of positions: positions the same but for one piece's
//! square (the solver's index puts them in consecutive slots).
//!
//! Along such a run, every other piece's hops are the same, and the one
//! piece that moves only matters where it stands: on a hop's target or on
//! the water a jump crosses, it takes that quiet move away (and, standing
//! on a target as the opponent's piece, may be captured there); on the
//! water a capture's jump crosses, it takes the capture away.
//! [`RunMoves`] sorts the other pieces' hops once a run, so that each
//! position of the run costs a table read for its quiet moves, a look at
//! the few captures, and the moving piece's own moves, instead of every
//! piece's hops ([`MoveTables::count_moves`]).

use crate::bitboard::{square_bit, RawMove, RawPosition};
use crate::board::{Square, NO_SQUARE};
use crate::move_tables::{MoveCount, MoveTables};
use arrayvec::ArrayVec;

/// Hops of the side to move a run keeps at most of one kind: eight pieces
/// of four hops (the moving piece may be the opponent's).
const MOST_HOPS: usize = 32;

/// The other pieces' moves along a run in which only one piece (the
/// moving piece) changes square: made by [`MoveTables::run_moves`],
/// used by [`MoveTables::count_run_moves`].
#[derive(Clone, Debug)]
pub struct RunMoves {
    /// The code of the piece that moves along the run.
    moving: usize,
    /// It belongs to the side to move.
    moving_is_own: bool,
    /// The other pieces' quiet moves, the moving piece off the board.
    quiet: u32,
    /// Per square: how many of those the moving piece takes away there.
    lost: [u8; Square::COUNT],
    /// Some other piece's hop enters the den.
    den: bool,
    /// The squares on which the moving piece blocks every such hop.
    den_blocked_on: u64,
    /// The other pieces' captures of pieces other than the moving one,
    /// each with the squares where the moving piece blocks it.
    captures: ArrayVec<(RawMove, u64), MOST_HOPS>,
    /// The other pieces' captures of the moving piece, wherever it stands
    /// on their target.
    takes_moving: ArrayVec<RawMove, MOST_HOPS>,
    /// Their targets.
    takes_moving_on: u64,
}

impl MoveTables {
    /// The moves of the run of `pos` along which the piece with code
    /// `moving` (on the board) changes square, every other piece staying.
    pub fn run_moves(&self, pos: &RawPosition, moving: usize) -> RunMoves {
        let side = pos.side_to_move();
        let moving_bit = square_bit(pos.squares()[moving]);
        let own = pos.occupied_by(side) & !moving_bit;
        let theirs = pos.occupied_by(side.opponent()) & !moving_bit;
        let occupied = own | theirs;
        let moving_is_own = moving / 8 == side.index();
        let moving_animal = 1u8 << (moving & 7);
        let mut run = RunMoves {
            moving,
            moving_is_own,
            quiet: 0,
            lost: [0; Square::COUNT],
            den: false,
            den_blocked_on: u64::MAX,
            captures: ArrayVec::new(),
            takes_moving: ArrayVec::new(),
            takes_moving_on: 0,
        };
        let base = side.index() * 8;
        for code in base..base + 8 {
            let from = pos.squares()[code];
            if from == NO_SQUARE || code == moving {
                continue;
            }
            for hop in &self.forward[code * Square::COUNT + from as usize] {
                let to = square_bit(hop.square);
                if occupied & hop.block != 0 || own & to != 0 {
                    continue;
                }
                let mv = |victim: usize| RawMove {
                    code: code as u8,
                    from,
                    to: hop.square,
                    victim: victim as u8,
                    enters_den: hop.enters_den,
                };
                if theirs & to != 0 {
                    let v = pos
                        .piece_code_at(hop.square, side.opponent())
                        .expect("an opponent's piece");
                    if hop.captures & (1 << (v & 7)) != 0 {
                        run.captures.push((mv(v), hop.block));
                    }
                    continue;
                }
                // Free but for the moving piece, which blocks the hop on
                // its water or its target, and as the opponent's piece may
                // be captured there.
                let blocked_on = hop.block | to;
                if !moving_is_own && hop.captures & moving_animal != 0 {
                    run.takes_moving.push(mv(moving));
                    run.takes_moving_on |= to;
                }
                if hop.enters_den {
                    run.den = true;
                    run.den_blocked_on &= blocked_on;
                } else {
                    run.quiet += 1;
                    let mut squares = blocked_on;
                    while squares != 0 {
                        run.lost[squares.trailing_zeros() as usize] += 1;
                        squares &= squares - 1;
                    }
                }
            }
        }
        run
    }

    /// [`count_moves`](Self::count_moves) of `pos`, a position of `run`
    /// (made from a position that differs from `pos` at most in the square
    /// of the moving piece): the same count, and `f` called with the same
    /// captures (the other pieces' first, then the moving piece's).
    #[inline(always)]
    pub fn count_run_moves(
        &self,
        run: &RunMoves,
        pos: &RawPosition,
        mut f: impl FnMut(RawMove),
    ) -> MoveCount {
        let s = pos.squares()[run.moving];
        let on = square_bit(s);
        let mut count = MoveCount {
            quiet: run.quiet - run.lost[s as usize] as u32,
            enters_den: run.den && run.den_blocked_on & on == 0,
        };
        for &(mv, blocked_on) in &run.captures {
            if blocked_on & on == 0 {
                f(mv);
            }
        }
        if run.takes_moving_on & on != 0 {
            for &mv in &run.takes_moving {
                if mv.to == s {
                    f(mv);
                }
            }
        }
        if run.moving_is_own {
            let own = self.count_moves_among(pos, 1 << run.moving, f);
            count.quiet += own.quiet;
            count.enters_den |= own.enters_den;
        }
        count
    }
}
