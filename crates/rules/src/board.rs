//! Board geometry: squares, directions, and the terrain of each square.

use crate::piece::Color;
use std::fmt;
use std::str::FromStr;

/// Number of files (a–g).
pub const FILES: u8 = 7;
/// Number of ranks (1–9).
pub const RANKS: u8 = 9;

/// A square of the 7×9 board, numbered `rank * 7 + file` (a1 = 0, g9 = 62).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of squares on the board.
    pub const COUNT: usize = 63;

    /// The square on `file` (0 = a) and `rank` (0 = rank 1), if on the board.
    #[inline]
    pub fn new(file: u8, rank: u8) -> Option<Square> {
        (file < FILES && rank < RANKS).then(|| Square(rank * FILES + file))
    }

    /// The square with number `index` (0..63), if on the board.
    #[inline]
    pub fn from_index(index: usize) -> Option<Square> {
        (index < Self::COUNT).then_some(Square(index as u8))
    }

    /// The square number, 0..63.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0 (a) … 6 (g).
    #[inline]
    pub fn file(self) -> u8 {
        self.0 % FILES
    }

    /// Rank 0 (rank 1) … 8 (rank 9).
    #[inline]
    pub fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// The left–right mirror image (file a ↔ g).
    #[inline]
    pub fn mirror(self) -> Square {
        Square(self.rank() * FILES + (FILES - 1 - self.file()))
    }

    /// The rank flip used by the colour swap (rank r ↔ 10 − r).
    #[inline]
    pub fn flip(self) -> Square {
        Square((RANKS - 1 - self.rank()) * FILES + self.file())
    }

    /// The neighbouring square in `dir`, if on the board.
    #[inline]
    pub fn step(self, dir: Direction) -> Option<Square> {
        let (f, r) = (self.file() as i8, self.rank() as i8);
        let (df, dr) = dir.delta();
        let (nf, nr) = (f + df, r + dr);
        if (0..FILES as i8).contains(&nf) && (0..RANKS as i8).contains(&nr) {
            Some(Square(nr as u8 * FILES + nf as u8))
        } else {
            None
        }
    }

    /// Every square, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..Self::COUNT as u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// A square's or a move's text that names no square or no legal move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveTextError {
    /// Not two characters, file then rank.
    NotASquare {
        /// The text.
        text: String,
    },
    /// File or rank outside a..g, 1..9.
    OffBoard {
        /// The text.
        text: String,
    },
    /// Not four characters, from-square then to-square.
    NotAMove {
        /// The text.
        text: String,
    },
    /// Well formed, but not a legal move in the position.
    Illegal {
        /// The text.
        text: String,
    },
}

impl fmt::Display for MoveTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveTextError::NotASquare { text } => {
                write!(f, "'{text}' is not a square (expected e.g. 'a1')")
            }
            MoveTextError::OffBoard { text } => {
                write!(f, "'{text}' is not a square of the 7x9 board (a1..g9)")
            }
            MoveTextError::NotAMove { text } => write!(
                f,
                "'{text}' is not a move (expected from-square and to-square, e.g. a3a4)"
            ),
            MoveTextError::Illegal { text } => {
                write!(f, "{text} is not a legal move in this position")
            }
        }
    }
}

impl std::error::Error for MoveTextError {}

impl FromStr for Square {
    type Err = MoveTextError;
    fn from_str(s: &str) -> Result<Square, MoveTextError> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return Err(MoveTextError::NotASquare { text: s.into() });
        }
        let file = b[0].wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'1');
        Square::new(file, rank).ok_or_else(|| MoveTextError::OffBoard { text: s.into() })
    }
}

/// One of the four orthogonal directions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Towards rank 9.
    North = 0,
    /// Towards rank 1.
    South = 1,
    /// Towards file g.
    East = 2,
    /// Towards file a.
    West = 3,
}

impl Direction {
    /// All four directions.
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::South,
        Direction::East,
        Direction::West,
    ];

    /// (file, rank) step.
    #[inline]
    pub fn delta(self) -> (i8, i8) {
        match self {
            Direction::North => (0, 1),
            Direction::South => (0, -1),
            Direction::East => (1, 0),
            Direction::West => (-1, 0),
        }
    }

    /// 0 (North) … 3 (West), the position in [`Direction::ALL`].
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The opposite direction.
    #[inline]
    pub fn reverse(self) -> Direction {
        match self {
            Direction::North => Direction::South,
            Direction::South => Direction::North,
            Direction::East => Direction::West,
            Direction::West => Direction::East,
        }
    }

    /// True for East and West.
    #[inline]
    pub fn is_horizontal(self) -> bool {
        matches!(self, Direction::East | Direction::West)
    }
}

const WATER: u8 = 1;
const DEN_WHITE: u8 = 2;
const DEN_BLACK: u8 = 4;
const TRAP_WHITE: u8 = 8;
const TRAP_BLACK: u8 = 16;

/// The terrain of every square: water, dens and traps.
///
/// The standard board has two rivers and three traps before each den;
/// Animal Checkers uses a board with dens only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    flags: [u8; Square::COUNT],
    /// Neighbour of each square in each direction (`NO_SQUARE` off the board).
    step: [[u8; 4]; Square::COUNT],
    /// River crossing from each square in each direction, if its neighbour
    /// there is water.
    jump: [[Crossing; 4]; Square::COUNT],
}

/// Raw square → its left–right mirror image ([`Square::mirror`] as a table,
/// for hot loops). 256 entries, so that indexing by a `u8` needs no bounds
/// check; entries from 63 on are unused.
pub static MIRROR_SQUARE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < Square::COUNT {
        let (f, r) = (i % 7, i / 7);
        t[i] = (r * 7 + (6 - f)) as u8;
        i += 1;
    }
    t
};

/// Raw square → the square with its rank flipped (r → 10 − r), the board
/// half of the colour swap ([`Square::flip`] as a table; 256 entries as
/// [`MIRROR_SQUARE`]).
pub static FLIP_SQUARE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < Square::COUNT {
        let (f, r) = (i % 7, i / 7);
        t[i] = ((8 - r) * 7 + f) as u8;
        i += 1;
    }
    t
};

/// The raw square (see [`Square::index`]) that stands for "no square": an
/// absent piece, or no neighbour in the geometry tables.
pub const NO_SQUARE: u8 = 0xFF;

/// A straight crossing of a river: the water squares passed and the land
/// square beyond.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Crossing {
    /// The first land square beyond the water, `NO_SQUARE` if none.
    pub(crate) landing: u8,
    /// Number of water squares crossed.
    pub(crate) len: u8,
    /// The water squares crossed.
    pub(crate) water: [u8; 3],
}

impl Board {
    /// The standard Jungle board (docs/rules.md#the-board).
    pub fn standard() -> Board {
        let mut flags = [0u8; Square::COUNT];
        for sq in Square::all() {
            let (f, r) = (sq.file(), sq.rank());
            if (3..=5).contains(&r) && matches!(f, 1 | 2 | 4 | 5) {
                flags[sq.index()] |= WATER;
            }
        }
        let name = |s: &str| s.parse::<Square>().expect("built-in square").index();
        flags[name("d1")] |= DEN_WHITE;
        flags[name("d9")] |= DEN_BLACK;
        for s in ["c1", "e1", "d2"] {
            flags[name(s)] |= TRAP_WHITE;
        }
        for s in ["c9", "e9", "d8"] {
            flags[name(s)] |= TRAP_BLACK;
        }
        Board::with_terrain(flags)
    }

    /// The Animal Checkers board: dens only, no traps, no rivers.
    pub fn checkers() -> Board {
        let mut flags = Board::standard().flags;
        for f in flags.iter_mut() {
            *f &= DEN_WHITE | DEN_BLACK;
        }
        Board::with_terrain(flags)
    }

    /// Builds the geometry tables for a terrain.
    fn with_terrain(flags: [u8; Square::COUNT]) -> Board {
        let none = Crossing {
            landing: NO_SQUARE,
            len: 0,
            water: [NO_SQUARE; 3],
        };
        let mut b = Board {
            flags,
            step: [[NO_SQUARE; 4]; Square::COUNT],
            jump: [[none; 4]; Square::COUNT],
        };
        for sq in Square::all() {
            for dir in Direction::ALL {
                let Some(next) = sq.step(dir) else { continue };
                b.step[sq.index()][dir.index()] = next.index() as u8;
                if !b.is_water(next) {
                    continue;
                }
                let mut c = none;
                let mut cur = Some(next);
                while let Some(w) = cur.filter(|&w| b.is_water(w)) {
                    if (c.len as usize) < c.water.len() {
                        c.water[c.len as usize] = w.index() as u8;
                    }
                    c.len += 1;
                    cur = w.step(dir);
                }
                if let (Some(land), true) = (cur, c.len <= 3) {
                    c.landing = land.index() as u8;
                    b.jump[sq.index()][dir.index()] = c;
                }
            }
        }
        b
    }

    /// The neighbour of `sq` in `dir` (raw square, `NO_SQUARE` off board).
    #[inline]
    pub(crate) fn step_raw(&self, sq: Square, dir: Direction) -> u8 {
        self.step[sq.index()][dir.index()]
    }

    /// The river crossing from `sq` in `dir`.
    #[inline]
    pub(crate) fn crossing(&self, sq: Square, dir: Direction) -> &Crossing {
        &self.jump[sq.index()][dir.index()]
    }

    /// True if `sq` is water.
    #[inline]
    pub fn is_water(&self, sq: Square) -> bool {
        self.flags[sq.index()] & WATER != 0
    }

    /// True if `sq` is land (not water; dens count as land).
    #[inline]
    pub fn is_land(&self, sq: Square) -> bool {
        !self.is_water(sq)
    }

    /// True if `sq` is the den of `color`.
    #[inline]
    pub fn is_den_of(&self, sq: Square, color: Color) -> bool {
        let bit = match color {
            Color::White => DEN_WHITE,
            Color::Black => DEN_BLACK,
        };
        self.flags[sq.index()] & bit != 0
    }

    /// True if `sq` is either den.
    #[inline]
    pub fn is_den(&self, sq: Square) -> bool {
        self.flags[sq.index()] & (DEN_WHITE | DEN_BLACK) != 0
    }

    /// True if `sq` is one of `color`'s traps.
    #[inline]
    pub fn is_trap_of(&self, sq: Square, color: Color) -> bool {
        let bit = match color {
            Color::White => TRAP_WHITE,
            Color::Black => TRAP_BLACK,
        };
        self.flags[sq.index()] & bit != 0
    }

    /// True if `sq` is a trap of either side.
    #[inline]
    pub fn is_trap(&self, sq: Square) -> bool {
        self.flags[sq.index()] & (TRAP_WHITE | TRAP_BLACK) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_board_counts() {
        let b = Board::standard();
        let water = Square::all().filter(|&s| b.is_water(s)).count();
        let land_not_den = Square::all()
            .filter(|&s| b.is_land(s) && !b.is_den(s))
            .count();
        assert_eq!(water, 12);
        assert_eq!(land_not_den, 49);
        assert!(b.is_den_of("d1".parse().unwrap(), Color::White));
        assert!(b.is_trap_of("d8".parse().unwrap(), Color::Black));
    }

    #[test]
    fn symmetries_are_involutions() {
        let b = Board::standard();
        for s in Square::all() {
            assert_eq!(s.mirror().mirror(), s);
            assert_eq!(s.flip().flip(), s);
            assert_eq!(b.is_water(s), b.is_water(s.mirror()));
            assert_eq!(b.is_water(s), b.is_water(s.flip()));
            assert_eq!(
                b.is_trap_of(s, Color::White),
                b.is_trap_of(s.flip(), Color::Black)
            );
            assert_eq!(
                b.is_den_of(s, Color::White),
                b.is_den_of(s.mirror(), Color::White)
            );
        }
    }

    #[test]
    fn square_names_round_trip() {
        for s in Square::all() {
            assert_eq!(s.to_string().parse::<Square>().unwrap(), s);
        }
        assert!("h1".parse::<Square>().is_err());
        assert!("a0".parse::<Square>().is_err());
        assert!("a10".parse::<Square>().is_err());
    }
}

#[cfg(test)]
mod square_table_tests {
    use super::*;

    #[test]
    fn the_tables_agree_with_square_geometry() {
        for sq in Square::all() {
            assert_eq!(MIRROR_SQUARE[sq.index()] as usize, sq.mirror().index());
            assert_eq!(FLIP_SQUARE[sq.index()] as usize, sq.flip().index());
        }
    }
}
