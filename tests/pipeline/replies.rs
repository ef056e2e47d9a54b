//! Replies by value: each move's replies, counted by their value for the
//! replying side, agree with the child position's own moves as `probe_root`
//! values them (distance probes, not the WDL path `replies` takes), on
//! plain tables and on compressed tables with don't-cares.

use crate::fixture;
use jungletb::indexer::Material;
use jungletb::rules::{Position, Ruleset, Wdl};
use jungletb::tablebase::{ProbeError, Replies, Tablebase};

/// The replies of `mv` in `pos` counted from the child's root moves.
fn replies_from_root(tb: &Tablebase, pos: &Position, mv: &jungletb::rules::Move) -> Replies {
    let rules = tb.rules();
    let mut r = Replies::default();
    if pos.is_winning_move(rules, mv) {
        return r;
    }
    let child = pos.play(mv);
    if child.legal_moves(rules).is_empty() {
        return r;
    }
    for root in tb.probe_root(&child).unwrap() {
        match root.value.wdl() {
            Wdl::Win => r.win += 1,
            Wdl::Draw => r.draw += 1,
            Wdl::Loss => r.loss += 1,
        }
    }
    r
}

/// Every 7th stored position of a few 3-piece tables: each move's
/// replies equal the tally of the child's root moves. Returns how many
/// moves had both winning and losing replies (a count swapped between win
/// and loss would fail the equality on those).
fn check_every_move(tb: &Tablebase) -> usize {
    let mut mixed = 0;
    for name in ["ELvR", "TLvP", "WCvR", "DvER", "RvER"] {
        let m: Material = name.parse().unwrap();
        let t = tb.table(m.canonical().0).unwrap();
        let idx = t.index();
        for i in (0..idx.size()).step_by(7) {
            let Some(pos) = idx.canonical_position(i) else {
                continue;
            };
            let e = tb.evaluate_with_replies(&pos).unwrap();
            for root in &e.moves {
                let got = root.replies.expect("asked for");
                assert_eq!(
                    got,
                    replies_from_root(tb, &pos, &root.mv),
                    "{pos} {}",
                    root.mv
                );
                assert_eq!(
                    got,
                    tb.replies(&pos, &root.mv).unwrap(),
                    "{pos} {}",
                    root.mv
                );
                if got.win > 0 && got.loss > 0 {
                    mixed += 1;
                }
            }
        }
    }
    mixed
}

#[test]
fn each_moves_replies_equal_the_child_positions_root_moves() {
    let tb = Tablebase::open(fixture::standard(), Ruleset::standard()).unwrap();
    assert!(check_every_move(&tb) > 100, "few moves with mixed replies");
}

#[test]
fn replies_through_dont_cares_equal_the_child_positions_root_moves() {
    let tb = Tablebase::open(crate::dont_cares::dc_root(), Ruleset::standard()).unwrap();
    assert!(check_every_move(&tb) > 100);
}

#[test]
fn a_move_that_ends_the_game_has_no_replies() {
    let tb = Tablebase::open(fixture::standard(), Ruleset::standard()).unwrap();
    // The Lion on d8 steps into the den on d9.
    let pos: Position = "7/3L3/7/7/7/7/7/7/6r w".parse().unwrap();
    let den: jungletb::rules::Move = pos
        .legal_moves(tb.rules())
        .iter()
        .copied()
        .find(|m| m.to_string() == "d8d9")
        .unwrap();
    assert_eq!(tb.replies(&pos, &den).unwrap(), Replies::default());
    let e = tb.evaluate_with_replies(&pos).unwrap();
    assert!(e.moves.iter().all(|r| r.replies.is_some()));
    // Every other move leaves the Rat its moves.
    assert!(e
        .moves
        .iter()
        .filter(|r| r.mv != den)
        .all(|r| r.replies.unwrap().total() > 0));
}

#[test]
fn an_illegal_move_is_an_error_not_a_count() {
    let tb = Tablebase::open(fixture::standard(), Ruleset::standard()).unwrap();
    let pos: Position = "7/3L3/7/7/7/7/7/7/6r w".parse().unwrap();
    let other: Position = "7/7/7/7/7/7/7/7/L5r w".parse().unwrap();
    let foreign = other.legal_moves(tb.rules())[0];
    let err = tb.replies(&pos, &foreign).unwrap_err();
    assert!(matches!(err, ProbeError::IllegalMove { .. }), "{err}");
    assert!(err.to_string().contains("not a legal move"), "{err}");
}
