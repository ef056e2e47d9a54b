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
//! reached, and costs one bit per slot (the cells cost 16).

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
    pub(crate) fn insert(&self, i: u64) {
        let bit = 1u64 << (i % 64);
        let word = &self.words[i as usize / 64];
        // Most slots are inserted once: test first, so that a slot already
        // present costs a read, not a locked write.
        if word.load(Relaxed) & bit == 0 {
            word.fetch_or(bit, Relaxed);
        }
    }

    /// Takes the slots of `range` out of the set, calling `f` with each in
    /// increasing order. Ranges taken at the same time must not overlap,
    /// and nobody may insert into the set meanwhile. Only the words at the
    /// range's ends can be shared with another range: their bits are
    /// cleared with a locked instruction, the words between with a plain
    /// store (the loop every level runs over the whole bitmap).
    #[inline]
    pub(crate) fn drain(&self, range: std::ops::Range<u64>, mut f: impl FnMut(u64)) {
        if range.start >= range.end {
            return;
        }
        let (first, last) = (range.start / 64, (range.end - 1) / 64);
        let low = u64::MAX << (range.start % 64);
        let high = u64::MAX >> (63 - (range.end - 1) % 64);
        if first == last {
            self.drain_part(first, low & high, &mut f);
            return;
        }
        self.drain_part(first, low, &mut f);
        for w in first + 1..last {
            let word = &self.words[w as usize];
            let bits = word.load(Relaxed);
            if bits != 0 {
                word.store(0, Relaxed);
                each_bit(w, bits, &mut f);
            }
        }
        self.drain_part(last, high, &mut f);
    }

    /// Takes the slots of word `w` under `mask` (the rest of the word may
    /// belong to a range another thread takes at the same time).
    #[inline]
    fn drain_part(&self, w: u64, mask: u64, f: &mut impl FnMut(u64)) {
        let word = &self.words[w as usize];
        if word.load(Relaxed) & mask != 0 {
            each_bit(w, word.fetch_and(!mask, Relaxed) & mask, f);
        }
    }
}

impl Frontier {
    /// Writes the set's words (for a checkpoint; nobody may insert
    /// meanwhile).
    pub(crate) fn write_to<W: std::io::Write + ?Sized>(&self, w: &mut W) -> std::io::Result<()> {
        for chunk in self.words.chunks(1 << 13) {
            let bytes: Vec<u8> = chunk
                .iter()
                .flat_map(|x| x.load(Relaxed).to_le_bytes())
                .collect();
            w.write_all(&bytes)?;
        }
        Ok(())
    }

    /// A set over `slots` slots read back from what [`Frontier::write_to`]
    /// wrote.
    pub(crate) fn read_from<R: std::io::Read + ?Sized>(
        r: &mut R,
        slots: usize,
    ) -> std::io::Result<Frontier> {
        let f = Frontier::new(slots);
        let mut buf = vec![0u8; 8 << 13];
        for chunk in f.words.chunks(1 << 13) {
            let bytes = &mut buf[..8 * chunk.len()];
            r.read_exact(bytes)?;
            for (x, b) in chunk.iter().zip(bytes.chunks_exact(8)) {
                x.store(u64::from_le_bytes(b.try_into().expect("8 bytes")), Relaxed);
            }
        }
        Ok(f)
    }
}

/// Calls `f` with the slot of every set bit of word `w`'s `bits`, in order.
#[inline]
fn each_bit(w: u64, mut bits: u64, f: &mut impl FnMut(u64)) {
    while bits != 0 {
        f(w * 64 + bits.trailing_zeros() as u64);
        bits &= bits - 1;
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
        f.drain(0..200, |i| out.push(i));
        assert_eq!(out, [3, 63, 64, 128, 199]);
        let mut again = Vec::new();
        f.drain(0..200, |i| again.push(i));
        assert!(again.is_empty());
    }

    /// Ranges that split words take exactly their own slots.
    #[test]
    fn drains_ranges_that_split_words() {
        let f = Frontier::new(300);
        let all: Vec<u64> = (0..300).filter(|i| i % 3 != 1).collect();
        for &i in &all {
            f.insert(i);
        }
        let mut out = Vec::new();
        for range in [0..5u64, 5..64, 64..70, 70..70, 70..191, 191..192, 192..300] {
            let before = out.len();
            f.drain(range.clone(), |i| out.push(i));
            assert!(out[before..].iter().all(|&i| range.contains(&i)));
        }
        assert_eq!(out, all);
    }
}
