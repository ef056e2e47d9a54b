//! `jungletb rules`.

use crate::args::CmdResult;
use anyhow::anyhow;
use clap::Args as ClapArgs;
use jungletb_rules::{
    fingerprint, BaseRuleset, Ruleset, COMMON_DISAGREEMENTS, FINGERPRINT_POSITIONS, RULE_OPTIONS,
};
use std::process::ExitCode;

/// Arguments of `rules`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// A named rule set to resolve (standard, leiden, popular); without it,
    /// list the rule sets and every option.
    name: Option<String>,
    /// Override one rule option, e.g. --rule universal_traps=true (repeatable).
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    rules: Vec<String>,
    /// One JSON document instead of text.
    #[arg(long)]
    json: bool,
    /// Print the legal moves of positions that tell the rule options apart
    /// (compare them with your engine's to find the rule set it plays).
    #[arg(long)]
    fingerprint: bool,
}

pub fn run(a: Args) -> CmdResult {
    if a.fingerprint {
        let mut r = Ruleset::by_name(a.name.as_deref().unwrap_or("standard"))?;
        for kv in &a.rules {
            r.apply_override(kv)?;
        }
        r.check_supported()?;
        let lists = fingerprint(&r);
        if a.json {
            let doc = serde_json::to_string(&jungletb_wire::FingerprintAnswer::new(&r))
                .expect("serialisable");
            outln!("{doc}");
        } else {
            outln!(
                "Legal moves under {} (sorted); list them with your engine and compare:",
                r.label()
            );
            for ((fen, tells), moves) in FINGERPRINT_POSITIONS.iter().zip(&lists) {
                outln!("{fen:<28} {:<36} # {tells}", moves.join(" "));
            }
            outln!("(no_move, the result of having no move, does not show in move lists)");
        }
        return Ok(ExitCode::SUCCESS);
    }
    let Some(name) = a.name else {
        if !a.rules.is_empty() {
            return Err(anyhow!(
                "--rule needs a rule set name: jungletb rules standard --rule …"
            ));
        }
        let named: Vec<Vec<(&str, String)>> = BaseRuleset::ALL
            .iter()
            .map(|&b| Ruleset::named(b).options())
            .collect();
        if a.json {
            let doc = serde_json::to_string(&jungletb_wire::RulesListAnswer::new())
                .expect("serialisable");
            outln!("{doc}");
            return Ok(ExitCode::SUCCESS);
        }
        outln!("Named rule sets:");
        for b in BaseRuleset::ALL {
            outln!("  {:<10} id {:016x}", b.name(), Ruleset::named(b).id());
            outln!("      {}", b.source());
        }
        outln!("\nIf your rules say … add (docs/rules.md lists more):");
        for (what, rule) in COMMON_DISAGREEMENTS {
            outln!("  {what:<54} --rule {rule}");
        }
        outln!("\nOptions (--rule NAME=VALUE on every command that takes a rule set):");
        for (i, o) in RULE_OPTIONS.iter().enumerate() {
            outln!(
                "  {}\n      {}\n      values: {}",
                o.name,
                o.meaning,
                o.values
            );
            outln!(
                "      standard: {}, leiden: {}, popular: {}",
                named[0][i].1,
                named[1][i].1,
                named[2][i].1
            );
        }
        return Ok(ExitCode::SUCCESS);
    };
    let mut r = Ruleset::by_name(&name)?;
    for kv in &a.rules {
        r.apply_override(kv)?;
    }
    r.check_supported()?;
    if a.json {
        let doc = jungletb_wire::ResolvedRules::new(&r);
        outln!("{}", serde_json::to_string(&doc).expect("serialisable"));
        return Ok(ExitCode::SUCCESS);
    }
    outln!("rule set: {}", r.label());
    outln!("id:       {:016x}", r.id());
    for (k, v) in r.options() {
        outln!("  {k} = {v}");
    }
    Ok(ExitCode::SUCCESS)
}
