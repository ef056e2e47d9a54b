//! One solve of one material with a chosen propagation (see the solver's
//! `regions.rs`), its tables not written: the sweep's and the
//! propagation's times and a checksum of the values, so that two builds or
//! two propagations can be compared interleaved on the same material.
//!
//! ```text
//! cargo run --release -p jungletb-studies --bin propagation -- \
//!     TABLES/standard ELTvEL regions:22 2
//! ```
//!
//! `TABLES/standard` must hold the tables the material captures into; the
//! propagation is `auto`, `direct`, `bytes` (one-byte cells) or
//! `regions:BITS`; the last argument is
//! the thread count.

use jungletb_indexer::Material;
use jungletb_rules::Ruleset;
use jungletb_solver::{solve_material_with, Propagation, RawValues};
use jungletb_tablebase::Tablebase;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, dir, material, propagation, threads] = &args[..] else {
        eprintln!("usage: propagation TABLE_DIR MATERIAL auto|direct|bytes|regions:BITS THREADS");
        std::process::exit(2);
    };
    let fail = |what: &str| -> ! {
        eprintln!("propagation: {what}");
        std::process::exit(2);
    };
    let material = match material.parse::<Material>() {
        Ok(m) => m.canonical().0,
        Err(e) => fail(&e.to_string()),
    };
    let propagation = match propagation.as_str() {
        "auto" => Propagation::Auto,
        "direct" => Propagation::Direct,
        "bytes" => Propagation::ByteCells,
        p => match p.strip_prefix("regions:").and_then(|b| b.parse().ok()) {
            Some(bits) => Propagation::Regions { bits },
            None => fail(&format!("no propagation {p:?}")),
        },
    };
    let Ok(threads) = threads.parse::<usize>() else {
        fail(&format!("no thread count {threads:?}"));
    };
    let rules = Ruleset::standard();
    let tb = Tablebase::with_dir(dir.into(), rules.clone());
    let work = std::env::temp_dir();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("threads");
    let solved = pool.install(|| {
        solve_material_with(material, &rules, &tb, &work, u64::MAX, propagation, &|_| {})
    });
    match solved {
        Ok((values, stats)) => {
            // Over the values as they lie in memory (a copy would count
            // in the peak memory measured around this run).
            let fnv = |h: u64, v: u16| (h ^ v as u64).wrapping_mul(0x0100_0000_01b3);
            let checksum = match values.raw() {
                RawValues::Bytes(b) => b
                    .iter()
                    .fold(0xcbf2_9ce4_8422_2325u64, |h, &v| fnv(h, v as u16)),
                RawValues::Wide(w) => w.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &v| fnv(h, v)),
            };
            println!(
                "{material} {propagation:?} on {threads}: sweep {:.3} s, propagate {:.3} s \
                 ({} levels), checksum {checksum:016x}, scans read {} of {} slots",
                stats.sweep.as_secs_f64(),
                stats.propagate.as_secs_f64(),
                stats.levels,
                stats.scanned_slots.0,
                stats.scanned_slots.1
            );
        }
        Err(e) => {
            eprintln!("propagation: {e}");
            std::process::exit(1);
        }
    }
}
