//! The scans against brute force: every placement on the board built square
//! by square and probed both ways through the probe library.

use jungletb_analysis::compare::{category, compare_material};
use jungletb_analysis::histogram::histogram;
use jungletb_analysis::zugzwang::{classify, scan_material, Kind};
use jungletb_indexer::Material;
use jungletb_rules::{Color, Piece, Position, Ruleset, Square, Value};
use jungletb_solver::{generate, GenerateOptions};
use jungletb_tablebase::{ProbeError, Tablebase};
use std::sync::OnceLock;

const MATERIALS: [&str; 4] = ["RvR", "CvC", "LvR", "WRvW"];

/// Tables of `MATERIALS` (and what they need) under `rules`, generated once.
fn tables(rules: &Ruleset) -> Tablebase {
    static ROOT: OnceLock<tempfile::TempDir> = OnceLock::new();
    let root = ROOT.get_or_init(|| tempfile::tempdir().unwrap()).path();
    static DONE: std::sync::Mutex<Vec<u64>> = std::sync::Mutex::new(Vec::new());
    let mut done = DONE.lock().unwrap();
    if !done.contains(&rules.id()) {
        generate(&GenerateOptions {
            root: root.to_path_buf(),
            rules: rules.clone(),
            max_pieces: 3,
            materials: MATERIALS.iter().map(|m| m.parse().unwrap()).collect(),
            mem: None,
            check_space: true,
        })
        .unwrap();
        done.push(rules.id());
    }
    Tablebase::open(root, rules.clone()).unwrap()
}

/// Every legal placement of `material` on the board, White to move.
fn placements(material: Material, rules: &Ruleset) -> Vec<Position> {
    let pieces: Vec<Piece> = material.pieces();
    let squares: Vec<Square> = Square::all().collect();
    let mut out = Vec::new();
    let mut chosen: Vec<Square> = Vec::new();
    fn rec(
        pieces: &[Piece],
        squares: &[Square],
        chosen: &mut Vec<Square>,
        rules: &Ruleset,
        out: &mut Vec<Position>,
    ) {
        if chosen.len() == pieces.len() {
            let list: Vec<(Piece, Square)> =
                pieces.iter().copied().zip(chosen.iter().copied()).collect();
            if let Ok(p) = Position::from_pieces(&list, Color::White) {
                if p.validate(rules).is_ok() && !p.is_game_over(rules) {
                    out.push(p);
                }
            }
            return;
        }
        for &s in squares {
            if !chosen.contains(&s) {
                chosen.push(s);
                rec(pieces, squares, chosen, rules, out);
                chosen.pop();
            }
        }
    }
    rec(&pieces, &squares, &mut chosen, rules, &mut out);
    out
}

fn both_sides(tb: &Tablebase, p: &Position) -> Result<(Value, Value), ProbeError> {
    let mut black = *p;
    black.set_side_to_move(Color::Black);
    Ok((tb.probe(p)?, tb.probe(&black)?))
}

#[test]
fn zugzwang_counts_match_brute_force() {
    let rules = Ruleset::standard();
    let tb = tables(&rules);
    let mut seen = [0u64; 2];
    for name in MATERIALS {
        let m: Material = name.parse().unwrap();
        let (mut mutual, mut half) = (0u64, 0u64);
        for p in placements(m.canonical().0, &rules) {
            let (w, b) = both_sides(&tb, &p).unwrap();
            match classify(w, b) {
                Some(Kind::Mutual) => mutual += 1,
                Some(Kind::Half) => half += 1,
                None => {}
            }
        }
        let r = scan_material(&tb, m, 5).unwrap();
        assert_eq!((r.mutual, r.half), (mutual, half), "{name}");
        seen[0] += mutual;
        seen[1] += half;
        // Examples are real zugzwangs, longest first.
        for e in &r.examples {
            assert_eq!(
                both_sides(&tb, &e.position).unwrap(),
                (e.white_to_move, e.black_to_move)
            );
            assert_eq!(classify(e.white_to_move, e.black_to_move), Some(e.kind));
        }
        assert!(r
            .examples
            .windows(2)
            .all(|w| w[0].length() >= w[1].length()));
        // Up to 5 of each kind, as many as there are (a stored placement
        // stands for itself and its mirror image: one or two on the board).
        for (kind, placements) in [(Kind::Mutual, mutual), (Kind::Half, half)] {
            let listed = r.examples.iter().filter(|e| e.kind == kind).count() as u64;
            assert!(
                listed <= 5 && listed <= placements && listed >= placements.div_ceil(2).min(5),
                "{name}: {listed} {kind:?} examples of {placements} placements"
            );
        }
    }
    assert!(seen[0] > 0 && seen[1] > 0, "the test must meet both kinds");
}

#[test]
fn hand_made_zugzwangs_of_each_kind() {
    let rules = Ruleset::standard();
    let tb = tables(&rules);
    // Mutual: Rats in opposite corners of the a-file. Whoever moves first
    // gives the other the opposition, and loses.
    let mutual: Position = "r6/7/7/7/7/7/7/7/R6 w".parse().unwrap();
    let (w, b) = both_sides(&tb, &mutual).unwrap();
    assert!(
        matches!((w, b), (Value::Loss(_), Value::Loss(_))),
        "{w} / {b}"
    );
    // Half: the White Rat on c1 beside its own den, the Black Rat on b2.
    // White to move must step next to the Black Rat (b1 or c2; d1 is its
    // own den) and is taken: lost in 2 plies. Black to move draws.
    let half: Position = "7/7/7/7/7/7/7/1r5/2R4 w".parse().unwrap();
    assert_eq!(
        both_sides(&tb, &half).unwrap(),
        (Value::Loss(2), Value::Draw)
    );
    let r = scan_material(&tb, "RvR".parse().unwrap(), 10_000).unwrap();
    for (p, kind) in [(mutual, Kind::Mutual), (half, Kind::Half)] {
        // The scan lists each stored placement once: this one or its mirror.
        let found = r
            .examples
            .iter()
            .any(|e| e.kind == kind && (e.position == p || e.position == p.mirror()));
        assert!(found, "{p} not listed as {kind:?}");
    }
}

#[test]
fn rule_comparison_matches_brute_force() {
    let (a, b) = (Ruleset::standard(), Ruleset::by_name("leiden").unwrap());
    let (ta, tb) = (tables(&a), tables(&b));
    let mut changed_somewhere = false;
    for name in MATERIALS {
        let m: Material = name.parse().unwrap();
        let mut changes = [[0u64; 3]; 3];
        let mut stored = 0u64;
        // The scan reads stored positions: one of each mirror pair, White
        // to move only for materials with the same animals on both sides.
        let t = ta.table(m.canonical().0).unwrap();
        let idx = t.index();
        let sides: &[Color] = if idx.white_to_move_only() {
            &[Color::White]
        } else {
            &[Color::White, Color::Black]
        };
        for p in placements(m.canonical().0, &a) {
            for &side in sides {
                let mut q = p;
                q.set_side_to_move(side);
                if idx.canonical_position(idx.index(&q)) != Some(q) {
                    continue;
                }
                stored += 1;
                let (va, vb) = (ta.probe(&q).unwrap(), tb.probe(&q).unwrap());
                changes[category(va.wdl())][category(vb.wdl())] += 1;
            }
        }
        let c = compare_material(&ta, &tb, m).unwrap();
        assert_eq!(c.positions, stored, "{name}");
        assert_eq!(c.changes, changes, "{name}");
        changed_somewhere |= c.changed() > 0;
        for (x, row) in c.examples.iter().enumerate() {
            for (y, e) in row.iter().enumerate() {
                if let Some((p, va, vb)) = e {
                    assert_ne!(x, y);
                    assert_eq!((ta.probe(p).unwrap(), tb.probe(p).unwrap()), (*va, *vb));
                }
            }
        }
    }
    // The published difference: R a1 v r a4, White to move, is a draw under
    // standard and a White win under leiden.
    assert!(changed_somewhere);
}

#[test]
fn histograms_add_up_to_the_header_counts() {
    let rules = Ruleset::standard();
    let tb = tables(&rules);
    for name in MATERIALS {
        let t = tb
            .table(name.parse::<Material>().unwrap().canonical().0)
            .unwrap();
        let h = histogram(&tb, t.header().material).unwrap();
        for side in Color::ALL {
            let (s, hs) = (t.header().side(side), h.side(side));
            assert_eq!(hs.wins.iter().sum::<u64>(), s.wins, "{name}");
            assert_eq!(hs.losses.iter().sum::<u64>(), s.losses, "{name}");
            assert_eq!(hs.draws, s.draws, "{name}");
            if s.wins > 0 {
                let (v, p) = hs.longest_win.as_ref().unwrap();
                assert_eq!(*v, Value::Win(s.longest_win));
                assert_eq!(tb.probe(p).unwrap(), *v);
            }
            if s.losses > 0 {
                let (v, p) = hs.longest_loss.as_ref().unwrap();
                assert_eq!(*v, Value::Loss(s.longest_loss));
                assert_eq!(tb.probe(p).unwrap(), *v);
            }
        }
    }
}

#[test]
fn scans_of_compressed_tables_equal_scans_of_plain_ones() {
    use jungletb_tablebase::{table_dir, table_files, write_compressed_table, Table};
    let rules = Ruleset::standard();
    let plain = tables(&rules);
    let root = tempfile::tempdir().unwrap();
    let dir = table_dir(root.path(), &rules);
    // Every table (with don't-cares: scans read them through the search,
    // which needs the tables captures lead into).
    for path in table_files(plain.dir()).unwrap() {
        let t = Table::open_any(&path).unwrap();
        write_compressed_table(&dir, &t, 3, Some(&plain)).unwrap();
    }
    let packed = Tablebase::open(root.path(), rules.clone()).unwrap();
    let leiden = tables(&Ruleset::by_name("leiden").unwrap());
    for name in MATERIALS {
        let m: Material = name.parse().unwrap();
        assert!(packed.table(m.canonical().0).unwrap().has_dont_cares());
        assert_eq!(
            scan_material(&packed, m, 5).unwrap(),
            scan_material(&plain, m, 5).unwrap(),
            "{name}"
        );
        assert_eq!(
            histogram(&packed, m).unwrap(),
            histogram(&plain, m).unwrap(),
            "{name}"
        );
        assert_eq!(
            compare_material(&packed, &leiden, m).unwrap(),
            compare_material(&plain, &leiden, m).unwrap(),
            "{name}"
        );
    }
}

/// The zugzwang scan's progress grows chunk by chunk to every White-to-move
/// slot, and the report is the one `scan_material` gives.
#[test]
fn zugzwang_progress_ends_at_every_white_to_move_slot() {
    use jungletb_analysis::zugzwang::scan_material_with;
    use jungletb_indexer::PositionIndex;
    let rules = Ruleset::standard();
    let tb = tables(&rules);
    let m: Material = "WRvW".parse().unwrap();
    let index = PositionIndex::new(m.canonical().0, &rules).unwrap();
    let slots = if index.white_to_move_only() {
        index.size()
    } else {
        index.size() / 2
    };
    let seen = std::sync::Mutex::new(Vec::new());
    let r = scan_material_with(&tb, m, 5, &|done, n| {
        assert_eq!(n, slots);
        seen.lock().unwrap().push(done);
    })
    .unwrap();
    assert_eq!(r, scan_material(&tb, m, 5).unwrap());
    let mut seen = seen.into_inner().unwrap();
    seen.sort_unstable();
    assert_eq!(seen.last(), Some(&slots), "ends at every slot");
    assert_eq!(
        seen.len() as u64,
        slots.div_ceil(1 << 20),
        "one report a chunk"
    );
}

/// Every square a piece map colours is a position `evaluate_value` answers
/// with the same value; the enemy den is coloured only when the other side
/// is to move (with the piece's side to move no game reaches it).
#[test]
fn a_piece_map_colours_only_positions_the_probe_answers() {
    use jungletb_analysis::piece_map::{piece_map, MapSquare};
    let rules = Ruleset::standard();
    let tb = tables(&rules);
    let black_den = Square::all()
        .find(|&s| rules.board().is_den_of(s, Color::Black))
        .unwrap();
    for (text, den_coloured) in [
        ("7/7/7/7/7/2R4/7/7/2r4 w", false),
        ("7/7/7/7/7/2R4/7/7/2r4 b", true),
    ] {
        let pos: Position = text.parse().unwrap();
        let from: Square = "c4".parse().unwrap();
        let map = piece_map(&tb, &pos, from).unwrap();
        for (sq, cell) in Square::all().zip(&map.squares) {
            if let MapSquare::Value(e) = cell {
                let probed = tb.evaluate_value(&e.position).unwrap();
                assert_eq!(probed.value, e.value, "{text}: {sq}");
            }
        }
        let den = &map.squares[black_den.index()];
        assert_eq!(
            matches!(den, MapSquare::Value(_)),
            den_coloured,
            "{text}: {den:?}"
        );
    }
}

/// Whether exactly one move of `pos` wins, by probing every move.
fn only_one_move_wins(tb: &Tablebase, pos: &Position) -> bool {
    let root = tb.probe_root(pos).unwrap();
    root.iter()
        .filter(|r| matches!(r.value, Value::Win(_)))
        .count()
        == 1
}

#[test]
fn each_puzzle_has_one_winning_move_and_the_deepest_is_found() {
    use jungletb_analysis::puzzles::puzzles;
    let rules = Ruleset::standard();
    let tb = tables(&rules);
    for name in ["LvR", "WRvW"] {
        let m: Material = name.parse().unwrap();
        let found = puzzles(&tb, m, usize::MAX).unwrap();
        assert!(!found.is_empty(), "{name}: no puzzle");
        assert!(
            found.windows(2).all(|w| w[0].plies >= w[1].plies),
            "{name}: deepest first"
        );
        for p in &found {
            assert_eq!(
                tb.probe(&p.position).unwrap(),
                Value::Win(p.plies),
                "{}",
                p.position
            );
            assert!(only_one_move_wins(&tb, &p.position), "{}", p.position);
            assert_eq!(tb.best_moves(&p.position).unwrap(), vec![p.solution]);
        }
        // None is the same game further on: no puzzle on the line from a
        // deeper one, mirror images alike.
        let mut on_lines = 0;
        for (k, q) in found.iter().enumerate() {
            let mut cur = q.position;
            for mv in tb.line(&q.position).unwrap() {
                if cur.is_winning_move(&rules, &mv) {
                    break;
                }
                cur = cur.play(&mv);
                let same = |p: &Position| *p == cur || *p == cur.mirror();
                assert!(
                    !found[k + 1..].iter().any(|p| same(&p.position)),
                    "{name}: {cur} is on the line of {}",
                    q.position
                );
                on_lines += only_one_move_wins(&tb, &cur) as u32;
            }
        }
        // The lines do pass through only-move positions: without the rule
        // they would have been listed.
        assert!(on_lines > 0, "{name}: no only-move position on any line");
        // Brute force over every placement, both sides to move: the
        // deepest position with one winning move is as deep as the first
        // puzzle.
        let mut deepest = 0;
        for white in placements(m, &rules) {
            for pos in [white, {
                let mut b = white;
                b.set_side_to_move(Color::Black);
                b
            }] {
                if pos.validate(&rules).is_err() || pos.legal_moves(&rules).is_empty() {
                    continue;
                }
                if let Ok(Value::Win(d)) = tb.probe(&pos) {
                    if d > deepest && d >= 3 && only_one_move_wins(&tb, &pos) {
                        deepest = d;
                    }
                }
            }
        }
        assert_eq!(found[0].plies, deepest, "{name}");
    }
}

/// Each exercise holds the value it offers (a win at its distance, or a
/// draw), counts the moves that keep that value as the moves' own values
/// say (`probe_root`), and the wins go from shallow to the table's
/// longest; the draw can be lost.
#[test]
fn exercises_hold_their_value_and_count_the_moves_that_keep_it() {
    use jungletb_analysis::exercises::exercises_of;
    use jungletb_rules::Wdl;
    let rules = Ruleset::standard();
    let tb = tables(&rules);
    let mut draws = 0;
    for name in ["LvR", "WRvW", "CvC"] {
        let m: Material = name.parse().unwrap();
        let hist = histogram(&tb, m).unwrap();
        let found = exercises_of(&tb, m, &hist).unwrap();
        let wins: Vec<u16> = found.iter().filter_map(|e| e.plies).collect();
        assert!(wins.windows(2).all(|w| w[0] < w[1]), "{name}: {wins:?}");
        let longest = [&hist.white, &hist.black]
            .iter()
            .filter_map(|s| s.longest_win.as_ref()?.0.plies())
            .max();
        assert_eq!(
            wins.last().copied(),
            longest,
            "{name}: the last is the longest win"
        );
        for e in &found {
            let value = tb.probe(&e.position).unwrap();
            match e.goal {
                Wdl::Win => assert_eq!(value, Value::Win(e.plies.unwrap()), "{}", e.position),
                Wdl::Draw => {
                    assert_eq!(value, Value::Draw, "{}", e.position);
                    assert!(e.good_moves < e.moves, "{}: cannot be lost", e.position);
                    draws += 1;
                }
                Wdl::Loss => panic!("{}: a lost exercise", e.position),
            }
            let roots = tb.probe_root(&e.position).unwrap();
            assert_eq!(roots.len(), e.moves);
            let keeping = roots.iter().filter(|r| r.value.wdl() == e.goal).count();
            assert_eq!(keeping, e.good_moves, "{}", e.position);
            assert!(e.good_moves >= 1, "{}", e.position);
        }
    }
    assert!(draws >= 1, "no draw to hold in LvR, WRvW or CvC");
}
