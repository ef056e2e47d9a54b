//! Predecessor updates gathered in buckets, one per region of the index,
//! and applied region by region in rounds: how a level of a material whose
//! cells outgrow the caches (every 6-piece one) runs.
//!
//! Why: applied as found, each update lands at a random slot of 5-17 GB
//! of cells, and waits for memory and a page walk. Random 16-bit
//! read-modify-writes, 64 prefetched at a time (the study
//! `update_locality`): 30 ns each in 10 GB, 8-11 ns inside regions of
//! 2-32 MB of it, 19 ns with the bucketing below included.
//!
//! So a level runs in rounds. The threads take chunks of the index in
//! order, each putting the updates it finds into its own bucket per region
//! (a 4-byte entry: the offset in the region and the decrement), until the
//! round's buckets are full; then each region is applied by one thread,
//! its entries from every thread's bucket first sorted into parts of
//! [`PART_BITS`], and a part at a time, by plain loads and stores to cells
//! that stay in cache. Regions are few ([`MOST_REGIONS`]) so that a
//! thread's staging lines stay in L1: as parts (2,444 on ELTvELT, 156 KB
//! of staging lines a thread), pushing updates took 21.6 % of the samples,
//! and a level with them 1.33x the time an update of one in regions and parts.
//! Updates commute within a level, and expanding a position reads only its
//! own cell, decided at this level, which no update of the level changes:
//! so applying a round's updates after its expansion decides exactly what
//! applying them as found decides (tested on fixture materials with
//! regions small enough to be many).

use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Entries of a cache line of a bucket.
const LINE: usize = 16;
/// Lines in a block of a bucket (4 KiB): small, as each thread holds a
/// partly filled block per region.
const BLOCK_LINES: usize = 64;

/// The log2 of the slots of a part (2 MB of cells). Cycled inside an
/// ELTvELT solve when parts were regions (`docs/lab`, 2026-12-06), 1 MB
/// took 1.27x and 4 MB 1.08x the time of 2 MB.
pub const PART_BITS: u32 = 21;

/// The most regions: a thread's staging lines take 16 KB, a third of L1.
pub const MOST_REGIONS: u64 = 256;

/// The open blocks of `threads` threads for `slots` slots in regions of
/// 2^`bits`: a thread and region, an open block, its share of the round's
/// last full blocks (counted as a second block) and a staging line.
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
/// entries gather in a staging line, copied when full to the region's
/// open block by non-temporal stores, which do not read the line first
/// (study `update_locality`: scatter 9.6 -> 7.2 ns an update, apply 12.9
/// -> 10.6). A bucket is a list of blocks of [`BLOCK_LINES`] lines from
/// the thread's pool, returned to it after the round, so the memory held
/// is what one round needs (a `Vec` a bucket kept its largest size from
/// every round: on ELTvEL 0.9 GB beside 0.47 GB of cells).
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
/// 2^`bits` on `threads` threads hold: a round's entries, the open blocks
/// and each thread's parts (counted as twice a region's share).
pub(crate) fn bucket_bytes(slots: u64, bits: u32, threads: usize) -> u64 {
    let entries = round_updates(slots) as u64 * 4;
    let regions = slots.div_ceil(1 << bits).max(1);
    entries + open_block_bytes(slots, bits, threads) + threads as u64 * 2 * entries / regions
}

/// The buckets of a solve by regions, kept from round to round and level
/// to level, and the rounds that fill and apply them.
pub(crate) struct Rounds {
    bits: u32,
    part_bits: u32,
    regions: usize,
    threads: Vec<Buckets>,
    /// Each thread's parts of the region it applies, allocated once (for
    /// each region, they cost an ELTvELT solve 7-13 s more system time).
    parts: Vec<Mutex<Vec<Vec<u32>>>>,
    /// Updates one thread gathers in a round before the round is applied
    /// (tests set fewer, for many rounds in a small material).
    pub(crate) quota: usize,
}

impl Rounds {
    /// The buckets for `slots` slots in regions of 2^`bits`, applied in
    /// parts of 2^`part_bits` (at most `bits`), on `threads` threads.
    pub(crate) fn new(slots: u64, (bits, part_bits): (u32, u32), threads: usize) -> Rounds {
        debug_assert!(part_bits <= bits);
        let regions = slots.div_ceil(1 << bits).max(1) as usize;
        let threads = threads.max(1);
        Rounds {
            bits,
            part_bits,
            regions,
            threads: (0..threads).map(|_| Buckets::new(bits, regions)).collect(),
            parts: (0..threads)
                .map(|_| Mutex::new(vec![Vec::new(); 1 << (bits - part_bits)]))
                .collect(),
            quota: round_updates(slots) / threads,
        }
    }

    /// Runs one pass over chunks `0..chunks` in rounds. In each round the
    /// threads take the next chunks in order and `expand(c, buckets)` each
    /// chunk `c` whole, until each thread's buckets hold its quota or the
    /// chunks run out; then `apply(base, entries, out)` gets every
    /// region's entries (offsets from slot `base`) on one thread, a part
    /// at a time, folding into `init()`s. After each round, `after(outs,
    /// taken)` gets the round's `out`s and the chunks taken so far (all of
    /// `0..taken` expanded and applied) and returns true to end the pass
    /// there. The pass also ends when the chunks do.
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
            let (threads, bits, part_bits) = (&self.threads, self.bits, self.part_bits);
            let parts = &self.parts;
            let outs: Vec<O> = (0..self.regions)
                .into_par_iter()
                .fold(&init, |mut out, r| {
                    // This thread's parts (another's only on a foreign pool).
                    let k = rayon::current_thread_index().unwrap_or(0) % parts.len();
                    let mut parts = parts[k].lock().unwrap_or_else(|e| e.into_inner());
                    for block in threads.iter().flat_map(|b| b.region(r)) {
                        for &e in block {
                            parts[(e >> (part_bits + 2)) as usize].push(e);
                        }
                    }
                    for part in parts.iter_mut() {
                        apply((r as u64) << bits, part, &mut out);
                        part.clear();
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
        // ELTvELT, 153 regions of 2^25: 256 MB of entries, 8 KiB and a line
        // a region and thread, and twice a region's share a thread.
        let eltvelt = bucket_bytes(5_124_069_720, 25, 2);
        assert_eq!(
            eltvelt,
            (1 << 28) + 2 * 153 * (8192 + 64) + 4 * (1 << 28) / 153
        );
        assert!(eltvelt < 280 << 20);
    }

    #[test]
    fn a_round_holds_at_most_an_eighth_of_a_byte_a_slot_and_256_mb() {
        assert_eq!(round_updates(1000), 1 << 16);
        assert_eq!(round_updates(232_878_600), 232_878_600 / 32);
        assert_eq!(round_updates(5_124_069_720), 1 << 26);
    }

    #[test]
    fn every_update_pushed_comes_back_in_its_region_and_part_once_per_round() {
        let slots = 10_000u64;
        // Regions of 256 slots, applied in parts of 32.
        let mut rounds = Rounds::new(slots, (8, 5), 2);
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
                    assert_eq!(e >> 7, entries[0] >> 7, "one part a call");
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

/// Materials from this many slots on propagate by regions: every 6-piece
/// material (5.1 × 10^9 slots and more), no 5-piece one (at most 3.7 ×
/// 10^8). Below, the cells mostly fit this machine's caches and updates
/// applied as found are faster: ELTvEL (0.23 GB of cells, 2 threads,
/// interleaved) took 9.84 / 9.72 s so and 13.60 / 13.65 s by regions.
pub const REGIONS_FROM_SLOTS: u64 = 1 << 30;

/// The region and part bits of a solve of `slots` slots on `threads`
/// threads, `None` for updates applied as they are found: by regions from
/// [`REGIONS_FROM_SLOTS`] on, the smallest of at least [`PART_BITS`] that
/// make at most [`MOST_REGIONS`], growing on many threads so that the
/// threads' open blocks (a block and a staging line a region and thread)
/// take at most 1/16 byte a slot, applied in parts of [`PART_BITS`].
pub(crate) fn byte_region_bits(slots: u64, threads: usize) -> Option<(u32, u32)> {
    let fits =
        |bits| slots >> bits < MOST_REGIONS && open_block_bytes(slots, bits, threads) <= slots / 16;
    let bits = (PART_BITS..30).find(|&b| fits(b)).unwrap_or(30);
    (slots >= REGIONS_FROM_SLOTS).then_some((bits, PART_BITS))
}

#[cfg(test)]
mod region_tests {
    use super::*;

    #[test]
    fn regions_are_few_and_their_open_blocks_stay_within_a_16th_of_a_byte() {
        assert_eq!(byte_region_bits(REGIONS_FROM_SLOTS - 1, 2), None);
        let first = byte_region_bits(REGIONS_FROM_SLOTS, 2);
        assert_eq!(first, Some((23, PART_BITS)));
        let eltvelt = 5_124_069_720u64;
        let largest = 16_500_000_000u64;
        for (slots, threads, bits) in [
            (eltvelt, 2, 25),
            (eltvelt, 64, 25),
            (eltvelt, 1024, 28),
            (largest, 2, 26),
            (largest, 1024, 28),
        ] {
            let got = byte_region_bits(slots, threads).unwrap().0;
            assert_eq!(got, bits, "{slots} slots on {threads} threads");
            assert!(slots >> got < MOST_REGIONS);
            let open = open_block_bytes(slots, got, threads);
            assert!(open <= slots / 16, "{open} bytes of open blocks");
            assert!(
                slots >> (got - 1) >= MOST_REGIONS
                    || open_block_bytes(slots, got - 1, threads) > slots / 16
            );
        }
    }
}
