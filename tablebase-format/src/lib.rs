//! jungletb table files and the probe library.
//!
//! - [`header`]: the file header (magic, versions, rule set, material,
//!   value width, counts, checksums).
//! - [`encoding`]: how a [`Value`](jungletb_rules::Value) is stored.
//! - [`write_table`]: the writer (temporary file + atomic rename).
//! - [`Table`]: one validated, memory-mapped table file.
//! - [`Tablebase`]: the front door for probing: values, best moves, the line
//!   to the end of the game. `Send + Sync`; tables open lazily.
//!
//! ```no_run
//! use jungletb_format::Tablebase;
//! use jungletb_rules::{Position, Ruleset};
//! let tb = Tablebase::open("tables", Ruleset::standard())?;
//! let pos: Position = "7/7/7/7/7/7/7/7/E5r w".parse().unwrap();
//! println!("{}", tb.probe(&pos)?);
//! # Ok::<(), jungletb_format::ProbeError>(())
//! ```

pub mod encoding;
mod error;
pub mod header;
mod table;
mod tablebase;
mod writer;

pub use error::{ProbeError, TableError};
pub use header::{Header, SideStats, FORMAT_VERSION, MAGIC};
pub use table::Table;
pub use tablebase::{table_dir, table_path, RootMove, Tablebase, TABLE_EXTENSION};
pub use writer::{write_table, TableStats};
