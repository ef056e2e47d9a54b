//! Probes per second through the WebAssembly module's session, natively,
//! on one thread, with every table in memory: the figure that
//! `js/bench/rate.mjs` measures in Node, for the ratio of the two.
//!
//!   cargo run --release -p jungletb-wasm --example probe_rate -- DIR POSITIONS [SECONDS]
//!
//! DIR: one rule set's directory of tables; POSITIONS: one per line.

use jungletb_wasm::session::{Reply, Session};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (dir, positions) = (&args[1], &args[2]);
    let seconds: f64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(3.0);
    let session = Session::open(r#"{"ruleset":"standard"}"#).expect("a session");
    for entry in std::fs::read_dir(dir).expect("the directory") {
        let path = entry.expect("an entry").path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let Some(material) = name.strip_suffix(".jtbz") else {
            continue;
        };
        let bytes = std::fs::read(&path).expect("the table");
        session.add(material, &name, bytes.len() as u64);
        assert_eq!(session.supply(material, 0, &bytes, true).code(), 0);
    }
    let positions: Vec<String> = std::fs::read_to_string(positions)
        .expect("the positions")
        .lines()
        .map(str::to_string)
        .collect();
    for (what, probe) in [
        (
            "probeWdl",
            Session::probe_wdl as fn(&Session, &str) -> Reply,
        ),
        ("probe", Session::probe),
    ] {
        // Once over every position (tables open, answers checked), then timed.
        for p in &positions {
            assert_eq!(probe(&session, p).code(), 0, "{p}");
        }
        let (started, mut n) = (Instant::now(), 0u64);
        while started.elapsed().as_secs_f64() < seconds {
            for p in &positions {
                std::hint::black_box(probe(&session, p));
            }
            n += positions.len() as u64;
        }
        let rate = n as f64 / started.elapsed().as_secs_f64();
        println!("native {what}: {rate:.0} probes/s ({n} probes, one thread)");
    }
}
