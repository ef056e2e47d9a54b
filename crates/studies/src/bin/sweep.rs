//! One forward sweep of one material, on one thread: the yardstick of
//! `benches/generate.rs`, alone, for instruction counts under callgrind.
//!
//! ```text
//! cargo build --profile profiling -p jungletb-studies --bin sweep
//! valgrind --tool=callgrind target/profiling/sweep TABLES/standard TRvTR
//! ```
//!
//! `TABLES/standard` must hold the tables the material captures into.

use jungletb_indexer::Material;
use jungletb_rules::Ruleset;
use jungletb_solver::forward_sweep;
use jungletb_tablebase::Tablebase;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, dir, material] = &args[..] else {
        eprintln!("usage: sweep TABLE_DIR MATERIAL");
        std::process::exit(2);
    };
    let rules = Ruleset::standard();
    let material = match material.parse::<Material>() {
        Ok(m) => m.canonical().0,
        Err(e) => {
            eprintln!("sweep: {e}");
            std::process::exit(2);
        }
    };
    let tb = Tablebase::with_dir(dir.into(), rules.clone());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a thread");
    match pool.install(|| forward_sweep(material, &rules, &tb)) {
        Ok(s) => println!(
            "{material}: {} positions, {} successors, checksum {:016x}, {:.3} s",
            s.positions,
            s.successors,
            s.checksum,
            s.time.as_secs_f64()
        ),
        Err(e) => {
            eprintln!("sweep: {e}");
            std::process::exit(1);
        }
    }
}
