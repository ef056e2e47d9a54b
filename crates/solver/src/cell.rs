//! The solver's working cell: one 16-bit word per index slot.
//!
//! A decided position's cell is its value in the table encoding of
//! [`jungletb_format::encoding`] (below [`UNDECIDED`]). An undecided
//! position's cell has the top bit set, its *floor* in the next
//! [`FLOOR_BITS`] bits and in the low [`COUNT_BITS`] bits the weighted count
//! of its successors inside the material not yet known to be wins for the
//! opponent (see [`weight`]). A decided position needs no count: only a
//! loss waits for all its successors. So the cell that became the table's
//! 16-bit output in place is the whole working state, 2 bytes a slot (it
//! was 4, a 16-bit value beside an 8-bit count, until the 6-piece tables
//! needed memory for 5 × 10^9 slots; see `docs/lab/`).

use jungletb_format::encoding;
use jungletb_rules::{RawPosition, Value};

/// Cells from here up are undecided positions (a draw if never decided).
pub(crate) const UNDECIDED: u16 = 0x8000;
/// Bits of an undecided cell that hold its successor count.
pub(crate) const COUNT_BITS: u32 = 6;
/// Bits of an undecided cell that hold its floor.
pub(crate) const FLOOR_BITS: u32 = 15 - COUNT_BITS;
/// The largest successor count a cell holds (a position of 6 pieces has at
/// most 5 × 4 moves, counted twice when it is not its own mirror image, and
/// one more for a drawn capture: 41).
pub(crate) const MAX_COUNT: usize = (1 << COUNT_BITS) - 1;
/// The largest floor a cell holds: 1 + the longest win a capture leads
/// into (the longest win of a 5-piece table is far below it).
pub(crate) const MAX_FLOOR: u16 = (1 << FLOOR_BITS) - 1;
/// Longest distance the working encoding can hold.
pub(crate) const MAX_WORK_PLIES: u16 = UNDECIDED - 3;

/// True for the cells of undecided positions.
#[inline]
pub(crate) fn is_undecided(cell: u16) -> bool {
    cell >= UNDECIDED
}
/// The value "win in `n` plies".
#[inline]
pub(crate) fn win(n: u16) -> u16 {
    encoding::encode(Value::Win(n)).expect("checked level")
}
/// The value "loss in `n` plies".
#[inline]
pub(crate) fn loss(n: u16) -> u16 {
    encoding::encode(Value::Loss(n)).expect("checked level")
}
/// The cell of an undecided position of floor `floor` (at most
/// [`MAX_FLOOR`]) and successor count `count` (at most [`MAX_COUNT`]).
#[inline]
pub(crate) fn undecided(floor: u16, count: u8) -> u16 {
    debug_assert!(floor <= MAX_FLOOR && count as usize <= MAX_COUNT);
    UNDECIDED | floor << COUNT_BITS | count as u16
}
/// The successor count of an undecided cell.
#[inline]
pub(crate) fn count_of(cell: u16) -> u8 {
    (cell & MAX_COUNT as u16) as u8
}
/// The floor of an undecided cell: 1 + the longest win among its
/// successors outside the material (0 if none), the earliest level at
/// which it can be a loss.
#[inline]
pub(crate) fn floor_of(cell: u16) -> u16 {
    (cell & !UNDECIDED) >> COUNT_BITS
}

/// True if a predecessor holding `old` becomes a win in `n` plies: it is
/// undecided or wins later (a tentative win through a capture). In the
/// table encoding a win in `k` plies is `k + 2` with `k` odd, and undecided
/// values lie above every decided one, so this is two comparisons instead
/// of a decode.
#[inline]
pub(crate) fn improves_to_win(old: u16, n: u16) -> bool {
    old > win(n) && (is_undecided(old) || old % 2 == 1)
}

/// The counting weight of a position: the size of its symmetry class up to
/// a common factor (1 if it is its own mirror image, else 2).
///
/// Counters are not deduplicated by successor, so a move into a class and
/// the un-moves out of it must balance: a position P counts each quiet move
/// `weight(P)` times, and a decided successor C decrements once per un-move
/// by `weight(C)`. Both sums equal |class P| × (moves of P into class C),
/// because moves commute with the symmetries.
#[inline]
pub(crate) fn weight(pos: &RawPosition) -> u8 {
    if pos.is_mirror_symmetric() {
        1
    } else {
        2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `improves_to_win` against its definition by decoding, over every
    /// decided value up to 600 plies and every undecided cell.
    #[test]
    fn improves_to_win_matches_the_decoded_definition() {
        let mut improving = 0;
        for n in (1..300).step_by(2) {
            for old in (0..610u16).chain(UNDECIDED..=u16::MAX) {
                let plain = is_undecided(old)
                    || matches!(encoding::decode(old), Some(Value::Win(k)) if k > n);
                assert_eq!(improves_to_win(old, n), plain, "old {old}, n {n}");
                improving += plain as u32;
            }
        }
        assert!(improving > 10_000);
    }

    /// Every floor and count an undecided cell can hold comes back out of
    /// it, and counting down never reaches the floor's bits.
    #[test]
    fn undecided_cells_keep_their_floor_and_count() {
        for floor in 0..=MAX_FLOOR {
            for count in 0..=MAX_COUNT as u8 {
                let c = undecided(floor, count);
                assert!(is_undecided(c));
                assert_eq!((floor_of(c), count_of(c)), (floor, count));
                if count > 0 {
                    assert_eq!(floor_of(c - count as u16), floor);
                    assert_eq!(count_of(c - count as u16), 0);
                }
            }
        }
        assert!(win(MAX_WORK_PLIES) < UNDECIDED && loss(MAX_WORK_PLIES - 1) < UNDECIDED);
    }
}
