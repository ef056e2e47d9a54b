//! Un-move generation: the predecessors of a position, for retrograde analysis.

use crate::board::{Board, Direction, Square, NO_SQUARE};
use crate::movegen::{can_capture, destination, Move, MoveList};
use crate::piece::{Animal, Piece};
use crate::position::Position;
use crate::ruleset::Ruleset;

/// Where `piece` can have come from to land on `to` by a move in direction
/// `dir.reverse()`: the neighbour in `dir`, or for a jump the first land
/// square beyond the river in `dir`; `None` if the piece cannot stand
/// there. The forward rules must still confirm the move.
#[inline]
pub(crate) fn candidate_origin(
    rules: &Ruleset,
    board: &Board,
    piece: Piece,
    to: Square,
    dir: Direction,
) -> Option<Square> {
    let next = board.step_raw(to, dir);
    if next == NO_SQUARE {
        return None;
    }
    let mut from = Square::from_index(next as usize)?;
    if board.is_water(from) && !rules.swims(piece.animal) {
        let c = board.crossing(to, dir);
        if c.landing == NO_SQUARE {
            return None;
        }
        from = Square::from_index(c.landing as usize)?;
    }
    rules.may_stand(board, piece, from).then_some(from)
}

impl Position {
    /// Every move of the side that just moved (the opponent of the side to
    /// move) that leads to this position.
    ///
    /// With `uncapture = Some(animal)`, the moves are captures that took a
    /// piece `animal` of the side to move on the landing square; with `None`
    /// they are quiet moves. [`Position::unplay`] gives the position before
    /// each move. The position must not be game over.
    pub fn unmoves(&self, rules: &Ruleset, uncapture: Option<Animal>) -> MoveList {
        let board = rules.board();
        let mut list = MoveList::new();
        let mover = self.side_to_move().opponent();
        let victim = uncapture.map(|a| Piece::new(self.side_to_move(), a));
        if let Some(v) = victim {
            if self.square_of(v).is_some() {
                return list;
            }
        }
        for a in 0..8 {
            let piece = Piece::new(mover, Animal::ALL[a]);
            let Some(to) = self.square_of(piece) else {
                continue;
            };
            if let Some(v) = victim {
                if !rules.may_stand(board, v, to) {
                    continue;
                }
            }
            for dir in Direction::ALL {
                let Some(from) = candidate_origin(rules, board, piece, to, dir) else {
                    continue;
                };
                if !self.is_empty(from) {
                    continue;
                }
                let mv = Move {
                    from,
                    to,
                    captured: uncapture,
                };
                let before = self.unplay(&mv);
                // The forward rules decide: the same code that generates moves.
                if destination(&before, rules, board, piece, from, dir.reverse()) != Some(to) {
                    continue;
                }
                if let Some(v) = victim {
                    if !can_capture(rules, board, piece, from, v, to) {
                        continue;
                    }
                }
                list.push(mv);
            }
        }
        list
    }

    /// The position before `mv` was played: the moved piece goes back to
    /// `mv.from`, a captured piece reappears on `mv.to`, and the mover is to
    /// move again.
    pub fn unplay(&self, mv: &Move) -> Position {
        let mut before = *self;
        let piece = before
            .remove(mv.to)
            .expect("the moved piece stands on mv.to");
        before.put(piece, mv.from);
        if let Some(a) = mv.captured {
            before.put(Piece::new(piece.color.opponent(), a), mv.to);
        }
        before.set_side_to_move(piece.color);
        before
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unmoves_invert_moves_on_the_start_position() {
        let r = Ruleset::standard();
        let start = Position::start();
        for mv in start.legal_moves(&r) {
            let after = start.play(&mv);
            let back = after.unmoves(&r, mv.captured);
            assert!(back.iter().any(|u| after.unplay(u) == start), "{mv}");
        }
    }
}
