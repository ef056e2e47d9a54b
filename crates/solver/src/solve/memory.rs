//! How much memory and working file a solve needs: what `generate`,
//! `plan` and the disk-space check ask before solving.

use crate::solve::buckets::{bucket_bytes, byte_region_bits};

/// Bytes of memory a material of `slots` index slots needs to be solved
/// entirely in memory: its cells (a byte a slot; they become the output in
/// place) and what [`minimum_memory`] counts. A material whose distances
/// or counts a byte cannot hold is solved in two bytes a slot (none of up
/// to 6 pieces found so far).
pub fn in_memory_bytes(slots: u64) -> u64 {
    slots + minimum_memory(slots)
}

/// Bytes of working files the solve of `cell_bytes` bytes of cells (a
/// byte a slot, see [`in_memory_bytes`]) writes under a memory budget of
/// `mem_budget`: none when they fit in it beside [`minimum_memory`], else
/// the cells, in a working directory beside the tables until the solve
/// ends.
pub fn working_file_bytes(cell_bytes: u64, mem_budget: u64) -> u64 {
    if in_memory_bytes(cell_bytes) <= mem_budget {
        0
    } else {
        cell_bytes
    }
}

/// Memory for buffers, counts and the move tables, beside the cells.
const BUFFERS: u64 = 64 << 20;

/// The least memory budget that lets a material of `slots` index slots make
/// progress: 64 MiB for buffers and the move tables and, for a material
/// propagated by regions (every 6-piece one), the buckets of a round on
/// the current rayon pool's threads (ELTvELT on 2 threads: 345 MB).
/// Everything else can live in files.
pub fn minimum_memory(slots: u64) -> u64 {
    let threads = rayon::current_num_threads();
    let buckets = byte_region_bits(slots, threads);
    BUFFERS + buckets.map_or(0, |(bits, _)| bucket_bytes(slots, bits, threads))
}
