//! How much memory and working file a solve needs: what `generate`,
//! `plan` and the disk-space check ask before solving.

use crate::buckets::bucket_bytes;
use crate::regions::{byte_region_bits, Propagation};

/// Bytes of memory a material of `slots` index slots needs to be solved
/// entirely in memory with `propagation`: the cells (2 bytes a slot, or 1
/// in [`Propagation::ByteCells`]; they become the output in place) and what
/// [`minimum_memory`] counts.
pub fn in_memory_bytes(slots: u64, propagation: Propagation) -> u64 {
    slots * cell_bytes(propagation) + minimum_memory(slots, propagation)
}

/// Bytes of working files the solve of a material of `slots` index slots
/// with `propagation` writes under a memory budget of `mem_budget`: none
/// when [`in_memory_bytes`] fit in it, else its cells, in a working
/// directory beside the tables until the solve ends.
pub fn working_file_bytes(slots: u64, mem_budget: u64, propagation: Propagation) -> u64 {
    if in_memory_bytes(slots, propagation) <= mem_budget {
        0
    } else {
        slots * cell_bytes(propagation)
    }
}

/// Bytes a slot of the cells of a solve with `propagation`.
fn cell_bytes(propagation: Propagation) -> u64 {
    match propagation {
        Propagation::ByteCells => 1,
        _ => 2,
    }
}

/// Memory for buffers, lists and the move tables, beside the cells.
const BUFFERS: u64 = 64 << 20;

/// The least memory budget that lets a material of `slots` index slots make
/// progress with `propagation`: 64 MiB for lists, buffers and the move
/// tables; with 16-bit cells also the frontier bitmaps (1/4 byte a slot)
/// and, for a material propagated by regions under [`Propagation::Auto`]
/// (every 6-piece one), the buckets of a round on the current rayon pool's
/// threads (ELTvELT on 2 threads: 349 MB). One-byte cells keep no
/// bitmaps, only the buckets at 6 pieces (ELTvELT on 2 threads: 309 MB).
/// Everything else can live in files.
pub fn minimum_memory(slots: u64, propagation: Propagation) -> u64 {
    let threads = rayon::current_num_threads();
    if propagation == Propagation::ByteCells {
        let buckets = byte_region_bits(slots, threads);
        return BUFFERS + buckets.map_or(0, |bits| bucket_bytes(slots, bits, threads));
    }
    let buckets = Propagation::Auto
        .region_bits(slots, threads)
        .map_or(0, |bits| bucket_bytes(slots, bits, threads));
    slots / 4 + BUFFERS + buckets
}
