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

/// The share of used slots among about 20,000 evenly spaced ones (every
/// slot of a small index).
fn sampled_density(index: &PositionIndex) -> f64 {
    let step = (index.size() / 20_000).max(1);
    let (mut used, mut seen) = (0u64, 0u64);
    let mut i = 0;
    while i < index.size() {
        used += index.is_canonical_slot(i) as u64;
        seen += 1;
        i += step;
    }
    used as f64 / seen as f64
}

#[test]
fn density_of_every_material_up_to_four_pieces_is_at_least_95_percent() {
    let rules = Ruleset::standard();
    let mut worst = 1.0f64;
    for m in Material::all(4, |_| true) {
        let index = PositionIndex::new(m, &rules).unwrap();
        worst = worst.min(sampled_density(&index));
    }
    assert!(worst >= 0.95, "worst density {worst}");
}

#[test]
fn four_and_five_piece_indices_round_trip_on_samples() {
    let rules = Ruleset::standard();
    for name in [
        "ELvTR", "RvR", "RTvRL", "LTvPD", "ERvRL", "ELTvRP", "DCRvCR", "ELTPvR", "RvLTPE", "WCRvTR",
    ] {
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

/// Placements of `material`'s pieces (one side to move) and those among
/// them that are their own mirror image (every piece on file d), counted
/// from the square sets alone: no code shared with the index.
fn placement_counts(material: Material, rules: &Ruleset) -> (u64, u64) {
    let board = rules.board();
    let mut sets: Vec<Vec<Square>> = material
        .pieces()
        .iter()
        .map(|&p| {
            Square::all()
                .filter(|&s| rules.may_stand(board, p, s))
                .collect()
        })
        .collect();
    sets.sort_by_key(|s| s.len());
    // Nested sets (land squares within land + water): the k-th piece has
    // k squares of its set taken by the pieces before.
    for w in sets.windows(2) {
        assert!(w[0].iter().all(|s| w[1].contains(s)));
    }
    let (mut all, mut fixed) = (1u64, 1u64);
    for (k, set) in sets.iter().enumerate() {
        all *= set.len() as u64 - k as u64;
        let on_d = set.iter().filter(|s| s.file() == 3).count() as u64;
        fixed *= on_d.saturating_sub(k as u64);
    }
    (all, fixed)
}

/// A 5-piece index exhaustively: every slot decodes to a valid position,
/// every used slot is the index of its own position, and the used slots
/// number exactly the positions up to symmetry (Burnside: (placements +
/// mirror-fixed placements) / 2 per side to move stored). Index ∘ decode is
/// the identity on used slots, so decoding is injective into the classes;
/// with equal counts it is a bijection.
#[test]
fn a_five_piece_index_is_a_bijection_exhaustively() {
    let rules = Ruleset::standard();
    let m: Material = "ELTvDW".parse::<Material>().unwrap().canonical().0;
    let index = PositionIndex::new(m, &rules).unwrap();
    let size = index.size();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()) as u64;
    let used: u64 = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let index = &index;
                let rules = &rules;
                scope.spawn(move || {
                    let mut used = 0u64;
                    let (lo, hi) = (size * t / threads, size * (t + 1) / threads);
                    for i in lo..hi {
                        let raw = index.raw_position(i).unwrap();
                        let j = index.index_squares(raw.squares(), raw.side_to_move());
                        assert!(j < size, "{m}: slot {i} -> {j}");
                        if j == i {
                            used += 1;
                        } else {
                            // An unused slot: its position lives at slot j.
                            assert!(index.is_canonical_slot(j), "{m}: {i} -> {j}");
                        }
                        if i % 4099 == 0 {
                            raw.to_position().validate(rules).unwrap();
                        }
                    }
                    used
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    let (placements, fixed) = placement_counts(m, &rules);
    let sides = if index.white_to_move_only() { 1 } else { 2 };
    assert_eq!(
        used,
        sides * (placements + fixed) / 2,
        "{m}: used slots vs classes"
    );
    let density = used as f64 / size as f64;
    assert!(density >= 0.95, "{m}: density {density}");
}

#[test]
fn five_piece_densities_are_at_least_95_percent() {
    let rules = Ruleset::standard();
    // Every 50th 5-piece material (all piece kinds, with and without Rats),
    // sampled slots; the used count is checked against the classes on the
    // smallest.
    let five: Vec<Material> = Material::all(5, |_| true)
        .into_iter()
        .filter(|m| m.piece_count() == 5)
        .collect();
    assert!(five.len() > 2000, "{} five-piece materials", five.len());
    let mut worst = 1.0f64;
    for m in five.iter().step_by(50) {
        let index = PositionIndex::new(*m, &rules).unwrap();
        worst = worst.min(sampled_density(&index));
        // The expected density from the counts alone.
        let (placements, fixed) = placement_counts(*m, &rules);
        let sides = if index.white_to_move_only() { 1 } else { 2 };
        let exact = (sides * (placements + fixed) / 2) as f64 / index.size() as f64;
        assert!(exact >= 0.95, "{m}: density {exact}");
    }
    assert!(worst >= 0.95, "worst sampled density {worst}");
}

#[test]
fn a_material_too_large_for_any_index_is_refused_not_overflowed() {
    use jungletb_indexer::{IndexError, Material, PositionIndex};
    use jungletb_rules::Ruleset;
    // 16 pieces: more slots than a u64 holds (the product once overflowed:
    // a panic with overflow checks, a wrong small count without).
    let all: Material = "ELTPDWCRvELTPDWCR".parse().unwrap();
    match PositionIndex::new(all, &Ruleset::standard()) {
        Err(IndexError::TooLarge { slots, .. }) => assert_eq!(slots, u64::MAX),
        other => panic!("{other:?}"),
    }
    // 8 pieces: the slots fit a u64, but the placements of the six pieces
    // after the first two do not fit the 32 bits decoding divides in.
    let eight: Material = "ELTPvELTP".parse().unwrap();
    match PositionIndex::new(eight, &Ruleset::standard()) {
        Err(IndexError::TooLarge { slots, .. }) => {
            assert!(slots > 1 << 40 && slots < u64::MAX, "{slots}")
        }
        other => panic!("{other:?}"),
    }
}

/// Every 6- and 7-piece material has an index (the error's "up to 7
/// pieces fit"), and the largest 6-piece ones have more than 2^33 slots,
/// so that their placements take the 64-bit decoding path.
#[test]
fn every_material_up_to_seven_pieces_has_an_index() {
    let rules = Ruleset::standard();
    let mut largest = (0u64, None);
    let mut seven = 0;
    for m in Material::all(7, |_| true) {
        if m.piece_count() < 6 {
            continue;
        }
        let index = PositionIndex::new(m, &rules).unwrap_or_else(|e| panic!("{m}: {e}"));
        if m.piece_count() == 6 && index.size() > largest.0 {
            largest = (index.size(), Some(m));
        }
        seven += (m.piece_count() == 7) as u32;
    }
    assert!(seven > 5000, "{seven} seven-piece materials");
    assert!(largest.0 > 1 << 33, "largest 6-piece index {largest:?}");
}

/// Random placements of `material` with `side` to move (valid squares, no
/// two on one square), from a small generator of its own.
fn random_positions(material: Material, rules: &Ruleset, n: usize, seed: u64) -> Vec<Position> {
    let mut state = seed;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize
    };
    let board = rules.board();
    let squares: Vec<Square> = Square::all().collect();
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let side = if next() % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mut pos = Position::empty(side);
        for p in material.pieces() {
            loop {
                let s = squares[next() % squares.len()];
                if pos.is_empty(s) && rules.may_stand(board, p, s) {
                    pos.put(p, s);
                    break;
                }
            }
        }
        out.push(pos);
    }
    out
}

/// 6-piece indices, the largest among them (slots beyond 2^33) included:
/// a random position's slot decodes to a position of its symmetry class
/// (positions to slots and back), sampled slots across the whole range,
/// the last ones and those around 2^32 included, decode to valid positions
/// whose slot is the same or a used one (slots to positions and back), and
/// the sampled density is at least 0.95.
#[test]
fn six_piece_indices_round_trip_beyond_two_to_the_32() {
    let rules = Ruleset::standard();
    let largest = Material::all(6, |_| true)
        .into_iter()
        .filter(|m| m.piece_count() == 6)
        .max_by_key(|m| PositionIndex::new(*m, &rules).unwrap().size())
        .unwrap();
    let names = [
        "ELTvELT", "ELTPvDW", "RCvELTP", "ELTRvCR", "DWCRvLR", "LTPDvWC",
    ];
    for m in names
        .iter()
        .map(|n| n.parse::<Material>().unwrap().canonical().0)
        .chain([largest])
    {
        let index = PositionIndex::new(m, &rules).unwrap();
        let size = index.size();
        assert!(size > 1 << 32, "{m}: {size} slots");
        for pos in random_positions(m, &rules, 3000, size) {
            let j = index.index(&pos);
            assert!(j < size, "{m}: {j}");
            let back = index.position(j).unwrap();
            let class = [pos, pos.mirror()];
            let same = class.contains(&back)
                || index.white_to_move_only()
                    && class
                        .iter()
                        .any(|p| p.color_flip() == back || p.color_flip().mirror() == back);
            assert!(same, "{m}: {pos:?} -> {j} -> {back:?}");
        }
        let edges = [
            0,
            (1 << 32) - 1,
            1 << 32,
            (1 << 32) + 1,
            size / 2,
            size - 2,
            size - 1,
        ];
        let step = size / 3000;
        for i in (0..size)
            .step_by(step as usize)
            .chain(edges.into_iter().filter(|&i| i < size))
        {
            let pos = index.position(i).unwrap();
            pos.validate(&rules).unwrap();
            let j = index.index(&pos);
            assert!(j == i || index.is_canonical_slot(j), "{m}: {i} -> {j}");
        }
        assert_eq!(index.position(size), None);
        let density = sampled_density(&index);
        assert!(density >= 0.95, "{m}: density {density}");
    }
}
