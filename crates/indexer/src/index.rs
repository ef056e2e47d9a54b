//! The perfect-hash position index of one material.
//!
//! Layout of an index (version [`INDEX_SCHEME_VERSION`]):
//!
//! ```text
//! index = side * placements + pair * rest_size + rest
//! ```
//!
//! - Pieces are ordered land-bound first, swimmers (Rats) last, so that every
//!   earlier piece stands on a square the later piece could use; each later
//!   piece is then numbered among the squares its predecessors left free,
//!   which makes the index exact (no slot for two pieces on one square).
//! - The first two pieces are numbered together through a table of their
//!   placements up to the left–right mirror; a position whose pair is not the
//!   canonical one is mirrored first. When the pair is its own mirror (both
//!   on file d) the smaller of the two indices is used, and the other slot is
//!   unused: the only slack of the scheme.
//! - `side` is the side to move, except for materials equal on both sides,
//!   which store White to move only (Black to move is the colour swap).

use crate::error::IndexError;
use crate::material::Material;
use crate::select::select_bit;
use jungletb_rules::{
    square_bit, Color, Piece, Position, RawMove, RawPosition, Ruleset, Square, FLIP_SQUARE,
    MIRROR_SQUARE, NO_SQUARE,
};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use strength_reduce::{StrengthReducedU32, StrengthReducedU64};

/// Version of the index layout; table files record it.
pub const INDEX_SCHEME_VERSION: u32 = 1;

/// "Not in the set" (square ranks) and "absent" (piece slots).
const NONE: u8 = 0xFF;
/// A `pair_index` entry: the canonical pair number in the low bits, and
/// two flags. Entries are 16 bits (a pair table of 8 KiB per material) and
/// carry the on-axis flag, so that indexing a position reads one entry and
/// nothing else: probes over many tables find these tables cold, and each
/// dependent read there was a cache miss (perf: the `pairs` flag read cost
/// as much as the entry itself).
const PAIR_MASK: u16 = 0x1FFF;
/// "No such pair" (two pieces on one square, or a square a piece may not
/// stand on).
const NO_PAIR: u16 = PAIR_MASK;
/// The pair is stored mirrored: mirror the position first.
const MIRROR_BIT: u16 = 1 << 15;
/// The canonical pair is its own mirror image (both pieces on file d).
const AXIS_BIT: u16 = 1 << 14;
const _: () = assert!(63 * 63 < NO_PAIR as usize);

/// Squares one piece may stand on, numbered in board order.
#[derive(Clone)]
struct SquareSet {
    /// Square index → rank within the set, or `NONE`.
    rank: [u8; Square::COUNT],
    /// Rank → square index.
    squares: Vec<u8>,
    /// The set as a bitboard.
    mask: u64,
}

/// The perfect-hash index of one canonical material under one rule set.
#[derive(Clone)]
pub struct PositionIndex {
    material: Material,
    /// Pieces in index order.
    pieces: Vec<Piece>,
    /// Piece codes in index order (for the gather in `index_squares`).
    codes: [u8; 16],
    /// Piece code → position in `pieces` (or `NONE`).
    slot_of: [u8; 16],
    /// The square sets in plain form: the tests' reference for `masks`.
    #[cfg_attr(not(test), allow(dead_code))]
    sets: Vec<SquareSet>,
    /// `pair_slot(s0, s1)` → canonical pair number, with `MIRROR_BIT` if the
    /// pair is the mirror image of the canonical one and `AXIS_BIT` if the
    /// canonical pair is its own mirror image, or `NO_PAIR`. A function of
    /// the first two pieces' square sets only, so shared by every material
    /// with the same ones (see `shared_pair_index`).
    pair_index: Arc<[u16; 64 * 64]>,
    /// Canonical pair number → (s0, s1, self-mirrored).
    pairs: Vec<(u8, u8, bool)>,
    /// Ranges of pieces 2.. (free squares left for each).
    #[cfg_attr(not(test), allow(dead_code))]
    ranges: Vec<u64>,
    /// `sets[k].mask` and `ranges[k - 2]` by piece `k` in fixed arrays, for
    /// the unrolled loops of indexing and decoding.
    masks: [u64; 16],
    radix: [u64; 16],
    rest_size: u64,
    placements: u64,
    sides: u64,
    /// The divisors of decoding, precomputed as multiply-and-shift: decoding
    /// divides by them 2 + (pieces - 2) times per position, and a hardware
    /// division costs several times a multiplication.
    /// `placements` fits a u32 (every material up to 5 pieces and most of
    /// 6): a placement splits into pair and rest with a 32-bit
    /// multiply-and-shift; above, with a 64-bit one ([`Self::wide_rest_size`]).
    narrow: bool,
    fast_rest_size: StrengthReducedU32,
    wide_rest_size: StrengthReducedU64,
    fast_ranges: Vec<StrengthReducedU32>,
}

impl std::fmt::Debug for PositionIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PositionIndex")
            .field("material", &self.material)
            .field("pieces", &self.pieces)
            .field("size", &self.size())
            .finish_non_exhaustive()
    }
}

impl SquareSet {
    /// The squares `p` may stand on under `rules`, with their ranks.
    fn of(rules: &Ruleset, p: Piece) -> SquareSet {
        let board = rules.board();
        let mut rank = [NONE; Square::COUNT];
        let mut squares = Vec::new();
        for s in Square::all().filter(|&s| rules.may_stand(board, p, s)) {
            rank[s.index()] = squares.len() as u8;
            squares.push(s.index() as u8);
        }
        let mask = squares.iter().fold(0, |m, &s| m | square_bit(s));
        SquareSet {
            rank,
            squares,
            mask,
        }
    }
}

/// Per ordered pair of squares, the number of its canonical placement.
type PairIndex = [u16; 64 * 64];

/// The placements of the first two pieces (squares from `first` and
/// `second`) kept under the mirror, in order, and the table from a
/// placement to its number (with the mirror and on-axis bits).
fn canonical_pairs(first: &SquareSet, second: &SquareSet) -> (Box<PairIndex>, Vec<(u8, u8, bool)>) {
    let mut pair_index = Box::new([NO_PAIR; 64 * 64]);
    let mut pairs = Vec::new();
    for &a in &first.squares {
        for &b in &second.squares {
            if a == b {
                continue;
            }
            let (sa, sb) = (sq(a), sq(b));
            let (ma, mb) = (sa.mirror().index() as u8, sb.mirror().index() as u8);
            if (a, b) <= (ma, mb) {
                let on_axis = (a, b) == (ma, mb);
                let n = pairs.len() as u16 | if on_axis { AXIS_BIT } else { 0 };
                pairs.push((a, b, on_axis));
                pair_index[pair_slot(a, b)] = n;
                if !on_axis {
                    pair_index[pair_slot(ma, mb)] = n | MIRROR_BIT;
                }
            }
        }
    }
    (pair_index, pairs)
}

impl PositionIndex {
    /// The index of canonical material `material` under `rules`.
    pub fn new(material: Material, rules: &Ruleset) -> Result<PositionIndex, IndexError> {
        if !material.is_canonical() {
            return Err(IndexError::NotCanonical(material));
        }
        let board = rules.board();
        let all = material.pieces();
        for p in &all {
            if !rules.animal_allowed(p.animal) {
                return Err(IndexError::AnimalNotInGame {
                    material,
                    animal: p.animal,
                });
            }
        }
        let square_count = |p: &Piece| {
            Square::all()
                .filter(|&s| rules.may_stand(board, *p, s))
                .count()
        };
        // Pieces with fewer squares first: their squares are a subset of the
        // later pieces' squares (land ⊂ land + water).
        let mut pieces = all.clone();
        pieces.sort_by_key(square_count);
        let sets: Vec<SquareSet> = pieces.iter().map(|p| SquareSet::of(rules, *p)).collect();
        for w in sets.windows(2) {
            debug_assert!(w[0].squares.iter().all(|&s| w[1].rank[s as usize] != NONE));
        }
        let mut slot_of = [NONE; 16];
        let mut codes = [0u8; 16];
        for (i, p) in pieces.iter().enumerate() {
            slot_of[p.code()] = i as u8;
            codes[i] = p.code() as u8;
        }

        // Canonical placements of the first two pieces under the mirror.
        let (pair_index, pairs) = canonical_pairs(&sets[0], &sets[1]);
        let pair_index = shared_pair_index(sets[0].mask, sets[1].mask, pair_index);
        let ranges: Vec<u64> = (2..pieces.len())
            .map(|k| (sets[k].squares.len() - k) as u64)
            .collect();
        let sides = if material.is_symmetric() { 1 } else { 2 };
        // Checked: the slots of a material of many pieces overflow even a
        // u64 (16 pieces), which must be refused, not wrapped into a small
        // number.
        let rest_size = ranges.iter().try_fold(1u64, |a, &r| a.checked_mul(r));
        let placements = rest_size.and_then(|r| (pairs.len() as u64).checked_mul(r));
        let slots = placements.and_then(|p| p.checked_mul(sides));
        let (Some(rest_size), Some(placements)) = (rest_size, placements) else {
            return Err(IndexError::TooLarge {
                material,
                slots: u64::MAX,
            });
        };
        // Slots are u64 everywhere; the placements of the pieces after the
        // first two are decoded with 32-bit arithmetic (up to 7 pieces).
        let Some(slots) = slots else {
            return Err(IndexError::TooLarge {
                material,
                slots: u64::MAX,
            });
        };
        if rest_size > u32::MAX as u64 {
            return Err(IndexError::TooLarge { material, slots });
        }
        let fast_ranges = ranges
            .iter()
            .map(|&r| StrengthReducedU32::new(r.max(1) as u32))
            .collect();
        let mut masks = [0u64; 16];
        let mut radix = [1u64; 16];
        for (k, set) in sets.iter().enumerate() {
            masks[k] = set.mask;
            if k >= 2 {
                radix[k] = ranges[k - 2];
            }
        }
        Ok(PositionIndex {
            masks,
            radix,
            material,
            pieces,
            codes,
            slot_of,
            sets,
            pair_index,
            pairs,
            ranges,
            rest_size,
            placements,
            sides,
            narrow: placements <= u32::MAX as u64,
            fast_rest_size: StrengthReducedU32::new(rest_size.max(1) as u32),
            wide_rest_size: StrengthReducedU64::new(rest_size.max(1)),
            fast_ranges,
        })
    }

    /// The material indexed.
    pub fn material(&self) -> Material {
        self.material
    }

    /// Number of pieces of the material.
    #[inline]
    pub fn piece_count(&self) -> usize {
        self.pieces.len()
    }

    /// The code of the piece at index-order position `k` (less than
    /// [`piece_count`](Self::piece_count)): position 0 and 1 are the
    /// leading pair, the last is the piece whose square is the lowest
    /// digit.
    #[inline(always)]
    pub fn code_at(&self, k: usize) -> usize {
        self.codes[k] as usize & 15
    }

    /// The square set of the piece at index-order position `k`.
    #[inline(always)]
    pub(crate) fn mask_at(&self, k: usize) -> u64 {
        self.masks[k]
    }

    /// The radix of the digit of the piece at index-order position `k`
    /// (2 and on).
    #[inline(always)]
    pub(crate) fn radix_at(&self, k: usize) -> u64 {
        self.radix[k]
    }

    /// The index-order position of the piece of code `code` (`NONE`, 255,
    /// if the material has no such piece).
    #[inline(always)]
    pub(crate) fn slot_of_code(&self, code: usize) -> usize {
        self.slot_of[code & 15] as usize
    }

    /// The entry of `pair_index` at `slot` (see `pair_slot`): the pair
    /// number, whether the position is to be mirrored, whether the pair is
    /// on the mirror axis.
    #[inline(always)]
    pub(crate) fn pair_entry(&self, slot: usize) -> (u64, bool, bool) {
        let e = self.pair_index[slot];
        debug_assert_ne!(e, NO_PAIR);
        (
            (e & PAIR_MASK) as u64,
            e & MIRROR_BIT != 0,
            e & AXIS_BIT != 0,
        )
    }

    /// Slots per leading pair.
    #[inline(always)]
    pub(crate) fn rest_size(&self) -> u64 {
        self.rest_size
    }

    /// Slots per side to move.
    #[inline(always)]
    pub(crate) fn placements(&self) -> u64 {
        self.placements
    }

    /// Number of index slots (valid positions plus unused slots).
    pub fn size(&self) -> u64 {
        self.placements * self.sides
    }

    /// True if only White-to-move positions are stored (materials equal on
    /// both sides: Black to move is their colour swap).
    pub fn white_to_move_only(&self) -> bool {
        self.sides == 1
    }

    /// The index of `pos`, which must have exactly this material (checked in
    /// debug builds). Mirror images (and colour swaps, for materials equal
    /// on both sides) get the same index.
    pub fn index(&self, pos: &Position) -> u64 {
        debug_assert_eq!(Material::of_position(pos), Some(self.material));
        self.index_squares(&pos.raw_squares(), pos.side_to_move())
    }

    /// The index of the position given as raw squares by piece code (see
    /// [`Position::raw_squares`]) and side to move: the allocation-free fast
    /// path for solvers. The pieces must be exactly this material's.
    #[inline]
    pub fn index_squares(&self, by_code: &[u8; 16], side: Color) -> u64 {
        if self.sides == 1 && side == Color::Black {
            return self.index_color_swapped(by_code, side);
        }
        side.index() as u64 * self.placements + self.placement_of(by_code, false)
    }

    /// The index of the colour swap (see [`color_flip_squares`]) of the
    /// position given as raw squares and side to move, without building the
    /// swapped position: the swap is folded into the gather of the squares.
    /// The pieces of the swapped position must be exactly this material's.
    #[inline]
    pub fn index_color_swapped(&self, by_code: &[u8; 16], side: Color) -> u64 {
        let side = side.opponent();
        if self.sides == 1 && side == Color::Black {
            // Equal material: Black to move is stored as its colour swap,
            // which is the original position (with White to move).
            return self.index_squares(by_code, Color::White);
        }
        side.index() as u64 * self.placements + self.placement_of(by_code, true)
    }

    /// The index, in this table (the table of the material a capture
    /// leaves, colour-swapped into it if `swapped`), of the position after
    /// the capture `mv` in `pos`: the solver's and the probe search's
    /// lookup of capture successors, without building the position.
    #[inline]
    pub fn index_after_capture(&self, pos: &RawPosition, mv: &RawMove, swapped: bool) -> u64 {
        let sq = pos.squares_after(mv);
        let side = pos.side_to_move().opponent();
        if swapped {
            self.index_color_swapped(&sq, side)
        } else {
            self.index_squares(&sq, side)
        }
    }

    /// The placement number of the pieces on `by_code` (colour-swapped
    /// first if `swapped`). Dispatches on the piece count so that each
    /// common count gets its own copy with the loops unrolled: this is the
    /// solver's innermost call, and a loop over a run-time count cost about
    /// twice the instructions (measured with callgrind).
    #[inline(always)]
    fn placement_of(&self, by_code: &[u8; 16], swapped: bool) -> u64 {
        match self.pieces.len() {
            2 => self.placement_n::<2>(by_code, swapped),
            3 => self.placement_n::<3>(by_code, swapped),
            4 => self.placement_n::<4>(by_code, swapped),
            5 => self.placement_n::<5>(by_code, swapped),
            6 => self.placement_n::<6>(by_code, swapped),
            n => {
                let mut sq = [0u8; 16];
                self.gather(by_code, swapped, &mut sq[..n]);
                self.placement_index(&mut sq[..n])
            }
        }
    }

    #[inline(always)]
    fn placement_n<const N: usize>(&self, by_code: &[u8; 16], swapped: bool) -> u64 {
        let mut sq = [0u8; N];
        self.gather(by_code, swapped, &mut sq);
        self.placement_index(&mut sq)
    }

    /// The squares of the pieces in index order.
    #[inline(always)]
    pub(crate) fn gather(&self, by_code: &[u8; 16], swapped: bool, sq: &mut [u8]) {
        if swapped {
            for (i, s) in sq.iter_mut().enumerate() {
                // The swapped position's piece `c` stands where the
                // original's piece of the other colour (`c ^ 8`) stood,
                // rank-flipped.
                *s = FLIP_SQUARE[by_code[(self.codes[i] ^ 8) as usize & 15] as usize];
            }
        } else {
            for (i, s) in sq.iter_mut().enumerate() {
                *s = by_code[self.codes[i] as usize & 15];
            }
        }
    }

    #[inline(always)]
    pub(crate) fn placement_index(&self, sq: &mut [u8]) -> u64 {
        let (pair, mirror, on_axis) = self.pair_entry(pair_slot(sq[0], sq[1]));
        if mirror {
            for s in sq.iter_mut() {
                *s = MIRROR_SQUARE[*s as usize];
            }
        }
        let rest = self.rest_index(sq);
        if sq.len() > 2 && on_axis {
            // Both leading pieces on the mirror axis: the mirrored placement
            // has the same pair; keep the smaller index.
            for s in sq.iter_mut() {
                *s = MIRROR_SQUARE[*s as usize];
            }
            let mirrored = self.rest_index(sq);
            return pair * self.rest_size + rest.min(mirrored);
        }
        pair * self.rest_size + rest
    }

    /// The mixed-radix number of pieces 2.. : each piece's digit is the
    /// number of squares of its set below it that the earlier pieces left
    /// free. Because the earlier pieces stand inside the later piece's set
    /// (the sets are nested), that is one population count:
    /// `|set ∖ occupied-before ∩ below(s)|`, equal to the piece's rank in
    /// its set minus the earlier pieces below it (the plain form, kept in
    /// the tests as the reference).
    #[inline(always)]
    pub(crate) fn rest_index(&self, sq: &[u8]) -> u64 {
        let mut idx = 0u64;
        let mut occupied = square_bit(sq[0]) | square_bit(sq[1]);
        // An index loop: the iterator form (enumerate/take/skip) measured
        // 25 % more instructions for the whole solve (callgrind, TRvTR).
        #[allow(clippy::needless_range_loop)]
        for k in 2..sq.len().min(16) {
            let bit = square_bit(sq[k]);
            let r = (self.masks[k] & !occupied & (bit - 1)).count_ones() as u64;
            idx = idx * self.radix[k] + r;
            occupied |= bit;
        }
        idx
    }

    /// [`PositionIndex::rest_index`] of `sq` with piece `k` on square `s`
    /// instead of `sq[k]`, without writing `sq`.
    #[inline(always)]
    pub(crate) fn rest_index_moved(&self, sq: &[u8], k: usize, s: u8) -> u64 {
        let at = |j: usize| if j == k { s } else { sq[j] };
        let mut idx = 0u64;
        let mut occupied = square_bit(at(0)) | square_bit(at(1));
        #[allow(clippy::needless_range_loop)] // as in `rest_index`
        for j in 2..sq.len().min(16) {
            let bit = square_bit(at(j));
            let r = (self.masks[j] & !occupied & (bit - 1)).count_ones() as u64;
            idx = idx * self.radix[j] + r;
            occupied |= bit;
        }
        idx
    }

    /// The position at `index` (`None` if out of range). For an unused slot
    /// this is a position whose own index is another slot: see
    /// [`PositionIndex::is_canonical_slot`].
    pub fn position(&self, index: u64) -> Option<Position> {
        self.raw_position(index).map(|raw| raw.to_position())
    }

    /// The position at `index` in raw form (`None` if out of range): the
    /// solver's fast path of [`PositionIndex::position`].
    #[inline(always)]
    pub fn raw_position(&self, index: u64) -> Option<RawPosition> {
        if index >= self.size() {
            return None;
        }
        Some(match self.pieces.len() {
            2 => self.decode_n::<2>(index),
            3 => self.decode_n::<3>(index),
            4 => self.decode_n::<4>(index),
            5 => self.decode_n::<5>(index),
            6 => self.decode_n::<6>(index),
            _ => self.decode_n::<16>(index),
        })
    }

    /// The side to move, pair number and rest of slot `index` (in range):
    /// `index = side * placements + pair * rest_size + rest`.
    #[inline(always)]
    fn split(&self, index: u64) -> (Color, u32, u32) {
        let (side, placement) = if index >= self.placements {
            (Color::Black, index - self.placements)
        } else {
            (Color::White, index)
        };
        let (pair, rest) = if self.narrow {
            StrengthReducedU32::div_rem(placement as u32, self.fast_rest_size)
        } else {
            let (pair, rest) = StrengthReducedU64::div_rem(placement, self.wide_rest_size);
            // rest < rest_size <= u32::MAX (checked in `new`), and the pair
            // number is below the few thousand pairs.
            (pair as u32, rest as u32)
        };
        (side, pair, rest)
    }

    /// Decodes `index` (in range) for a material of `N` pieces, or of any
    /// count up to 16 when `N` is 16 (the loops stop at the piece count).
    #[inline(always)]
    fn decode_n<const N: usize>(&self, index: u64) -> RawPosition {
        let n = self.pieces.len().min(N);
        let (side, pair, mut rest) = self.split(index);
        let (a, b, _) = self.pairs[pair as usize];
        let mut digits = [0u32; N];
        for k in (2..n).rev() {
            let (q, r) = StrengthReducedU32::div_rem(rest, self.fast_ranges[k - 2]);
            digits[k] = r;
            rest = q;
        }
        // Squares by code and occupancy built in registers, eight codes to
        // a word: an array written byte by byte and then read whole (into
        // the position) waited on store forwarding, 5.9 % of the 6-piece
        // sweep's samples on that one load (perf annotate, ELTvELT).
        const ABSENT: u64 = u64::from_ne_bytes([NO_SQUARE; 8]);
        let (mut white_squares, mut black_squares) = (ABSENT, ABSENT);
        let (mut white, mut black) = (0u64, 0u64);
        #[allow(clippy::needless_range_loop)] // as in `rest_index`
        for k in 0..n {
            let s = match k {
                0 => a,
                1 => b,
                // The digit counts the squares of the set left free by the
                // pieces before: the square is the digit-th free one.
                _ => select_bit(self.masks[k] & !(white | black), digits[k]),
            };
            let code = self.codes[k] as u32;
            // The absent byte 0xFF becomes `s`.
            let byte = ((s ^ NO_SQUARE) as u64) << ((code & 7) * 8);
            if code < 8 {
                white_squares ^= byte;
                white |= square_bit(s);
            } else {
                black_squares ^= byte;
                black |= square_bit(s);
            }
        }
        let by_code = (white_squares as u128 | (black_squares as u128) << 64).to_le_bytes();
        RawPosition::from_parts(by_code, white, black, side)
    }

    /// The raw position at `index` if that slot is the one its position is
    /// stored under, `None` for unused slots and out-of-range indices.
    #[inline(always)]
    pub fn canonical_raw_position(&self, index: u64) -> Option<RawPosition> {
        let pos = self.raw_position(index)?;
        // Only slots whose leading pair is its own mirror image can be unused
        // (see the module docs); elsewhere decoding is exact.
        let (_, pair, _) = self.split(index);
        if self.pieces.len() == 2 || !self.pairs[pair as usize].2 {
            return Some(pos);
        }
        self.is_stored_slot(index, &pos).then_some(pos)
    }

    /// Where slot `index` (in range), whose position is `pos`, stands in
    /// its run: the slots after it that differ from it only in the last
    /// piece's square (see `positions.rs`). The last piece's code, the
    /// squares it takes along the run (the free squares of its set), how
    /// many slots of the run follow, and whether the run's leading pair is
    /// its own mirror image (its slots may be unused).
    #[inline]
    pub(crate) fn run_at(&self, index: u64, pos: &RawPosition) -> (usize, u64, u32, bool) {
        let n = self.pieces.len();
        let (_, pair, _) = self.split(index);
        let on_axis = self.pairs[pair as usize].2;
        if n <= 2 {
            return (0, 0, 0, on_axis);
        }
        let last = n - 1;
        let code = self.codes[last] as usize & 15;
        let bit = square_bit(pos.squares()[code]);
        let free = self.masks[last] & !(pos.occupied() & !bit);
        let digit = (free & (bit - 1)).count_ones();
        (code, free, self.radix[last] as u32 - 1 - digit, on_axis)
    }

    /// True if slot `index`, whose leading pair is its own mirror image and
    /// whose position is `pos`, is the slot `pos` is stored under.
    #[inline]
    pub(crate) fn is_stored_slot(&self, index: u64, pos: &RawPosition) -> bool {
        self.index_squares(pos.squares(), pos.side_to_move()) == index
    }

    /// The position at `index` if that slot is the one its position is
    /// stored under, `None` for unused slots and out-of-range indices.
    pub fn canonical_position(&self, index: u64) -> Option<Position> {
        self.canonical_raw_position(index)
            .map(|raw| raw.to_position())
    }

    /// True if slot `index` holds a position (is not an unused slot).
    #[inline]
    pub fn is_canonical_slot(&self, index: u64) -> bool {
        self.canonical_raw_position(index).is_some()
    }

    /// The index-order position (0..piece count) of `piece`, if present.
    pub fn slot_of(&self, piece: Piece) -> Option<usize> {
        let s = self.slot_of[piece.code()];
        (s != NONE).then_some(s as usize)
    }
}

/// The colour swap on raw squares by piece code: White and Black exchange
/// pieces, ranks flip, the other side is to move.
#[inline]
pub fn color_flip_squares(by_code: &[u8; 16], side: Color) -> ([u8; 16], Color) {
    let mut out = [NO_SQUARE; 16];
    for (code, &s) in by_code.iter().enumerate() {
        if s != NO_SQUARE {
            out[code ^ 8] = FLIP_SQUARE[s as usize];
        }
    }
    (out, side.opponent())
}

#[inline]
fn sq(i: u8) -> Square {
    Square::from_index(i as usize).expect("valid square")
}

/// The pair index of the square sets `mask0`, `mask1`: `built` the first
/// time, the same shared copy afterwards. Probes spread over a thousand
/// tables would otherwise each read their own 8 KiB table, missing the
/// caches on nearly every probe (perf: 16 % of a compressed WDL probe over
/// every table up to 4 pieces went to this one load); a few dozen shared
/// copies stay in the caches.
fn shared_pair_index(mask0: u64, mask1: u64, built: Box<[u16; 64 * 64]>) -> Arc<[u16; 64 * 64]> {
    type Shared = HashMap<(u64, u64), Arc<[u16; 64 * 64]>>;
    static SHARED: OnceLock<Mutex<Shared>> = OnceLock::new();
    let mut shared = SHARED
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let entry = shared
        .entry((mask0, mask1))
        .or_insert_with(|| Arc::from(built));
    Arc::clone(entry)
}

/// Slot of the pair of squares (a, b) in `pair_index`. The mask keeps the
/// slot provably in range (squares are below 63 anyway), so the lookup
/// needs no bounds check.
#[inline(always)]
pub(crate) fn pair_slot(a: u8, b: u8) -> usize {
    (a as usize & 63) << 6 | (b as usize & 63)
}

#[cfg(test)]
#[path = "index_tests.rs"]
mod tests;
