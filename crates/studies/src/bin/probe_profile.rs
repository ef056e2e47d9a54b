//! Random `probe_wdl` calls over every table of a directory, in a loop, for
//! profilers (`perf record`, callgrind): the benchmark's access pattern
//! without its timing machinery.
//!
//! ```text
//! cargo build --profile profiling -p jungletb-studies --bin probe_profile
//! perf record target/profiling/probe_profile ROOT [PROBES] [keep|nokeep]
//! PROBE_LATENCY=1 target/release/probe_profile ROOT   # also median, p90, p99, p99.9
//! PROBE_DTM=1 target/release/probe_profile ROOT       # distance probes (`probe`)
//! ```
//!
//! `ROOT` holds `standard/` with plain or compressed tables up to 4 pieces.

use jungletb_indexer::Material;
use jungletb_rules::Ruleset;
use jungletb_tablebase::{Tablebase, TablebaseOptions};
use std::time::Instant;

#[path = "../../../../benches/support/random_positions.rs"]
mod random_positions;
use random_positions::random_positions;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(root) = args.get(1) else {
        eprintln!("usage: probe_profile ROOT [PROBES] [keep|nokeep]");
        std::process::exit(2);
    };
    let probes: usize = args
        .get(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let options = TablebaseOptions {
        max_decoded_bytes: if args.get(3).map(String::as_str) == Some("keep") {
            TablebaseOptions::default().max_decoded_bytes
        } else {
            0
        },
        ..TablebaseOptions::default()
    };
    let rules = Ruleset::standard();
    let tb = match Tablebase::open_with(std::path::Path::new(root), rules.clone(), options) {
        Ok(tb) => tb,
        Err(e) => {
            eprintln!("probe_profile: {e}");
            std::process::exit(1);
        }
    };
    let dir = std::path::Path::new(root).join("standard");
    let materials: Vec<Material> = Material::all(4, |_| true)
        .into_iter()
        .map(|m| m.canonical().0)
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .filter(|m| dir.join(format!("{m}.jtb")).exists() || dir.join(format!("{m}.jtbz")).exists())
        .collect();
    let positions = random_positions(&materials, &rules, probes);
    // Warm up (every table opened, its pages faulted in), stopping at the
    // first table that cannot answer.
    for p in &positions {
        if let Err(e) = tb.probe_wdl(p) {
            eprintln!("probe_profile: {p}: {e}");
            std::process::exit(1);
        }
    }
    // PROBE_DTM=1: distance probes (`probe`) instead of `probe_wdl`.
    let dtm = std::env::var_os("PROBE_DTM").is_some();
    let probe = |p| -> i64 {
        if dtm {
            tb.probe(p).map_or(0, |v| i64::from(v.plies().unwrap_or(0)))
        } else {
            tb.probe_wdl(p).map_or(0, |w| w as i64)
        }
    };
    let t = Instant::now();
    let mut sum = 0i64;
    for p in &positions {
        sum += probe(p);
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{} tables, {probes} probes: {:.0} ns per probe ({:.2} M/s), checksum {sum}",
        materials.len(),
        secs * 1e9 / probes as f64,
        probes as f64 / secs / 1e6
    );
    if std::env::var_os("PROBE_LATENCY").is_some() {
        // Single probes timed one by one (about 20 ns of timer each).
        let mut ns: Vec<u64> = positions
            .iter()
            .map(|p| {
                let t = Instant::now();
                std::hint::black_box(probe(p));
                t.elapsed().as_nanos() as u64
            })
            .collect();
        ns.sort_unstable();
        let q = |f: f64| ns[((ns.len() - 1) as f64 * f) as usize];
        println!(
            "latency: median {} ns, p90 {} ns, p99 {} ns, p99.9 {} ns",
            q(0.5),
            q(0.9),
            q(0.99),
            q(0.999)
        );
    }
}
