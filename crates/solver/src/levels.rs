//! Positions decided ahead of their level: the lists the level loop takes
//! its seeds from beyond the two frontiers.
//!
//! The forward sweep decides many positions for later levels (a win
//! through a capture into a lost smaller table, at that table's distance
//! plus one; a loss held back by a floor): on 5-piece materials about a
//! quarter of the slots. Kept as `(level, slot)` pairs of 16 bytes they
//! were the largest part of a solve's memory after the cells (ELTvEL:
//! about 0.85 GB beside 0.47 GB of cells), and a 6-piece material would
//! need some 19 GB of them. The sweep finds them in increasing slot order
//! within each level, so each level's list is kept as the differences
//! between successive slots in LEB128 (7 bits a byte, the high bit saying
//! another byte follows): 1-2 bytes a position at the densities seen.
//! The propagation's few later losses come in any order and stay plain.

use std::collections::BTreeMap;

/// Slots by the level they are decided at.
#[derive(Debug, Default)]
pub(crate) struct LevelLists {
    sorted: BTreeMap<u16, SortedList>,
    unsorted: BTreeMap<u16, Vec<u64>>,
}

impl LevelLists {
    /// Adds `slot` to `level`'s list; for each level, the slots given here
    /// must increase (the sweep's order).
    pub(crate) fn push_sorted(&mut self, level: u16, slot: u64) {
        self.sorted.entry(level).or_default().push(slot);
    }

    /// Adds `slot` to `level`'s list, in any order.
    pub(crate) fn push(&mut self, level: u16, slot: u64) {
        self.unsorted.entry(level).or_default().push(slot);
    }

    /// The lowest level with a list, if any.
    pub(crate) fn first_level(&self) -> Option<u16> {
        let a = self.sorted.keys().next().copied();
        let b = self.unsorted.keys().next().copied();
        match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Takes `level`'s slots out, calling `f` with each (the sorted ones
    /// first, in increasing order). Returns how many there were.
    pub(crate) fn take(&mut self, level: u16, mut f: impl FnMut(u64)) -> u64 {
        let mut n = 0;
        if let Some(list) = self.sorted.remove(&level) {
            n += list.len;
            list.for_each(&mut f);
        }
        if let Some(list) = self.unsorted.remove(&level) {
            n += list.len() as u64;
            list.into_iter().for_each(f);
        }
        n
    }

    /// Writes the lists (for a checkpoint): per kind, the number of
    /// levels, then per level its number, and for a sorted list its next
    /// slot, length and LEB128 bytes, for an unsorted one its slots.
    pub(crate) fn write_to<W: std::io::Write + ?Sized>(&self, w: &mut W) -> std::io::Result<()> {
        w.write_all(&(self.sorted.len() as u64).to_le_bytes())?;
        for (level, list) in &self.sorted {
            w.write_all(&level.to_le_bytes())?;
            w.write_all(&list.next.to_le_bytes())?;
            w.write_all(&list.len.to_le_bytes())?;
            let bytes: u64 = list.blocks.iter().map(|b| b.len() as u64).sum();
            w.write_all(&bytes.to_le_bytes())?;
            for b in &list.blocks {
                w.write_all(b)?;
            }
        }
        w.write_all(&(self.unsorted.len() as u64).to_le_bytes())?;
        for (level, list) in &self.unsorted {
            w.write_all(&level.to_le_bytes())?;
            w.write_all(&(list.len() as u64).to_le_bytes())?;
            let bytes: Vec<u8> = list.iter().flat_map(|s| s.to_le_bytes()).collect();
            w.write_all(&bytes)?;
        }
        Ok(())
    }

    /// Lists read back from what [`LevelLists::write_to`] wrote. Lengths
    /// are trusted only as far as the bytes go (a damaged one ends the
    /// input early; the caller's checksum refuses the rest).
    pub(crate) fn read_from<R: std::io::Read + ?Sized>(r: &mut R) -> std::io::Result<LevelLists> {
        use crate::le::{u16_of, u64_of};
        let mut lists = LevelLists::default();
        for _ in 0..u64_of(r)? {
            let level = u16_of(r)?;
            let (next, len, bytes) = (u64_of(r)?, u64_of(r)?, u64_of(r)?);
            let mut blocks = Vec::new();
            let mut left = bytes;
            while left > 0 {
                let n = left.min(MAX_BLOCK as u64);
                blocks.push(read_up_to(r, n)?);
                left -= n;
            }
            lists.sorted.insert(level, SortedList { blocks, next, len });
        }
        for _ in 0..u64_of(r)? {
            let level = u16_of(r)?;
            let n = u64_of(r)?;
            let bytes = read_up_to(r, n.saturating_mul(8))?;
            let slots = bytes
                .chunks_exact(8)
                .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
                .collect();
            lists.unsorted.insert(level, slots);
        }
        Ok(lists)
    }

    /// Bytes the lists hold (their capacity).
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        let blocks = self.sorted.values().flat_map(|l| &l.blocks);
        blocks.map(|b| b.capacity()).sum::<usize>()
            + self
                .unsorted
                .values()
                .map(|l| l.capacity() * 8)
                .sum::<usize>()
    }
}

/// `n` bytes of `r` (an error if it has fewer), read as they come: a
/// damaged length runs out of input instead of allocating it.
fn read_up_to<R: std::io::Read + ?Sized>(r: &mut R, n: u64) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    std::io::Read::read_to_end(&mut std::io::Read::take(&mut *r, n), &mut out)?;
    if (out.len() as u64) < n {
        return Err(std::io::ErrorKind::UnexpectedEof.into());
    }
    Ok(out)
}

/// An increasing list of slots as LEB128 differences, in blocks that grow
/// to [`MAX_BLOCK`] bytes (a single `Vec` doubling its capacity would hold
/// up to twice the bytes at the peak).
#[derive(Debug, Default)]
struct SortedList {
    blocks: Vec<Vec<u8>>,
    /// The last slot pushed plus one (0 before any).
    next: u64,
    len: u64,
}

/// The largest block of a [`SortedList`].
const MAX_BLOCK: usize = 1 << 20;

impl SortedList {
    fn push(&mut self, slot: u64) {
        assert!(slot >= self.next, "slots of a level pushed out of order");
        let mut delta = slot - self.next;
        while delta >= 0x80 {
            self.byte(delta as u8 | 0x80);
            delta >>= 7;
        }
        self.byte(delta as u8);
        self.next = slot + 1;
        self.len += 1;
    }

    #[inline]
    fn byte(&mut self, b: u8) {
        match self.blocks.last_mut() {
            Some(block) if block.len() < block.capacity() => block.push(b),
            last => {
                let size = last.map_or(256, |l| (2 * l.capacity()).min(MAX_BLOCK));
                let mut block = Vec::with_capacity(size);
                block.push(b);
                self.blocks.push(block);
            }
        }
    }

    fn for_each(&self, mut f: impl FnMut(u64)) {
        let (mut next, mut delta, mut shift) = (0u64, 0u64, 0u32);
        for &b in self.blocks.iter().flatten() {
            delta |= ((b & 0x7F) as u64) << shift;
            if b & 0x80 != 0 {
                shift += 7;
                continue;
            }
            let slot = next + delta;
            f(slot);
            (next, delta, shift) = (slot + 1, 0, 0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Slots of every size (0, neighbours, gaps beyond 2^7, 2^14, 2^32 and
    /// up to 2^62) come back in order, level by level, the unsorted
    /// ones after the sorted ones of their level.
    #[test]
    fn lists_give_back_what_was_pushed_level_by_level() {
        let mut lists = LevelLists::default();
        let mut expect: BTreeMap<u16, Vec<u64>> = BTreeMap::new();
        let mut slot = 0u64;
        for k in 0..10_000u64 {
            let level = (k % 7) as u16 + 2;
            slot += [0, 1, 127, 128, 16_383, 16_384, 1 << 32, 3][(k % 8) as usize];
            lists.push_sorted(level, slot);
            expect.entry(level).or_default().push(slot);
            slot += 1;
        }
        lists.push_sorted(9, (1 << 62) - 1);
        lists.push_sorted(9, 1 << 62);
        expect
            .entry(9)
            .or_default()
            .extend([(1 << 62) - 1, 1 << 62]);
        for (level, s) in [(3, 5u64), (3, 1), (40, 7)] {
            lists.push(level, s);
            expect.entry(level).or_default().push(s);
        }
        assert_eq!(lists.first_level(), Some(2));
        for (level, slots) in expect {
            let mut got = Vec::new();
            assert_eq!(lists.take(level, |s| got.push(s)), slots.len() as u64);
            assert_eq!(got, slots, "level {level}");
        }
        assert_eq!(lists.first_level(), None);
    }

    /// Dense lists cost about a byte a slot (with the blocks' slack), not
    /// the 16 of a pair.
    #[test]
    fn dense_lists_take_about_a_byte_a_slot() {
        let mut lists = LevelLists::default();
        for slot in (0..40_000_000u64).step_by(4) {
            lists.push_sorted((slot % 3) as u16, slot);
        }
        // One byte each (differences of 11), and at most a block's slack
        // per level.
        assert!(
            lists.bytes() <= 10_000_000 + 3 * MAX_BLOCK,
            "{} bytes",
            lists.bytes()
        );
    }
}
