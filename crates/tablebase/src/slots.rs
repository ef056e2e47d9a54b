//! Tables read by slot number, for whole-table scans (`scan.rs`): a
//! slot's position is decoded from its index, a capture's child is found
//! by [`PositionIndex::index_after_capture`](jungletb_indexer::PositionIndex::index_after_capture),
//! and no [`Position`](jungletb_rules::Position) is built unless a lookup
//! has no table. Small compressed tables are decoded whole, once per scan:
//! a random probe of a compressed table walks a block, a decoded one is an
//! array read. Their don't-cares are searched in `dont_care.rs`.

use crate::error::ProbeError;
use crate::table::Table;
use crate::tablebase::Tablebase;
use jungletb_format::TableError;
use jungletb_indexer::Material;
use jungletb_rules::{RawMove, RawPosition, Wdl};
use std::ops::Deref;
use std::sync::{Arc, OnceLock};

/// A table owned through the tablebase, or borrowed.
pub(crate) enum Held<'a> {
    Shared(Arc<Table>),
    Borrowed(&'a Table),
}

impl Deref for Held<'_> {
    type Target = Table;

    fn deref(&self) -> &Table {
        match self {
            Held::Shared(t) => t,
            Held::Borrowed(t) => t,
        }
    }
}

/// A table read slot by slot: its stored WDL values (decoded whole when
/// small and compressed, on first use) and the tables its captures lead
/// into (opened on first use).
pub(crate) struct Slots<'a> {
    pub(crate) table: Held<'a>,
    /// Whether positions must be colour-swapped to be found in it (as the
    /// table of a capture).
    flip: bool,
    /// Decoded whole if compressed and at most this many slots
    /// ([`crate::TablebaseOptions::scan_decode_max_slots`]).
    decode_max_slots: u64,
    decoded: OnceLock<Option<Vec<Wdl>>>,
    next: OnceLock<Captures>,
}

impl<'a> Slots<'a> {
    pub(crate) fn new(table: Held<'a>, flip: bool, tb: &Tablebase) -> Slots<'a> {
        Slots {
            table,
            flip,
            decode_max_slots: tb.options().scan_decode_max_slots,
            decoded: OnceLock::new(),
            next: OnceLock::new(),
        }
    }

    /// The tables this table's captures lead into.
    pub(crate) fn captures(&self, tb: &Tablebase) -> Result<&Captures, ProbeError> {
        if let Some(next) = self.next.get() {
            return Ok(next);
        }
        let opened = Captures::open(tb, self.table.header().material)?;
        Ok(self.next.get_or_init(|| opened))
    }

    /// The stored WDL value of slot `i`.
    pub(crate) fn wdl_as_stored(&self, i: u64) -> Result<Wdl, ProbeError> {
        let decoded = match self.decoded.get() {
            Some(d) => d,
            None => {
                let n = self.table.index().size();
                let d = if n <= self.decode_max_slots && self.table.has_dont_cares() {
                    self.table.wdls_as_stored(0..n)?
                } else {
                    None
                };
                self.decoded.get_or_init(|| d)
            }
        };
        match decoded {
            Some(d) => d
                .get(i as usize)
                .copied()
                .ok_or_else(|| corrupt(&self.table, format!("slot {i} out of range"))),
            None => Ok(self.table.wdl_as_stored(i)?),
        }
    }
}

/// For each piece a capture can take, the table of the material left
/// (see [`Slots`]): captures looked up by index, without building
/// positions.
pub(crate) struct Captures {
    by_victim: Vec<Option<Slots<'static>>>,
}

impl Captures {
    /// The tables the captures of `material` lead into, from `tb`.
    pub(crate) fn open(tb: &Tablebase, material: Material) -> Result<Captures, ProbeError> {
        let mut by_victim: Vec<Option<Slots>> = (0..16).map(|_| None).collect();
        for p in material.pieces() {
            if let Some(m) = material.without(p) {
                let (canonical, flip) = m.canonical();
                by_victim[p.code()] =
                    Some(Slots::new(Held::Shared(tb.table(canonical)?), flip, tb));
            }
        }
        Ok(Captures { by_victim })
    }

    /// The table of the position after the capture `mv` in `pos`, and
    /// that position's slot in it (`None` if the capture leaves no table).
    pub(crate) fn slot_after(
        &self,
        pos: &RawPosition,
        mv: &RawMove,
    ) -> Option<(&Slots<'static>, u64)> {
        let slots = self.by_victim[mv.victim as usize].as_ref()?;
        Some((
            slots,
            slots.table.index().index_after_capture(pos, mv, slots.flip),
        ))
    }
}

/// The raw position of slot `i` of `table`, in the table's colour order.
pub(crate) fn raw_position_at(table: &Table, i: u64) -> Result<RawPosition, ProbeError> {
    table
        .index()
        .canonical_raw_position(i)
        .ok_or_else(|| corrupt(table, format!("slot {i} holds a value but no position")))
}

pub(crate) fn corrupt(table: &Table, what: String) -> ProbeError {
    ProbeError::Table(TableError::Corrupt {
        path: table.path().to_path_buf(),
        what,
    })
}
