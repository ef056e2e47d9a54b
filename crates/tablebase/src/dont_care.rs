//! The probe-time search that recovers tactical don't-cares, on positions
//! (probes) and on slot numbers (scans, `slots.rs`).
//!
//! A compressed table written with don't-cares (see [`jungletb_format::compressed`])
//! may store, for a position whose value the side to move reaches by a
//! *tactical* move (entering the den, or a capture), any value not above
//! that value. So the value of a position is the better of
//!
//! - its stored value, and
//! - the best value of its tactical moves: a win for entering the den or
//!   taking the last piece, else the value of the position a capture leads
//!   to, probed (and, if need be, searched the same way) in the smaller
//!   table.
//!
//! Why that is exact: a stored value is never above the position's value,
//! and no move is better than the position, so the better of the two is
//! at most the value; where the stored value is below it, the position is
//! a don't-care, so its tactical moves reach the value. Captures remove a
//! piece, so the search ends after at most as many plies as there are
//! pieces.
//!
//! Distances: a slot stored as its own kind keeps its distance; a win
//! stored as a draw or a loss has none, and gets it from a one-ply search
//! over every move: the fastest move to a position that is a loss for the
//! opponent, whose distance is always stored (losses are never
//! don't-cares).
//!
//! A slot's position may be the mirror image of the position a move
//! reaches (the index stores one of each pair); both have the same value
//! and mirrored moves, so searching either gives the same answer.

use crate::error::ProbeError;
use crate::slots::{raw_position_at, Captures, Slots};
use crate::table::Table;
use crate::tablebase::Tablebase;
use jungletb_format::TableError;
use jungletb_rules::{Position, RawMove, RawPosition, Value, Wdl};

/// `w` as the value of the move leading to a position of value `w` for the
/// opponent.
fn from_child(w: Wdl) -> Wdl {
    match w {
        Wdl::Win => Wdl::Loss,
        Wdl::Draw => Wdl::Draw,
        Wdl::Loss => Wdl::Win,
    }
}

impl Tablebase {
    /// The best value the side to move of `pos` reaches by a tactical move
    /// (see the module docs), `None` if it has none.
    pub(crate) fn tactical_wdl(&self, pos: &RawPosition) -> Result<Option<Wdl>, ProbeError> {
        self.tactical_search(pos, None, None, |p, mv, need| {
            self.wdl_search(&after_capture(p, mv), need)
        })
    }

    /// The better of `floor` and the best tactical move of `pos`, searched
    /// alpha-beta style: a capture is probed only as far as it could beat
    /// the best found so far, and the search stops once the best reaches
    /// `enough` (then the result is a bound: at least `enough`, at most the
    /// position's value). Without `enough`, exact.
    /// `after(pos, mv, need)` is the search of the position the capture
    /// `mv` leads to (see [`Tablebase::wdl_search`]).
    pub(crate) fn tactical_search(
        &self,
        pos: &RawPosition,
        floor: Option<Wdl>,
        enough: Option<Wdl>,
        after: impl Fn(&RawPosition, &RawMove, Option<Wdl>) -> Result<Wdl, ProbeError>,
    ) -> Result<Option<Wdl>, ProbeError> {
        let done = |b: Option<Wdl>| b == Some(Wdl::Win) || enough.is_some_and(|e| b >= Some(e));
        let mut best = floor;
        let mut error = None;
        self.move_tables().for_each_tactical_move(pos, |mv| {
            if done(best) || error.is_some() {
                return;
            }
            let v = if pos.is_winning_move(&mv) {
                Wdl::Win
            } else if mv.is_capture() {
                // The capture beats `best` only if the position it leads to
                // is below `need` for the opponent.
                let need = best.map(from_child);
                match after(pos, &mv, need) {
                    Ok(w) if need.is_none_or(|n| w < n) => from_child(w),
                    Ok(_) => return,
                    Err(e) => {
                        error = Some(e);
                        return;
                    }
                }
            } else {
                return;
            };
            best = Some(best.map_or(v, |b| b.max(v)));
        });
        match error {
            Some(e) => Err(e),
            None => Ok(best),
        }
    }

    /// [`Tablebase::wdl_unvalidated`], stopping once the value is known to
    /// be at least `enough` (then returning a value between `enough` and
    /// the position's value).
    pub(crate) fn wdl_search(
        &self,
        pos: &Position,
        enough: Option<Wdl>,
    ) -> Result<Wdl, ProbeError> {
        self.with_table(pos, |t, p| {
            let stored = t.probe_wdl_as_stored(p)?;
            if !t.has_dont_cares() || stored == Wdl::Win || enough.is_some_and(|e| stored >= e) {
                return Ok(stored);
            }
            let raw = RawPosition::from_position(p);
            Ok(self
                .tactical_search(&raw, Some(stored), enough, |p, mv, need| {
                    self.wdl_search(&after_capture(p, mv), need)
                })?
                .unwrap_or(stored))
        })
    }

    /// The value of `pos` given the value its table stores for it.
    pub(crate) fn resolve(
        &self,
        table: &Table,
        pos: &Position,
        stored: Value,
    ) -> Result<Value, ProbeError> {
        if !table.has_dont_cares() || stored.wdl() == Wdl::Win {
            return Ok(stored);
        }
        let Some(tactical) = self.tactical_wdl(&RawPosition::from_position(pos))? else {
            return Ok(stored);
        };
        if tactical <= stored.wdl() {
            return Ok(stored);
        }
        // A don't-care stored as another kind keeps no distance.
        match tactical {
            Wdl::Win => self.fastest_win(table, pos),
            _ => Ok(Value::Draw),
        }
    }

    /// The value of a won position whose distance is not stored: the
    /// fastest move to a position lost for the opponent.
    pub(crate) fn fastest_win(&self, table: &Table, pos: &Position) -> Result<Value, ProbeError> {
        let rules = self.rules();
        let mut best: Option<Value> = None;
        for mv in pos.legal_moves(rules).iter() {
            if pos.is_winning_move(rules, mv) {
                return Ok(Value::Win(1));
            }
            let child = pos.play(mv);
            if self.wdl_unvalidated(&child)? == Wdl::Loss {
                let v = Value::from_child(self.probe_unvalidated(&child)?);
                best = Some(best.map_or(v, |b| b.max(v)));
            }
        }
        best.ok_or_else(|| {
            ProbeError::Table(TableError::Corrupt {
                path: table.path().to_path_buf(),
                what: format!("{pos}: its tactical moves win, but no move wins"),
            })
        })
    }
}

/// The position after the capture `mv` in `pos`.
pub(crate) fn after_capture(pos: &RawPosition, mv: &RawMove) -> Position {
    pos.after(mv).to_position()
}

impl Slots<'_> {
    /// [`Tablebase::wdl_search`] of slot `i`, stored as `stored`.
    pub(crate) fn wdl_search(
        &self,
        tb: &Tablebase,
        i: u64,
        stored: Wdl,
        need: Option<Wdl>,
    ) -> Result<Wdl, ProbeError> {
        if !self.table.has_dont_cares() || stored == Wdl::Win || need.is_some_and(|e| stored >= e) {
            return Ok(stored);
        }
        let next = self.captures(tb)?;
        let pos = raw_position_at(&self.table, i)?;
        Ok(tb
            .tactical_search(&pos, Some(stored), need, |p, mv, need| {
                next.wdl_after(tb, p, mv, need)
            })?
            .unwrap_or(stored))
    }

    /// The value of slot `i`, stored as `stored` (not a win), with its
    /// don't-care searched ([`Tablebase::resolve`] on slot numbers).
    pub(crate) fn resolve(
        &self,
        tb: &Tablebase,
        i: u64,
        stored: Value,
    ) -> Result<Value, ProbeError> {
        let raw = raw_position_at(&self.table, i)?;
        let captures = self.captures(tb)?;
        let best = tb
            .tactical_search(&raw, Some(stored.wdl()), None, |p, mv, need| {
                captures.wdl_after(tb, p, mv, need)
            })?
            .unwrap_or(stored.wdl());
        // A don't-care stored as another kind keeps no distance.
        Ok(match best {
            b if b <= stored.wdl() => stored,
            Wdl::Win => self.fastest_win(tb, &raw)?,
            _ => Value::Draw,
        })
    }

    /// [`Tablebase::fastest_win`] of the won position `pos` of this table,
    /// on slot numbers:
    /// the fastest move to a position lost for the opponent.
    fn fastest_win(&self, tb: &Tablebase, pos: &RawPosition) -> Result<Value, ProbeError> {
        let captures = self.captures(tb)?;
        let index = self.table.index();
        let mut best: Option<Value> = None;
        let mut failed: Option<ProbeError> = None;
        let mut unindexed = false;
        tb.move_tables().for_each_move(pos, |mv| {
            if failed.is_some() || unindexed || best == Some(Value::Win(1)) {
                return;
            }
            if pos.is_winning_move(&mv) {
                best = Some(Value::Win(1));
                return;
            }
            let (slots, j) = if mv.is_capture() {
                match captures.slot_after(pos, &mv) {
                    Some(found) => found,
                    None => {
                        unindexed = true;
                        return;
                    }
                }
            } else {
                let side = pos.side_to_move().opponent();
                (self, index.index_squares(&pos.squares_after(&mv), side))
            };
            let child = slots.wdl_as_stored(j).and_then(|stored| {
                // Only a loss for the opponent counts: stop at a draw.
                slots.wdl_search(tb, j, stored, Some(Wdl::Draw))
            });
            match child {
                Ok(Wdl::Loss) => match slots.table.value_as_stored(j) {
                    Ok(v) => {
                        let v = Value::from_child(v);
                        best = Some(best.map_or(v, |b| b.max(v)));
                    }
                    Err(e) => failed = Some(e.into()),
                },
                Ok(_) => {}
                Err(e) => failed = Some(e),
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
        match best {
            Some(v) if !unindexed => Ok(v),
            _ => tb.fastest_win(&self.table, &pos.to_position()),
        }
    }
}

impl Captures {
    /// [`Tablebase::wdl_search`] of the position after the capture `mv`
    /// (which must not end the game).
    pub(crate) fn wdl_after(
        &self,
        tb: &Tablebase,
        pos: &RawPosition,
        mv: &RawMove,
        need: Option<Wdl>,
    ) -> Result<Wdl, ProbeError> {
        let Some((slots, i)) = self.slot_after(pos, mv) else {
            return tb.wdl_search(&after_capture(pos, mv), need);
        };
        let stored = slots.wdl_as_stored(i)?;
        slots.wdl_search(tb, i, stored, need)
    }
}
