//! Forward consistency: every stored value agrees with its successors'.

use crate::error::SolveError;
use jungletb_format::encoding;
use jungletb_indexer::Material;
use jungletb_rules::{MoveTables, NoMoveRule, RawMove, RawPosition, Value};
use jungletb_tablebase::{Table, TableError, Tablebase};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

/// The result of checking one table.
#[derive(Debug, Clone, Default)]
pub struct VerifyReport {
    /// Positions checked.
    pub positions: u64,
    /// Positions whose stored value disagrees with their successors'.
    pub mismatches: u64,
    /// Up to ten examples: (position, stored, recomputed).
    pub examples: Vec<(String, Value, Value)>,
}

/// Recomputes every position of `material`'s table from the values of its
/// successors (one ply of search through `tb`) and compares with the stored
/// value. The table and every table it captures into must be in `tb`.
///
/// Values are read as probes answer them. A compressed table (the one
/// checked, or one its captures lead into) is read once, in slot order,
/// into memory (2 bytes a slot: 10 GB for a 6-piece table), don't-cares
/// resolved by the tablebase's search, so that its successors are looked
/// up there, not decoded one probe at a time from a block each.
pub fn verify_material(tb: &Tablebase, material: Material) -> Result<VerifyReport, SolveError> {
    verify_material_with(tb, material, &|_, _| {})
}

/// [`verify_material`], calling `on_progress(done, slots)` from the worker
/// threads every few thousand slots: index slots checked so far, out of
/// the table's `slots`.
pub fn verify_material_with(
    tb: &Tablebase,
    material: Material,
    on_progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<VerifyReport, SolveError> {
    let main = TableValues::open(tb, material)?;
    let mut subs: Vec<Option<(TableValues, bool)>> = (0..16).map(|_| None).collect();
    for p in material.pieces() {
        if let Some(m) = material.without(p) {
            let (canonical, flip) = m.canonical();
            subs[p.code()] = Some((TableValues::open(tb, canonical)?, flip));
        }
    }
    let tables = MoveTables::new(tb.rules());
    let index = main.table.index();
    let rules = tb.rules();
    let n = index.size();
    let chunk = 4096u64;
    let checked = AtomicU64::new(0);
    (0..n.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let mut r = VerifyReport::default();
            for (i, pos) in index.raw_positions(c * chunk..((c + 1) * chunk).min(n)) {
                let Some(pos) = pos else {
                    continue;
                };
                r.positions += 1;
                let stored = main.at(i)?;
                let mut best: Option<Value> = None;
                let mut error = None;
                tables.for_each_move(&pos, |mv| {
                    let v = if pos.is_winning_move(&mv) {
                        Ok(Value::Win(1))
                    } else {
                        successor(&main, &subs, &pos, &mv).map(Value::from_child)
                    };
                    match v {
                        Ok(v) => best = Some(best.map_or(v, |b| b.max(v))),
                        Err(e) => error = Some(e),
                    }
                });
                if let Some(e) = error {
                    return Err(e);
                }
                let best = best.unwrap_or(match rules.no_move {
                    NoMoveRule::Loss => Value::Loss(0),
                    NoMoveRule::Draw => Value::Draw,
                });
                if best != stored {
                    r.mismatches += 1;
                    if r.examples.len() < 10 {
                        r.examples
                            .push((pos.to_position().to_string(), stored, best));
                    }
                }
            }
            let len = ((c + 1) * chunk).min(n) - c * chunk;
            on_progress(checked.fetch_add(len, Relaxed) + len, n);
            Ok(r)
        })
        // In slot order: the examples are the first ten.
        .try_reduce(VerifyReport::default, |mut total, part| {
            total.positions += part.positions;
            total.mismatches += part.mismatches;
            let room = 10 - total.examples.len();
            total.examples.extend(part.examples.into_iter().take(room));
            Ok(total)
        })
}

/// The value, for its side to move, of the position after `mv` (a move of
/// `pos` that does not end the game): in the same table after a quiet
/// move, in the table of the captured piece's material after a capture.
fn successor(
    main: &TableValues,
    subs: &[Option<(TableValues, bool)>],
    pos: &RawPosition,
    mv: &RawMove,
) -> Result<Value, SolveError> {
    if !mv.is_capture() {
        let after = pos.side_to_move().opponent();
        return main.at(main
            .table
            .index()
            .index_squares(&pos.squares_after(mv), after));
    }
    let (sub, flip) = subs[mv.victim as usize]
        .as_ref()
        .expect("every capturable piece has a sub-table");
    sub.at(sub.table.index().index_after_capture(pos, mv, *flip))
}

/// One table's values as probes answer them: read from a plain table slot
/// by slot, or, for a compressed one, all read once into memory.
struct TableValues {
    table: Arc<Table>,
    /// Every slot's value in the plain tables' 16-bit encoding
    /// ([`encoding::RAW_UNUSED`] for a slot with no position), for a
    /// compressed table.
    in_memory: Option<Vec<u16>>,
}

impl TableValues {
    fn open(tb: &Tablebase, material: Material) -> Result<TableValues, SolveError> {
        let table = tb.table(material)?;
        let in_memory = if table.is_compressed() {
            // Filled in place, range by range: one copy of the values.
            let n = table.index().size();
            let chunk = 1usize << 16;
            let mut values = vec![encoding::RAW_UNUSED; n as usize];
            let scanner = tb.scanner(material)?;
            values
                .par_chunks_mut(chunk)
                .enumerate()
                .try_for_each(|(c, out)| {
                    let start = (c * chunk) as u64;
                    let read = scanner.values(start..start + out.len() as u64)?;
                    if read.len() != out.len() {
                        return Err(SolveError::Table(TableError::Corrupt {
                            path: table.path().to_path_buf(),
                            what: format!("slots from {start}: {} values read", read.len()),
                        }));
                    }
                    for (o, v) in out.iter_mut().zip(read) {
                        *o = v.and_then(encoding::encode).unwrap_or(encoding::RAW_UNUSED);
                    }
                    Ok(())
                })?;
            Some(values)
        } else {
            None
        };
        Ok(TableValues { table, in_memory })
    }

    /// The value of slot `i`, which holds a position.
    #[inline]
    fn at(&self, i: u64) -> Result<Value, SolveError> {
        match &self.in_memory {
            None => Ok(self.table.value_at(i)?),
            Some(values) => values
                .get(i as usize)
                .and_then(|&raw| encoding::decode(raw))
                .ok_or_else(|| {
                    SolveError::Table(TableError::Corrupt {
                        path: self.table.path().to_path_buf(),
                        what: format!("slot {i} holds a position but no value"),
                    })
                }),
        }
    }
}
