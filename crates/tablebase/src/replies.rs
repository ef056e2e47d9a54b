//! How hard a move is to answer: the opponent's replies to it counted by
//! their value for the replying side ([`Replies`], in `evaluation.rs`).
//!
//! Among moves of equal value, a program that plays for a practical result
//! picks the one that leaves the opponent the fewest good replies (the
//! "ultra-strong" play of Gévay and Danner's Nine Men's Morris tables,
//! arXiv 1408.0032): the winning move after which only one defence holds
//! out longest, the drawing move after which most defences lose. It costs
//! a ply of WDL probes: one for each reply of each move.

use crate::error::ProbeError;
use crate::evaluation::{Evaluation, Replies, RootMove};
use crate::tablebase::Tablebase;
use jungletb_rules::{Move, Position, Wdl};

impl Tablebase {
    /// The opponent's replies to `mv` in `pos`, by their value for the
    /// opponent. Errors as [`Tablebase::evaluate`], for a finished game
    /// ([`ProbeError::GameOver`]) and for a move that is not legal in `pos`.
    ///
    /// ```no_run
    /// # use jungletb_tablebase::Tablebase;
    /// # use jungletb_rules::{Position, Ruleset};
    /// let tb = Tablebase::open("tables", Ruleset::standard())?;
    /// let pos: Position = "6r/7/7/7/7/7/7/7/L6 w".parse()?;
    /// for mv in pos.legal_moves(tb.rules()).iter() {
    ///     let r = tb.replies(&pos, mv)?;
    ///     println!("{mv}: the opponent has {} winning replies of {}", r.win, r.total());
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn replies(&self, pos: &Position, mv: &Move) -> Result<Replies, ProbeError> {
        if let Some(over) = self.evaluate_value(pos)?.game_over {
            return Err(ProbeError::GameOver(over));
        }
        if !pos.legal_moves(self.rules()).iter().any(|m| m == mv) {
            return Err(ProbeError::IllegalMove {
                position: pos.to_string(),
                mv: mv.to_string(),
            });
        }
        self.replies_unvalidated(pos, mv)
    }

    /// [`Tablebase::replies`] of a legal move of a valid position.
    pub(crate) fn replies_unvalidated(
        &self,
        pos: &Position,
        mv: &Move,
    ) -> Result<Replies, ProbeError> {
        let rules = self.rules();
        let mut replies = Replies::default();
        if pos.is_winning_move(rules, mv) {
            return Ok(replies);
        }
        let child = pos.play(mv);
        for reply in child.legal_moves(rules).iter() {
            if child.is_winning_move(rules, reply) {
                replies.count(Wdl::Win);
            } else {
                let after = self.wdl_unvalidated(&child.play(reply))?;
                replies.count(after.negate());
            }
        }
        Ok(replies)
    }

    /// [`Tablebase::evaluate`] with each move's [`Replies`] set: a ply of
    /// WDL probes more (about the square of the number of moves).
    pub fn evaluate_with_replies(&self, pos: &Position) -> Result<Evaluation, ProbeError> {
        let mut e = self.evaluate(pos)?;
        self.add_replies(&mut e)?;
        Ok(e)
    }

    /// Sets the [`Replies`] of every move of `e` (an evaluation by this
    /// tablebase).
    pub(crate) fn add_replies(&self, e: &mut Evaluation) -> Result<(), ProbeError> {
        let pos = e.position;
        for RootMove { mv, replies, .. } in &mut e.moves {
            *replies = Some(self.replies_unvalidated(&pos, mv)?);
        }
        Ok(())
    }
}
