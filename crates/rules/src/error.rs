//! Error types of the rules crate.

use crate::board::Square;
use crate::piece::{Color, Piece};
use std::fmt;

/// A position's notation could not be parsed: what is wrong, and where.
///
/// Ranks are numbered as on the board, 1 (White's side) to 9.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// Nothing but white space.
    Empty,
    /// The board without the side to move.
    MissingSide {
        /// The text.
        text: String,
    },
    /// Neither 2 fields (board, side) nor 6 (with 4 ignored engine fields).
    FieldCount {
        /// The text.
        text: String,
        /// How many fields it has.
        found: usize,
    },
    /// The side field is not `w` or `b`.
    BadSide {
        /// The field.
        found: String,
    },
    /// Not 9 ranks separated by `/`.
    RankCount {
        /// How many ranks there are.
        found: usize,
    },
    /// An empty-square count outside 1..7.
    BadDigit {
        /// The rank.
        rank: u8,
        /// The digit.
        digit: char,
    },
    /// A character that is neither a piece letter nor a digit.
    UnknownLetter {
        /// The rank.
        rank: u8,
        /// The character.
        letter: char,
    },
    /// A rank that covers more than 7 files.
    RankTooLong {
        /// The rank.
        rank: u8,
        /// The rank's text.
        text: String,
    },
    /// A rank that covers fewer than 7 files.
    RankTooShort {
        /// The rank.
        rank: u8,
        /// The rank's text.
        text: String,
        /// How many files it covers.
        files: u8,
    },
    /// An animal written twice for one side.
    DuplicateAnimal(Placement),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => f.write_str("empty position"),
            ParseError::MissingSide { text } => {
                write!(f, "'{text}': missing side to move (add ' w' or ' b')")
            }
            ParseError::FieldCount { text, found } => write!(
                f,
                "'{text}': expected 2 fields (board, side) or 6 (with 4 ignored engine fields), found {found}"
            ),
            ParseError::BadSide { found } => {
                write!(f, "side to move must be 'w' or 'b', found '{found}'")
            }
            ParseError::RankCount { found } => {
                write!(f, "expected 9 ranks separated by '/', found {found}")
            }
            ParseError::BadDigit { rank, digit } => {
                write!(f, "rank {rank}: empty-square count must be 1..7, found '{digit}'")
            }
            ParseError::UnknownLetter { rank, letter } => write!(
                f,
                "rank {rank}: unknown piece letter '{letter}' (expected one of RCWDPTLE / rcwdptle or a digit)"
            ),
            ParseError::RankTooLong { rank, text } => {
                write!(f, "rank {rank} ('{text}') covers more than 7 files")
            }
            ParseError::RankTooShort { rank, text, files } => {
                write!(f, "rank {rank} ('{text}') covers {files} files, expected 7")
            }
            ParseError::DuplicateAnimal(p) => p.fmt(f),
        }
    }
}

impl std::error::Error for ParseError {}

/// Pieces that cannot stand together on one board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// Two pieces given the same square.
    SquareTaken {
        /// The square.
        square: Square,
    },
    /// An animal given twice for one side.
    TwoOfOneAnimal {
        /// The animal and its side.
        piece: Piece,
        /// Its first square.
        first: Square,
        /// Its second square.
        second: Square,
    },
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Placement::SquareTaken { square } => write!(f, "two pieces on {square}"),
            Placement::TwoOfOneAnimal {
                piece,
                first,
                second,
            } => write!(
                f,
                "two {} {}s (on {first} and {second}); each side has at most one of each animal",
                piece.color.name(),
                piece.animal.name()
            ),
        }
    }
}

impl std::error::Error for Placement {}

/// A well-formed position that cannot occur under the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PositionError {
    /// A piece stands on a den (its own den is out of bounds; entering the
    /// enemy den ends the game, which [`Position::validate`](crate::Position::validate)
    /// does not answer).
    PieceOnDen {
        /// The piece.
        piece: Piece,
        /// Its square.
        square: Square,
        /// The den is the piece's own (else the enemy's).
        own: bool,
    },
    /// Pieces of both sides stand on the enemy den: the game ended when the
    /// first entered, so the second cannot have.
    BothDensEntered {
        /// White's piece on Black's den.
        white: (Piece, Square),
        /// Black's piece on White's den.
        black: (Piece, Square),
    },
    /// A piece that cannot swim stands in the water.
    PieceInWater {
        /// The piece.
        piece: Piece,
        /// Its square.
        square: Square,
    },
    /// The animal does not take part under these rules.
    AnimalNotInGame {
        /// The piece.
        piece: Piece,
        /// Its square.
        square: Square,
    },
    /// A piece stands on the enemy den with its own side to move: the game
    /// ended when it entered, and then the other side was to move.
    DenEnteredOutOfTurn {
        /// The piece.
        piece: Piece,
        /// The den.
        square: Square,
    },
    /// A side has no pieces and its opponent is to move: the game ended
    /// when the last one was taken, and then that side was to move.
    CapturedOutOfTurn {
        /// The side without pieces.
        side: Color,
    },
    /// No piece on the board.
    Empty,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let who = |p: &Piece, s: &Square| format!("{} {} on {s}", p.color.name(), p.animal.name());
        match self {
            PositionError::PieceOnDen {
                piece,
                square,
                own: true,
            } => write!(
                f,
                "impossible position: {}: a piece may not enter its own den",
                who(piece, square)
            ),
            PositionError::PieceOnDen {
                piece,
                square,
                own: false,
            } => write!(
                f,
                "{}: the game ended when it entered the enemy den (no table holds a finished \
                 game)",
                who(piece, square)
            ),
            PositionError::BothDensEntered { white, black } => write!(
                f,
                "impossible position: {} and {} both stand on the enemy den: the game ended \
                 when the first of them entered",
                who(&white.0, &white.1),
                who(&black.0, &black.1)
            ),
            PositionError::PieceInWater { piece, square } => write!(
                f,
                "impossible position: {}: only the Rat may enter the water",
                who(piece, square)
            ),
            PositionError::AnimalNotInGame { piece, square } => write!(
                f,
                "impossible position: {}: this animal does not take part under these rules",
                who(piece, square)
            ),
            PositionError::DenEnteredOutOfTurn { piece, square } => write!(
                f,
                "unreachable position: {} has entered the enemy den, which ended the game \
                 with {} to move, not {}",
                who(piece, square),
                piece.color.opponent().name(),
                piece.color.name()
            ),
            PositionError::CapturedOutOfTurn { side } => write!(
                f,
                "unreachable position: {} has no pieces left, which ended the game with {} \
                 to move, not {}",
                side.name(),
                side.name(),
                side.opponent().name()
            ),
            PositionError::Empty => f.write_str("impossible position: no piece on the board"),
        }
    }
}

impl std::error::Error for PositionError {}

/// A rule set could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RulesError {
    /// No named rule set has this name.
    UnknownRuleset(String),
    /// No option has this name.
    UnknownOption {
        /// The name given.
        option: String,
        /// The names of the options there are.
        known: Vec<&'static str>,
    },
    /// An option was given without `=value`.
    MissingValue {
        /// The option.
        option: String,
        /// Its accepted values.
        allowed: &'static str,
    },
    /// The value is not valid for the option.
    BadOptionValue {
        /// The option.
        option: String,
        /// The rejected value.
        value: String,
        /// Its accepted values.
        allowed: &'static str,
    },
    /// Options that contradict each other.
    Conflict {
        /// The first option.
        first: &'static str,
        /// The option it excludes.
        second: &'static str,
        /// Why they exclude each other.
        reason: &'static str,
    },
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::UnknownRuleset(n) => write!(
                f,
                "unknown rule set '{n}' (known: standard, leiden, popular)"
            ),
            RulesError::UnknownOption { option, known } => write!(
                f,
                "unknown rule option '{option}' (the options: {})",
                known.join(", ")
            ),
            RulesError::MissingValue { option, allowed } => write!(
                f,
                "rule option '{option}' needs a value: {option}=VALUE, VALUE one of {allowed}"
            ),
            RulesError::BadOptionValue {
                option,
                value,
                allowed,
            } => {
                write!(
                    f,
                    "invalid value '{value}' for rule option '{option}' (allowed: {allowed})"
                )
            }
            RulesError::Conflict {
                first,
                second,
                reason,
            } => write!(
                f,
                "conflicting rule options: {first} and {second} ({reason})"
            ),
        }
    }
}

impl std::error::Error for RulesError {}
