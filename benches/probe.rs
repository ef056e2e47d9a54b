//! Probe benchmark: random `probe_wdl` and `probe` of positions of 2 to 4
//! pieces with the tables in the page cache, on 1 and 2 threads, and the
//! latency distribution of single probes; for plain tables, compressed
//! tables through memory maps and compressed tables through positional
//! reads.

use jungletb::format::compressed::DEFAULT_ZSTD_LEVEL;
use jungletb::format::{
    table_dir, table_path, write_compressed_table, Backend, Table, Tablebase, TablebaseOptions,
};
use jungletb::indexer::{Material, PositionIndex};
use jungletb::rules::{Position, Ruleset};
use jungletb::solver::{generate, GenerateOptions};
use std::time::{Duration, Instant};

const FOUR: [&str; 6] = ["ELvTR", "LTvRP", "ERvDC", "TRvTR", "WDvCP", "LRvE"];
const PROBES: usize = 2_000_000;

fn main() {
    let rules = Ruleset::standard();
    let root = tempfile::tempdir().unwrap();
    let mut materials: Vec<Material> = Material::all(3, |_| true);
    materials.extend(FOUR.iter().map(|s| s.parse::<Material>().unwrap()));
    generate(&GenerateOptions {
        root: root.path().to_path_buf(),
        rules: rules.clone(),
        max_pieces: 4,
        materials: materials.clone(),
        mem: None,
    })
    .unwrap();
    // Random positions from random slots of random tables (a fixed seed).
    let canonical: Vec<Material> = materials.iter().map(|m| m.canonical().0).collect();
    let indexes: Vec<PositionIndex> = canonical
        .iter()
        .map(|m| PositionIndex::new(*m, &rules).unwrap())
        .collect();
    let mut seed = 0x1234_5678_9ABC_DEF1u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut positions: Vec<Position> = Vec::with_capacity(PROBES);
    while positions.len() < PROBES {
        let idx = &indexes[next() as usize % indexes.len()];
        if let Some(p) = idx.canonical_position(next() % idx.size()) {
            // Half of them in the colour order tables are not stored under.
            positions.push(if next() % 2 == 0 { p } else { p.color_flip() });
        }
    }
    // The same tables compressed, in a second root.
    let zroot = tempfile::tempdir().unwrap();
    let (dir, zdir) = (
        table_dir(root.path(), &rules),
        table_dir(zroot.path(), &rules),
    );
    let (mut plain_bytes, mut zbytes) = (0, 0);
    for m in &canonical {
        let t = Table::open(&table_path(&dir, *m), &rules, *m).unwrap();
        let (stats, _) = write_compressed_table(&zdir, &t, DEFAULT_ZSTD_LEVEL).unwrap();
        plain_bytes += t.file_len();
        zbytes += stats.bytes;
    }
    println!(
        "jungletb probe benchmark: {PROBES} random positions of 2-4 pieces ({} tables, page cache warm)",
        materials.len()
    );
    println!(
        "tables: plain {plain_bytes} bytes, compressed {zbytes} bytes ({:.1} %)",
        100.0 * zbytes as f64 / plain_bytes as f64
    );
    let pread = TablebaseOptions {
        backend: Backend::Pread,
        ..TablebaseOptions::default()
    };
    let no_keep = TablebaseOptions {
        max_decoded_bytes: 0,
        ..TablebaseOptions::default()
    };
    let plain = Tablebase::open(root.path(), rules.clone()).unwrap();
    let setups = [
        ("plain, mmap", plain),
        (
            "compressed, mmap, decoded blocks kept (default)",
            Tablebase::open(zroot.path(), rules.clone()).unwrap(),
        ),
        (
            "compressed, mmap, every block decoded per probe (max_decoded_bytes = 0)",
            Tablebase::open_with(zroot.path(), rules.clone(), no_keep).unwrap(),
        ),
        (
            "compressed, pread, decoded blocks kept",
            Tablebase::open_with(zroot.path(), rules.clone(), pread).unwrap(),
        ),
    ];
    for (label, tb) in &setups {
        bench(label, tb, &positions);
    }
    // The compressed tables answer like the plain ones.
    for p in positions.iter().take(100_000) {
        assert_eq!(setups[0].1.probe(p).unwrap(), setups[1].1.probe(p).unwrap());
    }
}

fn bench(label: &str, tb: &Tablebase, positions: &[Position]) {
    // Warm up: open every table, fault its pages in (and decode the blocks
    // that are kept).
    for p in positions {
        tb.probe(p).unwrap();
    }
    let run = |threads: usize, wdl_only: bool| -> Duration {
        let per = positions.len() / threads;
        let t = Instant::now();
        std::thread::scope(|s| {
            for k in 0..threads {
                let slice = &positions[k * per..(k + 1) * per];
                s.spawn(move || {
                    let mut sum = 0i64;
                    for p in slice {
                        sum += if wdl_only {
                            tb.probe_wdl(p).unwrap() as i64
                        } else {
                            tb.probe(p).unwrap().plies().unwrap_or(0) as i64
                        };
                    }
                    std::hint::black_box(sum);
                });
            }
        });
        t.elapsed()
    };
    println!("{label}:");
    for wdl_only in [true, false] {
        let name = if wdl_only { "probe_wdl" } else { "probe    " };
        let best = |threads| (0..3).map(|_| run(threads, wdl_only)).min().unwrap();
        let (one, two) = (best(1), best(2));
        let n = positions.len();
        let rate = |d: Duration, t: usize| n as f64 / d.as_secs_f64() / t as f64 / 1e6;
        println!(
            "  {name}: 1 thread {:.2} M probes/s, 2 threads {:.2} M probes/s/thread, speed-up {:.2}x",
            rate(one, 1),
            rate(two, 2),
            one.as_secs_f64() / two.as_secs_f64()
        );
    }
    let mut lat: Vec<u64> = positions
        .iter()
        .take(200_000)
        .map(|p| {
            let t = Instant::now();
            std::hint::black_box(tb.probe_wdl(p).unwrap());
            t.elapsed().as_nanos() as u64
        })
        .collect();
    lat.sort_unstable();
    println!(
        "  probe_wdl latency (single probes, incl. ~20 ns timer overhead): median {} ns, p99 {} ns, max {} ns",
        lat[lat.len() / 2],
        lat[lat.len() * 99 / 100],
        lat[lat.len() - 1]
    );
}
