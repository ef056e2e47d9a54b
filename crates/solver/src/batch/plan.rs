//! What is left to generate, and what it will cost.
//!
//! A [`Plan`] lists every material of a request whose table is missing or
//! invalid, in dependency order, with its index size and estimates of the
//! memory and time its solve needs. Estimates come from a [`Calibration`]:
//! nanoseconds per index slot per thread, measured on a machine (the
//! default is this project's measurement, stated in [`Calibration::default`];
//! [`Calibration::measure`] measures the machine at hand).
//!
//! A table counts as present when its header is valid (header checksum,
//! rule set, material, file length): reading every payload of a large set
//! only to plan would cost as much as verifying it. `generate` checks the
//! whole file before it keeps a table.

use crate::batch::generate::{generate, GenerateOptions};
use crate::error::SolveError;
use jungletb_indexer::{Material, PositionIndex};
use jungletb_rules::Ruleset;
use jungletb_tablebase::{table_dir, table_path, Header};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Solve cost per index slot per thread, measured on one machine.
#[derive(Debug, Clone, PartialEq)]
pub struct Calibration {
    /// Nanoseconds per index slot per thread up to 4 pieces: their cells
    /// fit the caches far better, so a slot costs half a 5-piece one.
    pub ns_per_slot_small: f64,
    /// Nanoseconds per index slot per thread at 5 pieces.
    pub ns_per_slot: f64,
    /// Nanoseconds per index slot per thread from 6 pieces on: their
    /// working cells (10 GB and more) miss every cache and the TLB, and
    /// they take more levels.
    pub ns_per_slot_six: f64,
    /// Bytes of memory per index slot at the peak of a solve in memory
    /// ([`PEAK_BYTES_PER_SLOT`]).
    pub peak_bytes_per_slot: f64,
    /// Where the figures come from (machine, material, date).
    pub source: String,
}

impl Default for Calibration {
    /// The figures measured on this project's 2-core machine (see
    /// `docs/performance.md`).
    fn default() -> Calibration {
        Calibration {
            ns_per_slot_small: SMALL_NS,
            ns_per_slot: FIVE_PIECE_NS,
            ns_per_slot_six: SIX_PIECE_NS,
            peak_bytes_per_slot: PEAK_BYTES_PER_SLOT,
            source: SOURCE.into(),
        }
    }
}

impl Calibration {
    /// Measures this machine: solves the 4-piece material ELvTR (and the
    /// smaller tables it needs, not timed) in a temporary directory with
    /// `threads` threads.
    pub fn measure(threads: usize) -> Result<Calibration, SolveError> {
        let rules = Ruleset::standard();
        let m: Material = "ELvTR".parse().expect("a valid material");
        let tmp = tempfile::tempdir().map_err(|e| {
            SolveError::io(std::env::temp_dir(), "creating a temporary directory", e)
        })?;
        let opts = |materials: Vec<Material>| GenerateOptions {
            root: tmp.path().to_path_buf(),
            rules: rules.clone(),
            max_pieces: 3,
            materials,
            mem: None,
            check_space: true,
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build()
            .map_err(SolveError::ThreadPool)?;
        pool.install(|| generate(&opts(m.sub_materials())))?;
        let start = Instant::now();
        pool.install(|| generate(&opts(vec![m])))?;
        let seconds = start.elapsed().as_secs_f64();
        let slots = PositionIndex::new(m, &rules)?.size();
        let measured = seconds * 1e9 * threads as f64 / slots as f64;
        let default = Calibration::default();
        // The 4-piece rate is the one measured; the others are scaled by
        // this machine's speed against the built-in one.
        let scale = measured / default.ns_per_slot_small;
        Ok(Calibration {
            ns_per_slot_small: measured,
            ns_per_slot: default.ns_per_slot * scale,
            ns_per_slot_six: default.ns_per_slot_six * scale,
            peak_bytes_per_slot: PEAK_BYTES_PER_SLOT,
            source: format!(
                "measured on this machine: {m} with {threads} thread(s); 5 and 6 pieces \
                 scaled from the built-in figures"
            ),
        })
    }

    /// Estimated seconds to solve `slots` slots of a material of `pieces`
    /// pieces with `threads` threads.
    pub fn seconds(&self, slots: u64, pieces: u32, threads: usize) -> f64 {
        slots as f64 * self.ns_for(pieces) / 1e9 / threads.max(1) as f64
    }

    /// Nanoseconds per index slot per thread for a material of `pieces`.
    pub fn ns_for(&self, pieces: u32) -> f64 {
        match pieces {
            0..=4 => self.ns_per_slot_small,
            5 => self.ns_per_slot,
            _ => self.ns_per_slot_six,
        }
    }

    /// The rates an estimate over materials of `piece_counts` pieces uses,
    /// as a user reads them: `63 ns up to 4 pieces, 68 ns at 5`.
    pub fn describe(&self, piece_counts: impl IntoIterator<Item = u32>) -> String {
        // The three rates' classes, each once, smallest first.
        let mut classes: Vec<u32> = piece_counts.into_iter().map(|p| p.clamp(4, 6)).collect();
        classes.sort();
        classes.dedup();
        classes
            .into_iter()
            .map(|class| match class {
                4 => format!("{:.0} ns up to 4 pieces", self.ns_per_slot_small),
                5 => format!("{:.0} ns at 5", self.ns_per_slot),
                _ => format!("{:.0} ns from 6", self.ns_per_slot_six),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// One material still to generate.
#[derive(Debug, Clone)]
pub struct PlanEntry {
    /// The material (canonical).
    pub material: Material,
    /// Index slots.
    pub slots: u64,
    /// The materials one capture away, which must exist first.
    pub depends_on: Vec<Material>,
    /// Estimated peak resident memory of its solve in memory (see
    /// [`peak_memory_bytes`]).
    pub memory_bytes: u64,
    /// Estimated solve time with one thread.
    pub seconds_one_thread: f64,
    /// Why it is listed: "missing" or the reason the present file is invalid.
    pub reason: String,
}

/// Everything still to generate for a request.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The rule set's table directory.
    pub dir: PathBuf,
    /// Materials to generate, in dependency order.
    pub entries: Vec<PlanEntry>,
    /// Materials of the request already present.
    pub present: usize,
    /// The calibration used for the estimates.
    pub calibration: Calibration,
}

impl Plan {
    /// The materials of a request: every material with 2..=`max_pieces`
    /// pieces (if given), plus `materials` and everything they depend on;
    /// every material up to 3 pieces if neither is given. In dependency
    /// order.
    pub fn request(
        rules: &Ruleset,
        max_pieces: Option<u32>,
        materials: &[Material],
    ) -> Vec<Material> {
        let mut list = Material::with_dependencies(materials);
        if max_pieces.is_some() || materials.is_empty() {
            let all = Material::all(max_pieces.unwrap_or(3), |a| rules.animal_allowed(a));
            list.extend(all);
            list = Material::with_dependencies(&list);
        }
        list
    }

    /// The plan for the materials `list` (in dependency order, see
    /// [`Plan::request`]) under `rules`, against the tables under `root`.
    pub fn new(
        root: &Path,
        rules: &Ruleset,
        list: Vec<Material>,
        calibration: Calibration,
    ) -> Result<Plan, SolveError> {
        let dir = table_dir(root, rules);
        let mut entries = Vec::new();
        let mut present = 0;
        for m in list {
            let index = PositionIndex::new(m, rules)?;
            let path = table_path(&dir, m);
            let reason = if !path.exists() {
                "missing".to_string()
            } else {
                match check_header(&path, rules, m) {
                    Ok(()) => {
                        present += 1;
                        continue;
                    }
                    Err(e) => e,
                }
            };
            let depends_on = m.sub_materials();
            let mut sub_bytes = 0u64;
            for &s in &depends_on {
                sub_bytes += PositionIndex::new(s, rules)?.size();
            }
            entries.push(PlanEntry {
                material: m,
                slots: index.size(),
                depends_on,
                memory_bytes: peak_memory_bytes_at(
                    index.size(),
                    sub_bytes,
                    calibration.peak_bytes_per_slot,
                ),
                seconds_one_thread: calibration.seconds(index.size(), m.piece_count(), 1),
                reason,
            });
        }
        Ok(Plan {
            dir,
            entries,
            present,
            calibration,
        })
    }

    /// The entries grouped by piece count (the levels of the work: a level
    /// needs only the levels before it), fewest pieces first.
    pub fn levels(&self) -> Vec<(u32, Vec<&PlanEntry>)> {
        let mut out: Vec<(u32, Vec<&PlanEntry>)> = Vec::new();
        for e in &self.entries {
            let k = e.material.piece_count();
            match out.last_mut() {
                Some((last, level)) if *last == k => level.push(e),
                _ => out.push((k, vec![e])),
            }
        }
        out
    }

    /// The largest estimated memory of one material of the plan (0 for an
    /// empty plan).
    pub fn largest_memory(&self) -> u64 {
        self.entries
            .iter()
            .map(|e| e.memory_bytes)
            .max()
            .unwrap_or(0)
    }

    /// The entry that needs the most memory, if any.
    pub fn largest(&self) -> Option<&PlanEntry> {
        self.entries.iter().max_by_key(|e| e.memory_bytes)
    }

    /// Total estimated core-seconds.
    pub fn core_seconds(&self) -> f64 {
        // `+ 0.0`: the sum of no f64 is -0.0, which would print as "-0.0".
        self.entries
            .iter()
            .map(|e| e.seconds_one_thread)
            .sum::<f64>()
            + 0.0
    }
}

/// Checks a present table's header: `Ok` if it looks complete and belongs
/// to `rules` and `m`, else why not.
fn check_header(path: &Path, rules: &Ruleset, m: Material) -> Result<(), String> {
    let header = Header::read(path).map_err(|e| e.to_string())?;
    header
        .check_ruleset(rules, path)
        .map_err(|e| e.to_string())?;
    if header.material != m {
        return Err(format!("{} holds {}", path.display(), header.material));
    }
    Ok(())
}

/// Where the built-in rates come from.
const SOURCE: &str = "built-in: every table up to 4 pieces (4.96 G slots) in 2 min 35 s \
                      with 2 threads, TPRvEL (295 M slots) in 10.0 s with 2 threads, \
                      ELTvELT (5.12 G slots) in 310 s and 313 s with 2 threads, on this \
                      project's 2-core VMs, 2026-12-07";

/// Nanoseconds per index slot per thread up to 4 pieces: every table up to
/// 4 pieces (4,956,904,914 slots) by `generate --max-pieces 4` on 2
/// threads in 155.4 s, wall time × threads (`docs/lab`, scans by line).
const SMALL_NS: f64 = 63.0;

/// Nanoseconds per index slot per thread at 5 pieces: `generate --material
/// TPRvEL` (295,022,196 slots, its sub-tables present) on 2 threads in
/// 9.88 s and 10.18 s, wall time × threads (`docs/lab`, a side a thread).
const FIVE_PIECE_NS: f64 = 68.0;

/// Nanoseconds per index slot per thread from 6 pieces on: ELTvELT's solve
/// (5,124,069,720 slots) on 2 threads took 310.1 s and 312.8 s (build
/// `d7edf5c`, `docs/lab/2026-12-07-den-steps-and-wasted-updates.md`): 121
/// and 122 ns a slot, wall time × threads. The 6-piece solves miss every
/// cache, and their time varies more from run to run than the smaller
/// ones': 439.6 s the next day; `3b67d34`, faster, 339.3 s and 466.2 s.
const SIX_PIECE_NS: f64 = 122.0;

/// Bytes of memory per index slot at the peak of a solve in memory, beside
/// the mapped sub-tables: the cells are a byte a slot and nothing else
/// grows with the material but a 6-piece material's buckets (0.06 byte a
/// slot). Measured (`/usr/bin/time -v`): `ELTvELT`, 5,124.1 M slots, peak
/// RSS 5,682,940 KiB on one thread (1.14 bytes a slot with its sub-tables;
/// estimate +9 %); `ELTvET`, 232.9 M slots, 245,328 KiB on 2 threads (1.08
/// bytes a slot; estimate +18 %).
pub const PEAK_BYTES_PER_SLOT: f64 = 1.10;

/// The estimated peak resident memory of solving a material of `slots`
/// index slots in memory, whose sub-tables (read through captures, mapped)
/// hold `sub_slots` slots: [`PEAK_BYTES_PER_SLOT`] a slot, one byte a
/// sub-table slot, and 16 MiB for the program.
pub fn peak_memory_bytes(slots: u64, sub_slots: u64) -> u64 {
    peak_memory_bytes_at(slots, sub_slots, PEAK_BYTES_PER_SLOT)
}

/// [`peak_memory_bytes`] at `per_slot` bytes a slot (a calibration's).
fn peak_memory_bytes_at(slots: u64, sub_slots: u64, per_slot: f64) -> u64 {
    (slots as f64 * per_slot) as u64 + sub_slots + (16 << 20)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_memory_estimate_covers_the_measured_peaks_without_much_to_spare() {
        // (slots, sub-table slots, peak RSS in KiB) measured with
        // `/usr/bin/time -v` (see peak_memory_bytes).
        for (slots, subs, kib) in [
            (5_124_069_720u64, 698_736_780u64, 5_682_940u64),
            (232_912_260, 23_291_226, 245_328),
        ] {
            let est = peak_memory_bytes(slots, subs) as f64;
            let peak = (kib * 1024) as f64;
            assert!(est >= peak && est <= 1.2 * peak, "{slots}: {est} vs {peak}");
        }
    }

    #[test]
    fn the_time_estimate_of_every_table_up_to_4_pieces_is_the_measured_run() {
        // Measured: 155.4 s of wall time on 2 threads (docs/lab, scans by line),
        // 0.086 core-hours.
        let dir = tempfile::tempdir().unwrap();
        let rules = Ruleset::standard();
        let list = Plan::request(&rules, Some(4), &[]);
        let plan = Plan::new(dir.path(), &rules, list, Calibration::default()).unwrap();
        let hours = plan.core_seconds() / 3600.0;
        assert!((0.08..=0.095).contains(&hours), "{hours} core-hours");
    }

    #[test]
    fn a_plan_lists_what_is_missing_in_dependency_order() {
        let dir = tempfile::tempdir().unwrap();
        let rules = Ruleset::standard();
        let cal = Calibration::default();
        let all = Plan::request(&rules, Some(3), &[]);
        let plan = Plan::new(dir.path(), &rules, all.clone(), cal.clone()).unwrap();
        assert_eq!(plan.entries.len(), 260);
        assert_eq!(plan.present, 0);
        // Every dependency comes earlier.
        for (i, e) in plan.entries.iter().enumerate() {
            for d in &e.depends_on {
                assert!(
                    plan.entries[..i].iter().any(|x| x.material == *d),
                    "{d} before {}",
                    e.material
                );
            }
            assert!(e.memory_bytes > e.slots * 2);
            assert_eq!(e.reason, "missing");
        }
        // Generate one material's tables: the plan shrinks by exactly those.
        let m: Material = "ELvR".parse().unwrap();
        let report = generate(&GenerateOptions {
            root: dir.path().to_path_buf(),
            rules: rules.clone(),
            max_pieces: 3,
            materials: vec![m],
            mem: None,
            check_space: true,
        })
        .unwrap();
        let after = Plan::new(dir.path(), &rules, all.clone(), cal.clone()).unwrap();
        assert_eq!(after.present, report.materials.len());
        assert_eq!(after.entries.len(), 260 - report.materials.len());
        assert!(after.entries.iter().all(|e| e.material != m));
        // A damaged header makes the table count as missing again.
        let path = table_path(&plan.dir, m);
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[20] ^= 0xFF;
        std::fs::write(&path, bytes).unwrap();
        let damaged = Plan::new(dir.path(), &rules, all, cal).unwrap();
        // A request of one 4-piece material on top of all 3-piece ones.
        let m4: Material = "ELvTR".parse().unwrap();
        let req = Plan::request(&rules, Some(3), &[m4]);
        assert_eq!(req.len(), 261);
        assert_eq!(req.last(), Some(&m4));
        let e = damaged.entries.iter().find(|e| e.material == m).unwrap();
        assert_ne!(e.reason, "missing");
    }
}

/// The machine's physical memory in bytes (`MemTotal` of `/proc/meminfo`),
/// or `None` where it cannot be read (not Linux): what a plan's memory is
/// held against before a solve would page or be killed.
pub fn machine_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    memtotal_bytes(&text)
}

/// `MemTotal` of a `/proc/meminfo` text, in bytes.
fn memtotal_bytes(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod memory_tests {
    #[test]
    fn memtotal_is_read_in_bytes() {
        let text = "MemTotal:       24576000 kB\nMemFree:  100 kB\n";
        assert_eq!(super::memtotal_bytes(text), Some(24_576_000 * 1024));
        assert_eq!(super::memtotal_bytes("MemFree: 1 kB\n"), None);
        assert!(super::machine_memory().is_some_and(|m| m > 0));
    }
}
