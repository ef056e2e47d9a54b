//! Training exercises: the site's `<ruleset>/exercises.json`.

use jungletb_analysis::exercises::Exercise;
use jungletb_rules::{Ruleset, Wdl};
use serde::Serialize;

/// A position to win, or to hold to a draw, from (the trainer's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExerciseAnswer {
    /// The label of the rule set whose tables found it.
    pub ruleset: String,
    /// The material, canonical colour order.
    pub material: String,
    /// The position in jungletb notation.
    pub position: String,
    /// `"win"` or `"draw"`, for the side to move.
    pub goal: &'static str,
    /// A win's plies to the end with best play (absent for a draw).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plies: Option<u16>,
    /// Moves that keep the value.
    pub good_moves: usize,
    /// Legal moves.
    pub moves: usize,
}

impl ExerciseAnswer {
    /// The answer for `e` under `rules`.
    pub fn new(rules: &Ruleset, e: &Exercise) -> ExerciseAnswer {
        ExerciseAnswer {
            ruleset: rules.label(),
            material: e.material.to_string(),
            position: e.position.to_string(),
            goal: match e.goal {
                Wdl::Win => "win",
                Wdl::Draw => "draw",
                Wdl::Loss => "loss",
            },
            plies: e.plies,
            good_moves: e.good_moves,
            moves: e.moves,
        }
    }
}
