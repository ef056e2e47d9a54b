//! The state of a one-byte solve (`byte_solve.rs`): the bytes, and what
//! its passes share.

use crate::byte_codes::Layout;
use crate::byte_presence::Presence;
use crate::subtables::SubTables;
use jungletb_indexer::PositionIndex;
use jungletb_rules::{MoveTables, Ruleset};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// One byte a slot, in atomic 64-bit words.
#[derive(Clone, Copy)]
pub(crate) struct ByteCells<'a>(pub(crate) &'a [AtomicU64]);

impl ByteCells<'_> {
    /// The byte of slot `i`.
    #[inline(always)]
    pub(crate) fn get(self, i: u64) -> u8 {
        (self.0[(i / 8) as usize].load(Relaxed) >> (i % 8 * 8)) as u8
    }

    /// Replaces the byte `b` of slot `i` by `f(b)` unless that is `None`.
    /// The byte replaced, if it was.
    /// `SHARED`: by compare-and-swap of the word, as other threads may
    /// write other bytes of it; otherwise (a lone thread) by a plain load
    /// and store.
    #[inline(always)]
    pub(crate) fn update_as<const SHARED: bool>(
        self,
        i: u64,
        f: impl Fn(u8) -> Option<u8>,
    ) -> Option<u8> {
        let word = &self.0[(i / 8) as usize];
        let shift = i % 8 * 8;
        let mut cur = word.load(Relaxed);
        if !SHARED {
            let old = (cur >> shift) as u8;
            let new = f(old)?;
            word.store(cur & !(0xff << shift) | (new as u64) << shift, Relaxed);
            return Some(old);
        }
        loop {
            let old = (cur >> shift) as u8;
            let new = f(old)?;
            let next = cur & !(0xff << shift) | (new as u64) << shift;
            match word.compare_exchange_weak(cur, next, Relaxed, Relaxed) {
                Ok(_) => return Some(old),
                Err(now) => cur = now,
            }
        }
    }
}

/// What the passes of a byte solve share.
pub(crate) struct ByteCtx<'a> {
    pub(crate) rules: &'a Ruleset,
    pub(crate) tables: MoveTables,
    pub(crate) index: &'a PositionIndex,
    pub(crate) subs: SubTables,
    pub(crate) cells: ByteCells<'a>,
    pub(crate) layout: Layout,
    /// The values each block of slots may hold: filled by `byte_solve::sweep` or,
    /// on resuming, by `byte_solve::count`.
    pub(crate) present: Presence,
    /// Slots the levels' scans read, and slots they would read without
    /// [`Presence`] (for the solve's statistics).
    pub(crate) scanned: [AtomicU64; 2],
    /// True if one thread runs the levels: bytes are updated by plain
    /// loads and stores (measured 4 % less propagation on ELTvET).
    pub(crate) alone: bool,
}

/// Positions per byte value: how many wait at each level (exact, so that
/// empty levels are not scanned).
pub(crate) type Counts = [i64; 256];
