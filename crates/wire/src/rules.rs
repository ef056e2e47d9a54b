//! Answers about rule sets: `jungletb rules --json` in its three forms.

use crate::RuleDisagreement;
use jungletb_rules::{
    fingerprint, BaseRuleset, Ruleset, COMMON_DISAGREEMENTS, FINGERPRINT_POSITIONS, RULE_OPTIONS,
};
use serde::Serialize;
use std::collections::BTreeMap;

/// A named rule set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NamedRuleset {
    /// `standard`, `leiden`, `popular`.
    pub name: &'static str,
    /// Its identifier (hex).
    pub id: String,
    /// Where its rules come from.
    pub source: &'static str,
}

/// One rule option, with its value in each named rule set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleOptionInfo {
    /// Its name.
    pub name: &'static str,
    /// What it means.
    pub meaning: &'static str,
    /// The values it takes.
    pub values: Vec<&'static str>,
    /// Its value in `standard`.
    pub standard: String,
    /// In `leiden`.
    pub leiden: String,
    /// In `popular`.
    pub popular: String,
}

/// `jungletb rules --json`: the named rule sets, the rules others differ
/// on, every option.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RulesListAnswer {
    /// The named rule sets.
    pub rule_sets: Vec<NamedRuleset>,
    /// Rules other Jungle rules often differ on, with the option for each.
    pub common_disagreements: Vec<RuleDisagreement>,
    /// Every option.
    pub options: Vec<RuleOptionInfo>,
}

impl RulesListAnswer {
    /// The list.
    pub fn new() -> Self {
        let named: Vec<Vec<(&str, String)>> = BaseRuleset::ALL
            .iter()
            .map(|&b| Ruleset::named(b).options())
            .collect();
        RulesListAnswer {
            rule_sets: BaseRuleset::ALL
                .iter()
                .map(|&b| NamedRuleset {
                    name: b.name(),
                    id: format!("{:016x}", Ruleset::named(b).id()),
                    source: b.source(),
                })
                .collect(),
            common_disagreements: COMMON_DISAGREEMENTS
                .iter()
                .map(|&(rules_say, rule)| RuleDisagreement { rules_say, rule })
                .collect(),
            options: RULE_OPTIONS
                .iter()
                .enumerate()
                .map(|(i, o)| RuleOptionInfo {
                    name: o.name,
                    meaning: o.meaning,
                    values: o.values.split(" | ").collect(),
                    standard: named[0][i].1.clone(),
                    leiden: named[1][i].1.clone(),
                    popular: named[2][i].1.clone(),
                })
                .collect(),
        }
    }
}

impl Default for RulesListAnswer {
    fn default() -> Self {
        Self::new()
    }
}

/// `jungletb rules NAME --json`: one resolved rule set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResolvedRules {
    /// Its label.
    pub label: String,
    /// Its identifier (hex).
    pub id: String,
    /// Every option's value.
    pub options: BTreeMap<&'static str, String>,
}

impl ResolvedRules {
    /// The answer for `rules`.
    pub fn new(rules: &Ruleset) -> Self {
        ResolvedRules {
            label: rules.label(),
            id: format!("{:016x}", rules.id()),
            options: rules.options().into_iter().collect(),
        }
    }
}

/// One fingerprint position and its legal moves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FingerprintPosition {
    /// The position.
    pub position: &'static str,
    /// Which rules its moves tell apart.
    pub tells: &'static str,
    /// Its legal moves, sorted.
    pub moves: Vec<String>,
}

/// `jungletb rules NAME --fingerprint --json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FingerprintAnswer {
    /// The rule set's label.
    pub ruleset: String,
    /// The positions.
    pub positions: Vec<FingerprintPosition>,
}

impl FingerprintAnswer {
    /// The fingerprint of `rules`.
    pub fn new(rules: &Ruleset) -> Self {
        FingerprintAnswer {
            ruleset: rules.label(),
            positions: FINGERPRINT_POSITIONS
                .iter()
                .zip(fingerprint(rules))
                .map(|(&(position, tells), moves)| FingerprintPosition {
                    position,
                    tells,
                    moves,
                })
                .collect(),
        }
    }
}
