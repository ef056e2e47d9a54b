//! The rule options: one table ([`RULE_OPTIONS`]) from which help texts,
//! `--rule` parsing, the canonical string that table files record and its
//! parsing all come.

use crate::ruleset::{ElephantCapturesRat, JumpAxes, Jumpers, NoMoveRule, Ruleset};

use crate::error::RulesError;
use crate::piece::Animal;

/// The option called `name`.
fn option(name: &str) -> Result<&'static RuleOption, RulesError> {
    RULE_OPTIONS
        .iter()
        .find(|o| o.name == name)
        .ok_or_else(|| RulesError::UnknownOption {
            option: name.to_string(),
            known: RULE_OPTIONS.iter().map(|o| o.name).collect(),
        })
}

/// Ruleset as text: options by name, and the canonical string.
impl Ruleset {
    /// Sets one option from its name and textual value (`key=value` on the
    /// command line).
    pub fn set_option(&mut self, key: &str, value: &str) -> Result<(), RulesError> {
        let option = option(key)?;
        option
            .set(self, value)
            .ok_or_else(|| RulesError::BadOptionValue {
                option: key.to_string(),
                value: value.to_string(),
                allowed: option.values,
            })
    }

    /// Applies a `key=value` override.
    pub fn apply_override(&mut self, kv: &str) -> Result<(), RulesError> {
        let Some((k, v)) = kv.split_once('=') else {
            let o = option(kv.trim())?;
            return Err(RulesError::MissingValue {
                option: o.name.to_string(),
                allowed: o.values,
            });
        };
        self.set_option(k.trim(), v.trim())
    }

    /// Every option as `(name, value)`, in canonical order.
    pub fn options(&self) -> Vec<(&'static str, String)> {
        RULE_OPTIONS.iter().map(|o| (o.name, o.get(self))).collect()
    }

    /// The canonical text of the option set: `name=value` pairs in a fixed
    /// order, separated by `;`. Table files record it verbatim.
    pub fn canonical_string(&self) -> String {
        self.options()
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(";")
    }

    /// Parses a canonical string back into a rule set (used by table readers).
    pub fn from_canonical_string(s: &str) -> Result<Ruleset, RulesError> {
        let mut r = Ruleset::standard();
        for kv in s.split(';') {
            r.apply_override(kv)?;
        }
        if let Some(n) = r.matching_name() {
            r.base = Ruleset::by_name(n)?.base;
        }
        Ok(r)
    }
}

/// One rule option: its name, meaning and accepted values, and how to read
/// and set it. [`RULE_OPTIONS`] is the one list of options: help texts,
/// `--rule` parsing, the canonical string that table files record and its
/// parsing all come from it.
pub struct RuleOption {
    /// The name (`--rule NAME=VALUE`).
    pub name: &'static str,
    /// What it changes.
    pub meaning: &'static str,
    /// The accepted values, standard's first.
    pub values: &'static str,
    get: fn(&Ruleset) -> String,
    set: fn(&mut Ruleset, &str) -> Option<()>,
}

impl RuleOption {
    /// The option's value in `rules`, as text.
    pub fn get(&self, rules: &Ruleset) -> String {
        (self.get)(rules)
    }

    /// Sets the option in `rules` from its text; `None` if the value is not
    /// one the option accepts.
    pub(crate) fn set(&self, rules: &mut Ruleset, value: &str) -> Option<()> {
        (self.set)(rules, value)
    }
}

impl std::fmt::Debug for RuleOption {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RuleOption")
            .field("name", &self.name)
            .field("values", &self.values)
            .finish_non_exhaustive()
    }
}

/// A flag's value: `true` or `false`, the one vocabulary its help lists
/// (`yes` and `1` were taken too, and `on` was not: a guess either way).
fn flag(v: &str) -> Option<bool> {
    match v {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// A `true | false` option stored in the field `$field`.
macro_rules! flag_option {
    ($name:literal, $meaning:literal, $values:literal, $field:ident) => {
        RuleOption {
            name: $name,
            meaning: $meaning,
            values: $values,
            get: |r| r.$field.to_string(),
            set: |r, v| {
                r.$field = flag(v)?;
                Some(())
            },
        }
    };
}

/// Every rule option, in the order of the canonical string.
pub static RULE_OPTIONS: [RuleOption; 13] = [
    RuleOption {
        name: "elephant_captures_rat",
        meaning: "when the Elephant may capture the Rat",
        values: "always | on_trap | never",
        get: |r| {
            match r.elephant_captures_rat {
                ElephantCapturesRat::Always => "always",
                ElephantCapturesRat::OnTrapOnly => "on_trap",
                ElephantCapturesRat::Never => "never",
            }
            .into()
        },
        set: |r, v| {
            r.elephant_captures_rat = match v {
                "always" => ElephantCapturesRat::Always,
                "on_trap" => ElephantCapturesRat::OnTrapOnly,
                "never" => ElephantCapturesRat::Never,
                _ => return None,
            };
            Some(())
        },
    },
    flag_option!(
        "land_rat_captures_water_rat",
        "a Rat on land may capture a Rat in the water",
        "false | true",
        land_rat_captures_water_rat
    ),
    flag_option!(
        "water_rat_captures_land_rat",
        "a Rat in the water may capture a Rat on land",
        "true | false",
        water_rat_captures_land_rat
    ),
    flag_option!(
        "water_rat_captures_elephant",
        "a Rat in the water may capture the Elephant on land",
        "false | true",
        water_rat_captures_elephant
    ),
    flag_option!(
        "lion_tiger_equal",
        "Lion and Tiger have equal rank and capture each other",
        "false | true",
        lion_tiger_equal
    ),
    flag_option!(
        "tiger_outranks_lion",
        "Tiger rank 7, Lion rank 6",
        "false | true",
        tiger_outranks_lion
    ),
    flag_option!(
        "wolf_outranks_dog",
        "Wolf rank 4, Dog rank 3",
        "false | true",
        wolf_outranks_dog
    ),
    RuleOption {
        name: "jumpers",
        meaning:
            "river-jump axes per animal (h, v, hv, none) of the Lion, Tiger and Panther (by letter L, T, P or name; Leopard is the Panther); naming some animals changes only those",
        values: "ANIMAL:AXES,… (ANIMAL: L, T, P or a name; AXES: h | v | hv | none)",
        get: |r| {
            format!(
                "L:{},T:{},P:{}",
                r.jumpers.lion.code(),
                r.jumpers.tiger.code(),
                r.jumpers.panther.code()
            )
        },
        set: |r, v| {
            r.jumpers = parse_jumpers(v, r.jumpers)?;
            Some(())
        },
    },
    flag_option!(
        "universal_traps",
        "a piece on any trap, its own included, defends with rank 0",
        "false | true",
        universal_traps
    ),
    RuleOption {
        name: "trap_entry_max_rank",
        meaning: "only pieces of rank <= N may enter traps",
        values: "none | 0..8",
        get: |r| {
            r.trap_entry_max_rank
                .map_or("none".to_string(), |n| n.to_string())
        },
        set: |r, v| {
            r.trap_entry_max_rank = match v {
                "none" => None,
                v => Some(v.parse::<u8>().ok().filter(|&n| n <= 8)?),
            };
            Some(())
        },
    },
    flag_option!(
        "dog_swims",
        "the Dog may enter water and fights there like a Rat",
        "false | true",
        dog_swims
    ),
    RuleOption {
        name: "no_move",
        meaning: "result for a side to move without a legal move",
        values: "loss | draw",
        get: |r| {
            match r.no_move {
                NoMoveRule::Loss => "loss",
                NoMoveRule::Draw => "draw",
            }
            .into()
        },
        set: |r, v| {
            r.no_move = match v {
                "loss" => NoMoveRule::Loss,
                "draw" => NoMoveRule::Draw,
                _ => return None,
            };
            Some(())
        },
    },
    flag_option!(
        "animal_checkers",
        "no traps, no rivers; only Rat, Dog, Tiger, Elephant",
        "false | true",
        animal_checkers
    ),
];

/// Parses `L:v,T:hv,P:none`-style jumper specs on top of `current`: only
/// the animals named change; naming one twice is an error.
fn parse_jumpers(s: &str, current: Jumpers) -> Option<Jumpers> {
    let mut j = current;
    let mut seen = [false; 3];
    for part in s.split(',') {
        let (who, axes) = part.trim().split_once(':')?;
        let axes = JumpAxes::parse(axes.trim())?;
        // A letter or a name (`P`, `Panther`, `Leopard`).
        let animal = match who.trim() {
            w if w.len() == 1 => Animal::from_letter(w.chars().next()?)?,
            w => Animal::from_name(w)?,
        };
        let k = match animal {
            Animal::Lion => 0,
            Animal::Tiger => 1,
            Animal::Panther => 2,
            _ => return None,
        };
        if std::mem::replace(&mut seen[k], true) {
            return None;
        }
        *[&mut j.lion, &mut j.tiger, &mut j.panther][k] = axes;
    }
    Some(j)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flag_takes_true_or_false_and_nothing_else() {
        let mut r = Ruleset::standard();
        r.apply_override("dog_swims=true").unwrap();
        assert!(r.dog_swims);
        r.apply_override("dog_swims=false").unwrap();
        assert!(!r.dog_swims);
        for other in ["yes", "on", "1", "no", "off", "0", "TRUE"] {
            let e = r.apply_override(&format!("dog_swims={other}")).unwrap_err();
            assert!(
                e.to_string().contains("allowed: false | true"),
                "{other}: {e}"
            );
        }
    }
}
