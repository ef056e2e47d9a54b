//! A reference solver written only for tests: plain and obviously correct,
//! sharing nothing with the fast solver beyond the `rules` crate.
//!
//! Positions are stored densely by a naive key (each piece's square as a
//! base-63 digit, then the side to move): no symmetry, no clever index.
//! Values come from synchronous forward value iteration: in round k a
//! position is a win in k if a successor was decided a loss in k − 1, and a
//! loss in k if every successor is a decided win, the longest being k − 1.
//! Positions never decided are draws. Successors are regenerated every
//! round with the plain move generator (`Position::legal_moves`).

use jungletb::rules::{Animal, Color, NoMoveRule, Piece, Position, Ruleset, Square, Value};
use rayon::prelude::*;
use std::collections::HashMap;

/// The solved positions of one material.
struct Solved {
    pieces: Vec<Piece>,
    /// By naive key; `None` for keys that are not valid positions.
    values: Vec<Option<Value>>,
}

fn pieces_of(white: u8, black: u8) -> Vec<Piece> {
    let mut pieces = Vec::new();
    for (color, mask) in [(Color::White, white), (Color::Black, black)] {
        for a in Animal::ALL {
            if mask & (1 << a.index()) != 0 {
                pieces.push(Piece::new(color, a));
            }
        }
    }
    pieces
}

fn key(pieces: &[Piece], pos: &Position) -> usize {
    let mut k = 0usize;
    for p in pieces {
        k = k * 63 + pos.square_of(*p).expect("piece of the material").index();
    }
    k * 2 + pos.side_to_move().index()
}

fn decode(pieces: &[Piece], mut k: usize) -> Option<Position> {
    let side = if k % 2 == 1 {
        Color::Black
    } else {
        Color::White
    };
    k /= 2;
    let mut squares = vec![0usize; pieces.len()];
    for i in (0..pieces.len()).rev() {
        squares[i] = k % 63;
        k /= 63;
    }
    let placed: Vec<(Piece, Square)> = pieces
        .iter()
        .zip(&squares)
        .map(|(p, &s)| (*p, Square::from_index(s).unwrap()))
        .collect();
    Position::from_pieces(&placed, side).ok()
}

/// Solved materials, by animal masks.
#[derive(Default)]
pub struct Reference {
    solved: HashMap<(u8, u8), Solved>,
}

impl Reference {
    /// The value of a solved position.
    pub fn value(&self, pos: &Position) -> Value {
        let s = &self.solved[&(pos.mask(Color::White), pos.mask(Color::Black))];
        s.values[key(&s.pieces, pos)].expect("a valid position")
    }

    /// Every valid position of a material, both sides to move.
    pub fn positions(white: u8, black: u8, rules: &Ruleset) -> Vec<Position> {
        let pieces = pieces_of(white, black);
        let n = 63usize.pow(pieces.len() as u32) * 2;
        (0..n)
            .into_par_iter()
            .filter_map(|k| decode(&pieces, k).filter(|p| p.validate(rules).is_ok()))
            .collect()
    }

    /// Solves a material; every material one capture away must be solved.
    pub fn solve(&mut self, rules: &Ruleset, white: u8, black: u8) {
        let pieces = pieces_of(white, black);
        let n = 63usize.pow(pieces.len() as u32) * 2;
        let mut values: Vec<Option<Value>> = vec![None; n];
        let positions: Vec<(usize, Position)> = (0..n)
            .into_par_iter()
            .filter_map(|k| {
                decode(&pieces, k)
                    .filter(|p| p.validate(rules).is_ok())
                    .map(|p| (k, p))
            })
            .collect();
        let longest_known = self
            .solved
            .values()
            .flat_map(|s| s.values.iter().filter_map(|v| v.and_then(|v| v.plies())))
            .max()
            .unwrap_or(0);
        // The value of one successor, if decided (`None`: undecided).
        let child = |values: &[Option<Value>],
                     pos: &Position,
                     mv: &jungletb::rules::Move|
         -> Option<Value> {
            if pos.is_winning_move(rules, mv) {
                return Some(Value::Loss(0));
            }
            let next = pos.play(mv);
            let m = (next.mask(Color::White), next.mask(Color::Black));
            if m == (white, black) {
                values[key(&pieces, &next)]
            } else {
                let s = &self.solved[&m];
                Some(s.values[key(&s.pieces, &next)].expect("solved before"))
            }
        };
        let mut undecided: Vec<(usize, Position)> = Vec::new();
        for (k, p) in positions {
            if p.legal_moves(rules).is_empty() {
                values[k] = Some(match rules.no_move {
                    NoMoveRule::Loss => Value::Loss(0),
                    NoMoveRule::Draw => Value::Draw,
                });
            } else {
                undecided.push((k, p));
            }
        }
        let mut round: u16 = 1;
        loop {
            let decided: Vec<(usize, Value)> = undecided
                .par_iter()
                .filter_map(|(k, pos)| {
                    let mut longest = None;
                    let mut all_wins = true;
                    for mv in pos.legal_moves(rules) {
                        match child(&values, pos, &mv) {
                            Some(Value::Loss(j)) if j == round - 1 => {
                                return Some((*k, Value::Win(round)))
                            }
                            Some(Value::Win(j)) => longest = longest.max(Some(j)),
                            _ => all_wins = false,
                        }
                    }
                    (all_wins && longest == Some(round - 1)).then_some((*k, Value::Loss(round)))
                })
                .collect();
            if decided.is_empty() && round > longest_known + 1 {
                break;
            }
            for &(k, v) in &decided {
                values[k] = Some(v);
            }
            undecided.retain(|(k, _)| values[*k].is_none());
            round += 1;
        }
        for (k, _) in undecided {
            values[k] = Some(Value::Draw);
        }
        self.solved
            .insert((white, black), Solved { pieces, values });
    }

    /// Solves every two-piece material of the animals taking part.
    pub fn solve_two_piece(&mut self, rules: &Ruleset) {
        for w in Animal::ALL.into_iter().filter(|a| rules.animal_allowed(*a)) {
            for b in Animal::ALL.into_iter().filter(|a| rules.animal_allowed(*a)) {
                self.solve(rules, 1 << w.index(), 1 << b.index());
            }
        }
    }
}
