//! The state of a solve (`mod.rs`): the cells, and what its
//! passes share.

use crate::solve::codes::Layout;
use crate::solve::presence::Presence;
use crate::solve::subtables::SubTables;
use jungletb_indexer::PositionIndex;
use jungletb_rules::{MoveTables, Ruleset};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// One cell a slot, `W` bytes each (1, or 2 where a byte cannot hold a
/// material's codes), in atomic 64-bit words of `8 / W` cells.
#[derive(Clone, Copy)]
pub(crate) struct ByteCells<'a, const W: usize>(pub(crate) &'a [AtomicU64]);

impl<'a, const W: usize> ByteCells<'a, W> {
    /// Cells a word holds.
    pub(crate) const LANES: u64 = 8 / W as u64;
    /// Bits of a cell.
    const BITS: u64 = 8 * W as u64;
    /// A cell's bits, in the lowest lane.
    pub(crate) const MASK: u64 = (1 << Self::BITS) - 1;

    /// The word of slot `i`.
    #[inline(always)]
    pub(crate) fn word(self, i: u64) -> &'a AtomicU64 {
        &self.0[(i / Self::LANES) as usize]
    }

    /// The shift of slot `i`'s cell in its word.
    #[inline(always)]
    pub(crate) fn shift(i: u64) -> u64 {
        i % Self::LANES * Self::BITS
    }

    /// The code of slot `i`.
    #[inline(always)]
    pub(crate) fn get(self, i: u64) -> u16 {
        (self.0[(i / Self::LANES) as usize].load(Relaxed) >> Self::shift(i) & Self::MASK) as u16
    }

    /// Replaces the code `b` of slot `i` by `f(b)` unless that is `None`.
    /// The code replaced, if it was.
    /// `SHARED`: by compare-and-swap of the word, as other threads may
    /// write other cells of it; otherwise (a lone thread) by a plain load
    /// and store.
    #[inline(always)]
    pub(crate) fn update_as<const SHARED: bool>(
        self,
        i: u64,
        f: impl Fn(u16) -> Option<u16>,
    ) -> Option<u16> {
        let word = &self.0[(i / Self::LANES) as usize];
        let shift = Self::shift(i);
        let mut cur = word.load(Relaxed);
        if !SHARED {
            let old = (cur >> shift & Self::MASK) as u16;
            let new = f(old)?;
            word.store(
                cur & !(Self::MASK << shift) | (new as u64) << shift,
                Relaxed,
            );
            return Some(old);
        }
        loop {
            let old = (cur >> shift & Self::MASK) as u16;
            let new = f(old)?;
            let next = cur & !(Self::MASK << shift) | (new as u64) << shift;
            match word.compare_exchange_weak(cur, next, Relaxed, Relaxed) {
                Ok(_) => return Some(old),
                Err(now) => cur = now,
            }
        }
    }
}

/// What the passes of a solve in cells of `W` bytes share.
pub(crate) struct ByteCtx<'a, const W: usize> {
    pub(crate) rules: &'a Ruleset,
    pub(crate) tables: MoveTables,
    pub(crate) index: &'a PositionIndex,
    pub(crate) subs: SubTables,
    pub(crate) cells: ByteCells<'a, W>,
    pub(crate) layout: Layout,
    /// The values each block of slots may hold: filled by `sweep::sweep` or,
    /// on resuming, by `sweep::count`.
    pub(crate) present: Presence,
    /// Slots the levels' scans read, and slots they would read without
    /// [`Presence`] (for the solve's statistics).
    pub(crate) scanned: [AtomicU64; 2],
}

/// Positions per decided code (`layout.undecided` of them): how many wait
/// at each level (exact, so that empty levels are not scanned).
pub(crate) type Counts = Vec<i64>;

/// Slots a thread scans or sweeps at a time (a whole number of words).
pub(crate) const CHUNK: usize = 1 << 16;

/// No position at any decided code, for `ctx`'s layout.
pub(crate) fn zero<const W: usize>(ctx: &ByteCtx<W>) -> Counts {
    vec![0; ctx.layout.undecided as usize]
}

pub(crate) fn add(mut total: Counts, part: Counts) -> Counts {
    for (t, p) in total.iter_mut().zip(part) {
        *t += p;
    }
    total
}

/// The slot ranges of `n` slots a thread takes at a time.
pub(crate) fn chunks(n: usize) -> impl IndexedParallelIterator<Item = std::ops::Range<usize>> {
    (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(move |c| c * CHUNK..((c + 1) * CHUNK).min(n))
}

/// Words of a bitmap with a bit for each chunk of `n` slots.
pub(crate) fn chunk_words(n: u64) -> usize {
    n.div_ceil(CHUNK as u64).div_ceil(64) as usize
}

/// True if chunk `c`'s bit is set in `done` (a bitmap of [`chunk_words`]).
pub(crate) fn chunk_done(done: &[AtomicU64], c: usize) -> bool {
    done[c / 64].load(Relaxed) >> (c % 64) & 1 != 0
}

/// Sets chunk `c`'s bit in `done`.
pub(crate) fn mark_chunk(done: &[AtomicU64], c: usize) {
    done[c / 64].fetch_or(1 << (c % 64), Relaxed);
}
