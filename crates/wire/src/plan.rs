//! `jungletb plan --json`: what a generation of many materials will cost.

use serde::Serialize;

/// The plan (one JSON document).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlanAnswer {
    /// The tables directory planned for.
    pub tables: String,
    /// Tables already there (not planned).
    pub present: usize,
    /// The speed the times are computed from.
    pub calibration: Calibration,
    /// Threads a task runs.
    pub threads: usize,
    /// Each material to solve, in dependency order.
    pub materials: Vec<PlannedMaterial>,
    /// The node memory planned for (`--node-mem`), if given.
    pub node_memory_bytes: Option<u64>,
    /// Sums over the materials.
    pub total: PlanTotal,
    /// The Slurm scripts written (`--slurm`).
    pub slurm_scripts: Vec<String>,
}

/// Nanoseconds a slot on one thread, by piece count.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Calibration {
    /// Five pieces.
    pub ns_per_slot_per_thread: f64,
    /// Up to four pieces.
    pub ns_per_slot_per_thread_up_to_4: f64,
    /// Six pieces and more.
    pub ns_per_slot_per_thread_from_6: f64,
    /// Bytes of memory a slot at the peak of a solve (16-bit or one-byte
    /// cells), beside the mapped sub-tables.
    pub peak_bytes_per_slot: f64,
    /// Where the figures come from.
    pub source: String,
}

/// One material of a plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlannedMaterial {
    /// The material.
    pub material: String,
    /// Its pieces.
    pub pieces: u32,
    /// Its index slots.
    pub slots: u64,
    /// The materials it needs first.
    pub depends_on: Vec<String>,
    /// Memory its solve needs.
    pub memory_bytes: u64,
    /// Seconds on the plan's threads.
    pub seconds: f64,
    /// Why it is in the plan.
    pub reason: String,
    /// More memory than `--node-mem`.
    pub over_node_memory: bool,
}

/// A plan's totals.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlanTotal {
    /// Materials to solve.
    pub materials: usize,
    /// Their slots.
    pub slots: u64,
    /// Core-hours.
    pub core_hours: f64,
}
