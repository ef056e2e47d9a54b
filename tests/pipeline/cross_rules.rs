//! The cross-rule attack on the Rust probe API: the White Wolf on a1 and
//! the Black Dog on a2 (a win in 1 under popular + wolf_outranks_dog, a
//! loss in 8 under standard) and its colour swap, asked of the tables of
//! each rule set through every call that takes a position; the rules a
//! caller holds checked with `check_rules`; a rule set's directory found by
//! its label keeps that label; tables of other rules under a rule set's
//! name refused by `check_headers` and by every probe.

use jungletb::indexer::Material;
use jungletb::rules::{Position, Ruleset, Value};
use jungletb::tablebase::{ruleset_of_dir, ProbeError, TableError, Tablebase};
use std::path::Path;

const WD: &str = "7/7/7/7/7/7/7/d6/W6 w";
const SWAPPED: &str = "w6/D6/7/7/7/7/7/7/7 b";

fn wolf() -> Ruleset {
    let mut r = Ruleset::popular();
    r.apply_override("wolf_outranks_dog=true").unwrap();
    r
}

fn two_pieces(root: &Path, rules: &Ruleset) {
    let materials = Material::all(2, |_| true);
    let dir = crate::fixture::generate_tables(rules, materials);
    let label = rules.label();
    std::fs::rename(dir.path().join(&label), root.join(&label)).unwrap();
}

/// Every call that takes a position, each giving the value it found.
fn every_call(tb: &Tablebase, pos: &Position) -> Vec<Result<Value, ProbeError>> {
    let line_end = tb.line(pos).map(|l| {
        // The line is as long as the value says.
        let v = tb.probe(pos).unwrap();
        assert_eq!(l.len() as u16, v.plies().unwrap());
        v
    });
    vec![
        tb.probe(pos),
        tb.evaluate(pos).map(|e| e.value),
        tb.evaluate_value(pos).map(|e| e.value),
        line_end,
    ]
}

#[test]
fn each_rule_sets_tables_answer_under_their_rules_and_refuse_others() {
    let root = tempfile::tempdir().unwrap();
    let rule_sets = [Ruleset::standard(), Ruleset::leiden(), wolf()];
    for r in &rule_sets {
        two_pieces(root.path(), r);
    }
    for tables in &rule_sets {
        let tb = Tablebase::open(root.path(), tables.clone()).unwrap();
        assert_eq!(tb.check_headers().unwrap(), 36, "{}", tables.label());
        for text in [WD, SWAPPED] {
            let pos: Position = text.parse().unwrap();
            let want = if tables.label() == wolf().label() {
                Value::Win(1)
            } else {
                Value::Loss(8)
            };
            for got in every_call(&tb, &pos) {
                assert_eq!(got.unwrap(), want, "{text} under {}", tables.label());
            }
        }
        // A caller's rules are checked: its own pass, the others name both.
        for asked in &rule_sets {
            match tb.check_rules(asked) {
                Ok(()) => assert_eq!(asked.id(), tables.id()),
                Err(ProbeError::RulesetMismatch {
                    position,
                    tables: t,
                }) => {
                    assert_eq!((position, t), (asked.label(), tables.label()));
                }
                Err(e) => panic!("{e}"),
            }
        }
    }
    // The wolf rule set's directory, given itself, is read under its own
    // label (popular-custom-…), not under a base guessed as standard.
    let dir = root.path().join(wolf().label());
    assert_eq!(ruleset_of_dir(&dir).unwrap().label(), wolf().label());
}

#[test]
fn tables_of_other_rules_under_a_rule_sets_name_are_refused() {
    let root = tempfile::tempdir().unwrap();
    two_pieces(root.path(), &wolf());
    std::fs::rename(
        root.path().join(wolf().label()),
        root.path().join("standard"),
    )
    .unwrap();
    let tb = Tablebase::open(root.path(), Ruleset::standard()).unwrap();
    match tb.check_headers() {
        Err(ProbeError::Table(TableError::WrongRuleset {
            expected, found, ..
        })) => {
            assert_eq!(expected, "standard");
            assert!(found.ends_with("custom-96041d7177d2e47e"), "{found}");
        }
        other => panic!("check_headers: {other:?}"),
    }
    for text in [WD, SWAPPED] {
        let pos: Position = text.parse().unwrap();
        for got in every_call(&tb, &pos) {
            assert!(
                matches!(got, Err(ProbeError::Table(TableError::WrongRuleset { .. }))),
                "{text}: {got:?}"
            );
        }
    }
}
