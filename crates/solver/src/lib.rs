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
//! # The algorithm
//!
//! Retrograde analysis in one byte a slot, after Syzygy's generator: the
//! whole state of a solve is one cell per index slot, holding either the
//! position's value (its distance in plies, as the table stores it) or,
//! while it is undecided, the weighted count of its quiet successors not
//! yet known to be won for the opponent and whether a capture bounds how
//! soon it can be lost (its floor). There are no frontiers, no lists and
//! no second array: the cells become the table's values in place.
//!
//! - **The sweep** visits every position once: it generates its moves,
//!   decides what the moves that end the game or leave the material decide
//!   (a den entry, a capture into a smaller table, probed there), and
//!   writes the position's first code. The slots come in order, so that
//!   positions differing only in the last piece's square (a run) come
//!   together: the other pieces' moves are sorted once a run
//!   (`jungletb_rules::RunMoves`), as the levels find a run's predecessors
//!   from bases found once a run (`jungletb_indexer::RunNeighbours`).
//! - **The levels** run at distance 0, 1, 2, …: the positions of level `d`
//!   are the cells holding its code, found by scanning the cells a cache
//!   line at a time and passing by the blocks that hold none. A lost
//!   position makes its predecessors (found by un-move generation) wins at
//!   `d + 1`; a won one counts theirs down, and a count reaching zero is a
//!   loss (at `d + 1`, or at its floor). Each position and un-move is
//!   visited a small constant number of times, whatever the longest
//!   distance. What is never decided is a draw.
//! - **Updates** are applied as they are found, prefetched in batches (on
//!   two threads and a material unequal on its sides, each thread expands
//!   one side to move and so alone writes the other's half of the cells,
//!   by plain stores); a material whose cells outgrow the caches (every
//!   6-piece one) runs each level in rounds, its updates gathered by
//!   region and each region applied by one thread, a cached part at a
//!   time, by plain stores.
//! - **Stops** save the cells and the chunks of the level already run
//!   (a checkpoint); the same solve resumes there.
//!
//! A cell is one byte (172 plies, counts up to 40: every material of up to
//! 6 pieces found so far); a material whose distances or counts a byte
//! cannot hold runs the same algorithm in two-byte cells. The peak memory
//! is about 1.1 bytes a slot beside the mapped sub-tables.
//!
//! # Where the parts live
//!
//! - `solve/`: one material's solve. `mod.rs` (entry points, the choice
//!   of width), `sweep.rs`, `levels.rs`, `groups.rs` (the scans), `codes.rs`
//!   (what a cell's codes mean), `cells.rs`, `expand.rs`, `updates.rs`,
//!   `buckets.rs` (updates by region, and why), `presence.rs`,
//!   `checkpoint.rs`, `subtables.rs`, `work.rs`, `memory.rs`, `values.rs`.
//! - `batch/`: many materials, files and machines. `generate.rs`,
//!   `plan.rs`, `slurm.rs`, `claim.rs` (generators sharing a directory),
//!   `files.rs`, `space.rs`, `compress.rs`, `verify_files.rs`.
//! - `verify.rs` (forward consistency of one table), `error.rs`,
//!   `watch.rs` (progress and stops), `notice.rs`.
//!
//! Figures and the builds that measured them are in `docs/performance.md`
//! and `docs/lab/`.

#![warn(missing_docs)]
#![warn(missing_debug_implementations)]

mod batch;
mod error;
mod notice;
mod solve;
mod verify;
mod watch;

pub use batch::compress::{
    compress, CompressEvent, CompressOptions, CompressPhase, CompressReport, CompressTiming,
    CompressedTable,
};
pub use batch::files::select_files;
pub use batch::generate::{
    generate, generate_until, generate_with, GenerateEvent, GenerateOptions, GenerateReport,
    MaterialReport,
};
pub use batch::plan::{
    machine_memory, peak_memory_bytes, Calibration, Plan, PlanEntry, PEAK_BYTES_PER_SLOT,
};
pub use batch::slurm;
pub use batch::verify_files::{
    verify, verify_with, FileVerdict, Outcome, VerifyOptions, VerifyProgress,
};
pub use error::SolveError;
pub use notice::Notice;
pub use solve::checkpoint::checkpoint_path;
pub use solve::memory::{in_memory_bytes, minimum_memory, working_file_bytes};
pub use solve::values::{RawValues, SolvedValues};
pub use solve::{solve_material, solve_material_until, SolveStats};
pub use verify::{verify_material, verify_material_with, VerifyReport};
pub use watch::Watch;
