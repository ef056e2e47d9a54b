//! Move generation and capture rules (docs/rules.md#moves-the-standard-rule-set and #captures).

use crate::board::{Board, Direction, MoveTextError, Square, NO_SQUARE};
use crate::piece::{Animal, Piece};
use crate::position::Position;
use crate::ruleset::{ElephantCapturesRat, Ruleset};
use arrayvec::ArrayVec;
use std::fmt;

/// A move: a piece goes from `from` to `to` (a step or a river jump),
/// capturing `captured` if the target square held an enemy piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// The square the piece leaves.
    pub from: Square,
    /// The square the piece lands on.
    pub to: Square,
    /// The enemy animal taken on `to`, if any.
    pub captured: Option<Animal>,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

/// A list of moves. No position has more than 32 (8 pieces × 4 directions),
/// so this never allocates.
pub type MoveList = ArrayVec<Move, 32>;

/// Where `piece` on `from` lands when it moves in `dir` (a step, a swim or a
/// river jump), and the water squares a jump crosses (which must be empty),
/// from the board and the rules alone. `None` if no such move exists.
#[inline]
pub(crate) fn path<'b>(
    rules: &Ruleset,
    board: &'b Board,
    piece: Piece,
    from: Square,
    dir: Direction,
) -> Option<(Square, &'b [u8])> {
    let next = board.step_raw(from, dir);
    if next == NO_SQUARE {
        return None;
    }
    let next = Square::from_index(next as usize)?;
    let (to, crossed): (Square, &'b [u8]) = if board.is_water(next) {
        if rules.swims(piece.animal) {
            (next, &[])
        } else {
            let axes = rules.jump_axes(piece.animal);
            let allowed = if dir.is_horizontal() {
                axes.horizontal
            } else {
                axes.vertical
            };
            if !allowed || board.is_water(from) {
                return None;
            }
            let c = board.crossing(from, dir);
            if c.landing == NO_SQUARE {
                return None;
            }
            (
                Square::from_index(c.landing as usize)?,
                &c.water[..c.len as usize],
            )
        }
    } else {
        (next, &[])
    };
    if board.is_den_of(to, piece.color) {
        return None;
    }
    if let Some(max) = rules.trap_entry_max_rank {
        if board.is_trap(to) && rules.rank(piece.animal) > max {
            return None;
        }
    }
    Some((to, crossed))
}

/// Where `piece` on `from` lands when it moves in `dir` in `pos`, ignoring
/// what stands on the landing square: [`path`] plus the rule that a swimmer
/// in the river blocks a jump.
#[inline]
pub(crate) fn destination(
    pos: &Position,
    rules: &Ruleset,
    board: &Board,
    piece: Piece,
    from: Square,
    dir: Direction,
) -> Option<Square> {
    let (to, crossed) = path(rules, board, piece, from, dir)?;
    crossed.iter().all(|&w| pos.is_empty_raw(w)).then_some(to)
}

/// May `attacker` standing on `from` capture `defender` standing on `to`?
/// (docs/rules.md#captures.)
#[inline]
pub(crate) fn can_capture(
    rules: &Ruleset,
    board: &Board,
    attacker: Piece,
    from: Square,
    defender: Piece,
    to: Square,
) -> bool {
    let (from_water, to_water) = (board.is_water(from), board.is_water(to));
    if from_water || to_water {
        let (a, d) = (attacker.animal, defender.animal);
        if a == Animal::Rat && d == Animal::Elephant {
            return from_water && rules.water_rat_captures_elephant;
        }
        // Only swimmers (the Rat; the Dog too with `dog_swims`) fight across
        // or in the water, under the Rat's water's-edge options and ranks.
        if !rules.swims(a) || !rules.swims(d) {
            return false;
        }
        let edge = match (from_water, to_water) {
            (true, true) => true,
            (true, false) => rules.water_rat_captures_land_rat,
            _ => rules.land_rat_captures_water_rat,
        };
        let defence = if rules.is_trapped(board, to, defender.color) {
            0
        } else {
            rules.rank(d)
        };
        return edge && rules.rank(a) >= defence;
    }
    if attacker.animal == Animal::Elephant && defender.animal == Animal::Rat {
        match rules.elephant_captures_rat {
            ElephantCapturesRat::Always => {}
            ElephantCapturesRat::OnTrapOnly => return rules.is_trapped(board, to, defender.color),
            ElephantCapturesRat::Never => return false,
        }
    }
    if rules.is_trapped(board, to, defender.color) {
        return true;
    }
    if attacker.animal == Animal::Rat && defender.animal == Animal::Elephant {
        return true;
    }
    rules.rank(attacker.animal) >= rules.rank(defender.animal)
}

/// The move of `piece` from `from` in `dir`, if legal in `pos`.
#[inline]
pub(crate) fn move_in_direction(
    pos: &Position,
    rules: &Ruleset,
    board: &Board,
    piece: Piece,
    from: Square,
    dir: Direction,
) -> Option<Move> {
    let to = destination(pos, rules, board, piece, from, dir)?;
    match pos.piece_at(to) {
        None => Some(Move {
            from,
            to,
            captured: None,
        }),
        Some(target) if target.color != piece.color => {
            can_capture(rules, board, piece, from, target, to).then_some(Move {
                from,
                to,
                captured: Some(target.animal),
            })
        }
        Some(_) => None,
    }
}

impl Position {
    /// Every legal move of the side to move. Empty if it has no legal move
    /// (or the game is over because it has no pieces).
    pub fn legal_moves(&self, rules: &Ruleset) -> MoveList {
        let board = rules.board();
        let mut list = MoveList::new();
        let side = self.side_to_move();
        for a in 0..8 {
            let piece = Piece::new(side, Animal::ALL[a]);
            let raw = self.raw_square(piece.code());
            if raw == NO_SQUARE {
                continue;
            }
            let from = Square::from_index(raw as usize).expect("valid square");
            for dir in Direction::ALL {
                if let Some(mv) = move_in_direction(self, rules, board, piece, from, dir) {
                    list.push(mv);
                }
            }
        }
        list
    }

    /// The texts of every legal move (`a3a4`), sorted: the move list as
    /// move-generator checks compare it (`rules --fingerprint`, the
    /// move-generator suite).
    pub fn legal_move_texts(&self, rules: &Ruleset) -> Vec<String> {
        let mut moves: Vec<String> = self
            .legal_moves(rules)
            .iter()
            .map(|m| m.to_string())
            .collect();
        moves.sort();
        moves
    }

    /// True if `mv` ends the game in the mover's favour at once: it enters
    /// the enemy den or captures the opponent's last piece.
    #[inline]
    pub fn is_winning_move(&self, rules: &Ruleset, mv: &Move) -> bool {
        let side = self.side_to_move();
        rules.board().is_den_of(mv.to, side.opponent())
            || (mv.captured.is_some() && self.count(side.opponent()) == 1)
    }

    /// The position after `mv` (which must be legal here), with the other
    /// side to move.
    #[inline]
    pub fn play(&self, mv: &Move) -> Position {
        let mut next = *self;
        let piece = next.remove(mv.from).expect("a piece on the from-square");
        next.remove(mv.to);
        next.put(piece, mv.to);
        next.set_side_to_move(self.side_to_move().opponent());
        next
    }

    /// Finds the legal move written `text` (e.g. `a3a4`, or `b3b7` for a
    /// jump).
    pub fn parse_move(&self, rules: &Ruleset, text: &str) -> Result<Move, MoveTextError> {
        let text = text.trim();
        if text.len() != 4 || !text.is_ascii() {
            return Err(MoveTextError::NotAMove { text: text.into() });
        }
        let from: Square = text[..2].parse()?;
        let to: Square = text[2..].parse()?;
        self.legal_moves(rules)
            .into_iter()
            .find(|m| m.from == from && m.to == to)
            .ok_or_else(|| MoveTextError::Illegal { text: text.into() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Color;

    fn moves(fen: &str, rules: &Ruleset) -> Vec<String> {
        let pos: Position = fen.parse().unwrap();
        let mut v: Vec<String> = pos
            .legal_moves(rules)
            .iter()
            .map(|m| m.to_string())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn lion_jumps_both_axes_unless_a_rat_blocks() {
        let r = Ruleset::standard();
        // Lion on a4 jumps to d4 across b4-c4; Lion on b3 jumps to b7.
        assert!(moves("7/7/7/7/7/L6/7/7/7 w", &r).contains(&"a4d4".to_string()));
        assert!(moves("7/7/7/7/7/7/1L5/7/7 w", &r).contains(&"b3b7".to_string()));
        // A rat of either colour in the river blocks the jump.
        assert!(!moves("7/7/7/1r5/7/7/1L5/7/7 w", &r).contains(&"b3b7".to_string()));
        assert!(!moves("7/7/7/7/7/L1R4/7/7/7 w", &r).contains(&"a4d4".to_string()));
    }

    #[test]
    fn no_piece_enters_its_own_den() {
        let r = Ruleset::standard();
        let m = moves("7/7/7/7/7/7/7/7/2E4 w", &r); // E on c1, den d1 to the east
        assert!(!m.contains(&"c1d1".to_string()));
        let m = moves("2e4/7/7/7/7/7/7/7/7 w", &r);
        assert!(m.is_empty(), "it is White's move and White has no pieces");
    }

    #[test]
    fn rat_and_elephant() {
        let r = Ruleset::standard();
        let pos: Position = "7/7/7/7/7/7/7/7/Re5 w".parse().unwrap();
        let m = pos.legal_moves(&r);
        assert!(m
            .iter()
            .any(|m| m.to.to_string() == "b1" && m.captured == Some(Animal::Elephant)));
        let pos: Position = "7/7/7/7/7/7/7/7/Er5 w".parse().unwrap();
        assert!(pos.legal_moves(&r).iter().any(|m| m.captured.is_some()));
        // popular: Elephant takes the Rat only on the Elephant's side's trap.
        assert!(!pos
            .legal_moves(&Ruleset::popular())
            .iter()
            .any(|m| m.captured.is_some()));
        let on_trap: Position = "7/7/7/7/7/7/7/7/1Er4 w".parse().unwrap(); // r on c1 (White trap)
        assert!(on_trap
            .legal_moves(&Ruleset::popular())
            .iter()
            .any(|m| m.captured.is_some()));
        // A Rat in the water never takes the Elephant on land.
        let water: Position = "7/7/7/7/7/1R5/1e5/7/7 w".parse().unwrap();
        assert!(!water.legal_moves(&r).iter().any(|m| m.captured.is_some()));
    }

    #[test]
    fn rat_captures_across_the_waters_edge() {
        // White rat on land a4, black rat in water b4.
        let pos: Position = "7/7/7/7/7/Rr5/7/7/7 w".parse().unwrap();
        let cap = |r: &Ruleset| pos.legal_moves(r).iter().any(|m| m.captured.is_some());
        assert!(!cap(&Ruleset::standard()));
        assert!(cap(&Ruleset::leiden()));
        assert!(!cap(&Ruleset::popular()));
        // White rat in water b4, black rat on land a4.
        let pos: Position = "7/7/7/7/7/rR5/7/7/7 w".parse().unwrap();
        let cap = |r: &Ruleset| pos.legal_moves(r).iter().any(|m| m.captured.is_some());
        assert!(cap(&Ruleset::standard()));
        assert!(cap(&Ruleset::leiden()));
        assert!(!cap(&Ruleset::popular()));
    }

    #[test]
    fn traps_make_defenders_weak() {
        let r = Ruleset::standard();
        // Black elephant on White's trap d2; White rat on d3 may take it anyway,
        // White cat likewise.
        let pos: Position = "7/7/7/7/7/7/3C3/3e3/7 w".parse().unwrap();
        assert!(pos
            .legal_moves(&r)
            .iter()
            .any(|m| m.captured == Some(Animal::Elephant)));
        // On its own trap the elephant is safe from the cat.
        let pos: Position = "7/3e3/3C3/7/7/7/7/7/7 w".parse().unwrap(); // e on d8 = Black trap
        assert!(!pos.legal_moves(&r).iter().any(|m| m.captured.is_some()));
        assert_eq!(pos.side_to_move(), Color::White);
    }

    #[test]
    fn winning_moves() {
        let r = Ruleset::standard();
        let pos: Position = "2E4/7/7/7/7/7/7/7/6r w".parse().unwrap();
        let m = pos.parse_move(&r, "c9d9").unwrap();
        assert!(pos.is_winning_move(&r, &m));
        let pos: Position = "7/7/7/7/7/7/7/7/Er5 w".parse().unwrap();
        let m = pos.parse_move(&r, "a1b1").unwrap();
        assert!(pos.is_winning_move(&r, &m));
        assert!(pos.parse_move(&r, "a1a3").is_err());
        assert!(pos.parse_move(&r, "zz").is_err());
    }
}
