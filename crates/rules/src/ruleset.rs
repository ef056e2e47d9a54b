//! Rule sets: the three named ones and every option of docs/rules.md#rule-sets-and-options.

use crate::board::{Board, Square};
use crate::error::RulesError;
use crate::piece::{Animal, Color, Piece};
use std::fmt;
use std::sync::OnceLock;

/// The named rule set a [`Ruleset`] starts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BaseRuleset {
    /// The rules as Wikipedia states them; the default.
    Standard,
    /// The rules under which van Rijn & Vis's 2-piece tables come out exactly.
    Leiden,
    /// What most Jungle programs implement.
    Popular,
}

impl BaseRuleset {
    /// All named rule sets.
    pub const ALL: [BaseRuleset; 3] = [
        BaseRuleset::Standard,
        BaseRuleset::Leiden,
        BaseRuleset::Popular,
    ];

    /// The short name (`standard`, `leiden`, `popular`).
    pub fn name(self) -> &'static str {
        match self {
            BaseRuleset::Standard => "standard",
            BaseRuleset::Leiden => "leiden",
            BaseRuleset::Popular => "popular",
        }
    }

    /// Where the rule set comes from, in a sentence (docs/rules.md says
    /// more, with the common disagreements and their options).
    pub fn source(self) -> &'static str {
        match self {
            BaseRuleset::Standard => {
                "the rules of the English Wikipedia article \"Jungle (game)\": the Elephant \
                 may take the Rat, the Dog ranks above the Wolf, rank 5 is the Panther \
                 (the Leopard of many sets)"
            }
            BaseRuleset::Leiden => {
                "the rules under which the published 2-piece tablebase of van Rijn and Vis \
                 (ICGA Journal 37(2), 2014) comes out exactly: standard, but Rats on land \
                 and in the water may take each other"
            }
            BaseRuleset::Popular => {
                "the capture rules most Jungle programs implement: the Elephant takes the \
                 Rat only on the Elephant's own traps; Rats on land and in the water cannot \
                 take each other"
            }
        }
    }
}

/// Rules on which rule sheets and programs commonly differ, each with the
/// option that plays it: `(what some rules say, --rule NAME=VALUE)`.
pub const COMMON_DISAGREEMENTS: [(&str, &str); 6] = [
    (
        "the Elephant may never take the Rat",
        "elephant_captures_rat=never",
    ),
    (
        "the Elephant takes the Rat only on a trap",
        "elephant_captures_rat=on_trap",
    ),
    ("the Wolf ranks above the Dog", "wolf_outranks_dog=true"),
    ("the Tiger ranks above the Lion", "tiger_outranks_lion=true"),
    (
        "traps weaken any animal on them, one's own traps too",
        "universal_traps=true",
    ),
    ("a side without a move draws", "no_move=draw"),
];

/// When the Elephant may capture the Rat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ElephantCapturesRat {
    /// By rank, like any other capture (8 ≥ 1).
    Always,
    /// Only when the Rat stands on one of the Elephant's side's traps.
    OnTrapOnly,
    /// Never, not even on a trap.
    Never,
}

/// What happens to a side to move that has no legal move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NoMoveRule {
    /// It loses (the default).
    Loss,
    /// The game is drawn.
    Draw,
}

/// The river-jump axes of one animal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct JumpAxes {
    /// Jumps across a river sideways (over 2 water squares).
    pub horizontal: bool,
    /// Jumps across a river forwards/backwards (over 3 water squares).
    pub vertical: bool,
}

impl JumpAxes {
    const NONE: JumpAxes = JumpAxes {
        horizontal: false,
        vertical: false,
    };
    const BOTH: JumpAxes = JumpAxes {
        horizontal: true,
        vertical: true,
    };
    pub(crate) fn code(self) -> &'static str {
        match (self.horizontal, self.vertical) {
            (false, false) => "none",
            (true, false) => "h",
            (false, true) => "v",
            (true, true) => "hv",
        }
    }
    pub(crate) fn parse(s: &str) -> Option<JumpAxes> {
        Some(match s {
            "none" | "" => JumpAxes::NONE,
            "h" => JumpAxes {
                horizontal: true,
                vertical: false,
            },
            "v" => JumpAxes {
                horizontal: false,
                vertical: true,
            },
            "hv" | "vh" => JumpAxes::BOTH,
            _ => return None,
        })
    }
}

/// Which animals jump rivers, and along which axes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Jumpers {
    /// The Lion (default: both axes).
    pub lion: JumpAxes,
    /// The Tiger (default: both axes).
    pub tiger: JumpAxes,
    /// The Panther (default: none).
    pub panther: JumpAxes,
}

impl Default for Jumpers {
    fn default() -> Self {
        Jumpers {
            lion: JumpAxes::BOTH,
            tiger: JumpAxes::BOTH,
            panther: JumpAxes::NONE,
        }
    }
}

/// A complete rule set: a named base plus every option of docs/rules.md#rule-sets-and-options.
///
/// Two rule sets with the same options are the same rule set, whatever their
/// base: [`Ruleset::id`] depends on the options only.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Ruleset {
    /// The named rule set these options started from (for display only).
    pub base: BaseRuleset,
    /// When the Elephant may capture the Rat.
    pub elephant_captures_rat: ElephantCapturesRat,
    /// A Rat on land may capture a Rat in the water.
    pub land_rat_captures_water_rat: bool,
    /// A Rat in the water may capture a Rat on land.
    pub water_rat_captures_land_rat: bool,
    /// A Rat in the water may capture the Elephant on land.
    pub water_rat_captures_elephant: bool,
    /// Lion and Tiger have equal rank.
    pub lion_tiger_equal: bool,
    /// Tiger rank 7, Lion rank 6.
    pub tiger_outranks_lion: bool,
    /// Wolf rank 4, Dog rank 3.
    pub wolf_outranks_dog: bool,
    /// Which animals jump rivers.
    pub jumpers: Jumpers,
    /// A piece on any trap, its own included, defends with rank 0.
    pub universal_traps: bool,
    /// Only pieces of rank ≤ N may enter traps.
    pub trap_entry_max_rank: Option<u8>,
    /// The Dog may enter water.
    pub dog_swims: bool,
    /// The result for a side to move without a legal move.
    pub no_move: NoMoveRule,
    /// Animal Checkers: no traps, no rivers, only Rat, Dog, Tiger, Elephant.
    pub animal_checkers: bool,
}

impl Ruleset {
    /// The named rule set `base` with no overrides.
    pub fn named(base: BaseRuleset) -> Ruleset {
        let mut r = Ruleset {
            base,
            elephant_captures_rat: ElephantCapturesRat::Always,
            land_rat_captures_water_rat: false,
            water_rat_captures_land_rat: true,
            water_rat_captures_elephant: false,
            lion_tiger_equal: false,
            tiger_outranks_lion: false,
            wolf_outranks_dog: false,
            jumpers: Jumpers::default(),
            universal_traps: false,
            trap_entry_max_rank: None,
            dog_swims: false,
            no_move: NoMoveRule::Loss,
            animal_checkers: false,
        };
        match base {
            BaseRuleset::Standard => {}
            BaseRuleset::Leiden => r.land_rat_captures_water_rat = true,
            BaseRuleset::Popular => {
                r.elephant_captures_rat = ElephantCapturesRat::OnTrapOnly;
                r.water_rat_captures_land_rat = false;
            }
        }
        r
    }

    /// The `standard` rule set, the default everywhere.
    pub fn standard() -> Ruleset {
        Ruleset::named(BaseRuleset::Standard)
    }

    /// The `leiden` rule set.
    pub fn leiden() -> Ruleset {
        Ruleset::named(BaseRuleset::Leiden)
    }

    /// The `popular` rule set.
    pub fn popular() -> Ruleset {
        Ruleset::named(BaseRuleset::Popular)
    }

    /// The named rule set called `name`.
    pub fn by_name(name: &str) -> Result<Ruleset, RulesError> {
        BaseRuleset::ALL
            .iter()
            .find(|b| b.name() == name)
            .map(|&b| Ruleset::named(b))
            .ok_or_else(|| RulesError::UnknownRuleset(name.to_string()))
    }

    /// The stable identifier: 64-bit FNV-1a of [`Ruleset::canonical_string`].
    /// The same options always give the same id.
    pub fn id(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in self.canonical_string().bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h
    }

    /// The named rule set whose options these are, if any.
    pub fn matching_name(&self) -> Option<&'static str> {
        BaseRuleset::ALL
            .iter()
            .find(|&&b| Ruleset::named(b).canonical_string() == self.canonical_string())
            .map(|b| b.name())
    }

    /// A short label: the name of the matching named rule set, or
    /// `<base>+custom-<id>`.
    pub fn label(&self) -> String {
        match self.matching_name() {
            Some(n) => n.to_string(),
            None => format!("{}-custom-{:016x}", self.base.name(), self.id()),
        }
    }

    /// Checks that the options do not contradict each other.
    pub fn check_supported(&self) -> Result<(), RulesError> {
        if self.lion_tiger_equal && self.tiger_outranks_lion {
            return Err(RulesError::Conflict {
                first: "lion_tiger_equal",
                second: "tiger_outranks_lion",
                reason: "equal ranks exclude an order",
            });
        }
        if self.animal_checkers && self.dog_swims {
            return Err(RulesError::Conflict {
                first: "animal_checkers",
                second: "dog_swims",
                reason: "animal checkers has no rivers to swim",
            });
        }
        Ok(())
    }

    /// The board these rules are played on.
    #[inline]
    pub fn board(&self) -> &'static Board {
        static STANDARD: OnceLock<Board> = OnceLock::new();
        static CHECKERS: OnceLock<Board> = OnceLock::new();
        if self.animal_checkers {
            CHECKERS.get_or_init(Board::checkers)
        } else {
            STANDARD.get_or_init(Board::standard)
        }
    }

    /// The capture rank of `animal` under these rules.
    #[inline]
    pub fn rank(&self, animal: Animal) -> u8 {
        match animal {
            Animal::Lion if self.tiger_outranks_lion => 6,
            Animal::Tiger if self.tiger_outranks_lion || self.lion_tiger_equal => 7,
            Animal::Wolf if self.wolf_outranks_dog => 4,
            Animal::Dog if self.wolf_outranks_dog => 3,
            a => a.standard_rank(),
        }
    }

    /// True if `animal` may enter water.
    #[inline]
    pub fn swims(&self, animal: Animal) -> bool {
        animal == Animal::Rat || (self.dog_swims && animal == Animal::Dog)
    }

    /// The jump axes of `animal`.
    #[inline]
    pub fn jump_axes(&self, animal: Animal) -> JumpAxes {
        match animal {
            Animal::Lion => self.jumpers.lion,
            Animal::Tiger => self.jumpers.tiger,
            Animal::Panther => self.jumpers.panther,
            _ => JumpAxes::NONE,
        }
    }

    /// True if `animal` takes part in games under these rules.
    pub fn animal_allowed(&self, animal: Animal) -> bool {
        !self.animal_checkers
            || matches!(
                animal,
                Animal::Rat | Animal::Dog | Animal::Tiger | Animal::Elephant
            )
    }

    /// True if `piece` may stand on `sq` in a table position (no dens, water
    /// only for swimmers).
    pub fn may_stand(&self, board: &Board, piece: Piece, sq: Square) -> bool {
        !board.is_den(sq) && (board.is_land(sq) || self.swims(piece.animal))
    }

    /// True if a piece of `owner` standing on `sq` defends with rank 0.
    #[inline]
    pub fn is_trapped(&self, board: &Board, sq: Square, owner: Color) -> bool {
        if self.universal_traps {
            board.is_trap(sq)
        } else {
            board.is_trap_of(sq, owner.opponent())
        }
    }
}

impl Default for Ruleset {
    fn default() -> Self {
        Ruleset::standard()
    }
}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.label())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_string_round_trips() {
        for b in BaseRuleset::ALL {
            let r = Ruleset::named(b);
            let back = Ruleset::from_canonical_string(&r.canonical_string()).unwrap();
            assert_eq!(back, r);
            assert_eq!(r.label(), b.name());
        }
    }

    #[test]
    fn ids_differ_and_are_order_independent() {
        let ids: Vec<u64> = BaseRuleset::ALL
            .iter()
            .map(|&b| Ruleset::named(b).id())
            .collect();
        assert_ne!(ids[0], ids[1]);
        assert_ne!(ids[1], ids[2]);
        let mut a = Ruleset::standard();
        a.set_option("universal_traps", "true").unwrap();
        a.set_option("wolf_outranks_dog", "true").unwrap();
        let mut b = Ruleset::standard();
        b.set_option("wolf_outranks_dog", "true").unwrap();
        b.set_option("universal_traps", "true").unwrap();
        assert_eq!(a.id(), b.id());
        assert_ne!(a.id(), Ruleset::standard().id());
    }

    #[test]
    fn bad_options_are_rejected() {
        let mut r = Ruleset::standard();
        assert!(r.set_option("nonsense", "true").is_err());
        assert!(r.set_option("universal_traps", "maybe").is_err());
        assert!(r.apply_override("no_equals_sign").is_err());
        assert!(Ruleset::by_name("chess").is_err());
    }
}
