//! Which level codes each block of slots may hold, so that a level's scan
//! of a one-byte solve skips the blocks that hold none of its positions.
//!
//! A level's positions are found by scanning every byte for its code
//! (`levels.rs`). The late levels of a 6-piece material hold few
//! positions each, yet each was a scan of all 5-17 GB of bytes. Here every
//! block of [`BLOCK`] slots keeps a bit per byte value, set whenever a byte
//! of the block is written with that value (by the sweep, by a level, or
//! when the counts are taken again on resuming), never cleared: a clear
//! bit means no byte of the block holds the value, so the scan passes the
//! block by. At 32 bytes a block that is 1/128 byte a slot.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Slots of a block (a whole number of 64-bit words of bytes, and a divisor
/// of the solve's chunks).
pub(crate) const BLOCK: usize = 1 << 12;

/// Bits of 64-bit words a block keeps: one per byte value (a two-byte
/// code marks the bit of its low byte, which may let a scan read a block
/// it could pass by, never pass one it must read).
const WORDS: usize = 256 / 64;

/// The values each block of slots may hold (see the module's text).
pub(crate) struct Presence(Vec<AtomicU64>);

impl Presence {
    /// Nothing marked, for a material of `slots` slots.
    pub(crate) fn new(slots: u64) -> Presence {
        let blocks = slots.div_ceil(BLOCK as u64) as usize;
        Presence((0..blocks * WORDS).map(|_| AtomicU64::new(0)).collect())
    }

    /// Slot `i`'s byte has been written as `code`.
    #[inline(always)]
    pub(crate) fn mark(&self, i: u64, code: u16) {
        let code = code as u8;
        let word = &self.0[i as usize / BLOCK * WORDS + (code as usize >> 6)];
        let bit = 1u64 << (code & 63);
        // Mostly set already: a load is cheaper than a locked write.
        if word.load(Relaxed) & bit == 0 {
            word.fetch_or(bit, Relaxed);
        }
    }

    /// False if no byte of block `block` holds `code`.
    #[inline]
    pub(crate) fn may_hold(&self, block: usize, code: u16) -> bool {
        let code = code as u8;
        self.0[block * WORDS + (code as usize >> 6)].load(Relaxed) & (1u64 << (code & 63)) != 0
    }
}
