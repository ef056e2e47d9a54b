//! The JSON answers of jungletb: what `jungletb probe --json`, `jungletb
//! verify --json`, `jungletb stats --json` and the HTTP API (`jungletb
//! serve`) write, as one set of
//! [`Serialize`] types with one vocabulary.
//!
//! # Conventions
//!
//! They are those of the lichess tablebase API, so that its clients port
//! easily:
//!
//! - A position's `category` and `plies` are for its **side to move**:
//!   `"win"`, `"loss"` or `"draw"`, and the plies to the end of the game
//!   with best play (`null` for a draw).
//! - A **move**'s `category` and `plies` are those of the position *after*
//!   the move, for the side to move there (the mover's opponent). The
//!   mover's best move is therefore the one whose category is `"loss"` with
//!   the fewest plies; moves are listed best first for the mover.
//! - Sides are `"w"` and `"b"`; moves are written `from` then `to` square
//!   (`"a1b1"`), squares as files `a`–`g` and ranks `1`–`9`.
//!
//! ```
//! use jungletb_wire::{Category, MoveAnswer, RepliesAnswer};
//! let mut m = MoveAnswer { mv: "a1b1".into(), category: Category::Loss, plies: Some(0),
//!                          capture: false, den: true, replies: None };
//! assert_eq!(serde_json::to_string(&m).unwrap(),
//!     r#"{"move":"a1b1","category":"loss","plies":0,"capture":false,"den":true}"#);
//! // Replies, when asked for: the opponent's, by their value for it.
//! m.replies = Some(RepliesAnswer { win: 0, draw: 0, loss: 0 });
//! assert!(serde_json::to_string(&m).unwrap().ends_with(r#""replies":{"win":0,"draw":0,"loss":0}}"#));
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![warn(missing_debug_implementations)]

mod board;
mod error;
mod exercises;
mod info;
mod plan;
mod probe;
mod puzzles;
mod rules;
mod scans;
mod stats;
mod verify;

pub use board::{
    AnimalInfo, BoardAnswer, BySide, MapAnswer, MapCell, PartialCount, RuleDisagreement,
    RulesetEntry, RulesetsAnswer,
};
pub use error::{chain, ErrorAnswer, ErrorKind};
pub use exercises::ExerciseAnswer;
pub use info::{InfoAnswer, InfoCompressed, InfoSide, PieceCountStats, Wld};
pub use plan::{Calibration, PlanAnswer, PlanTotal, PlannedMaterial};
pub use probe::{
    position_answer, Category, LegalMove, MainlineAnswer, MainlineStep, MoveAnswer, MovesAnswer,
    PositionAnswer, RepliesAnswer, Side, WdlAnswer,
};
pub use puzzles::PuzzleAnswer;
pub use rules::{
    FingerprintAnswer, FingerprintPosition, NamedRuleset, ResolvedRules, RuleOptionInfo,
    RulesListAnswer,
};
pub use scans::{
    Change, ChangeExample, ComparisonAnswer, ZugzwangExample, ZugzwangReport, ZugzwangTotals,
};
pub use stats::{Example, MaterialStats, SideStats};
pub use verify::{Disagreement, FileVerdict, VerifySummary};
