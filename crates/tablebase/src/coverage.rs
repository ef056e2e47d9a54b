//! Which tables of a rule set a directory holds, by piece count: what a
//! server, an engine or a user is told is covered.

use crate::tablebase::Tablebase;
use jungletb_indexer::Material;
use std::collections::BTreeSet;

/// The tables present of one piece count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PieceCount {
    /// The number of pieces.
    pub pieces: u32,
    /// Materials of that many pieces with a table (plain or compressed).
    pub present: usize,
    /// Materials of that many pieces under the rule set.
    pub total: usize,
}

/// Which tables are present, by piece count (see [`Tablebase::coverage`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coverage {
    /// The largest N such that every table of up to N pieces is present
    /// (0 if not even every 2-piece table is).
    pub complete: u32,
    /// Every piece count from 2 to the largest with a table present.
    pub counts: Vec<PieceCount>,
}

impl Coverage {
    /// The most pieces of a table present (0 for none).
    pub fn max_pieces(&self) -> u32 {
        self.counts
            .iter()
            .filter(|c| c.present > 0)
            .map(|c| c.pieces)
            .max()
            .unwrap_or(0)
    }

    /// The piece counts above [`Coverage::complete`] with some tables.
    pub fn partial(&self) -> impl Iterator<Item = &PieceCount> {
        self.counts
            .iter()
            .filter(|c| c.present > 0 && c.present < c.total)
    }

    /// For people: `tables up to 3 pieces, and 2 of the 854 with 4`.
    pub fn describe(&self) -> String {
        let mut s = if self.complete >= 2 {
            format!("tables up to {} pieces", self.complete)
        } else {
            "not every 2-piece table".to_string()
        };
        let partial: Vec<String> = self
            .partial()
            .map(|c| format!("{} of the {} with {}", c.present, c.total, c.pieces))
            .collect();
        if !partial.is_empty() {
            s.push_str(", and ");
            s.push_str(&partial.join(", "));
        }
        s
    }
}

impl Tablebase {
    /// Which tables of the rule set its directory holds (a table is present
    /// when its plain or compressed file is there; files are not opened).
    pub fn coverage(&self) -> Coverage {
        let present: BTreeSet<Material> = self.materials().into_iter().collect();
        let top = present.iter().map(|m| m.piece_count()).max().unwrap_or(0);
        let all = Material::all(top, |a| self.rules().animal_allowed(a));
        let counts: Vec<PieceCount> = (2..=top)
            .map(|k| {
                let of_k = all.iter().filter(|m| m.piece_count() == k);
                PieceCount {
                    pieces: k,
                    present: of_k.clone().filter(|m| present.contains(m)).count(),
                    total: of_k.count(),
                }
            })
            .collect();
        let complete = counts
            .iter()
            .take_while(|c| c.present == c.total)
            .map(|c| c.pieces)
            .last()
            .unwrap_or(0);
        Coverage { complete, counts }
    }
}
