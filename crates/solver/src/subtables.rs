//! The smaller tables a material's captures lead into.

use crate::error::SolveError;
use jungletb_indexer::Material;
use jungletb_rules::{RawMove, RawPosition, Value};
use jungletb_tablebase::{Table, TableError, Tablebase};
use std::sync::Arc;

/// For each piece a capture can take, the table of the material left and
/// whether positions must be colour-swapped to be found in it.
pub(crate) struct SubTables {
    by_victim: Vec<Option<(Arc<Table>, bool)>>,
}

impl SubTables {
    /// Opens (through `tb`) every table one capture away from `material`.
    pub(crate) fn open(material: Material, tb: &Tablebase) -> Result<SubTables, SolveError> {
        let mut by_victim: Vec<Option<(Arc<Table>, bool)>> = vec![None; 16];
        for p in material.pieces() {
            if let Some(m) = material.without(p) {
                let (canonical, flip) = m.canonical();
                let table = tb.table(canonical)?;
                if table.has_dont_cares() {
                    // Its values need a search: not read slot by slot.
                    return Err(TableError::NeedsSearch(table.path().to_path_buf()).into());
                }
                by_victim[p.code()] = Some((table, flip));
            }
        }
        Ok(SubTables { by_victim })
    }

    /// The longest win, for either side to move, of the tables captures
    /// lead into (`None` if there are none): the highest floor a capture
    /// gives is one more.
    pub(crate) fn longest_win(&self) -> Option<u16> {
        self.by_victim
            .iter()
            .flatten()
            .flat_map(|(table, _)| table.header().sides.iter().map(|s| s.longest_win))
            .max()
    }

    /// The value (for the side to move then) of the position after the
    /// capture `mv` in `pos`, which must not end the game.
    #[inline]
    pub(crate) fn value_after(&self, pos: &RawPosition, mv: &RawMove) -> Result<Value, SolveError> {
        let (table, flip) = self.by_victim[mv.victim as usize]
            .as_ref()
            .expect("every capturable piece has a sub-table");
        Ok(table.value_at(table.index().index_after_capture(pos, mv, *flip))?)
    }
}
