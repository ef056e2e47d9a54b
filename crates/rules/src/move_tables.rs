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

use crate::bitboard::{square_bit, RawMove, RawPosition};
use crate::board::{Board, Direction, Square, NO_SQUARE};
use crate::movegen::{can_capture, path, Move, MoveList};
use crate::piece::{Animal, Color, Piece};
use crate::position::Position;
use crate::ruleset::Ruleset;
use crate::unmove::candidate_origin;
use arrayvec::ArrayVec;

/// One possible move of a piece: the other square and the water squares a
/// jump crosses (all must be empty).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hop {
    pub(crate) square: u8,
    len: u8,
    water: [u8; 3],
    /// The crossed water squares as a bitboard.
    pub(crate) block: u64,
    /// Forward hops: bit `a` set if the piece may capture the opponent's
    /// animal with index `a` standing on `square`.
    pub(crate) captures: u8,
    /// Forward hops: `square` is the opponent's den.
    pub(crate) enters_den: bool,
}

impl Hop {
    fn new(square: Square, crossed: &[u8]) -> Hop {
        let mut water = [NO_SQUARE; 3];
        water[..crossed.len()].copy_from_slice(crossed);
        Hop {
            square: square.index() as u8,
            len: crossed.len() as u8,
            water,
            block: crossed.iter().fold(0, |m, &w| m | square_bit(w)),
            captures: 0,
            enters_den: false,
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
    pub(crate) forward: Vec<Hops>,
    /// `code * 63 + square` → where the piece can have come from by a move
    /// landing there.
    backward: Vec<Hops>,
    /// `code * 63 + square` → the squares of the forward hops that can be
    /// tactical (a capture of some animal, or the den), as a bitboard: a
    /// piece none of whose squares holds an opponent's piece or is the den
    /// has no tactical move (see [`MoveTables::for_each_tactical_move`]).
    tactical_reach: Vec<u64>,
    /// Per colour, its den as a bitboard.
    dens: [u64; 2],
    /// `code * 63 + square` → the squares of all forward hops, with bit 63
    /// ([`HOP_LOOP`]) set if a hop jumps water or enters the den: a piece
    /// without that bit and without an opponent's piece in reach has only
    /// plain steps, counted in one go by [`MoveTables::count_moves`].
    reach: Vec<u64>,
    /// `code` → the squares from which the piece steps into the opponent's
    /// den without crossing water (see [`MoveTables::steps_into_den`]).
    den_steps: [u64; 16],
    /// Colour index → the union of its pieces' `den_steps`: a side with no
    /// piece there has no such step, found with one test.
    den_steps_any: [u64; 2],
}

/// The bit of [`MoveTables`]' `reach` saying a piece's hops must be looked
/// at one by one (square 63 does not exist).
const HOP_LOOP: u64 = 1 << 63;

/// What a forward sweep needs of the quiet moves and den entries of a
/// position: made by [`MoveTables::count_moves`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveCount {
    /// Quiet moves: neither a capture nor a den entry.
    pub quiet: u32,
    /// Some move enters the opponent's den.
    pub enters_den: bool,
}

impl std::fmt::Debug for MoveTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MoveTables")
            .field("rules", &self.rules.label())
            .finish_non_exhaustive()
    }
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
                        let mut hop = Hop::new(to, crossed);
                        let opponent = piece.color.opponent();
                        for (a, &animal) in Animal::ALL.iter().enumerate() {
                            let defender = Piece::new(opponent, animal);
                            if can_capture(rules, board, piece, sq, defender, to) {
                                hop.captures |= 1 << a;
                            }
                        }
                        hop.enters_den = board.is_den_of(to, opponent);
                        forward[slot].push(hop);
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
        let tactical_reach = forward
            .iter()
            .map(|hops| {
                hops.iter()
                    .filter(|h| h.captures != 0 || h.enters_den)
                    .fold(0, |m, h| m | square_bit(h.square))
            })
            .collect();
        let reach = forward
            .iter()
            .map(|hops| {
                hops.iter().fold(0, |m, h| {
                    let slow = if h.block != 0 || h.enters_den {
                        HOP_LOOP
                    } else {
                        0
                    };
                    m | square_bit(h.square) | slow
                })
            })
            .collect();
        let den_steps = std::array::from_fn(|code| {
            Square::all().fold(0, |m, sq| {
                let sure = forward[code * Square::COUNT + sq.index()]
                    .iter()
                    .any(|h| h.enters_den && h.block == 0);
                m | if sure {
                    square_bit(sq.index() as u8)
                } else {
                    0
                }
            })
        });
        let den_steps_any = [0, 1].map(|side| {
            den_steps[side * 8..side * 8 + 8]
                .iter()
                .fold(0, |m, s| m | s)
        });
        MoveTables {
            rules: rules.clone(),
            board,
            reach,
            den_steps,
            den_steps_any,
            forward,
            backward,
            tactical_reach,
            dens: [Color::White, Color::Black].map(|c| {
                Square::all()
                    .filter(|&sq| board.is_den_of(sq, c))
                    .fold(0, |m, sq| m | square_bit(sq.index() as u8))
            }),
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

    /// Calls `f` with every legal move of the side to move in `pos`, in the
    /// order of [`MoveTables::legal_moves`]: the allocation-free fast path
    /// for solvers.
    #[inline]
    pub fn for_each_move(&self, pos: &RawPosition, f: impl FnMut(RawMove)) {
        self.moves::<false>(pos, f);
    }

    /// Calls `f` with every *tactical* legal move of the side to move in
    /// `pos` (a capture, or entering the opponent's den), in the order of
    /// [`MoveTables::for_each_move`]: what the probe-time search of
    /// compressed tables looks at. Most positions have none, and a piece
    /// whose reach holds no opponent's piece and not the den is skipped
    /// without looking at its moves (measured against filtering every
    /// move: 79 fewer instructions per probe of the compressed tables up
    /// to 3 pieces, about 4 % less time).
    #[inline]
    pub fn for_each_tactical_move(&self, pos: &RawPosition, f: impl FnMut(RawMove)) {
        self.moves::<true>(pos, f);
    }

    /// Every legal move, or (`TACTICAL`) only the captures and den entries.
    #[inline(always)]
    fn moves<const TACTICAL: bool>(&self, pos: &RawPosition, mut f: impl FnMut(RawMove)) {
        let side = pos.side_to_move();
        let own = pos.occupied_by(side);
        let theirs = pos.occupied_by(side.opponent());
        let occupied = own | theirs;
        // The squares a tactical hop can target: the opponent's pieces and
        // their den (no piece stands on its own den).
        let targets = theirs | self.dens[side.opponent().index()];
        let base = side.index() * 8;
        for code in base..base + 8 {
            let from = pos.squares()[code];
            if from == NO_SQUARE {
                continue;
            }
            let slot = code * Square::COUNT + from as usize;
            if TACTICAL && self.tactical_reach[slot] & targets == 0 {
                continue;
            }
            for hop in &self.forward[slot] {
                let to = square_bit(hop.square);
                if occupied & hop.block != 0 || own & to != 0 {
                    continue;
                }
                let victim = if theirs & to != 0 {
                    let v = pos
                        .piece_code_at(hop.square, side.opponent())
                        .expect("an opponent's piece");
                    if hop.captures & (1 << (v & 7)) == 0 {
                        continue;
                    }
                    v as u8
                } else if TACTICAL && !hop.enters_den {
                    continue;
                } else {
                    NO_SQUARE
                };
                f(RawMove {
                    code: code as u8,
                    from,
                    to: hop.square,
                    victim,
                    enters_den: hop.enters_den,
                });
            }
        }
    }

    /// The moves of the side to move in `pos` as a forward sweep needs
    /// them: `f` is called with every capture, in the order of
    /// [`MoveTables::for_each_move`]; quiet moves and den entries are only
    /// counted. A piece whose hops are all plain steps and reach no
    /// opponent's piece (most pieces of most positions) costs one
    /// population count instead of a look at each hop.
    ///
    /// Its hop loop repeats `moves`' on purpose: one loop shared through a
    /// per-piece function with a classifying closure cost 6 % more sweep
    /// instructions and 25 % more in `for_each_move`'s callers (callgrind,
    /// ELvET `--one-byte`), ELTvEL's sweep 8.9 → 9.4–10.0 s.
    #[inline]
    pub fn count_moves(&self, pos: &RawPosition, f: impl FnMut(RawMove)) -> MoveCount {
        self.count_moves_among(pos, u16::MAX, f)
    }

    /// [`count_moves`](Self::count_moves) for the pieces whose code's bit
    /// is set in `codes` only.
    #[inline(always)]
    pub fn count_moves_among(
        &self,
        pos: &RawPosition,
        codes: u16,
        mut f: impl FnMut(RawMove),
    ) -> MoveCount {
        let side = pos.side_to_move();
        let own = pos.occupied_by(side);
        let theirs = pos.occupied_by(side.opponent());
        let occupied = own | theirs;
        let mut count = MoveCount::default();
        let base = side.index() * 8;
        for code in base..base + 8 {
            let from = pos.squares()[code];
            if from == NO_SQUARE || codes & 1 << code == 0 {
                continue;
            }
            let slot = code * Square::COUNT + from as usize;
            let reach = self.reach[slot];
            if reach & (theirs | HOP_LOOP) == 0 {
                count.quiet += (reach & !occupied).count_ones();
                continue;
            }
            for hop in &self.forward[slot] {
                let to = square_bit(hop.square);
                if occupied & hop.block != 0 || own & to != 0 {
                    continue;
                }
                if theirs & to != 0 {
                    let v = pos
                        .piece_code_at(hop.square, side.opponent())
                        .expect("an opponent's piece");
                    if hop.captures & (1 << (v & 7)) != 0 {
                        f(RawMove {
                            code: code as u8,
                            from,
                            to: hop.square,
                            victim: v as u8,
                            enters_den: hop.enters_den,
                        });
                    }
                } else if hop.enters_den {
                    count.enters_den = true;
                } else {
                    count.quiet += 1;
                }
            }
        }
        count
    }

    /// True if `side`, whether to move in `pos` or not, has a piece one
    /// step from the opponent's den, the den empty, the step crossing no
    /// water. No move of the other side but a capture of that piece takes
    /// such an entry away: a piece never enters its own den, so it cannot
    /// stand in the way. So when the other side is to move, every quiet
    /// move it has leads to a position `side` wins at once (the one-byte
    /// solve decides such positions in its sweep).
    #[inline]
    pub fn steps_into_den(&self, pos: &RawPosition, side: Color) -> bool {
        self.den_steppers(pos, side) != 0
    }

    /// The pieces of `side` that [`steps_into_den`](Self::steps_into_den)
    /// finds in `pos`, a bit per piece code (the bit `1 << code`): those one
    /// sure step from the opponent's den, the den empty. 0 when there is none.
    #[inline]
    pub fn den_steppers(&self, pos: &RawPosition, side: Color) -> u16 {
        if self.dens[side.opponent().index()] & pos.occupied() != 0
            || self.den_steps_any[side.index()] & pos.occupied_by(side) == 0
        {
            return 0;
        }
        let base = side.index() * 8;
        (base..base + 8).fold(0, |m, code| {
            let sq = pos.squares()[code];
            m | if sq != NO_SQUARE && self.den_steps[code] >> sq & 1 != 0 {
                1 << code
            } else {
                0
            }
        })
    }

    /// The squares from which the piece of code `code` steps into the
    /// opponent's den crossing no water, should the den be empty (see
    /// [`steps_into_den`](Self::steps_into_den)), as a bitboard.
    #[inline]
    pub fn den_steps(&self, code: usize) -> u64 {
        self.den_steps[code & 15]
    }

    /// Calls `f(code, to)` for the quiet moves (neither a capture nor a den
    /// entry) of the side to move in `pos`, in the order of
    /// [`MoveTables::for_each_move`], until `f` returns `false`. True if
    /// it never did: the forward check of a counter-free solver, which
    /// stops at the first successor that is not lost.
    #[inline]
    pub fn all_quiet_moves(&self, pos: &RawPosition, mut f: impl FnMut(usize, u8) -> bool) -> bool {
        let side = pos.side_to_move();
        let occupied = pos.occupied();
        let base = side.index() * 8;
        for code in base..base + 8 {
            let from = pos.squares()[code];
            if from == NO_SQUARE {
                continue;
            }
            for hop in &self.forward[code * Square::COUNT + from as usize] {
                let to = square_bit(hop.square);
                if occupied & (hop.block | to) != 0 || hop.enters_den {
                    continue;
                }
                if !f(code, hop.square) {
                    return false;
                }
            }
        }
        true
    }

    /// Calls `f(code, from)` for every quiet move (no capture) of the side
    /// that just moved that leads to `pos`: the piece with code `code` came
    /// from raw square `from`. Same moves, in the same order, as
    /// [`MoveTables::quiet_unmoves`].
    #[inline]
    pub fn for_each_quiet_unmove(&self, pos: &RawPosition, mut f: impl FnMut(usize, u8)) {
        self.for_each_quiet_unmove_among(pos, u16::MAX, pos.occupied(), |code, from, _| {
            f(code, from)
        });
    }

    /// [`for_each_quiet_unmove`](Self::for_each_quiet_unmove) for the
    /// pieces whose code's bit is set in `codes` only, with the squares of
    /// `occupied` as the ones taken: `f(code, from, clear)` gets the squares
    /// the un-move needs free (`from` and any water crossed), so that a
    /// caller that left a piece out of `occupied` can check that piece's
    /// square against them itself.
    #[inline]
    pub fn for_each_quiet_unmove_among(
        &self,
        pos: &RawPosition,
        codes: u16,
        occupied: u64,
        mut f: impl FnMut(usize, u8, u64),
    ) {
        let base = pos.side_to_move().opponent().index() * 8;
        for code in base..base + 8 {
            let to = pos.squares()[code];
            if to == NO_SQUARE || codes & 1 << code == 0 {
                continue;
            }
            for hop in &self.backward[code * Square::COUNT + to as usize] {
                let clear = hop.block | square_bit(hop.square);
                if occupied & clear == 0 {
                    f(code, hop.square, clear);
                }
            }
        }
    }
}
