//! The solve writes the same values on one, two and three threads: the
//! order in which threads take a level's chunks and apply their updates
//! never shows in the values (updates within a level commute). On 3- and
//! 4-piece materials with only White to move in the index (TRvTR), with
//! Rats and the river, and with jumpers. The values of the tables the
//! fixture generated are checked against an independent reference solver
//! (`reference.rs`) and against recorded checksums (`byte_identity.rs`);
//! the updates gathered by regions (every 6-piece material) against those
//! applied as found, on small regions, in the solver's own tests
//! (`crates/solver/src/byte_solve_tests.rs`).

use jungletb::indexer::Material;
use jungletb::rules::Ruleset;
use jungletb::solver::solve_material;
use jungletb::tablebase::{table_dir, Tablebase};

/// Solves `m` on `threads` threads: its values.
fn solve_on(tb: &Tablebase, work: &std::path::Path, m: Material, threads: usize) -> Vec<u16> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let rules = tb.rules().clone();
    let (values, _) = pool
        .install(|| solve_material(m, &rules, tb, work, u64::MAX, &|_| {}))
        .unwrap();
    values.to_vec()
}

#[test]
fn the_solve_writes_the_generated_tables_on_any_thread_count() {
    let rules = Ruleset::standard();
    // 3 and 4 pieces; White to move only (TRvTR); Rats and the river.
    let names = ["LvTR", "EvCR", "TRvTR", "ELvTR", "CvLR", "RCvR", "DWvLR"];
    let materials: Vec<Material> = names.iter().map(|n| n.parse().unwrap()).collect();
    let root = crate::fixture::generate_tables(&rules, materials.clone());
    let dir = table_dir(root.path(), &rules);
    let tb = Tablebase::with_dir(dir.clone(), rules.clone());
    let work = tempfile::tempdir_in(&dir).unwrap();
    for &m in &materials {
        let m = m.canonical().0;
        let table = tb.table(m).unwrap().raw_values().unwrap();
        assert!(table.len() > 1000, "{m}: {} slots", table.len());
        for threads in [1, 2, 3] {
            let values = solve_on(&tb, work.path(), m, threads);
            let differ = (0..table.len()).find(|&i| table[i] != values[i]);
            assert_eq!(
                differ, None,
                "{m} on {threads} thread(s) differs at the slot"
            );
        }
    }
}
