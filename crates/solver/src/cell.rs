//! The solver's working cell: one 32-bit word per index slot.
//!
//! The high 16 bits hold the value: the table encoding of
//! [`jungletb_format::encoding`] once decided, or "undecided + floor" (see
//! [`UNDECIDED`]). The low 8 bits hold the weighted count of successors
//! inside the material not yet known to be wins for the opponent (see
//! [`weight`]). One word touches one cache line per predecessor
//! update instead of two.

use jungletb_format::encoding;
use jungletb_rules::{RawPosition, Value};

/// Working values from here up mean "not decided yet" (a draw if it never
/// is); the offset above it is the position's floor: 1 + the longest win
/// among its successors outside the material (0 if none), the earliest level
/// at which it can be a loss.
pub(crate) const UNDECIDED: u16 = 0x8000;
/// Longest distance the working encoding can hold.
pub(crate) const MAX_WORK_PLIES: u16 = UNDECIDED - 3;

/// True for the working values of undecided positions.
#[inline]
pub(crate) fn is_undecided(value: u16) -> bool {
    value >= UNDECIDED
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
/// A cell of `value` and successor count `count`.
#[inline]
pub(crate) fn cell(value: u16, count: u8) -> u32 {
    (value as u32) << 16 | count as u32
}
/// The value of a cell.
#[inline]
pub(crate) fn value_of(cell: u32) -> u16 {
    (cell >> 16) as u16
}
/// `cell` with its value replaced by `value`.
#[inline]
pub(crate) fn with_value(cell: u32, value: u16) -> u32 {
    (value as u32) << 16 | (cell & 0xFFFF)
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
    /// decided and undecided value up to 600 plies.
    #[test]
    fn improves_to_win_matches_the_decoded_definition() {
        let mut improving = 0;
        for n in (1..300).step_by(2) {
            for old in (0..610u16).chain(UNDECIDED..UNDECIDED + 300) {
                let plain = is_undecided(old)
                    || matches!(encoding::decode(old), Some(Value::Win(k)) if k > n);
                assert_eq!(improves_to_win(old, n), plain, "old {old}, n {n}");
                improving += plain as u32;
            }
        }
        assert!(improving > 10_000);
    }
}
