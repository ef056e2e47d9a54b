//! Errors of the indexer crate.

use crate::material::{Material, MaterialError};
use jungletb_rules::Animal;
use std::fmt;

/// A material or index could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IndexError {
    /// The material name is malformed.
    BadMaterial(MaterialError),
    /// An index is built for canonical materials only: this one is stored
    /// colour-swapped.
    NotCanonical(Material),
    /// The material uses an animal that does not take part under the rules.
    AnimalNotInGame {
        /// The material.
        material: Material,
        /// The animal.
        animal: Animal,
    },
    /// The index would not fit: more slots than a u64 holds, or more than
    /// 2^32 placements of the pieces after the first two (which decoding
    /// divides in 32 bits). Every material up to 7 pieces fits.
    TooLarge {
        /// The material.
        material: Material,
        /// The index slots it would need (`u64::MAX`: more than a u64 holds).
        slots: u64,
    },
}

impl fmt::Display for IndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndexError::BadMaterial(e) => write!(f, "{e}"),
            IndexError::NotCanonical(m) => {
                write!(f, "{m} is stored as {} (colours swapped)", m.flipped())
            }
            IndexError::AnimalNotInGame { material, animal } => write!(
                f,
                "material not playable: {material}: the {} does not take part under these rules",
                animal.name()
            ),
            IndexError::TooLarge { material, slots } if *slots == u64::MAX => write!(
                f,
                "material too large: {material} has more than 2^64 index slots, more than an \
                 index holds"
            ),
            IndexError::TooLarge { material, slots } => write!(
                f,
                "material too large: {material} has {slots} index slots, and its pieces after \
                 the first two more than the 2^32 placements an index holds (up to 7 pieces fit)"
            ),
        }
    }
}

impl std::error::Error for IndexError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            IndexError::BadMaterial(e) => e.source(),
            _ => None,
        }
    }
}

impl From<MaterialError> for IndexError {
    fn from(e: MaterialError) -> Self {
        IndexError::BadMaterial(e)
    }
}
