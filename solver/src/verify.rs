//! Forward consistency: every stored value agrees with its successors'.

use crate::error::SolveError;
use jungletb_format::{ProbeError, Tablebase};
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
    let table = tb.table_ref(material)?;
    let tables = MoveTables::new(tb.rules());
    let index = table.index();
    let rules = tb.rules();
    let n = index.size();
    let chunk = 4096u64;
    let parts: Vec<Result<VerifyReport, ProbeError>> = (0..n.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let mut r = VerifyReport::default();
            for i in c * chunk..((c + 1) * chunk).min(n) {
                let Some(pos) = index.canonical_position(i) else {
                    continue;
                };
                r.positions += 1;
                let stored = table.value_at(i)?;
                let moves = tables.legal_moves(&pos);
                let mut best = match rules.no_move {
                    NoMoveRule::Loss => Value::Loss(0),
                    NoMoveRule::Draw => Value::Draw,
                };
                for (k, mv) in moves.iter().enumerate() {
                    let v = tb.move_value(&pos, mv)?;
                    if k == 0 || v > best {
                        best = v;
                    }
                }
                if best != stored {
                    r.mismatches += 1;
                    if r.examples.len() < 10 {
                        r.examples.push((pos.to_string(), stored, best));
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
