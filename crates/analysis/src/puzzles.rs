//! Only-move puzzles: won positions where exactly one move wins (every
//! other move draws or loses), the deepest first.
//!
//! A table's wins are scanned twice: once for the distances (its
//! [`histogram`]: how deep the deepest [`CANDIDATES`] wins go), then for
//! the positions at least that deep, whose moves are probed. So the cost is two reads of the table's
//! values plus a ply of probes for a few thousand positions, whatever the
//! table's size.

use crate::histogram::{histogram, Histogram};
use crate::placements::chunks;
use jungletb_indexer::Material;
use jungletb_rules::{Move, Position, Value, Wdl};
use jungletb_tablebase::{ProbeError, Tablebase};
use rayon::prelude::*;

/// Won positions of a table whose moves are probed, at most (the deepest).
pub const CANDIDATES: u64 = 8192;

/// A position where exactly one move wins.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// The material (canonical colour order; the position may have either
    /// side to move).
    pub material: Material,
    /// The position.
    pub position: Position,
    /// The only winning move.
    pub solution: Move,
    /// Plies to the end with best play (the win's distance).
    pub plies: u16,
    /// Legal moves of the position (the solution among them).
    pub moves: usize,
}

/// The deepest only-move puzzles of `material`'s table, at most `limit`,
/// deepest first (ties in slot order), none on the line (the best play)
/// from a deeper one.
pub fn puzzles(
    tb: &Tablebase,
    material: Material,
    limit: usize,
) -> Result<Vec<Puzzle>, ProbeError> {
    puzzles_of(tb, material, &histogram(tb, material)?, limit)
}

/// [`puzzles`] given the table's [`histogram`] (a caller that has it
/// saves the first read of the table).
pub fn puzzles_of(
    tb: &Tablebase,
    material: Material,
    hist: &Histogram,
    limit: usize,
) -> Result<Vec<Puzzle>, ProbeError> {
    let (material, _) = material.canonical();
    let scanner = tb.scanner(material)?;
    let idx = scanner.table().index();
    let counts = hist.stored_wins(idx.white_to_move_only());
    // The shallowest distance kept: the deepest CANDIDATES wins (at least
    // one distance, however many positions it has; wins in 1 are no
    // puzzle).
    let mut floor = counts.len();
    let mut kept = 0;
    while floor > 3 && (kept == 0 || kept + counts[floor - 1] <= CANDIDATES) {
        floor -= 1;
        kept += counts[floor];
    }
    if kept == 0 {
        return Ok(Vec::new());
    }
    // Those positions, their moves probed.
    let mut found: Vec<(u64, Puzzle)> = chunks(idx.size())
        .par_iter()
        .map(|r| {
            let mut out = Vec::new();
            for (i, v) in r.clone().zip(scanner.values(r.clone())?) {
                let Some(Value::Win(d)) = v else { continue };
                if (d as usize) < floor {
                    continue;
                }
                let Some(pos) = idx.canonical_position(i) else {
                    continue;
                };
                if let Some(p) = only_move(tb, material, &pos, d)? {
                    out.push((i, p));
                }
            }
            Ok(out)
        })
        .collect::<Result<Vec<_>, ProbeError>>()?
        .into_iter()
        .flatten()
        .collect();
    found.sort_by_key(|(i, p)| (std::cmp::Reverse(p.plies), *i));
    // A puzzle on the line of a deeper one kept is the same game further
    // on (the deepest few are mostly one line): passed by.
    let mut along = std::collections::HashSet::new();
    let mut kept = Vec::new();
    for (i, p) in found {
        if kept.len() == limit {
            break;
        }
        if along.contains(&i) {
            continue;
        }
        let mut cur = p.position;
        for mv in tb.line(&cur)? {
            if cur.is_winning_move(tb.rules(), &mv) {
                break;
            }
            cur = cur.play(&mv);
            // Past a capture the line is in another table, for good.
            match Material::of_position(&cur) {
                Some(m) if m == material => along.insert(idx.index(&cur)),
                Some(m) if m.canonical().0 == material => {
                    along.insert(idx.index_color_swapped(&cur.raw_squares(), cur.side_to_move()))
                }
                _ => break,
            };
        }
        kept.push(p);
    }
    Ok(kept)
}

/// The puzzle of `pos` (won in `plies`), if exactly one of its moves
/// wins: WDL probes of its moves, stopping at a second win.
fn only_move(
    tb: &Tablebase,
    material: Material,
    pos: &Position,
    plies: u16,
) -> Result<Option<Puzzle>, ProbeError> {
    let rules = tb.rules();
    let moves = pos.legal_moves(rules);
    let mut solution = None;
    for mv in moves.iter() {
        let wins = pos.is_winning_move(rules, mv) || tb.probe_wdl(&pos.play(mv))? == Wdl::Loss;
        if wins {
            if solution.is_some() {
                return Ok(None);
            }
            solution = Some(*mv);
        }
    }
    Ok(solution.map(|solution| Puzzle {
        material,
        position: *pos,
        solution,
        plies,
        moves: moves.len(),
    }))
}
