//! Generation benchmark: a fixed, representative subset of 4-piece
//! materials, solved with 1 and with 2 threads in the same run.
//!
//! `cargo bench --bench generate` prints: positions, solve times and the
//! solve's two stages (the sweep and the levels' propagation), positions
//! per second per thread, the 2-vs-1-thread speed-up, peak memory and bytes
//! per position on disk. Each timing is the best of `ROUNDS` rounds (this
//! machine's timings are noisy), with the thread counts interleaved so both
//! see the same conditions.
//!
//! Instruction counts (stable where wall times are not) come from callgrind,
//! as `perf stat` counters are not available on every virtual machine: when
//! `valgrind` is installed, the benchmark runs itself under it once more for
//! one solve of `TRvTR` (a material equal on both sides) and one of `ELvTR`
//! on one thread (see [`INNER`]) and prints instructions per position
//! (about two minutes more).

use jungletb::indexer::{Material, PositionIndex};
use jungletb::rules::Ruleset;
use jungletb::solver::{generate, solve_material, GenerateOptions};
use jungletb::tablebase::{table_dir, write_table, Tablebase};
use std::time::{Duration, Instant};

/// With and without Rats (water, captures across the river's edge),
/// jumpers blocked by Rats, the Elephant, traps, a material equal on both
/// sides (White to move only).
const SUBSET: [&str; 6] = ["ELvTR", "LTvRP", "ERvDC", "TRvTR", "WDvCP", "LRvE"];
const ROUNDS: usize = 2;
/// Set in the benchmark's own child process, run under callgrind: the
/// material to solve, followed by the directory of the sub-tables.
const INNER: &str = "JUNGLETB_BENCH_INNER";
/// The materials counted under callgrind: equal on both sides (its
/// predecessors stored colour swapped), and not.
const COUNTED: [&str; 2] = ["TRvTR", "ELvTR"];

/// In the child process: one solve of the material of `task` on one
/// thread, nothing else.
fn inner(task: &str) {
    let (material, dir) = task.split_once(':').expect("material:dir");
    let rules = Ruleset::standard();
    let m = material.parse::<Material>().unwrap().canonical().0;
    let tb = Tablebase::with_dir(dir.into(), rules.clone());
    let work = tempfile::tempdir().unwrap();
    pool(1)
        .install(|| solve_material(m, &rules, &tb, work.path(), u64::MAX, &|_| {}))
        .unwrap();
}

/// Instructions of one solve of `material` (callgrind's "I refs" of this
/// program run as a child), or `None` without valgrind.
fn instructions(dir: &std::path::Path, material: &str) -> Option<u64> {
    let out = std::process::Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .arg(std::env::current_exe().ok()?)
        .env(INNER, format!("{material}:{}", dir.display()))
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stderr);
    let line = text.lines().find(|l| l.contains("I   refs:"))?;
    line.rsplit(':')
        .next()?
        .trim()
        .replace(',', "")
        .parse()
        .ok()
}

fn peak_rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| {
                l.split_whitespace()
                    .nth(1)
                    .and_then(|k| k.parse::<f64>().ok())
            })
        })
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

fn main() {
    if let Ok(task) = std::env::var(INNER) {
        return inner(&task);
    }
    let rules = Ruleset::standard();
    let materials: Vec<Material> = SUBSET
        .iter()
        .map(|s| s.parse::<Material>().unwrap().canonical().0)
        .collect();
    let root = tempfile::tempdir().unwrap();
    // The smaller tables the subset captures into (not timed).
    let deps: Vec<Material> = materials.iter().flat_map(|m| m.sub_materials()).collect();
    generate(&GenerateOptions {
        root: root.path().to_path_buf(),
        rules: rules.clone(),
        max_pieces: 3,
        materials: deps,
        mem: None,
        check_space: true,
    })
    .unwrap();
    let dir = table_dir(root.path(), &rules);
    let tb = Tablebase::with_dir(dir.clone(), rules.clone());
    let work = tempfile::tempdir_in(&dir).unwrap();

    // Each thread count's best round: the whole solve, and its sweep and
    // propagation summed over the materials.
    let mut best = [[Duration::MAX; 3]; 3];
    let mut positions = 0u64;
    let mut bytes = 0u64;
    let mut counted = [0u64; 2];
    let counted_materials = COUNTED.map(|c| c.parse::<Material>().unwrap().canonical().0);
    for round in 0..ROUNDS {
        for threads in [1usize, 2] {
            let p = pool(threads);
            let (mut solve, mut sweep, mut propagate) =
                (Duration::ZERO, Duration::ZERO, Duration::ZERO);
            let mut pos_count = 0;
            for &m in &materials {
                // The solve alone: the table written below is not timed.
                let t = Instant::now();
                let (raw, stats) = p
                    .install(|| solve_material(m, &rules, &tb, work.path(), u64::MAX, &|_| {}))
                    .unwrap();
                solve += t.elapsed();
                pos_count += stats.positions;
                (sweep, propagate) = (sweep + stats.sweep, propagate + stats.propagate);
                if let Some(k) = counted_materials.iter().position(|&c| c == m) {
                    counted[k] = stats.positions;
                }
                if round == 0 && threads == 2 {
                    let index = PositionIndex::new(m, &rules).unwrap();
                    bytes += write_table(work.path(), &rules, &index, &raw.to_vec())
                        .unwrap()
                        .bytes;
                }
            }
            if solve < best[threads][0] {
                best[threads] = [solve, sweep, propagate];
            }
            positions = pos_count;
        }
    }
    let secs = |d: Duration| d.as_secs_f64();
    println!(
        "jungletb generation benchmark ({} rounds, best of each)",
        ROUNDS
    );
    println!("materials: {}", SUBSET.join(" "));
    println!("positions: {positions}");
    for t in [1, 2] {
        let [solve, sweep, propagate] = best[t];
        println!(
            "{t} thread(s): solve {:.3} s ({:.2} M positions/s/thread, {:.0} ns/position/thread): sweep {:.3} s, propagation {:.3} s",
            secs(solve),
            positions as f64 / secs(solve) / t as f64 / 1e6,
            secs(solve) * t as f64 * 1e9 / positions as f64,
            secs(sweep),
            secs(propagate),
        );
    }
    println!(
        "speed-up 2 vs 1 thread: solve {:.2}x, sweep {:.2}x, propagation {:.2}x",
        secs(best[1][0]) / secs(best[2][0]),
        secs(best[1][1]) / secs(best[2][1]),
        secs(best[1][2]) / secs(best[2][2]),
    );
    println!(
        "bytes on disk: {bytes} ({:.3} bytes/position)",
        bytes as f64 / positions as f64
    );
    println!("peak resident memory: {:.1} MB", peak_rss_mb());
    for (material, n) in COUNTED.iter().zip(counted) {
        match instructions(&dir, material) {
            Some(solve) => println!(
                "instructions (callgrind, {material}, 1 thread, whole process): solve {solve} ({:.0}/position)",
                solve as f64 / n as f64,
            ),
            None => println!("instructions: valgrind not found or it failed; install it for the counts"),
        }
    }
}
