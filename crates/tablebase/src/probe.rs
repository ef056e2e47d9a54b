//! Every probe of a [`Tablebase`], in one place: from the engine's hot
//! path ([`Tablebase::probe_wdl`]) to the full answer of a position
//! ([`Tablebase::evaluate`]) and the line to the end.
//!
//! [`Tablebase::probe`] answers only positions that a table holds. A user
//! may also ask about a game that is already over: a piece standing on the
//! enemy den, a side without pieces, or a side to move without a legal move.
//! [`Tablebase::evaluate`] answers those too, with the rule that decided
//! them ([`GameOver`]), and lists every legal move with its value.
//!
//! Tables compressed with don't-cares store, for a position a capture or
//! a den entry decides, whatever value compresses best; a probe recovers
//! the true value by searching those moves (`dont_care.rs`).

use crate::error::ProbeError;
use crate::evaluation::{Evaluation, RootMove};
use crate::game_over::GameOver;
use crate::table::Table;
use crate::tablebase::Tablebase;
use jungletb_format::TableError;
use jungletb_indexer::Material;
use jungletb_rules::{Color, Move, Position, Value, Wdl};

/// A decided game's value for the side to move.
fn decided(pos: &Position, winner: Color) -> Value {
    if pos.side_to_move() == winner {
        Value::Win(0)
    } else {
        Value::Loss(0)
    }
}

impl Tablebase {
    /// The value of `pos` for the side to move, with its distance in plies.
    pub fn probe(&self, pos: &Position) -> Result<Value, ProbeError> {
        pos.validate(self.rules()).map_err(ProbeError::Position)?;
        self.probe_unvalidated(pos)
    }

    /// [`Tablebase::probe_wdl`] of every position of `positions`, in order
    /// (one call for a batch: an FFI or Python caller pays its crossing
    /// once).
    pub fn probe_wdl_many(&self, positions: &[Position]) -> Vec<Result<Wdl, ProbeError>> {
        positions.iter().map(|p| self.probe_wdl(p)).collect()
    }

    /// Win, draw or loss for the side to move: the fast path for search
    /// (reads only the WDL blocks of compressed tables).
    #[inline]
    pub fn probe_wdl(&self, pos: &Position) -> Result<Wdl, ProbeError> {
        pos.validate(self.rules()).map_err(ProbeError::Position)?;
        self.wdl_unvalidated(pos)
    }

    /// [`Tablebase::probe`] without re-validating the position (for
    /// positions reached by legal moves from a valid one).
    pub(crate) fn probe_unvalidated(&self, pos: &Position) -> Result<Value, ProbeError> {
        self.with_table(pos, |t, p| {
            let stored = t.probe_as_stored(p)?;
            self.resolve(t, p, stored)
        })
    }

    /// Runs `probe` on the table of `pos`'s material with `pos` in that
    /// table's colour order.
    #[inline]
    pub(crate) fn with_table<R>(
        &self,
        pos: &Position,
        probe: impl Fn(&Table, &Position) -> Result<R, ProbeError>,
    ) -> Result<R, ProbeError> {
        // Lazily: an eager `ok_or` builds the error and drops it on every
        // probe (callgrind: 23 instructions a probe in drop_in_place).
        #[allow(clippy::unnecessary_lazy_evaluations)]
        let material =
            Material::of_position(pos).ok_or_else(|| ProbeError::GameOver(GameOver::NoPieces))?;
        let (canonical, flipped) = material.canonical();
        let run = |table: &Table| {
            if flipped {
                probe(table, &pos.color_flip())
            } else {
                probe(table, pos)
            }
        };
        if self.evicts() || self.has_store() {
            let table = self.table(canonical)?;
            return run(&table);
        }
        // The resident path: the table is borrowed, no reference count is
        // touched, so threads probing the same table do not contend.
        match self.slot(canonical) {
            Ok(t) => run(t),
            Err(e) => Err(ProbeError::Table((**e).clone())),
        }
    }

    /// The value for the side to move of playing `mv` in `pos`.
    pub fn move_value(&self, pos: &Position, mv: &Move) -> Result<Value, ProbeError> {
        if pos.is_winning_move(self.rules(), mv) {
            return Ok(Value::Win(1));
        }
        Ok(Value::from_child(self.probe_unvalidated(&pos.play(mv))?))
    }

    /// Every legal move with its value, best first (ties in move order).
    pub fn probe_root(&self, pos: &Position) -> Result<Vec<RootMove>, ProbeError> {
        pos.validate(self.rules()).map_err(ProbeError::Position)?;
        if Material::of_position(pos).is_none() {
            return Err(ProbeError::GameOver(GameOver::NoPieces));
        }
        let mut moves = pos
            .legal_moves(self.rules())
            .iter()
            .map(|mv| {
                Ok(RootMove {
                    mv: *mv,
                    value: self.move_value(pos, mv)?,
                    replies: None,
                })
            })
            .collect::<Result<Vec<_>, ProbeError>>()?;
        moves.sort_by_key(|r| std::cmp::Reverse(r.value));
        Ok(moves)
    }

    /// The moves that keep the position's value (all of them, in move order).
    /// Empty if the side to move has no legal move.
    pub fn best_moves(&self, pos: &Position) -> Result<Vec<Move>, ProbeError> {
        let root = self.probe_root(pos)?;
        let Some(best) = root.first().map(|r| r.value) else {
            return Ok(Vec::new());
        };
        Ok(root
            .iter()
            .take_while(|r| r.value == best)
            .map(|r| r.mv)
            .collect())
    }

    /// An optimal line of play from `pos` to the end of the game (the first
    /// best move at every step). Empty for a draw, where no end exists.
    pub fn line(&self, pos: &Position) -> Result<Vec<Move>, ProbeError> {
        let value = self.probe(pos)?;
        self.walk_line(pos, value, |p| Ok(self.best_moves(p)?.first().copied()))
    }

    /// The walk of [`Tablebase::line`] from `pos`, of value `value`: the
    /// move `best(p)` gives at every step (`None`: no move), as many as the
    /// value's plies; a line that ends sooner is a damaged table.
    pub(crate) fn walk_line<E: From<ProbeError>>(
        &self,
        pos: &Position,
        value: Value,
        mut best: impl FnMut(&Position) -> Result<Option<Move>, E>,
    ) -> Result<Vec<Move>, E> {
        let Some(plies) = value.plies() else {
            return Ok(Vec::new());
        };
        let mut line = Vec::with_capacity(plies as usize);
        let mut cur = *pos;
        for _ in 0..plies {
            let Some(mv) = best(&cur)? else {
                break;
            };
            line.push(mv);
            if cur.is_winning_move(self.rules(), &mv) {
                break;
            }
            cur = cur.play(&mv);
        }
        if line.len() != plies as usize {
            return Err(E::from(ProbeError::Table(TableError::Corrupt {
                path: self.dir().to_path_buf(),
                what: format!(
                    "the line from {pos} ends after {} plies, but the table says {plies}",
                    line.len()
                ),
            })));
        }
        Ok(line)
    }

    /// The WDL value of `pos` (reached by legal moves from a valid
    /// position): the stored value, searched where the table has
    /// don't-cares and it is not a win.
    pub(crate) fn wdl_unvalidated(&self, pos: &Position) -> Result<Wdl, ProbeError> {
        self.wdl_search(pos, None)
    }

    /// The value of any position (finished games included) with every legal
    /// move and its value, best first.
    ///
    /// Errors: an impossible position (a piece in the water that may not
    /// swim, on its own den, two pieces on a den, an animal not in the
    /// game), or a table that is missing or damaged.
    pub fn evaluate(&self, pos: &Position) -> Result<Evaluation, ProbeError> {
        let mut e = self.evaluate_value(pos)?;
        if e.game_over.is_none() {
            e.moves = self.probe_root(pos)?;
            if e.moves.is_empty() {
                e.game_over = Some(GameOver::NoMoves);
            }
        }
        Ok(e)
    }

    /// [`Tablebase::evaluate`] without the moves: one table probe for a
    /// position that is not over (a side to move without a legal move is
    /// reported by its value, `Loss(0)`, with `game_over` unset).
    pub fn evaluate_value(&self, pos: &Position) -> Result<Evaluation, ProbeError> {
        let value = match self.game_over(pos)? {
            Some((value, why)) => {
                return Ok(Evaluation {
                    position: *pos,
                    value,
                    game_over: Some(why),
                    moves: Vec::new(),
                })
            }
            None => self.probe(pos)?,
        };
        Ok(Evaluation {
            position: *pos,
            value,
            game_over: None,
            moves: Vec::new(),
        })
    }

    /// The win, draw or loss of any position, finished games included, as
    /// [`Tablebase::evaluate_value`] gives it: of a position not over, the
    /// table's WDL alone (no distances read).
    pub fn evaluate_wdl(&self, pos: &Position) -> Result<Wdl, ProbeError> {
        match self.game_over(pos)? {
            Some((value, _)) => Ok(value.wdl()),
            None => self.probe_wdl(pos),
        }
    }

    /// The value of a finished game (a den entered, a side without pieces)
    /// and why, or `None`; an impossible position is refused.
    fn game_over(&self, pos: &Position) -> Result<Option<(Value, GameOver)>, ProbeError> {
        pos.validate_reachable(self.rules())
            .map_err(ProbeError::Position)?;
        let board = self.rules().board();
        let on_den = pos
            .pieces()
            .find(|&(p, s)| board.is_den_of(s, p.color.opponent()));
        if let Some((p, _)) = on_den {
            return Ok(Some((decided(pos, p.color), GameOver::Den)));
        }
        for side in Color::ALL {
            if pos.count(side) == 0 {
                return Ok(Some((decided(pos, side.opponent()), GameOver::NoPieces)));
            }
        }
        Ok(None)
    }
}
