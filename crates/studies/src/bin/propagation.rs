//! One solve of one material, its table not written: the sweep's and the
//! propagation's times and a checksum of the values, so that two builds
//! can be compared interleaved on the same material.
//!
//! ```text
//! cargo run --release -p jungletb-studies --bin propagation -- TABLES/standard ELTvEL 2
//! ```
//!
//! `TABLES/standard` must hold the tables the material captures into; the
//! last argument is the thread count.

use jungletb_indexer::Material;
use jungletb_rules::Ruleset;
use jungletb_solver::{solve_material, RawValues};
use jungletb_tablebase::Tablebase;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, dir, material, threads] = &args[..] else {
        eprintln!("usage: propagation TABLE_DIR MATERIAL THREADS");
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
    let solved = pool.install(|| solve_material(material, &rules, &tb, &work, u64::MAX, &|_| {}));
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
                "{material} on {threads}: sweep {:.3} s, propagate {:.3} s \
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
