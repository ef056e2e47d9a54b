//! Positions: where every piece stands and who is to move.

use crate::board::{Square, NO_SQUARE};
use crate::error::{Placement, PositionError};
use crate::piece::{Animal, Color, Piece};
use crate::ruleset::Ruleset;

/// An empty board square (no piece code).
const EMPTY: u8 = 0xFF;

/// A Jungle position: the square of each piece (at most one of each animal a
/// side) and the side to move.
///
/// A `Position` is structurally sound by construction (no two pieces on a
/// square, no duplicate animal on a side). Whether it can occur under a rule
/// set is checked by [`Position::validate`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    board: [u8; Square::COUNT],
    squares: [u8; 16],
    side: Color,
}

impl Position {
    /// An empty board with `side` to move.
    pub fn empty(side: Color) -> Position {
        Position {
            board: [EMPTY; Square::COUNT],
            squares: [NO_SQUARE; 16],
            side,
        }
    }

    /// The start position of the game (docs/rules.md#the-animals).
    pub fn start() -> Position {
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w"
            .parse()
            .expect("the start position is valid notation")
    }

    /// Builds a position from pieces and squares.
    ///
    /// Fails if a square is used twice or an animal appears twice on a side.
    pub fn from_pieces(pieces: &[(Piece, Square)], side: Color) -> Result<Position, Placement> {
        let mut pos = Position::empty(side);
        for &(p, s) in pieces {
            if pos.piece_at(s).is_some() {
                return Err(Placement::SquareTaken { square: s });
            }
            if let Some(other) = pos.square_of(p) {
                return Err(Placement::TwoOfOneAnimal {
                    piece: p,
                    first: other,
                    second: s,
                });
            }
            pos.put(p, s);
        }
        Ok(pos)
    }

    /// Builds a position from raw squares by piece code (the inverse of
    /// [`Position::raw_squares`]; 255 marks an absent piece): the fast path
    /// for decoders. `None` if a square is off the board or used twice.
    #[inline]
    pub fn from_raw_squares(squares: [u8; 16], side: Color) -> Option<Position> {
        let mut board = [EMPTY; Square::COUNT];
        for (code, &s) in squares.iter().enumerate() {
            if s == NO_SQUARE {
                continue;
            }
            let cell = board.get_mut(s as usize)?;
            if *cell != EMPTY {
                return None;
            }
            *cell = code as u8;
        }
        Some(Position {
            board,
            squares,
            side,
        })
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Sets the side to move.
    #[inline]
    pub fn set_side_to_move(&mut self, side: Color) {
        self.side = side;
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let c = self.board[sq.index()];
        (c != EMPTY).then(|| Piece::from_code(c as usize))
    }

    /// True if `sq` is empty.
    #[inline]
    pub fn is_empty(&self, sq: Square) -> bool {
        self.board[sq.index()] == EMPTY
    }

    /// True if the square with raw index `sq` (0..63) is empty.
    #[inline]
    pub(crate) fn is_empty_raw(&self, sq: u8) -> bool {
        self.board[sq as usize] == EMPTY
    }

    /// The square of `piece`, if it is on the board.
    #[inline]
    pub fn square_of(&self, piece: Piece) -> Option<Square> {
        let s = self.squares[piece.code()];
        (s != NO_SQUARE).then(|| Square::from_index(s as usize).expect("stored squares are valid"))
    }

    /// Places `piece` on the empty square `sq`. The piece must not be on the
    /// board already and the square must be empty (checked in debug builds).
    #[inline]
    pub fn put(&mut self, piece: Piece, sq: Square) {
        debug_assert!(self.is_empty(sq) && self.square_of(piece).is_none());
        self.board[sq.index()] = piece.code() as u8;
        self.squares[piece.code()] = sq.index() as u8;
    }

    /// Removes and returns the piece on `sq`.
    #[inline]
    pub fn remove(&mut self, sq: Square) -> Option<Piece> {
        let p = self.piece_at(sq)?;
        self.board[sq.index()] = EMPTY;
        self.squares[p.code()] = NO_SQUARE;
        Some(p)
    }

    /// Every piece with its square, White Rat first, Black Elephant last.
    pub fn pieces(&self) -> impl Iterator<Item = (Piece, Square)> + '_ {
        (0..16).filter_map(move |code| {
            let s = self.squares[code];
            (s != NO_SQUARE).then(|| {
                (
                    Piece::from_code(code),
                    Square::from_index(s as usize).expect("valid square"),
                )
            })
        })
    }

    /// Pieces of `color` with their squares, weakest first.
    pub fn pieces_of(&self, color: Color) -> impl Iterator<Item = (Piece, Square)> + '_ {
        self.pieces().filter(move |(p, _)| p.color == color)
    }

    /// The set of animals of `color` as a bit mask (bit `animal.index()`).
    pub fn mask(&self, color: Color) -> u8 {
        let base = color.index() * 8;
        (0..8).fold(0u8, |m, a| {
            if self.squares[base + a] != NO_SQUARE {
                m | (1 << a)
            } else {
                m
            }
        })
    }

    /// Number of pieces of `color`.
    #[inline]
    pub fn count(&self, color: Color) -> u32 {
        self.mask(color).count_ones()
    }

    /// The left–right mirror image (same side to move).
    pub fn mirror(&self) -> Position {
        let mut out = Position::empty(self.side);
        for (p, s) in self.pieces() {
            out.put(p, s.mirror());
        }
        out
    }

    /// The colour swap: White and Black exchange pieces, ranks flip
    /// (r ↔ 10 − r) and the other side is to move.
    pub fn color_flip(&self) -> Position {
        let mut out = Position::empty(self.side.opponent());
        for (p, s) in self.pieces() {
            out.put(Piece::new(p.color.opponent(), p.animal), s.flip());
        }
        out
    }

    /// Checks that the position can occur in a table under `rules`: no piece
    /// on a den, no non-swimmer in the water, only animals of the game.
    pub fn validate(&self, rules: &Ruleset) -> Result<(), PositionError> {
        let board = rules.board();
        for (piece, square) in self.pieces() {
            if !rules.animal_allowed(piece.animal) {
                return Err(PositionError::AnimalNotInGame { piece, square });
            }
            if board.is_den(square) {
                let own = board.is_den_of(square, piece.color);
                return Err(PositionError::PieceOnDen { piece, square, own });
            }
            if board.is_water(square) && !rules.swims(piece.animal) {
                return Err(PositionError::PieceInWater { piece, square });
            }
        }
        Ok(())
    }

    /// Checks that the position can occur in a game, finished games
    /// included: as [`Position::validate`], except that one piece may stand
    /// on the enemy den if its side moved last, and a side may have no
    /// pieces if it is to move (the game ended on the move before). Refuses
    /// an empty board.
    pub fn validate_reachable(&self, rules: &Ruleset) -> Result<(), PositionError> {
        let board = rules.board();
        let on_den = self
            .pieces()
            .find(|&(p, s)| board.is_den_of(s, p.color.opponent()));
        let mut rest = *self;
        if let Some((_, square)) = on_den {
            rest.remove(square);
        }
        rest.validate(rules).map_err(|e| match (e, on_den) {
            // Another piece on its enemy's den: both sides entered.
            (
                PositionError::PieceOnDen {
                    piece,
                    square,
                    own: false,
                },
                Some(first),
            ) => {
                let (white, black) = if first.0.color == Color::White {
                    (first, (piece, square))
                } else {
                    ((piece, square), first)
                };
                PositionError::BothDensEntered { white, black }
            }
            (e, _) => e,
        })?;
        if let Some((piece, square)) = on_den {
            if piece.color == self.side_to_move() {
                return Err(PositionError::DenEnteredOutOfTurn { piece, square });
            }
        }
        if self.count(Color::White) + self.count(Color::Black) == 0 {
            return Err(PositionError::Empty);
        }
        let mover = self.side_to_move();
        if self.count(mover.opponent()) == 0 {
            return Err(PositionError::CapturedOutOfTurn {
                side: mover.opponent(),
            });
        }
        Ok(())
    }

    /// True if the game is over: a side has no pieces or a piece stands on
    /// the enemy den.
    pub fn is_game_over(&self, rules: &Ruleset) -> bool {
        let board = rules.board();
        self.count(Color::White) == 0
            || self.count(Color::Black) == 0
            || self
                .pieces()
                .any(|(p, s)| board.is_den_of(s, p.color.opponent()))
    }

    /// The raw squares of all 16 pieces by [`Piece::code`] (255 = absent).
    #[inline]
    pub fn raw_squares(&self) -> [u8; 16] {
        self.squares
    }

    /// True if the position is its own left–right mirror image (every piece
    /// on file d).
    #[inline]
    pub fn is_mirror_symmetric(&self) -> bool {
        self.squares.iter().all(|&s| s == NO_SQUARE || s % 7 == 3)
    }

    /// The raw square (0..63) of the piece with code `code` (see
    /// [`Piece::code`]), or 255 if absent. For hot loops.
    #[inline]
    pub fn raw_square(&self, code: usize) -> u8 {
        self.squares[code]
    }

    /// Draws the board as text, rank 9 at the top, `.` for empty land, `~`
    /// for water, `#` for dens and `^` for traps.
    pub fn to_diagram(&self, rules: &Ruleset) -> String {
        let board = rules.board();
        let mut out = String::new();
        for rank in (0..9u8).rev() {
            out.push_str(&format!("{} ", rank + 1));
            for file in 0..7u8 {
                let sq = Square::new(file, rank).expect("on board");
                let c = match self.piece_at(sq) {
                    Some(p) => p.letter(),
                    None if board.is_water(sq) => '~',
                    None if board.is_den(sq) => '#',
                    None if board.is_trap(sq) => '^',
                    None => '.',
                };
                out.push(c);
                out.push(' ');
            }
            out.pop();
            out.push('\n');
        }
        out.push_str("  a b c d e f g\n");
        out.push_str(match self.side {
            Color::White => "White to move",
            Color::Black => "Black to move",
        });
        out
    }

    /// The animal on `sq` if it belongs to `color`.
    #[inline]
    pub fn animal_of(&self, sq: Square, color: Color) -> Option<Animal> {
        self.piece_at(sq)
            .filter(|p| p.color == color)
            .map(|p| p.animal)
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({self})")
    }
}
