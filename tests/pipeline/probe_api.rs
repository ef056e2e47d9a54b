//! The probe API: root moves, best moves, lines, and bad positions.

use crate::fixture;
use jungletb::rules::{Position, Ruleset, Value};
use jungletb::tablebase::{ProbeError, Tablebase};

fn tb() -> Tablebase {
    Tablebase::open(fixture::standard(), Ruleset::standard()).unwrap()
}

#[test]
fn root_moves_are_sorted_and_consistent_with_the_value() {
    let tb = tb();
    for fen in [
        "7/7/7/7/7/7/7/7/Er5 w",
        "7/7/7/7/7/l6/7/7/L6 w",
        "7/7/7/3r3/7/7/2E4/7/6L b",
        "7/7/2e4/7/7/7/7/r6/6D w",
    ] {
        let pos: Position = fen.parse().unwrap();
        let value = tb.probe(&pos).unwrap();
        let root = tb.probe_root(&pos).unwrap();
        assert!(!root.is_empty());
        assert_eq!(
            root[0].value, value,
            "{fen}: best root move keeps the value"
        );
        assert!(
            root.windows(2).all(|w| w[0].value >= w[1].value),
            "{fen}: sorted"
        );
        let best = tb.best_moves(&pos).unwrap();
        assert_eq!(best[0], root[0].mv);
    }
}

#[test]
fn lines_have_the_length_of_the_distance_and_end_the_game() {
    let tb = tb();
    let rules = Ruleset::standard();
    for fen in [
        "7/7/7/7/7/l6/7/7/L6 w",
        "7/7/7/3r3/7/7/2E4/7/6L b",
        "l6/7/7/7/7/7/7/7/6E w",
    ] {
        let pos: Position = fen.parse().unwrap();
        let value = tb.probe(&pos).unwrap();
        let line = tb.line(&pos).unwrap();
        match value.plies() {
            None => assert!(line.is_empty()),
            Some(n) => {
                assert_eq!(line.len(), n as usize, "{fen}");
                let mut cur = pos;
                for (i, mv) in line.iter().enumerate() {
                    assert!(cur.legal_moves(&rules).contains(mv));
                    if i + 1 == line.len() {
                        assert!(
                            cur.is_winning_move(&rules, mv)
                                || cur.play(mv).legal_moves(&rules).is_empty()
                        );
                    } else {
                        assert!(!cur.is_winning_move(&rules, mv));
                        cur = cur.play(mv);
                    }
                }
            }
        }
    }
}

#[test]
fn a_side_without_moves_loses_in_zero() {
    let tb = tb();
    let rules = Ruleset::standard();
    // Exhaustive: every stored position without moves is a loss in 0.
    let mut found = 0;
    for name in ["EvR", "RCvR", "LvLE", "PvDC", "CvED"] {
        let m: jungletb::indexer::Material = name.parse().unwrap();
        let t = tb.table(m).unwrap();
        let idx = t.index();
        for i in 0..idx.size() {
            if let Some(p) = idx.canonical_position(i) {
                if p.legal_moves(&rules).is_empty() {
                    assert_eq!(t.value_at(i).unwrap(), Value::Loss(0), "{p}");
                    assert_eq!(tb.probe(&p).unwrap(), Value::Loss(0));
                    found += 1;
                }
            }
        }
    }
    assert!(found > 0, "some stored position has no legal move");
    // Cat a1 boxed in by a Dog on a2 and an Elephant on b1.
    let boxed: Position = "7/7/7/7/7/7/7/d6/Ce5 w".parse().unwrap();
    assert!(boxed.legal_moves(&rules).is_empty());
    assert_eq!(tb.probe(&boxed).unwrap(), Value::Loss(0));
}

#[test]
fn bad_positions_give_errors_not_answers() {
    let tb = tb();
    let cases = [
        ("3E3/7/7/7/7/7/7/7/6r w", "den"),   // piece on a den
        ("7/7/7/7/7/1E5/7/7/6r w", "water"), // elephant in the river
        ("7/7/7/7/7/7/7/7/E6 w", "game over"),
    ];
    for (fen, needle) in cases {
        let pos: Position = fen.parse().unwrap();
        let err = tb.probe(&pos).unwrap_err().to_string();
        assert!(err.contains(needle), "{fen}: {err}");
        assert!(tb.best_moves(&pos).is_err());
        assert!(tb.line(&pos).is_err());
    }
}

#[test]
fn missing_tables_and_other_rule_sets_are_errors() {
    let missing = tempfile::tempdir().unwrap();
    let err = Tablebase::open(missing.path(), Ruleset::standard())
        .err()
        .unwrap();
    assert!(matches!(err, ProbeError::NoTables { .. }), "{err}");
    // The fixture has standard and leiden tables in separate roots; popular
    // has none.
    let err = Tablebase::open(fixture::standard(), Ruleset::popular())
        .err()
        .unwrap();
    assert!(err.to_string().contains("standard"), "{err}");
    // A material never generated.
    let tb = tb();
    let pos: Position = "7/7/7/7/7/7/7/7/EL4r w".parse().unwrap();
    assert!(tb.probe(&pos).is_ok(), "ELvR is in the fixture");
    let pos: Position = "7/7/7/7/7/7/7/7/EW4r w".parse().unwrap();
    assert!(matches!(tb.probe(&pos), Err(ProbeError::Table(_))));
}

#[test]
fn probing_is_thread_safe() {
    // Expected values from one tablebase; then a fresh one (no table opened
    // yet) probed by four threads at once, so that they race to open the
    // same tables lazily as well as to read them.
    let positions: Vec<Position> = [
        "7/7/7/7/7/l6/7/7/L6 w",
        "7/7/7/7/7/7/7/7/EL4r w",
        "7/7/7/7/7/7/2E4/7/6r b",
        "7/7/7/7/7/7/7/7/Er5 w",
    ]
    .iter()
    .map(|p| p.parse().unwrap())
    .collect();
    let expected: Vec<_> = {
        let tb = tb();
        positions.iter().map(|p| tb.probe(p).unwrap()).collect()
    };
    let fresh = tb();
    let start = std::sync::Barrier::new(4);
    std::thread::scope(|s| {
        for t in 0..4 {
            let (fresh, positions, expected, start) = (&fresh, &positions, &expected, &start);
            s.spawn(move || {
                start.wait();
                for k in 0..200 {
                    let i = (t + k) % positions.len();
                    assert_eq!(fresh.probe(&positions[i]).unwrap(), expected[i]);
                }
            });
        }
    });
}

#[test]
fn errors_keep_their_causes() {
    use std::error::Error;
    let tb = tb();
    let pos: Position = "7/7/7/7/7/1E5/7/7/6r w".parse().unwrap();
    let err = tb.probe(&pos).unwrap_err();
    assert!(matches!(
        err,
        ProbeError::Position(jungletb::rules::PositionError::PieceInWater { .. })
    ));
    let cause = err.source().expect("a cause");
    assert!(cause
        .downcast_ref::<jungletb::rules::PositionError>()
        .is_some());
    // A missing table: the probe error carries the table error.
    let pos: Position = "7/7/7/7/7/7/7/7/EW4r w".parse().unwrap();
    let err = tb.probe(&pos).unwrap_err();
    let cause = err.source().expect("a cause");
    assert!(matches!(
        cause.downcast_ref::<jungletb::tablebase::TableError>(),
        Some(jungletb::tablebase::TableError::Missing(_))
    ));
}

#[test]
fn coverage_says_what_is_complete_and_what_is_partial() {
    use jungletb::indexer::Material;
    let rules = jungletb::rules::Ruleset::standard();
    let mut materials: Vec<Material> = Material::all(2, |_| true);
    materials.push("ERvT".parse().unwrap());
    let root = crate::fixture::generate_tables(&rules, materials);
    let tb = jungletb::tablebase::Tablebase::open(root.path(), rules).unwrap();
    let c = tb.coverage();
    assert_eq!((c.complete, c.max_pieces()), (2, 3));
    let partial: Vec<_> = c
        .partial()
        .map(|p| (p.pieces, p.present, p.total))
        .collect();
    assert_eq!(partial, vec![(3, 1, 224)]);
    assert_eq!(
        c.describe(),
        "tables up to 2 pieces, and 1 of the 224 with 3"
    );
    // An empty rule-set directory covers nothing.
    let empty = tempfile::tempdir().unwrap();
    std::fs::create_dir(empty.path().join("standard")).unwrap();
    let none =
        jungletb::tablebase::Tablebase::open(empty.path(), jungletb::rules::Ruleset::standard())
            .unwrap()
            .coverage();
    assert_eq!((none.complete, none.max_pieces()), (0, 0));
}
