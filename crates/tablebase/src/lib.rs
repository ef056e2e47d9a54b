//! The jungletb probe library: open a directory of tables and ask any
//! position its value, its distance to the end, every move's value and the
//! line to the end of the game.
//!
//! - [`Tablebase`]: the front door. `Send + Sync`; tables open lazily, on
//!   the first probe of their material, within caps on mapped bytes and
//!   open files ([`TablebaseOptions`]), least recently used first out.
//!   [`Tablebase::evaluate`] also answers finished games ([`Evaluation`]);
//!   compressed tables' don't-care values are recovered by a search of the
//!   captures and den entries at probe time.
//! - [`Table`]: one validated table file, plain or compressed, read through
//!   a memory map or positional reads ([`Backend`]).
//! - [`write_table`] and [`write_compressed_table`]: the writers (a
//!   temporary file renamed into place only when complete).
//! - [`store`]: tables that are not files (bytes in memory, read range by
//!   range), and [`remote`]: the store of a caller that fetches bytes
//!   itself and cannot block (the browser's WebAssembly board).
//!
//! The bytes of the files are defined by [`jungletb_format`].
//!
//! ```no_run
//! use jungletb_rules::{Position, Ruleset};
//! use jungletb_tablebase::Tablebase;
//! let tb = Tablebase::open("tables", Ruleset::standard())?;
//! let pos: Position = "7/7/7/7/7/7/7/7/E5r w".parse().unwrap();
//! println!("{}", tb.probe(&pos)?);
//! # Ok::<(), jungletb_tablebase::ProbeError>(())
//! ```

#![warn(missing_debug_implementations)]
#![warn(missing_docs)]

mod coverage;
mod dont_care;
mod error;
mod evaluation;
mod game_over;
mod open_tables;
mod parallel;
mod probe;
pub mod remote;
mod replies;
mod scan;
mod slots;
pub mod store;
mod table;
mod tablebase;
mod writer;

pub use coverage::{Coverage, PieceCount};
pub use error::ProbeError;
pub use evaluation::{Evaluation, Replies, RootMove};
pub use game_over::GameOver;
pub use jungletb_format::{CompressedSizes, Header, TableError, Unsupported};
pub use scan::Scanner;
pub use table::{Backend, Table};
pub use tablebase::{
    compressed_table_path, find_table_dir, ruleset_dirs, ruleset_of_dir, ruleset_of_label,
    table_dir, table_files, table_path, Tablebase, TablebaseOptions, TablebaseUsage,
    COMPRESSED_EXTENSION, TABLE_EXTENSION,
};
pub use writer::{
    plain_table_len, write_compressed_table, write_compressed_table_in_sections, write_table,
    TableStats,
};
