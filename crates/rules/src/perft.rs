//! Perft: counting move sequences, the standard check of move generators.

use crate::movegen::Move;
use crate::position::Position;
use crate::ruleset::Ruleset;

/// The number of move sequences of exactly `depth` plies from `pos`. A move
/// that ends the game (den entry, last capture) ends its sequence; a side
/// with no legal move contributes 0.
pub fn perft(pos: &Position, rules: &Ruleset, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves(rules);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .filter(|m| !pos.is_winning_move(rules, m))
        .map(|m| perft(&pos.play(m), rules, depth - 1))
        .sum()
}

/// Perft split by root move: `(move, count)` for every legal move.
pub fn perft_divide(pos: &Position, rules: &Ruleset, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves(rules)
        .iter()
        .map(|m| {
            let n = if depth == 1 {
                1
            } else if pos.is_winning_move(rules, m) {
                0
            } else {
                perft(&pos.play(m), rules, depth - 1)
            };
            (*m, n)
        })
        .collect()
}
