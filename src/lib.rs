//! # jungletb
//!
//! Endgame tablebases for Jungle (Dou Shou Qi): a retrograde generator and a
//! probe library. The types an engine needs are at the root; the member
//! crates are re-exported for the rest:
//!
//! - [`rules`]: board, pieces, rule sets, positions, moves and un-moves, notation.
//! - [`indexer`]: materials and the perfect-hash position index.
//! - [`format`](mod@format): the bytes of the table files (header, encodings,
//!   compressed payloads).
//! - [`tablebase`]: the probe library ([`Tablebase`]).
//! - [`solver`]: the retrograde solver and batch generation, compression
//!   and verification of table directories.
//!
//! ```
//! use jungletb::{Position, Ruleset};
//! let pos: Position = "7/7/7/7/7/7/7/7/E5r w".parse().unwrap();
//! pos.validate(&Ruleset::standard()).unwrap();
//! assert_eq!(pos.to_string(), "7/7/7/7/7/7/7/7/E5r w");
//! ```

#![forbid(unsafe_code)]
#![warn(missing_debug_implementations)]
#![warn(missing_docs)]

pub use jungletb_format as format;
pub use jungletb_indexer as indexer;
pub use jungletb_rules as rules;
pub use jungletb_solver as solver;
pub use jungletb_tablebase as tablebase;

pub use jungletb_rules::{Position, Ruleset};
pub use jungletb_tablebase::{ProbeError, Tablebase, TablebaseOptions};

/// The README's Rust example, compiled as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
