//! One line of a suite: a position with its legal moves, perft counts and
//! rule points, as JSON. The same type reads another program's answers,
//! in which only `position` is required.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One line of a suite file (JSON lines).
///
/// ```
/// let line: jungletb_suite::Line = serde_json::from_str(
///     r#"{"position": "7/7/7/7/7/7/7/7/Er5 w", "moves": ["a1a2", "a1b1"]}"#,
/// ).unwrap();
/// assert_eq!(line.moves.unwrap().len(), 2);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    /// The position, in jungletb's notation (`docs/notation.md`).
    pub position: String,
    /// The rule set's label (`standard`, `leiden`, `popular`, or a custom
    /// label). A line of other rules is refused, not checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// Every legal move (`a3a4`), sorted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<String>>,
    /// Perft counts by depth in plies (`"1"`, `"2"`, …): move sequences of
    /// exactly that many plies, a sequence ending at a move that wins.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub perft: BTreeMap<String, u64>,
    /// The rule points the position touches (see `Point::text`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub points: Vec<String>,
}
