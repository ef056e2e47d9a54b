//! The full answer for one position, finished games included: what `probe`
//! on the command line, the HTTP server and the map pictures all show.
//!
//! [`Tablebase::probe`] answers only positions that a table holds. A user
//! may also ask about a game that is already over: a piece standing on the
//! enemy den, a side without pieces, or a side to move without a legal move.
//! [`Tablebase::evaluate`] answers those too, with the rule that decided
//! them ([`GameOver`]), and lists every legal move with its value.

use crate::error::ProbeError;
use crate::game_over::GameOver;
use crate::tablebase::{RootMove, Tablebase};
use jungletb_rules::{Color, Position, Value};

/// A position's value for the side to move, why the game is over if it is,
/// and (with [`Tablebase::evaluate`]) every legal move with its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evaluation {
    /// The position asked about.
    pub position: Position,
    /// Its value for the side to move (`Loss(0)` / `Win(0)` for a game
    /// already decided).
    pub value: Value,
    /// Set when the game is over.
    pub game_over: Option<GameOver>,
    /// Every legal move, best first for the side to move (empty when the
    /// game is over, and from [`Tablebase::evaluate_value`]).
    pub moves: Vec<RootMove>,
}

/// A decided game's value for the side to move.
fn decided(pos: &Position, winner: Color) -> Value {
    if pos.side_to_move() == winner {
        Value::Win(0)
    } else {
        Value::Loss(0)
    }
}

impl Tablebase {
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
        let board = self.rules().board();
        // A piece on the enemy den ends the game; the rest of the position
        // must still be a valid placement, and only one piece can have got
        // there (the game ended when it arrived).
        let on_den = pos
            .pieces()
            .find(|&(p, s)| board.is_den_of(s, p.color.opponent()));
        let mut rest = *pos;
        if let Some((_, s)) = on_den {
            rest.remove(s);
        }
        rest.validate(self.rules()).map_err(ProbeError::Position)?;
        let over = |value, why| Evaluation {
            position: *pos,
            value,
            game_over: Some(why),
            moves: Vec::new(),
        };
        if let Some((p, _)) = on_den {
            return Ok(over(decided(pos, p.color), GameOver::Den));
        }
        for side in Color::ALL {
            if pos.count(side) == 0 {
                return Ok(over(decided(pos, side.opponent()), GameOver::NoPieces));
            }
        }
        Ok(Evaluation {
            position: *pos,
            value: self.probe(pos)?,
            game_over: None,
            moves: Vec::new(),
        })
    }
}

impl RootMove {
    /// The value of the position after the move for the side to move there
    /// (the opponent of the mover): the convention of HTTP tablebase APIs.
    /// A move onto the enemy den gives `Loss(0)`.
    pub fn value_after(&self) -> Value {
        self.value.to_child()
    }
}
