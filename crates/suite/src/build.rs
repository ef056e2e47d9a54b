//! Building a suite: which positions, and what they answer.
//!
//! The positions, in this order: the start position; the positions that
//! tell rule sets apart (`jungletb rules --fingerprint`); sparse positions
//! drawn at random and kept while they add a rule point not yet met
//! [`PER_POINT`] times as a legal move and as an illegal one; positions
//! with no legal move; and positions of random games from the start. The
//! random numbers come from a fixed seed through SplitMix64, written here
//! so that a suite is the same on every machine and every build.

use crate::line::Line;
use crate::points::{candidates, Point};
use jungletb_rules::{
    perft, Animal, Color, Piece, Position, Ruleset, Square, FINGERPRINT_POSITIONS,
};
use std::collections::BTreeMap;

/// How often each rule point is met as a legal move, and as an illegal
/// one, before sparse positions stop being kept for it.
pub const PER_POINT: usize = 4;

/// Sparse positions drawn before the search for rule points stops.
const DRAWS: usize = 400_000;

/// Random games from the start, and the plies at which their positions
/// are kept.
const GAMES: usize = 8;
const GAME_PLIES: [usize; 4] = [6, 14, 30, 60];

/// The suite of `rules`: every line, in order.
pub fn suite(rules: &Ruleset) -> Vec<Line> {
    let mut kept: Vec<(Position, Vec<Point>, u32)> = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    let mut keep = |pos: Position, extra: Option<Point>, depth: u32, kept: &mut Vec<_>| {
        if pos.validate_reachable(rules).is_err() || pos.is_game_over(rules) {
            return false;
        }
        if !seen.insert(pos.to_string()) {
            return false;
        }
        let mut points = position_points(&pos, rules);
        points.extend(extra);
        points.sort();
        points.dedup();
        kept.push((pos, points, depth));
        true
    };
    keep(Position::start(), Some(Point::StartPosition), 5, &mut kept);
    for (text, _) in FINGERPRINT_POSITIONS {
        let pos: Position = text.parse().expect("a fingerprint position");
        keep(pos, None, 3, &mut kept);
    }
    // Sparse positions, kept while they meet a (point, legal) pair not yet
    // met PER_POINT times.
    let mut met: BTreeMap<(Point, bool), usize> = BTreeMap::new();
    let mut rng = SplitMix64(0x6a75_6e67_6c65_7462);
    let mut no_move = 0;
    for _ in 0..DRAWS {
        let Some(pos) = sparse_position(&mut rng, rules) else {
            continue;
        };
        if pos.validate(rules).is_err() || pos.is_game_over(rules) {
            continue;
        }
        let legal = pos.legal_moves(rules);
        let pairs: Vec<(Point, bool)> = candidates(&pos, rules)
            .into_iter()
            .flat_map(|c| {
                let ok = legal.iter().any(|m| m.from == c.from && m.to == c.to);
                c.points.into_iter().map(move |p| (p, ok))
            })
            .collect();
        let stuck = legal.is_empty() && no_move < PER_POINT;
        let adds = pairs
            .iter()
            .any(|p| met.get(p).copied().unwrap_or(0) < PER_POINT);
        if (stuck || adds) && keep(pos, None, 3, &mut kept) {
            no_move += stuck as usize;
            let mut pairs = pairs;
            pairs.sort();
            pairs.dedup();
            for p in pairs {
                *met.entry(p).or_default() += 1;
            }
        }
    }
    // Positions with no legal move are rare among sparse ones: a lone
    // piece is boxed in by enemies it cannot take.
    for _ in 0..DRAWS {
        if no_move >= PER_POINT {
            break;
        }
        let Some(pos) = boxed_in(&mut rng, rules) else {
            continue;
        };
        if pos.legal_moves(rules).is_empty() && keep(pos, None, 3, &mut kept) {
            no_move += 1;
        }
    }
    for _ in 0..GAMES {
        let mut pos = Position::start();
        for ply in 1..=*GAME_PLIES.last().expect("plies") {
            let moves: Vec<_> = pos
                .legal_moves(rules)
                .into_iter()
                .filter(|m| !pos.is_winning_move(rules, m))
                .collect();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[rng.below(moves.len())]);
            if GAME_PLIES.contains(&ply) {
                keep(pos, Some(Point::Playout), 3 + (ply == 6) as u32, &mut kept);
            }
        }
    }
    kept.into_iter()
        .map(|(pos, points, depth)| answer(&pos, rules, &points, depth))
        .collect()
}

/// The line of `pos`: its legal moves, perft to `depth` and `points`.
pub fn answer(pos: &Position, rules: &Ruleset, points: &[Point], depth: u32) -> Line {
    let moves = pos.legal_move_texts(rules);
    Line {
        position: pos.to_string(),
        rules: Some(rules.label()),
        moves: Some(moves),
        perft: (1..=depth)
            .map(|d| (d.to_string(), perft(pos, rules, d)))
            .collect(),
        points: points.iter().map(|p| p.text().to_string()).collect(),
    }
}

/// The rule points of `pos`: those of every move a program might make
/// there (see [`candidates`]), and [`Point::NoLegalMove`] if it has none.
pub fn position_points(pos: &Position, rules: &Ruleset) -> Vec<Point> {
    let mut points: Vec<Point> = candidates(pos, rules)
        .into_iter()
        .flat_map(|c| c.points)
        .collect();
    if pos.legal_moves(rules).is_empty() {
        points.push(Point::NoLegalMove);
    }
    points.sort();
    points.dedup();
    points
}

/// A position of 2 to 6 pieces on squares where they may stand, each
/// side with one at least, or `None` if the draw put two on one square.
fn sparse_position(rng: &mut SplitMix64, rules: &Ruleset) -> Option<Position> {
    let side = if rng.below(2) == 0 {
        Color::White
    } else {
        Color::Black
    };
    let mut pos = Position::empty(side);
    let count = 2 + rng.below(5);
    let animals: Vec<Animal> = Animal::ALL
        .into_iter()
        .filter(|&a| rules.animal_allowed(a))
        .collect();
    for k in 0..count {
        let color = match k {
            0 => Color::White,
            1 => Color::Black,
            _ if rng.below(2) == 0 => Color::White,
            _ => Color::Black,
        };
        let piece = Piece::new(color, animals[rng.below(animals.len())]);
        let sq = Square::from_index(rng.below(Square::COUNT))?;
        if pos.square_of(piece).is_some() || !pos.is_empty(sq) {
            return None;
        }
        if !rules.may_stand(rules.board(), piece, sq) {
            return None;
        }
        pos.put(piece, sq);
    }
    Some(pos)
}

/// A lone piece of the side to move with an enemy piece on each square
/// next to it, or `None` if the draw does not make one.
fn boxed_in(rng: &mut SplitMix64, rules: &Ruleset) -> Option<Position> {
    let board = rules.board();
    let side = if rng.below(2) == 0 {
        Color::White
    } else {
        Color::Black
    };
    let animals: Vec<Animal> = Animal::ALL
        .into_iter()
        .filter(|&a| rules.animal_allowed(a))
        .collect();
    let piece = Piece::new(side, animals[rng.below(animals.len())]);
    let sq = Square::from_index(rng.below(Square::COUNT))?;
    if !rules.may_stand(board, piece, sq) {
        return None;
    }
    let mut pos = Position::empty(side);
    pos.put(piece, sq);
    for dir in jungletb_rules::Direction::ALL {
        let Some(next) = sq.step(dir) else { continue };
        let enemy = Piece::new(side.opponent(), animals[rng.below(animals.len())]);
        if pos.square_of(enemy).is_some() || !rules.may_stand(board, enemy, next) {
            continue;
        }
        pos.put(enemy, next);
    }
    Some(pos)
}

/// SplitMix64 (Steele, Lea and Flood, 2014): the suite's random numbers,
/// the same on every machine.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` small: the bias is below 2^-50).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
