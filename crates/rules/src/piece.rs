//! Colours, animals and pieces.

use std::fmt;

/// A side. White (upper case, at the bottom) moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The side at the bottom, upper-case letters, moves first.
    White = 0,
    /// The side at the top, lower-case letters.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other side.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// `White` or `Black`.
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }

    /// The notation letter for the side to move: `w` or `b`.
    pub fn letter(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

/// The eight animals, weakest first. The discriminant is the animal's index
/// (`rank - 1` in the standard order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Animal {
    /// Rank 1; may swim and capture the Elephant.
    Rat = 0,
    /// Rank 2.
    Cat = 1,
    /// Rank 3.
    Wolf = 2,
    /// Rank 4.
    Dog = 3,
    /// Rank 5 (also called Leopard).
    Panther = 4,
    /// Rank 6; jumps rivers.
    Tiger = 5,
    /// Rank 7; jumps rivers.
    Lion = 6,
    /// Rank 8.
    Elephant = 7,
}

impl Animal {
    /// All animals, weakest first.
    pub const ALL: [Animal; 8] = [
        Animal::Rat,
        Animal::Cat,
        Animal::Wolf,
        Animal::Dog,
        Animal::Panther,
        Animal::Tiger,
        Animal::Lion,
        Animal::Elephant,
    ];

    /// Index 0 (Rat) … 7 (Elephant).
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The animal with index `i` (0..8).
    #[inline]
    pub fn from_index(i: usize) -> Option<Animal> {
        Animal::ALL.get(i).copied()
    }

    /// The standard rank: 1 (Rat) … 8 (Elephant).
    #[inline]
    pub fn standard_rank(self) -> u8 {
        self as u8 + 1
    }

    /// The upper-case letter of the animal.
    pub fn letter(self) -> char {
        b"RCWDPTLE"[self.index()] as char
    }

    /// The animal for a letter of either case.
    pub fn from_letter(c: char) -> Option<Animal> {
        let up = c.to_ascii_uppercase();
        Animal::ALL.iter().copied().find(|a| a.letter() == up)
    }

    /// The English name.
    pub fn name(self) -> &'static str {
        [
            "Rat", "Cat", "Wolf", "Dog", "Panther", "Tiger", "Lion", "Elephant",
        ][self.index()]
    }

    /// The animal of an English name, in any case: `Panther` or its other
    /// name `Leopard` (which many sets print), `Elephant`, …
    pub fn from_name(name: &str) -> Option<Animal> {
        let name = name.trim();
        if name.eq_ignore_ascii_case("leopard") {
            return Some(Animal::Panther);
        }
        Animal::ALL
            .iter()
            .copied()
            .find(|a| a.name().eq_ignore_ascii_case(name))
    }
}

/// A coloured animal. Its code `color * 8 + animal` (0..16) is used as an
/// array index throughout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    /// The owner.
    pub color: Color,
    /// The animal.
    pub animal: Animal,
}

impl Piece {
    /// A piece of `color`.
    pub fn new(color: Color, animal: Animal) -> Piece {
        Piece { color, animal }
    }

    /// `color * 8 + animal`, 0..16.
    #[inline]
    pub fn code(self) -> usize {
        self.color.index() * 8 + self.animal.index()
    }

    /// The piece with code `code` (0..16).
    #[inline]
    pub fn from_code(code: usize) -> Piece {
        let color = if code < 8 { Color::White } else { Color::Black };
        Piece {
            color,
            animal: Animal::ALL[code & 7],
        }
    }

    /// The notation letter: upper case for White, lower case for Black.
    pub fn letter(self) -> char {
        match self.color {
            Color::White => self.animal.letter(),
            Color::Black => self.animal.letter().to_ascii_lowercase(),
        }
    }

    /// The piece for a notation letter.
    pub fn from_letter(c: char) -> Option<Piece> {
        let animal = Animal::from_letter(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, animal })
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}
