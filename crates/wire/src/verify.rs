//! `jungletb verify --json`: one object per file, then a summary.

use serde::Serialize;

/// The verdict on one table file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileVerdict {
    /// The file.
    pub file: String,
    /// It passed.
    pub ok: bool,
    /// Positions checked.
    pub positions: u64,
    /// Why it failed (`null` if it passed).
    pub error: Option<String>,
    /// Up to ten positions whose stored value disagrees with their
    /// successors.
    pub examples: Vec<Disagreement>,
}

/// A position whose stored value disagrees with its successors.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Disagreement {
    /// The position.
    pub position: String,
    /// The value stored.
    pub stored: String,
    /// The value its successors give.
    pub successors_give: String,
}

/// The last object of `verify --json`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VerifySummary {
    /// Files checked.
    pub tables: usize,
    /// Positions checked.
    pub positions: u64,
    /// Files that failed.
    pub failed: usize,
    /// Wall time.
    pub seconds: f64,
}
