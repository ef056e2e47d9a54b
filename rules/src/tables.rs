//! Precomputed move tables: the fast path of move and un-move generation.
//!
//! Everything about a move except what stands on the board is fixed by the
//! rule set: where a piece on a square can go in each direction, which water
//! squares a jump crosses, which squares it may not enter. [`MoveTables`]
//! computes that once per rule set, so generating moves reduces to a few
//! table reads and occupancy checks. Its results are identical, move for
//! move and in the same order, to [`Position::legal_moves`] and
//! [`Position::unmoves`] (tested on random positions), which stay the plain
//! reference implementation.

use crate::board::{Board, Direction, Square, NO_SQUARE};
use crate::movegen::{can_capture, path, Move, MoveList};
use crate::piece::{Animal, Piece};
use crate::position::Position;
use crate::ruleset::Ruleset;
use crate::unmove::candidate_origin;
use arrayvec::ArrayVec;

/// One possible move of a piece: the other square and the water squares a
/// jump crosses (all must be empty).
#[derive(Clone, Copy, Debug)]
struct Hop {
    square: u8,
    len: u8,
    water: [u8; 3],
}

impl Hop {
    fn new(square: Square, crossed: &[u8]) -> Hop {
        let mut water = [NO_SQUARE; 3];
        water[..crossed.len()].copy_from_slice(crossed);
        Hop {
            square: square.index() as u8,
            len: crossed.len() as u8,
            water,
        }
    }

    #[inline]
    fn clear(&self, pos: &Position) -> bool {
        self.water[..self.len as usize]
            .iter()
            .all(|&w| pos.is_empty_raw(w))
    }
}

type Hops = ArrayVec<Hop, 4>;

/// Move geometry of one rule set, for every piece and square.
pub struct MoveTables {
    rules: Ruleset,
    board: &'static Board,
    /// `code * 63 + square` → where the piece can move from there.
    forward: Vec<Hops>,
    /// `code * 63 + square` → where the piece can have come from by a move
    /// landing there.
    backward: Vec<Hops>,
}

impl MoveTables {
    /// Builds the tables for `rules`.
    pub fn new(rules: &Ruleset) -> MoveTables {
        let board = rules.board();
        let mut forward = vec![Hops::new(); 16 * Square::COUNT];
        let mut backward = vec![Hops::new(); 16 * Square::COUNT];
        for code in 0..16 {
            let piece = Piece::from_code(code);
            for sq in Square::all() {
                if !rules.may_stand(board, piece, sq) {
                    continue;
                }
                let slot = code * Square::COUNT + sq.index();
                for dir in Direction::ALL {
                    if let Some((to, crossed)) = path(rules, board, piece, sq, dir) {
                        forward[slot].push(Hop::new(to, crossed));
                    }
                    // Origins of a move ending here, found as in
                    // `Position::unmoves` and confirmed by the forward rules.
                    let Some(from) = candidate_origin(rules, board, piece, sq, dir) else {
                        continue;
                    };
                    if let Some((to, crossed)) = path(rules, board, piece, from, dir.reverse()) {
                        if to == sq {
                            backward[slot].push(Hop::new(from, crossed));
                        }
                    }
                }
            }
        }
        MoveTables {
            rules: rules.clone(),
            board,
            forward,
            backward,
        }
    }

    /// The rule set.
    pub fn rules(&self) -> &Ruleset {
        &self.rules
    }

    /// Every legal move of the side to move: the same list, in the same
    /// order, as [`Position::legal_moves`].
    #[inline]
    pub fn legal_moves(&self, pos: &Position) -> MoveList {
        let mut list = MoveList::new();
        let side = pos.side_to_move();
        for a in 0..8 {
            let piece = Piece::new(side, Animal::ALL[a]);
            let raw = pos.raw_square(piece.code());
            if raw == NO_SQUARE {
                continue;
            }
            let from = Square::from_index(raw as usize).expect("valid square");
            for hop in &self.forward[piece.code() * Square::COUNT + raw as usize] {
                if !hop.clear(pos) {
                    continue;
                }
                let to = Square::from_index(hop.square as usize).expect("valid square");
                match pos.piece_at(to) {
                    None => list.push(Move {
                        from,
                        to,
                        captured: None,
                    }),
                    Some(target) if target.color != side => {
                        if can_capture(&self.rules, self.board, piece, from, target, to) {
                            list.push(Move {
                                from,
                                to,
                                captured: Some(target.animal),
                            });
                        }
                    }
                    Some(_) => {}
                }
            }
        }
        list
    }

    /// Every quiet move (no capture) of the side that just moved that leads
    /// to `pos`: the same list, in the same order, as
    /// `pos.unmoves(rules, None)`.
    #[inline]
    pub fn quiet_unmoves(&self, pos: &Position) -> MoveList {
        let mut list = MoveList::new();
        let mover = pos.side_to_move().opponent();
        for a in 0..8 {
            let piece = Piece::new(mover, Animal::ALL[a]);
            let raw = pos.raw_square(piece.code());
            if raw == NO_SQUARE {
                continue;
            }
            let to = Square::from_index(raw as usize).expect("valid square");
            for hop in &self.backward[piece.code() * Square::COUNT + raw as usize] {
                if pos.is_empty_raw(hop.square) && hop.clear(pos) {
                    list.push(Move {
                        from: Square::from_index(hop.square as usize).expect("valid square"),
                        to,
                        captured: None,
                    });
                }
            }
        }
        list
    }
}
