//! Probes through a [`RemoteTables`] store: each attempt answers, or
//! gives the ranges to fetch before asking again ([`Attempt`]), and
//! gathers into one round what the rest of its answer will read.

use super::{lock, Missing, RemoteTables};
use crate::error::ProbeError;
use crate::evaluation::Evaluation;
use crate::tablebase::Tablebase;
use jungletb_rules::{Move, Position};

/// What a probe through [`RemoteTables`] gives: the answer, or the ranges
/// to fetch before asking again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attempt<T> {
    /// The probe finished (its error, if any, is not a missing range).
    Done(Result<T, ProbeError>),
    /// Fetch these, hand them in, probe again.
    Fetch(Vec<Missing>),
}

impl RemoteTables {
    /// Before an attempt: forgets missing ranges noted earlier, and drops
    /// the probe pages beyond the cap (those of earlier probes only: an
    /// attempt after one that asked for bytes is the same probe again, and
    /// the pages its earlier attempts read stay, or it could need more
    /// than the cap and fetch forever).
    fn begin_probe(&self) {
        let _ = self.take_missing();
        let mut cache = lock(&self.shared.cache);
        cache.tick += 1;
        if !cache.retrying {
            cache.probe_began = cache.tick;
        }
        cache.evict(self.shared.options.max_cached_bytes);
    }

    /// After an attempt: whether it asked for bytes (see
    /// [`RemoteTables::begin_probe`]).
    fn end_attempt<T>(&self, attempt: Attempt<T>) -> Attempt<T> {
        lock(&self.shared.cache).retrying = matches!(attempt, Attempt::Fetch(_));
        attempt
    }

    /// Runs `probe` (a probe of a tablebase over this store): its answer,
    /// or the ranges it missed.
    pub fn attempt<T>(&self, probe: impl FnOnce() -> Result<T, ProbeError>) -> Attempt<T> {
        self.begin_probe();
        let answer = probe();
        let missing = self.take_missing();
        self.end_attempt(if missing.is_empty() {
            Attempt::Done(answer)
        } else {
            Attempt::Fetch(missing)
        })
    }

    /// [`Tablebase::evaluate`] of `pos` through `tb` (a tablebase
    /// over this store). When bytes are missing, every move's position is
    /// probed as well, so that one round of fetches gathers what all the
    /// moves need (a position's moves read many blocks, and sub-tables
    /// after captures): a cold probe costs a few round trips, not one a
    /// move.
    pub fn evaluate(&self, tb: &Tablebase, pos: &jungletb_rules::Position) -> Attempt<Evaluation> {
        self.evaluate_ply(tb, pos, false)
    }

    /// [`Tablebase::evaluate_wdl`] of `pos` through `tb`: WDL blocks
    /// only. When bytes are missing, every move's position is probed for
    /// its WDL as well, so that one round gathers what a search through a
    /// don't-care of the table needs (its moves' values).
    pub fn evaluate_wdl(
        &self,
        tb: &Tablebase,
        pos: &jungletb_rules::Position,
    ) -> Attempt<jungletb_rules::Wdl> {
        self.gathered(
            || tb.evaluate_wdl(pos),
            || {
                let rules = tb.rules();
                if pos.validate(rules).is_ok() {
                    for mv in pos.legal_moves(rules).iter() {
                        if !pos.is_winning_move(rules, mv) {
                            let _ = tb.probe_wdl(&pos.play(mv));
                        }
                    }
                }
            },
        )
    }

    /// [`Tablebase::evaluate_with_replies`] of `pos` through `tb`:
    /// when bytes are missing, every reply of every move is probed too, so
    /// that one round of fetches gathers what the whole ply needs.
    pub fn evaluate_with_replies(
        &self,
        tb: &Tablebase,
        pos: &jungletb_rules::Position,
    ) -> Attempt<Evaluation> {
        self.evaluate_ply(tb, pos, true)
    }

    /// The evaluation of `pos`, with its moves' replies if `replies`;
    /// when bytes are missing, what its moves (and their replies) read is
    /// gathered into the same round.
    fn evaluate_ply(
        &self,
        tb: &Tablebase,
        pos: &jungletb_rules::Position,
        replies: bool,
    ) -> Attempt<Evaluation> {
        let answer = || {
            if replies {
                tb.evaluate_with_replies(pos)
            } else {
                tb.evaluate(pos)
            }
        };
        self.gathered(answer, || {
            let rules = tb.rules();
            if pos.validate(rules).is_err() {
                return;
            }
            for mv in pos.legal_moves(rules).iter() {
                let _ = tb.move_value(pos, mv);
                if !replies || pos.is_winning_move(rules, mv) {
                    continue;
                }
                let child = pos.play(mv);
                // Their distances too, not only their WDL: a child whose
                // stored value is a don't-care finds its distance through
                // these (`fastest_win`), which would cost a round more.
                for reply in child.legal_moves(rules).iter() {
                    if !child.is_winning_move(rules, reply) {
                        let _ = tb.probe_unvalidated(&child.play(reply));
                    }
                }
            }
        })
    }

    /// [`Tablebase::line`] of `pos` through `tb`, with `pos`'s evaluation:
    /// each step evaluated as [`RemoteTables::evaluate`] does, so that a
    /// round gathers what a position's moves read. A line takes a round
    /// at least for each step whose blocks are not fetched yet.
    pub fn line(&self, tb: &Tablebase, pos: &Position) -> Attempt<(Evaluation, Vec<Move>)> {
        let step = |p: &Position| match self.evaluate(tb, p) {
            Attempt::Done(answer) => answer.map_err(Stop::Failed),
            Attempt::Fetch(missing) => Err(Stop::Fetch(missing)),
        };
        let best = |e: &Evaluation| e.moves.first().map(|r| r.mv);
        let walked = step(pos).and_then(|first| {
            // The walk starts at `pos`, evaluated already.
            let mut root = Some(best(&first));
            let line = match first.game_over {
                Some(_) => Vec::new(),
                None => tb.walk_line::<Stop>(pos, first.value, |p| match root.take() {
                    Some(mv) => Ok(mv),
                    None => Ok(best(&step(p)?)),
                })?,
            };
            Ok((first, line))
        });
        match walked {
            Ok(answer) => Attempt::Done(Ok(answer)),
            Err(Stop::Failed(e)) => Attempt::Done(Err(e)),
            Err(Stop::Fetch(missing)) => Attempt::Fetch(missing),
        }
    }

    /// An attempt of `answer`; when it misses bytes, `more` probes what
    /// the rest of the answer will read too, so that one round of fetches
    /// gathers it all.
    fn gathered<T>(
        &self,
        answer: impl FnOnce() -> Result<T, ProbeError>,
        more: impl FnOnce(),
    ) -> Attempt<T> {
        self.begin_probe();
        let answer = answer();
        if lock(&self.shared.missing).is_empty() {
            return self.end_attempt(Attempt::Done(answer));
        }
        more();
        self.end_attempt(Attempt::Fetch(self.take_missing()))
    }
}

/// Why a walk of [`RemoteTables::line`] stopped before its end.
enum Stop {
    Fetch(Vec<Missing>),
    Failed(ProbeError),
}

impl From<ProbeError> for Stop {
    fn from(e: ProbeError) -> Stop {
        Stop::Failed(e)
    }
}
