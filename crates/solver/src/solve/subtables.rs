//! The smaller tables a material's captures lead into.

use crate::error::SolveError;
use jungletb_indexer::Material;
use jungletb_rules::{MoveTables, RawMove, RawPosition, RunMoves, Value};
use jungletb_tablebase::{Table, TableError, Tablebase};
use std::sync::Arc;

/// A position's moves as the forward sweep weighs them: made by
/// [`SubTables::weigh_moves`].
pub(crate) struct SweptMoves {
    /// The side to move has a move.
    pub(crate) any_move: bool,
    /// A move ends the game at once (enters the den, or takes the last
    /// piece).
    pub(crate) immediate: bool,
    /// Quiet moves: successors in this material.
    pub(crate) quiet: u32,
    /// The shortest win through a capture, in plies.
    pub(crate) best_win: Option<u16>,
    /// 1 + the longest loss through a capture (0 without one).
    pub(crate) floor: u16,
    /// A capture leads to a draw.
    pub(crate) outside_draw: bool,
}

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

    /// `pos`'s moves counted (`MoveTables::count_run_moves`, `pos` a
    /// position of `run`) and each capture's value read here, unless a
    /// capture takes the last piece. The first read that fails is the
    /// error.
    // Inlined: returned, its `Result` went through memory (30 instructions a slot).
    #[inline(always)]
    pub(crate) fn weigh_moves(
        &self,
        tables: &MoveTables,
        run: &RunMoves,
        pos: &RawPosition,
    ) -> Result<SweptMoves, SolveError> {
        let mut captures = false;
        let mut best_win: Option<u16> = None;
        let mut floor: u16 = 0;
        let mut outside_draw = false;
        let mut error = None;
        // Same as `pos.is_winning_move`, with the piece count read once.
        let lone = pos.count(pos.side_to_move().opponent()) == 1;
        let moves = tables.count_run_moves(
            run,
            pos,
            #[inline(always)]
            |mv| {
                captures = true;
                if lone || error.is_some() {
                    return;
                }
                match self.value_after(pos, &mv) {
                    Ok(Value::Loss(k)) => best_win = Some(best_win.map_or(k + 1, |b| b.min(k + 1))),
                    Ok(Value::Win(k)) => floor = floor.max(k + 1),
                    Ok(Value::Draw) => outside_draw = true,
                    Err(e) => error = Some(e),
                }
            },
        );
        if let Some(e) = error {
            return Err(e);
        }
        Ok(SweptMoves {
            any_move: captures || moves.quiet > 0 || moves.enters_den,
            immediate: moves.enters_den || (lone && captures),
            quiet: moves.quiet,
            best_win,
            floor,
            outside_draw,
        })
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
