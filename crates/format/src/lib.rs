//! The bytes of jungletb table files: what a `.jtb` or `.jtbz` file holds,
//! byte by byte, and the codecs that write and read its payloads.
//!
//! This crate never opens a table for probing; that is
//! [`jungletb-tablebase`](https://docs.rs/jungletb-tablebase), which reads
//! files through these definitions.
//!
//! - [`header`]: the file header (magic, versions, rule set, material,
//!   value width, counts, checksums), with its byte table.
//! - [`encoding`]: how a [`Value`](jungletb_rules::Value) is stored in a
//!   plain table's slot.
//! - [`compressed`]: the compressed distribution form (`.jtbz`): blocks,
//!   block index, the WDL stream and the distance stream.
//! - [`wdl_code`]: the WDL stream's code (a Re-Pair dictionary and a
//!   canonical prefix code over its symbols).
//! - [`TableError`]: what can be wrong with a table file.
//!
//! ```
//! use jungletb_format::{MAGIC, FORMAT_VERSION};
//! assert_eq!(MAGIC.len(), 8);
//! assert!(FORMAT_VERSION >= 1);
//! ```

#![warn(missing_debug_implementations)]
#![warn(missing_docs)]

pub mod compressed;
pub mod encoding;
mod error;
pub mod header;
pub mod prefetch;
pub mod wdl_code;

pub use compressed::CompressedSizes;
pub use error::{TableError, Unsupported};
pub use header::{Header, SideStats, FORMAT_VERSION, MAGIC};
