//! Compressed tables with tactical don't-cares: positions a capture or a
//! den entry decides store whatever value compresses best, and probes
//! recover them by a search. Every answer must equal the plain table's;
//! a lone table must refuse to answer; the freedom must exist and be used.

use crate::fixture;
use jungletb::indexer::Material;
use jungletb::rules::{Ruleset, Value, Wdl};
use jungletb::tablebase::{
    table_dir, table_files, write_compressed_table, Header, ProbeError, Table, TableError,
    Tablebase, TablebaseOptions,
};
use std::path::Path;
use std::sync::OnceLock;
use tempfile::TempDir;

/// Every standard fixture table compressed twice: with don't-cares
/// (`dc/`) and without (`plain/`), compressed files only.
fn roots() -> &'static (TempDir, TempDir) {
    static DIRS: OnceLock<(TempDir, TempDir)> = OnceLock::new();
    DIRS.get_or_init(|| {
        let rules = Ruleset::standard();
        let plain = Tablebase::open(fixture::standard(), rules.clone()).unwrap();
        let (dc, exact) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        for path in table_files(&table_dir(fixture::standard(), &rules)).unwrap() {
            let t = Table::open_any(&path).unwrap();
            let (stats, _) =
                write_compressed_table(&table_dir(dc.path(), &rules), &t, 3, Some(&plain)).unwrap();
            let packed = Table::open_any(&stats.path).unwrap();
            // What `jungletb compress` checks of every table it writes.
            plain.same_answers(&t, &packed).unwrap();
            write_compressed_table(&table_dir(exact.path(), &rules), &t, 3, None).unwrap();
        }
        (dc, exact)
    })
}

pub(crate) fn dc_root() -> &'static Path {
    roots().0.path()
}

fn materials() -> Vec<Material> {
    let rules = Ruleset::standard();
    table_files(&table_dir(fixture::standard(), &rules))
        .unwrap()
        .iter()
        .map(|p| {
            let name = p.file_stem().unwrap().to_str().unwrap();
            name.parse().unwrap()
        })
        .collect()
}

/// Scans that decode no table whole: every table read block by block, as
/// scans read 6-piece tables and 5-piece sub-tables past 2^25 slots.
fn block_by_block() -> TablebaseOptions {
    TablebaseOptions {
        scan_decode_max_slots: 0,
        ..TablebaseOptions::default()
    }
}

#[test]
fn every_slot_reads_as_in_the_plain_table() {
    let rules = Ruleset::standard();
    let plain = Tablebase::open(fixture::standard(), rules.clone()).unwrap();
    let packed = Tablebase::open(dc_root(), rules.clone()).unwrap();
    let by_blocks = Tablebase::open_with(dc_root(), rules, block_by_block()).unwrap();
    let mut searched = 0u64;
    for m in materials() {
        let table = packed.table(m).unwrap();
        assert!(table.is_compressed() && table.has_dont_cares(), "{m}");
        let n = table.index().size();
        let truth = plain.values(m, 0..n).unwrap();
        assert_eq!(packed.values(m, 0..n).unwrap(), truth, "{m}");
        assert_eq!(
            by_blocks.values(m, 0..n).unwrap(),
            truth,
            "{m}, block by block"
        );
        searched += n;
    }
    assert!(searched > 1_000_000, "only {searched} slots compared");
}

/// The check `compress` runs, with every table read block by block (the
/// way it reads a 6-piece table), passes every fixture table and still
/// catches a table of other values.
#[test]
fn the_compress_check_passes_and_catches_block_by_block() {
    let rules = Ruleset::standard();
    let plain = Tablebase::open_with(fixture::standard(), rules.clone(), block_by_block()).unwrap();
    let dir = table_dir(dc_root(), &rules);
    for m in materials() {
        let t = plain.table(m).unwrap();
        let packed = Table::open_any(&dir.join(format!("{m}.jtbz"))).unwrap();
        plain.same_answers(&t, &packed).unwrap();
    }
    // A compressed table against the plain table of other rules.
    let leiden = Ruleset::leiden();
    let other_rules = Tablebase::open(fixture::leiden(), leiden.clone()).unwrap();
    let mut caught = 0;
    for m in materials() {
        let Ok(other) =
            Table::open_any(&table_dir(fixture::leiden(), &leiden).join(format!("{m}.jtb")))
        else {
            continue;
        };
        let n = other.index().size();
        if n != plain.table(m).unwrap().index().size()
            || other_rules.values(m, 0..n).unwrap() == plain.values(m, 0..n).unwrap()
        {
            continue;
        }
        let packed = Table::open_any(&dir.join(format!("{m}.jtbz"))).unwrap();
        assert!(matches!(
            plain.same_answers(&other, &packed),
            Err(ProbeError::Table(TableError::Corrupt { .. }))
        ));
        caught += 1;
    }
    assert!(caught > 0, "no material differs between the rule sets");
}

/// Damage anywhere in a compressed sub-table, read block by block by scans
/// of the tables whose captures lead into it: a scan fails or answers every
/// slot as the plain tables, never otherwise, and the WDL blocks' own check
/// is what finds some of the damage.
#[test]
fn damaged_sub_tables_read_block_by_block_never_answer_wrong() {
    let rules = Ruleset::standard();
    let plain = Tablebase::open(fixture::standard(), rules.clone()).unwrap();
    let root = tempfile::tempdir().unwrap();
    let dst = table_dir(root.path(), &rules);
    fixture::copy_tables(&table_dir(dc_root(), &rules), &dst);
    // LvR is where ELvR's and LvTR's captures of the E and the T lead.
    let scanned: Vec<(Material, Vec<_>)> = ["ELvR", "LvTR"]
        .iter()
        .map(|name| {
            let m = name.parse::<Material>().unwrap().canonical().0;
            let n = plain.table(m).unwrap().index().size();
            (m, plain.values(m, 0..n).unwrap())
        })
        .collect();
    let path = dst.join("LvR.jtbz");
    let original = std::fs::read(&path).unwrap();
    let mut next = fixture::xorshift(0x5EED_B10C_0FDA_7A00);
    let (mut answered, mut failed, mut block_checks) = (0, 0, 0);
    for _ in 0..60 {
        let mut bytes = original.clone();
        let header = Header::parse(&bytes, bytes.len() as u64, &path).unwrap();
        let start = header.header_len as usize;
        let i = start + (next() as usize % (bytes.len() - start));
        bytes[i] ^= 1 << (next() % 8);
        crate::compressed::fix_header(&mut bytes, header);
        std::fs::write(&path, &bytes).unwrap();
        let tb = Tablebase::open_with(root.path(), rules.clone(), block_by_block()).unwrap();
        for (m, truth) in &scanned {
            match tb.values(*m, 0..truth.len() as u64) {
                Ok(values) => {
                    assert!(
                        &values == truth,
                        "{m}: LvR byte {i} flipped, a slot answered wrong"
                    );
                    answered += 1;
                }
                Err(e) => {
                    let e = e.to_string();
                    block_checks += (e.contains("LvR.jtbz: corrupt table: slot ")
                        && e.contains(": WDL block ")
                        && e.ends_with("fails its check"))
                        as u32;
                    failed += 1;
                }
            }
        }
    }
    assert!(
        failed > 0 && answered > 0,
        "{failed} scans failed, {answered} answered"
    );
    assert!(block_checks > 0, "no WDL block failed its check");
}

/// Every position of every fixture material, both colour orders: values,
/// WDL, with and without kept blocks.
#[test]
fn probes_of_every_position_agree_with_plain_tables() {
    let rules = Ruleset::standard();
    let plain = Tablebase::open(fixture::standard(), rules.clone()).unwrap();
    let packed = Tablebase::open(dc_root(), rules.clone()).unwrap();
    let no_kept = Tablebase::open_with(
        dc_root(),
        rules,
        TablebaseOptions {
            max_decoded_bytes: 0,
            ..TablebaseOptions::default()
        },
    )
    .unwrap();
    let mut probed = 0u64;
    for m in materials() {
        let t = plain.table(m).unwrap();
        // Every 5th slot of the large tables, every slot of the others.
        let step = if t.index().size() > 200_000 { 5 } else { 1 };
        for i in (0..t.index().size()).step_by(step) {
            let Some(pos) = t.index().canonical_position(i) else {
                continue;
            };
            for p in [pos, pos.color_flip()] {
                let v = plain.probe(&p).unwrap();
                assert_eq!(packed.probe(&p).unwrap(), v, "{p}");
                assert_eq!(packed.probe_wdl(&p).unwrap(), v.wdl(), "{p}");
                assert_eq!(no_kept.probe(&p).unwrap(), v, "{p}");
                probed += 1;
            }
        }
    }
    assert!(probed > 300_000, "only {probed} positions probed");
}

/// The freedom exists (many positions are decided by a tactical move),
/// and is used: the WDL stream shrinks. Distances are not asserted to
/// shrink (on these small tables they need not).
#[test]
fn dont_cares_exist_and_shrink_the_wdl_stream() {
    let rules = Ruleset::standard();
    let plain = Tablebase::open(fixture::standard(), rules.clone()).unwrap();
    let exact = Tablebase::open(roots().1.path(), rules.clone()).unwrap();
    let packed = Tablebase::open(dc_root(), rules).unwrap();
    let (mut decided, mut wins_decided, mut positions) = (0u64, 0u64, 0u64);
    let (mut wdl_dc, mut wdl_exact) = (0u64, 0u64);
    for m in materials() {
        let t = plain.table(m).unwrap();
        let tactical = plain.tactical_values(&t).unwrap();
        let values = plain.values(m, 0..t.index().size()).unwrap();
        for (tac, v) in tactical.iter().zip(&values) {
            let Some(v) = v else { continue };
            positions += 1;
            assert!(
                tac.is_none_or(|w| w <= v.wdl()),
                "a move better than its position"
            );
            if *tac == Some(v.wdl()) {
                decided += 1;
                wins_decided += (v.wdl() == Wdl::Win) as u64;
            }
        }
        assert!(!exact.table(m).unwrap().has_dont_cares());
        wdl_dc += packed
            .table(m)
            .unwrap()
            .compressed_sizes()
            .unwrap()
            .unwrap()
            .wdl_bytes;
        wdl_exact += exact
            .table(m)
            .unwrap()
            .compressed_sizes()
            .unwrap()
            .unwrap()
            .wdl_bytes;
    }
    assert!(decided * 10 > positions, "{decided} of {positions} decided");
    assert!(wins_decided > 0 && wins_decided < decided);
    assert!(
        wdl_dc < wdl_exact,
        "WDL {wdl_dc} bytes with don't-cares, {wdl_exact} without"
    );
}

#[test]
fn a_lone_table_with_dont_cares_refuses_to_answer() {
    let rules = Ruleset::standard();
    let m: Material = "ELvR".parse().unwrap();
    let path = table_dir(dc_root(), &rules).join("ELvR.jtbz");
    let t = Table::open(&path, &rules, m).unwrap();
    let pos = t.index().canonical_position(0).unwrap();
    let refused = |e: TableError| {
        assert!(matches!(e, TableError::NeedsSearch(_)), "{e:?}");
        let text = e.to_string();
        assert!(
            text.contains("without don't-cares") && text.contains("ELvR.jtbz"),
            "{text}"
        );
    };
    refused(t.value_at(0).unwrap_err());
    refused(t.probe(&pos).unwrap_err());
    refused(t.probe_wdl(&pos).unwrap_err());
    refused(t.stored_values(0..10).unwrap_err());
    refused(t.raw_values().unwrap_err());
    // Through a tablebase the same file answers.
    let tb = Tablebase::open(dc_root(), rules).unwrap();
    assert!(matches!(
        tb.probe(&pos),
        Ok(Value::Win(_) | Value::Loss(_) | Value::Draw)
    ));
}

/// The check `compress` runs catches a table that answers wrong: the
/// compressed standard table against the plain table of another rule set.
#[test]
fn the_compress_check_catches_wrong_answers() {
    let rules = Ruleset::standard();
    let leiden = Ruleset::leiden();
    let plain = Tablebase::open(fixture::standard(), rules.clone()).unwrap();
    let mut caught = 0;
    for m in materials() {
        let other =
            Table::open_any(&table_dir(fixture::leiden(), &leiden).join(format!("{m}.jtb")));
        let Ok(other) = other else { continue };
        let packed =
            Table::open_any(&table_dir(dc_root(), &rules).join(format!("{m}.jtbz"))).unwrap();
        if other.index().size() != packed.index().size() {
            continue;
        }
        let same = Tablebase::open(fixture::leiden(), leiden.clone())
            .unwrap()
            .values(m, 0..other.index().size())
            .unwrap()
            == plain.values(m, 0..other.index().size()).unwrap();
        match plain.same_answers(&other, &packed) {
            Ok(()) => assert!(same, "{m}: a different table passed the check"),
            Err(e) => {
                assert!(!same, "{m}: {e}");
                assert!(matches!(e, ProbeError::Table(TableError::Corrupt { .. })));
                caught += 1;
            }
        }
    }
    assert!(caught > 0, "no material differs between the rule sets");
}

/// `verify_material` reads compressed tables (here every table is one, with
/// and without don't-cares) into memory and checks them like plain ones:
/// every fixture table passes with as many positions as its plain form, and
/// a distance changed in a compressed table is found.
#[test]
fn verify_checks_compressed_tables_like_plain_ones() {
    use jungletb::indexer::PositionIndex;
    use jungletb::solver::verify_material;
    use jungletb::tablebase::write_table;
    let rules = Ruleset::standard();
    let plain = Tablebase::open(fixture::standard(), rules.clone()).unwrap();
    let (dc, exact) = roots();
    for root in [dc.path(), exact.path()] {
        let packed = Tablebase::open(root, rules.clone()).unwrap();
        for name in fixture::THREE_PIECE {
            let m = name.parse::<Material>().unwrap().canonical().0;
            assert!(packed.table(m).unwrap().is_compressed());
            let (want, got) = (
                verify_material(&plain, m).unwrap(),
                verify_material(&packed, m).unwrap(),
            );
            assert_eq!(got.mismatches, 0, "{m}: {:?}", got.examples);
            assert_eq!(got.positions, want.positions, "{m}");
        }
    }

    // The compressed tables without don't-cares, ELvR's with one win made
    // two plies longer.
    let m: Material = "ELvR".parse().unwrap();
    let mut raw = plain.table(m).unwrap().raw_values().unwrap();
    fixture::lengthen_a_win(&mut raw);
    let changed_plain = tempfile::tempdir().unwrap();
    let index = PositionIndex::new(m, &rules).unwrap();
    let path = write_table(changed_plain.path(), &rules, &index, &raw)
        .unwrap()
        .path;
    let changed = tempfile::tempdir().unwrap();
    let dir = table_dir(changed.path(), &rules);
    std::fs::create_dir_all(&dir).unwrap();
    for path in table_files(&table_dir(exact.path(), &rules)).unwrap() {
        if path.file_stem().unwrap() != "ELvR" {
            std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
        }
    }
    write_compressed_table(&dir, &Table::open_any(&path).unwrap(), 3, None).unwrap();
    let tb = Tablebase::open(changed.path(), rules.clone()).unwrap();
    assert!(tb.table(m).unwrap().is_compressed());
    let report = verify_material(&tb, m).unwrap();
    assert!(report.mismatches >= 1, "the changed value went unnoticed");
}
