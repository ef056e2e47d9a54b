//! Perft from the start position against the published figures (docs/rules.md#reference-figures).

use jungletb_rules::{perft, perft_divide, Position, Ruleset};

#[test]
fn popular_perft_matches_four_independent_programs() {
    let start = Position::start();
    let expected = [24u64, 576, 12_240, 260_099, 5_111_620];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(
            perft(&start, &Ruleset::popular(), d as u32 + 1),
            n,
            "depth {}",
            d + 1
        );
    }
}

#[test]
fn leiden_perft_matches_published_figures() {
    let start = Position::start();
    let expected = [24u64, 576, 12_240, 260_100, 5_111_725];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(
            perft(&start, &Ruleset::leiden(), d as u32 + 1),
            n,
            "depth {}",
            d + 1
        );
    }
}

#[test]
fn divide_sums_to_perft() {
    let start = Position::start();
    let r = Ruleset::standard();
    let total: u64 = perft_divide(&start, &r, 3).iter().map(|(_, n)| n).sum();
    assert_eq!(total, perft(&start, &r, 3));
    assert_eq!(perft_divide(&start, &r, 1).len(), 24);
}
