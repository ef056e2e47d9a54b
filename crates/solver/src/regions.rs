//! One level of the propagation by regions: predecessor updates gathered in
//! buckets, one per region of the index, and applied region by region.
//!
//! Why: the direct path (`propagate.rs`) applies each update as it is
//! found, at a random slot of the whole cell array. Once the cells outgrow
//! the caches (a 6-piece material has 10 GB of them) nearly every update
//! waits for memory and for a page walk. Measured on this machine with
//! random 16-bit read-modify-writes, 64 prefetched at a time (the study
//! `update_locality` in `crates/studies`): 14 ns each in 0.5 GB, 30 ns in
//! 10 GB, but 8-11 ns when they stay inside regions of 2^20-2^24 slots
//! (2-32 MB) of the same 10 GB, and 19 ns with the bucketing below
//! included; a locked compare-and-swap instead of a plain store costs
//! 20 % more again. So here a level runs
//! in rounds: the threads expand frontier chunks, each sorting its updates
//! into its own bucket per region (a 4-byte entry: the offset in the region
//! and the decrement), until the round's buckets are full; then each region
//! is applied by one thread, all threads' buckets for it in turn. A region
//! belongs to one thread while it is applied, so every update is a plain
//! load and store on any number of threads, also in materials with only
//! White to move in the index (where the direct path must lock on two
//! threads, see `schedule.rs`).
//!
//! Updates commute within a level, and expanding a position reads only its
//! own cell, decided at this level, which no update of the level changes
//! (a decided cell is never counted down, and a win or loss at level `d`
//! is never improved to a win at `d + 1`): so applying a round's updates
//! after its expansion decides exactly what the direct path decides, and
//! the tables are byte-identical (tested on every fixture material, and
//! with regions small enough to be many on the smallest ones).

use crate::context::Ctx;
use crate::frontier::Frontier;
use crate::propagate::{drain_ahead, expand_for, prefetch, update_alone, LevelOutcome, Updates};
use crate::schedule::CHUNK;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

/// How a solve applies the predecessor updates of a level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Propagation {
    /// By the material's size: [`Propagation::Regions`] of
    /// 2^[`REGION_BITS`] slots once a material has
    /// [`REGIONS_FROM_SLOTS`] slots, [`Propagation::Direct`] below. On many
    /// threads the regions grow, so that the threads' open blocks (a block
    /// and a staging line a region and thread) take at most 1/16 byte a
    /// slot: 2^20 up to 7 threads, 2^21 on 8, 2^24 on 64, for every
    /// 6-piece material.
    #[default]
    Auto,
    /// Each update applied as it is found (in prefetched batches).
    Direct,
    /// Updates gathered in buckets by regions of 2^`bits` slots (6 to 30)
    /// and applied region by region.
    Regions {
        /// The log2 of a region's slots.
        bits: u32,
    },
    /// One byte a slot, holding a value or a count of undecided
    /// successors, and no frontiers: each level scans the bytes for its
    /// positions (see `byte_solve.rs`). A material whose distances do not
    /// fit a byte beside the counts (172 plies) is solved as
    /// [`Propagation::Auto`] would.
    ByteCells,
}

/// The log2 of the slots of a region under [`Propagation::Auto`] (2 MB of
/// cells). Measured inside one ELTvELT solve on 2 threads, the region bits
/// alternating by pairs of levels (so that each setting expands both wins
/// and losses, under the same neighbours; `docs/lab/2026-12-01-six-pieces.md`):
/// over levels 1-30, regions of 2^20 expanded an update in 19-26 ns where
/// 2^22 took 28-39 and 2^18 21-30, and in another run, over levels 1-21,
/// 2^22 took 16-21 where 2^24 took 24-33. The apply (3-6 ns) hardly
/// changed. The study `update_locality`, whose slots are uniformly random
/// on one thread, had put the optimum between 2 and 32 MB and chosen 8 MB
/// (2^22) before.
pub const REGION_BITS: u32 = 20;
/// Materials from this many slots on propagate by regions under
/// [`Propagation::Auto`]: every 6-piece material (5.1 × 10^9 slots and
/// more), no 5-piece one (at most 3.7 × 10^8). Below, the cells mostly fit
/// this machine's caches and the direct path is faster: ELTvEL (0.47 GB of
/// cells, 2 threads, interleaved) propagated in 27.6 / 25.8 s direct and
/// 38.5 s by regions.
pub const REGIONS_FROM_SLOTS: u64 = 1 << 30;

impl Propagation {
    /// The region bits for a material of `slots` slots solved on `threads`
    /// threads, `None` for the direct path.
    pub(crate) fn region_bits(self, slots: u64, threads: usize) -> Option<u32> {
        match self {
            Propagation::Auto => (slots >= REGIONS_FROM_SLOTS).then(|| {
                (REGION_BITS..30)
                    .find(|&bits| open_block_bytes(slots, bits, threads) <= slots / 16)
                    .unwrap_or(30)
            }),
            Propagation::Direct | Propagation::ByteCells => None,
            Propagation::Regions { bits } => Some(bits.clamp(6, 30)),
        }
    }
}

/// Entries of a cache line of a bucket.
const LINE: usize = 16;
/// Lines in a block of a bucket (4 KiB). Each thread holds a partly
/// filled block per region, so the block is small (and on many threads
/// [`Propagation::Auto`] makes the regions larger, see there).
const BLOCK_LINES: usize = 64;

/// The most memory the buckets of `threads` threads hold beyond a round's
/// entries, for `slots` slots in regions of 2^`bits`: on each thread and
/// for each region an open block, its share of the round's last full
/// blocks (counted as a second block) and a staging line.
fn open_block_bytes(slots: u64, bits: u32, threads: usize) -> u64 {
    let regions = slots.div_ceil(1 << bits).max(1);
    let per_region = 2 * BLOCK_LINES * std::mem::size_of::<Line>() + std::mem::size_of::<Line>();
    threads.max(1) as u64 * regions * per_region as u64
}

/// A cache line of bucket entries, `offset << 2 | decrement`.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Line([u32; LINE]);

/// A run of lines seen as their entries.
fn entries(lines: &[Line]) -> &[u32] {
    // SAFETY: `Line` is `repr(C)`, 64 bytes of 16 `u32` with no padding
    // (its size equals its alignment), so `n` lines are `16 n` entries,
    // aligned for `u32`, borrowed as long as the lines.
    unsafe { std::slice::from_raw_parts(lines.as_ptr().cast::<u32>(), lines.len() * LINE) }
}

/// One thread's updates of a round, a bucket per region. Each region's
/// entries first gather in a staging line; a full line is copied to the
/// region's open block by non-temporal stores, which do not read the
/// destination line first (a block line written entry by entry is read
/// from memory before its first entry lands). Measured with the study
/// `update_locality` (10 GB, regions of 2^22, rounds of 2^26): scatter 9.6
/// -> 7.2 ns an update, apply 12.9 -> 10.6. A bucket is a list of blocks
/// of [`BLOCK_LINES`] lines drawn from the thread's pool and returned to
/// it after the round, so the memory held is what one round needs (a `Vec`
/// per bucket kept its largest size from every round: on ELTvEL 0.9 GB
/// beside 0.47 GB of cells).
struct Buckets {
    bits: u32,
    /// Each region's staging line and how many of its entries are set.
    stage: Vec<Line>,
    fill: Vec<u8>,
    /// The block each region's full lines are copied to (never more than
    /// [`BLOCK_LINES`]; no capacity before the region's first line).
    open: Vec<Vec<Line>>,
    /// Each region's full blocks.
    full: Vec<Vec<Vec<Line>>>,
    /// Empty blocks.
    pool: Vec<Vec<Line>>,
    len: usize,
}

impl Buckets {
    fn new(bits: u32, regions: usize) -> Buckets {
        Buckets {
            bits,
            stage: vec![Line([0; LINE]); regions],
            fill: vec![0; regions],
            open: (0..regions).map(|_| Vec::new()).collect(),
            full: (0..regions).map(|_| Vec::new()).collect(),
            pool: Vec::new(),
            len: 0,
        }
    }

    /// The entries of region `r`, block by block, then the staged ones.
    fn region(&self, r: usize) -> impl Iterator<Item = &[u32]> {
        self.full[r]
            .iter()
            .chain([&self.open[r]])
            .map(|b| entries(b))
            .chain([&self.stage[r].0[..self.fill[r] as usize]])
    }

    /// Copies region `r`'s full staging line to its open block.
    #[inline(always)]
    fn flush(&mut self, r: usize) {
        let open = &mut self.open[r];
        if open.capacity() == 0 {
            *open = self
                .pool
                .pop()
                .unwrap_or_else(|| Vec::with_capacity(BLOCK_LINES));
        }
        stream_line(open, &self.stage[r]);
        if open.len() == BLOCK_LINES {
            let fresh = self
                .pool
                .pop()
                .unwrap_or_else(|| Vec::with_capacity(BLOCK_LINES));
            self.full[r].push(std::mem::replace(open, fresh));
        }
    }

    /// Makes the lines copied by non-temporal stores visible to the other
    /// threads before they apply them (such stores are not ordered by the
    /// synchronisation that ends the expansion).
    fn publish(&self) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a store fence has no preconditions.
        unsafe {
            std::arch::x86_64::_mm_sfence()
        };
    }

    /// Empties every bucket, keeping the blocks in the pool.
    fn clear(&mut self) {
        for blocks in &mut self.full {
            for mut b in blocks.drain(..) {
                b.clear();
                self.pool.push(b);
            }
        }
        self.open.iter_mut().for_each(Vec::clear);
        self.fill.iter_mut().for_each(|f| *f = 0);
        self.len = 0;
    }
}

/// Appends `line` to `block` (which has room) by non-temporal stores.
#[inline(always)]
fn stream_line(block: &mut Vec<Line>, line: &Line) {
    debug_assert!(block.len() < block.capacity());
    let dst = block.spare_capacity_mut()[0].as_mut_ptr();
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `dst` is a line of the block's spare capacity, 64-byte
    // aligned (the alignment of `Line`) and writable; the four 16-byte
    // stores cover it whole, so it is initialised before the length grows.
    unsafe {
        use std::arch::x86_64::{__m128i, _mm_load_si128, _mm_stream_si128};
        let src = line.0.as_ptr().cast::<__m128i>();
        let dst = dst.cast::<__m128i>();
        for k in 0..4 {
            _mm_stream_si128(dst.add(k), _mm_load_si128(src.add(k)));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    // SAFETY: as above, by one plain copy.
    unsafe {
        dst.write(*line)
    };
    // SAFETY: the line at the old length was just written whole.
    unsafe { block.set_len(block.len() + 1) };
}

impl Updates for Buckets {
    #[inline(always)]
    fn push(&mut self, _ctx: &Ctx, slot: u64, decrement: u8) {
        let r = (slot >> self.bits) as usize;
        let offset = slot & ((1 << self.bits) - 1);
        let f = self.fill[r] as usize;
        self.stage[r].0[f % LINE] = (offset as u32) << 2 | decrement as u32;
        if f + 1 == LINE {
            self.flush(r);
            self.fill[r] = 0;
        } else {
            self.fill[r] = f as u8 + 1;
        }
        self.len += 1;
    }
}

/// The propagation of a solve by regions: the buckets of every thread,
/// kept from round to round and level to level.
pub(crate) struct ByRegions {
    bits: u32,
    regions: usize,
    threads: Vec<Buckets>,
    /// Updates one thread gathers in a round before the round is applied.
    quota: usize,
}

/// Updates of a round, all threads together: at most 2^26 (256 MB of
/// entries), at most one for 32 slots (1/8 byte a slot).
fn round_updates(slots: u64) -> usize {
    (slots / 32).clamp(1 << 16, 1 << 26) as usize
}

/// The most memory the buckets of a solve of `slots` slots by regions of
/// 2^`bits` on `threads` threads hold: a round's entries, and on each
/// thread a staging line and a partly filled block per region (plus the
/// round's full blocks rounded up to whole blocks: one per region and
/// thread at most, counted as the open block twice).
pub(crate) fn bucket_bytes(slots: u64, bits: u32, threads: usize) -> u64 {
    round_updates(slots) as u64 * 4 + open_block_bytes(slots, bits, threads)
}

impl ByRegions {
    /// The buckets for `slots` slots in regions of 2^`bits`, on `threads`
    /// threads.
    pub(crate) fn new(slots: u64, bits: u32, threads: usize) -> ByRegions {
        let regions = slots.div_ceil(1 << bits).max(1) as usize;
        let threads = threads.max(1);
        ByRegions {
            bits,
            regions,
            threads: (0..threads).map(|_| Buckets::new(bits, regions)).collect(),
            quota: round_updates(slots) / threads,
        }
    }

    /// Expands every position of `current` (all decided at level `d`),
    /// deciding what they decide: new decisions for level `d + 1` go to
    /// `next`. Returns what each region task decided.
    pub(crate) fn level(
        &mut self,
        ctx: &Ctx,
        d: u16,
        current: &Frontier,
        next: &Frontier,
    ) -> Vec<LevelOutcome> {
        let slots = ctx.cells.len() as u64;
        let chunks = slots.div_ceil(CHUNK);
        let cursor = AtomicU64::new(0);
        let expand = expand_for::<Buckets>(ctx.index);
        let quota = self.quota;
        let mut outcomes = Vec::new();
        loop {
            // Expand until each thread's buckets hold its quota, or the
            // frontier is done.
            self.threads
                .par_iter_mut()
                .with_max_len(1)
                .for_each(|buckets| {
                    while buckets.len < quota {
                        let c = cursor.fetch_add(1, Ordering::Relaxed);
                        if c >= chunks {
                            break;
                        }
                        let range = c * CHUNK..((c + 1) * CHUNK).min(slots);
                        drain_ahead(ctx, current, range, |p| expand(ctx, d, p, buckets));
                    }
                    buckets.publish();
                });
            // Apply, each region on one thread.
            let threads = &self.threads;
            let bits = self.bits;
            let round: Vec<LevelOutcome> = (0..self.regions)
                .into_par_iter()
                .fold(LevelOutcome::default, |mut out, r| {
                    let base = (r as u64) << bits;
                    for block in threads.iter().flat_map(|b| b.region(r)) {
                        apply(ctx, d, base, block, next, &mut out);
                    }
                    out
                })
                .collect();
            outcomes.extend(round);
            self.threads.iter_mut().for_each(Buckets::clear);
            if cursor.load(Ordering::Relaxed) >= chunks {
                return outcomes;
            }
        }
    }
}

/// Cells prefetched ahead of their update while a bucket is applied.
const APPLY_AHEAD: usize = 16;

/// Applies the updates of level `d` in `entries`, a bucket of the region
/// starting at slot `base`, owned by the calling thread meanwhile.
#[inline]
fn apply(ctx: &Ctx, d: u16, base: u64, entries: &[u32], next: &Frontier, out: &mut LevelOutcome) {
    for (k, &e) in entries.iter().enumerate() {
        if let Some(&ahead) = entries.get(k + APPLY_AHEAD) {
            prefetch(&ctx.cells[(base + (ahead >> 2) as u64) as usize]);
        }
        let p = base + (e >> 2) as u64;
        update_alone(&ctx.cells[p as usize], p, (e & 3) as u8, d, next, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_propagates_by_regions_from_its_threshold_on() {
        assert_eq!(
            Propagation::Auto.region_bits(REGIONS_FROM_SLOTS - 1, 2),
            None
        );
        assert_eq!(
            Propagation::Auto.region_bits(REGIONS_FROM_SLOTS, 2),
            Some(REGION_BITS)
        );
        assert_eq!(Propagation::Direct.region_bits(u64::MAX, 2), None);
        assert_eq!(Propagation::Regions { bits: 2 }.region_bits(10, 2), Some(6));
        assert_eq!(
            Propagation::Regions { bits: 40 }.region_bits(10, 2),
            Some(30)
        );
    }

    #[test]
    fn on_many_threads_the_regions_grow_to_keep_the_open_blocks_within_a_16th_of_a_byte() {
        let eltvelt = 5_124_069_720u64;
        let largest = 16_500_000_000u64;
        for (slots, threads, bits) in [
            (eltvelt, 1, 20),
            (eltvelt, 2, 20),
            (eltvelt, 7, 20),
            (eltvelt, 8, 21),
            (eltvelt, 64, 24),
            (largest, 2, 20),
            (largest, 7, 20),
            (largest, 8, 21),
            (largest, 64, 24),
        ] {
            let got = Propagation::Auto.region_bits(slots, threads).unwrap();
            assert_eq!(got, bits, "{slots} slots on {threads} threads");
            let open = open_block_bytes(slots, got, threads);
            assert!(open <= slots / 16, "{open} bytes of open blocks");
            assert!(open_block_bytes(slots, got - 1, threads) > slots / 16 || got == REGION_BITS);
        }
    }

    #[test]
    fn the_buckets_of_a_6_piece_solve_stay_near_the_rounds_entries() {
        // ELTvELT, 4,887 regions of 2^20: 256 MB of entries and 8 KiB and a
        // line a region and thread.
        let eltvelt = bucket_bytes(5_124_069_720, REGION_BITS, 2);
        assert_eq!(eltvelt, (1 << 28) + 2 * 4887 * (8192 + 64));
        assert!(eltvelt < 350 << 20);
    }

    #[test]
    fn a_round_holds_at_most_an_eighth_of_a_byte_a_slot_and_256_mb() {
        assert_eq!(round_updates(1000), 1 << 16);
        assert_eq!(round_updates(232_878_600), 232_878_600 / 32);
        assert_eq!(round_updates(5_124_069_720), 1 << 26);
    }
}
