//! Tables that are not files in a directory: a [`TableStore`] gives a
//! [`crate::Tablebase`] the bytes of each material's table, whole or range
//! by range (a browser over HTTP range requests, a program holding tables
//! in memory). See [`crate::remote::RemoteTables`] for the store the WebAssembly
//! build uses.

pub use crate::table::{RangeRead, StoredTable};
use jungletb_format::TableError;
use jungletb_indexer::Material;

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
