//! Unit tests of the index: exhaustive round trips, the bitboard forms
//! against the plain ones, the colour-swapped index.

use super::*;

fn check_exhaustive(name: &str, rules: &Ruleset) -> (u64, u64) {
    let m: Material = name.parse().unwrap();
    let idx = PositionIndex::new(m, rules).unwrap();
    let mut valid = 0;
    for i in 0..idx.size() {
        let pos = idx.position(i).unwrap();
        pos.validate(rules).unwrap();
        let j = idx.index(&pos);
        assert!(j < idx.size());
        assert_eq!(idx.index(&pos.mirror()), j, "{name}: mirror of {pos}");
        if j == i {
            valid += 1;
        } else {
            // An unused slot maps to a valid one.
            assert_eq!(idx.index(&idx.position(j).unwrap()), j);
        }
    }
    (valid, idx.size())
}

#[test]
fn two_piece_indices_are_exact() {
    let r = Ruleset::standard();
    for name in ["EvR", "RvR", "EvE", "LvP"] {
        let (valid, size) = check_exhaustive(name, &r);
        assert_eq!(valid, size, "{name}");
    }
    let m: Material = "EvR".parse().unwrap();
    // E on 49 squares, R on the 60 others: 2940 placements, of which
    // 7 * 6 lie on file d and are their own mirror; both sides to move.
    let idx = PositionIndex::new(m, &r).unwrap();
    let with_mirror: u64 = (2940 + 7 * 6) / 2 * 2;
    assert_eq!(idx.size(), with_mirror);
}

#[test]
fn three_piece_index_round_trips_and_is_dense() {
    let r = Ruleset::standard();
    for name in ["ELvR", "RvRE", "TvRD"] {
        let m: Material = name.parse::<Material>().unwrap().canonical().0;
        let (valid, size) = check_exhaustive(&m.to_string(), &r);
        let density = valid as f64 / size as f64;
        assert!(density > 0.95, "{name}: density {density}");
    }
}

/// The plain forms of the rest index and of decoding (ranks minus
/// earlier pieces below; stepping over taken ranks): the reference the
/// bitboard forms are checked against.
fn plain_rest_index(idx: &PositionIndex, sq: &[u8]) -> u64 {
    let mut out = 0u64;
    for k in 2..sq.len() {
        let s = sq[k];
        let below = sq[..k].iter().filter(|&&e| e < s).count() as u64;
        let r = idx.sets[k].rank[s as usize] as u64 - below;
        out = out * idx.ranges[k - 2] + r;
    }
    out
}

#[allow(clippy::needless_range_loop)] // the plain form, index by index
fn plain_rest_squares(idx: &PositionIndex, pair: (u8, u8), mut rest: u64) -> Vec<u8> {
    let n = idx.pieces.len();
    let mut digits = vec![0u64; n];
    for k in (2..n).rev() {
        digits[k] = rest % idx.ranges[k - 2];
        rest /= idx.ranges[k - 2];
    }
    let mut sq = vec![pair.0, pair.1];
    for k in 2..n {
        let set = &idx.sets[k];
        let mut taken: Vec<u8> = sq.iter().map(|&e| set.rank[e as usize]).collect();
        taken.sort();
        let mut r = digits[k];
        for &t in &taken {
            if t as u64 <= r {
                r += 1;
            }
        }
        sq.push(set.squares[r as usize]);
    }
    sq
}

#[test]
fn bitboard_index_and_decode_match_the_plain_forms() {
    let r = Ruleset::standard();
    let mut dog = Ruleset::standard();
    dog.apply_override("dog_swims=true").unwrap();
    let mut checked = 0;
    for (name, rules) in [("ELvTR", &r), ("RvRD", &r), ("LRvE", &r), ("DRvW", &dog)] {
        let m: Material = name.parse::<Material>().unwrap().canonical().0;
        let idx = PositionIndex::new(m, rules).unwrap();
        for i in (0..idx.size()).step_by(13) {
            let placement = i % idx.placements;
            let (pair, rest) = (placement / idx.rest_size, placement % idx.rest_size);
            let (a, b, _) = idx.pairs[pair as usize];
            let plain = plain_rest_squares(&idx, (a, b), rest);
            let raw = idx.raw_position(i).unwrap();
            let fast: Vec<u8> = (0..idx.pieces.len())
                .map(|k| raw.squares()[idx.codes[k] as usize])
                .collect();
            assert_eq!(fast, plain, "{name} slot {i}");
            assert_eq!(idx.rest_index(&fast), rest, "{name} slot {i}");
            assert_eq!(plain_rest_index(&idx, &fast), rest, "{name} slot {i}");
            checked += 1;
        }
    }
    assert!(checked > 100_000, "only {checked} slots checked");
}

#[test]
fn color_swapped_index_matches_the_swapped_position() {
    let r = Ruleset::standard();
    for name in ["ELvTR", "RvR", "LRvE", "TRvTR"] {
        let idx = PositionIndex::new(name.parse().unwrap(), &r).unwrap();
        for i in (0..idx.size()).step_by(97) {
            let Some(pos) = idx.canonical_position(i) else {
                continue;
            };
            // The colour swap has the swapped material; indexing it
            // swapped back must land on the original slot.
            let (swapped, side) = color_flip_squares(&pos.raw_squares(), pos.side_to_move());
            assert_eq!(
                idx.index_color_swapped(&swapped, side),
                i,
                "{name} slot {i}"
            );
        }
    }
}

/// Materials whose first two pieces stand on the same squares share one
/// pair index; every 3-piece material's index needs only a few of them,
/// and each equals what its own construction would give (checked by the
/// round trips above, which use the shared copies).
#[test]
fn pair_indexes_are_shared_between_materials() {
    let rules = Ruleset::standard();
    let materials = Material::all(3, |_| true);
    let indexes: Vec<PositionIndex> = materials
        .iter()
        .map(|&m| PositionIndex::new(m, &rules).unwrap())
        .collect();
    let mut distinct: Vec<&Arc<[u16; 64 * 64]>> = Vec::new();
    for idx in &indexes {
        if !distinct.iter().any(|d| Arc::ptr_eq(d, &idx.pair_index)) {
            distinct.push(&idx.pair_index);
        }
    }
    assert!(materials.len() > 100, "{} materials", materials.len());
    assert!(
        distinct.len() * 10 < materials.len(),
        "{} pair indexes for {} materials",
        distinct.len(),
        materials.len()
    );
    let again = PositionIndex::new(materials[7], &rules).unwrap();
    assert!(Arc::ptr_eq(&again.pair_index, &indexes[7].pair_index));
}
