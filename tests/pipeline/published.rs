//! The published figures of docs/rules.md and the Leiden 2-piece tablebase
//! (van Rijn & Vis, ICGA Journal 37(2), 2014; OpenML data set 41027).

use crate::fixture;
use jungletb::rules::{Animal, Color, Piece, Position, Ruleset, Square, Value};
use jungletb::tablebase::Tablebase;
use std::path::PathBuf;

/// The published Leiden 2-piece tablebase, kept in the repository
/// (`tests/data/leiden-2piece.csv.gz`, source and citation in
/// `tests/data/README.md`), as text.
fn leiden_csv() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/leiden-2piece.csv.gz");
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(file), &mut text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text
}

/// The value for White (to move) of every row: `w`, `b` or `d`.
fn class_of(v: Value) -> char {
    match v {
        Value::Win(_) => 'w',
        Value::Loss(_) => 'b',
        Value::Draw => 'd',
    }
}

#[test]
fn every_published_leiden_two_piece_result_matches() {
    let text = leiden_csv();
    let tb = Tablebase::open(fixture::leiden(), Ruleset::leiden()).unwrap();
    let num = |s: &str| -> u8 { s.trim().parse::<f64>().unwrap() as u8 };
    let (mut rows, mut mismatches) = (0, 0);
    let mut counts = [0u32; 3];
    let mut seen = std::collections::HashSet::new();
    for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 7, "bad row {line}");
        let white = Piece::new(
            Color::White,
            Animal::from_index(num(f[0]) as usize).unwrap(),
        );
        let black = Piece::new(
            Color::Black,
            Animal::from_index(num(f[3]) as usize).unwrap(),
        );
        let ws = Square::new(num(f[1]), num(f[2])).unwrap();
        let bs = Square::new(num(f[4]), num(f[5])).unwrap();
        let pos = Position::from_pieces(&[(white, ws), (black, bs)], Color::White).unwrap();
        let class = f[6].trim();
        let expected = match class.strip_prefix("b'").and_then(|c| c.strip_suffix('\'')) {
            Some(c) if c.len() == 1 => c.chars().next().unwrap(),
            _ => panic!("bad class field {class:?}"),
        };
        counts[match expected {
            'w' => 0,
            'b' => 1,
            'd' => 2,
            c => panic!("unknown class {c}"),
        }] += 1;
        let got = class_of(tb.probe(&pos).unwrap_or_else(|e| panic!("{pos}: {e}")));
        if got != expected {
            if mismatches < 20 {
                eprintln!("{pos}: published {expected}, ours {got}");
            }
            mismatches += 1;
        }
        seen.insert(pos);
        rows += 1;
    }
    assert_eq!(rows, 44_819, "row count of the published file");
    assert_eq!(
        counts,
        [23_062, 17_422, 4_335],
        "class counts of the published file"
    );
    assert_eq!(
        mismatches, 0,
        "mismatches against the published Leiden tablebase"
    );
    // The row missing from the file: Elephant f1 v Elephant g1, a White win.
    let missing: Position = "7/7/7/7/7/7/7/7/5Ee w".parse().unwrap();
    assert!(!seen.contains(&missing));
    assert_eq!(class_of(tb.probe(&missing).unwrap()), 'w');
}

#[test]
fn rules_md_positions() {
    let leiden = Tablebase::open(fixture::leiden(), Ruleset::leiden()).unwrap();
    let standard = Tablebase::open(fixture::standard(), Ruleset::standard()).unwrap();
    let cases = [
        ("7/7/7/7/7/7/7/7/Er5 w", 'w'),
        ("7/7/7/7/7/r6/7/7/E6 w", 'd'),
        ("7/7/7/7/7/r6/7/7/R6 w", 'w'),
        ("7/7/7/7/7/l6/7/7/L6 w", 'b'),
        ("7/7/7/r6/7/7/7/7/1L5 w", 'd'),
        ("7/7/7/7/7/7/3P3/3l3/7 w", 'w'),
    ];
    for (fen, expected) in cases {
        let pos: Position = fen.parse().unwrap();
        assert_eq!(
            class_of(leiden.probe(&pos).unwrap()),
            expected,
            "leiden {fen}"
        );
    }
    // Rat v Rat across the water's edge differs under `standard`: a draw.
    let pos: Position = "7/7/7/7/7/r6/7/7/R6 w".parse().unwrap();
    assert_eq!(standard.probe(&pos).unwrap(), Value::Draw);
}

#[test]
fn leiden_two_piece_totals_over_the_published_pairs() {
    // docs/rules.md: White to move, the 17 published piece pairs, 44,820 positions.
    let text = leiden_csv();
    let mut pairs = std::collections::BTreeSet::new();
    for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split(',').collect();
        pairs.insert((f[0].trim().to_string(), f[3].trim().to_string()));
    }
    assert_eq!(pairs.len(), 17);
    let tb = Tablebase::open(fixture::leiden(), Ruleset::leiden()).unwrap();
    let rules = Ruleset::leiden();
    let mut counts = [0u32; 3];
    for (w, b) in &pairs {
        let wa = Animal::from_index(w.parse::<f64>().unwrap() as usize).unwrap();
        let ba = Animal::from_index(b.parse::<f64>().unwrap() as usize).unwrap();
        for pos in
            crate::reference_solver::Reference::positions(1 << wa.index(), 1 << ba.index(), &rules)
        {
            if pos.side_to_move() == Color::White {
                counts["wbd".find(class_of(tb.probe(&pos).unwrap())).unwrap()] += 1;
            }
        }
    }
    assert_eq!(counts, [23_063, 17_422, 4_335]);
}
