//! jungletb table files and the probe library.
//!
//! - [`header`]: the file header (magic, versions, rule set, material,
//!   value width, counts, checksums).
//! - [`encoding`]: how a [`Value`](jungletb_rules::Value) is stored.
//! - [`write_table`]: the writer (temporary file + atomic rename);
//!   [`write_compressed_table`] writes the compressed distribution form
//!   ([`compressed`]).
//! - [`Table`]: one validated table file, plain or compressed, read through
//!   a memory map or positional reads ([`Backend`]).
//! - [`Tablebase`]: the front door for probing: values, best moves, the line
//!   to the end of the game. `Send + Sync`; tables open lazily.
//!   [`Tablebase::evaluate`] also answers finished games ([`Evaluation`]).
//!   It also runs the search that recovers the don't-care values of
//!   compressed tables (`search.rs`), and [`Tablebase::values`] reads whole
//!   ranges for scans.
//!
//! ```no_run
//! use jungletb_format::Tablebase;
//! use jungletb_rules::{Position, Ruleset};
//! let tb = Tablebase::open("tables", Ruleset::standard())?;
//! let pos: Position = "7/7/7/7/7/7/7/7/E5r w".parse().unwrap();
//! println!("{}", tb.probe(&pos)?);
//! # Ok::<(), jungletb_format::ProbeError>(())
//! ```

#![warn(missing_debug_implementations)]

pub mod compressed;
pub mod encoding;
mod error;
mod evaluation;
pub mod header;
mod open_tables;
mod prefetch;
mod search;
mod table;
mod tablebase;
pub mod wdl_code;
mod writer;

pub use compressed::CompressedSizes;
pub use error::{ProbeError, TableError};
pub use evaluation::{Evaluation, GameOver};
pub use header::{Header, SideStats, FORMAT_VERSION, MAGIC};
pub use table::{Backend, Table};
pub use tablebase::{
    compressed_table_path, table_dir, table_files, table_path, RootMove, Tablebase,
    TablebaseOptions, TablebaseUsage, COMPRESSED_EXTENSION, TABLE_EXTENSION,
};
pub use writer::{write_compressed_table, write_table, TableStats};
