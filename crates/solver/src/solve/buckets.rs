//! Predecessor updates gathered in buckets, one per region of the index,
//! and applied region by region in rounds: how a level of a material whose
//! cells outgrow the caches (every 6-piece one) runs.
//!
//! Why: applied as it is found, each update lands at a random slot of the
//! whole cell array, and once the cells outgrow the caches (5-17 GB at 6
//! pieces) nearly every update waits for memory and for a page walk.
//! Measured on this machine with random 16-bit read-modify-writes, 64
//! prefetched at a time (the study `update_locality` in `crates/studies`):
//! 14 ns each in 0.5 GB, 30 ns in 10 GB, but 8-11 ns when they stay inside
//! regions of 2-32 MB of the same 10 GB, and 19 ns with the bucketing
//! below included; a locked compare-and-swap instead of a plain store
//! costs 20 % more again.
//!
//! So a level runs in rounds. The threads take chunks of the index in
//! order, each putting the updates it finds into its own bucket per region
//! (a 4-byte entry: the offset in the region and the decrement), until the
//! round's buckets are full; then each region is applied by one thread,
//! every thread's bucket for it in turn, so that an update is a plain load
//! and store in a region that stays in cache, on any number of threads.
//! Updates commute within a level, and expanding a position reads only its
//! own cell, decided at this level, which no update of the level changes:
//! so applying a round's updates after its expansion decides exactly what
//! applying them as found decides (tested on fixture materials with
//! regions small enough to be many).

use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

/// Entries of a cache line of a bucket.
const LINE: usize = 16;
/// Lines in a block of a bucket (4 KiB). Each thread holds a partly
/// filled block per region, so the block is small (and on many threads
/// [`byte_region_bits`] makes the regions larger).
const BLOCK_LINES: usize = 64;

/// The most memory the buckets of `threads` threads hold beyond a round's
/// entries, for `slots` slots in regions of 2^`bits`: on each thread and
/// for each region an open block, its share of the round's last full
/// blocks (counted as a second block) and a staging line.
pub(crate) fn open_block_bytes(slots: u64, bits: u32, threads: usize) -> u64 {
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
pub(crate) struct Buckets {
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
    /// Entries gathered this round.
    pub(crate) len: usize,
}

impl Buckets {
    pub(crate) fn new(bits: u32, regions: usize) -> Buckets {
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

    /// Adds the update of `slot` (a decrement of 0 to 3) to its region's
    /// bucket.
    #[inline(always)]
    pub(crate) fn push(&mut self, slot: u64, decrement: u8) {
        debug_assert!(decrement < 4);
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

    /// The entries of region `r`, block by block, then the staged ones.
    pub(crate) fn region(&self, r: usize) -> impl Iterator<Item = &[u32]> {
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
    pub(crate) fn publish(&self) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a store fence has no preconditions.
        unsafe {
            std::arch::x86_64::_mm_sfence()
        };
    }

    /// Empties every bucket, keeping the blocks in the pool.
    pub(crate) fn clear(&mut self) {
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

/// Updates of a round, all threads together: at most 2^26 (256 MB of
/// entries), at most one for 32 slots (1/8 byte a slot).
pub(crate) fn round_updates(slots: u64) -> usize {
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

/// The buckets of a solve by regions, kept from round to round and level
/// to level, and the rounds that fill and apply them.
pub(crate) struct Rounds {
    bits: u32,
    regions: usize,
    threads: Vec<Buckets>,
    /// Updates one thread gathers in a round before the round is applied.
    quota: usize,
}

impl Rounds {
    /// The buckets for `slots` slots in regions of 2^`bits`, on `threads`
    /// threads.
    pub(crate) fn new(slots: u64, bits: u32, threads: usize) -> Rounds {
        let regions = slots.div_ceil(1 << bits).max(1) as usize;
        let threads = threads.max(1);
        Rounds {
            bits,
            regions,
            threads: (0..threads).map(|_| Buckets::new(bits, regions)).collect(),
            quota: round_updates(slots) / threads,
        }
    }

    /// The same, applied after `quota` updates a thread (tests: many
    /// rounds in a small material).
    #[cfg(test)]
    pub(crate) fn with_quota(mut self, quota: usize) -> Rounds {
        self.quota = quota;
        self
    }

    /// Runs one pass over chunks `0..chunks` in rounds. In each round the
    /// threads take the next chunks in order and `expand(c, buckets)` each
    /// chunk `c` whole, until each thread's buckets hold its quota or the
    /// chunks run out; then `apply(base, entries, out)` gets every
    /// region's entries (offsets from slot `base`) on one thread, folding
    /// into `init()`s. After each round, `after(outs, taken)` gets the
    /// round's `out`s and the chunks taken so far (all of `0..taken` have
    /// been expanded and their updates applied) and returns true to end
    /// the pass there. The pass also ends when the chunks do.
    pub(crate) fn run<O: Send>(
        &mut self,
        chunks: u64,
        expand: impl Fn(u64, &mut Buckets) + Sync,
        init: impl Fn() -> O + Sync + Send,
        apply: impl Fn(u64, &[u32], &mut O) + Sync + Send,
        mut after: impl FnMut(Vec<O>, u64) -> bool,
    ) {
        let cursor = AtomicU64::new(0);
        let quota = self.quota;
        loop {
            // Expand until each thread's buckets hold its quota, or the
            // chunks are done.
            self.threads
                .par_iter_mut()
                .with_max_len(1)
                .for_each(|buckets| {
                    while buckets.len < quota {
                        let c = cursor.fetch_add(1, Ordering::Relaxed);
                        if c >= chunks {
                            break;
                        }
                        expand(c, buckets);
                    }
                    buckets.publish();
                });
            // Apply, each region on one thread.
            let threads = &self.threads;
            let bits = self.bits;
            let outs: Vec<O> = (0..self.regions)
                .into_par_iter()
                .fold(&init, |mut out, r| {
                    let base = (r as u64) << bits;
                    for block in threads.iter().flat_map(|b| b.region(r)) {
                        apply(base, block, &mut out);
                    }
                    out
                })
                .collect();
            self.threads.iter_mut().for_each(Buckets::clear);
            let taken = cursor.load(Ordering::Relaxed).min(chunks);
            if after(outs, taken) || taken >= chunks {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_buckets_of_a_6_piece_solve_stay_near_the_rounds_entries() {
        // ELTvELT, 4,887 regions of 2^20: 256 MB of entries and 8 KiB and a
        // line a region and thread.
        let eltvelt = bucket_bytes(5_124_069_720, 20, 2);
        assert_eq!(eltvelt, (1 << 28) + 2 * 4887 * (8192 + 64));
        assert!(eltvelt < 350 << 20);
    }

    #[test]
    fn a_round_holds_at_most_an_eighth_of_a_byte_a_slot_and_256_mb() {
        assert_eq!(round_updates(1000), 1 << 16);
        assert_eq!(round_updates(232_878_600), 232_878_600 / 32);
        assert_eq!(round_updates(5_124_069_720), 1 << 26);
    }

    #[test]
    fn every_update_pushed_comes_back_in_its_region_once_per_round() {
        let slots = 10_000u64;
        let mut rounds = Rounds::new(slots, 8, 2);
        rounds.quota = 1000;
        // Chunk c pushes slots c * 37 .. c * 37 + 37 (mod slots), with
        // decrement slot % 4.
        let chunks = 700u64;
        let mut seen = vec![0u32; slots as usize];
        let mut passes = 0;
        rounds.run(
            chunks,
            |c, b| (c * 37..c * 37 + 37).for_each(|s| b.push(s % slots, (s % slots % 4) as u8)),
            Vec::new,
            |base, entries, out: &mut Vec<u64>| {
                for &e in entries {
                    let s = base + (e >> 2) as u64;
                    assert_eq!(s % 4, (e & 3) as u64, "decrement kept");
                    out.push(s);
                }
            },
            |outs, taken| {
                passes += 1;
                assert!(taken <= chunks);
                outs.into_iter()
                    .flatten()
                    .for_each(|s| seen[s as usize] += 1);
                false
            },
        );
        assert!(passes > 1, "the quota splits the pass into rounds");
        let want = |s: u64| {
            (0..chunks)
                .filter(|c| (c * 37..c * 37 + 37).any(|x| x % slots == s))
                .count() as u32
        };
        for s in [0, 1, 255, 256, 9_999, 5_000] {
            assert_eq!(seen[s as usize], want(s), "slot {s}");
        }
        assert_eq!(seen.iter().sum::<u32>() as u64, chunks * 37);
    }
}

/// The log2 of the slots of a region (2 MB of one-byte cells). Cycled
/// inside a one-byte ELTvELT solve
/// (`docs/lab/2026-12-06-den-entries-and-region-sizes.md`), regions of 1 MB
/// took 1.27x and 4 MB 1.08x the time of 2 MB.
pub const REGION_BITS: u32 = 21;

/// Materials from this many slots on propagate by regions: every 6-piece
/// material (5.1 × 10^9 slots and more), no 5-piece one (at most 3.7 ×
/// 10^8). Below, the cells mostly fit this machine's caches and updates
/// applied as found are faster: ELTvEL (0.23 GB of cells, 2 threads,
/// interleaved) took 9.84 / 9.72 s so and 13.60 / 13.65 s by regions.
pub const REGIONS_FROM_SLOTS: u64 = 1 << 30;

/// The region bits of a solve of `slots` slots on `threads` threads,
/// `None` for updates applied as they are found: by regions from
/// [`REGIONS_FROM_SLOTS`] on, of [`REGION_BITS`], growing on many threads
/// so that the threads' open blocks (a block and a staging line a region
/// and thread) take at most 1/16 byte a slot.
pub(crate) fn byte_region_bits(slots: u64, threads: usize) -> Option<u32> {
    (slots >= REGIONS_FROM_SLOTS).then(|| {
        (REGION_BITS..30)
            .find(|&bits| open_block_bytes(slots, bits, threads) <= slots / 16)
            .unwrap_or(30)
    })
}

#[cfg(test)]
mod region_tests {
    use super::*;

    #[test]
    fn levels_run_by_regions_from_the_threshold_on() {
        assert_eq!(byte_region_bits(REGIONS_FROM_SLOTS - 1, 2), None);
        assert_eq!(byte_region_bits(REGIONS_FROM_SLOTS, 2), Some(REGION_BITS));
    }

    #[test]
    fn on_many_threads_the_regions_grow_to_keep_the_open_blocks_within_a_16th_of_a_byte() {
        let eltvelt = 5_124_069_720u64;
        let largest = 16_500_000_000u64;
        for (slots, threads, bits) in [
            (eltvelt, 1, 21),
            (eltvelt, 2, 21),
            (eltvelt, 8, 21),
            (eltvelt, 64, 24),
            (largest, 2, 21),
            (largest, 8, 21),
            (largest, 64, 24),
        ] {
            let got = byte_region_bits(slots, threads).unwrap();
            assert_eq!(got, bits, "{slots} slots on {threads} threads");
            let open = open_block_bytes(slots, got, threads);
            assert!(open <= slots / 16, "{open} bytes of open blocks");
            assert!(open_block_bytes(slots, got - 1, threads) > slots / 16 || got == REGION_BITS);
        }
    }
}
