//! Tables fetched range by range, as the browser build reads them over
//! HTTP: a [`RemoteTables`] store, a host that serves the files' bytes
//! (counting requests, or damaging them), and the retry protocol. Every
//! answer must equal the files' answer; damage must be refused, never
//! answered; a warm probe must fetch nothing.

use crate::dont_cares::dc_root;
use crate::fixture;
use jungletb::indexer::{Material, PositionIndex};
use jungletb::rules::{Position, Ruleset};
use jungletb::tablebase::remote::{Attempt, Missing, RemoteOptions, RemoteTables};
use jungletb::tablebase::{
    table_dir, table_files, Evaluation, ProbeError, TableError, Tablebase, TablebaseOptions,
};
use jungletb::tablebase::{write_compressed_table, write_compressed_table_in_sections, Table};
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
            let all = std::fs::read(self.dir.join(&m.file))
                .unwrap_or_else(|e| panic!("{}: {e}", self.dir.join(&m.file).display()));
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

/// The request for the range `(at, n)` that `Table::open_ranges` names
/// (what a site's manifest lists) of `file`, `len` bytes: whole pages, as
/// a caller fetches it ahead.
fn open_request(material: Material, file: &str, (at, n): (u64, u64), len: u64) -> Missing {
    let page = RemoteOptions::default().page_bytes;
    let start = at / page * page;
    Missing {
        material,
        file: file.into(),
        at: start,
        len: ((at + n).div_ceil(page) * page).min(len) - start,
    }
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
    answered(store, host, 64, || store.evaluate(tb, pos))
}

/// Runs `attempt` until it is answered, serving what it misses; returns
/// the answer and the rounds of fetches it took (at most `rounds`).
fn answered<T>(
    store: &RemoteTables,
    host: &mut Host,
    rounds: u32,
    attempt: impl Fn() -> Attempt<T>,
) -> (Result<T, ProbeError>, u32) {
    for round in 0..rounds {
        match attempt() {
            Attempt::Done(answer) => return (answer, round),
            Attempt::Fetch(missing) => host.serve(store, &missing),
        }
    }
    panic!("still fetching after {rounds} rounds");
}

/// The standard fixture's tables: opened as files, and through a fresh
/// store served by a fresh host.
fn standard_fetched() -> (Ruleset, Tablebase, Arc<RemoteTables>, Tablebase, Host) {
    let rules = Ruleset::standard();
    let files = Tablebase::open(fixture::standard(), rules.clone()).unwrap();
    let dir = table_dir(dc_root(), &rules);
    let store = store_of(&dir, RemoteOptions::default());
    let tb = remote_tablebase(&store, &rules);
    (rules, files, store, tb, Host::new(&dir))
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
    let (rules, files, store, tb, mut host) = standard_fetched();
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
fn a_line_through_fetched_tables_is_the_line_of_the_files() {
    let (rules, files, store, tb, mut host) = standard_fetched();
    let (mut walked, mut longest) = (0, 0);
    for pos in sample(fixture::standard(), &rules, 40009) {
        let (answer, _) = answered(&store, &mut host, 256, || store.line(&tb, &pos));
        let (first, line) = answer.unwrap();
        assert_eq!(first, files.evaluate(&pos).unwrap(), "{pos}");
        assert_eq!(line, files.line(&pos).unwrap(), "{pos}");
        walked += !line.is_empty() as usize;
        longest = longest.max(line.len());
    }
    assert!(
        walked > 20 && longest > 10,
        "{walked} lines, the longest {longest} plies"
    );
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
    for manifest in [false, true] {
        let store = store_of(&dir, RemoteOptions::default());
        let tb = remote_tablebase(&store, &rules);
        let mut host = Host::new(&dir);
        if manifest {
            host.serve(&store, &[open_request(m, "ELvTR.jtbz", open[0], len)]);
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

/// ELvTR compressed in sections of 2^18 slots (25 sections, as a 6-piece
/// table has a thousand of 2^23), its smaller tables beside it as in
/// `four_piece`; and the file's bytes with one byte of the prefix of its
/// section 3 flipped (`damaged`).
fn sectioned() -> &'static (TempDir, Vec<u8>) {
    static DIR: OnceLock<(TempDir, Vec<u8>)> = OnceLock::new();
    DIR.get_or_init(|| {
        let rules = Ruleset::standard();
        let (plain, packed) = four_piece();
        let tb = Tablebase::open(plain.path(), rules.clone()).unwrap();
        let root = tempfile::tempdir().unwrap();
        let dir = table_dir(root.path(), &rules);
        std::fs::create_dir_all(&dir).unwrap();
        for path in table_files(&table_dir(packed.path(), &rules)).unwrap() {
            std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
        }
        let m: Material = "ELvTR".parse().unwrap();
        let t = Table::open(
            &table_dir(plain.path(), &rules).join("ELvTR.jtb"),
            &rules,
            m,
        )
        .unwrap();
        std::fs::remove_file(dir.join("ELvTR.jtbz")).unwrap();
        write_compressed_table_in_sections(&dir, &t, 3, Some(&tb), SECTION).unwrap();
        let mut bytes = std::fs::read(dir.join("ELvTR.jtbz")).unwrap();
        let payload = t.header().header_len as usize;
        assert_eq!(&bytes[payload..payload + 4], b"JTZ7");
        let entry = payload + 16 + 16 * 3;
        let section_at = u64::from_le_bytes(bytes[entry..entry + 8].try_into().unwrap());
        // Within the fixed fields' successor, the dictionary: covered by
        // the prefix's check, so only that section's opening sees it.
        bytes[payload + section_at as usize + 70] ^= 0x10;
        (root, bytes)
    })
}

const SECTION: u64 = 1 << 18;

/// The first `n` reachable canonical positions of ELvTR from slot `from`.
fn positions_from(from: u64, n: usize) -> Vec<Position> {
    let rules = Ruleset::standard();
    let index = PositionIndex::new("ELvTR".parse().unwrap(), &rules).unwrap();
    (from..index.size())
        .step_by(997)
        .filter_map(|i| index.canonical_position(i))
        .filter(|p| p.validate_reachable(&rules).is_ok())
        .take(n)
        .collect()
}

/// A sectioned table (what every 6-piece table is) opens in one request of
/// the range `Table::open_ranges` names, whatever its number of sections:
/// its header, section table and first section. A section is read when a
/// probe first needs it, in one request, and kept as an opening's pages
/// are; the answers are the files'. Before, opening read every section's
/// prefix: two ranges a section, 1,970 for `ECRvECR`.
#[test]
fn a_sectioned_table_opens_in_one_request_and_reads_a_section_when_a_probe_needs_it() {
    let rules = Ruleset::standard();
    let (plain, _) = four_piece();
    let files = Tablebase::open(plain.path(), rules.clone()).unwrap();
    let dir = table_dir(sectioned().0.path(), &rules);
    let m: Material = "ELvTR".parse().unwrap();
    let path = dir.join("ELvTR.jtbz");
    let len = std::fs::metadata(&path).unwrap().len();
    let open = Table::open(&path, &rules, m).unwrap().open_ranges();
    assert_eq!(open.len(), 1, "{open:?}");
    let store = store_of(&dir, RemoteOptions::default());
    let tb = remote_tablebase(&store, &rules);
    let mut host = Host::new(&dir);
    host.serve(&store, &[open_request(m, "ELvTR.jtbz", open[0], len)]);
    match store.attempt(|| tb.table(m).map(|_| ())) {
        Attempt::Done(answer) => answer.unwrap(),
        Attempt::Fetch(missing) => panic!("opening asked for more: {missing:?}"),
    }
    assert_eq!(host.requests, 1);
    // 25 sections: the opening read one of them, not all.
    assert!(
        host.bytes * 10 < len,
        "{} of {len} bytes to open",
        host.bytes
    );
    let pinned_at_open = store.cache_usage().pinned_bytes;
    // Without don't-cares (whose values differ from section to section),
    // the table in sections and as one payload store the same values:
    // the probes read the same blocks, and the sections cost only the
    // reading of their prefixes.
    let t = Table::open(
        &table_dir(plain.path(), &rules).join("ELvTR.jtb"),
        &rules,
        m,
    )
    .unwrap();
    let exact: Vec<(TempDir, Arc<RemoteTables>, Tablebase, Host)> = [SECTION, t.index().size()]
        .into_iter()
        .map(|per| {
            let root = tempfile::tempdir().unwrap();
            let dir = table_dir(root.path(), &rules);
            write_compressed_table_in_sections(&dir, &t, 3, None, per).unwrap();
            let store = store_of(&dir, RemoteOptions::default());
            let tb = remote_tablebase(&store, &rules);
            let mut host = Host::new(&dir);
            while let Attempt::Fetch(missing) = store.attempt(|| tb.table(m).map(|_| ())) {
                host.serve(&store, &missing);
            }
            (root, store, tb, host)
        })
        .collect();
    let [(_s_root, s_store, s_tb, mut s_host), (_w_root, w_store, w_tb, mut w_host)] =
        <[_; 2]>::try_from(exact).ok().unwrap();
    let s_pinned_at_open = s_store.cache_usage().pinned_bytes;
    let mut extra_rounds = 0;
    for pos in positions_from(10 * SECTION, 40) {
        // A probe of the tables with don't-cares: the files' answer, and
        // the prefix of its section kept.
        let pinned = store.cache_usage().pinned_bytes;
        let (got, _) = loop_probe(&tb, &store, &mut host, &pos);
        assert_eq!(got, files.probe(&pos), "{pos}");
        assert!(store.cache_usage().pinned_bytes >= pinned);
        let (got, rounds) = loop_probe(&s_tb, &s_store, &mut s_host, &pos);
        assert_eq!(got, files.probe(&pos), "{pos}");
        let (_, whole_rounds) = loop_probe(&w_tb, &w_store, &mut w_host, &pos);
        assert!(rounds <= whole_rounds + 1, "{pos}: {rounds} rounds");
        extra_rounds += i64::from(rounds) - i64::from(whole_rounds);
    }
    // (Fewer is possible: a section's first read reaches past its prefix,
    // into blocks a probe may need.)
    assert!(extra_rounds <= 1, "only the first probe reads section 10");
    // Section 10's prefix is kept as an opening's pages are (this store
    // opens no other table).
    assert!(s_store.cache_usage().pinned_bytes > s_pinned_at_open);
    assert!(store.cache_usage().pinned_bytes > pinned_at_open);
    // Every move of positions all over the table: the files' answers.
    for pos in sample(plain.path(), &rules, 50_021)
        .iter()
        .filter(|p| Material::of_position(p).unwrap().canonical().0 == m)
    {
        assert_eq!(evaluate(&tb, &store, &mut host, pos).0, files.evaluate(pos));
    }
}

/// Probes `pos`'s value until it is answered: the answer and the rounds.
fn loop_probe(
    tb: &Tablebase,
    store: &RemoteTables,
    host: &mut Host,
    pos: &Position,
) -> (Result<jungletb::rules::Value, ProbeError>, u32) {
    for round in 0..64 {
        match store.attempt(|| tb.probe(pos)) {
            Attempt::Done(answer) => return (answer, round),
            Attempt::Fetch(missing) => host.serve(store, &missing),
        }
    }
    panic!("{pos}: still fetching after 64 rounds");
}

/// Damage in one section's prefix of a table read in ranges (no
/// whole-file checksum) opens, and is refused, naming the section, by
/// every probe that reads that section, not once but each time; the other
/// sections answer as the file does. Read as a file, the whole-file
/// checksum refuses it at open.
#[test]
fn a_damaged_section_is_refused_by_every_probe_that_reads_it_and_the_others_answer() {
    let rules = Ruleset::standard();
    let (plain, _) = four_piece();
    let files = Tablebase::open(plain.path(), rules.clone()).unwrap();
    let (root, damaged) = sectioned();
    let dir = table_dir(root.path(), &rules);
    let m: Material = "ELvTR".parse().unwrap();
    let store = store_of(&dir, RemoteOptions::default());
    // The damaged bytes, whole, as a host sending the file for a range.
    store.supply(m, 0, damaged).unwrap();
    let tb = remote_tablebase(&store, &rules);
    let mut host = Host::new(&dir);
    let damaged_dir = tempfile::tempdir().unwrap();
    let damaged_path = damaged_dir.path().join("ELvTR.jtbz");
    std::fs::write(&damaged_path, damaged).unwrap();
    assert!(matches!(
        Table::open(&damaged_path, &rules, m),
        Err(TableError::ChecksumMismatch { .. })
    ));
    for round in 0..2 {
        for pos in positions_from(3 * SECTION, 5) {
            match loop_probe(&tb, &store, &mut host, &pos).0 {
                Err(ProbeError::Table(TableError::Corrupt { what, .. })) => {
                    assert!(what.contains("section 3 of 25"), "{what}")
                }
                other => panic!("{pos} (round {round}): {other:?}"),
            }
        }
        for from in [0, 2 * SECTION, 4 * SECTION, 24 * SECTION] {
            for pos in positions_from(from, 5) {
                let got = loop_probe(&tb, &store, &mut host, &pos).0;
                assert_eq!(got, files.probe(&pos), "{pos}");
            }
        }
    }
}
