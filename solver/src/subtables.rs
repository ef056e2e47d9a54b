//! The smaller tables a material's captures lead into.

use crate::error::SolveError;
use jungletb_format::{Table, Tablebase};
use jungletb_indexer::Material;
use jungletb_rules::{Move, Piece, Position, Value};
use std::sync::Arc;

/// Raw square of an absent piece.
const NO_SQUARE: u8 = 0xFF;

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
                by_victim[p.code()] = Some((tb.table(canonical)?, flip));
            }
        }
        Ok(SubTables { by_victim })
    }

    /// The value (for the side to move then) of the position after the
    /// capture `mv` in `pos`, which must not end the game.
    #[inline]
    pub(crate) fn value_after(&self, pos: &Position, mv: &Move) -> Result<Value, SolveError> {
        let mover = pos.side_to_move();
        let victim = Piece::new(mover.opponent(), mv.captured.expect("a capture"));
        let (table, flip) = self.by_victim[victim.code()]
            .as_ref()
            .expect("every capturable piece has a sub-table");
        let mut sq = pos.raw_squares();
        let moved = pos.piece_at(mv.from).expect("the mover").code();
        sq[victim.code()] = NO_SQUARE;
        sq[moved] = mv.to.index() as u8;
        let side = mover.opponent();
        let i = if *flip {
            table.index().index_color_swapped(&sq, side)
        } else {
            table.index().index_squares(&sq, side)
        };
        Ok(table.value_at(i)?)
    }
}
