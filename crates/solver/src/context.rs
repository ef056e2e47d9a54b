//! What the passes of a solve share: the rule set, its move tables, the
//! index, the sub-tables captures lead into and the working cells.

use crate::subtables::SubTables;
use jungletb_indexer::PositionIndex;
use jungletb_rules::{MoveTables, Ruleset};
use std::sync::atomic::AtomicU16;

/// Everything the passes share.
pub(crate) struct Ctx<'a> {
    pub(crate) rules: &'a Ruleset,
    pub(crate) tables: MoveTables,
    pub(crate) index: &'a PositionIndex,
    /// The tables captures lead into.
    pub(crate) subs: SubTables,
    /// The working cells (see `cell.rs`).
    pub(crate) cells: &'a [AtomicU16],
}
