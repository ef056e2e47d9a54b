//! What the tables know: scans over whole tables that answer questions no
//! single probe does.
//!
//! - [`zugzwang`]: placements where having the move is a disadvantage —
//!   mutual zugzwangs (the side to move loses, whichever it is) and the
//!   half kind (one side to move draws, the other side to move loses).
//! - [`compare`]: how the values of the same positions differ between two
//!   rule sets (which house rules change who wins).
//! - [`histogram`]: distances per side to move, with an example position of
//!   the longest win and loss.
//! - [`piece_map`]: the value of a position with one piece on each square.
//! - [`puzzles`]: positions where exactly one move wins, the deepest first.
//! - [`exercises`]: positions to win at a few depths and a hard draw to
//!   hold, with how many moves keep their value (the site's trainer).
//! - [`svg`]: those maps and histograms as pictures.
//!
//! Every scan reads tables through [`jungletb_tablebase::Table`] (memory maps,
//! plain or compressed), slot range by slot range in parallel, and keeps
//! only counts and a bounded number of examples: memory does not grow with
//! the table.
//!
//! ```no_run
//! use jungletb_analysis::zugzwang::scan_material;
//! use jungletb_tablebase::Tablebase;
//! use jungletb_rules::Ruleset;
//! let tb = Tablebase::open("tables", Ruleset::standard())?;
//! let report = scan_material(&tb, "LvR".parse().unwrap(), 5)?;
//! println!("{}: {} mutual zugzwangs", report.material, report.mutual);
//! # Ok::<(), jungletb_tablebase::ProbeError>(())
//! ```

#![warn(missing_docs)]

pub mod compare;
pub mod exercises;
pub mod histogram;
pub mod piece_map;
pub mod placements;
pub mod puzzles;
pub mod svg;
pub mod zugzwang;
