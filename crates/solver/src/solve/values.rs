//! The values a solve leaves, in the memory it solved them in.

use crate::solve::work::WorkArray;

/// The raw values of a solved material, one per index slot (see
/// [`jungletb_format::encoding`]): in memory or in a memory-mapped working
/// file, as the memory budget decided.
/// One byte a value, or two when solved in two-byte cells.
pub struct SolvedValues(WorkArray, u8);

/// The raw values of a solve as they lie in its working memory.
#[derive(Debug, Clone, Copy)]
pub enum RawValues<'a> {
    /// One byte a value.
    Bytes(&'a [u8]),
    /// Two bytes a value (solved in two-byte cells).
    Wide(&'a [u16]),
}

impl SolvedValues {
    /// `cells` holding the values, `bytes` (1 or 2) each.
    pub(crate) fn new(cells: WorkArray, bytes: u8) -> SolvedValues {
        SolvedValues(cells, bytes)
    }

    /// The values as they lie in memory.
    pub fn raw(&self) -> RawValues<'_> {
        match self.1 {
            1 => RawValues::Bytes(self.0.bytes()),
            _ => RawValues::Wide(self.0.u16()),
        }
    }

    /// The number of values (index slots).
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True if there are no slots.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The values, two bytes each.
    pub fn to_vec(&self) -> Vec<u16> {
        match self.raw() {
            RawValues::Bytes(b) => b.iter().map(|&v| v as u16).collect(),
            RawValues::Wide(w) => w.to_vec(),
        }
    }
}

impl std::fmt::Debug for SolvedValues {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SolvedValues")
            .field("slots", &self.len())
            .field("bytes_a_value", &self.1)
            .finish()
    }
}
