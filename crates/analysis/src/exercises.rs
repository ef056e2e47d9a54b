//! Training exercises: won positions of a table at a few depths, and a
//! drawn position few of whose moves hold the draw, each with how many of
//! its moves keep its value: what a trainer offers a player who picks a
//! material and a difficulty.
//!
//! Difficulty is the distance (a win in 5 plies is easy, the table's
//! longest win is the hardest it has) and how few of the position's moves
//! keep its value. A table's values are read once, from its first slot on,
//! and the read stops once every depth has a position.

use crate::histogram::Histogram;
use crate::placements::chunks;
use jungletb_indexer::Material;
use jungletb_rules::{Position, Value, Wdl};
use jungletb_tablebase::{ProbeError, Tablebase};

/// The depths of the wins offered, as shares of the table's longest win
/// (the first at least 5 plies where the table has such wins).
pub const WIN_DEPTHS: [f64; 3] = [0.25, 0.6, 1.0];

/// Drawn positions whose moves are probed for the hardest draw to hold,
/// at most.
pub const DRAW_CANDIDATES: usize = 256;

/// One exercise: a position to win, or to hold to a draw, from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exercise {
    /// The material (canonical colour order; either side may be to move).
    pub material: Material,
    /// The position.
    pub position: Position,
    /// Win or draw, for the side to move.
    pub goal: Wdl,
    /// Plies to the end with best play (a win's distance; `None` for a
    /// draw).
    pub plies: Option<u16>,
    /// Moves that keep the value (win, or hold the draw).
    pub good_moves: usize,
    /// Legal moves.
    pub moves: usize,
}

/// The exercises of `material`'s table, given its [`Histogram`]: a win at
/// each of [`WIN_DEPTHS`] (shallowest first, distinct distances) and the
/// drawn position, among the first [`DRAW_CANDIDATES`] with a losing move,
/// with the fewest moves that hold the draw.
pub fn exercises_of(
    tb: &Tablebase,
    material: Material,
    hist: &Histogram,
) -> Result<Vec<Exercise>, ProbeError> {
    let (material, _) = material.canonical();
    let scanner = tb.scanner(material)?;
    let idx = scanner.table().index();
    // The distances wanted, among the wins of the stored slots.
    let counts = hist.stored_wins(idx.white_to_move_only());
    let longest = counts.iter().rposition(|&k| k > 0);
    let mut wanted: Vec<u16> = Vec::new();
    if let Some(longest) = longest {
        for share in WIN_DEPTHS {
            let target = ((longest as f64 * share).round() as usize)
                .max(5)
                .min(longest);
            // The nearest distance at or below the target that has wins.
            if let Some(d) = (1..=target).rev().find(|&d| counts[d] > 0) {
                if !wanted.contains(&(d as u16)) {
                    wanted.push(d as u16);
                }
            }
        }
    }
    let mut wins: Vec<Option<Position>> = vec![None; wanted.len()];
    let mut draws: Vec<Position> = Vec::new();
    for range in chunks(idx.size()) {
        let done = wins.iter().all(Option::is_some) && draws.len() >= DRAW_CANDIDATES;
        if done {
            break;
        }
        for (i, v) in range.clone().zip(scanner.values(range)?) {
            let slot = match v {
                Some(Value::Win(d)) => wanted.iter().position(|&w| w == d),
                Some(Value::Draw) if draws.len() < DRAW_CANDIDATES => None,
                _ => continue,
            };
            match (slot, v) {
                (Some(k), _) if wins[k].is_none() => wins[k] = idx.canonical_position(i),
                (None, Some(Value::Draw)) => draws.extend(idx.canonical_position(i)),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    for (pos, &d) in wins.iter().zip(&wanted) {
        if let Some(pos) = pos {
            let (good, moves) = keeping(tb, pos, Wdl::Win)?;
            out.push(Exercise {
                material,
                position: *pos,
                goal: Wdl::Win,
                plies: Some(d),
                good_moves: good,
                moves,
            });
        }
    }
    // The draw with the fewest holding moves among those that can be
    // lost (ties: the most moves, then the first found).
    let mut hardest: Option<(usize, usize, Position)> = None;
    for pos in &draws {
        let (good, moves) = keeping(tb, pos, Wdl::Draw)?;
        let better = hardest.is_none_or(|(g, m, _)| good < g || (good == g && moves > m));
        if good < moves && better {
            hardest = Some((good, moves, *pos));
        }
    }
    if let Some((good, moves, position)) = hardest {
        out.push(Exercise {
            material,
            position,
            goal: Wdl::Draw,
            plies: None,
            good_moves: good,
            moves,
        });
    }
    Ok(out)
}

/// How many of `pos`'s moves keep `goal` for the side to move, and how
/// many moves it has (WDL probes of the positions after them).
fn keeping(tb: &Tablebase, pos: &Position, goal: Wdl) -> Result<(usize, usize), ProbeError> {
    let rules = tb.rules();
    let moves = pos.legal_moves(rules);
    let mut good = 0;
    for mv in moves.iter() {
        let value = if pos.is_winning_move(rules, mv) {
            Wdl::Win
        } else {
            tb.probe_wdl(&pos.play(mv))?.negate()
        };
        good += (value == goal) as usize;
    }
    Ok((good, moves.len()))
}
