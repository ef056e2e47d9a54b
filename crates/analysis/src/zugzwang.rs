//! Zugzwangs: placements where having the move hurts.
//!
//! - **Mutual zugzwang**: the side to move loses, whichever side that is.
//! - **Half zugzwang** (worth half a point): with one side to move the game
//!   is drawn, with the other side to move that side loses.
//!
//! Counted over every placement on the board (mirror images separately,
//! see [`crate::placements`]), like all-placement win / loss / draw totals.

use crate::placements::{black_value, chunks, weight, white_slots};
use jungletb_indexer::Material;
use jungletb_rules::{Position, Value, Wdl};
use jungletb_tablebase::{ProbeError, Tablebase};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Which kind of zugzwang.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// The side to move loses, whichever it is.
    Mutual,
    /// One side to move draws, the other side to move loses.
    Half,
}

impl Kind {
    /// `"mutual"` or `"half"`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Mutual => "mutual",
            Kind::Half => "half",
        }
    }
}

/// One zugzwang placement, given White to move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Example {
    /// Mutual or half.
    pub kind: Kind,
    /// The placement with White to move.
    pub position: Position,
    /// Its value with White to move.
    pub white_to_move: Value,
    /// Its value with Black to move.
    pub black_to_move: Value,
}

impl Example {
    /// The longer of the two distances (draws count 0): examples are listed
    /// longest first.
    pub fn length(&self) -> u16 {
        let d = |v: Value| v.plies().unwrap_or(0);
        d(self.white_to_move).max(d(self.black_to_move))
    }
}

/// The zugzwangs of one material.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The material (canonical).
    pub material: Material,
    /// Mutual zugzwang placements on the board.
    pub mutual: u64,
    /// Half zugzwang placements on the board.
    pub half: u64,
    /// Up to the requested number of examples of each kind, longest first
    /// (mutual ones before half ones of the same length).
    pub examples: Vec<Example>,
}

impl Report {
    /// An empty report of `material`.
    pub fn new(material: Material) -> Report {
        Report {
            material,
            mutual: 0,
            half: 0,
            examples: Vec::new(),
        }
    }

    fn merge(mut self, other: Report, limit: usize) -> Report {
        self.mutual += other.mutual;
        self.half += other.half;
        self.examples.extend(other.examples);
        keep_longest(&mut self.examples, limit);
        self
    }
}

/// Keeps the `limit` longest examples of each kind, in a stable order.
fn keep_longest(examples: &mut Vec<Example>, limit: usize) {
    // Ties broken by the squares of the pieces: a stable order without
    // formatting positions inside the sort.
    examples.sort_by_key(|e| {
        (
            std::cmp::Reverse(e.length()),
            e.kind,
            e.position.raw_squares(),
        )
    });
    let mut kept = [0usize; 2];
    examples.retain(|e| {
        let k = &mut kept[e.kind as usize];
        *k += 1;
        *k <= limit
    });
}

/// The kind of zugzwang of a placement with values `w` (White to move) and
/// `b` (Black to move), if any.
pub fn classify(w: Value, b: Value) -> Option<Kind> {
    classify_wdl(w.wdl(), b.wdl())
}

/// [`classify`] of the placement's wins, draws and losses.
fn classify_wdl(w: Wdl, b: Wdl) -> Option<Kind> {
    use jungletb_rules::Wdl::*;
    match (w, b) {
        (Loss, Loss) => Some(Kind::Mutual),
        (Draw, Loss) | (Loss, Draw) => Some(Kind::Half),
        _ => None,
    }
}

/// Scans every placement of `material` (its canonical table in `tb`),
/// keeping up to `limit` examples of each kind.
pub fn scan_material(
    tb: &Tablebase,
    material: Material,
    limit: usize,
) -> Result<Report, ProbeError> {
    scan_material_with(tb, material, limit, &|_, _| {})
}

/// [`scan_material`], calling `on_progress(done, slots)` from the worker
/// threads after each chunk of [`crate::placements::CHUNK`] slots: slots
/// scanned so far out of `slots` (a 6-piece table takes minutes).
pub fn scan_material_with(
    tb: &Tablebase,
    material: Material,
    limit: usize,
    on_progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Report, ProbeError> {
    let (material, _) = material.canonical();
    let t = tb.table(material)?;
    let empty = || Report::new(material);
    let slots = white_slots(&t);
    let scanned = AtomicU64::new(0);
    let scanner = tb.scanner(material)?;
    let scan = |range: std::ops::Range<u64>| -> Result<Report, ProbeError> {
        let mut r = empty();
        let idx = t.index();
        // Both sides' wins, draws and losses of the chunk in two sequential
        // reads (a compressed table decodes each block once); distances are
        // read for zugzwangs only. White-to-move-only tables find Black's
        // value through the colour swap, per position.
        let whites = scanner.wdl_values(range.clone())?;
        let half = idx.size() / 2;
        let blacks = if idx.white_to_move_only() {
            None
        } else {
            Some(scanner.wdl_values(range.start + half..range.end + half)?)
        };
        let value_at = |i: u64| -> Result<Option<Value>, ProbeError> {
            Ok(scanner.values(i..i + 1)?.pop().flatten())
        };
        for (k, i) in range.clone().enumerate() {
            let Some(w) = whites[k] else {
                continue;
            };
            if w == Wdl::Win {
                continue; // neither kind: White to move wins
            }
            let Some(pos) = idx.position(i) else {
                continue;
            };
            let (b, black) = match &blacks {
                Some(b) => (b[k], None),
                None => {
                    let v = black_value(tb, &pos)?;
                    (Some(v.wdl()), Some(v))
                }
            };
            let Some(b) = b else {
                continue;
            };
            let Some(kind) = classify_wdl(w, b) else {
                continue;
            };
            let (Some(w), Some(b)) = (
                value_at(i)?,
                match black {
                    Some(v) => Some(v),
                    None => value_at(i + half)?,
                },
            ) else {
                continue;
            };
            let n = weight(&pos);
            match kind {
                Kind::Mutual => r.mutual += n,
                Kind::Half => r.half += n,
            }
            if limit > 0 {
                r.examples.push(Example {
                    kind,
                    position: pos,
                    white_to_move: w,
                    black_to_move: b,
                });
                if r.examples.len() >= 4 * limit {
                    keep_longest(&mut r.examples, limit);
                }
            }
        }
        keep_longest(&mut r.examples, limit);
        let n = range.end - range.start;
        on_progress(scanned.fetch_add(n, Relaxed) + n, slots);
        Ok(r)
    };
    let parts: Vec<Report> = chunks(slots)
        .into_par_iter()
        .map(scan)
        .collect::<Result<_, _>>()?;
    Ok(parts
        .into_iter()
        .fold(empty(), |acc, r| acc.merge(r, limit)))
}
