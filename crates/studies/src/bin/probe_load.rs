//! Load test of the probe library: many threads probing random positions of
//! every table in a directory, with caps on open files and mapped bytes far
//! below the table count (tables are closed least recently used first and
//! opened again). Reports probes, errors, rate, evictions and peak memory.
//!
//! ```text
//! cargo run --release -p jungletb-studies --bin probe_load -- \
//!     TABLES_DIR [THREADS=64] [SECONDS=180] [MAX_OPEN_FILES=64] [MAX_MAPPED_MB=256]
//! ```
//!
//! `TABLES_DIR` is a standard rule set's table directory (e.g.
//! `tables/standard`), plain or compressed. Exits non-zero if any probe
//! failed.

use jungletb_indexer::{Material, PositionIndex};
use jungletb_rules::Ruleset;
use jungletb_tablebase::{table_files, Tablebase, TablebaseOptions};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

fn peak_rss_mb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .unwrap_or(0)
        >> 10
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first() else {
        eprintln!(
            "usage: probe_load TABLES_DIR [THREADS] [SECONDS] [MAX_OPEN_FILES] [MAX_MAPPED_MB]"
        );
        std::process::exit(2);
    };
    let num = |i: usize, d: u64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let (threads, seconds, files, mapped_mb) = (num(1, 64), num(2, 180), num(3, 64), num(4, 256));
    let rules = Ruleset::standard();
    let materials: Vec<Material> = table_files(dir.as_ref())
        .expect("a table directory")
        .iter()
        .filter_map(|p| p.file_stem()?.to_str()?.parse().ok())
        .collect();
    let indexes: Vec<PositionIndex> = materials
        .iter()
        .map(|&m| PositionIndex::new(m, &rules).expect("an index"))
        .collect();
    let options = TablebaseOptions {
        max_open_files: files,
        max_mapped_bytes: mapped_mb << 20,
        max_decoded_bytes: 64 << 20,
        ..TablebaseOptions::default()
    };
    let tb = Tablebase::open_with(dir, rules, options).expect("tables");
    let (probes, errors, stop) = (AtomicU64::new(0), AtomicU64::new(0), AtomicBool::new(false));
    let start = Instant::now();
    std::thread::scope(|s| {
        for t in 0..threads {
            let (tb, indexes, probes, errors, stop) = (&tb, &indexes, &probes, &errors, &stop);
            s.spawn(move || {
                let mut seed = 0x9E37_79B9_7F4A_7C15u64 ^ (t + 1);
                let mut next = || {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    seed
                };
                let mut n = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    let idx = &indexes[(next() % indexes.len() as u64) as usize];
                    let Some(pos) = idx.canonical_position(next() % idx.size()) else {
                        continue;
                    };
                    if let Err(e) = tb.probe(&pos) {
                        if errors.fetch_add(1, Ordering::Relaxed) < 5 {
                            eprintln!("error: {pos}: {e}");
                        }
                    }
                    n += 1;
                    if n.is_multiple_of(1024) {
                        probes.fetch_add(1024, Ordering::Relaxed);
                    }
                }
                probes.fetch_add(n % 1024, Ordering::Relaxed);
            });
        }
        let mut last = 0;
        let tick = Duration::from_secs(seconds.clamp(1, 10));
        while start.elapsed() < Duration::from_secs(seconds) {
            std::thread::sleep(tick);
            let p = probes.load(Ordering::Relaxed);
            let u = tb.usage();
            eprintln!(
                "{:>4.0} s: {:.2} M probes/s, {} errors, open files {}, mapped {} MB, {} evictions, peak RSS {} MB",
                start.elapsed().as_secs_f64(),
                (p - last) as f64 / tick.as_secs_f64() / 1e6,
                errors.load(Ordering::Relaxed),
                u.open_files,
                u.mapped_bytes >> 20,
                u.evictions,
                peak_rss_mb()
            );
            last = p;
        }
        stop.store(true, Ordering::Relaxed);
    });
    let secs = start.elapsed().as_secs_f64();
    let (p, e, u) = (
        probes.load(Ordering::Relaxed),
        errors.load(Ordering::Relaxed),
        tb.usage(),
    );
    println!(
        "{} tables, {threads} threads, {secs:.0} s: {p} probes ({:.2} M/s), {e} errors, {} evictions, final open files {} (cap {files}), mapped {} MB (cap {mapped_mb}), peak RSS {} MB",
        materials.len(),
        p as f64 / secs / 1e6,
        u.evictions,
        u.open_files,
        u.mapped_bytes >> 20,
        peak_rss_mb()
    );
    if e > 0 {
        std::process::exit(1);
    }
}
