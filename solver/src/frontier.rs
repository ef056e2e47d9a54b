//! The set of positions decided at one level, as a bitmap over index slots.
//!
//! Why a bitmap rather than a list: the propagation visits every position
//! decided at a level, and what it costs is memory traffic. Taken from a
//! list in the order they were found, those positions lie at random slots,
//! so each visit starts with a cache miss on the position's cell and its
//! predecessors are scattered too. Taken from a bitmap in slot order, the
//! cells are read in increasing order (the hardware prefetcher follows), and
//! the un-moves of the fastest-varying piece land close to the slot just
//! read. A bitmap also holds each position once, however often it was
//! reached, and costs one bit per slot (the cells cost 32).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A set of index slots, insertable from many threads at once.
pub(crate) struct Frontier {
    words: Vec<AtomicU64>,
}

impl Frontier {
    /// An empty set over `slots` slots.
    pub(crate) fn new(slots: usize) -> Frontier {
        Frontier {
            words: (0..slots.div_ceil(64)).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Adds slot `i`.
    #[inline]
    pub(crate) fn insert(&self, i: u32) {
        let bit = 1u64 << (i % 64);
        let word = &self.words[i as usize / 64];
        // Most slots are inserted once: test first, so that a slot already
        // present costs a read, not a locked write.
        if word.load(Relaxed) & bit == 0 {
            word.fetch_or(bit, Relaxed);
        }
    }

    /// Number of words (64 slots each).
    pub(crate) fn word_count(&self) -> usize {
        self.words.len()
    }

    /// Takes the slots of words `range` out of the set, calling `f` with each
    /// in increasing order. Each word must be taken by one caller at a time,
    /// and nobody may insert into the set meanwhile.
    #[inline]
    pub(crate) fn drain_words(&self, range: std::ops::Range<usize>, mut f: impl FnMut(u32)) {
        for w in range {
            let mut bits = self.words[w].load(Relaxed);
            if bits == 0 {
                continue;
            }
            self.words[w].store(0, Relaxed);
            while bits != 0 {
                f((w * 64) as u32 + bits.trailing_zeros());
                bits &= bits - 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drains_what_was_inserted_in_order_once() {
        let f = Frontier::new(200);
        for i in [199, 3, 64, 63, 3, 128] {
            f.insert(i);
        }
        let mut out = Vec::new();
        f.drain_words(0..f.word_count(), |i| out.push(i));
        assert_eq!(out, [3, 63, 64, 128, 199]);
        let mut again = Vec::new();
        f.drain_words(0..f.word_count(), |i| again.push(i));
        assert!(again.is_empty());
    }
}
