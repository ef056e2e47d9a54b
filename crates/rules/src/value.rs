//! Game-theoretic values with distances (docs/rules.md#values-and-distances).

use std::cmp::Ordering;
use std::fmt;

/// Win, draw or loss for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wdl {
    /// The side to move loses.
    Loss = -1,
    /// Neither side can force a win.
    Draw = 0,
    /// The side to move wins.
    Win = 1,
}

impl Wdl {
    /// The value for the other side: a win for one side is a loss for the
    /// other.
    #[inline]
    pub fn negate(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }
}

/// The value of a position for the side to move, with the distance in plies
/// to the end of the game under optimal play (the winner takes the shortest
/// win, the loser the longest loss).
///
/// Wins have odd distances (a move that wins at once is `Win(1)`), losses
/// even ones (a side with no legal move is `Loss(0)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins in this many plies.
    Win(u16),
    /// The side to move loses in this many plies.
    Loss(u16),
    /// Neither side can force a win.
    Draw,
}

impl Value {
    /// The value of a position whose best move leads to a position of value
    /// `child` (for the opponent): one ply further, sides exchanged.
    #[inline]
    pub fn from_child(child: Value) -> Value {
        match child {
            Value::Win(n) => Value::Loss(n + 1),
            Value::Loss(n) => Value::Win(n + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// The inverse of [`Value::from_child`]: the value, for the opponent,
    /// of the position a move of value `self` leads to (one ply closer,
    /// sides exchanged; a move that ends the game gives `Loss(0)`).
    #[inline]
    pub fn to_child(self) -> Value {
        match self {
            Value::Win(n) => Value::Loss(n.saturating_sub(1)),
            Value::Loss(n) => Value::Win(n.saturating_sub(1)),
            Value::Draw => Value::Draw,
        }
    }

    /// Distance in plies, `None` for a draw.
    pub fn plies(self) -> Option<u16> {
        match self {
            Value::Win(n) | Value::Loss(n) => Some(n),
            Value::Draw => None,
        }
    }

    /// Win, draw or loss without the distance.
    pub fn wdl(self) -> Wdl {
        match self {
            Value::Win(_) => Wdl::Win,
            Value::Loss(_) => Wdl::Loss,
            Value::Draw => Wdl::Draw,
        }
    }

    /// `"win"`, `"loss"` or `"draw"`.
    pub fn wdl_name(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Loss(_) => "loss",
            Value::Draw => "draw",
        }
    }

    /// Sort key: larger is better for the side to move.
    fn key(self) -> (u8, i32) {
        match self {
            Value::Win(n) => (2, -(n as i32)),
            Value::Draw => (1, 0),
            Value::Loss(n) => (0, n as i32),
        }
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// `a > b` means `a` is better for the side to move: a shorter win beats a
/// longer one, any win beats a draw, a draw beats any loss, a longer loss
/// beats a shorter one.
impl Ord for Value {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key().cmp(&other.key())
    }
}

/// "ply" or "plies".
fn plies_word(n: u16) -> &'static str {
    if n == 1 {
        "ply"
    } else {
        "plies"
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(n) => write!(f, "win in {n} {}", plies_word(*n)),
            Value::Loss(n) => write!(f, "loss in {n} {}", plies_word(*n)),
            Value::Draw => write!(f, "draw"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordering() {
        assert!(Value::Win(1) > Value::Win(3));
        assert!(Value::Win(99) > Value::Draw);
        assert!(Value::Draw > Value::Loss(100));
        assert!(Value::Loss(10) > Value::Loss(0));
        assert_eq!(Value::from_child(Value::Loss(0)), Value::Win(1));
        assert_eq!(Value::from_child(Value::Win(1)), Value::Loss(2));
    }

    #[test]
    fn to_child_inverts_from_child() {
        for v in [
            Value::Win(1),
            Value::Win(7),
            Value::Loss(2),
            Value::Loss(40),
            Value::Draw,
        ] {
            assert_eq!(Value::from_child(v.to_child()), v, "{v:?}");
        }
        assert_eq!(Value::Win(1).to_child(), Value::Loss(0));
    }
}
