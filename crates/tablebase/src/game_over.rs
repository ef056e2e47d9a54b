//! Why a game is already over: the answer for a position no table holds
//! because the game has ended.

/// Why a game is already over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameOver {
    /// A piece stands on the opponent's den.
    Den,
    /// A side has no pieces.
    NoPieces,
    /// The side to move has no legal move.
    NoMoves,
}

impl GameOver {
    /// `"den"`, `"no_pieces"` or `"no_moves"` (the JSON names).
    pub fn name(self) -> &'static str {
        match self {
            GameOver::Den => "den",
            GameOver::NoPieces => "no_pieces",
            GameOver::NoMoves => "no_moves",
        }
    }

    /// A sentence for people.
    pub fn describe(self) -> &'static str {
        match self {
            GameOver::Den => "a piece stands on the enemy den",
            GameOver::NoPieces => "a side has no pieces left",
            GameOver::NoMoves => "the side to move has no legal move",
        }
    }
}
