//! The game of Jungle (Dou Shou Qi) as jungletb solves it.
//!
//! This crate is the single source of truth for the rules (see `docs/rules.md` of the
//! project): board geometry ([`Board`], [`Square`]), pieces ([`Animal`],
//! [`Color`], [`Piece`]), rule sets ([`Ruleset`]), positions and their
//! notation ([`Position`]), move generation ([`Position::legal_moves`]),
//! un-move generation for retrograde analysis ([`Position::unmoves`]),
//! [`perft`] and game values ([`Value`]).
//!
//! ```
//! use jungletb_rules::{Position, Ruleset};
//! let rules = Ruleset::standard();
//! let pos = Position::start();
//! assert_eq!(pos.legal_moves(&rules).len(), 24);
//! ```

#![warn(missing_docs)]
#![forbid(unsafe_code)]
#![warn(missing_debug_implementations)]

mod bitboard;
mod board;
mod error;
mod fingerprint;
mod move_tables;
mod movegen;
mod notation;
mod options;
mod perft;
mod piece;
mod position;
mod ruleset;
mod run_moves;
mod unmove;
mod value;

pub use bitboard::{square_bit, RawMove, RawPosition, FILE_D};
pub use board::{Board, Direction, MoveTextError, Square, FLIP_SQUARE, MIRROR_SQUARE, NO_SQUARE};
pub use error::{ParseError, Placement, PositionError, RulesError};
pub use fingerprint::{fingerprint, FINGERPRINT_POSITIONS};
pub use move_tables::{MoveCount, MoveTables};
pub use movegen::{Move, MoveList};
pub use notation::line_text;
pub use options::{RuleOption, RULE_OPTIONS};
pub use perft::{perft, perft_divide};
pub use piece::{Animal, Color, Piece};
pub use position::Position;
pub use ruleset::{
    BaseRuleset, ElephantCapturesRat, JumpAxes, Jumpers, NoMoveRule, Ruleset, COMMON_DISAGREEMENTS,
};
pub use run_moves::RunMoves;
pub use value::{Value, Wdl};
