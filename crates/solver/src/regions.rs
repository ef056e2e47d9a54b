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

use crate::buckets::{open_block_bytes, Buckets, Rounds};
use crate::context::Ctx;
use crate::frontier::Frontier;
use crate::propagate::{drain_ahead, expand_for, prefetch, update_alone, LevelOutcome, Updates};
use crate::schedule::CHUNK;

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

/// The region bits of a one-byte solve ([`Propagation::ByteCells`]) of
/// `slots` slots on `threads` threads, `None` for updates applied as they
/// are found: by regions from [`REGIONS_FROM_SLOTS`] on (every 6-piece
/// material), of one more bit than [`Propagation::Auto`]'s, so that a
/// region holds as many bytes as a region of 16-bit cells (2 MB), and
/// growing likewise on many threads.
pub(crate) fn byte_region_bits(slots: u64, threads: usize) -> Option<u32> {
    (slots >= REGIONS_FROM_SLOTS).then(|| {
        (REGION_BITS + 1..30)
            .find(|&bits| open_block_bytes(slots, bits, threads) <= slots / 16)
            .unwrap_or(30)
    })
}

impl Updates for Buckets {
    #[inline(always)]
    fn push(&mut self, _ctx: &Ctx, slot: u64, decrement: u8) {
        Buckets::push(self, slot, decrement);
    }
}

/// The propagation of a solve by regions: the buckets of every thread,
/// kept from round to round and level to level.
pub(crate) struct ByRegions(Rounds);

impl ByRegions {
    /// The buckets for `slots` slots in regions of 2^`bits`, on `threads`
    /// threads.
    pub(crate) fn new(slots: u64, bits: u32, threads: usize) -> ByRegions {
        ByRegions(Rounds::new(slots, bits, threads))
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
        let expand = expand_for::<Buckets>(ctx.index);
        let mut outcomes = Vec::new();
        self.0.run(
            slots.div_ceil(CHUNK),
            |c, buckets| {
                let range = c * CHUNK..((c + 1) * CHUNK).min(slots);
                drain_ahead(ctx, current, range, |p| expand(ctx, d, p, buckets));
            },
            LevelOutcome::default,
            |base, entries, out| apply(ctx, d, base, entries, next, out),
            |round, _| {
                outcomes.extend(round);
                false
            },
        );
        outcomes
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
}
