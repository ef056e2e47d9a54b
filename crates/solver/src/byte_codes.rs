//! The codes of a one-byte cell (`byte_solve.rs`): decided values below,
//! undecided states above, and how the two share the 256 codes as the
//! levels advance.

/// The undecided position that cannot be lost (a capture leads into a
/// drawn table).
pub(crate) const NO_LOSS: u8 = 255;

/// The code of an undecided position with no floor, in the tables
/// (tests may place it lower, to squeeze the codes of a small material).
const FLOOR_ZERO: u8 = 254;

/// Where the codes of a byte lie for one material, while one level runs.
///
/// Until the levels reach them, the floors and the decided values below
/// them share the codes: the values up to the highest floor + 1 exist
/// from the sweep on (losses held back to a floor, wins through a
/// capture). Floors up to `exact` have a code each; when they do not all
/// fit, every higher floor shares one code, [`Layout::high`], and is found
/// again when its position is lost, from its captures into the
/// sub-tables (`capture_floor` in `byte_solve.rs`). Such floors come from sub-tables with
/// wins past about 125 plies, so they are few.
///
/// The floors only matter until the level reaches them: at level `d`, a
/// floor of at most `d + 1` holds nothing back (a loss found now or later
/// is at `d + 1` or beyond anyway). So at the level `highest floor - 1`
/// every floor's code is rewritten as floor 0's (`collapse` in `byte_solve.rs`), and from
/// there the decided values use the floors' codes too, up to 251 plies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Layout {
    /// The lowest undecided code: [`Layout::high`]'s, or `floor_zero -
    /// exact` when every floor has its code, until the floors collapse,
    /// then `floor_zero`. Decided values lie below it.
    pub(crate) undecided: u8,
    /// The code of floor 0 ([`FLOOR_ZERO`]).
    pub(crate) floor_zero: u8,
    /// The highest floor with a code of its own.
    pub(crate) exact: u16,
    /// The level at which the floors collapse: `highest floor - 1`.
    pub(crate) collapse_at: u16,
}

impl Layout {
    /// The layout for floors up to `max_floor`, `None` if a floor's loss
    /// or the first levels would not fit below the undecided codes.
    pub(crate) fn new(max_floor: u16) -> Option<Layout> {
        Layout::within(max_floor, FLOOR_ZERO, max_floor)
    }

    /// The layout for floors up to `max_floor` with floor 0 coded
    /// `floor_zero`, a code for each floor up to `exact` at most (fewer
    /// if the decided values need the room).
    pub(crate) fn within(max_floor: u16, floor_zero: u8, exact: u16) -> Option<Layout> {
        let with = |exact: u16| {
            let high = (exact < max_floor) as u16;
            let undecided = (floor_zero as u16).checked_sub(exact + high)?;
            let layout = Layout {
                undecided: undecided as u8,
                floor_zero,
                exact,
                collapse_at: max_floor.saturating_sub(1),
            };
            // A loss held back to the highest floor, and a win through a
            // capture into a loss (up to the longest win + 2 plies), are
            // stored as decided values; the levels 0 and 1 always exist.
            (undecided > 3 && max_floor < layout.max_plies()).then_some(layout)
        };
        let exact = exact.min(max_floor);
        // With a shared code: max_plies = floor_zero - exact - 4 > max_floor.
        with(exact).or_else(|| with((floor_zero as u16).checked_sub(max_floor + 5)?.min(exact)))
    }

    /// The layout while level `d` runs: the floors collapsed from
    /// `collapse_at` on.
    pub(crate) fn at_level(self, d: u16) -> Layout {
        if d >= self.collapse_at {
            Layout {
                undecided: self.floor_zero,
                ..self
            }
        } else {
            self
        }
    }

    /// The longest distance a byte can hold below the floors.
    pub(crate) fn max_plies(self) -> u16 {
        self.undecided as u16 - 3
    }

    /// The code shared by the floors above `exact`.
    #[inline]
    pub(crate) fn high(self) -> u8 {
        self.floor_zero - self.exact as u8 - 1
    }

    /// The code of an undecided position of floor `floor`.
    #[inline]
    pub(crate) fn floor_code(self, floor: u16) -> u8 {
        if floor > self.exact {
            self.high()
        } else {
            self.floor_zero - floor as u8
        }
    }

    /// The floor of an undecided code other than [`NO_LOSS`], `None` for
    /// a floor above `exact` (to be found again from the captures).
    #[inline]
    pub(crate) fn floor_of(self, code: u8) -> Option<u16> {
        (code != self.high()).then(|| (self.floor_zero - code) as u16)
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
