//! A move-generator suite for Jungle programs.
//!
//! Chess programmers test move generators with perft suites; this is one
//! for Jungle. A suite is a file of JSON lines, one position a line with
//! its legal moves, its perft counts and the rule points it touches:
//!
//! ```text
//! {"position":"…","rules":"standard","moves":["a1a2",…],"perft":{"1":…,"2":…,"3":…},"points":["jump over the enemy Rat",…]}
//! ```
//!
//! - [`Point`] names the circumstances of a move that programs get wrong
//!   (a jump over a Rat, the Elephant and the Rat, a trap, a den), from the
//!   board alone; [`candidates`] lists every move a program might make in a
//!   position, legal or not, with its points.
//! - [`suite`] builds the suite of a rule set: the start position, the
//!   positions that tell rule sets apart, sparse positions kept until each
//!   point has been met as a legal move and as an illegal one, positions
//!   with no legal move, and positions of random games. Always the same
//!   lines for the same rules.
//! - [`check`] reads another program's answers in the same format (only
//!   `position` is required; `moves` and `perft` are compared where given)
//!   and reports each difference with the points it touches.
//!
//! ```
//! use jungletb_rules::Ruleset;
//! let rules = Ruleset::standard();
//! let lines = jungletb_suite::suite(&rules);
//! let text: String = lines
//!     .iter()
//!     .map(|l| serde_json::to_string(l).unwrap() + "\n")
//!     .collect();
//! let report = jungletb_suite::check(&rules, &text).unwrap();
//! assert_eq!(report.lines, lines.len());
//! assert!(report.differences.is_empty());
//! ```
//!
//! The suites of `standard`, `leiden` and `popular` are kept in the
//! repository (`suites/movegen/`), and `docs/movegen-suite.md` tells
//! program authors how to use them.

#![warn(missing_docs)]
#![forbid(unsafe_code)]
#![warn(missing_debug_implementations)]

mod build;
mod check;
mod line;
mod points;

pub use build::{answer, position_points, suite, PER_POINT};
pub use check::{check, check_line, Difference, LineError, Report, MAX_CHECK_DEPTH};
pub use line::Line;
pub use points::{candidates, points_of_move, Candidate, Point};
