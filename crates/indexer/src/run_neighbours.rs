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
//! Materials equal on both sides store Black to move as its colour swap
//! (White to move, ranks flipped, colours exchanged), so the neighbours of
//! a White-to-move run are stored with the run's last piece exchanged for
//! its counterpart of the other colour, somewhere in the middle of the
//! index order. Its square then changes its own digit and, where it stands
//! below a later piece's square, takes one from that piece's digit: the
//! index is the base, plus the moving piece's place value times its count,
//! minus a place value for each later piece it stands below (at most three,
//! for six pieces). [`Shifted`] holds those too.
//!
//! Where a base alone does not say the index (the moved pair lands on the
//! mirror axis, where the index is the smaller of two mirror images; or, in
//! the colour swap, the run's last piece becomes one of the leading pair),
//! [`Neighbours`](crate::Neighbours) indexes each neighbour alone.
//!
//! ```
//! use jungletb_indexer::PositionIndex;
//! use jungletb_rules::{Color, Position, RawPosition, Ruleset};
//! let rules = Ruleset::standard();
//! let index = PositionIndex::new("ELvR".parse().unwrap(), &rules).unwrap();
//! let pos: Position = "7/7/7/7/7/7/7/2L4/E5r b".parse().unwrap();
//! let raw = RawPosition::from_position(&pos);
//! let run = index.run_neighbours::<3, 0>(raw.squares(), Color::White).unwrap();
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
use jungletb_rules::{square_bit, Color, FLIP_SQUARE, MIRROR_SQUARE};

/// The most pieces after the moving one in the index order, where the
/// neighbours are stored colour swapped: six pieces, the moving one third.
const MOST_LATER: usize = 3;

/// The width `L` of [`RunNeighbours`] and [`Shifted`] where the neighbours
/// are stored colour swapped (materials equal on both sides, Black to
/// move): the place values of the moving piece's digit and of the pieces
/// after it. Where they are stored as they are, the width is 0.
pub const SWAPPED: usize = MOST_LATER + 1;

/// The indices of the positions one move of a piece away from every
/// position of a run (see the module docs), stored as they are (`L` 0) or
/// colour swapped (`L` [`SWAPPED`]). Made by
/// [`PositionIndex::run_neighbours`].
#[derive(Debug, Clone)]
pub struct RunNeighbours<'a, const N: usize, const L: usize = 0> {
    index: &'a PositionIndex,
    /// The run's squares in index order, as the neighbours are stored
    /// (the moving piece's square is any of the run: it is never read).
    squares: [u8; N],
    /// The index-order position of the piece whose square varies along
    /// the run, as stored: the last, or its counterpart where swapped.
    moving: usize,
    /// Swapped: the place values of the digits from the moving piece's on.
    place: [u64; L],
    /// `side * placements` of the side to move in the neighbours.
    side_offset: u64,
    /// The run's positions themselves, with the side to move changed.
    still: Shifted<L>,
}

/// The positions of a run with one piece moved (or none, for
/// [`RunNeighbours::still`]): their indices differ only in the square of
/// the run's last piece. Made by [`RunNeighbours::after`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shifted<const L: usize = 0> {
    /// The index with the moving piece's digit 0 (and, where swapped, the
    /// later pieces' digits counted without it).
    base: u64,
    /// The moving piece's square set minus the squares of the pieces
    /// before it in the index order (all others where it is the last), as
    /// stored (mirrored when `mirror`).
    free: u64,
    /// The positions are stored mirrored.
    mirror: bool,
    /// Swapped: the place values of the moving piece's digit and of each
    /// later piece's.
    place: [u64; L],
    /// Swapped: each later piece's set below its own square, as stored
    /// (from 1): the moving piece there takes one from its digit.
    below: [u64; L],
}

impl<const L: usize> Shifted<L> {
    /// The index of the position with the run's last piece on raw square
    /// `s` (free, and allowed for the piece: the caller's to ensure).
    #[inline(always)]
    pub fn index_with_last_on(&self, s: u8) -> u64 {
        let s = if L == 0 { s } else { FLIP_SQUARE[s as usize] };
        let s = if self.mirror {
            MIRROR_SQUARE[s as usize]
        } else {
            s
        };
        let digit = (self.free & (square_bit(s) - 1)).count_ones() as u64;
        if L == 0 {
            return self.base + digit;
        }
        let mut i = self.base + self.place[0] * digit;
        for j in 1..L {
            i -= self.place[j] * (self.below[j] >> s & 1);
        }
        i
    }
}

impl<const N: usize, const L: usize> RunNeighbours<'_, N, L> {
    /// The code of the run's last piece, the one whose square varies
    /// along the run.
    #[inline(always)]
    pub fn last_code(&self) -> usize {
        self.index.code_at(N - 1)
    }

    /// The run's positions with the side to move changed: with the last
    /// piece moved to `s`, [`Shifted::index_with_last_on`]`(s)`.
    #[inline(always)]
    pub fn still(&self) -> Shifted<L> {
        self.still
    }

    /// The run's positions with the piece of code `code` (not the last) on
    /// raw square `to` (free in the run but for the last piece, and allowed
    /// for the piece), or `None` where the leading pair lands on the mirror
    /// axis and each position must be indexed alone.
    #[inline(always)]
    pub fn after(&self, code: usize, to: u8) -> Option<Shifted<L>> {
        debug_assert_ne!(code, self.last_code(), "the last piece moves with `still`");
        if L == 0 {
            self.shifted(self.index.slot_of_code(code), to)
        } else {
            self.shifted(self.index.slot_of_code(code ^ 8), FLIP_SQUARE[to as usize])
        }
    }

    /// [`RunNeighbours::after`] of the piece at index-order position `k`,
    /// moved to `to` as stored (before the mirror).
    #[inline(always)]
    fn shifted(&self, k: usize, to: u8) -> Option<Shifted<L>> {
        let index = self.index;
        let at = |j: usize| if j == k { to } else { self.squares[j] };
        let (pair, mirror, on_axis) = index.pair_entry(pair_slot(at(0), at(1)));
        if on_axis {
            return None;
        }
        // The other pieces as stored (mirrored with the pair), counted as
        // `rest_index` counts them, the moving piece left out.
        let stored = |s: u8| if mirror { MIRROR_SQUARE[s as usize] } else { s };
        let mut squares = [0u8; N];
        for (j, q) in squares.iter_mut().enumerate() {
            *q = stored(at(j));
        }
        if L == 0 {
            let prefix = index.rest_index(&squares[..N - 1]);
            let occupied = squares[..N - 1].iter().fold(0, |o, &q| o | square_bit(q));
            return Some(Shifted {
                base: self.side_offset + pair * index.rest_size() + prefix * index.radix_at(N - 1),
                free: index.mask_at(N - 1) & !occupied,
                mirror,
                place: self.place,
                below: [0; L],
            });
        }
        // Swapped: the moving piece's digit 0, and not in the way of the
        // later pieces, whose sets below their squares are kept.
        let m = self.moving;
        let mut occupied = square_bit(squares[0]) | square_bit(squares[1]);
        let (mut rest, mut free, mut below) = (0u64, 0u64, [0u64; L]);
        #[allow(clippy::needless_range_loop)] // as in `rest_index`
        for j in 2..N {
            if j == m {
                free = index.mask_at(j) & !occupied;
                rest *= index.radix_at(j);
                continue;
            }
            let bit = square_bit(squares[j]);
            let r = (index.mask_at(j) & !occupied & (bit - 1)).count_ones() as u64;
            rest = rest * index.radix_at(j) + r;
            occupied |= bit;
            if j > m {
                below[j - m] = index.mask_at(j) & (bit - 1);
            }
        }
        Some(Shifted {
            base: self.side_offset + pair * index.rest_size() + rest,
            free,
            mirror,
            place: self.place,
            below,
        })
    }
}

impl PositionIndex {
    /// Prepares the indexing of the positions one piece move away from each
    /// position of the run of the position on `by_code` (squares by piece
    /// code), with `side` to move in them (see [`RunNeighbours`]). `N` is
    /// the material's piece count, at least 3; `L` is [`SWAPPED`] where
    /// the neighbours are stored colour swapped (materials equal on both
    /// sides, Black to move), else 0. `None` for another `N` or `L`, where
    /// the run's leading pair is on the mirror axis, or where, swapped, the
    /// run's last piece becomes one of the leading pair or has more than
    /// three pieces after it: there, [`Neighbours`](crate::Neighbours)
    /// indexes each neighbour alone.
    #[inline]
    pub fn run_neighbours<const N: usize, const L: usize>(
        &self,
        by_code: &[u8; 16],
        side: Color,
    ) -> Option<RunNeighbours<'_, N, L>> {
        let swapped = self.white_to_move_only() && side == Color::Black;
        if N != self.piece_count() || N < 3 || L != if swapped { SWAPPED } else { 0 } {
            return None;
        }
        let moving = if swapped {
            self.slot_of_code(self.code_at(N - 1) ^ 8)
        } else {
            N - 1
        };
        if moving < 2 || N - moving > L.max(1) {
            return None;
        }
        let mut squares = [0u8; N];
        self.gather(by_code, swapped, &mut squares);
        // Swapped: the place value of each digit from the moving piece's
        // on, the product of the radices after it.
        let mut place = [0u64; L];
        let mut value = 1;
        for j in (moving..N).rev() {
            if L > 0 {
                place[j - moving] = value;
            }
            value *= self.radix_at(j);
        }
        let stored_side = if swapped { Color::White } else { side };
        let mut run = RunNeighbours {
            index: self,
            squares,
            moving,
            place,
            side_offset: stored_side.index() as u64 * self.placements(),
            still: Shifted {
                base: 0,
                free: 0,
                mirror: false,
                place,
                below: [0; L],
            },
        };
        // The pair's own move to its own square: the run itself.
        run.still = run.shifted(0, squares[0])?;
        Some(run)
    }
}

#[cfg(test)]
mod tests {
    use super::{RunNeighbours, SWAPPED};
    use crate::{Material, PositionIndex};
    use jungletb_rules::{Color, Piece, RawPosition, Ruleset, Square, NO_SQUARE};

    /// Positions spread over materials of 3 to 6 pieces, both sides to
    /// move after: every piece but the last moved to every square it may
    /// stand on and the last piece then put on every square left, and the
    /// last piece alone moved: each index from a run's base equals the
    /// plain index (stored colour swapped too), and the bases are refused
    /// only where the module docs say.
    #[test]
    fn run_neighbour_indices_equal_plain_indices() {
        let rules = Ruleset::standard();
        let (mut checked, mut refused, mut swapped) = (0u64, 0u64, 0u64);
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
                        Some(n) => {
                            checked += n;
                            if stored_pair(&index, side).1 {
                                swapped += n;
                            }
                        }
                        None => {
                            // Refused: the pair on the axis, or swapped
                            // with the last piece's counterpart in the pair.
                            let (pair, swapped) = stored_pair(&index, side);
                            let q = pos.squares();
                            let axis = q[pair.0] % 7 == 3 && q[pair.1] % 7 == 3;
                            let last = index.code_at(index.piece_count() - 1);
                            let paired = swapped && (last == pair.0 || last == pair.1);
                            assert!(axis || paired, "{key} {pos:?} refused");
                            refused += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 1_000_000, "only {checked} indices compared");
        assert!(refused > 100, "only {refused} runs refused");
        assert!(swapped > 100_000, "only {swapped} swapped indices compared");
    }

    /// The raw codes of the pieces that stand as the stored neighbours'
    /// leading pair (the colour swap exchanges a piece for its
    /// counterpart), and whether the neighbours are stored swapped.
    fn stored_pair(index: &PositionIndex, side: Color) -> ((usize, usize), bool) {
        let swapped = index.white_to_move_only() && side == Color::Black;
        let flip = if swapped { 8 } else { 0 };
        ((index.code_at(0) ^ flip, index.code_at(1) ^ flip), swapped)
    }

    /// The indices compared for the run of `pos`, `None` if refused.
    fn check<const N: usize>(
        index: &PositionIndex,
        pos: &RawPosition,
        side: Color,
        rules: &Ruleset,
    ) -> Option<u64> {
        if stored_pair(index, side).1 {
            assert!(index.run_neighbours::<N, 0>(pos.squares(), side).is_none());
            let run = index.run_neighbours::<N, SWAPPED>(pos.squares(), side)?;
            Some(check_run(index, pos, side, rules, run))
        } else {
            assert!(index
                .run_neighbours::<N, SWAPPED>(pos.squares(), side)
                .is_none());
            let run = index.run_neighbours::<N, 0>(pos.squares(), side)?;
            Some(check_run(index, pos, side, rules, run))
        }
    }

    /// The indices compared for `run`, the run of `pos`.
    fn check_run<const N: usize, const L: usize>(
        index: &PositionIndex,
        pos: &RawPosition,
        side: Color,
        rules: &Ruleset,
        run: RunNeighbours<'_, N, L>,
    ) -> u64 {
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
                        // Refused: the moved pair on the axis, as stored.
                        None => {
                            let ((a, b), _) = stored_pair(index, side);
                            assert!(moved[a] % 7 == 3 && moved[b] % 7 == 3);
                        }
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
        checked
    }

    /// The run's last piece is the index's last, and the neighbours of
    /// another `N` are refused.
    #[test]
    fn the_last_code_is_the_index_order_last() {
        let rules = Ruleset::standard();
        let index = PositionIndex::new("ELvTR".parse().unwrap(), &rules).unwrap();
        let pos = RawPosition::from_position(&index.position(12345).unwrap());
        assert!(index
            .run_neighbours::<5, 0>(pos.squares(), Color::White)
            .is_none());
        let run = index
            .run_neighbours::<4, 0>(pos.squares(), Color::White)
            .unwrap();
        assert_eq!(run.last_code(), index.code_at(3));
    }
}
