//! Generated tables agree position by position with the reference solver.

use crate::fixture;
use crate::reference_solver::{all_positions, solve, solve_two_piece};
use jungletb::format::Tablebase;
use jungletb::indexer::Material;
use jungletb::rules::{Color, Position, Ruleset, Value};
use std::collections::HashMap;
use std::path::Path;

fn compare(tb: &Tablebase, positions: &[Position], reference: &HashMap<u128, Value>) -> usize {
    let mut mismatches = 0;
    for pos in positions {
        let expected = reference[&crate::reference_solver::key(pos)];
        let got = tb.probe(pos).unwrap_or_else(|e| panic!("{pos}: {e}"));
        if got != expected {
            if mismatches < 10 {
                eprintln!("{pos}: table {got}, reference {expected}");
            }
            mismatches += 1;
        }
    }
    mismatches
}

fn check_ruleset(rules: Ruleset, root: &Path) {
    let tb = Tablebase::open(root, rules.clone()).unwrap();
    let two = solve_two_piece(&rules);
    let mut checked = 0;
    let mut mismatches = 0;
    for w in 0..8 {
        for b in 0..8 {
            let positions = all_positions(1 << w, 1 << b, &rules);
            mismatches += compare(&tb, &positions, &two);
            checked += positions.len();
        }
    }
    assert_eq!(mismatches, 0, "{rules}: 2-piece mismatches");
    for name in fixture::THREE_PIECE {
        let m: Material = name.parse().unwrap();
        let (w, b) = (m.mask(Color::White), m.mask(Color::Black));
        let reference = solve(&rules, &[(w, b)], &two);
        let positions = all_positions(w, b, &rules);
        let bad = compare(&tb, &positions, &reference);
        assert_eq!(bad, 0, "{rules}: {name}: {bad} mismatches");
        checked += positions.len();
    }
    // Every 2-piece placement (64 materials) and 14 3-piece materials, both sides.
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
