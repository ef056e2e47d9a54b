//! A reference solver written only for tests: plain and obviously correct,
//! sharing nothing with the fast solver beyond the `rules` crate.
//!
//! It builds the explicit game graph of every placement (no symmetry, both
//! sides to move) and runs synchronous forward value iteration: in round k a
//! position is a win in k if a successor was decided a loss in k − 1, and a
//! loss in k if every successor is a decided win, the longest being k − 1.
//! Positions never decided are draws.

use jungletb_rules::{Animal, Color, Piece, Position, Ruleset, Square, Value};
use std::collections::HashMap;

/// A collision-free key: the square (+1) of each of the 16 pieces in its own
/// 6-bit field, and the side to move.
pub fn key(pos: &Position) -> u128 {
    let mut k = pos.side_to_move().index() as u128;
    for (p, s) in pos.pieces() {
        k |= (s.index() as u128 + 1) << (1 + 6 * p.code());
    }
    k
}

/// Every valid position with these animal masks, both sides to move.
pub fn all_positions(white: u8, black: u8, rules: &Ruleset) -> Vec<Position> {
    let mut pieces = Vec::new();
    for (color, mask) in [(Color::White, white), (Color::Black, black)] {
        for a in Animal::ALL {
            if mask & (1 << a.index()) != 0 {
                pieces.push(Piece::new(color, a));
            }
        }
    }
    let mut out = Vec::new();
    fn place(
        i: usize,
        pieces: &[Piece],
        pos: &mut Position,
        rules: &Ruleset,
        out: &mut Vec<Position>,
    ) {
        if i == pieces.len() {
            if pos.validate(rules).is_ok() {
                for side in Color::ALL {
                    let mut p = *pos;
                    p.set_side_to_move(side);
                    out.push(p);
                }
            }
            return;
        }
        for s in Square::all() {
            if pos.is_empty(s) {
                pos.put(pieces[i], s);
                place(i + 1, pieces, pos, rules, out);
                pos.remove(s);
            }
        }
    }
    place(
        0,
        &pieces,
        &mut Position::empty(Color::White),
        rules,
        &mut out,
    );
    out
}

enum Edge {
    /// The move ends the game in the mover's favour.
    Ends,
    /// A position of the graph.
    Node(usize),
    /// A position solved before (a smaller material).
    Known(Value),
}

/// Solves every position of the given materials (animal mask pairs); moves
/// into other materials must land in `known`.
pub fn solve(
    rules: &Ruleset,
    materials: &[(u8, u8)],
    known: &HashMap<u128, Value>,
) -> HashMap<u128, Value> {
    let positions: Vec<Position> = materials
        .iter()
        .flat_map(|&(w, b)| all_positions(w, b, rules))
        .collect();
    let id: HashMap<u128, usize> = positions
        .iter()
        .enumerate()
        .map(|(i, p)| (key(p), i))
        .collect();
    let edges: Vec<Vec<Edge>> = positions
        .iter()
        .map(|pos| {
            pos.legal_moves(rules)
                .iter()
                .map(|mv| {
                    if pos.is_winning_move(rules, mv) {
                        return Edge::Ends;
                    }
                    let k = key(&pos.play(mv));
                    match id.get(&k) {
                        Some(&j) => Edge::Node(j),
                        None => Edge::Known(*known.get(&k).expect("successor solved before")),
                    }
                })
                .collect()
        })
        .collect();
    let longest_known = known.values().filter_map(|v| v.plies()).max().unwrap_or(0);

    let mut value: Vec<Option<Value>> = edges
        .iter()
        .map(|e| e.is_empty().then_some(Value::Loss(0)))
        .collect();
    let mut undecided: Vec<usize> = (0..positions.len())
        .filter(|&i| value[i].is_none())
        .collect();
    let mut k: u16 = 1;
    loop {
        let child = |e: &Edge, value: &[Option<Value>]| match e {
            Edge::Ends => Some(Value::Loss(0)),
            Edge::Node(j) => value[*j],
            Edge::Known(v) => Some(*v),
        };
        let mut decided = Vec::new();
        for &i in &undecided {
            let es = &edges[i];
            if es
                .iter()
                .any(|e| child(e, &value) == Some(Value::Loss(k - 1)))
            {
                decided.push((i, Value::Win(k)));
                continue;
            }
            let mut longest = None;
            let mut all_wins = true;
            for e in es {
                match child(e, &value) {
                    Some(Value::Win(j)) => longest = longest.max(Some(j)),
                    _ => all_wins = false,
                }
            }
            if all_wins && longest == Some(k - 1) {
                decided.push((i, Value::Loss(k)));
            }
        }
        if decided.is_empty() && k > longest_known + 1 {
            break;
        }
        for &(i, v) in &decided {
            value[i] = Some(v);
        }
        undecided.retain(|&i| value[i].is_none());
        k += 1;
    }
    positions
        .iter()
        .zip(value)
        .map(|(p, v)| (key(p), v.unwrap_or(Value::Draw)))
        .collect()
}

/// All 64 two-piece materials (one animal a side) solved together.
pub fn solve_two_piece(rules: &Ruleset) -> HashMap<u128, Value> {
    let mut materials = Vec::new();
    for w in 0..8 {
        for b in 0..8 {
            materials.push((1u8 << w, 1u8 << b));
        }
    }
    solve(rules, &materials, &HashMap::new())
}
