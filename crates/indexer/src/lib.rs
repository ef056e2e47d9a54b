//! Materials and the perfect-hash position index.
//!
//! A [`Material`] is the set of pieces on the board (`ELvR`: White Elephant
//! and Lion against the Black Rat). A [`PositionIndex`] maps every position of
//! a canonical material to a dense integer and back, storing each position
//! once up to the left–right mirror and (for materials equal on both sides)
//! the colour swap.
//!
//! ```
//! use jungletb_indexer::{Material, PositionIndex};
//! use jungletb_rules::{Position, Ruleset};
//! let rules = Ruleset::standard();
//! let m: Material = "EvR".parse().unwrap();
//! let index = PositionIndex::new(m, &rules).unwrap();
//! let pos: Position = "7/7/7/7/7/7/7/7/E5r w".parse().unwrap();
//! let i = index.index(&pos);
//! let back = index.position(i).unwrap();
//! assert_eq!(index.index(&back), i);
//! ```

#![warn(missing_docs)]
// Unsafe only where `select.rs` calls PDEP on a processor found to have it.
#![deny(unsafe_code)]
#![warn(missing_debug_implementations)]

mod error;
mod index;
mod material;
mod neighbours;
mod positions;
mod run_neighbours;
mod select;

pub use error::IndexError;
pub use index::{color_flip_squares, PositionIndex, INDEX_SCHEME_VERSION};
pub use material::{Material, MaterialError};
pub use neighbours::Neighbours;
pub use positions::{Decoder, RawPositions};
pub use run_neighbours::{RunNeighbours, Shifted, SWAPPED};
