//! Errors of the indexer crate.

use std::fmt;

/// A material or index could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IndexError {
    /// The material name is malformed.
    BadMaterial(String),
    /// The material uses an animal that does not take part under the rules.
    AnimalNotInGame(String),
    /// The index would not fit the 32-bit positions the solver uses.
    TooLarge(String),
}

impl fmt::Display for IndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndexError::BadMaterial(m) => write!(f, "unknown material: {m}"),
            IndexError::AnimalNotInGame(m) => write!(f, "material not playable: {m}"),
            IndexError::TooLarge(m) => write!(f, "material too large: {m}"),
        }
    }
}

impl std::error::Error for IndexError {}
