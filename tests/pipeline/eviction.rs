//! Many threads probing every table with caps far below the table count:
//! tables are closed least recently used first and opened again, every
//! answer equals the resident tablebase's, and the caps hold.

use crate::fixture;
use jungletb::indexer::Material;
use jungletb::rules::{Position, Ruleset};
use jungletb::tablebase::{table_dir, Backend, Tablebase, TablebaseOptions};

/// Positions spread over every fixture table (a few per material).
fn positions() -> Vec<Position> {
    let rules = Ruleset::standard();
    let tb = Tablebase::open(fixture::standard(), rules.clone()).unwrap();
    let dir = table_dir(fixture::standard(), &rules);
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        let Some(m) = name.strip_suffix(".jtb") else {
            continue;
        };
        let m: Material = m.parse().unwrap();
        let t = tb.table(m).unwrap();
        let n = t.index().size();
        for k in 0..8 {
            if let Some(p) = t.index().canonical_position(n * k / 8) {
                out.push(p);
                out.push(p.color_flip());
            }
        }
    }
    assert!(out.len() > 500, "{}", out.len());
    out
}

fn hammer(options: TablebaseOptions, max_files: u64, max_mapped: u64) {
    let rules = Ruleset::standard();
    let resident = Tablebase::open(fixture::standard(), rules.clone()).unwrap();
    let capped = Tablebase::open_with(fixture::standard(), rules, options).unwrap();
    let positions = positions();
    let expected: Vec<_> = positions
        .iter()
        .map(|p| resident.probe(p).unwrap())
        .collect();
    std::thread::scope(|s| {
        for t in 0..16usize {
            let (capped, resident, positions, expected) =
                (&capped, &resident, &positions, &expected);
            s.spawn(move || {
                // Each thread walks the positions from its own offset and
                // stride, so threads want different tables at once.
                let n = positions.len();
                for k in 0..n {
                    let i = (t * 97 + k * (2 * t + 1)) % n;
                    assert_eq!(
                        capped.probe(&positions[i]).unwrap(),
                        expected[i],
                        "{}",
                        positions[i]
                    );
                    // Root moves reach the sub-tables of captures too.
                    if k % 16 == 0 {
                        assert_eq!(
                            capped.probe_root(&positions[i]).unwrap(),
                            resident.probe_root(&positions[i]).unwrap()
                        );
                    }
                }
            });
        }
    });
    let u = capped.usage();
    assert!(u.open_files <= max_files, "{u:?}");
    assert!(u.mapped_bytes <= max_mapped, "{u:?}");
    assert!(
        u.evictions > 100,
        "caps far below the table count must evict: {u:?}"
    );
}

#[test]
fn sixteen_threads_with_three_open_files() {
    hammer(
        TablebaseOptions {
            backend: Backend::Pread,
            max_open_files: 3,
            ..TablebaseOptions::default()
        },
        3,
        0,
    );
}

#[test]
fn sixteen_threads_with_a_cap_on_mapped_bytes() {
    // Room for the largest fixture table and a little more, no files.
    let dir = table_dir(fixture::standard(), &Ruleset::standard());
    let largest = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .max()
        .unwrap();
    let cap = largest + largest / 2;
    hammer(
        TablebaseOptions {
            max_mapped_bytes: cap,
            max_open_files: 0,
            ..TablebaseOptions::default()
        },
        0,
        cap,
    );
}
