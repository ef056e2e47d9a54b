//! The map of one piece: the value of a position with that piece moved to
//! each square of the board, everything else unchanged.
//!
//! One picture shows where a piece belongs: the squares from which its side
//! wins, draws or loses (and how fast), the squares it may not stand on,
//! the enemy den where the game is already won (when the other side is to
//! move; with the piece's side to move no game reaches it, and the den has
//! no value, as `probe` gives none). The web board draws it, and
//! `jungletb render --map` writes it as SVG ([`crate::svg`]).

use jungletb_rules::{Piece, Position, Square, Value};
use jungletb_tablebase::{Evaluation, GameOver, ProbeError, Tablebase};

/// One square of a map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MapSquare {
    /// The piece may not stand there: another piece does, its own den,
    /// water it may not enter, or the enemy den with its own side to move
    /// (a position no game reaches).
    Unavailable,
    /// The position with the piece there (for the side to move of the
    /// original position), or a game already decided (enemy den).
    Value(Evaluation),
}

/// A piece's map for a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PieceMap {
    /// The position asked about.
    pub position: Position,
    /// The piece that moves around.
    pub piece: Piece,
    /// Where it stands in `position`.
    pub from: Square,
    /// By [`Square::index`], all 63 squares.
    pub squares: Vec<MapSquare>,
}

/// Why a map could not be drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MapError {
    /// No piece stands on the square asked for.
    NoPiece(Square),
    /// The position is impossible, or a table is missing or damaged.
    Probe(ProbeError),
}

impl std::fmt::Display for MapError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MapError::NoPiece(sq) => write!(f, "there is no piece on {sq} to map"),
            MapError::Probe(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for MapError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MapError::NoPiece(_) => None,
            MapError::Probe(e) => Some(e),
        }
    }
}

impl From<ProbeError> for MapError {
    fn from(e: ProbeError) -> MapError {
        MapError::Probe(e)
    }
}

/// Probes `pos` with the piece on `from` placed on every square in turn.
///
/// Errors: no piece on `from`, an impossible position, or a missing or
/// damaged table.
pub fn piece_map(tb: &Tablebase, pos: &Position, from: Square) -> Result<PieceMap, MapError> {
    let piece = pos.piece_at(from).ok_or(MapError::NoPiece(from))?;
    // The position itself must be valid (or a decided game).
    tb.evaluate_value(pos)?;
    let rules = tb.rules();
    let board = rules.board();
    let mut rest = *pos;
    rest.remove(from);
    let squares = Square::all()
        .map(|sq| {
            let stands = sq == from
                || (rest.is_empty(sq)
                    && !board.is_den_of(sq, piece.color)
                    && (!board.is_water(sq) || rules.swims(piece.animal)));
            if !stands {
                return Ok(MapSquare::Unavailable);
            }
            let mut there = rest;
            there.put(piece, sq);
            if board.is_den_of(sq, piece.color.opponent()) {
                // On the enemy den the piece's side has just won: the other
                // side is to move and has lost. With the piece's own side
                // to move no game gets there (`probe` refuses it), so the
                // map shows no value either.
                if there.side_to_move() == piece.color {
                    return Ok(MapSquare::Unavailable);
                }
                return Ok(MapSquare::Value(Evaluation {
                    position: there,
                    value: Value::Loss(0),
                    game_over: Some(GameOver::Den),
                    moves: Vec::new(),
                }));
            }
            tb.evaluate_value(&there).map(MapSquare::Value)
        })
        .collect::<Result<Vec<_>, ProbeError>>()?;
    Ok(PieceMap {
        position: *pos,
        piece,
        from,
        squares,
    })
}
