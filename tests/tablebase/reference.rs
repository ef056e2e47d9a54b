//! Generated tables agree position by position with the reference solver.

use crate::fixture;
use crate::reference_solver::Reference;
use jungletb::format::Tablebase;
use jungletb::indexer::Material;
use jungletb::rules::{Color, Ruleset};
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
/// `cargo test --release --test tablebase -- --ignored`.
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
