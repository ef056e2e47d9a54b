//! Answers of the scans over whole tables: `jungletb zugzwangs --json` and
//! `jungletb compare-rules --json`.

use jungletb_analysis::compare::{Comparison, CATEGORY_NAMES};
use jungletb_analysis::zugzwang::{Example, Report};
use serde::Serialize;
use std::collections::BTreeMap;

/// A zugzwang placement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ZugzwangExample {
    /// `"mutual"` or `"half"`.
    pub kind: &'static str,
    /// The placement, White to move.
    pub position: String,
    /// Its value with White to move (`"L12"`).
    pub white_to_move: String,
    /// Its value with Black to move.
    pub black_to_move: String,
}

impl From<&Example> for ZugzwangExample {
    fn from(e: &Example) -> Self {
        ZugzwangExample {
            kind: e.kind.name(),
            position: e.position.to_string(),
            white_to_move: e.white_to_move.to_string(),
            black_to_move: e.black_to_move.to_string(),
        }
    }
}

/// One material's zugzwangs (a line of `zugzwangs --json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ZugzwangReport {
    /// The material.
    pub material: String,
    /// Its pieces.
    pub pieces: u32,
    /// Mutual zugzwang placements.
    pub mutual: u64,
    /// Half zugzwang placements.
    pub half: u64,
    /// Examples, longest first.
    pub examples: Vec<ZugzwangExample>,
}

impl From<&Report> for ZugzwangReport {
    fn from(r: &Report) -> Self {
        ZugzwangReport {
            material: r.material.to_string(),
            pieces: r.material.piece_count(),
            mutual: r.mutual,
            half: r.half,
            examples: r.examples.iter().map(ZugzwangExample::from).collect(),
        }
    }
}

/// The totals of one piece count (the last lines of `zugzwangs --json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ZugzwangTotals {
    /// Pieces.
    pub pieces: u32,
    /// Tables scanned.
    pub tables: u64,
    /// Mutual zugzwang placements.
    pub mutual: u64,
    /// Half zugzwang placements.
    pub half: u64,
}

/// A position whose category differs between the two rule sets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChangeExample {
    /// The position.
    pub position: String,
    /// Its value under rule set A.
    pub a: String,
    /// Its value under rule set B.
    pub b: String,
}

/// How many positions go from one category to another, with an example.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    /// Positions.
    pub positions: u64,
    /// One of them.
    pub example: Option<ChangeExample>,
}

/// One material's comparison of two rule sets (a line of `compare-rules
/// --json`), or a piece count's totals (`material` absent, `tables` set).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ComparisonAnswer {
    /// The material (per-material lines only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub material: Option<String>,
    /// Pieces.
    pub pieces: u32,
    /// Tables in the totals (totals lines only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tables: Option<u64>,
    /// Positions compared.
    pub positions: u64,
    /// Positions legal under A only.
    pub only_in_a: u64,
    /// Positions whose category changes.
    pub changed: u64,
    /// By direction: `"win_to_draw"` and so on.
    pub changes: BTreeMap<String, Change>,
    /// Positions of the same category and another distance.
    pub distance_changed: u64,
    /// Their mean shift in plies.
    pub distance_shift_mean: f64,
    /// Their largest shift.
    pub distance_shift_max: u64,
}

impl ComparisonAnswer {
    /// The answer for `c`: a material's line, or (with `tables`) a piece
    /// count's totals.
    pub fn new(c: &Comparison, tables: Option<u64>) -> Self {
        let mut changes = BTreeMap::new();
        for (a, from) in CATEGORY_NAMES.iter().enumerate() {
            for (b, to) in CATEGORY_NAMES.iter().enumerate().filter(|&(b, _)| b != a) {
                let example = c.examples[a][b].as_ref().map(|(p, va, vb)| ChangeExample {
                    position: p.to_string(),
                    a: va.to_string(),
                    b: vb.to_string(),
                });
                changes.insert(
                    format!("{from}_to_{to}"),
                    Change {
                        positions: c.changes[a][b],
                        example,
                    },
                );
            }
        }
        ComparisonAnswer {
            material: tables.is_none().then(|| c.material.to_string()),
            pieces: c.material.piece_count(),
            tables,
            positions: c.positions,
            only_in_a: c.only_in_a,
            changed: c.changed(),
            changes,
            distance_changed: c.distance_changed,
            distance_shift_mean: if c.distance_changed > 0 {
                c.distance_shift_sum as f64 / c.distance_changed as f64
            } else {
                0.0
            },
            distance_shift_max: c.distance_shift_max as u64,
        }
    }
}
