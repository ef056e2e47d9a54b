//! A plain forward sweep: the yardstick for solve times.

use crate::error::SolveError;
use crate::solve::subtables::SubTables;
use jungletb_indexer::{Material, Neighbours, PositionIndex};
use jungletb_rules::{MoveTables, Ruleset};
use jungletb_tablebase::Tablebase;
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// Figures of a forward sweep.
#[derive(Debug, Clone, Default)]
pub struct SweepStats {
    /// Positions visited.
    pub positions: u64,
    /// Successors indexed (quiet moves) or probed (captures).
    pub successors: u64,
    /// A checksum of the successor indices and values, so the work cannot be
    /// optimised away (and two sweeps can be compared).
    pub checksum: u64,
    /// Wall time.
    pub time: Duration,
}

/// Visits every position of `material` once: decodes it, generates its
/// moves, and indexes every successor in the material or probes it in the
/// smaller table a capture leads to. No retrograde analysis can do less
/// than this, so `solve time / sweep time` measures the solver's overhead.
/// Runs on the current rayon pool.
pub fn forward_sweep(
    material: Material,
    rules: &Ruleset,
    subtables: &Tablebase,
) -> Result<SweepStats, SolveError> {
    let start = Instant::now();
    let index = PositionIndex::new(material, rules)?;
    let subs = SubTables::open(material, subtables)?;
    let tables = MoveTables::new(rules);
    let n = index.size();
    let chunk = 4096u64;
    let sweep_range = match index.piece_count() {
        2 => sweep_range::<2>,
        3 => sweep_range::<3>,
        4 => sweep_range::<4>,
        5 => sweep_range::<5>,
        6 => sweep_range::<6>,
        _ => sweep_range::<{ Neighbours::<16>::PIECES_ANY }>,
    };
    let parts: Vec<Result<(u64, u64, u64), SolveError>> = (0..n.div_ceil(chunk))
        .into_par_iter()
        .map(|c| sweep_range(&index, &tables, &subs, c * chunk..((c + 1) * chunk).min(n)))
        .collect();
    let mut s = SweepStats::default();
    for p in parts {
        let (a, b, c) = p?;
        s.positions += a;
        s.successors += b;
        s.checksum = s.checksum.wrapping_add(c);
    }
    s.time = start.elapsed();
    Ok(s)
}

/// The sweep of index slots `range` of a material of `N` pieces (see
/// [`Neighbours`]): (positions, successors, checksum).
fn sweep_range<const N: usize>(
    index: &PositionIndex,
    tables: &MoveTables,
    subs: &SubTables,
    range: std::ops::Range<u64>,
) -> Result<(u64, u64, u64), SolveError> {
    let (mut positions, mut successors, mut sum) = (0u64, 0u64, 0u64);
    for (_, pos) in index.raw_positions(range) {
        let Some(pos) = pos else {
            continue;
        };
        positions += 1;
        let near = index
            .neighbours::<N>(pos.squares(), pos.side_to_move().opponent())
            .expect("N is the piece count");
        let mut result = Ok(());
        tables.for_each_move(&pos, |mv| {
            if pos.is_winning_move(&mv) || result.is_err() {
                return;
            }
            successors += 1;
            let x = if mv.is_capture() {
                match subs.value_after(&pos, &mv) {
                    Ok(v) => v.plies().unwrap_or(0) as u64,
                    Err(e) => {
                        result = Err(e);
                        return;
                    }
                }
            } else {
                near.index_after(mv.code as usize, mv.to)
            };
            sum = sum.wrapping_mul(31).wrapping_add(x);
        });
        result?;
    }
    Ok((positions, successors, sum))
}
