//! Tables fetched range by range, as the browser build reads them over
//! HTTP: a [`RemoteTables`] store, a host that serves the files' bytes
//! (counting requests, or damaging them), and the retry protocol. Every
//! answer must equal the files' answer; damage must be refused, never
//! answered; a warm probe must fetch nothing.

use crate::dont_cares::dc_root;
use crate::fixture;
use jungletb::indexer::{Material, PositionIndex};
use jungletb::rules::{Position, Ruleset};
use jungletb::tablebase::{
    table_dir, table_files, Attempt, Evaluation, Missing, ProbeError, RemoteOptions, RemoteTables,
    TableError, Tablebase, TablebaseOptions,
};
use jungletb::tablebase::{write_compressed_table, Table};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use tempfile::TempDir;

/// ELvTR (6.5 million slots, a table larger than the 64 KiB a table's
/// opening fetches) and its smaller tables: the plain root and every table
/// compressed with don't-cares.
fn four_piece() -> &'static (TempDir, TempDir) {
    static DIRS: OnceLock<(TempDir, TempDir)> = OnceLock::new();
    DIRS.get_or_init(|| {
        let rules = Ruleset::standard();
        let plain = fixture::generate_tables(&rules, vec!["ELvTR".parse().unwrap()]);
        let tb = Tablebase::open(plain.path(), rules.clone()).unwrap();
        let packed = tempfile::tempdir().unwrap();
        for path in table_files(&table_dir(plain.path(), &rules)).unwrap() {
            let t = Table::open_any(&path).unwrap();
            write_compressed_table(&table_dir(packed.path(), &rules), &t, 3, Some(&tb)).unwrap();
        }
        (plain, packed)
    })
}

/// Serves the files of one directory, as a static host would.
struct Host {
    dir: PathBuf,
    requests: u64,
    bytes: u64,
    /// Flip one byte of every response, at this offset within it (modulo
    /// its length).
    damage_at: Option<usize>,
}

impl Host {
    fn new(dir: &Path) -> Host {
        Host {
            dir: dir.to_path_buf(),
            requests: 0,
            bytes: 0,
            damage_at: None,
        }
    }

    fn serve(&mut self, store: &RemoteTables, missing: &[Missing]) {
        for m in missing {
            let all = std::fs::read(self.dir.join(&m.file)).unwrap();
            let mut bytes = all[m.at as usize..(m.at + m.len) as usize].to_vec();
            if let Some(k) = self.damage_at {
                let k = k % bytes.len();
                bytes[k] ^= 0x20;
            }
            self.requests += 1;
            self.bytes += m.len;
            store.supply(m.material, m.at, &bytes).unwrap();
        }
    }
}

/// A store declaring every table file of `dir`.
fn store_of(dir: &Path, options: RemoteOptions) -> Arc<RemoteTables> {
    let store = Arc::new(RemoteTables::new("https://tables.example", options));
    for path in table_files(dir).unwrap() {
        let name = path.file_name().unwrap().to_str().unwrap();
        let m: Material = path.file_stem().unwrap().to_str().unwrap().parse().unwrap();
        store.add(m, name, std::fs::metadata(&path).unwrap().len());
    }
    store
}

fn remote_tablebase(store: &Arc<RemoteTables>, rules: &Ruleset) -> Tablebase {
    Tablebase::with_store(store.clone(), rules.clone(), TablebaseOptions::default()).unwrap()
}

/// Probes `pos` until it is answered; returns the answer and the rounds
/// of fetches it took.
fn evaluate(
    tb: &Tablebase,
    store: &RemoteTables,
    host: &mut Host,
    pos: &Position,
) -> (Result<Evaluation, ProbeError>, u32) {
    for round in 0..64 {
        match store.evaluate(tb, pos) {
            Attempt::Done(answer) => return (answer, round),
            Attempt::Fetch(missing) => host.serve(store, &missing),
        }
    }
    panic!("{pos}: still fetching after 64 rounds");
}

/// Every `step`-th position of every material of the tables root `root`.
fn sample(root: &Path, rules: &Ruleset, step: u64) -> Vec<Position> {
    let mut out = Vec::new();
    for path in table_files(&table_dir(root, rules)).unwrap() {
        let m: Material = path.file_stem().unwrap().to_str().unwrap().parse().unwrap();
        let index = PositionIndex::new(m, rules).unwrap();
        let mut i = 7;
        while i < index.size() {
            if let Some(p) = index.position(i) {
                if p.validate_reachable(rules).is_ok() {
                    out.push(p);
                }
            }
            i += step;
        }
    }
    out
}

#[test]
fn fetched_tables_answer_every_position_as_the_files_do_and_warm_probes_fetch_nothing() {
    let rules = Ruleset::standard();
    let files = Tablebase::open(fixture::standard(), rules.clone()).unwrap();
    let dir = table_dir(dc_root(), &rules);
    let store = store_of(&dir, RemoteOptions::default());
    let tb = remote_tablebase(&store, &rules);
    let mut host = Host::new(&dir);
    let positions = sample(fixture::standard(), &rules, 4099);
    assert!(positions.len() > 300, "only {} positions", positions.len());
    let (mut most_rounds, mut captures) = (0, 0);
    for pos in &positions {
        let (got, rounds) = evaluate(&tb, &store, &mut host, pos);
        assert_eq!(got, files.evaluate(pos), "{pos}");
        most_rounds = most_rounds.max(rounds);
        captures += got.unwrap().moves.iter().any(|r| r.mv.captured.is_some()) as u32;
        // The same probe again: everything it read is kept.
        let before = host.requests;
        assert_eq!(evaluate(&tb, &store, &mut host, pos).1, 0, "{pos}");
        assert_eq!(host.requests, before);
    }
    assert!(captures > 20, "only {captures} positions with captures");
    // Open (header and indexes), blocks, then sub-tables' open and blocks:
    // a handful of round trips, not one per move.
    assert!(most_rounds <= 6, "{most_rounds} rounds for one probe");
    assert!(store.cache_usage().pinned_bytes > 0);
}

#[test]
fn bytes_damaged_in_transit_are_refused_and_never_answered() {
    let rules = Ruleset::standard();
    let files = Tablebase::open(fixture::standard(), rules.clone()).unwrap();
    let dir = table_dir(dc_root(), &rules);
    let (mut refused, mut answered) = (0, 0);
    for (k, pos) in sample(fixture::standard(), &rules, 40009)
        .iter()
        .enumerate()
    {
        // A fresh store each time, so that the probe fetches damaged pages.
        let store = store_of(&dir, RemoteOptions::default());
        let tb = remote_tablebase(&store, &rules);
        let mut host = Host::new(&dir);
        host.damage_at = Some(k * 7919);
        match evaluate(&tb, &store, &mut host, pos).0 {
            Ok(e) => {
                assert_eq!(
                    Ok(e),
                    files.evaluate(pos),
                    "{pos}: a damaged byte answered wrong"
                );
                answered += 1;
            }
            // Refused where the damage is read: the header, the indexes
            // (at open), a block (at a probe).
            Err(ProbeError::Table(
                TableError::Corrupt { .. }
                | TableError::ChecksumMismatch { .. }
                | TableError::NotATable(_)
                | TableError::UnsupportedVersion { .. }
                | TableError::Truncated { .. },
            )) => refused += 1,
            Err(e) => panic!("{pos}: {e:?}"),
        }
    }
    assert!(refused > 0, "no damage was seen ({answered} answered)");
}

#[test]
fn damage_in_a_table_header_or_index_is_refused_when_the_table_opens() {
    let rules = Ruleset::standard();
    let dir = table_dir(dc_root(), &rules);
    let pos: Position = "7/7/7/7/7/7/7/2E4/r6 w".parse().unwrap();
    let m = Material::of_position(&pos).unwrap().canonical().0;
    let file = format!("{m}.jtbz");
    let bytes = std::fs::read(dir.join(&file)).unwrap();
    for at in [3usize, 40, 200, bytes.len() / 3] {
        let store = store_of(&dir, RemoteOptions::default());
        let mut damaged = bytes.clone();
        damaged[at] ^= 1;
        store.supply(m, 0, &damaged).unwrap();
        let tb = remote_tablebase(&store, &rules);
        match tb.probe(&pos) {
            Err(ProbeError::Table(_)) => {}
            other => panic!("byte {at} flipped: {other:?}"),
        }
    }
}

#[test]
fn a_plain_table_is_read_only_whole_and_other_rules_tables_are_refused() {
    let rules = Ruleset::standard();
    let plain_dir = table_dir(fixture::standard(), &rules);
    let pos: Position = "7/7/7/7/7/7/7/2E4/r6 w".parse().unwrap();
    let m = Material::of_position(&pos).unwrap().canonical().0;
    let store = store_of(&plain_dir, RemoteOptions::default());
    let tb = remote_tablebase(&store, &rules);
    let mut host = Host::new(&plain_dir);
    for _ in 0..4 {
        match store.attempt(|| tb.probe(&pos)) {
            Attempt::Fetch(missing) => host.serve(&store, &missing),
            Attempt::Done(answer) => {
                assert!(
                    matches!(
                        answer,
                        Err(ProbeError::Table(TableError::NeedsWholeFile(_)))
                    ),
                    "{answer:?}"
                );
                break;
            }
        }
    }
    let whole: Arc<[u8]> = std::fs::read(plain_dir.join(format!("{m}.jtb")))
        .unwrap()
        .into();
    store.supply_whole(m, whole).unwrap();
    let files = Tablebase::open(fixture::standard(), rules.clone()).unwrap();
    assert_eq!(tb.probe(&pos), files.probe(&pos));
    // Leiden's table offered to a standard tablebase: refused, by name.
    let leiden_dir = table_dir(fixture::leiden(), &Ruleset::leiden());
    let store = store_of(&leiden_dir, RemoteOptions::default());
    let bytes: Arc<[u8]> = std::fs::read(leiden_dir.join(format!("{m}.jtb")))
        .unwrap()
        .into();
    store.supply_whole(m, bytes).unwrap();
    let tb = remote_tablebase(&store, &rules);
    assert!(matches!(
        tb.probe(&pos),
        Err(ProbeError::Table(TableError::WrongRuleset { .. }))
    ));
}

#[test]
fn a_small_cache_cap_drops_probe_pages_and_still_answers_right() {
    let rules = Ruleset::standard();
    let (plain, packed) = four_piece();
    let files = Tablebase::open(plain.path(), rules.clone()).unwrap();
    let dir = table_dir(packed.path(), &rules);
    let options = RemoteOptions {
        page_bytes: 1024,
        max_cached_bytes: 8 << 10,
    };
    let store = store_of(&dir, options);
    let tb = remote_tablebase(&store, &rules);
    let mut host = Host::new(&dir);
    for pos in sample(plain.path(), &rules, 100_003) {
        assert_eq!(
            evaluate(&tb, &store, &mut host, &pos).0,
            files.evaluate(&pos)
        );
        // Between probes (an attempt that reads nothing begins one).
        assert!(matches!(store.attempt(|| Ok(())), Attempt::Done(Ok(()))));
        assert!(store.cache_usage().cached_bytes <= 8 << 10);
    }
    assert!(store.cache_usage().evicted_pages > 0);
}

#[test]
fn bytes_handed_in_that_do_not_fit_the_file_are_an_error() {
    let store = RemoteTables::new("x", RemoteOptions::default());
    let m: Material = "ELvR".parse().unwrap();
    assert!(matches!(
        store.supply(m, 0, &[1, 2, 3]),
        Err(TableError::Missing(_))
    ));
    store.add(m, "ELvR.jtbz", 5000);
    for (at, len) in [(1, 4096), (0, 4095), (4096, 1000), (0, 0)] {
        assert!(
            matches!(
                store.supply(m, at, &vec![0; len]),
                Err(TableError::Corrupt { .. })
            ),
            "{at} {len}"
        );
    }
    store.supply(m, 4096, &[0; 904]).unwrap();
    assert!(matches!(
        store.supply_whole(m, vec![0u8; 10].into()),
        Err(TableError::Truncated { .. })
    ));
}

/// A table larger than its first fetch: opening it blind costs the header
/// request and one for the rest of its front (block index and distance
/// index, which `JTZ6` keeps before the WDL blocks); given the one range
/// `Table::open_ranges` names (what a site's manifest lists), it costs that
/// one request and nothing more. A cold probe then costs one request per
/// block it reads (the material's and its sub-tables'); the answers are
/// the files'.
#[test]
fn a_large_table_opens_in_one_request_of_its_open_range_and_answers_as_its_file() {
    let rules = Ruleset::standard();
    let (plain, packed) = four_piece();
    let files = Tablebase::open(plain.path(), rules.clone()).unwrap();
    let dir = table_dir(packed.path(), &rules);
    let m: Material = "ELvTR".parse().unwrap();
    let path = dir.join("ELvTR.jtbz");
    let len = std::fs::metadata(&path).unwrap().len();
    assert!(len > 4 << 16, "ELvTR.jtbz is only {len} bytes");
    let open = Table::open(&path, &rules, m).unwrap().open_ranges();
    assert_eq!(open.len(), 1, "{open:?}");
    let page = RemoteOptions::default().page_bytes;
    for manifest in [false, true] {
        let store = store_of(&dir, RemoteOptions::default());
        let tb = remote_tablebase(&store, &rules);
        let mut host = Host::new(&dir);
        if manifest {
            let (at, n) = open[0];
            let end = (at + n).div_ceil(page) * page;
            host.serve(
                &store,
                &[Missing {
                    material: m,
                    file: "ELvTR.jtbz".into(),
                    at,
                    len: end.min(len) - at,
                }],
            );
        }
        let opened = loop {
            match store.attempt(|| tb.table(m).map(|_| ())) {
                Attempt::Fetch(missing) => host.serve(&store, &missing),
                Attempt::Done(answer) => break answer,
            }
        };
        opened.unwrap();
        let want = if manifest { 1 } else { 2 };
        assert_eq!(
            host.requests, want,
            "requests to open a {len}-byte table (manifest: {manifest})"
        );
        assert!(
            host.bytes < len / 4,
            "{} of {len} bytes to open",
            host.bytes
        );
        if manifest {
            for pos in sample(plain.path(), &rules, 50_021) {
                assert_eq!(
                    evaluate(&tb, &store, &mut host, &pos).0,
                    files.evaluate(&pos)
                );
            }
        }
    }
}

#[test]
fn a_material_the_store_lacks_is_a_missing_table_naming_it() {
    let rules = Ruleset::standard();
    let store = store_of(&table_dir(dc_root(), &rules), RemoteOptions::default());
    let tb = remote_tablebase(&store, &rules);
    let start: Position = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w"
        .parse()
        .unwrap();
    match store.evaluate(&tb, &start) {
        Attempt::Done(Err(ProbeError::Table(TableError::Missing(path)))) => {
            assert!(
                path.starts_with("https://tables.example"),
                "{}",
                path.display()
            )
        }
        other => panic!("{other:?}"),
    }
}
