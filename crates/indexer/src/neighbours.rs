//! Indexing the positions one piece move away from a base position.
//!
//! The solver indexes every predecessor of every decided position, and the
//! forward sweep every successor of every position: some six indices per
//! position, each of a position that differs from one base position in the
//! square of one piece and in the side to move. Computed from scratch
//! ([`PositionIndex::index_squares`]), each index gathers the squares into
//! index order (through the colour swap for materials stored White to move
//! only), looks up the leading pair, mirrors the squares when the pair says
//! so, and counts the rest. All of that except the last step is the same for
//! every neighbour whose moved piece is not one of the leading pair, so
//! [`Neighbours`] does it once per base position: gathered squares, their
//! mirror image, the pair's entry and the side's offset. A neighbour then
//! costs one square written and one count ([`Neighbours::index_after`]).
//! Moves of a leading piece (which may change the pair and the mirror
//! choice) and pairs on the mirror axis take the full path.
//!
//! The piece count is a type parameter so that the loops over pieces unroll
//! (a loop over a run-time count measured about twice the instructions, see
//! `placement_of`); [`Neighbours::PIECES_ANY`] serves any count.
//!
//! ```
//! use jungletb_indexer::{Material, PositionIndex};
//! use jungletb_rules::{Color, Position, RawPosition, Ruleset};
//! let rules = Ruleset::standard();
//! let index = PositionIndex::new("ELvR".parse().unwrap(), &rules).unwrap();
//! let pos: Position = "7/7/7/7/7/7/7/2L4/E5r b".parse().unwrap();
//! let raw = RawPosition::from_position(&pos);
//! // The positions after a Black move, White to move.
//! let near = index.neighbours::<3>(raw.squares(), Color::White).unwrap();
//! // The Rat (code 8) on g1 (raw square 6) steps to g2 (square 13).
//! let mut moved = *raw.squares();
//! moved[8] = 13;
//! assert_eq!(near.index_after(8, 13), index.index_squares(&moved, Color::White));
//! ```

use crate::index::{pair_slot, PositionIndex};
use jungletb_rules::{Color, FLIP_SQUARE, MIRROR_SQUARE};

/// The index of every position one piece move away from a base position
/// (see the module docs). Made by [`PositionIndex::neighbours`].
#[derive(Debug, Clone)]
pub struct Neighbours<'a, const N: usize> {
    index: &'a PositionIndex,
    /// The base squares in index order, in the stored orientation (colour
    /// swapped when the neighbours are stored as their colour swap).
    squares: [u8; N],
    /// The same, mirrored left–right.
    mirrored: [u8; N],
    /// The neighbours are stored as their colour swap.
    swapped: bool,
    /// `side * placements` of the stored side to move.
    side_offset: u64,
    /// `pair * rest_size` of the base's leading pair.
    pair_offset: u64,
    /// The base's leading pair is stored mirrored.
    mirror: bool,
    /// The fast path holds for moves of pieces 2.. (the pair is not its
    /// own mirror image).
    fast: bool,
}

impl<'a, const N: usize> Neighbours<'a, N> {
    /// The capacity that serves any piece count (up to 16), with loops over
    /// the run-time count.
    pub const PIECES_ANY: usize = 16;

    /// The number of pieces the loops run over.
    #[inline(always)]
    fn count(&self) -> usize {
        if N < 16 {
            N
        } else {
            self.index.piece_count()
        }
    }

    /// The index of the base position with the piece of code `code` moved
    /// to raw square `to`, and the side to move given to
    /// [`PositionIndex::neighbours`]. The result must be a position of the
    /// material (the square free, allowed for the piece): as for
    /// [`PositionIndex::index_squares`], that is the caller's to ensure.
    #[inline(always)]
    pub fn index_after(&self, code: usize, to: u8) -> u64 {
        let index = self.index;
        let n = self.count();
        let (code, to) = if self.swapped {
            (code ^ 8, FLIP_SQUARE[to as usize])
        } else {
            (code, to)
        };
        let k = index.slot_of_code(code);
        // The squares are read one by one, never copied whole: a copy of the
        // array just written byte by byte would stall on store forwarding
        // (measured: fewer instructions, yet slower, with copies).
        if self.fast && k >= 2 {
            // The leading pair and so the mirror choice stay: only the
            // moved piece's digit and those after it can change.
            return self.side_offset + self.pair_offset + self.rest_moved(self.mirror, k, to);
        }
        if n <= 2 {
            let mut sq = [0u8; N];
            for (j, s) in sq.iter_mut().enumerate().take(n) {
                *s = if j == k { to } else { self.squares[j] };
            }
            return self.side_offset + index.placement_index(&mut sq[..n]);
        }
        // A leading piece moved, or the pair is on the mirror axis: the
        // pair's entry of the moved squares, then the rest counted on the
        // base squares or their mirror image with the one square replaced,
        // as `placement_index` does on a copy (which cost a copy, a store-
        // forwarding stall and a mirror loop). Measured with the study
        // `expand_cost --log2-slots 18` under callgrind: ELTvELT, whose
        // un-moves mostly move a leading piece (the colour swap makes the
        // moving side White), 2,719 -> 2,539 instructions a position;
        // ELTvEL 2,033 -> 1,929.
        let at = |j: usize| if j == k { to } else { self.squares[j] };
        let (pair, mirror, on_axis) = index.pair_entry(pair_slot(at(0), at(1)));
        let rest = if on_axis {
            // Both leading pieces on the mirror axis: the mirrored placement
            // has the same pair; the smaller count is the one stored.
            self.rest_moved(false, k, to)
                .min(self.rest_moved(true, k, to))
        } else {
            self.rest_moved(mirror, k, to)
        };
        self.side_offset + pair * index.rest_size() + rest
    }

    /// The rest of the base squares (`mirror`: of their mirror image) with
    /// piece `k` on `to`, counted as [`PositionIndex::rest_index`] does. A
    /// method, not a closure, so that it is inlined with its loop unrolled:
    /// as two closures it was called out of line (18 % of the samples of a
    /// one-byte ELTvELT propagation on 2026-12-05).
    #[inline(always)]
    fn rest_moved(&self, mirror: bool, k: usize, to: u8) -> u64 {
        let n = self.count();
        if mirror {
            let to = MIRROR_SQUARE[to as usize];
            self.index.rest_index_moved(&self.mirrored[..n], k, to)
        } else {
            self.index.rest_index_moved(&self.squares[..n], k, to)
        }
    }
}

impl PositionIndex {
    /// Prepares the indexing of the positions one piece move away from the
    /// position on `by_code` (squares by piece code, as in
    /// [`PositionIndex::index_squares`]), with `side` to move in them (see
    /// [`Neighbours`]). `N` is the material's piece count, or
    /// [`Neighbours::PIECES_ANY`]; `None` for any other `N`.
    #[inline(always)]
    pub fn neighbours<const N: usize>(
        &self,
        by_code: &[u8; 16],
        side: Color,
    ) -> Option<Neighbours<'_, N>> {
        let n = self.piece_count();
        if !(N == n || N == 16) {
            return None;
        }
        let (swapped, side) = if self.white_to_move_only() && side == Color::Black {
            (true, Color::White)
        } else {
            (false, side)
        };
        let mut squares = [0u8; N];
        self.gather(by_code, swapped, &mut squares[..n]);
        let mut mirrored = [0u8; N];
        for (m, &s) in mirrored.iter_mut().zip(&squares).take(n) {
            *m = MIRROR_SQUARE[s as usize];
        }
        let (pair_offset, mirror, fast) = if n > 2 {
            let (pair, mirror, on_axis) = self.pair_entry(pair_slot(squares[0], squares[1]));
            (pair * self.rest_size(), mirror, !on_axis)
        } else {
            (0, false, false)
        };
        Some(Neighbours {
            index: self,
            squares,
            mirrored,
            swapped,
            side_offset: side.index() as u64 * self.placements(),
            pair_offset,
            mirror,
            fast,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Neighbours;
    use crate::{Material, PositionIndex};
    use jungletb_rules::{Board, Color, Piece, RawPosition, Ruleset, Square, NO_SQUARE};

    /// About 3,000 positions of each material spread over its index (up to
    /// six pieces, one stored White to move only), every piece moved to
    /// every free square it may stand on, both sides to move after: the fast
    /// index equals the plain one, for the exact piece count and for the
    /// any-count form.
    #[test]
    fn neighbour_indices_equal_plain_indices() {
        let rules = Ruleset::standard();
        let board = rules.board();
        let mut checked = 0u64;
        let mut fast = 0u64;
        for key in ["EvR", "RvR", "ELvR", "LRvTR", "CvCD", "ELTvEL", "ELTvELT"] {
            let m = key.parse::<Material>().unwrap().canonical().0;
            let index = PositionIndex::new(m, &rules).unwrap();
            let step = (index.size() / 3000).max(1);
            for i in (0..index.size()).step_by(step as usize) {
                let Some(pos) = index.canonical_raw_position(i) else {
                    continue;
                };
                for side in Color::ALL {
                    let any = index
                        .neighbours::<16>(pos.squares(), side)
                        .expect("any count");
                    match index.piece_count() {
                        2 => check::<2>(&index, &pos, side, &any, board, &rules, &mut checked),
                        3 => check::<3>(&index, &pos, side, &any, board, &rules, &mut checked),
                        4 => check::<4>(&index, &pos, side, &any, board, &rules, &mut checked),
                        5 => check::<5>(&index, &pos, side, &any, board, &rules, &mut checked),
                        6 => check::<6>(&index, &pos, side, &any, board, &rules, &mut checked),
                        n => panic!("no fixture of {n} pieces"),
                    }
                    fast += any.fast as u64;
                }
            }
        }
        assert!(checked > 100_000, "only {checked} neighbours compared");
        assert!(fast > 1_000, "the fast path ran for only {fast} bases");
    }

    fn check<const N: usize>(
        index: &PositionIndex,
        pos: &RawPosition,
        side: Color,
        any: &Neighbours<'_, 16>,
        board: &Board,
        rules: &Ruleset,
        checked: &mut u64,
    ) {
        assert!(index.neighbours::<7>(pos.squares(), side).is_none());
        let near = index.neighbours::<N>(pos.squares(), side).unwrap();
        for code in 0..16 {
            if pos.squares()[code] == NO_SQUARE {
                continue;
            }
            let piece = Piece::from_code(code);
            for to in 0..63u8 {
                let sq = Square::from_index(to as usize).unwrap();
                if pos.occupied() & (1 << to) != 0 || !rules.may_stand(board, piece, sq) {
                    continue;
                }
                let mut moved = *pos.squares();
                moved[code] = to;
                let plain = index.index_squares(&moved, side);
                assert_eq!(near.index_after(code, to), plain, "{pos:?} {code}->{to}");
                assert_eq!(any.index_after(code, to), plain, "{pos:?} {code}->{to}");
                *checked += 1;
            }
        }
    }
}
