//! The index is a bijection between positions (up to symmetry) and used
//! slots: checked exhaustively for small materials, by sampling for larger.

use bitvec::prelude::*;
use jungletb_indexer::{Material, PositionIndex};
use jungletb_rules::{Color, Piece, Position, Ruleset, Square};

/// Every valid placement of `material` with `side` to move.
fn for_each_position(
    material: Material,
    rules: &Ruleset,
    side: Color,
    f: &mut dyn FnMut(&Position),
) {
    let pieces = material.pieces();
    let board = rules.board();
    fn rec(
        i: usize,
        pieces: &[Piece],
        pos: &mut Position,
        ok: &dyn Fn(Piece, Square) -> bool,
        f: &mut dyn FnMut(&Position),
    ) {
        if i == pieces.len() {
            f(pos);
            return;
        }
        for s in Square::all() {
            if pos.is_empty(s) && ok(pieces[i], s) {
                pos.put(pieces[i], s);
                rec(i + 1, pieces, pos, ok, f);
                pos.remove(s);
            }
        }
    }
    let ok = |p: Piece, s: Square| rules.may_stand(board, p, s);
    rec(0, &pieces, &mut Position::empty(side), &ok, f);
}

/// Checks `material` exhaustively; returns (distinct positions, slots).
fn exhaustive(material: Material, rules: &Ruleset) -> (u64, u64) {
    let index = PositionIndex::new(material, rules).unwrap();
    let mut reached = bitvec![0; index.size() as usize];
    let mut placements = 0u64;
    for side in Color::ALL {
        for_each_position(material, rules, side, &mut |pos| {
            placements += 1;
            let i = index.index(pos);
            assert!(i < index.size(), "{material}: {pos} -> {i} out of range");
            // The slot holds this position or one of its symmetric images.
            let stored = index.position(i).unwrap();
            let images = [
                *pos,
                pos.mirror(),
                pos.color_flip(),
                pos.color_flip().mirror(),
            ];
            assert!(
                images.contains(&stored),
                "{material}: {pos} -> slot {i} holds {stored}"
            );
            assert_eq!(index.index(&stored), i);
            reached.set(i as usize, true);
        });
    }
    // Used slots are exactly the reached ones, and decode to themselves.
    let mut used = 0;
    for i in 0..index.size() {
        let canonical = index.is_canonical_slot(i);
        assert_eq!(canonical, reached[i as usize], "{material}: slot {i}");
        used += canonical as u64;
    }
    assert!(placements >= used);
    (used, index.size())
}

#[test]
fn every_two_piece_material_is_exact() {
    let rules = Ruleset::standard();
    for m in Material::all(2, |_| true) {
        let (used, size) = exhaustive(m, &rules);
        assert_eq!(used, size, "{m}: two-piece indices have no unused slots");
    }
}

#[test]
fn three_piece_materials_exhaustively() {
    let rules = Ruleset::standard();
    let all: Vec<Material> = Material::all(3, |_| true)
        .into_iter()
        .filter(|m| m.piece_count() == 3)
        .collect();
    // Every 7th material: with and without rats, all piece kinds.
    for m in all.iter().step_by(7) {
        let (used, size) = exhaustive(*m, &rules);
        let density = used as f64 / size as f64;
        assert!(density >= 0.95, "{m}: density {density}");
    }
}

#[test]
fn density_of_every_material_up_to_four_pieces_is_at_least_95_percent() {
    let rules = Ruleset::standard();
    let mut worst = 1.0f64;
    for m in Material::all(4, |_| true) {
        let index = PositionIndex::new(m, &rules).unwrap();
        // Sample slots evenly; exact for small tables.
        let step = (index.size() / 20_000).max(1);
        let (mut used, mut seen) = (0u64, 0u64);
        let mut i = 0;
        while i < index.size() {
            used += index.is_canonical_slot(i) as u64;
            seen += 1;
            i += step;
        }
        worst = worst.min(used as f64 / seen as f64);
    }
    assert!(worst >= 0.95, "worst density {worst}");
}

#[test]
fn four_and_five_piece_indices_round_trip_on_samples() {
    let rules = Ruleset::standard();
    for name in ["ELvTR", "RvR", "RTvRL", "LTvPD", "ERvRL"] {
        let m: Material = name.parse::<Material>().unwrap().canonical().0;
        let index = PositionIndex::new(m, &rules).unwrap();
        let step = index.size() / 5000 + 1;
        let mut i = 0;
        while i < index.size() {
            let pos = index.position(i).unwrap();
            pos.validate(&rules).unwrap();
            let j = index.index(&pos);
            assert_eq!(index.index(&pos.mirror()), j);
            if index.white_to_move_only() {
                assert_eq!(index.index(&pos.color_flip()), j);
            }
            if j != i {
                assert!(index.is_canonical_slot(j), "{m}: {i} -> {j}");
            }
            i += step;
        }
    }
}

#[test]
fn non_canonical_materials_are_refused() {
    let m: Material = "RvEL".parse().unwrap();
    assert!(PositionIndex::new(m, &Ruleset::standard()).is_err());
}
