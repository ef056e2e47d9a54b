//! The hot-loop form of a position: raw squares plus occupancy bitboards.
//!
//! The board has 63 squares, so a set of squares fits in a `u64` (bit `i`
//! is the square with index `i`, see [`Square::index`]). [`RawPosition`]
//! keeps the square of each piece by piece code (as
//! [`Position::raw_squares`]) and one bitboard of occupied squares per
//! colour. It is 32 bytes, is built without touching a 63-byte board array,
//! and answers "is this square empty?" with one AND: the form in which the
//! solver decodes, generates moves and un-moves (see
//! [`MoveTables::for_each_move`](crate::MoveTables::for_each_move)) and
//! indexes. [`Position`] stays the general-purpose type.

use crate::board::{Square, NO_SQUARE};
use crate::movegen::Move;
use crate::piece::Color;
use crate::piece::Piece;
use crate::position::Position;

/// The bitboard of one square.
#[inline]
pub fn square_bit(sq: u8) -> u64 {
    debug_assert!((sq as usize) < Square::COUNT);
    1u64 << sq
}

/// The squares of file d (the mirror axis).
pub const FILE_D: u64 = {
    let mut m = 0u64;
    let mut r = 0;
    while r < 9 {
        m |= 1 << (r * 7 + 3);
        r += 1;
    }
    m
};

/// A position as raw squares by piece code and occupancy bitboards.
///
/// Structurally sound by construction like [`Position`]: no two pieces on a
/// square (checked in debug builds by [`RawPosition::from_parts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RawPosition {
    squares: [u8; 16],
    occupied: [u64; 2],
    side: SideWord,
}

/// The side to move, a whole word: with a one-byte side the struct's last
/// word was a byte and 7 of padding, which copies moved as two overlapping
/// 4-byte moves, and a read of the copy right after stalled on store
/// forwarding (7.6 % of the samples of the forward sweep's loop, on one
/// load, ELTvELT, 2026-12-06).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u64)]
enum SideWord {
    White = 0,
    Black = 1,
}

impl SideWord {
    #[inline(always)]
    fn of(side: Color) -> SideWord {
        match side {
            Color::White => SideWord::White,
            Color::Black => SideWord::Black,
        }
    }

    #[inline(always)]
    fn color(self) -> Color {
        match self {
            SideWord::White => Color::White,
            SideWord::Black => Color::Black,
        }
    }
}

/// `occupied` with `bits` toggled in side `black`'s (1) or White's (0)
/// board, by masks: indexing the pair by a run-time side made the compiler
/// write it to the stack, change one half and read it back whole, which
/// stalled on store forwarding (32 % of the incremental decoder's samples).
#[inline(always)]
fn toggle(occupied: [u64; 2], black: usize, bits: u64) -> [u64; 2] {
    let mask = 0u64.wrapping_sub(black as u64 & 1);
    [occupied[0] ^ (bits & !mask), occupied[1] ^ (bits & mask)]
}

impl RawPosition {
    /// Builds a raw position from raw squares by piece code
    /// ([`NO_SQUARE`] for an absent piece). `None` if a square is off the
    /// board or used twice.
    pub fn new(squares: [u8; 16], side: Color) -> Option<RawPosition> {
        let mut occupied = [0u64; 2];
        for (code, &s) in squares.iter().enumerate() {
            if s == NO_SQUARE {
                continue;
            }
            if s as usize >= Square::COUNT || (occupied[0] | occupied[1]) & square_bit(s) != 0 {
                return None;
            }
            occupied[code / 8] |= square_bit(s);
        }
        Some(RawPosition {
            squares,
            occupied,
            side: SideWord::of(side),
        })
    }

    /// Builds a raw position from squares and the matching occupancy of
    /// White and Black: the decoder's fast path. The occupancy must be
    /// exactly the squares' (checked in debug builds).
    #[inline]
    pub fn from_parts(squares: [u8; 16], white: u64, black: u64, side: Color) -> RawPosition {
        debug_assert_eq!(
            RawPosition::new(squares, side).map(|p| p.occupied),
            Some([white, black])
        );
        RawPosition {
            squares,
            occupied: [white, black],
            side: SideWord::of(side),
        }
    }

    /// The same position with the piece of code `code` (present) on the
    /// empty square `to` instead: the incremental decoder's step (see
    /// `PositionIndex::raw_positions`). The squares change as one 128-bit
    /// word, not byte by byte (a byte write then read whole stalls on store
    /// forwarding).
    #[inline]
    pub fn with_piece_on(&self, code: usize, to: u8) -> RawPosition {
        let from = self.squares[code & 15];
        debug_assert!(from != NO_SQUARE && (to as usize) < Square::COUNT);
        debug_assert_eq!(self.occupied() & square_bit(to), 0);
        let moved = ((from ^ to) as u128) << ((code & 15) * 8);
        let squares = (u128::from_le_bytes(self.squares) ^ moved).to_le_bytes();
        let occupied = toggle(self.occupied, code >> 3, square_bit(from) | square_bit(to));
        RawPosition {
            squares,
            occupied,
            side: self.side,
        }
    }

    /// The raw form of `pos`.
    pub fn from_position(pos: &Position) -> RawPosition {
        RawPosition::new(pos.raw_squares(), pos.side_to_move())
            .expect("a Position is structurally sound")
    }

    /// The same position as a [`Position`].
    pub fn to_position(&self) -> Position {
        Position::from_raw_squares(self.squares, self.side.color())
            .expect("a RawPosition is structurally sound")
    }

    /// Square of each piece by piece code ([`NO_SQUARE`] if absent).
    #[inline]
    pub fn squares(&self) -> &[u8; 16] {
        &self.squares
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side.color()
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.occupied[0] | self.occupied[1]
    }

    /// The squares of `color`'s pieces.
    #[inline]
    pub fn occupied_by(&self, color: Color) -> u64 {
        self.occupied[color.index()]
    }

    /// Number of pieces of `color`.
    #[inline]
    pub fn count(&self, color: Color) -> u32 {
        self.occupied[color.index()].count_ones()
    }

    /// True if the position is its own left–right mirror image (every piece
    /// on file d: each animal is unique per side, so the mirror must keep
    /// every piece on its square).
    #[inline]
    pub fn is_mirror_symmetric(&self) -> bool {
        self.occupied() & !FILE_D == 0
    }

    /// True if `mv` (legal here) ends the game at once: it enters the
    /// opponent's den or captures the opponent's last piece.
    #[inline]
    pub fn is_winning_move(&self, mv: &RawMove) -> bool {
        mv.enters_den || (mv.is_capture() && self.count(self.side_to_move().opponent()) == 1)
    }

    /// The squares by piece code after `mv` (legal here): the mover on its
    /// new square, a captured piece gone. What successor indexes are
    /// computed from, without building the position.
    #[inline]
    pub fn squares_after(&self, mv: &RawMove) -> [u8; 16] {
        let mut sq = self.squares;
        if mv.is_capture() {
            sq[mv.victim as usize] = NO_SQUARE;
        }
        sq[mv.code as usize] = mv.to;
        sq
    }

    /// The position after `mv` (legal here), the other side to move.
    #[inline]
    pub fn after(&self, mv: &RawMove) -> RawPosition {
        let side = self.side_to_move();
        let to = square_bit(mv.to);
        // A victim on `to` leaves its board; then the mover's piece moves.
        let cleared = [self.occupied[0] & !to, self.occupied[1] & !to];
        let occupied = toggle(cleared, side.index(), square_bit(mv.from) | to);
        RawPosition::from_parts(
            self.squares_after(mv),
            occupied[0],
            occupied[1],
            side.opponent(),
        )
    }

    /// The code of `color`'s piece on raw square `sq`, if any.
    #[inline]
    pub fn piece_code_at(&self, sq: u8, color: Color) -> Option<usize> {
        if self.occupied[color.index()] & square_bit(sq) == 0 {
            return None;
        }
        let base = color.index() * 8;
        (base..base + 8).find(|&c| self.squares[c] == sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_through_position() {
        let pos = Position::start();
        let raw = RawPosition::from_position(&pos);
        assert_eq!(raw.to_position(), pos);
        assert_eq!(raw.count(Color::White), 8);
        assert_eq!(raw.occupied().count_ones(), 16);
        assert!(!raw.is_mirror_symmetric());
        assert!(RawPosition::new([3; 16], Color::White).is_none());
    }

    #[test]
    fn mirror_symmetry_matches_position() {
        let pos: Position = "3e3/7/7/7/7/7/7/7/3R3 w".parse().unwrap();
        assert!(pos.is_mirror_symmetric());
        assert!(RawPosition::from_position(&pos).is_mirror_symmetric());
        let pos: Position = "3e3/7/7/7/7/7/7/7/2R4 w".parse().unwrap();
        assert!(!RawPosition::from_position(&pos).is_mirror_symmetric());
    }

    /// The raw successor of every legal move (captures among them) is the
    /// plain `Position::play`'s, occupancy included.
    #[test]
    fn after_matches_play() {
        let rules = crate::Ruleset::standard();
        let tables = crate::MoveTables::new(&rules);
        let (mut moves, mut captures) = (0, 0);
        for text in [
            "7/7/7/7/3r3/3E3/7/7/7 b",
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w",
            "7/7/2l4/2R4/2e4/7/7/3E3/7 b",
        ] {
            let pos: Position = text.parse().unwrap();
            let raw = RawPosition::from_position(&pos);
            tables.for_each_move(&raw, |mv| {
                let next = raw.after(&mv);
                assert_eq!(next, RawPosition::from_position(&pos.play(&mv.to_move())));
                assert_eq!(next.squares(), &raw.squares_after(&mv));
                moves += 1;
                captures += mv.is_capture() as u32;
            });
        }
        assert!(
            moves > 20 && captures > 0,
            "{moves} moves, {captures} captures"
        );
    }
}

/// A move in raw form (see
/// [`MoveTables::for_each_move`](crate::MoveTables::for_each_move)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawMove {
    /// Code of the moving piece (see [`Piece::code`]).
    pub code: u8,
    /// Raw square left.
    pub from: u8,
    /// Raw square entered.
    pub to: u8,
    /// Code of the captured piece, or [`NO_SQUARE`](crate::NO_SQUARE) for a quiet move.
    pub victim: u8,
    /// The move enters the opponent's den (and so wins at once).
    pub enters_den: bool,
}

impl RawMove {
    /// True if the move captures.
    #[inline]
    pub fn is_capture(&self) -> bool {
        self.victim != NO_SQUARE
    }

    /// The same move as a [`Move`].
    pub fn to_move(&self) -> Move {
        let sq = |s: u8| Square::from_index(s as usize).expect("valid square");
        Move {
            from: sq(self.from),
            to: sq(self.to),
            captured: self
                .is_capture()
                .then(|| Piece::from_code(self.victim as usize).animal),
        }
    }
}
