//! The codes of a cell of the solve (`levels.rs`): decided values
//! below, undecided positions above, each with the weighted count of its
//! quiet successors not yet known to be won for the opponent. A cell is
//! one byte, or two where a byte cannot hold a material's distances or
//! counts: the same codes, laid out by [`Layout::for_width`].

use jungletb_indexer::Material;
use jungletb_rules::{Color, RawPosition};

/// The counting weight of a position: the size of its symmetry class up to
/// a common factor (1 if it is its own mirror image, else 2).
///
/// Counts are not deduplicated by successor, so a move into a class and
/// the un-moves out of it must balance: a position P counts each quiet move
/// `weight(P)` times, and a decided successor C counts down once per
/// un-move by `weight(C)`. Both sums equal |class P| × (moves of P into
/// class C), because moves commute with the symmetries.
#[inline]
pub(crate) fn weight(pos: &RawPosition) -> u8 {
    if pos.is_mirror_symmetric() {
        1
    } else {
        2
    }
}

/// The largest weighted count of quiet successors a one-byte cell holds:
/// five pieces to move, four moves each, counted twice when the position
/// is not its own mirror image (see [`weight`]). A drawn capture is
/// not counted: its position is the layout's `no_loss` code.
pub(crate) const MAX_COUNT: u16 = 40;

/// The largest weighted count a two-byte cell holds: every material of up
/// to eight pieces a side.
const MAX_COUNT_WIDE: u16 = 8 * 4 * 2;

/// The lowest undecided code of a two-byte cell: distances up to 4,093
/// plies (the longest win of up to 6 pieces found so far is 149), and the
/// counts of decided codes a level's work keeps stay 32 KiB.
const UNDECIDED_WIDE: u16 = 1 << 12;

/// The weighted count of quiet successors a position of `material` can
/// have at most: 4 moves a piece of the side to move, counted twice.
pub(crate) fn most_count(material: Material) -> u16 {
    let most = Color::ALL
        .map(|c| material.mask(c).count_ones())
        .into_iter()
        .max();
    (most.unwrap_or(0) * 4 * 2) as u16
}

/// Where the codes of a cell lie.
///
/// A decided value in `n` plies is `n + 2` (the table's raw value), below
/// [`Layout::undecided`]. An undecided position that may still be lost
/// holds its count (at least 1) and whether it has a floor: `no_loss -
/// count` without, `no_loss - max_count - count` with; `no_loss` (the
/// largest code) is a position with a capture into a drawn table, which
/// can win or draw, never lose, and needs no count. A position is lost
/// when its count reaches 0 at a level `d`: at `d + 1`, or at its floor
/// (one more than the longest win a capture leads into) if that is later,
/// the floor being found again then from its captures. One lost position in six of
/// ELTvET has a floor; finding every floor again cost a sixth of the
/// propagation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Layout {
    /// The lowest undecided code: decided values lie below it.
    pub(crate) undecided: u16,
    /// The code of an undecided position that cannot be lost.
    pub(crate) no_loss: u16,
    /// The largest count the codes hold.
    pub(crate) max_count: u16,
}

impl Default for Layout {
    /// The one-byte layout.
    fn default() -> Layout {
        Layout::for_width(1)
    }
}

impl Layout {
    /// The layout of cells of `bytes` bytes (1 or 2).
    pub(crate) fn for_width(bytes: usize) -> Layout {
        match bytes {
            1 => Layout {
                undecided: 255 - 2 * MAX_COUNT,
                no_loss: 255,
                max_count: MAX_COUNT,
            },
            _ => Layout {
                undecided: UNDECIDED_WIDE,
                no_loss: u16::MAX,
                max_count: MAX_COUNT_WIDE,
            },
        }
    }

    /// The layout with room for decided values up to `max_plies` only
    /// (tests squeeze the codes of small materials with it), `None` below
    /// the first levels or above the default's room.
    #[cfg(test)]
    pub(crate) fn with_room(max_plies: u16) -> Option<Layout> {
        let undecided = max_plies.checked_add(3)?;
        (undecided > 3 && undecided <= Layout::default().undecided).then_some(Layout {
            undecided,
            ..Layout::default()
        })
    }

    /// The longest distance a cell can hold.
    pub(crate) fn max_plies(self) -> u16 {
        self.undecided - 3
    }

    /// True if every position of `material` has a count these codes hold.
    pub(crate) fn counts_fit(self, material: Material) -> bool {
        most_count(material) <= self.max_count
    }

    /// The code of an undecided position with `count` (1 to `max_count`)
    /// undecided successors, and a floor above 0 or not. The count drops
    /// by `w` where the code grows by `w`.
    #[inline]
    pub(crate) fn count_code(self, count: u16, floored: bool) -> u16 {
        debug_assert!((1..=self.max_count).contains(&count));
        self.no_loss - count - if floored { self.max_count } else { 0 }
    }

    /// `code` counted down by `w`: the code of its count less `w`, if it
    /// [`may_lose`](Layout::may_lose) and that count is above 0.
    #[inline]
    pub(crate) fn counted_down(self, code: u16, w: u16) -> Option<u16> {
        // The codes of a count end where it would be 0.
        let end = self.no_loss - self.max_count * self.floored(code) as u16;
        let next = code as u32 + w as u32;
        (code >= self.undecided && next < end as u32).then_some(next as u16)
    }

    /// True if a code that [`may_lose`](Layout::may_lose) has a floor.
    #[inline]
    pub(crate) fn floored(self, code: u16) -> bool {
        code < self.no_loss - self.max_count
    }

    /// True if `code` is an undecided position that may still be lost.
    #[inline]
    pub(crate) fn may_lose(self, code: u16) -> bool {
        code >= self.undecided && code != self.no_loss
    }
}

/// The code of a decided value in `n` plies (`n + 2`, the table's raw
/// value; the caller has checked `n` against [`Layout::max_plies`]).
#[inline]
pub(crate) fn decided(n: u16) -> u16 {
    n + 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_fit_a_byte_up_to_five_pieces_a_side_and_two_bytes_beyond() {
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
            let (byte, wide) = (Layout::for_width(1), Layout::for_width(2));
            assert_eq!(byte.counts_fit(m), fits, "{m}");
            assert_eq!(byte.counts_fit(m.flipped()), fits, "{m} flipped");
            assert!(wide.counts_fit(m), "{m}");
        }
    }
}

#[cfg(test)]
mod layout_tests {
    use super::*;

    /// In both widths, counting a count's code down by a weight gives the
    /// code of the count left (floor kept), or nothing at 0 and below; a
    /// decided code and `no_loss` do not count down.
    #[test]
    fn counting_down_gives_the_code_of_the_count_left_and_stops_at_0() {
        for layout in [Layout::for_width(1), Layout::for_width(2)] {
            for floored in [false, true] {
                for count in 1..=layout.max_count {
                    let c = layout.count_code(count, floored);
                    assert!(layout.may_lose(c) && c >= layout.undecided, "{layout:?}");
                    assert_eq!(layout.floored(c), floored);
                    for w in [1, 2] {
                        let down = (count > w).then(|| layout.count_code(count - w, floored));
                        assert_eq!(layout.counted_down(c, w), down, "{layout:?} {c} {w}");
                    }
                }
            }
            assert!(!layout.may_lose(layout.no_loss));
            for code in [layout.no_loss, decided(1), decided(layout.max_plies())] {
                assert_eq!(layout.counted_down(code, 1), None);
            }
            assert!(decided(layout.max_plies()) < layout.undecided);
        }
    }
}
