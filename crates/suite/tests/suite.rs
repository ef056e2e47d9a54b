//! The suites: the files kept in the repository are what `suite` builds,
//! they agree with jungletb's move generator, they cover every rule point,
//! and a check names the rule point of each planted fault.

use jungletb_rules::{Animal, Position, Ruleset, Square};
use jungletb_suite::{check, suite, Line, LineError, Point, PER_POINT};
use std::collections::BTreeSet;

fn named() -> [(&'static str, Ruleset); 3] {
    [
        ("standard", Ruleset::standard()),
        ("leiden", Ruleset::leiden()),
        ("popular", Ruleset::popular()),
    ]
}

fn text(lines: &[Line]) -> String {
    lines
        .iter()
        .map(|l| serde_json::to_string(l).unwrap() + "\n")
        .collect()
}

fn kept_file(name: &str) -> String {
    let path = format!(
        "{}/../../suites/movegen/{name}.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn the_suites_in_the_repository_are_the_ones_built_now() {
    for (name, rules) in named() {
        assert!(
            kept_file(name) == text(&suite(&rules)),
            "suites/movegen/{name}.jsonl is not what `jungletb movegen-suite --ruleset {name}` writes"
        );
    }
}

#[test]
fn every_suite_agrees_with_the_move_generator_and_refuses_other_rules() {
    for (name, rules) in named() {
        let file = kept_file(name);
        let report = check(&rules, &file).unwrap();
        assert!(report.lines > 150, "{name}: {} lines", report.lines);
        assert!(
            report.differences.is_empty(),
            "{name}: {:?}",
            report.differences[0]
        );
        for (other, other_rules) in named() {
            if other != name {
                let (line, e) = check(&other_rules, &file).unwrap_err();
                assert_eq!(line, 1);
                assert!(matches!(e, LineError::OtherRules { .. }), "{e}");
                assert!(e.to_string().contains(&format!("--ruleset {name}")), "{e}");
            }
        }
    }
}

#[test]
fn every_rule_point_is_met_in_every_named_suite_and_swimming_dogs_with_dog_swims() {
    for (name, rules) in named() {
        let lines = suite(&rules);
        let met: BTreeSet<&str> = lines
            .iter()
            .flat_map(|l| l.points.iter().map(|p| p.as_str()))
            .collect();
        for p in Point::ALL {
            if p != Point::JumpBlockedByDog {
                assert!(met.contains(p.text()), "{name}: {p} never met");
            }
        }
        for l in &lines {
            for p in &l.points {
                assert!(Point::from_text(p).is_some(), "{name}: unknown point {p}");
            }
            assert!(!l.position.parse::<Position>().unwrap().is_game_over(&rules));
        }
        let no_moves = lines
            .iter()
            .filter(|l| l.moves.as_ref().unwrap().is_empty())
            .count();
        assert!(
            no_moves >= PER_POINT,
            "{name}: {no_moves} positions without a move"
        );
    }
    let mut rules = Ruleset::standard();
    rules.apply_override("dog_swims=true").unwrap();
    let lines = suite(&rules);
    assert!(lines
        .iter()
        .any(|l| l.points.iter().any(|p| p == Point::JumpBlockedByDog.text())));
    assert!(lines
        .iter()
        .all(|l| l.rules.as_deref() == Some(rules.label().as_str())));
}

#[test]
fn point_texts_are_distinct_and_read_back() {
    let texts: BTreeSet<&str> = Point::ALL.iter().map(|p| p.text()).collect();
    assert_eq!(texts.len(), Point::ALL.len());
    for p in Point::ALL {
        assert_eq!(Point::from_text(p.text()), Some(p));
    }
}

/// The moves of `pos` that a program makes when it lets pieces jump over
/// whatever is in the water: every jump of the rule set with the water
/// emptied first. Found by the geometry alone, apart from `points`.
fn jumps_over_anything(pos: &Position, rules: &Ruleset) -> Vec<String> {
    let board = rules.board();
    let mut emptied = *pos;
    for sq in Square::all().filter(|&s| board.is_water(s)) {
        emptied.remove(sq);
    }
    let mut out = Vec::new();
    for m in emptied.legal_moves(rules) {
        let step = m.from.index().abs_diff(m.to.index());
        let text = m.to_string();
        let jump = step != 1 && step != 7;
        let lands_ok = pos
            .piece_at(m.to)
            .is_none_or(|p| p.color != pos.side_to_move());
        if jump && lands_ok && !pos.legal_moves(rules).iter().any(|l| l.to_string() == text) {
            out.push(text);
        }
    }
    out
}

/// A check of `answers` under `rules`.
fn check_planted(rules: &Ruleset, answers: &[Line]) -> jungletb_suite::Report {
    check(rules, &text(answers)).unwrap()
}

#[test]
fn a_program_that_jumps_over_rats_is_reported_at_jumps_over_rats() {
    let rules = Ruleset::standard();
    let mut answers = suite(&rules);
    let mut planted = 0;
    for l in &mut answers {
        let pos: Position = l.position.parse().unwrap();
        let wrong = jumps_over_anything(&pos, &rules);
        planted += wrong.len();
        l.moves.as_mut().unwrap().extend(wrong);
        l.perft.clear();
    }
    assert!(planted >= 8, "{planted} jumps over a Rat in the suite");
    let report = check_planted(&rules, &answers);
    let extra: usize = report.differences.iter().map(|d| d.extra.len()).sum();
    assert_eq!(extra, planted);
    for d in &report.differences {
        assert!(d.missing.is_empty() && d.perft.is_empty());
        for (mv, points) in &d.extra {
            assert!(
                points.contains(&Point::JumpBlockedByOwnRat)
                    || points.contains(&Point::JumpBlockedByEnemyRat),
                "line {}: {mv} {points:?}",
                d.line
            );
        }
    }
    let by_point = report.by_point();
    assert!(by_point.contains_key(&Point::JumpBlockedByOwnRat));
    assert!(by_point.contains_key(&Point::JumpBlockedByEnemyRat));
    assert!(!by_point.contains_key(&Point::ElephantTakesRat));
}

#[test]
fn a_program_whose_elephant_never_takes_the_rat_is_reported_at_elephant_takes_rat() {
    let rules = Ruleset::standard();
    let mut answers = suite(&rules);
    let mut planted = 0;
    for l in &mut answers {
        let pos: Position = l.position.parse().unwrap();
        let before = l.moves.as_ref().unwrap().len();
        l.moves.as_mut().unwrap().retain(|m| {
            let mv = pos.parse_move(&rules, m).unwrap();
            let mover = pos.piece_at(mv.from).unwrap().animal;
            !(mover == Animal::Elephant && mv.captured == Some(Animal::Rat))
        });
        planted += before - l.moves.as_ref().unwrap().len();
    }
    assert!(planted >= PER_POINT, "{planted}");
    let report = check_planted(&rules, &answers);
    let missing: Vec<_> = report.differences.iter().flat_map(|d| &d.missing).collect();
    assert_eq!(missing.len(), planted);
    assert!(missing
        .iter()
        .all(|(_, p)| p.contains(&Point::ElephantTakesRat)));
    // The perft counts were left as jungletb's: no difference there.
    assert!(report.differences.iter().all(|d| d.perft.is_empty()));
    assert_eq!(Point::ElephantTakesRat.options(), ["elephant_captures_rat"]);
}

#[test]
fn a_wrong_perft_count_is_reported_at_its_depth_alone() {
    let rules = Ruleset::leiden();
    let mut answers = suite(&rules);
    *answers[0].perft.get_mut("3").unwrap() += 1;
    answers[5].moves = None;
    let report = check_planted(&rules, &answers);
    assert_eq!(report.differences.len(), 1);
    let d = &report.differences[0];
    assert_eq!(d.line, 1);
    assert_eq!(d.perft.len(), 1);
    let (depth, ours, theirs) = d.perft[0];
    assert_eq!((depth, theirs), (3, ours + 1));
    assert!(d.position_points.contains(&Point::IntoWater));
}

#[test]
fn lines_that_cannot_be_checked_are_refused_with_their_number() {
    let rules = Ruleset::standard();
    let cases = [
        (
            "{\"position\": \"7/7/7/7/7/7/7/7/Er5 w\"}\nnot json\n",
            2,
            "not a suite line",
        ),
        ("\n{\"moves\": []}\n", 2, "not a suite line"),
        ("{\"position\": \"8/7 w\"}\n", 1, "position \"8/7 w\""),
        (
            "{\"position\": \"7/7/7/7/7/7/7/7/Ee5 w\", \"perft\": {\"9\": 1}}",
            1,
            "depths are 1 to 6",
        ),
        (
            "{\"position\": \"7/7/7/7/7/7/7/7/Er5 w\", \"perft\": {\"x\": 1}}",
            1,
            "depths are 1 to 6",
        ),
        (
            "{\"position\": \"7/7/7/7/7/7/7/7/Er5 w\", \"rules\": \"leiden\"}",
            1,
            "--ruleset leiden",
        ),
    ];
    for (text, line, says) in cases {
        let (n, e) = check(&rules, text).unwrap_err();
        assert_eq!(n, line, "{text}");
        assert!(e.to_string().contains(says), "{text}: {e}");
    }
    // An empty file and blank lines: nothing checked, nothing wrong.
    assert_eq!(check(&rules, "\n\n").unwrap().lines, 0);
}
