//! Retrograde analysis for jungletb.
//!
//! - [`solve_material`] solves one material given its solved sub-materials
//!   (the tables reachable by a capture), in parallel, with its working
//!   arrays in memory or, beyond a memory budget, in memory-mapped files.
//! - [`verify_material`] re-checks a table by one ply of search from every
//!   position (forward consistency).
//! - [`generate`] solves every material of a request in dependency order and
//!   writes the table files, keeping complete valid tables. Many generators
//!   may share one directory: each material is claimed while it is solved.
//! - [`compress`] writes the compressed form of a directory's tables, each
//!   checked against its source; [`verify`] checks every file of a
//!   directory. Both share generate's policy: claims, leftovers removed,
//!   an invalid table moved aside as `<name>.invalid-N`, never deleted.
//! - [`Plan`] lists what is left to generate with cost estimates, and
//!   [`slurm`] turns a plan into job arrays for a Slurm cluster.
//!
//! The algorithm (see `solve.rs`): one forward sweep counts, for every
//! position, its distinct successors inside the material and resolves moves
//! that end the game or leave the material (captures, probed in the smaller
//! tables). Then positions are decided level by level (distance 0, 1, 2, …),
//! each level a bitmap over the index (see `frontier.rs`): each decided
//! position visits its predecessors (by un-move generation) once, turning
//! them into wins (from a loss) or decrementing their counter of undecided
//! successors (from a win); a counter reaching zero makes a loss. Each
//! position and move is visited a small constant number of times, whatever
//! the longest distance. What is never decided is a draw.
//!
//! Where the parts live: the working cell (value and counter) in `cell.rs`,
//! the sweep and the level loop in `solve.rs`, which thread takes which
//! slots of a level (and where updates may skip locked instructions) in
//! `schedule.rs`, one level's work (a prefetching pipeline over the
//! frontier) in `propagate.rs`, or for materials whose cells outgrow the
//! caches (6 pieces) the same work with its updates gathered and applied
//! region by region in `regions.rs` ([`Propagation`]), the predecessor
//! indices in `jungletb_indexer::Neighbours`.
//!
//! Where memory is short, [`Propagation::ByteCells`] (`generate
//! --one-byte`) solves in one byte a slot (see `byte_solve.rs`): a
//! position's byte holds its value or its count of undecided successors
//! and whether it has a floor (found again from its captures when it is
//! lost), and each level finds its positions by scanning the bytes. The tables are the same; it peaks
//! at about 1.1 bytes a slot instead of 2.75, and takes less CPU
//! than the same build's 16-bit solve (measured before `98e83c4`, whose
//! sweep decides den entries, took more off): 0.87–0.97× on ELTvEL and four
//! 4-piece materials (interleaved, 2026-12-06; 1.15–1.3× before), 0.96× on
//! ELTvELT, where both apply their updates region by region
//! (`buckets.rs`; [`Calibration::one_byte`]). Against build `c3688ef`'s
//! 16-bit solve, run beside it on ELTvELT: 0.63× the CPU (build `98e83c4`).

#![warn(missing_docs)]
#![warn(missing_debug_implementations)]

mod buckets;
mod byte_cells;
mod byte_codes;
mod byte_presence;
mod byte_solve;
mod byte_updates;
mod cell;
mod checkpoint;
mod claim;
mod compress;
mod context;
mod error;
mod files;
mod frontier;
mod generate;
mod le;
mod levels;
mod memory;
mod notice;
mod plan;
mod propagate;
mod regions;
mod schedule;
pub mod slurm;
mod solve;
mod solved_values;
mod space;
mod subtables;
mod sweep;
mod verify;
mod verify_files;
mod watch;
mod work;

pub use checkpoint::checkpoint_path;
pub use compress::{
    compress, CompressEvent, CompressOptions, CompressPhase, CompressReport, CompressTiming,
    CompressedTable,
};
pub use error::SolveError;
pub use files::select_files;
pub use generate::{
    generate, generate_until, generate_with, GenerateEvent, GenerateOptions, GenerateReport,
    MaterialReport,
};
pub use memory::{in_memory_bytes, minimum_memory, working_file_bytes};
pub use notice::Notice;
pub use plan::{
    machine_memory, peak_memory_bytes, Calibration, Plan, PlanEntry, ONE_BYTE_PEAK_BYTES_PER_SLOT,
    ONE_BYTE_TIME_FACTOR, PEAK_BYTES_PER_SLOT,
};
pub use regions::{Propagation, REGIONS_FROM_SLOTS, REGION_BITS};
pub use solve::{solve_material, solve_material_until, solve_material_with, SolveStats};
pub use solved_values::{RawValues, SolvedValues};
pub use sweep::{forward_sweep, SweepStats};
pub use verify::{verify_material, verify_material_with, VerifyReport};
pub use verify_files::{verify, verify_with, FileVerdict, Outcome, VerifyOptions, VerifyProgress};
pub use watch::Watch;
