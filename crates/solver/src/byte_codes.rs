//! The codes of a one-byte cell (`byte_solve.rs`): decided values below,
//! undecided positions above, each with the weighted count of its quiet
//! successors not yet known to be won for the opponent.

use jungletb_indexer::Material;
use jungletb_rules::Color;

/// The undecided position that cannot be lost (a capture leads into a
/// drawn table): it needs no count.
pub(crate) const NO_LOSS: u8 = 255;

/// The largest weighted count of quiet successors a position of the
/// tables can have: five pieces to move, four moves each, counted twice
/// when the position is not its own mirror image (see `cell::weight`).
/// A drawn capture is not counted: its position is [`NO_LOSS`].
pub(crate) const MAX_COUNT: u8 = 40;

/// True if every position of `material` has a weighted count of quiet
/// successors a byte holds (at most [`MAX_COUNT`]: 4 moves a piece of the
/// side to move, counted twice). Every material of up to 6 pieces does;
/// others are solved in 16-bit cells.
pub(crate) fn counts_fit(material: Material) -> bool {
    let most = Color::ALL
        .map(|c| material.mask(c).count_ones())
        .into_iter()
        .max();
    most.unwrap_or(0) * 4 * 2 <= MAX_COUNT as u32
}

/// The count codes of positions with a floor sit this far below the
/// others'.
const FLOORED: u8 = MAX_COUNT;

/// Where the codes of a byte lie.
///
/// A decided value in `n` plies is `n + 2` (the table's raw value), below
/// [`Layout::undecided`]. An undecided position that may still be lost
/// holds its count (at least 1) and whether it has a floor: `NO_LOSS -
/// count` without, `NO_LOSS - MAX_COUNT - count` with. It is lost when
/// the count reaches 0 at a level `d`: at `d + 1`, or at its floor (1 +
/// the longest win a capture leads into) if that is later, the floor being
/// found again then from its captures. One lost position in six of ELTvET
/// has a floor; finding every floor again cost a sixth of the propagation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Layout {
    /// The lowest undecided code: decided values lie below it.
    pub(crate) undecided: u8,
}

impl Default for Layout {
    fn default() -> Layout {
        Layout {
            undecided: NO_LOSS - MAX_COUNT - FLOORED,
        }
    }
}

impl Layout {
    /// The layout with room for decided values up to `max_plies` only
    /// (tests squeeze the codes of small materials with it), `None` below
    /// the first levels or above the default's room.
    #[cfg(test)]
    pub(crate) fn with_room(max_plies: u16) -> Option<Layout> {
        let undecided = max_plies.checked_add(3)?;
        (undecided > 3 && undecided <= Layout::default().undecided as u16).then_some(Layout {
            undecided: undecided as u8,
        })
    }

    /// The longest distance a byte can hold.
    pub(crate) fn max_plies(self) -> u16 {
        self.undecided as u16 - 3
    }

    /// The code of an undecided position with `count` (1 to
    /// [`MAX_COUNT`]) undecided successors, and a floor above 0 or not.
    /// The count drops by `w` where the code grows by `w`.
    #[inline]
    pub(crate) fn count_code(count: u8, floored: bool) -> u8 {
        debug_assert!((1..=MAX_COUNT).contains(&count));
        NO_LOSS - count - if floored { FLOORED } else { 0 }
    }

    /// The count of a code that [`may_lose`](Layout::may_lose).
    #[inline]
    pub(crate) fn count_of(code: u8) -> u8 {
        if code >= NO_LOSS - MAX_COUNT {
            NO_LOSS - code
        } else {
            NO_LOSS - FLOORED - code
        }
    }

    /// True if a code that [`may_lose`](Layout::may_lose) has a floor.
    #[inline]
    pub(crate) fn floored(code: u8) -> bool {
        code < NO_LOSS - MAX_COUNT
    }

    /// True if `code` is an undecided position that may still be lost.
    #[inline]
    pub(crate) fn may_lose(self, code: u8) -> bool {
        code >= self.undecided && code != NO_LOSS
    }
}

/// The byte of a decided value in `n` plies (`n + 2`, the table's raw
/// value; the caller has checked `n` against [`Layout::max_plies`]).
#[inline]
pub(crate) fn decided(n: u16) -> u8 {
    (n + 2) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_fit_a_byte_up_to_five_pieces_a_side() {
        for (m, fits) in [
            ("ELTvELT", true),
            ("ECRvECR", true),
            ("EvR", true),
            ("EDCPWvR", true),
            ("ELTPWvR", true),
            ("ELTDCPvR", false),
            ("ELTDCPvRW", false),
        ] {
            let m: Material = m.parse().unwrap();
            assert_eq!(counts_fit(m), fits, "{m}");
            assert_eq!(counts_fit(m.flipped()), fits, "{m} flipped");
        }
    }
}
