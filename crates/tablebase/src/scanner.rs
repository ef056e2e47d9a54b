//! Whole-table scans slot by slot, with the don't-care search of
//! [`crate::search`] done on slot numbers: a slot's position is decoded
//! from its index, a capture's child is found by
//! [`PositionIndex::index_after_capture`](jungletb_indexer::PositionIndex::index_after_capture),
//! and no [`Position`](jungletb_rules::Position) is built unless a lookup
//! has no table. Small compressed tables are decoded whole, once per scan:
//! a random probe of a compressed table walks a block, a decoded one is an
//! array read.
//!
//! A slot's position may be the mirror image of the position a move
//! reaches (the index stores one of each pair); both have the same value
//! and mirrored moves, so searching either gives the same answer.

use crate::error::ProbeError;
use crate::search::after_capture;
use crate::table::Table;
use crate::tablebase::Tablebase;
use jungletb_format::TableError;
use jungletb_indexer::Material;
use jungletb_rules::{RawMove, RawPosition, Value, Wdl};
use std::fmt;
use std::ops::{Deref, Range};
use std::sync::{Arc, OnceLock};

/// Reads one table's values for scans, as probes answer them (see
/// [`Tablebase::scanner`]). Threads scanning chunks in parallel share one.
pub struct Scanner<'a> {
    tb: &'a Tablebase,
    own: Slots<'a>,
}

impl fmt::Debug for Scanner<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scanner")
            .field("table", &self.own.table.path())
            .finish_non_exhaustive()
    }
}

impl Tablebase {
    /// A scanner of the table of `material`'s canonical colour order, for
    /// [`Scanner::values`] called chunk by chunk: the tables captures lead
    /// into are opened once, and small compressed ones decoded once,
    /// instead of once a call.
    pub fn scanner(&self, material: Material) -> Result<Scanner<'_>, ProbeError> {
        let table = self.table(material.canonical().0)?;
        Ok(Scanner {
            tb: self,
            own: Slots::new(Held::Shared(table), false, self),
        })
    }

    /// A scanner of `table`, which need not be in this tablebase (a table
    /// just written): the tables its captures lead into are.
    pub(crate) fn scanner_of<'a>(&'a self, table: &'a Table) -> Scanner<'a> {
        Scanner {
            tb: self,
            own: Slots::new(Held::Borrowed(table), false, self),
        }
    }
}

impl Scanner<'_> {
    /// The table scanned.
    pub fn table(&self) -> &Table {
        &self.own.table
    }

    /// The value of every slot of `range` (`None`: the slot holds no
    /// position), as probes answer them: don't-cares of compressed tables
    /// are searched (only where the stored value is not a win).
    pub fn values(&self, range: Range<u64>) -> Result<Vec<Option<Value>>, ProbeError> {
        let table = self.table();
        let mut values = table.values_as_stored(range.clone())?;
        if !table.has_dont_cares() {
            return Ok(values);
        }
        for (i, v) in range.zip(values.iter_mut()) {
            if let Some(stored) = *v {
                if stored.wdl() != Wdl::Win {
                    *v = Some(self.resolve(i, stored)?);
                }
            }
        }
        Ok(values)
    }

    /// The win, draw or loss of every slot of `range` (`None`: the slot
    /// holds no position), as probes answer them: [`Scanner::values`]
    /// without distances, so a don't-care win needs no search of its
    /// moves.
    pub fn wdl_values(&self, range: Range<u64>) -> Result<Vec<Option<Wdl>>, ProbeError> {
        let table = self.table();
        let Some(stored) = table.wdls_as_stored(range.clone())? else {
            let values = table.values_as_stored(range)?;
            return Ok(values.into_iter().map(|v| v.map(Value::wdl)).collect());
        };
        let index = table.index();
        let mut out = Vec::with_capacity(stored.len());
        for (i, w) in range.zip(stored) {
            out.push(if !index.is_canonical_slot(i) {
                None
            } else {
                Some(self.own.wdl_search(self.tb, i, w, None)?)
            });
        }
        Ok(out)
    }

    /// The value of slot `i`, stored as `stored` (not a win), with its
    /// don't-care searched ([`Tablebase::resolve`] on slot numbers).
    pub(crate) fn resolve(&self, i: u64, stored: Value) -> Result<Value, ProbeError> {
        let table = self.table();
        let raw = raw_position_at(table, i)?;
        let captures = self.own.captures(self.tb)?;
        let best = self
            .tb
            .tactical_search(&raw, Some(stored.wdl()), None, |p, mv, need| {
                captures.wdl_after(self.tb, p, mv, need)
            })?
            .unwrap_or(stored.wdl());
        // A don't-care stored as another kind keeps no distance.
        Ok(match best {
            b if b <= stored.wdl() => stored,
            Wdl::Win => self.fastest_win(&raw)?,
            _ => Value::Draw,
        })
    }

    /// [`Tablebase::fastest_win`] of the won position `pos` of this table:
    /// the fastest move to a position lost for the opponent.
    fn fastest_win(&self, pos: &RawPosition) -> Result<Value, ProbeError> {
        let captures = self.own.captures(self.tb)?;
        let index = self.table().index();
        let mut best: Option<Value> = None;
        let mut failed: Option<ProbeError> = None;
        let mut unindexed = false;
        self.tb.move_tables().for_each_move(pos, |mv| {
            if failed.is_some() || unindexed || best == Some(Value::Win(1)) {
                return;
            }
            if pos.is_winning_move(&mv) {
                best = Some(Value::Win(1));
                return;
            }
            let (slots, j) = if mv.is_capture() {
                match captures.slot_after(pos, &mv) {
                    Some(found) => found,
                    None => {
                        unindexed = true;
                        return;
                    }
                }
            } else {
                let side = pos.side_to_move().opponent();
                (
                    &self.own,
                    index.index_squares(&pos.squares_after(&mv), side),
                )
            };
            let child = slots.wdl_as_stored(j).and_then(|stored| {
                // Only a loss for the opponent counts: stop at a draw.
                slots.wdl_search(self.tb, j, stored, Some(Wdl::Draw))
            });
            match child {
                Ok(Wdl::Loss) => match slots.table.value_as_stored(j) {
                    Ok(v) => {
                        let v = Value::from_child(v);
                        best = Some(best.map_or(v, |b| b.max(v)));
                    }
                    Err(e) => failed = Some(e.into()),
                },
                Ok(_) => {}
                Err(e) => failed = Some(e),
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
        match best {
            Some(v) if !unindexed => Ok(v),
            _ => self.tb.fastest_win(self.table(), &pos.to_position()),
        }
    }
}

/// A table owned through the tablebase, or borrowed.
enum Held<'a> {
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
    table: Held<'a>,
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
    fn new(table: Held<'a>, flip: bool, tb: &Tablebase) -> Slots<'a> {
        Slots {
            table,
            flip,
            decode_max_slots: tb.options().scan_decode_max_slots,
            decoded: OnceLock::new(),
            next: OnceLock::new(),
        }
    }

    /// The tables this table's captures lead into.
    fn captures(&self, tb: &Tablebase) -> Result<&Captures, ProbeError> {
        if let Some(next) = self.next.get() {
            return Ok(next);
        }
        let opened = Captures::open(tb, self.table.header().material)?;
        Ok(self.next.get_or_init(|| opened))
    }

    /// The stored WDL value of slot `i`.
    fn wdl_as_stored(&self, i: u64) -> Result<Wdl, ProbeError> {
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

    /// [`Tablebase::wdl_search`] of slot `i`, stored as `stored`.
    fn wdl_search(
        &self,
        tb: &Tablebase,
        i: u64,
        stored: Wdl,
        need: Option<Wdl>,
    ) -> Result<Wdl, ProbeError> {
        if !self.table.has_dont_cares() || stored == Wdl::Win || need.is_some_and(|e| stored >= e) {
            return Ok(stored);
        }
        let next = self.captures(tb)?;
        let pos = raw_position_at(&self.table, i)?;
        Ok(tb
            .tactical_search(&pos, Some(stored), need, |p, mv, need| {
                next.wdl_after(tb, p, mv, need)
            })?
            .unwrap_or(stored))
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
    fn slot_after(&self, pos: &RawPosition, mv: &RawMove) -> Option<(&Slots<'static>, u64)> {
        let slots = self.by_victim[mv.victim as usize].as_ref()?;
        Some((
            slots,
            slots.table.index().index_after_capture(pos, mv, slots.flip),
        ))
    }

    /// [`Tablebase::wdl_search`] of the position after the capture `mv`
    /// (which must not end the game).
    pub(crate) fn wdl_after(
        &self,
        tb: &Tablebase,
        pos: &RawPosition,
        mv: &RawMove,
        need: Option<Wdl>,
    ) -> Result<Wdl, ProbeError> {
        let Some((slots, i)) = self.slot_after(pos, mv) else {
            return tb.wdl_search(&after_capture(pos, mv), need);
        };
        let stored = slots.wdl_as_stored(i)?;
        slots.wdl_search(tb, i, stored, need)
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
