//! Indexing the neighbours of a whole run of positions at once.
//!
//! The last piece's digit is the lowest of the index (see
//! `positions.rs`): the positions that differ only in the last piece's
//! square are consecutive slots, a run. Move any other piece of every
//! position of a run to the same square, and the results again differ only
//! in the last piece's square: their indices are one base plus the last
//! piece's digit, the number of free squares of its set below its square
//! (one population count). [`RunNeighbours`] computes, once per run, the
//! base and the squares taken of each such move ([`Shifted`]); a neighbour
//! of one position of the run then costs one count. Moving the last piece
//! itself is the run with nothing moved, [`RunNeighbours::still`], with the
//! last piece on its new square.
//!
//! Where a base alone does not say the index (the moved pair lands on the
//! mirror axis, where the index is the smaller of two mirror images; or
//! the neighbours are stored colour swapped, so that the last piece of the
//! index is another piece), [`Neighbours`](crate::Neighbours) indexes each
//! neighbour alone.
//!
//! ```
//! use jungletb_indexer::PositionIndex;
//! use jungletb_rules::{Color, Position, RawPosition, Ruleset};
//! let rules = Ruleset::standard();
//! let index = PositionIndex::new("ELvR".parse().unwrap(), &rules).unwrap();
//! let pos: Position = "7/7/7/7/7/7/7/2L4/E5r b".parse().unwrap();
//! let raw = RawPosition::from_position(&pos);
//! let run = index.run_neighbours::<3>(raw.squares(), Color::White).unwrap();
//! // The last piece of ELvR is the Rat (code 8), on g1 (raw square 6).
//! assert_eq!(run.last_code(), 8);
//! // The Lion (code 6) steps from c2 (square 9) to c3 (square 16), and the
//! // Rat stands on g1: that position's index from the run's base.
//! let mut moved = *raw.squares();
//! moved[6] = 16;
//! let shifted = run.after(6, 16).unwrap();
//! assert_eq!(shifted.index_with_last_on(6), index.index_squares(&moved, Color::White));
//! ```

use crate::index::{pair_slot, PositionIndex};
use jungletb_rules::{square_bit, Color, MIRROR_SQUARE};

/// The indices of the positions one move of a piece away from every
/// position of a run (see the module docs). Made by
/// [`PositionIndex::run_neighbours`].
#[derive(Debug, Clone)]
pub struct RunNeighbours<'a, const N: usize> {
    index: &'a PositionIndex,
    /// The run's squares in index order (the last one is any square of
    /// the run: it is never read).
    squares: [u8; N],
    /// `side * placements` of the side to move in the neighbours.
    side_offset: u64,
    /// The run's positions themselves, with the side to move changed.
    still: Shifted,
}

/// The positions of a run with one piece moved (or none, for
/// [`RunNeighbours::still`]): their indices differ only in the last
/// piece's digit. Made by [`RunNeighbours::after`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shifted {
    /// The index with the last piece's digit 0.
    base: u64,
    /// The last piece's square set minus the other pieces' squares, as
    /// stored (mirrored when `mirror`).
    free: u64,
    /// The positions are stored mirrored.
    mirror: bool,
}

impl Shifted {
    /// The index of the position with the last piece on raw square `s`
    /// (free, and allowed for the piece: the caller's to ensure).
    #[inline(always)]
    pub fn index_with_last_on(&self, s: u8) -> u64 {
        let s = if self.mirror {
            MIRROR_SQUARE[s as usize]
        } else {
            s
        };
        self.base + (self.free & (square_bit(s) - 1)).count_ones() as u64
    }
}

impl<const N: usize> RunNeighbours<'_, N> {
    /// The code of the run's last piece, the one whose square varies
    /// along the run.
    #[inline(always)]
    pub fn last_code(&self) -> usize {
        self.index.code_at(N - 1)
    }

    /// The run's positions with the side to move changed: with the last
    /// piece moved to `s`, [`Shifted::index_with_last_on`]`(s)`.
    #[inline(always)]
    pub fn still(&self) -> Shifted {
        self.still
    }

    /// The run's positions with the piece of code `code` (not the last) on
    /// raw square `to` (free in the run but for the last piece, and allowed
    /// for the piece), or `None` where the leading pair lands on the mirror
    /// axis and each position must be indexed alone.
    #[inline(always)]
    pub fn after(&self, code: usize, to: u8) -> Option<Shifted> {
        let index = self.index;
        let k = index.slot_of_code(code);
        debug_assert!(k < N - 1, "the last piece moves with `still`");
        let at = |j: usize| if j == k { to } else { self.squares[j] };
        let (pair, mirror, on_axis) = index.pair_entry(pair_slot(at(0), at(1)));
        if on_axis {
            return None;
        }
        // The other pieces as stored (mirrored with the pair), counted as
        // `rest_index` counts them, the last piece left out.
        let stored = |s: u8| if mirror { MIRROR_SQUARE[s as usize] } else { s };
        let mut squares = [0u8; N];
        for (j, q) in squares.iter_mut().enumerate() {
            *q = stored(at(j));
        }
        let prefix = index.rest_index(&squares[..N - 1]);
        let occupied = squares[..N - 1].iter().fold(0, |o, &q| o | square_bit(q));
        Some(Shifted {
            base: self.side_offset + pair * index.rest_size() + prefix * index.radix_at(N - 1),
            free: index.mask_at(N - 1) & !occupied,
            mirror,
        })
    }
}

impl PositionIndex {
    /// Prepares the indexing of the positions one piece move away from each
    /// position of the run of the position on `by_code` (squares by piece
    /// code), with `side` to move in them (see [`RunNeighbours`]). `N` is
    /// the material's piece count, at least 3. `None` for another `N`,
    /// where the neighbours are stored colour swapped (materials equal on
    /// both sides, Black to move), or where the run's leading pair is on
    /// the mirror axis: there, [`Neighbours`](crate::Neighbours) indexes
    /// each neighbour alone.
    #[inline]
    pub fn run_neighbours<const N: usize>(
        &self,
        by_code: &[u8; 16],
        side: Color,
    ) -> Option<RunNeighbours<'_, N>> {
        if N != self.piece_count() || N < 3 || (self.white_to_move_only() && side == Color::Black) {
            return None;
        }
        let mut squares = [0u8; N];
        self.gather(by_code, false, &mut squares);
        let mut run = RunNeighbours {
            index: self,
            squares,
            side_offset: side.index() as u64 * self.placements(),
            still: Shifted {
                base: 0,
                free: 0,
                mirror: false,
            },
        };
        // The pair's own move to its own square: the run itself.
        run.still = run.after(self.code_at(0), squares[0])?;
        Some(run)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Material, PositionIndex};
    use jungletb_rules::{Color, Piece, RawPosition, Ruleset, Square, NO_SQUARE};

    /// Positions spread over materials of 3 to 6 pieces, both sides to
    /// move after: every piece but the last moved to every square it may
    /// stand on and the last piece then put on every square left, and the
    /// last piece alone moved: each index from a run's base equals the
    /// plain index, and the bases are refused only where the module docs
    /// say.
    #[test]
    fn run_neighbour_indices_equal_plain_indices() {
        let rules = Ruleset::standard();
        let (mut checked, mut refused) = (0u64, 0u64);
        for key in ["ELvR", "LRvTR", "CvCD", "TRvTR", "ELTvEL", "ELTvELT"] {
            let m = key.parse::<Material>().unwrap().canonical().0;
            let index = PositionIndex::new(m, &rules).unwrap();
            let step = (index.size() / 700).max(1);
            for i in (0..index.size()).step_by(step as usize) {
                let Some(pos) = index.canonical_raw_position(i) else {
                    continue;
                };
                for side in Color::ALL {
                    let done = match index.piece_count() {
                        3 => check::<3>(&index, &pos, side, &rules),
                        4 => check::<4>(&index, &pos, side, &rules),
                        5 => check::<5>(&index, &pos, side, &rules),
                        6 => check::<6>(&index, &pos, side, &rules),
                        n => panic!("no fixture of {n} pieces"),
                    };
                    match done {
                        Some(n) => checked += n,
                        None => {
                            // Refused: colour swapped, or the pair on the axis.
                            let swapped = index.white_to_move_only() && side == Color::Black;
                            let q = pos.squares();
                            let axis = q[index.code_at(0)] % 7 == 3 && q[index.code_at(1)] % 7 == 3;
                            assert!(swapped || axis, "{key} {pos:?} refused");
                            refused += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 1_000_000, "only {checked} indices compared");
        assert!(refused > 100, "only {refused} runs refused");
    }

    /// The indices compared for the run of `pos`, `None` if refused.
    fn check<const N: usize>(
        index: &PositionIndex,
        pos: &RawPosition,
        side: Color,
        rules: &Ruleset,
    ) -> Option<u64> {
        let run = index.run_neighbours::<N>(pos.squares(), side)?;
        let board = rules.board();
        let may = |code: usize, s: u8| {
            rules.may_stand(
                board,
                Piece::from_code(code),
                Square::from_index(s as usize).unwrap(),
            )
        };
        let mut checked = 0;
        let last = run.last_code();
        let occupied = pos.occupied() & !(1 << pos.squares()[last]);
        for code in (0..16).filter(|&c| c != last && pos.squares()[c] != NO_SQUARE) {
            for to in (0..63u8).filter(|&t| occupied & 1 << t == 0 && may(code, t)) {
                let shifted = run.after(code, to);
                let mut moved = *pos.squares();
                moved[code] = to;
                let taken = occupied & !(1 << pos.squares()[code]) | 1 << to;
                for s in (0..63u8).filter(|&s| taken & 1 << s == 0 && may(last, s)) {
                    moved[last] = s;
                    let plain = index.index_squares(&moved, side);
                    match shifted {
                        Some(sh) => {
                            assert_eq!(sh.index_with_last_on(s), plain, "{pos:?}");
                            checked += 1;
                        }
                        // Refused: the moved pair on the axis.
                        None => assert!(
                            moved[index.code_at(0)] % 7 == 3 && moved[index.code_at(1)] % 7 == 3
                        ),
                    }
                }
            }
        }
        for s in (0..63u8).filter(|&s| occupied & 1 << s == 0 && may(last, s)) {
            let mut moved = *pos.squares();
            moved[last] = s;
            let plain = index.index_squares(&moved, side);
            assert_eq!(run.still().index_with_last_on(s), plain, "{pos:?}");
            checked += 1;
        }
        Some(checked)
    }

    /// The run's last piece is the index's last, and the neighbours of
    /// another `N` are refused.
    #[test]
    fn the_last_code_is_the_index_order_last() {
        let rules = Ruleset::standard();
        let index = PositionIndex::new("ELvTR".parse().unwrap(), &rules).unwrap();
        let pos = RawPosition::from_position(&index.position(12345).unwrap());
        assert!(index
            .run_neighbours::<5>(pos.squares(), Color::White)
            .is_none());
        let run = index
            .run_neighbours::<4>(pos.squares(), Color::White)
            .unwrap();
        assert_eq!(run.last_code(), index.code_at(3));
    }
}
