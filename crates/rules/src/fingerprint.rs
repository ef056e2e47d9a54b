//! Positions that tell rule sets apart by their legal moves.
//!
//! Jungle programs disagree on rules that the start position's perft cannot
//! see (who may take whom at the water's edge, which animals jump, ranks).
//! Each position here is built so that one option decides whether a
//! particular move is legal. An engine author lists the legal moves of
//! these positions with their engine and compares them with
//! `jungletb rules --fingerprint` under a candidate rule set: equal lists
//! everywhere name the rule set the engine plays. Only `no_move` (the
//! result of having no move) cannot show in a move list.

use crate::position::Position;
use crate::ruleset::Ruleset;

/// The fingerprint positions: (position, what it tells).
pub const FINGERPRINT_POSITIONS: [(&str, &str); 18] = [
    (
        "7/7/7/7/7/7/7/7/Er5 w",
        "Elephant takes the Rat on land (elephant_captures_rat: always)",
    ),
    (
        "7/7/7/7/7/7/3E3/3r3/7 w",
        "Elephant takes the Rat on a trap (elephant_captures_rat: not never)",
    ),
    (
        "7/7/7/7/7/eR5/7/7/7 w",
        "Rat in the water takes the Elephant (water_rat_captures_elephant)",
    ),
    (
        "7/7/7/7/7/rR5/7/7/7 w",
        "Rat in the water takes a Rat on land (water_rat_captures_land_rat)",
    ),
    (
        "7/7/7/7/7/Rr5/7/7/7 w",
        "Rat on land takes a Rat in the water (land_rat_captures_water_rat)",
    ),
    (
        "7/7/7/7/7/3l3/3T3/7/7 w",
        "Tiger takes the Lion (lion_tiger_equal or tiger_outranks_lion)",
    ),
    (
        "7/7/7/7/7/3t3/3L3/7/7 w",
        "Lion takes the Tiger (not tiger_outranks_lion)",
    ),
    (
        "7/7/7/7/7/3d3/3W3/7/7 w",
        "Wolf takes the Dog (wolf_outranks_dog)",
    ),
    (
        "7/7/7/7/7/3w3/3D3/7/7 w",
        "Dog takes the Wolf (not wolf_outranks_dog)",
    ),
    (
        "6r/7/7/7/7/L6/7/7/7 w",
        "Lion jumps sideways (jumpers: L h)",
    ),
    (
        "6r/7/7/7/7/7/1L5/7/7 w",
        "Lion jumps lengthways (jumpers: L v)",
    ),
    (
        "6r/7/7/7/7/T6/7/7/7 w",
        "Tiger jumps sideways (jumpers: T h)",
    ),
    (
        "6r/7/7/7/7/7/1T5/7/7 w",
        "Tiger jumps lengthways (jumpers: T v)",
    ),
    (
        "6r/7/7/7/7/P6/7/7/7 w",
        "Panther jumps sideways (jumpers: P h)",
    ),
    (
        "6r/7/7/7/7/7/1P5/7/7 w",
        "Panther jumps lengthways (jumpers: P v)",
    ),
    (
        "6r/3e3/3C3/7/7/7/7/7/7 w",
        "Cat takes the Elephant on its own trap (universal_traps)",
    ),
    (
        "6r/7/7/7/7/7/3E3/7/7 w",
        "Elephant enters a trap (trap_entry_max_rank below 8)",
    ),
    (
        "6r/7/7/7/7/7/1D5/7/7 w",
        "Dog enters the water (dog_swims; every square is land: animal_checkers)",
    ),
];

/// The legal moves (sorted, as text) of every fingerprint position under
/// `rules`, in the order of [`FINGERPRINT_POSITIONS`]. A position that is
/// not valid under `rules` (an animal not in the game) lists no moves.
pub fn fingerprint(rules: &Ruleset) -> Vec<Vec<String>> {
    FINGERPRINT_POSITIONS
        .iter()
        .map(|(fen, _)| {
            let pos: Position = fen.parse().expect("valid fingerprint position");
            if pos.validate(rules).is_err() {
                return Vec::new();
            }
            pos.legal_move_texts(rules)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::RULE_OPTIONS;
    use crate::ruleset::BaseRuleset;

    /// Every rule set reachable by changing one option of a named rule set.
    fn variants() -> Vec<(String, Ruleset)> {
        let mut out = Vec::new();
        for base in BaseRuleset::ALL {
            let r = Ruleset::named(base);
            out.push((base.name().to_string(), r.clone()));
            for o in &RULE_OPTIONS {
                let (name, values) = (o.name, o.values);
                if name == "no_move" {
                    continue; // not visible in move lists (see the module docs)
                }
                let values: Vec<String> = if name == "jumpers" {
                    [
                        "L:none", "L:h", "L:v", "T:none", "T:h", "T:v", "P:h", "P:v", "P:hv",
                    ]
                    .iter()
                    .map(|s| s.to_string())
                    .collect()
                } else if name == "trap_entry_max_rank" {
                    vec!["7".into()]
                } else {
                    values.split(" | ").map(|s| s.trim().to_string()).collect()
                };
                for v in values {
                    let mut x = r.clone();
                    if x.set_option(name, &v).is_ok() && x.check_supported().is_ok() && x != r {
                        out.push((format!("{} + {name}={v}", base.name()), x));
                    }
                }
            }
        }
        out
    }

    #[test]
    fn the_fingerprint_tells_single_option_changes_apart() {
        let all = variants();
        assert!(all.len() > 40, "{} variants", all.len());
        for (i, (a, ra)) in all.iter().enumerate() {
            for (b, rb) in &all[i + 1..] {
                if ra.canonical_string() == rb.canonical_string() {
                    continue; // the same rule set reached two ways
                }
                if ra.animal_checkers && rb.animal_checkers {
                    // No water and no traps: the water's-edge and trap
                    // options do not change that game.
                    continue;
                }
                assert_ne!(fingerprint(ra), fingerprint(rb), "{a} and {b} look alike");
            }
        }
    }
}
