//! `jungletb puzzles`: positions where exactly one move wins.

use crate::args::{scan_tables, thread_pool, CmdResult, RulesArgs, ScanArgs, TablesArg};
use crate::output::table_bar;
use clap::Args as ClapArgs;
use jungletb_analysis::puzzles::{puzzles, Puzzle};
use jungletb_wire::PuzzleAnswer;
use std::process::ExitCode;

/// Arguments of `puzzles`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    #[command(flatten)]
    tables: TablesArg,
    #[command(flatten)]
    rules: RulesArgs,
    /// Only this material (e.g. ELvTR; repeatable). Default: every table.
    #[arg(long = "material", value_name = "KEY")]
    materials: Vec<String>,
    /// Puzzles per material, deepest first.
    #[arg(long, default_value_t = 3, value_name = "N")]
    limit: usize,
    #[command(flatten)]
    scan: ScanArgs,
}

pub fn run(a: Args) -> CmdResult {
    let (rules, tb, materials) = scan_tables(&a.tables, &a.rules, &a.materials)?;
    let pool = thread_pool(a.scan.threads)?;
    let bar = table_bar(materials.len(), a.scan.quiet || a.scan.json);
    let mut all: Vec<Puzzle> = Vec::new();
    for m in materials {
        bar.set_message(m.to_string());
        all.extend(pool.install(|| puzzles(&tb, m, a.limit))?);
        bar.inc(1);
    }
    bar.finish_and_clear();
    // Deepest first over every material.
    all.sort_by_key(|p| std::cmp::Reverse(p.plies));
    if !a.scan.json {
        outln!(
            "Positions where exactly one move wins ({}), deepest first; the answer with --json.",
            rules.label()
        );
        outln!("{:<10} {:>5} {:>5}  position", "material", "plies", "moves");
    }
    for p in &all {
        if a.scan.json {
            let line = tb.line(&p.position)?;
            let answer = PuzzleAnswer::new(&rules, p, &line);
            outln!("{}", serde_json::to_string(&answer).expect("serialisable"));
        } else {
            outln!(
                "{:<10} {:>5} {:>5}  {}",
                p.material.to_string(),
                p.plies,
                p.moves,
                p.position
            );
        }
    }
    if !a.scan.json {
        outln!("{} puzzles", all.len());
    }
    Ok(ExitCode::SUCCESS)
}
