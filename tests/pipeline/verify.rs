//! `verify_material` (forward consistency) accepts every generated table
//! and finds a value changed in an otherwise valid, checksummed table.

use crate::fixture;
use jungletb::indexer::{Material, PositionIndex};
use jungletb::rules::{Ruleset, Value};
use jungletb::solver::verify_material;
use jungletb::tablebase::{table_dir, write_table, Tablebase};

#[test]
fn verify_accepts_generated_tables_and_finds_a_changed_value() {
    let rules = Ruleset::standard();
    let root = fixture::standard();
    let dir = table_dir(root, &rules);
    let tb = Tablebase::with_dir(dir.clone(), rules.clone());
    for name in fixture::THREE_PIECE {
        let m = name.parse::<Material>().unwrap().canonical().0;
        let report = verify_material(&tb, m).unwrap();
        assert!(
            report.positions > 10_000,
            "{m}: {} positions",
            report.positions
        );
        assert_eq!(report.mismatches, 0, "{m}: {:?}", report.examples);
    }

    // A copy of the tables with one win of ELvR made two plies longer.
    let copy = tempfile::tempdir().unwrap();
    let copy_dir = table_dir(copy.path(), &rules);
    fixture::copy_tables(&dir, &copy_dir);
    let m: Material = "ELvR".parse().unwrap();
    let mut raw = tb.table(m).unwrap().raw_values().unwrap();
    let (_, k) = fixture::lengthen_a_win(&mut raw);
    std::fs::remove_file(copy_dir.join("ELvR.jtb")).unwrap();
    let index = PositionIndex::new(m, &rules).unwrap();
    write_table(&copy_dir, &rules, &index, &raw).unwrap();
    let changed = Tablebase::with_dir(copy_dir, rules.clone());
    let report = verify_material(&changed, m).unwrap();
    assert!(report.mismatches >= 1, "the changed value went unnoticed");
    let (_, stored, recomputed) = report.examples[0];
    assert!(
        stored == Value::Win(k + 2) || recomputed != stored,
        "{:?}",
        report.examples
    );
}

/// `verify_material_with` reports progress that only grows, never past the
/// table's slots, and ends at all of them, with the same verdict as
/// `verify_material`.
#[test]
fn verify_progress_grows_to_every_slot_of_the_table() {
    use jungletb::solver::verify_material_with;
    use std::sync::Mutex;
    let rules = Ruleset::standard();
    let tb = Tablebase::with_dir(table_dir(fixture::standard(), &rules), rules.clone());
    let m: Material = "ELvR".parse().unwrap();
    let slots = PositionIndex::new(m, &rules).unwrap().size();
    let seen = Mutex::new(Vec::new());
    let report = verify_material_with(&tb, m, &|done, n| {
        assert_eq!(n, slots, "the table's size");
        seen.lock().unwrap().push(done);
    })
    .unwrap();
    assert_eq!(report.mismatches, 0);
    assert_eq!(report.positions, verify_material(&tb, m).unwrap().positions);
    let seen = seen.into_inner().unwrap();
    assert_eq!(seen.iter().max(), Some(&slots), "ends at every slot");
    assert_eq!(
        seen.len() as u64,
        slots.div_ceil(4096),
        "one report a chunk"
    );
    let mut sorted = seen.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), seen.len(), "each total reported once");
}
