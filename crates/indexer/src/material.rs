//! Materials: which pieces each side has.

use jungletb_rules::{Animal, Color, Piece, Position};
use std::fmt;
use std::str::FromStr;

/// A material name that does not parse, or masks that make no material.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MaterialError {
    /// The text given (empty for masks).
    pub given: String,
    /// What is wrong with it.
    pub why: String,
}

impl fmt::Display for MaterialError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.given.is_empty() {
            write!(f, "unknown material: {}", self.why)
        } else {
            write!(f, "unknown material: '{}': {}", self.given, self.why)
        }
    }
}

impl std::error::Error for MaterialError {}

/// The pieces of both sides, as two bit masks (bit `animal.index()`).
///
/// Named White's letters strongest first, `v`, Black's letters strongest
/// first: `ELvR`. Both sides have at least one piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    white: u8,
    black: u8,
}

impl Material {
    /// The order `stats` and the site list materials in, strongest
    /// first: fewer pieces first, then White's animals, then Black's,
    /// compared strongest animal first (`ELvR` before `ETvR`): an animal
    /// mask has the Elephant in its highest bit, so a larger mask has the
    /// stronger animals.
    pub fn strongest_first(&self) -> (u32, std::cmp::Reverse<(u8, u8)>) {
        (
            self.piece_count(),
            std::cmp::Reverse((self.mask(Color::White), self.mask(Color::Black))),
        )
    }

    /// A material from the two animal masks. Both must be non-empty.
    pub fn new(white: u8, black: u8) -> Result<Material, MaterialError> {
        if white == 0 || black == 0 {
            return Err(MaterialError {
                given: String::new(),
                why: "each side needs at least one piece (with none the game is over)".into(),
            });
        }
        Ok(Material { white, black })
    }

    /// The material of a position, `None` if a side has no pieces.
    pub fn of_position(pos: &Position) -> Option<Material> {
        Material::new(pos.mask(Color::White), pos.mask(Color::Black)).ok()
    }

    /// The animal mask of `color`.
    #[inline]
    pub fn mask(self, color: Color) -> u8 {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// A dense code, `white * 256 + black`, for array lookups.
    #[inline]
    pub fn code(self) -> usize {
        self.white as usize * 256 + self.black as usize
    }

    /// Total number of pieces.
    pub fn piece_count(self) -> u32 {
        self.white.count_ones() + self.black.count_ones()
    }

    /// True if both sides have the same animals.
    pub fn is_symmetric(self) -> bool {
        self.white == self.black
    }

    /// The material with colours swapped (`ELvR` → `RvEL`).
    pub fn flipped(self) -> Material {
        Material {
            white: self.black,
            black: self.white,
        }
    }

    /// True if this is the material tables are stored under: the side with
    /// more pieces (then the stronger set) is White.
    pub fn is_canonical(self) -> bool {
        (self.white.count_ones(), self.white) >= (self.black.count_ones(), self.black)
    }

    /// The canonical material and whether the colours had to be swapped.
    pub fn canonical(self) -> (Material, bool) {
        if self.is_canonical() {
            (self, false)
        } else {
            (self.flipped(), true)
        }
    }

    /// All pieces: White strongest first, then Black strongest first.
    pub fn pieces(self) -> Vec<Piece> {
        let mut v = Vec::new();
        for color in Color::ALL {
            for a in Animal::ALL.iter().rev() {
                if self.mask(color) & (1 << a.index()) != 0 {
                    v.push(Piece::new(color, *a));
                }
            }
        }
        v
    }

    /// True if the material contains `piece`.
    pub fn contains(self, piece: Piece) -> bool {
        self.mask(piece.color) & (1 << piece.animal.index()) != 0
    }

    /// The material after `piece` is captured, `None` if that ends the game
    /// (the side's last piece) or the piece is absent.
    pub fn without(self, piece: Piece) -> Option<Material> {
        if !self.contains(piece) {
            return None;
        }
        let bit = !(1u8 << piece.animal.index());
        match piece.color {
            Color::White => Material::new(self.white & bit, self.black),
            Color::Black => Material::new(self.white, self.black & bit),
        }
        .ok()
    }

    /// The canonical materials reachable by one capture.
    pub fn sub_materials(self) -> Vec<Material> {
        let mut v: Vec<Material> = self
            .pieces()
            .into_iter()
            .filter_map(|p| self.without(p))
            .map(|m| m.canonical().0)
            .collect();
        v.sort();
        v.dedup();
        v
    }

    /// Every canonical material with 2..=`max_pieces` pieces whose animals
    /// all satisfy `allowed`, in dependency order (fewer pieces first).
    pub fn all(max_pieces: u32, allowed: impl Fn(Animal) -> bool) -> Vec<Material> {
        let ok_mask = Animal::ALL
            .iter()
            .filter(|&&a| allowed(a))
            .fold(0u8, |m, a| m | (1 << a.index()));
        let mut v = Vec::new();
        for w in 1..=255u8 {
            for b in 1..=255u8 {
                let m = Material { white: w, black: b };
                if w & !ok_mask == 0
                    && b & !ok_mask == 0
                    && m.piece_count() <= max_pieces
                    && m.is_canonical()
                {
                    v.push(m);
                }
            }
        }
        sort_dependency_order(&mut v);
        v
    }

    /// `materials` and everything they depend on (recursively), canonical,
    /// in dependency order.
    pub fn with_dependencies(materials: &[Material]) -> Vec<Material> {
        let mut out: Vec<Material> = Vec::new();
        let mut stack: Vec<Material> = materials.iter().map(|m| m.canonical().0).collect();
        while let Some(m) = stack.pop() {
            if !out.contains(&m) {
                out.push(m);
                stack.extend(m.sub_materials());
            }
        }
        sort_dependency_order(&mut out);
        out
    }
}

/// Orders materials so each comes after every material it depends on:
/// captures always remove a piece, so sorting by piece count suffices; the
/// name breaks ties for a stable order.
fn sort_dependency_order(v: &mut [Material]) {
    v.sort_by_key(|m| (m.piece_count(), m.to_string()));
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |mask: u8| -> String {
            Animal::ALL
                .iter()
                .rev()
                .filter(|a| mask & (1 << a.index()) != 0)
                .map(|a| a.letter())
                .collect()
        };
        write!(f, "{}v{}", side(self.white), side(self.black))
    }
}

impl fmt::Debug for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Material({self})")
    }
}

impl FromStr for Material {
    type Err = MaterialError;

    /// Parses `ELvR` (letters in any order, either case; each animal at most
    /// once a side).
    fn from_str(s: &str) -> Result<Material, MaterialError> {
        let bad = |why: &str| MaterialError {
            given: s.to_string(),
            why: why.to_string(),
        };
        let (w, b) = s
            .split_once(['v', 'V'])
            .ok_or_else(|| bad("expected White's letters, 'v', Black's letters (e.g. ELvR)"))?;
        let parse_side = |text: &str| -> Result<u8, MaterialError> {
            let mut mask = 0u8;
            for c in text.chars() {
                let a = Animal::from_letter(c)
                    .ok_or_else(|| bad(&format!("'{c}' is not an animal letter (RCWDPTLE)")))?;
                if mask & (1 << a.index()) != 0 {
                    return Err(bad(&format!("the {} appears twice on one side", a.name())));
                }
                mask |= 1 << a.index();
            }
            if mask == 0 {
                return Err(bad("each side needs at least one piece"));
            }
            Ok(mask)
        };
        Material::new(parse_side(w)?, parse_side(b)?).map_err(|e| MaterialError {
            given: s.to_string(),
            why: e.why,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_canonical_form() {
        let m: Material = "ELvR".parse().unwrap();
        assert_eq!(m.to_string(), "ELvR");
        assert!(m.is_canonical());
        assert_eq!(m.flipped().to_string(), "RvEL");
        assert!(!m.flipped().is_canonical());
        assert_eq!("le v r".replace(' ', "").parse::<Material>().unwrap(), m);
        assert!("EvE".parse::<Material>().unwrap().is_symmetric());
        for bad in ["E", "vR", "Ev", "ExvR", "EEvR", "XvR", ""] {
            assert!(bad.parse::<Material>().is_err(), "{bad}");
        }
    }

    #[test]
    fn counts_of_materials() {
        let all = Material::all(3, |_| true);
        let two = all.iter().filter(|m| m.piece_count() == 2).count();
        let three = all.iter().filter(|m| m.piece_count() == 3).count();
        // 64 ordered 2-piece materials: 8 symmetric + 28 pairs; 448 ordered
        // 3-piece materials, none symmetric.
        assert_eq!(two, 36);
        assert_eq!(three, 224);
        // Dependency order: every sub-material comes earlier.
        for (i, m) in all.iter().enumerate() {
            for s in m.sub_materials() {
                assert!(all[..i].contains(&s), "{s} must precede {m}");
            }
        }
    }

    #[test]
    fn sub_materials_after_a_capture() {
        let m: Material = "ELvR".parse().unwrap();
        let subs: Vec<String> = m.sub_materials().iter().map(|m| m.to_string()).collect();
        assert_eq!(subs.len(), 2);
        assert!(subs.contains(&"EvR".to_string()) && subs.contains(&"LvR".to_string()));
        let deps = Material::with_dependencies(&[m.flipped()]);
        assert_eq!(deps.last(), Some(&m));
        assert_eq!(deps.len(), 3);
    }
}
