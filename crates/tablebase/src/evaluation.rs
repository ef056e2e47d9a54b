//! The answers of probes beyond a value: a move with its value
//! ([`RootMove`], with its [`Replies`] when asked) and the full answer for
//! one position, finished games included ([`Evaluation`]): what `probe` on the command line, the HTTP
//! server and the map pictures all show. The methods that compute them are
//! in `probe.rs`.

use crate::game_over::GameOver;
use jungletb_rules::{Move, Position, Value, Wdl};

/// A legal move with the value it leads to, for the side playing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// The value of the position for the side to move if it plays `mv`.
    pub value: Value,
    /// The opponent's replies by their value, when asked for
    /// ([`Tablebase::evaluate_with_replies`](crate::Tablebase::evaluate_with_replies)).
    pub replies: Option<Replies>,
}

/// A position's value for the side to move, why the game is over if it is,
/// and (with [`Tablebase::evaluate`](crate::Tablebase::evaluate)) every
/// legal move with its value.
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
    /// game is over, and from [`Tablebase::evaluate_value`](crate::Tablebase::evaluate_value)).
    pub moves: Vec<RootMove>,
}

impl RootMove {
    /// The value of the position after the move for the side to move there
    /// (the opponent of the mover): the convention of HTTP tablebase APIs.
    /// A move onto the enemy den gives `Loss(0)`.
    pub fn value_after(&self) -> Value {
        self.value.to_child()
    }
}

/// The replies to a move, counted by their value for the side replying:
/// `win` replies win for the opponent of the mover, `loss` replies lose.
/// All zero when the move ends the game (it enters the den or takes the
/// last piece) or leaves the opponent without a legal move.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Replies {
    /// Replies that win for the replying side.
    pub win: u32,
    /// Replies that draw.
    pub draw: u32,
    /// Replies that lose for the replying side.
    pub loss: u32,
}

impl Replies {
    /// Every reply: `win + draw + loss`.
    pub fn total(&self) -> u32 {
        self.win + self.draw + self.loss
    }

    /// Counts one reply of value `wdl` for the replying side.
    pub(crate) fn count(&mut self, wdl: Wdl) {
        match wdl {
            Wdl::Win => self.win += 1,
            Wdl::Draw => self.draw += 1,
            Wdl::Loss => self.loss += 1,
        }
    }
}
