//! Only-move puzzles: `jungletb puzzles --json` and the site's
//! `<ruleset>/puzzles.json`.

use jungletb_analysis::puzzles::Puzzle;
use jungletb_rules::{line_text, Move, Ruleset};
use serde::Serialize;

/// A position where exactly one move wins (a line of `puzzles --json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PuzzleAnswer {
    /// The label of the rule set whose tables found it.
    pub ruleset: String,
    /// The material, canonical colour order.
    pub material: String,
    /// The position in jungletb notation.
    pub position: String,
    /// Plies to the end with best play.
    pub plies: u16,
    /// Legal moves of the position.
    pub moves: usize,
    /// The only winning move (`"b9a9"`).
    pub solution: String,
    /// An optimal line from the position, the solution first.
    pub line: Vec<String>,
    /// The line numbered with piece letters (`1. Wg7f7 tg9g8 …`).
    pub line_text: String,
}

impl PuzzleAnswer {
    /// The answer for `p` under `rules`, with its optimal `line`.
    pub fn new(rules: &Ruleset, p: &Puzzle, line: &[Move]) -> PuzzleAnswer {
        PuzzleAnswer {
            ruleset: rules.label(),
            material: p.material.to_string(),
            position: p.position.to_string(),
            plies: p.plies,
            moves: p.moves,
            solution: p.solution.to_string(),
            line: line.iter().map(Move::to_string).collect(),
            line_text: line_text(&p.position, line, rules),
        }
    }
}
