//! The probe-time search that recovers tactical don't-cares.
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

use crate::error::ProbeError;
use crate::tablebase::Tablebase;
use jungletb_rules::{Position, RawMove, RawPosition, Wdl};

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
}

/// The position after the capture `mv` in `pos`.
pub(crate) fn after_capture(pos: &RawPosition, mv: &RawMove) -> Position {
    pos.after(mv).to_position()
}
