//! Two rule sets, the same positions: which values change.
//!
//! Every position stored in a table of rule set A (both sides to move) is
//! looked up in the table of the same material under rule set B (through
//! B's own index: the two indexes differ when the rules change where a
//! piece may stand). Positions that are not legal under B are counted
//! apart. Values are compared by category (win / draw / loss for the side
//! to move) and, when the category is kept, by distance.

use crate::placements::chunks;
use jungletb_indexer::Material;
use jungletb_rules::{Position, Value, Wdl};
use jungletb_tablebase::{ProbeError, Tablebase};
use rayon::prelude::*;

/// Index of a category in the change matrix: 0 win, 1 draw, 2 loss.
pub fn category(w: Wdl) -> usize {
    match w {
        Wdl::Win => 0,
        Wdl::Draw => 1,
        Wdl::Loss => 2,
    }
}

/// The name of category `c`.
pub const CATEGORY_NAMES: [&str; 3] = ["win", "draw", "loss"];

/// The comparison of one material.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comparison {
    /// The material (canonical).
    pub material: Material,
    /// Positions of A's table compared.
    pub positions: u64,
    /// Positions of A's table that are not legal under B.
    pub only_in_a: u64,
    /// `changes[a][b]`: positions whose category is `a` under A and `b`
    /// under B (see [`category`]).
    pub changes: [[u64; 3]; 3],
    /// Wins and losses kept whose distance changed.
    pub distance_changed: u64,
    /// Sum of the absolute distance changes (plies) of those.
    pub distance_shift_sum: u64,
    /// The largest absolute distance change.
    pub distance_shift_max: u16,
    /// One example per category change `[a][b]` (a ≠ b): the position and
    /// its values under A and B.
    pub examples: [[Option<(Position, Value, Value)>; 3]; 3],
}

impl Comparison {
    /// An empty comparison of `material`.
    pub fn new(material: Material) -> Comparison {
        Comparison {
            material,
            positions: 0,
            only_in_a: 0,
            changes: [[0; 3]; 3],
            distance_changed: 0,
            distance_shift_sum: 0,
            distance_shift_max: 0,
            examples: Default::default(),
        }
    }

    /// Positions whose category changed.
    pub fn changed(&self) -> u64 {
        (0..3)
            .flat_map(|a| (0..3).map(move |b| (a, b)))
            .filter(|(a, b)| a != b)
            .map(|(a, b)| self.changes[a][b])
            .sum()
    }

    /// Adds `o` to this comparison (examples: the first one kept).
    pub fn merge(mut self, o: Comparison) -> Comparison {
        self.positions += o.positions;
        self.only_in_a += o.only_in_a;
        for a in 0..3 {
            for b in 0..3 {
                self.changes[a][b] += o.changes[a][b];
                if self.examples[a][b].is_none() {
                    self.examples[a][b] = o.examples[a][b];
                }
            }
        }
        self.distance_changed += o.distance_changed;
        self.distance_shift_sum += o.distance_shift_sum;
        self.distance_shift_max = self.distance_shift_max.max(o.distance_shift_max);
        self
    }
}

/// Compares the tables of `material` under `a` and `b`.
pub fn compare_material(
    a: &Tablebase,
    b: &Tablebase,
    material: Material,
) -> Result<Comparison, ProbeError> {
    let (material, _) = material.canonical();
    let ta = a.table(material)?;
    let rules_b = b.rules();
    let empty = || Comparison::new(material);
    let scanner = a.scanner(material)?;
    let parts: Vec<Comparison> = chunks(ta.index().size())
        .into_par_iter()
        .map(|range| -> Result<Comparison, ProbeError> {
            let mut c = empty();
            let values = scanner.values(range.clone())?;
            for (i, va) in range.zip(values) {
                let Some(va) = va else {
                    continue;
                };
                let Some(pos) = ta.index().position(i) else {
                    continue;
                };
                c.positions += 1;
                if pos.validate(rules_b).is_err() {
                    c.only_in_a += 1;
                    continue;
                }
                let vb = b.probe(&pos)?;
                let (ca, cb) = (category(va.wdl()), category(vb.wdl()));
                c.changes[ca][cb] += 1;
                if ca != cb {
                    if c.examples[ca][cb].is_none() {
                        c.examples[ca][cb] = Some((pos, va, vb));
                    }
                } else if let (Some(da), Some(db)) = (va.plies(), vb.plies()) {
                    if da != db {
                        let shift = da.abs_diff(db);
                        c.distance_changed += 1;
                        c.distance_shift_sum += shift as u64;
                        c.distance_shift_max = c.distance_shift_max.max(shift);
                    }
                }
            }
            Ok(c)
        })
        .collect::<Result<_, _>>()?;
    Ok(parts.into_iter().fold(empty(), Comparison::merge))
}
