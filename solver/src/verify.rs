//! Forward consistency: every stored value agrees with its successors'.

use crate::error::SolveError;
use crate::subtables::SubTables;
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
pub fn verify_material(tb: &Tablebase, material: Material) -> Result<VerifyReport, SolveError> {
    let table = tb.table(material)?;
    let subs = SubTables::open(material, tb)?;
    let tables = MoveTables::new(tb.rules());
    let index = table.index();
    let rules = tb.rules();
    let n = index.size();
    let chunk = 4096u64;
    let parts: Vec<Result<VerifyReport, SolveError>> = (0..n.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let mut r = VerifyReport::default();
            for i in c * chunk..((c + 1) * chunk).min(n) {
                let Some(pos) = index.canonical_raw_position(i) else {
                    continue;
                };
                r.positions += 1;
                let stored = table.value_at(i)?;
                let after = pos.side_to_move().opponent();
                let mut best: Option<Value> = None;
                let mut error = None;
                tables.for_each_move(&pos, |mv| {
                    let v = if pos.is_winning_move(&mv) {
                        Ok(Value::Win(1))
                    } else if mv.is_capture() {
                        subs.value_after(&pos, &mv).map(Value::from_child)
                    } else {
                        let mut sq = *pos.squares();
                        sq[mv.code as usize] = mv.to;
                        table
                            .value_at(index.index_squares(&sq, after))
                            .map(Value::from_child)
                            .map_err(SolveError::from)
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
