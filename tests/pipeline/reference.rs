//! Generated tables agree position by position with the reference solver.

use crate::fixture;
use crate::reference_solver::Reference;
use jungletb::indexer::Material;
use jungletb::rules::{Color, Ruleset};
use jungletb::tablebase::{table_dir, Tablebase};
use std::path::Path;

/// Compares every position of a material; returns the number compared.
pub(crate) fn compare(
    tb: &Tablebase,
    reference: &Reference,
    rules: &Ruleset,
    white: u8,
    black: u8,
) -> usize {
    let positions = Reference::positions(white, black, rules);
    let mut mismatches = 0;
    for pos in &positions {
        let expected = reference.value(pos);
        let got = tb.probe(pos).unwrap_or_else(|e| panic!("{pos}: {e}"));
        if got != expected {
            if mismatches < 10 {
                eprintln!("{pos}: table {got}, reference {expected}");
            }
            mismatches += 1;
        }
    }
    assert_eq!(mismatches, 0, "{rules}: {} mismatches", mismatches);
    positions.len()
}

fn check_ruleset(rules: Ruleset, root: &Path) {
    let tb = Tablebase::open(root, rules.clone()).unwrap();
    let mut reference = Reference::default();
    reference.solve_two_piece(&rules);
    let mut checked = 0;
    for w in 0..8 {
        for b in 0..8 {
            checked += compare(&tb, &reference, &rules, 1 << w, 1 << b);
        }
    }
    for name in fixture::THREE_PIECE {
        let m: Material = name.parse().unwrap();
        let (w, b) = (m.mask(Color::White), m.mask(Color::Black));
        reference.solve(&rules, w, b);
        checked += compare(&tb, &reference, &rules, w, b);
    }
    // Every 2-piece placement (64 materials) and 15 3-piece materials, both sides.
    assert!(checked > 3_000_000, "checked {checked}");
}

#[test]
fn standard_tables_match_the_reference_solver() {
    check_ruleset(Ruleset::standard(), fixture::standard());
}

#[test]
fn leiden_tables_match_the_reference_solver() {
    check_ruleset(Ruleset::leiden(), fixture::leiden());
}

/// Whole 4-piece materials (millions of positions each) against the
/// reference solver. Minutes in release mode, so not part of the default run:
/// `cargo test --release --test pipeline -- --ignored`.
#[test]
#[ignore = "several minutes in release mode"]
fn four_piece_materials_match_the_reference_solver() {
    let rules = Ruleset::standard();
    let names = ["ELvTR", "LTvRP", "RWvRC", "TRvTR"];
    let materials: Vec<Material> = names.iter().map(|n| n.parse().unwrap()).collect();
    let root = fixture::generate_tables(&rules, materials.clone());
    let tb = Tablebase::open(root.path(), rules.clone()).unwrap();
    let mut reference = Reference::default();
    reference.solve_two_piece(&rules);
    for m in &materials {
        // The 3-piece materials it captures into (both colour orders, as the
        // reference does not use the colour swap), then the material itself.
        for sub in m.sub_materials() {
            for s in [sub, sub.flipped()] {
                reference.solve(&rules, s.mask(Color::White), s.mask(Color::Black));
            }
        }
        let (w, b) = (m.mask(Color::White), m.mask(Color::Black));
        reference.solve(&rules, w, b);
        let n = compare(&tb, &reference, &rules, w, b);
        eprintln!("{m}: {n} positions agree with the reference solver");
    }
}

/// On one thread the solver updates its cells with plain loads and stores;
/// on two, each thread expands one side's positions with plain stores until
/// one helps the other, with locked ones from then on; on three, always
/// locked (see `schedule.rs`). All three must write the same tables, and
/// the one-thread tables must agree with the reference solver.
#[test]
fn one_two_and_three_threads_write_identical_tables() {
    let rules = Ruleset::standard();
    let names = ["ELvR", "TRvT", "PvDC", "CvLR", "RCvR"];
    let materials: Vec<Material> = names.iter().map(|n| n.parse().unwrap()).collect();
    let on = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool")
            .install(|| fixture::generate_tables(&rules, materials.clone()))
    };
    let (one, two, three) = (on(1), on(2), on(3));
    let dir = |root: &Path| table_dir(root, &rules);
    let mut compared = 0;
    for entry in std::fs::read_dir(dir(one.path())).unwrap() {
        let entry = entry.unwrap();
        if !entry.file_type().unwrap().is_file() {
            continue; // the working directory
        }
        let name = entry.file_name();
        let a = std::fs::read(dir(one.path()).join(&name)).unwrap();
        for (other, threads) in [(&two, "two"), (&three, "three")] {
            let b = std::fs::read(dir(other.path()).join(&name)).unwrap();
            assert!(a == b, "{name:?} differs between one and {threads} threads");
        }
        compared += 1;
    }
    // The named materials and their 2-piece sub-materials, at least.
    assert!(compared > names.len(), "compared {compared} tables");
    let tb = Tablebase::open(one.path(), rules.clone()).unwrap();
    let mut reference = Reference::default();
    reference.solve_two_piece(&rules);
    for m in &materials {
        let (w, b) = (m.mask(Color::White), m.mask(Color::Black));
        reference.solve(&rules, w, b);
        compare(&tb, &reference, &rules, w, b);
    }
}
