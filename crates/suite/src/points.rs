//! Rule points: the circumstances of a move that Jungle programs get
//! wrong, named from the board alone.
//!
//! A point says what a move *is* (a river jump with the enemy Rat in the
//! water, the Elephant taking the Rat on a trap), never whether it is
//! legal: legality is the move generator's answer, and the rule set's. The
//! same description serves the suite (which positions to keep: each
//! point, allowed and refused) and the check (which rule a wrong move
//! touches).

use jungletb_rules::{Animal, Board, Direction, Piece, Position, Ruleset, Square};
use std::fmt;

/// One rule point. [`Point::ALL`] lists them in the order reports use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Point {
    /// The start position.
    StartPosition,
    /// A position from a random game from the start.
    Playout,
    /// The side to move has pieces but no legal move.
    NoLegalMove,
    /// A step onto a piece of the mover's own side.
    OntoOwnPiece,
    /// A step into the mover's own den.
    IntoOwnDen,
    /// A step into the enemy den (it wins).
    IntoEnemyDen,
    /// A step onto a trap.
    OntoTrap,
    /// A piece that neither swims nor jumps there steps into the water.
    IntoWater,
    /// The Rat steps into or along the water.
    RatSwims,
    /// The Dog steps into or along the water.
    DogSwims,
    /// A piece steps out of the water onto land.
    OutOfWater,
    /// The Lion crosses a river lengthways.
    LionJumpsLengthways,
    /// The Lion crosses a river sideways.
    LionJumpsSideways,
    /// The Tiger crosses a river lengthways.
    TigerJumpsLengthways,
    /// The Tiger crosses a river sideways.
    TigerJumpsSideways,
    /// The Panther crosses a river lengthways.
    PantherJumpsLengthways,
    /// The Panther crosses a river sideways.
    PantherJumpsSideways,
    /// Another animal crosses a river.
    OtherAnimalJumps,
    /// A river jump with the mover's own Rat in the water crossed.
    JumpBlockedByOwnRat,
    /// A river jump with the enemy Rat in the water crossed.
    JumpBlockedByEnemyRat,
    /// A river jump with a Dog in the water crossed.
    JumpBlockedByDog,
    /// A river jump that lands on an enemy piece.
    JumpCaptures,
    /// A capture of a lower-ranked piece.
    TakesLowerRank,
    /// A capture of an equally ranked piece.
    TakesEqualRank,
    /// A capture of a higher-ranked piece.
    TakesHigherRank,
    /// A capture of a piece standing on a trap of the mover's side.
    TakesOnMoversTrap,
    /// A capture of a piece standing on a trap of its own side.
    TakesOnOwnTrap,
    /// The Rat takes the Elephant, both on land.
    RatTakesElephant,
    /// The Rat takes the Elephant from the water.
    WaterRatTakesElephant,
    /// The Elephant takes the Rat.
    ElephantTakesRat,
    /// A Rat in the water takes a Rat on land.
    WaterRatTakesLandRat,
    /// A Rat on land takes a Rat in the water.
    LandRatTakesWaterRat,
    /// A Rat takes a Rat, both in the water.
    RatsFightInWater,
    /// A capture from land into the water, or from the water onto land,
    /// other than Rat against Rat or the Rat taking the Elephant.
    CaptureAcrossTheShore,
    /// The Lion and the Tiger fight.
    LionAndTiger,
    /// The Wolf and the Dog fight.
    WolfAndDog,
    /// A capture of the enemy's last piece (it wins).
    TakesLastPiece,
}

impl Point {
    /// Every point, in report order.
    pub const ALL: [Point; 37] = [
        Point::StartPosition,
        Point::Playout,
        Point::NoLegalMove,
        Point::OntoOwnPiece,
        Point::IntoOwnDen,
        Point::IntoEnemyDen,
        Point::OntoTrap,
        Point::IntoWater,
        Point::RatSwims,
        Point::DogSwims,
        Point::OutOfWater,
        Point::LionJumpsLengthways,
        Point::LionJumpsSideways,
        Point::TigerJumpsLengthways,
        Point::TigerJumpsSideways,
        Point::PantherJumpsLengthways,
        Point::PantherJumpsSideways,
        Point::OtherAnimalJumps,
        Point::JumpBlockedByOwnRat,
        Point::JumpBlockedByEnemyRat,
        Point::JumpBlockedByDog,
        Point::JumpCaptures,
        Point::TakesLowerRank,
        Point::TakesEqualRank,
        Point::TakesHigherRank,
        Point::TakesOnMoversTrap,
        Point::TakesOnOwnTrap,
        Point::RatTakesElephant,
        Point::WaterRatTakesElephant,
        Point::ElephantTakesRat,
        Point::WaterRatTakesLandRat,
        Point::LandRatTakesWaterRat,
        Point::RatsFightInWater,
        Point::CaptureAcrossTheShore,
        Point::LionAndTiger,
        Point::WolfAndDog,
        Point::TakesLastPiece,
    ];

    /// The point as the suite's lines and reports write it.
    pub fn text(self) -> &'static str {
        match self {
            Point::StartPosition => "start position",
            Point::Playout => "random playout",
            Point::NoLegalMove => "no legal move",
            Point::OntoOwnPiece => "onto an own piece",
            Point::IntoOwnDen => "into the own den",
            Point::IntoEnemyDen => "into the enemy den",
            Point::OntoTrap => "onto a trap",
            Point::IntoWater => "a non-swimmer into the water",
            Point::RatSwims => "the Rat swims",
            Point::DogSwims => "the Dog into the water",
            Point::OutOfWater => "out of the water",
            Point::LionJumpsLengthways => "Lion jumps lengthways",
            Point::LionJumpsSideways => "Lion jumps sideways",
            Point::TigerJumpsLengthways => "Tiger jumps lengthways",
            Point::TigerJumpsSideways => "Tiger jumps sideways",
            Point::PantherJumpsLengthways => "Panther jumps lengthways",
            Point::PantherJumpsSideways => "Panther jumps sideways",
            Point::OtherAnimalJumps => "another animal jumps",
            Point::JumpBlockedByOwnRat => "jump over an own Rat",
            Point::JumpBlockedByEnemyRat => "jump over the enemy Rat",
            Point::JumpBlockedByDog => "jump over a swimming Dog",
            Point::JumpCaptures => "jump onto an enemy",
            Point::TakesLowerRank => "takes a lower rank",
            Point::TakesEqualRank => "takes an equal rank",
            Point::TakesHigherRank => "takes a higher rank",
            Point::TakesOnMoversTrap => "takes on the mover's trap",
            Point::TakesOnOwnTrap => "takes on the victim's own trap",
            Point::RatTakesElephant => "Rat takes Elephant on land",
            Point::WaterRatTakesElephant => "Rat in the water takes Elephant",
            Point::ElephantTakesRat => "Elephant takes Rat",
            Point::WaterRatTakesLandRat => "Rat in the water takes Rat on land",
            Point::LandRatTakesWaterRat => "Rat on land takes Rat in the water",
            Point::RatsFightInWater => "Rat takes Rat in the water",
            Point::CaptureAcrossTheShore => "capture across the shore",
            Point::LionAndTiger => "Lion and Tiger fight",
            Point::WolfAndDog => "Wolf and Dog fight",
            Point::TakesLastPiece => "takes the last piece",
        }
    }

    /// The point written `text`, as [`Point::text`] writes it.
    pub fn from_text(text: &str) -> Option<Point> {
        Point::ALL.into_iter().find(|p| p.text() == text)
    }

    /// The rule options that decide moves of this point (`--rule NAME`),
    /// if any: where a program that differs here may simply play other
    /// rules.
    pub fn options(self) -> &'static [&'static str] {
        match self {
            Point::NoLegalMove => &["no_move"],
            Point::OntoTrap => &["trap_entry_max_rank"],
            Point::DogSwims => &["dog_swims"],
            Point::LionJumpsLengthways
            | Point::LionJumpsSideways
            | Point::TigerJumpsLengthways
            | Point::TigerJumpsSideways
            | Point::PantherJumpsLengthways
            | Point::PantherJumpsSideways => &["jumpers"],
            Point::TakesOnOwnTrap => &["universal_traps"],
            Point::WaterRatTakesElephant => &["water_rat_captures_elephant"],
            Point::ElephantTakesRat => &["elephant_captures_rat"],
            Point::WaterRatTakesLandRat => &["water_rat_captures_land_rat"],
            Point::LandRatTakesWaterRat => &["land_rat_captures_water_rat"],
            Point::LionAndTiger => &["lion_tiger_equal", "tiger_outranks_lion"],
            Point::WolfAndDog => &["wolf_outranks_dog"],
            _ => &[],
        }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

/// A move a program might make: a piece of the side to move going from
/// `from` to `to` by a step or a straight river crossing, legal or not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The square left.
    pub from: Square,
    /// The square reached.
    pub to: Square,
    /// What the move is.
    pub points: Vec<Point>,
}

impl Candidate {
    /// The move's text (`a3a4`).
    pub fn text(&self) -> String {
        format!("{}{}", self.from, self.to)
    }
}

/// Every move a program might make in `pos`: each piece of the side to
/// move one square in each direction and, where that square is water,
/// straight across the river to the land beyond (both, for a piece that
/// could swim or jump), with their points. Legal or not.
pub fn candidates(pos: &Position, rules: &Ruleset) -> Vec<Candidate> {
    let board = rules.board();
    let side = pos.side_to_move();
    let mut out = Vec::new();
    for (piece, from) in pos.pieces_of(side) {
        for dir in Direction::ALL {
            let Some(next) = from.step(dir) else { continue };
            out.push(describe(pos, rules, piece, from, next));
            if board.is_water(next) && !board.is_water(from) {
                if let Some(landing) = across(board, next, dir) {
                    out.push(describe(pos, rules, piece, from, landing));
                }
            }
        }
    }
    out
}

/// The points of the move written `text` in `pos` (as [`candidates`]
/// describes it), or `None` if it is no step or river crossing of a piece
/// of the side to move.
pub fn points_of_move(pos: &Position, rules: &Ruleset, text: &str) -> Option<Vec<Point>> {
    candidates(pos, rules)
        .into_iter()
        .find(|c| c.text() == text)
        .map(|c| c.points)
}

/// The first land square from `water` on in `dir`, if the board has one.
fn across(board: &Board, water: Square, dir: Direction) -> Option<Square> {
    let mut sq = water;
    while board.is_water(sq) {
        sq = sq.step(dir)?;
    }
    Some(sq)
}

/// The water squares strictly between `from` and `to` on a straight line.
fn between(board: &Board, from: Square, to: Square) -> Vec<Square> {
    let (df, dr) = (
        (to.file() as i8 - from.file() as i8).signum(),
        (to.rank() as i8 - from.rank() as i8).signum(),
    );
    let dir = Direction::ALL
        .into_iter()
        .find(|d| d.delta() == (df, dr))
        .expect("a straight line");
    let mut out = Vec::new();
    let mut sq = from.step(dir).expect("on the board");
    while sq != to {
        if board.is_water(sq) {
            out.push(sq);
        }
        sq = sq.step(dir).expect("on the board");
    }
    out
}

/// The points of `piece` going from `from` to `to` in `pos`.
fn describe(pos: &Position, rules: &Ruleset, piece: Piece, from: Square, to: Square) -> Candidate {
    let board = rules.board();
    let mut points = Vec::new();
    let jump = from.index().abs_diff(to.index()) != 1 && from.index().abs_diff(to.index()) != 7;
    let (wf, wt) = (board.is_water(from), board.is_water(to));
    if jump {
        let sideways = from.rank() == to.rank();
        points.push(match (piece.animal, sideways) {
            (Animal::Lion, false) => Point::LionJumpsLengthways,
            (Animal::Lion, true) => Point::LionJumpsSideways,
            (Animal::Tiger, false) => Point::TigerJumpsLengthways,
            (Animal::Tiger, true) => Point::TigerJumpsSideways,
            (Animal::Panther, false) => Point::PantherJumpsLengthways,
            (Animal::Panther, true) => Point::PantherJumpsSideways,
            _ => Point::OtherAnimalJumps,
        });
        for sq in between(board, from, to) {
            match pos.piece_at(sq) {
                Some(p) if p.animal == Animal::Rat && p.color == piece.color => {
                    points.push(Point::JumpBlockedByOwnRat)
                }
                Some(p) if p.animal == Animal::Rat => points.push(Point::JumpBlockedByEnemyRat),
                Some(_) => points.push(Point::JumpBlockedByDog),
                None => {}
            }
        }
    } else if wt {
        points.push(match piece.animal {
            Animal::Rat => Point::RatSwims,
            Animal::Dog => Point::DogSwims,
            _ => Point::IntoWater,
        });
    } else if wf {
        points.push(Point::OutOfWater);
    }
    if board.is_den_of(to, piece.color) {
        points.push(Point::IntoOwnDen);
    } else if board.is_den(to) {
        points.push(Point::IntoEnemyDen);
    }
    if board.is_trap(to) {
        points.push(Point::OntoTrap);
    }
    match pos.piece_at(to) {
        Some(target) if target.color == piece.color => points.push(Point::OntoOwnPiece),
        Some(target) => {
            if jump {
                points.push(Point::JumpCaptures);
            }
            capture_points(rules, board, piece, target, from, to, &mut points);
            if pos.count(target.color) == 1 {
                points.push(Point::TakesLastPiece);
            }
        }
        None => {}
    }
    Candidate { from, to, points }
}

/// The points of `piece` on `from` taking `target` on `to`.
fn capture_points(
    rules: &Ruleset,
    board: &Board,
    piece: Piece,
    target: Piece,
    from: Square,
    to: Square,
    points: &mut Vec<Point>,
) {
    use std::cmp::Ordering::*;
    let (a, d) = (piece.animal, target.animal);
    points.push(match rules.rank(a).cmp(&rules.rank(d)) {
        Greater => Point::TakesLowerRank,
        Equal => Point::TakesEqualRank,
        Less => Point::TakesHigherRank,
    });
    if board.is_trap_of(to, piece.color) {
        points.push(Point::TakesOnMoversTrap);
    } else if board.is_trap_of(to, target.color) {
        points.push(Point::TakesOnOwnTrap);
    }
    let (wf, wt) = (board.is_water(from), board.is_water(to));
    points.push(match (a, d, wf, wt) {
        (Animal::Rat, Animal::Elephant, false, false) => Point::RatTakesElephant,
        (Animal::Rat, Animal::Elephant, true, _) => Point::WaterRatTakesElephant,
        (Animal::Elephant, Animal::Rat, _, _) => Point::ElephantTakesRat,
        (Animal::Rat, Animal::Rat, true, false) => Point::WaterRatTakesLandRat,
        (Animal::Rat, Animal::Rat, false, true) => Point::LandRatTakesWaterRat,
        (Animal::Rat, Animal::Rat, true, true) => Point::RatsFightInWater,
        (_, _, true, false) | (_, _, false, true) => Point::CaptureAcrossTheShore,
        (Animal::Lion, Animal::Tiger, ..) | (Animal::Tiger, Animal::Lion, ..) => {
            Point::LionAndTiger
        }
        (Animal::Wolf, Animal::Dog, ..) | (Animal::Dog, Animal::Wolf, ..) => Point::WolfAndDog,
        _ => return,
    });
}
