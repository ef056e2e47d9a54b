//! Propagation by regions (`crates/solver/src/regions.rs`) decides exactly
//! what the direct propagation decides: the same value in every slot, on
//! one, two and three threads, with regions small enough to be many even on
//! small materials, and on a material with only White to move in its index
//! (where the direct path locks its updates on two threads). The 5-piece
//! byte-identity test (`byte_identity.rs`) runs the regions path of
//! `Propagation::Auto` against checksums recorded before it existed.

use jungletb::indexer::Material;
use jungletb::rules::Ruleset;
use jungletb::solver::{solve_material_with, Propagation};
use jungletb::tablebase::{table_dir, Tablebase};

#[test]
fn regions_and_direct_propagation_write_the_same_values_on_any_thread_count() {
    let rules = Ruleset::standard();
    // TRvTR: White to move only; ELvTR: both sides, Rats and the river.
    let names = ["TRvTR", "ELvTR", "CvLR", "RCvR"];
    let materials: Vec<Material> = names.iter().map(|n| n.parse().unwrap()).collect();
    let root = crate::fixture::generate_tables(&rules, materials.clone());
    let dir = table_dir(root.path(), &rules);
    let tb = Tablebase::with_dir(dir.clone(), rules.clone());
    let work = tempfile::tempdir_in(&dir).unwrap();
    let solve = |m: Material, threads: usize, propagation: Propagation| -> Vec<u16> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let (values, _) = pool
            .install(|| {
                solve_material_with(m, &rules, &tb, work.path(), u64::MAX, propagation, &|_| {})
            })
            .unwrap();
        values.to_vec()
    };
    for &m in &materials {
        let m = m.canonical().0;
        let direct = solve(m, 1, Propagation::Direct);
        assert!(direct.len() > 1000, "{m}: {} slots", direct.len());
        for threads in [1, 2, 3] {
            for bits in [6, 9, 30] {
                let regions = solve(m, threads, Propagation::Regions { bits });
                let differ = (0..direct.len()).find(|&i| direct[i] != regions[i]);
                assert_eq!(
                    differ, None,
                    "{m}: regions of 2^{bits} slots on {threads} thread(s) differ at the slot"
                );
            }
        }
    }
}

/// Solves `m` with `propagation` on `threads` threads: its values.
fn solve_on(
    tb: &Tablebase,
    work: &std::path::Path,
    m: Material,
    threads: usize,
    propagation: Propagation,
) -> Vec<u16> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let rules = tb.rules().clone();
    let (values, _) = pool
        .install(|| solve_material_with(m, &rules, tb, work, u64::MAX, propagation, &|_| {}))
        .unwrap();
    values.to_vec()
}

#[test]
fn one_byte_cells_write_the_values_of_sixteen_bit_cells_on_any_thread_count() {
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
        let wide = solve_on(&tb, work.path(), m, 2, Propagation::Direct);
        assert!(wide.len() > 1000, "{m}: {} slots", wide.len());
        for threads in [1, 2, 3] {
            let bytes = solve_on(&tb, work.path(), m, threads, Propagation::ByteCells);
            let differ = (0..wide.len()).find(|&i| wide[i] != bytes[i]);
            assert_eq!(
                differ, None,
                "{m}: one-byte cells on {threads} thread(s) differ at the slot"
            );
        }
    }
}
