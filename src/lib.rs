//! # jungletb
//!
//! Endgame tablebases for Jungle (Dou Shou Qi): a retrograde generator and a
//! probe library. This facade re-exports the member crates:
//!
//! - [`rules`]: board, pieces, rule sets, positions, moves and un-moves, notation.
//! - [`indexer`]: materials and the perfect-hash position index.
//! - [`format`](mod@format): the table file format and the probe library ([`format::Tablebase`]).
//! - [`solver`]: the retrograde solver and batch generation.
//!
//! ```
//! use jungletb::rules::{Position, Ruleset};
//! let pos: Position = "7/7/7/7/7/7/7/7/E5r w".parse().unwrap();
//! pos.validate(&Ruleset::standard()).unwrap();
//! assert_eq!(pos.to_string(), "7/7/7/7/7/7/7/7/E5r w");
//! ```

#![forbid(unsafe_code)]
#![warn(missing_debug_implementations)]

pub use jungletb_format as format;
pub use jungletb_indexer as indexer;
pub use jungletb_rules as rules;
pub use jungletb_solver as solver;

/// The README's Rust example, compiled as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
