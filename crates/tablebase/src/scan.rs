//! Whole-table scans that see the values probes answer: a [`Scanner`]
//! reads one table slot by slot (`slots.rs`), a compressed table's
//! don't-cares searched (`dont_care.rs`); the tactical values the
//! compressor stores; the check that a compressed table answers as its
//! plain one.

use crate::error::ProbeError;
use crate::parallel::first_failure;
use crate::slots::{corrupt, raw_position_at, Captures, Held, Slots};
use crate::table::Table;
use crate::tablebase::Tablebase;
use jungletb_indexer::Material;
use jungletb_rules::{Value, Wdl};
use std::fmt;
use std::ops::Range;

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
                    *v = Some(self.own.resolve(self.tb, i, stored)?);
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
}

impl Tablebase {
    /// The value of every slot of `range` of the table of `material`'s
    /// canonical colour order (`None`: the slot holds no position), as
    /// probes answer them: for scans. Don't-cares of compressed tables are
    /// searched (only where the stored value is not a win), so a scan of a
    /// compressed table sees the values of the plain one.
    pub fn values(
        &self,
        material: Material,
        range: Range<u64>,
    ) -> Result<Vec<Option<Value>>, ProbeError> {
        self.scanner(material)?.values(range)
    }

    /// For [`crate::write_compressed_table`]: per slot of the plain table
    /// `table`, the value the side to move reaches by its best tactical
    /// move, where it matters (`None` for losses, which cannot be
    /// don't-cares, for slots without a position and for positions without
    /// a tactical move). The tables captures lead into must be in this
    /// tablebase.
    pub fn tactical_values(&self, table: &Table) -> Result<Vec<Option<Wdl>>, ProbeError> {
        self.tactical_values_in(table, 0..table.index().size())
    }

    /// [`Tablebase::tactical_values`] of the slots of `slots` only.
    pub fn tactical_values_in(
        &self,
        table: &Table,
        slots: std::ops::Range<u64>,
    ) -> Result<Vec<Option<Wdl>>, ProbeError> {
        let captures = Captures::open(self, table.header().material)?;
        let n = slots.end.min(table.index().size());
        let chunk = 1 << 16;
        let mut out = Vec::with_capacity(n.saturating_sub(slots.start) as usize);
        for start in (slots.start..n).step_by(chunk) {
            let range = start..(start + chunk as u64).min(n);
            for (i, v) in range.clone().zip(table.values_as_stored(range)?) {
                let tactical = match v {
                    Some(v) if v.wdl() != Wdl::Loss => {
                        let pos = raw_position_at(table, i)?;
                        self.tactical_search(&pos, None, None, |p, mv, need| {
                            captures.wdl_after(self, p, mv, need)
                        })?
                    }
                    _ => None,
                };
                out.push(tactical);
            }
        }
        Ok(out)
    }

    /// Checks that the compressed table `packed` answers, through this
    /// tablebase's search, every value of the plain table `plain` (what
    /// `jungletb compress` checks of every table it writes). Slots whose
    /// stored value equals the plain one need no search: the search only
    /// ever raises a stored value to one a move reaches, never above the
    /// position's value.
    pub fn same_answers(&self, plain: &Table, packed: &Table) -> Result<(), ProbeError> {
        if !packed.has_dont_cares() {
            return plain.same_values(packed).map_err(ProbeError::from);
        }
        let n = plain.index().size();
        if packed.index().size() != n || packed.header().material != plain.header().material {
            return Err(corrupt(
                packed,
                format!("not the table of {}", plain.path().display()),
            ));
        }
        // Chunks checked in parallel; the first failing chunk in slot
        // order is the one reported, whichever thread finds it.
        let chunk = 1u64 << 16;
        let scanner = self.scanner_of(packed);
        let check = |c: u64| -> Result<(), ProbeError> {
            let range = c * chunk..((c + 1) * chunk).min(n);
            let stored = packed.values_as_stored(range.clone())?;
            for ((i, s), p) in range
                .clone()
                .zip(stored)
                .zip(plain.values_as_stored(range)?)
            {
                let answer = match (s, p) {
                    (s, p) if s == p => continue,
                    (Some(s), Some(_)) => Some(scanner.own.resolve(self, i, s)?),
                    (s, _) => s,
                };
                if answer != p {
                    let shown =
                        |v: Option<Value>| v.map_or("no position".into(), |v| v.to_string());
                    return Err(corrupt(
                        packed,
                        format!(
                            "slot {i} answers {} instead of {} (as in {})",
                            shown(answer),
                            shown(p),
                            plain.path().display()
                        ),
                    ));
                }
            }
            Ok(())
        };
        first_failure(n.div_ceil(chunk), check)
    }
}
