//! Distance histograms of a table, per side to move, with an example
//! position of the longest win and the longest loss.
//!
//! Counts are of stored positions (one per pair of mirror images, White to
//! move only for materials with the same animals on both sides), the same
//! counting as the table header's totals.

use crate::placements::chunks;
use jungletb_indexer::Material;
use jungletb_rules::{Color, Position, Value};
use jungletb_tablebase::{ProbeError, Tablebase};
use rayon::prelude::*;

/// One side to move's distances.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SideHistogram {
    /// `wins[d]`: wins in `d` plies.
    pub wins: Vec<u64>,
    /// `losses[d]`: losses in `d` plies.
    pub losses: Vec<u64>,
    /// Draws.
    pub draws: u64,
    /// A position of the longest win, if any.
    pub longest_win: Option<(Value, Position)>,
    /// A position of the longest loss, if any.
    pub longest_loss: Option<(Value, Position)>,
}

impl SideHistogram {
    fn add(&mut self, v: Value, pos: impl FnOnce() -> Option<Position>) {
        let bump = |h: &mut Vec<u64>, d: u16| {
            if h.len() <= d as usize {
                h.resize(d as usize + 1, 0);
            }
            h[d as usize] += 1;
        };
        match v {
            Value::Draw => self.draws += 1,
            Value::Win(d) => {
                bump(&mut self.wins, d);
                let longer = |w: &Value| w.plies().is_some_and(|x| d > x);
                if self.longest_win.as_ref().is_none_or(|(w, _)| longer(w)) {
                    self.longest_win = pos().map(|p| (v, p));
                }
            }
            Value::Loss(d) => {
                bump(&mut self.losses, d);
                let longer = |l: &Value| l.plies().is_some_and(|x| d > x);
                if self.longest_loss.as_ref().is_none_or(|(l, _)| longer(l)) {
                    self.longest_loss = pos().map(|p| (v, p));
                }
            }
        }
    }

    fn merge(mut self, o: SideHistogram) -> SideHistogram {
        let add = |a: &mut Vec<u64>, b: &[u64]| {
            if a.len() < b.len() {
                a.resize(b.len(), 0);
            }
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        };
        add(&mut self.wins, &o.wins);
        add(&mut self.losses, &o.losses);
        self.draws += o.draws;
        let win_len = |x: &Option<(Value, Position)>| x.as_ref().map(|(v, _)| v.plies());
        if win_len(&o.longest_win) > win_len(&self.longest_win) {
            self.longest_win = o.longest_win;
        }
        if win_len(&o.longest_loss) > win_len(&self.longest_loss) {
            self.longest_loss = o.longest_loss;
        }
        self
    }
}

/// Both sides' histograms. For materials stored White to move only, Black
/// to move is the colour swap of White to move.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Histogram {
    /// White to move.
    pub white: SideHistogram,
    /// Black to move.
    pub black: SideHistogram,
}

impl Histogram {
    /// Wins of each distance among a table's stored slots: both sides',
    /// or White's alone for a table of `white_to_move_only` (whose Black
    /// side is White's colour-swapped, stored nowhere).
    pub fn stored_wins(&self, white_to_move_only: bool) -> Vec<u64> {
        let mut counts = self.white.wins.clone();
        if !white_to_move_only {
            let black = &self.black.wins;
            counts.resize(counts.len().max(black.len()), 0);
            counts.iter_mut().zip(black).for_each(|(x, y)| *x += y);
        }
        counts
    }

    /// One side's histogram.
    pub fn side(&self, c: Color) -> &SideHistogram {
        match c {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

/// Reads every value of the table of `material` in `tb` (in parallel, slot
/// range by slot range, as probes answer them: see [`Tablebase::values`]).
pub fn histogram(tb: &Tablebase, material: Material) -> Result<Histogram, ProbeError> {
    let (material, _) = material.canonical();
    let t = tb.table(material)?;
    let idx = t.index();
    let half = if idx.white_to_move_only() {
        idx.size()
    } else {
        idx.size() / 2
    };
    let scanner = tb.scanner(material)?;
    let parts: Vec<Histogram> = chunks(idx.size())
        .into_par_iter()
        .map(|range| {
            let mut h = Histogram::default();
            let values = scanner.values(range.clone())?;
            for (i, v) in range.zip(values) {
                if let Some(v) = v {
                    let side = if i < half { &mut h.white } else { &mut h.black };
                    side.add(v, || idx.position(i));
                }
            }
            Ok(h)
        })
        .collect::<Result<_, ProbeError>>()?;
    let mut h = parts
        .into_iter()
        .fold(Histogram::default(), |a, b| Histogram {
            white: a.white.merge(b.white),
            black: a.black.merge(b.black),
        });
    if idx.white_to_move_only() {
        // Black to move: the colour swaps of the stored positions, with the
        // same values (as the header counts them).
        let flip = |e: &Option<(Value, Position)>| e.as_ref().map(|(v, p)| (*v, p.color_flip()));
        h.black = SideHistogram {
            longest_win: flip(&h.white.longest_win),
            longest_loss: flip(&h.white.longest_loss),
            ..h.white.clone()
        };
    }
    Ok(h)
}
