//! Random positions for the probe benchmark and the probe profiler: random
//! slots of random tables with a fixed seed, half of them in the colour
//! order the tables are not stored under.

use jungletb::indexer::{Material, PositionIndex};
use jungletb::rules::{Position, Ruleset};

/// `count` positions of `materials` (canonical) under `rules`, the same
/// ones every run.
pub fn random_positions(materials: &[Material], rules: &Ruleset, count: usize) -> Vec<Position> {
    let indexes: Vec<PositionIndex> = materials
        .iter()
        .map(|m| PositionIndex::new(*m, rules).expect("a canonical material"))
        .collect();
    let mut seed = 0x1234_5678_9ABC_DEF1u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut positions = Vec::with_capacity(count);
    while positions.len() < count && !indexes.is_empty() {
        let idx = &indexes[next() as usize % indexes.len()];
        if let Some(p) = idx.canonical_position(next() % idx.size()) {
            positions.push(if next() % 2 == 0 { p } else { p.color_flip() });
        }
    }
    positions
}
