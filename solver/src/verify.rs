//! Forward consistency: every stored value agrees with its successors'.

use crate::error::SolveError;
use crate::subtables::SubTables;
use jungletb_format::TableError;
use jungletb_format::Tablebase;
use jungletb_indexer::Material;
use jungletb_rules::{MoveTables, NoMoveRule, Value};
use rayon::prelude::*;

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
/// Values are read as probes answer them: compressed tables with
/// don't-cares (which cannot be read slot by slot) through the
/// tablebase's search, position by position, which is slower.
pub fn verify_material(tb: &Tablebase, material: Material) -> Result<VerifyReport, SolveError> {
    let table = tb.table(material)?;
    // `None`: a table captures lead into has don't-cares, so capture
    // successors are probed through `tb`.
    let subs = match SubTables::open(material, tb) {
        Ok(subs) => Some(subs),
        Err(SolveError::Table(TableError::NeedsSearch(_))) => None,
        Err(e) => return Err(e),
    };
    let searched = table.has_dont_cares();
    let tables = MoveTables::new(tb.rules());
    let index = table.index();
    let rules = tb.rules();
    let n = index.size();
    let chunk = 4096u64;
    let parts: Vec<Result<VerifyReport, SolveError>> = (0..n.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let mut r = VerifyReport::default();
            let range = c * chunk..((c + 1) * chunk).min(n);
            let values = tb.values(material, range.clone())?;
            for (i, stored) in range.zip(values) {
                let Some(pos) = index.canonical_raw_position(i) else {
                    continue;
                };
                r.positions += 1;
                let stored = stored.ok_or_else(|| {
                    SolveError::Table(TableError::Corrupt {
                        path: table.path().to_path_buf(),
                        what: format!("slot {i} holds a position but no value"),
                    })
                })?;
                let mut best: Option<Value> = None;
                let mut error = None;
                tables.for_each_move(&pos, |mv| {
                    let v = match (&subs, mv.is_capture()) {
                        _ if pos.is_winning_move(&mv) => Ok(Value::Win(1)),
                        (Some(subs), true) => subs.value_after(&pos, &mv).map(Value::from_child),
                        // A quiet move within a table read slot by slot.
                        (_, false) if !searched => {
                            let after = pos.side_to_move().opponent();
                            table
                                .value_at(index.index_squares(&pos.squares_after(&mv), after))
                                .map(Value::from_child)
                                .map_err(SolveError::from)
                        }
                        // Tables with don't-cares answer through the search.
                        _ => tb
                            .probe(&pos.after(&mv).to_position())
                            .map(Value::from_child)
                            .map_err(SolveError::from),
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
            Ok(r)
        })
        .collect();
    let mut total = VerifyReport::default();
    for p in parts {
        let p = p?;
        total.positions += p.positions;
        total.mismatches += p.mismatches;
        for e in p.examples {
            if total.examples.len() < 10 {
                total.examples.push(e);
            }
        }
    }
    Ok(total)
}
