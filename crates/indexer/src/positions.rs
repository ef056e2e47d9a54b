//! Decoding consecutive slots, for passes that visit every slot in order
//! (the solver's forward sweep, verification).
//!
//! The last piece's digit is the lowest of the index: slot `i + 1` is slot
//! `i` with the last piece on the next free square of its set, until that
//! digit runs out (every 40 to 60 slots at 5 and 6 pieces). Within such a
//! run a position costs one bit search and one piece moved
//! ([`RawPosition::with_piece_on`]) instead of a whole decode (four
//! dependent selects at 6 pieces); the first slot of each run is decoded
//! whole. Slots whose leading pair is its own mirror image are checked as
//! [`PositionIndex::canonical_raw_position`] checks them.
//!
//! ```
//! use jungletb_indexer::PositionIndex;
//! use jungletb_rules::Ruleset;
//! let index = PositionIndex::new("ELvR".parse().unwrap(), &Ruleset::standard()).unwrap();
//! for (i, pos) in index.raw_positions(1000..1100) {
//!     assert_eq!(pos, index.canonical_raw_position(i));
//! }
//! ```

use crate::index::PositionIndex;
use crate::select::select_bit;
use jungletb_rules::RawPosition;

impl PositionIndex {
    /// The positions of the slots of `range` in order, each `None` where
    /// [`PositionIndex::canonical_raw_position`] is: the same answers,
    /// decoded incrementally (see [`RawPositions`]).
    pub fn raw_positions(&self, range: std::ops::Range<u64>) -> RawPositions<'_> {
        RawPositions::new(self, range)
    }

    /// A decoder of slots taken in increasing order (see [`Decoder`]).
    pub fn decoder(&self) -> Decoder<'_> {
        Decoder::new(self)
    }
}

/// The positions of consecutive slots, as `(slot, position)` (`None` for
/// an unused slot): made by [`PositionIndex::raw_positions`].
#[derive(Debug, Clone)]
pub struct RawPositions<'a> {
    decoder: Decoder<'a>,
    next: u64,
    end: u64,
}

/// Decodes slots in increasing order, a slot in the run of the one before
/// by moving the last piece only (see the module docs): for the solver's
/// levels, whose positions are found in slot order. Made by
/// [`PositionIndex::decoder`].
#[derive(Debug, Clone)]
pub struct Decoder<'a> {
    index: &'a PositionIndex,
    /// The slot decoded last.
    last: u64,
    /// Its run, if one was decoded.
    run: Option<Run>,
    /// Runs started so far.
    started: u64,
}

/// Where the decoder stands in a run of slots that differ only in the last
/// piece's square.
#[derive(Debug, Clone, Copy)]
struct Run {
    /// The position of the slot decoded last (whether or not its slot is
    /// the stored one).
    pos: RawPosition,
    /// The last piece's code.
    code: usize,
    /// The squares the last piece takes along the run, in order.
    free: u64,
    /// Slots of the run after the slot of `pos`.
    left: u32,
    /// The run's leading pair is its own mirror image.
    on_axis: bool,
}

impl<'a> Decoder<'a> {
    fn new(index: &'a PositionIndex) -> Decoder<'a> {
        Decoder {
            index,
            last: 0,
            run: None,
            started: 0,
        }
    }

    /// How many runs the decoder has started (decoded a slot of whole):
    /// two slots decoded with the same count between them are of one run,
    /// their positions the same but for the last piece's square.
    #[inline(always)]
    pub fn runs_started(&self) -> u64 {
        self.started
    }

    /// The raw position of slot `i` (in range), as
    /// [`PositionIndex::raw_position`] gives it.
    #[inline]
    pub fn raw_position(&mut self, i: u64) -> RawPosition {
        self.run_of(i).0
    }

    /// The position of slot `i` (in range), `None` where
    /// [`PositionIndex::canonical_raw_position`] is (an unused slot): what
    /// [`RawPositions`] gives, for a caller that takes the slots in its own
    /// loop.
    #[inline(always)]
    pub fn stored_position(&mut self, i: u64) -> Option<RawPosition> {
        let (pos, on_axis) = self.run_of(i);
        (!on_axis || stored_on_axis(self.index, i, pos)).then_some(pos)
    }

    /// The position of slot `i`, and whether its run's leading pair is its
    /// own mirror image. The position is returned as computed, never read
    /// back from `self.run` just written: a copy of the stored run read
    /// whole right after its fields were written piecemeal stalled on
    /// store forwarding (31 % of `run_of`'s samples in a one-byte ELTvELT
    /// sweep, on one `movups`). Inlined, with the whole decode that starts
    /// a run out of line, so that the position stays in registers.
    #[inline(always)]
    fn run_of(&mut self, i: u64) -> (RawPosition, bool) {
        if let Some(run) = &mut self.run {
            let step = i.wrapping_sub(self.last);
            if step >= 1 && step <= run.left as u64 {
                run.left -= step as u32;
                let from = run.pos.squares()[run.code];
                // The free squares above the last piece's: the step-th is
                // its square in slot `i`.
                let above = run.free & !((2u64 << from) - 1);
                let to = if step == 1 {
                    above.trailing_zeros() as u8
                } else {
                    select_bit(above, step as u32 - 1)
                };
                let pos = run.pos.with_piece_on(run.code, to);
                let on_axis = run.on_axis;
                run.pos = pos;
                self.last = i;
                return (pos, on_axis);
            }
        }
        self.start_run(i)
    }

    /// [`run_of`](Self::run_of) for a slot outside the current run: its
    /// position decoded whole, and its run.
    #[inline(never)]
    fn start_run(&mut self, i: u64) -> (RawPosition, bool) {
        let pos = self.index.raw_position(i).expect("in range");
        let (code, free, left, on_axis) = self.index.run_at(i, &pos);
        self.run = Some(Run {
            pos,
            code,
            free,
            left,
            on_axis,
        });
        self.last = i;
        self.started += 1;
        (pos, on_axis)
    }
}

impl<'a> RawPositions<'a> {
    fn new(index: &'a PositionIndex, range: std::ops::Range<u64>) -> RawPositions<'a> {
        RawPositions {
            decoder: Decoder::new(index),
            next: range.start,
            end: range.end.min(index.size()),
        }
    }
}

impl Iterator for RawPositions<'_> {
    type Item = (u64, Option<RawPosition>);

    /// Inlined into the caller's loop, so that the position stays in
    /// registers: returned out of line, it went through the stack in
    /// words and was read back in halves of 16 bytes, a store-forwarding
    /// stall (over half of `next`'s samples in a one-byte ELTvEL sweep).
    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        if self.next >= self.end {
            return None;
        }
        let i = self.next;
        self.next += 1;
        let (pos, on_axis) = self.decoder.run_of(i);
        let stored = !on_axis || stored_on_axis(self.decoder.index, i, pos);
        Some((i, stored.then_some(pos)))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.end.saturating_sub(self.next)) as usize;
        (n, Some(n))
    }
}

/// True if slot `i`, whose leading pair is its own mirror image, is the
/// slot its position `pos` is stored under. Out of line and given a copy:
/// with a reference taken on the common path, every position went
/// through the stack (see [`RawPositions::next`]).
#[cold]
#[inline(never)]
fn stored_on_axis(index: &PositionIndex, i: u64, pos: RawPosition) -> bool {
    index.is_stored_slot(i, &pos)
}

#[cfg(test)]
mod tests {
    use crate::{Material, PositionIndex};
    use jungletb_rules::Ruleset;

    /// Every slot of small materials and runs spread over larger ones (a
    /// 6-piece one among them, and ranges that start and end mid-run): the
    /// incremental positions are the whole decode's, slot by slot.
    #[test]
    fn consecutive_slots_decode_as_each_slot_alone() {
        let rules = Ruleset::standard();
        let mut unused = 0u64;
        for name in ["EvR", "ELvR", "ELvTR", "RvR", "TRvTR", "ELTvET", "ELTvELT"] {
            let m: Material = name.parse().unwrap();
            let index = PositionIndex::new(m.canonical().0, &rules).unwrap();
            let n = index.size();
            let ranges: Vec<std::ops::Range<u64>> = if n <= 1 << 20 {
                std::iter::once(0..n).collect()
            } else {
                (0..64)
                    .map(|k| n / 64 * k + 17 * k..n / 64 * k + 17 * k + 4099)
                    .collect()
            };
            let mut checked = 0u64;
            // The last run, past the end too.
            let end = std::iter::once(n - 100..n + 5);
            for range in ranges.into_iter().chain(end) {
                let mut expected = range.start;
                for (i, pos) in index.raw_positions(range.clone()) {
                    assert_eq!(i, expected, "{name}");
                    expected += 1;
                    assert_eq!(pos, index.canonical_raw_position(i), "{name} slot {i}");
                    checked += 1;
                    unused += pos.is_none() as u64;
                }
                assert_eq!(expected, range.end.min(n), "{name}");
            }
            assert!(checked > 1000, "{name}: {checked} slots");
        }
        // Unused slots (pairs on the mirror axis) were met and checked too.
        assert!(unused > 1000, "{unused} unused slots");
    }

    /// Slots in increasing order with gaps of 1 to 70 (within runs and
    /// across them), as a level's scan finds them: the decoder's positions
    /// are the whole decode's.
    #[test]
    fn increasing_slots_with_gaps_decode_as_each_slot_alone() {
        let rules = Ruleset::standard();
        for name in ["ELvTR", "TRvTR", "ELTvET", "ELTvELT"] {
            let m: Material = name.parse().unwrap();
            let index = PositionIndex::new(m.canonical().0, &rules).unwrap();
            let n = index.size();
            let mut decoder = index.decoder();
            let mut x = 0x2545_F491_4F6C_DD1Du64;
            let mut checked = 0;
            for start in (0..16).map(|k| n / 16 * k) {
                let mut i = start;
                while i < n && i < start + 20_000 {
                    assert_eq!(
                        Some(decoder.raw_position(i)),
                        index.raw_position(i),
                        "{name} slot {i}"
                    );
                    checked += 1;
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    i += 1 + x % 70;
                }
            }
            assert!(checked > 1000, "{name}: {checked} slots");
        }
    }
}
