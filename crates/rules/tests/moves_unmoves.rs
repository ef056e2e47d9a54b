//! Moves and un-moves are inverse: every successor lists the position among
//! its predecessors and every predecessor lists it among its successors.

use jungletb_rules::{
    square_bit, Animal, Color, Move, MoveTables, Piece, Position, RawMove, RawPosition, Ruleset,
    Square, NO_SQUARE,
};

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random valid position with `white` and `black` animal masks.
fn random_position(rng: &mut Rng, rules: &Ruleset, white: u8, black: u8) -> Position {
    loop {
        let side = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mut pos = Position::empty(side);
        let mut ok = true;
        for (color, mask) in [(Color::White, white), (Color::Black, black)] {
            for a in Animal::ALL {
                if mask & (1 << a.index()) == 0 {
                    continue;
                }
                let sq = Square::from_index(rng.below(63) as usize).unwrap();
                if pos.piece_at(sq).is_some() {
                    ok = false;
                    break;
                }
                pos.put(Piece::new(color, a), sq);
            }
        }
        if ok && pos.validate(rules).is_ok() {
            return pos;
        }
    }
}

fn check(pos: &Position, rules: &Ruleset) -> usize {
    let mut checks = 0;
    // Successors list the position among their predecessors.
    for mv in pos.legal_moves(rules) {
        if pos.is_winning_move(rules, &mv) {
            continue;
        }
        let child = pos.play(&mv);
        let back = child.unmoves(rules, mv.captured);
        assert!(
            back.iter().any(|u| child.unplay(u) == *pos),
            "{pos}: move {mv} leads to {child}, whose un-moves do not lead back"
        );
        checks += 1;
    }
    // Predecessors (quiet and with every possible un-capture) list it among
    // their successors, are valid, and are not wins for the mover already.
    let side = pos.side_to_move();
    let mut uncaptures: Vec<Option<Animal>> = vec![None];
    uncaptures.extend(
        Animal::ALL
            .iter()
            .filter(|a| pos.square_of(Piece::new(side, **a)).is_none())
            .map(|a| Some(*a)),
    );
    for un in uncaptures {
        for u in pos.unmoves(rules, un) {
            let before = pos.unplay(&u);
            before
                .validate(rules)
                .unwrap_or_else(|e| panic!("{pos}: un-move {u} gives invalid {before}: {e}"));
            let forward: Vec<Move> = before.legal_moves(rules).into_iter().collect();
            assert!(
                forward.iter().any(|m| *m == u
                    && before.play(m) == *pos
                    && !before.is_winning_move(rules, m)),
                "{pos}: predecessor {before} (un-move {u}) has no move leading here"
            );
            checks += 1;
        }
    }
    checks
}

#[test]
fn moves_and_unmoves_agree_on_random_positions() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let all = |letters: &str| {
        letters
            .chars()
            .fold(0u8, |m, c| m | 1 << Animal::from_letter(c).unwrap().index())
    };
    // Rats (water, captures across the edge), jumpers (blocked by rats), the
    // Elephant (rat exception), traps, many pieces at once.
    let materials = [
        ("R", "R"),
        ("E", "R"),
        ("RE", "RE"),
        ("LT", "R"),
        ("L", "RT"),
        ("RLTE", "RLTE"),
        ("RCWDPTLE", "RCWDPTLE"),
        ("P", "D"),
        ("EC", "WR"),
    ];
    for rules in [Ruleset::standard(), Ruleset::leiden(), Ruleset::popular()] {
        let mut checks = 0;
        for (w, b) in materials {
            for _ in 0..400 {
                let pos = random_position(&mut rng, &rules, all(w), all(b));
                checks += check(&pos, &rules);
            }
        }
        assert!(checks > 10_000, "too few checks: {checks}");
    }
}

#[test]
fn unmoves_include_jumps_and_uncaptures() {
    let rules = Ruleset::standard();
    // White lion on d4 just jumped from a4 (over b4, c4), capturing a black
    // panther on d4; Black to move now.
    let pos: Position = "e6/7/7/7/7/3L3/7/7/7 b".parse().unwrap();
    pos.validate(&rules).unwrap();
    let un = pos.unmoves(&rules, Some(Animal::Panther));
    let texts: Vec<String> = un.iter().map(|u| u.to_string()).collect();
    assert!(texts.contains(&"a4d4".to_string()), "{texts:?}");
    assert!(texts.contains(&"g4d4".to_string()), "{texts:?}");
    assert!(texts.contains(&"d3d4".to_string()), "{texts:?}");
    // The Lion cannot have captured the Elephant.
    assert!(pos.unmoves(&rules, Some(Animal::Elephant)).is_empty());
}

/// Checks [`MoveTables::count_run_moves`] against
/// [`MoveTables::count_moves`] (the count, and the captures as sets) with
/// the piece `moving` of `raw` on every free square along its run.
/// Returns the positions checked and the captures of the moving piece
/// seen along the run.
fn run_agrees_with_count_moves(
    tables: &MoveTables,
    raw: &RawPosition,
    moving: usize,
) -> (usize, usize) {
    let run = tables.run_moves(raw, moving);
    let key = |m: RawMove| (m.code, m.from, m.to, m.victim, m.enters_den);
    let (mut checked, mut taken) = (0, 0);
    for sq in 0..Square::COUNT as u8 {
        let at = if sq == raw.squares()[moving] {
            *raw
        } else if raw.occupied() & square_bit(sq) == 0 {
            raw.with_piece_on(moving, sq)
        } else {
            continue;
        };
        let (mut plain, mut by_run) = (Vec::new(), Vec::new());
        let want = tables.count_moves(&at, |m| plain.push(key(m)));
        let got = tables.count_run_moves(&run, &at, |m| by_run.push(key(m)));
        plain.sort_unstable();
        by_run.sort_unstable();
        taken += plain.iter().filter(|m| m.3 as usize == moving).count();
        assert_eq!(
            (got, by_run),
            (want, plain),
            "{raw:?}: code {moving} on {sq}"
        );
        checked += 1;
    }
    (checked, taken)
}

#[test]
fn eight_pieces_may_all_take_the_moving_piece_along_a_run() {
    // White's eight pieces, none next to another, each with four hops onto
    // free squares (the Lion's sideways ones jumps over the rivers), and a
    // black Rat, the moving piece, which any of them may take on any of
    // those hops (the Elephant too, under `always`): 32 hops of one kind,
    // the most a run keeps.
    let mut rules = Ruleset::standard();
    rules
        .apply_override("elephant_captures_rat=always")
        .unwrap();
    let tables = MoveTables::new(&rules);
    let at = |file: u8, rank: u8| rank * 7 + file;
    let mut squares = [NO_SQUARE; 16];
    squares[..8].copy_from_slice(&[
        at(1, 3), // Rat, in the water on b4
        at(1, 1), // Cat
        at(5, 1), // Wolf
        at(3, 2), // Dog
        at(1, 7), // Panther
        at(5, 7), // Tiger
        at(3, 4), // Lion, between the rivers on d5
        at(3, 6), // Elephant
    ]);
    squares[8] = at(0, 0); // the black Rat
    let raw = RawPosition::new(squares, Color::White).unwrap();
    let (_, taken) = run_agrees_with_count_moves(&tables, &raw, 8);
    assert_eq!(taken, 32, "captures of the Rat along its run");
}

#[test]
fn move_tables_agree_with_the_plain_generators() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let all = |letters: &str| {
        letters
            .chars()
            .fold(0u8, |m, c| m | 1 << Animal::from_letter(c).unwrap().index())
    };
    let mut variants = vec![Ruleset::standard(), Ruleset::leiden(), Ruleset::popular()];
    for kv in [
        "universal_traps=true",
        "trap_entry_max_rank=3",
        "jumpers=L:v,T:hv,P:h",
        "elephant_captures_rat=never",
        "water_rat_captures_elephant=true",
        "tiger_outranks_lion=true",
        "wolf_outranks_dog=true",
        "dog_swims=true",
        "water_rat_captures_land_rat=true",
    ] {
        let mut r = Ruleset::standard();
        r.apply_override(kv).unwrap();
        variants.push(r);
    }
    let materials = [
        ("RLTE", "RLTE"),
        ("RCWDPTLE", "RCWDPTLE"),
        ("LTP", "R"),
        ("E", "RD"),
    ];
    let mut tactical_seen = 0;
    let mut sure_entries_seen = 0;
    let mut runs_seen = 0;
    for rules in &variants {
        let tables = MoveTables::new(rules);
        for (w, b) in materials {
            for _ in 0..300 {
                let pos = random_position(&mut rng, rules, all(w), all(b));
                assert_eq!(
                    tables.legal_moves(&pos),
                    pos.legal_moves(rules),
                    "{pos} under {rules}"
                );
                assert_eq!(
                    tables.quiet_unmoves(&pos),
                    pos.unmoves(rules, None),
                    "{pos} under {rules}"
                );
                // The raw (bitboard) generators: the same moves in the same
                // order, and the same wins.
                let raw = RawPosition::from_position(&pos);
                assert_eq!(raw.to_position(), pos);
                let mut raw_moves = Vec::new();
                tables.for_each_move(&raw, |m| {
                    assert_eq!(
                        raw.is_winning_move(&m),
                        pos.is_winning_move(rules, &m.to_move()),
                        "{pos}: {m:?}"
                    );
                    raw_moves.push(m.to_move());
                });
                assert_eq!(
                    raw_moves,
                    pos.legal_moves(rules).to_vec(),
                    "{pos} under {rules}"
                );
                // The tactical generator: exactly the captures and den
                // entries among them, in the same order.
                let mut tactical = Vec::new();
                tables.for_each_tactical_move(&raw, |m| tactical.push(m.to_move()));
                let expected: Vec<Move> = pos
                    .legal_moves(rules)
                    .iter()
                    .filter(|m| {
                        m.captured.is_some()
                            || rules.board().is_den_of(m.to, pos.side_to_move().opponent())
                    })
                    .copied()
                    .collect();
                assert_eq!(tactical, expected, "{pos} under {rules}");
                tactical_seen += expected.len();
                // The sweep's count: the captures called in the same order,
                // the quiet moves and den entries counted.
                let mut captures = Vec::new();
                let count = tables.count_moves(&raw, |m| captures.push(m.to_move()));
                let legal = pos.legal_moves(rules);
                let den = |m: &Move| rules.board().is_den_of(m.to, pos.side_to_move().opponent());
                let taking: Vec<Move> = legal
                    .iter()
                    .filter(|m| m.captured.is_some())
                    .copied()
                    .collect();
                assert_eq!(captures, taking, "{pos} under {rules}");
                let quiet = legal
                    .iter()
                    .filter(|m| m.captured.is_none() && !den(m))
                    .count();
                assert_eq!(count.quiet as usize, quiet, "{pos} under {rules}");
                assert_eq!(
                    count.enters_den,
                    legal.iter().any(den),
                    "{pos} under {rules}"
                );
                // The quiet generator: the others, in the same order, and
                // it stops where its callback says so.
                let mut quiet = Vec::new();
                let all = tables.all_quiet_moves(&raw, |code, to| {
                    quiet.push(Move {
                        from: Square::from_index(raw.squares()[code] as usize).unwrap(),
                        to: Square::from_index(to as usize).unwrap(),
                        captured: None,
                    });
                    true
                });
                assert!(all);
                let expected: Vec<Move> = pos
                    .legal_moves(rules)
                    .iter()
                    .filter(|m| !expected.contains(m))
                    .copied()
                    .collect();
                assert_eq!(quiet, expected, "{pos} under {rules}");
                if let Some(half) = (!quiet.is_empty()).then(|| quiet.len().div_ceil(2)) {
                    let mut calls = 0;
                    let all = tables.all_quiet_moves(&raw, |_, _| {
                        calls += 1;
                        calls < half
                    });
                    assert!(
                        !all && calls == half,
                        "{pos}: {calls} calls, stop at {half}"
                    );
                }
                let mut raw_unmoves = Vec::new();
                tables.for_each_quiet_unmove(&raw, |code, from| {
                    let to = raw.squares()[code];
                    raw_unmoves.push(Move {
                        from: Square::from_index(from as usize).unwrap(),
                        to: Square::from_index(to as usize).unwrap(),
                        captured: None,
                    });
                });
                assert_eq!(
                    raw_unmoves,
                    pos.unmoves(rules, None).to_vec(),
                    "{pos} under {rules}"
                );
                // The run's count: the same, with the same captures, for
                // every square each piece may move to along a run.
                for moving in 0..16 {
                    if raw.squares()[moving] != NO_SQUARE {
                        runs_seen += run_agrees_with_count_moves(&tables, &raw, moving).0;
                    }
                }
                // A sure den entry: the side to move has it as a move, and
                // the other side keeps it through every quiet move made.
                let mover = raw.side_to_move();
                if tables.steps_into_den(&raw, mover) {
                    assert!(count.enters_den, "{pos} under {rules}");
                    sure_entries_seen += 1;
                }
                if tables.steps_into_den(&raw, mover.opponent()) {
                    tables.for_each_move(&raw, |m| {
                        if !m.is_capture() && !m.enters_den {
                            let next = raw.after(&m);
                            let entry = tables.count_moves(&next, |_| {}).enters_den;
                            assert!(entry, "{pos} under {rules}: {m:?} took the den entry away");
                        }
                    });
                    sure_entries_seen += 1;
                }
            }
        }
    }
    assert!(
        sure_entries_seen > 100,
        "{sure_entries_seen} sure den entries seen"
    );
    assert!(runs_seen > 100_000, "{runs_seen} positions of runs seen");
    // Not vacuous: random positions with many pieces have tactical moves.
    assert!(tactical_seen > 1000, "{tactical_seen} tactical moves seen");
}
