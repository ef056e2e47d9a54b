//! Tables that are not files in a directory: a [`TableStore`] gives a
//! [`crate::Tablebase`] the bytes of each material's table, whole or range
//! by range (a browser over HTTP range requests, a program holding tables
//! in memory). See [`crate::RemoteTables`] for the store the WebAssembly
//! build uses.

use crate::table::RangeRead;
use jungletb_format::TableError;
use jungletb_indexer::Material;
use std::sync::Arc;

/// The bytes of one table, as a [`TableStore`] holds them.
#[derive(Clone)]
pub enum StoredTable {
    /// The whole file in memory: opened with every check a file gets, the
    /// payload checksum included.
    Whole(Arc<[u8]>),
    /// Read range by range, each probe reading only what it needs. The
    /// whole-file checksum cannot be computed without reading the whole
    /// file, so such a table must be compressed: its header, its block
    /// index and distance index are checked when it opens (a sectioned
    /// table's other sections' when a probe first reads them), and every
    /// WDL block and distance part when it is read (a plain table is
    /// refused).
    Ranges(Arc<dyn RangeRead>),
}

impl std::fmt::Debug for StoredTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoredTable::Whole(b) => write!(f, "Whole({} bytes)", b.len()),
            StoredTable::Ranges(r) => write!(f, "Ranges({} bytes)", r.len()),
        }
    }
}

/// Where a [`crate::Tablebase`] made by [`crate::Tablebase::with_store`]
/// finds its tables. A store's errors are not kept: a table that failed to
/// open (its bytes not fetched yet, say) is asked for again by the next
/// probe that needs it, and a table once opened stays open.
pub trait TableStore: Send + Sync {
    /// What the store is, in errors and paths (a URL, `memory`).
    fn name(&self) -> String;
    /// The canonical materials it has a table for.
    fn materials(&self) -> Vec<Material>;
    /// The name of `material`'s table in errors (`<name>/ELvR.jtbz`).
    fn table_name(&self, material: Material) -> String;
    /// The bytes of canonical `material`'s table:
    /// [`TableError::Missing`] if the store has none.
    fn table(&self, material: Material) -> Result<StoredTable, TableError>;
    /// Called once `material`'s table has opened (the store may keep what
    /// the opening read: the header and indexes, checked then).
    fn opened(&self, _material: Material) {}
}
