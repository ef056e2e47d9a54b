//! Probe benchmark: random `probe_wdl` and `probe` of positions of 2 to 4
//! pieces with the tables in the page cache, on 1 and 2 threads, and the
//! latency distribution of single probes; for plain tables, compressed
//! tables through memory maps and compressed tables through positional
//! reads. Prints bits per position of both compressed streams and the
//! compressed / plain rate ratio, over all the tables and over the tables
//! up to 3 pieces alone (in the caches). `JUNGLETB_BENCH_TABLES` and
//! `JUNGLETB_BENCH_COMPRESSED` point it at larger sets (see `setup`).

use jungletb::format::compressed::DEFAULT_ZSTD_LEVEL;
use jungletb::indexer::Material;
use jungletb::rules::{Color, Position, Ruleset};
use jungletb::solver::{generate, GenerateOptions};
use jungletb::tablebase::{
    compressed_table_path, table_dir, table_files, table_path, write_compressed_table, Backend,
    Table, Tablebase, TablebaseOptions,
};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[path = "support/random_positions.rs"]
mod random_positions;
use random_positions::random_positions;

const FOUR: [&str; 6] = ["ELvTR", "LTvRP", "ERvDC", "TRvTR", "WDvCP", "LRvE"];
const PROBES: usize = 2_000_000;

/// The tables to probe: a plain and a compressed root, with the materials
/// in them. By default a small set (every table up to 3 pieces and six of
/// 4) generated and compressed here; with `JUNGLETB_BENCH_TABLES=DIR` and
/// `JUNGLETB_BENCH_COMPRESSED=DIR` (e.g. every table up to 4 pieces and
/// their `jungletb compress --out` copies), those.
struct Setup {
    root: PathBuf,
    zroot: PathBuf,
    materials: Vec<Material>,
    _temp: Vec<tempfile::TempDir>,
}

fn setup(rules: &Ruleset) -> Setup {
    if let (Ok(root), Ok(zroot)) = (
        std::env::var("JUNGLETB_BENCH_TABLES"),
        std::env::var("JUNGLETB_BENCH_COMPRESSED"),
    ) {
        let zdir = table_dir(Path::new(&zroot), rules);
        let materials = Material::all(4, |_| true)
            .into_iter()
            .map(|m| m.canonical().0)
            .filter(|m| compressed_table_path(&zdir, *m).exists())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        return Setup {
            root: root.into(),
            zroot: zroot.into(),
            materials,
            _temp: Vec::new(),
        };
    }
    let root = tempfile::tempdir().unwrap();
    let mut materials: Vec<Material> = Material::all(3, |_| true);
    materials.extend(FOUR.iter().map(|s| s.parse::<Material>().unwrap()));
    generate(&GenerateOptions {
        root: root.path().to_path_buf(),
        rules: rules.clone(),
        max_pieces: 4,
        materials: materials.clone(),
        mem: None,
        check_space: true,
    })
    .unwrap();
    let zroot = tempfile::tempdir().unwrap();
    let (dir, zdir) = (
        table_dir(root.path(), rules),
        table_dir(zroot.path(), rules),
    );
    let canonical: Vec<Material> = materials.iter().map(|m| m.canonical().0).collect();
    // Every table generated (the don't-care search needs the tables
    // captures lead into), as `jungletb compress` writes them.
    let plain = Tablebase::with_dir(dir.clone(), rules.clone());
    for path in table_files(&dir).unwrap() {
        let t = Table::open_any(&path).unwrap();
        write_compressed_table(&zdir, &t, DEFAULT_ZSTD_LEVEL, Some(&plain)).unwrap();
    }
    Setup {
        root: root.path().to_path_buf(),
        zroot: zroot.path().to_path_buf(),
        materials: canonical,
        _temp: vec![root, zroot],
    }
}

fn main() {
    let rules = Ruleset::standard();
    let setup = setup(&rules);
    let (dir, zdir) = (
        table_dir(&setup.root, &rules),
        table_dir(&setup.zroot, &rules),
    );
    let positions = random_positions(&setup.materials, &rules, PROBES);
    let (mut plain_bytes, mut zbytes, mut wdl_bytes, mut dtm_bytes, mut stored) = (0, 0, 0, 0, 0);
    for m in &setup.materials {
        let t = Table::open(&table_path(&dir, *m), &rules, *m).unwrap();
        let z = Table::open(&compressed_table_path(&zdir, *m), &rules, *m).unwrap();
        let sizes = z.compressed_sizes().unwrap().unwrap();
        plain_bytes += t.file_len();
        zbytes += z.file_len();
        wdl_bytes += sizes.wdl_bytes;
        dtm_bytes += sizes.dtm_bytes;
        // Positions stored (materials with the same animals on both sides
        // store White to move only; their header also counts Black).
        let h = t.header();
        stored += h.side(Color::White).positions;
        if !h.white_to_move_only {
            stored += h.side(Color::Black).positions;
        }
    }
    println!(
        "jungletb probe benchmark: {PROBES} random positions of 2-4 pieces ({} tables, page cache warm)",
        setup.materials.len()
    );
    let bits = |b: u64| 8.0 * b as f64 / stored as f64;
    println!(
        "tables: plain {plain_bytes} bytes, compressed {zbytes} bytes ({:.1} %); \
         {stored} positions: WDL {:.3} bits/position, DTM {:.3} bits/position (block indexes included)",
        100.0 * zbytes as f64 / plain_bytes as f64,
        bits(wdl_bytes),
        bits(dtm_bytes)
    );
    let pread = TablebaseOptions {
        backend: Backend::Pread,
        // One open file per table (the default cap, 512, is below the
        // 1,114 tables up to 4 pieces).
        max_open_files: setup.materials.len() as u64,
        ..TablebaseOptions::default()
    };
    let no_keep = TablebaseOptions {
        max_decoded_bytes: 0,
        ..TablebaseOptions::default()
    };
    let setups = [
        (
            "plain, mmap",
            Tablebase::open(&setup.root, rules.clone()).unwrap(),
        ),
        (
            "compressed, mmap, decoded distance blocks kept (default)",
            Tablebase::open(&setup.zroot, rules.clone()).unwrap(),
        ),
        (
            "compressed, mmap, every block decoded per probe (max_decoded_bytes = 0)",
            Tablebase::open_with(&setup.zroot, rules.clone(), no_keep).unwrap(),
        ),
        (
            "compressed, pread, decoded distance blocks kept",
            Tablebase::open_with(&setup.zroot, rules.clone(), pread).unwrap(),
        ),
    ];
    let results: Vec<Rates> = setups
        .iter()
        .map(|(label, tb)| bench(label, tb, &positions))
        .collect();
    println!(
        "compressed without kept blocks / plain, 1 thread: probe_wdl {:.2}x, probe {:.2}x",
        results[2].wdl / results[0].wdl,
        results[2].dtm / results[0].dtm
    );
    // The same two setups on the tables up to 3 pieces only (a few MB in
    // all, so in the caches after the warm-up): what an engine probing a
    // small working set of tables sees, against the whole set's spread.
    let small: Vec<Material> = setup
        .materials
        .iter()
        .copied()
        .filter(|m| m.piece_count() <= 3)
        .collect();
    let in_cache = random_positions(&small, &rules, PROBES);
    let wdl_rate = |tb: &Tablebase| {
        in_cache.iter().for_each(|p| {
            tb.probe_wdl(p).unwrap();
        });
        (0..3)
            .map(|_| {
                let t = Instant::now();
                let sum: i64 = in_cache
                    .iter()
                    .map(|p| tb.probe_wdl(p).unwrap() as i64)
                    .sum();
                std::hint::black_box(sum);
                t.elapsed()
            })
            .min()
            .map(|d| in_cache.len() as f64 / d.as_secs_f64() / 1e6)
            .unwrap()
    };
    let (plain_small, packed_small) = (wdl_rate(&setups[0].1), wdl_rate(&setups[2].1));
    println!(
        "tables up to 3 pieces only ({} tables, in the caches), probe_wdl, 1 thread: \
         plain {plain_small:.2} M probes/s, compressed without kept blocks {packed_small:.2} M probes/s ({:.2}x)",
        small.len(),
        packed_small / plain_small
    );
    // The compressed tables answer like the plain ones.
    for p in positions.iter().take(100_000) {
        assert_eq!(setups[0].1.probe(p).unwrap(), setups[2].1.probe(p).unwrap());
    }
}

/// One-thread rates (M probes/s) of one setup.
struct Rates {
    wdl: f64,
    dtm: f64,
}

fn bench(label: &str, tb: &Tablebase, positions: &[Position]) -> Rates {
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
    let mut rates = Rates { wdl: 0.0, dtm: 0.0 };
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
        *(if wdl_only {
            &mut rates.wdl
        } else {
            &mut rates.dtm
        }) = rate(one, 1);
    }
    for wdl_only in [true, false] {
        let mut lat: Vec<u64> = positions
            .iter()
            .take(200_000)
            .map(|p| {
                let t = Instant::now();
                if wdl_only {
                    std::hint::black_box(tb.probe_wdl(p).unwrap());
                } else {
                    std::hint::black_box(tb.probe(p).unwrap());
                }
                t.elapsed().as_nanos() as u64
            })
            .collect();
        lat.sort_unstable();
        println!(
            "  {} latency (single probes, incl. ~20 ns timer overhead): median {} ns, p99 {} ns, max {} ns",
            if wdl_only { "probe_wdl" } else { "probe    " },
            lat[lat.len() / 2],
            lat[lat.len() * 99 / 100],
            lat[lat.len() - 1]
        );
    }
    rates
}
