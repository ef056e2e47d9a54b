//! Compressed tables: every value identical to the plain tables, probes
//! through both backends, limits, and property tests that corrupt
//! compressed files (with checksums made to match, so the decoders
//! themselves see the damage): nothing panics, and no damaged table ever
//! answers a wrong value.

use crate::fixture;
use jungletb::format::compressed::{reseal_checks, DEFAULT_ZSTD_LEVEL};
use jungletb::format::wdl_code::block_is_intact;
use jungletb::indexer::Material;
use jungletb::rules::{Position, Ruleset};
use jungletb::tablebase::{
    compressed_table_path, table_dir, write_compressed_table, write_compressed_table_in_sections,
    Backend, Header, ProbeError, Table, TableError, Tablebase, TablebaseOptions, Unsupported,
    COMPRESSED_EXTENSION,
};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use tempfile::TempDir;

/// Every standard fixture table compressed into a directory of its own
/// (compressed files only).
fn compressed_root() -> &'static Path {
    static DIR: OnceLock<TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let rules = Ruleset::standard();
        let src = table_dir(fixture::standard(), &rules);
        let root = tempfile::tempdir().unwrap();
        let dst = table_dir(root.path(), &rules);
        for m in materials() {
            let t = Table::open(&src.join(format!("{m}.jtb")), &rules, m).unwrap();
            write_compressed_table(&dst, &t, DEFAULT_ZSTD_LEVEL, None).unwrap();
        }
        root
    })
    .path()
}

fn materials() -> Vec<Material> {
    let dir = table_dir(fixture::standard(), &Ruleset::standard());
    let mut out: Vec<Material> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".jtb").map(|m| m.parse().unwrap())
        })
        .collect();
    out.sort_by_key(|m| m.to_string());
    out
}

#[test]
fn compressed_tables_decode_to_the_plain_values() {
    let rules = Ruleset::standard();
    let (src, dst) = (
        table_dir(fixture::standard(), &rules),
        table_dir(compressed_root(), &rules),
    );
    let mut slots = 0;
    for m in materials() {
        let plain = Table::open(&src.join(format!("{m}.jtb")), &rules, m).unwrap();
        let packed = Table::open(&compressed_table_path(&dst, m), &rules, m).unwrap();
        assert!(packed.is_compressed() && !plain.is_compressed());
        assert!(packed.file_len() < plain.file_len(), "{m} did not shrink");
        let (a, b) = (plain.raw_values().unwrap(), packed.raw_values().unwrap());
        assert_eq!(a, b, "{m}");
        slots += a.len();
    }
    assert!(slots > 1_000_000, "only {slots} slots compared");
}

/// `compress` reads plain tables by positional reads, a range at a time:
/// those ranges hold the file's own bytes, as the memory map's do.
#[test]
fn plain_tables_read_in_ranges_by_either_backend_give_the_file_bytes() {
    let rules = Ruleset::standard();
    let dir = table_dir(fixture::standard(), &rules);
    for name in ["ELvR", "TRvT", "EvE"] {
        let path = dir.join(format!("{name}.jtb"));
        let bytes = std::fs::read(&path).unwrap();
        let mapped = Table::open_any(&path).unwrap();
        let read = Table::open_any_with(&path, Backend::Pread).unwrap();
        assert_eq!(read.backend(), Backend::Pread);
        let (at, width) = (
            mapped.header().header_len as usize,
            mapped.header().value_width as usize,
        );
        let n = mapped.index().size();
        for range in [0..n, 1..n.min(7), n / 3..n / 2 + 5, n - 1..n] {
            let want: Vec<u16> = bytes
                [at + width * range.start as usize..at + width * range.end as usize]
                .chunks(width)
                .map(|b| {
                    if width == 1 {
                        b[0] as u16
                    } else {
                        u16::from_le_bytes([b[0], b[1]])
                    }
                })
                .collect();
            assert_eq!(
                mapped.raw_values_in(range.clone()).unwrap(),
                want,
                "{name} {range:?}"
            );
            assert_eq!(
                read.raw_values_in(range.clone()).unwrap(),
                want,
                "{name} {range:?}"
            );
        }
    }
}

/// Every position of some materials, probed through plain and compressed
/// tables (both backends), both colour orders.
#[test]
fn probes_agree_on_compressed_tables_with_both_backends() {
    let rules = Ruleset::standard();
    let plain = Tablebase::open(fixture::standard(), rules.clone()).unwrap();
    let mapped = Tablebase::open(compressed_root(), rules.clone()).unwrap();
    let pread = Tablebase::open_with(
        compressed_root(),
        rules.clone(),
        TablebaseOptions {
            backend: Backend::Pread,
            ..TablebaseOptions::default()
        },
    )
    .unwrap();
    let decode_every_time = Tablebase::open_with(
        compressed_root(),
        rules.clone(),
        TablebaseOptions {
            max_decoded_bytes: 0,
            ..TablebaseOptions::default()
        },
    )
    .unwrap();
    for name in ["ELvR", "RvER", "TRvT", "EvE"] {
        let m: Material = name.parse().unwrap();
        let t = plain.table(m).unwrap();
        for i in (0..t.index().size()).step_by(3) {
            let Some(pos) = t.index().canonical_position(i) else {
                continue;
            };
            for p in [pos, pos.color_flip()] {
                let v = plain.probe(&p).unwrap();
                assert_eq!(mapped.probe(&p).unwrap(), v, "{p}");
                assert_eq!(pread.probe(&p).unwrap(), v, "{p}");
                assert_eq!(mapped.probe_wdl(&p).unwrap(), v.wdl(), "{p}");
                assert_eq!(pread.probe_wdl(&p).unwrap(), v.wdl(), "{p}");
                assert_eq!(decode_every_time.probe(&p).unwrap(), v, "{p}");
            }
        }
        assert_eq!(mapped.table(m).unwrap().backend(), Backend::Mmap);
        assert_eq!(pread.table(m).unwrap().backend(), Backend::Pread);
    }
    // The line to the end reads the same from compressed tables.
    let pos: Position = "7/7/7/7/3r3/7/7/7/E6 w".parse().unwrap();
    assert_eq!(mapped.line(&pos).unwrap(), plain.line(&pos).unwrap());
}

#[test]
fn limits_switch_to_positional_reads_then_evict() {
    let rules = Ruleset::standard();
    let opts = TablebaseOptions {
        max_mapped_bytes: 0,
        max_open_files: 1,
        ..TablebaseOptions::default()
    };
    let tb = Tablebase::open_with(compressed_root(), rules.clone(), opts).unwrap();
    let resident = Tablebase::open(compressed_root(), rules.clone()).unwrap();
    let first: Position = "7/7/7/7/3r3/7/7/7/E6 w".parse().unwrap();
    let second: Position = "7/7/7/7/3r3/7/7/7/L6 w".parse().unwrap();
    assert_eq!(tb.probe(&first).unwrap(), resident.probe(&first).unwrap());
    assert_eq!(
        tb.table("EvR".parse().unwrap()).unwrap().backend(),
        Backend::Pread
    );
    // A second table closes the first (one open file at most), and the
    // first opens again when needed.
    assert_eq!(tb.probe(&second).unwrap(), resident.probe(&second).unwrap());
    assert_eq!(tb.probe(&first).unwrap(), resident.probe(&first).unwrap());
    let u = tb.usage();
    assert_eq!((u.open_files, u.mapped_bytes, u.evicting_open), (1, 0, 1));
    assert_eq!(u.evictions, 2);
    // Caps that no table fits: a clear refusal, not a panic.
    let none = TablebaseOptions {
        max_mapped_bytes: 0,
        max_open_files: 0,
        ..TablebaseOptions::default()
    };
    let tb = Tablebase::open_with(compressed_root(), rules, none).unwrap();
    let err = tb.probe(&first).unwrap_err();
    assert!(
        matches!(err, ProbeError::Table(TableError::Limit { .. })),
        "{err}"
    );
}

/// Where both forms of a table lie side by side, the plain one is read
/// unless `prefer_compressed` asks for the other; both answer the same.
#[test]
fn prefer_compressed_picks_the_compressed_form_of_a_pair() {
    let rules = Ruleset::standard();
    let root = tempfile::tempdir().unwrap();
    let dst = table_dir(root.path(), &rules);
    std::fs::create_dir_all(&dst).unwrap();
    let src = table_dir(fixture::standard(), &rules);
    let cdir = table_dir(compressed_root(), &rules);
    let m: Material = "ELvR".parse().unwrap();
    for (from, name) in [(&src, format!("{m}.jtb")), (&cdir, format!("{m}.jtbz"))] {
        std::fs::copy(from.join(&name), dst.join(&name)).unwrap();
    }
    let open = |prefer_compressed| {
        let options = TablebaseOptions {
            prefer_compressed,
            ..TablebaseOptions::default()
        };
        Tablebase::with_dir_and_options(dst.clone(), rules.clone(), options)
    };
    let (plain, compressed) = (open(false), open(true));
    assert!(!plain.table(m).unwrap().is_compressed());
    assert!(compressed.table(m).unwrap().is_compressed());
    let pos: Position = "7/7/7/7/3r3/7/7/7/E1L4 w".parse().unwrap();
    assert_eq!(compressed.probe(&pos).unwrap(), plain.probe(&pos).unwrap());
}

/// Rewrites `header` into `bytes` with the payload length and both
/// checksums matching the (corrupted) bytes: only the decoders can notice
/// the damage then.
pub(crate) fn fix_header(bytes: &mut [u8], mut header: Header) {
    let start = header.header_len as usize;
    header.payload_len = (bytes.len() - start) as u64;
    header.payload_crc = crc32fast_hash(&bytes[start..]);
    let h = header.to_bytes();
    bytes[..h.len()].copy_from_slice(&h);
}

fn crc32fast_hash(b: &[u8]) -> u32 {
    // Bitwise CRC-32 (IEEE), independent of the crate the reader uses.
    let mut crc = !0u32;
    for &x in b {
        crc ^= x as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// Property test: random byte corruptions and truncations of compressed
/// files, every checksum repaired (the file's, and the payload's own
/// prefix and block checks, which would otherwise stop most damage before
/// the validation and decoders behind them), then every slot read. Opening
/// may fail and reads may fail or give wrong values, but nothing may panic.
#[test]
fn corrupted_compressed_tables_never_panic() {
    let rules = Ruleset::standard();
    let src = table_dir(compressed_root(), &rules);
    let mut next = fixture::xorshift(0x9E37_79B9_7F4A_7C15u64);
    let dir = tempfile::tempdir().unwrap();
    let (mut opened, mut read_errors) = (0, 0);
    for name in ["EvR", "RvR", "ELvR", "TRvT"] {
        let m: Material = name.parse().unwrap();
        let original = std::fs::read(compressed_table_path(&src, m)).unwrap();
        let path: PathBuf = dir.path().join(format!("{name}.{COMPRESSED_EXTENSION}"));
        for case in 0..60 {
            let mut bytes = original.clone();
            let header = Header::parse(&bytes, bytes.len() as u64, &path).unwrap();
            let header_len = header.header_len as usize;
            match case % 3 {
                // Bytes of the payload: block index and blocks.
                0 | 1 => {
                    for _ in 0..1 + next() % 4 {
                        let i = header_len + (next() as usize % (bytes.len() - header_len));
                        bytes[i] ^= 1 << (next() % 8);
                    }
                }
                // A truncated payload with a header claiming that length.
                _ => {
                    let cut = header_len + (next() as usize % (bytes.len() - header_len));
                    bytes.truncate(cut);
                }
            }
            let size = header.index_size;
            reseal_checks(&mut bytes[header_len..], header_len as u64, size);
            fix_header(&mut bytes, header);
            std::fs::write(&path, &bytes).unwrap();
            let Ok(t) = Table::open(&path, &rules, m) else {
                continue;
            };
            opened += 1;
            // Every block of both streams is reached (blocks are thousands
            // of slots long).
            for i in (0..t.index().size()).step_by(61) {
                if t.wdl_at(i).is_err() || t.value_at(i).is_err() {
                    read_errors += 1;
                }
            }
        }
    }
    // The test must exercise the decoders, not only the open-time checks.
    assert!(opened > 20, "only {opened} corrupted files opened");
    assert!(read_errors > 0, "no corruption was ever reported by a read");
}

/// Compressed files of the older payload versions (the first, LZ4-based
/// one, `JTZ2`, without block checks, and `JTZ3`, without block
/// checkpoints) are refused with a message that says how to rewrite them,
/// not read as garbage.
#[test]
fn old_compressed_payloads_are_refused_with_advice() {
    let rules = Ruleset::standard();
    let src = table_dir(compressed_root(), &rules);
    let m: Material = "ELvR".parse().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("ELvR.{COMPRESSED_EXTENSION}"));
    // Version 1 payloads began with their WDL block size, 4096 slots.
    for tag in [4096u32.to_le_bytes(), *b"JTZ2", *b"JTZ3"] {
        let mut bytes = std::fs::read(compressed_table_path(&src, m)).unwrap();
        let header = Header::parse(&bytes, bytes.len() as u64, &path).unwrap();
        let at = header.header_len as usize;
        bytes[at..at + 4].copy_from_slice(&tag);
        fix_header(&mut bytes, header);
        std::fs::write(&path, &bytes).unwrap();
        let err = Table::open(&path, &rules, m).unwrap_err();
        // The error says what is old, as data; the advice to compress it
        // again is the CLI's (crates/cli/src/advice.rs).
        assert!(
            matches!(
                err,
                TableError::UnsupportedVersion {
                    what: Unsupported::OldCompressedPayload,
                    ..
                }
            ),
            "{err:?}"
        );
    }
}

/// A damaged compressed file whose file checksums were made to match (so
/// only the block checks can notice) never gives a wrong answer: every bit
/// flip either stops the table from opening or makes the reads that touch
/// the damage fail; every value read is the true one. Flips land anywhere
/// in the payload: dictionary, block index, WDL blocks, DTM index, checks
/// and data.
#[test]
fn damaged_compressed_tables_never_answer_wrong() {
    let rules = Ruleset::standard();
    let src = table_dir(compressed_root(), &rules);
    let plain = table_dir(fixture::standard(), &rules);
    let mut next = fixture::xorshift(0xD1B5_4A32_D192_ED03u64);
    let dir = tempfile::tempdir().unwrap();
    let (mut refused, mut opened, mut failed_reads) = (0, 0, 0u64);
    for name in ["ELvR", "TRvT", "CvC"] {
        let m: Material = name.parse::<Material>().unwrap().canonical().0;
        let truth = Table::open(&plain.join(format!("{m}.jtb")), &rules, m).unwrap();
        let original = std::fs::read(compressed_table_path(&src, m)).unwrap();
        let path: PathBuf = dir.path().join(format!("{m}.{COMPRESSED_EXTENSION}"));
        for _ in 0..25 {
            let mut bytes = original.clone();
            let header = Header::parse(&bytes, bytes.len() as u64, &path).unwrap();
            let header_len = header.header_len as usize;
            let i = header_len + (next() as usize % (bytes.len() - header_len));
            bytes[i] ^= 1 << (next() % 8);
            fix_header(&mut bytes, header);
            std::fs::write(&path, &bytes).unwrap();
            let Ok(t) = Table::open(&path, &rules, m) else {
                refused += 1;
                continue;
            };
            opened += 1;
            let mut failed_here = 0u64;
            for slot in 0..truth.index().size() {
                if !truth.index().is_canonical_slot(slot) {
                    continue;
                }
                match t.value_at(slot) {
                    Ok(v) => assert_eq!(
                        v,
                        truth.value_at(slot).unwrap(),
                        "{m}: byte {i} flipped, slot {slot} answered wrong"
                    ),
                    Err(_) => failed_here += 1,
                }
            }
            failed_reads += failed_here;
        }
    }
    // Both defences ran: some damage stopped the open (prefix check), some
    // was found by reads (block checks).
    assert!(
        refused > 0 && opened > 10,
        "{refused} refused, {opened} opened"
    );
    assert!(failed_reads > 0, "no read ever failed");
}

/// `reseal_checks` (which the damage tests and the fuzzer rely on to reach
/// the decoders) computes every inner check as the writer does and writes
/// them back: an intact payload is unchanged, and one whose prefix check
/// and WDL block checks were wiped comes back byte for byte.
#[test]
fn resealing_restores_every_inner_check() {
    let rules = Ruleset::standard();
    let src = table_dir(compressed_root(), &rules);
    for name in ["ELvR", "TRvT", "CvC"] {
        let m: Material = name.parse::<Material>().unwrap().canonical().0;
        let path = compressed_table_path(&src, m);
        let original = std::fs::read(&path).unwrap();
        let header = Header::parse(&original, original.len() as u64, &path).unwrap();
        let (at, size) = (header.header_len as usize, header.index_size);
        let mut bytes = original.clone();
        assert!(reseal_checks(&mut bytes[at..], at as u64, size));
        assert_eq!(
            bytes, original,
            "{m}: resealing an intact payload changed it"
        );
        // The WDL blocks: 64-byte aligned, numbered from the first that
        // carries block 0's check.
        let first = (0..bytes.len() - 64)
            .step_by(64)
            .find(|&o| o > at && block_is_intact(0, &bytes[o..]))
            .expect("WDL block 0");
        let mut blocks = 0;
        while first + 64 * (blocks + 1) <= bytes.len()
            && block_is_intact(blocks as u64, &bytes[first + 64 * blocks..])
        {
            bytes[first + 64 * blocks + 62..first + 64 * (blocks + 1)].fill(0);
            blocks += 1;
        }
        bytes[at + 20..at + 24].fill(0);
        assert!(blocks > 0 && bytes != original);
        assert!(reseal_checks(&mut bytes[at..], at as u64, size));
        assert_eq!(
            bytes, original,
            "{m}: {blocks} block checks and the prefix check"
        );
    }
}

/// Sectioned payloads (`JTZ7`, what tables beyond 2^29 slots get), made
/// here of every fixture table with sections of 16,384 slots (3-piece
/// tables get 7): with and without don't-cares, every value and probe
/// answers as the plain table does, the distance parts of different
/// sections do not mix in the caches, and a damaged section table is
/// refused at open.
#[test]
fn sectioned_tables_answer_as_the_plain_ones() {
    let rules = Ruleset::standard();
    let src = table_dir(fixture::standard(), &rules);
    let plain = Tablebase::open(fixture::standard(), rules.clone()).unwrap();
    for dont_cares in [false, true] {
        let root = tempfile::tempdir().unwrap();
        let dst = table_dir(root.path(), &rules);
        let mut sectioned = 0;
        for m in materials() {
            let t = Table::open(&src.join(format!("{m}.jtb")), &rules, m).unwrap();
            let search = dont_cares.then_some(&plain);
            write_compressed_table_in_sections(&dst, &t, DEFAULT_ZSTD_LEVEL, search, 16384)
                .unwrap();
            let packed = Table::open(&compressed_table_path(&dst, m), &rules, m).unwrap();
            let bytes = std::fs::read(compressed_table_path(&dst, m)).unwrap();
            let at = packed.header().header_len as usize;
            let tag = if t.index().size() > 16384 {
                b"JTZ7"
            } else {
                b"JTZ6"
            };
            assert_eq!(&bytes[at..at + 4], tag, "{m}");
            sectioned += (tag == b"JTZ7") as u32;
            assert_eq!(packed.has_dont_cares(), dont_cares);
            plain.same_answers(&t, &packed).unwrap();
            if !dont_cares {
                assert_eq!(packed.raw_values().unwrap(), t.raw_values().unwrap(), "{m}");
            }
        }
        assert!(sectioned >= 10, "{sectioned} sectioned tables");
        // Through a tablebase of the sectioned tables only, each probe
        // once with the distance cache kept and once decoding every time.
        for budget in [1 << 20, 0] {
            let tb = Tablebase::open_with(
                root.path(),
                rules.clone(),
                TablebaseOptions {
                    max_decoded_bytes: budget,
                    ..TablebaseOptions::default()
                },
            )
            .unwrap();
            for name in ["ELvR", "TRvT", "CvLR"] {
                let m: Material = name.parse().unwrap();
                let t = plain.table(m).unwrap();
                for i in (0..t.index().size()).step_by(7) {
                    let Some(pos) = t.index().canonical_position(i) else {
                        continue;
                    };
                    let v = plain.probe(&pos).unwrap();
                    assert_eq!(tb.probe(&pos).unwrap(), v, "{pos}");
                    assert_eq!(tb.probe_wdl(&pos).unwrap(), v.wdl(), "{pos}");
                }
            }
        }
    }
    // A damaged section table (the file's checksums repaired) is refused.
    let root = tempfile::tempdir().unwrap();
    let dst = table_dir(root.path(), &rules);
    let m: Material = "ELvR".parse().unwrap();
    let t = Table::open(&src.join(format!("{m}.jtb")), &rules, m).unwrap();
    write_compressed_table_in_sections(&dst, &t, DEFAULT_ZSTD_LEVEL, None, 16384).unwrap();
    let path = compressed_table_path(&dst, m);
    let good = std::fs::read(&path).unwrap();
    let header = Table::open(&path, &rules, m).unwrap().header().clone();
    let at = header.header_len as usize;
    for (offset, what) in [
        (9, "slots per section"),
        (17, "a section's offset"),
        (4, "count"),
    ] {
        let mut bytes = good.clone();
        bytes[at + offset] ^= 0x40;
        fix_header(&mut bytes, header.clone());
        std::fs::write(&path, &bytes).unwrap();
        match Table::open(&path, &rules, m) {
            Err(TableError::Corrupt { .. }) => {}
            other => panic!("{what}: {other:?}"),
        }
    }
}

/// A reader over bytes in memory that counts the ranges and bytes asked
/// of it (what an HTTP range source would fetch).
struct CountingRanges {
    bytes: Vec<u8>,
    reads: std::sync::atomic::AtomicU64,
    read_bytes: std::sync::atomic::AtomicU64,
    /// Every range read: (start, length).
    log: std::sync::Mutex<Vec<(u64, u64)>>,
}

impl CountingRanges {
    fn new(bytes: Vec<u8>) -> CountingRanges {
        CountingRanges {
            bytes,
            reads: 0.into(),
            read_bytes: 0.into(),
            log: Default::default(),
        }
    }
}

impl jungletb::tablebase::store::RangeRead for CountingRanges {
    fn len(&self) -> u64 {
        self.bytes.len() as u64
    }
    fn read_exact_at(&self, buf: &mut [u8], at: u64) -> std::io::Result<()> {
        use std::sync::atomic::Ordering::Relaxed;
        self.reads.fetch_add(1, Relaxed);
        self.read_bytes.fetch_add(buf.len() as u64, Relaxed);
        self.log.lock().unwrap().push((at, buf.len() as u64));
        let at = at as usize;
        let src = self
            .bytes
            .get(at..at + buf.len())
            .ok_or(std::io::ErrorKind::UnexpectedEof)?;
        buf.copy_from_slice(src);
        Ok(())
    }
}

/// Tables that are not files (bytes in memory, ranges read on demand, the
/// way a browser build reads over HTTP) hold exactly the file's values,
/// plain and compressed; a probe of a compressed one reads a few ranges,
/// not the table; a damaged byte is refused at open.
#[test]
fn tables_from_bytes_and_from_ranges_answer_as_the_file() {
    use std::sync::atomic::Ordering::Relaxed;
    use std::sync::Arc;
    let rules = Ruleset::standard();
    let (src, dst) = (
        table_dir(fixture::standard(), &rules),
        table_dir(compressed_root(), &rules),
    );
    let mut compressed_checked = 0;
    let mut most_reads = 0;
    for m in materials() {
        for path in [src.join(format!("{m}.jtb")), compressed_table_path(&dst, m)] {
            let file = Table::open(&path, &rules, m).unwrap();
            let bytes = std::fs::read(&path).unwrap();
            let in_memory = Table::from_bytes(&path, bytes.clone().into(), &rules, m).unwrap();
            let ranges = Arc::new(CountingRanges::new(bytes.clone()));
            let by_ranges = Table::from_ranges(&path, ranges.clone(), &rules, m).unwrap();
            let want = file.raw_values().unwrap();
            assert_eq!(in_memory.raw_values().unwrap(), want, "{}", path.display());
            // One slot read through ranges: a compressed table reads its
            // block and nothing like the whole file.
            let (reads, read) = (ranges.reads.load(Relaxed), ranges.read_bytes.load(Relaxed));
            let slot = want.len() as u64 / 2;
            assert_eq!(
                by_ranges.raw_values_in(slot..slot + 1).unwrap(),
                [want[slot as usize]]
            );
            let (reads, read) = (
                ranges.reads.load(Relaxed) - reads,
                ranges.read_bytes.load(Relaxed) - read,
            );
            // Many small reads today (up to 17 for one slot: block index
            // entries, the WDL block, rank counts, the distance index and
            // part); a range source wants one request per block (issue
            // 41). This guards only against reading byte by byte.
            assert!(
                (1..=64).contains(&reads),
                "{}: {reads} reads for a slot",
                path.display()
            );
            most_reads = most_reads.max(reads);
            if file.is_compressed() && bytes.len() > 1 << 13 {
                assert!(
                    read < bytes.len() as u64 / 4,
                    "{}: {read} of {} bytes for a slot",
                    path.display(),
                    bytes.len()
                );
                compressed_checked += 1;
            }
            assert_eq!(by_ranges.raw_values().unwrap(), want, "{}", path.display());
            // A flipped payload byte: refused by the checksum, as a file.
            let mut bad = bytes.clone();
            let at = bad.len() - 1;
            bad[at] ^= 0x10;
            assert!(matches!(
                Table::from_bytes(&path, bad.into(), &rules, m),
                Err(TableError::ChecksumMismatch { .. })
            ));
            // Another material's name is refused.
            let other: Material = if m.to_string() == "EvE" { "LvL" } else { "EvE" }
                .parse()
                .unwrap();
            assert!(Table::from_bytes(&path, bytes.into(), &rules, other).is_err());
        }
    }
    assert!(
        compressed_checked > 0,
        "no compressed table large enough to check"
    );
}

/// Opening a compressed table reads its header, WDL block index and
/// distance index, all at the front of the file (the `JTZ6` layout puts
/// the distance index before the WDL blocks), and `open_ranges` names one
/// range, from byte 0 to the first WDL block (or the first 64 KiB, the
/// header's read, if that is more): a browser opens a table with one
/// request. Reads of the whole file (the checksum of a table within
/// 64 KiB) aside, nothing opening reads lies past the first WDL block.
#[test]
fn a_compressed_table_opens_with_one_range_at_its_front() {
    use jungletb::format::compressed::Layout;
    use std::sync::Arc;
    let rules = Ruleset::standard();
    let dst = table_dir(compressed_root(), &rules);
    for m in materials() {
        let path = compressed_table_path(&dst, m);
        let bytes = std::fs::read(&path).unwrap();
        let file_len = bytes.len() as u64;
        let header = Header::parse(&bytes, file_len, &path).unwrap();
        let at = u64::from(header.header_len);
        let size = header.index_size;
        let fixed = &bytes[at as usize..at as usize + Layout::FIXED_LEN];
        let blocks_at = at + Layout::prefix_len(fixed, at, size).unwrap();
        assert!(blocks_at < file_len, "{m}: no WDL blocks after the prefix");
        let ranges = Arc::new(CountingRanges::new(bytes));
        let t = Table::from_ranges(&path, ranges.clone(), &rules, m).unwrap();
        let header_read = file_len.min(1 << 16);
        assert_eq!(t.open_ranges(), [(0, header_read.max(blocks_at))], "{m}");
        let log = ranges.log.lock().unwrap();
        for &(a, n) in log.iter() {
            let whole = a + n == file_len && (a == 0 || a == at);
            assert!(
                whole || a + n <= blocks_at,
                "{m}: opening read {n} bytes at {a}, past the first WDL block at {blocks_at}"
            );
        }
        assert!(
            log.iter().any(|&(a, n)| a + n == blocks_at),
            "{m}: no read of the prefix up to the WDL blocks: {log:?}"
        );
    }
}

/// Compressed tables in jungletb 0.2's payload (`JTZ4`, the distance index
/// after the WDL blocks), as its `compress` wrote them
/// (`tests/data/jtz4`), still answer every slot as the plain tables do:
/// the new layout (`JTZ6`) is what `compress` writes, not what is read.
#[test]
fn jtz4_tables_of_jungletb_0_2_still_answer() {
    let rules = Ruleset::standard();
    let src = table_dir(fixture::standard(), &rules);
    let plain = Tablebase::open(fixture::standard(), rules.clone()).unwrap();
    let old = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/jtz4/standard");
    let mut checked = 0;
    for name in ["CvR", "DCvP", "ELvR"] {
        let m: Material = name.parse().unwrap();
        let path = old.join(format!("{name}.{COMPRESSED_EXTENSION}"));
        let bytes = std::fs::read(&path).unwrap();
        let packed = Table::open(&path, &rules, m).unwrap();
        let at = packed.header().header_len as usize;
        assert_eq!(&bytes[at..at + 4], b"JTZ4", "{name}");
        assert!(packed.has_dont_cares(), "{name}");
        let t = Table::open(&src.join(format!("{name}.jtb")), &rules, m).unwrap();
        plain.same_answers(&t, &packed).unwrap();
        checked += 1;
    }
    assert_eq!(checked, 3);
}

/// The per-thread cache of decoded distance parts holds parts of many
/// tables at once: probes that alternate between tables, slot by slot,
/// and come back to parts decoded earlier, read each table's own parts
/// (planted fault, the cache keyed without the table: this fails).
#[test]
fn distance_probes_alternating_between_tables_read_each_its_own_parts() {
    let rules = Ruleset::standard();
    let src = table_dir(fixture::standard(), &rules);
    let dst = table_dir(compressed_root(), &rules);
    let tables: Vec<(Table, Table)> = materials()
        .into_iter()
        .map(|m| {
            (
                Table::open(&src.join(format!("{m}.jtb")), &rules, m).unwrap(),
                Table::open(&compressed_table_path(&dst, m), &rules, m).unwrap(),
            )
        })
        .filter(|(plain, _)| plain.index().size() > 50_000)
        .collect();
    assert!(tables.len() >= 6, "{} tables", tables.len());
    let size = tables.iter().map(|(p, _)| p.index().size()).min().unwrap();
    // Reads where the table before, at the same slot, holds another
    // distance: where a part of the wrong table would answer wrong.
    let mut telling = 0;
    // Slots a block apart and back again, each in every table in turn.
    for round in 0..2 {
        for i in (round..size).step_by(997) {
            let mut before = None;
            for (plain, packed) in &tables {
                let want = plain.stored_value(i).unwrap();
                let got = packed.stored_value(i).unwrap();
                assert_eq!(got, want, "{} slot {i}", plain.header().material);
                let distance = want.filter(|v| v.plies().is_some());
                telling += (distance.is_some() && before.is_some() && distance != before) as u32;
                before = distance;
            }
        }
    }
    assert!(telling > 100, "{telling} telling reads");
}
