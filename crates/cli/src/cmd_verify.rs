//! `jungletb verify`.

use crate::advice::{hint_for, print_failure};
use crate::args::{parse_materials, thread_pool, CmdResult, RulesArgs, TablesArg};
use crate::output::count;
use crate::progress::SlotProgress;
use clap::Args as ClapArgs;
use jungletb_solver::{verify_with, FileVerdict, Outcome, VerifyOptions, VerifyProgress};
use jungletb_wire as wire;
use std::process::ExitCode;

/// Arguments of `verify`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    #[command(flatten)]
    tables: TablesArg,
    /// Only the tables of this rule set (default: every rule set's tables
    /// under --tables).
    #[command(flatten)]
    rules: RulesArgs,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Only print problems and the final summary.
    #[arg(long, short)]
    quiet: bool,
    /// One JSON object per table, then a summary object.
    #[arg(long)]
    json: bool,
    /// Only the table of this material (e.g. ELvR; repeatable).
    #[arg(long = "material", value_name = "KEY")]
    materials: Vec<String>,
}

pub fn run(a: Args) -> CmdResult {
    let opts = VerifyOptions {
        tables: a.rules.directory_under(&a.tables.path)?,
        materials: parse_materials(&a.materials)?,
    };
    let pool = thread_pool(a.threads)?;
    let start = std::time::Instant::now();
    let (json, quiet) = (a.json, a.quiet);
    let progress = SlotProgress::new(quiet);
    let verdicts = pool.install(|| {
        verify_with(
            &opts,
            &mut |v| progress.between_files(|| print_verdict(v, json, quiet)),
            &|p: VerifyProgress| progress.update(p.path, p.done, p.slots),
        )
    });
    progress.finish();
    let verdicts = verdicts?;
    let seconds = start.elapsed().as_secs_f64();
    let checked: u64 = verdicts.iter().map(|v| v.positions).sum();
    let bad = verdicts.iter().filter(|v| !v.passed()).count();
    if a.json {
        let summary = wire::VerifySummary {
            tables: verdicts.len(),
            positions: checked,
            failed: bad,
            seconds,
        };
        outln!("{}", serde_json::to_string(&summary).expect("serialisable"));
    } else {
        outln!(
            "{}, {} positions checked, {} failed, {:.2} s",
            count(verdicts.len(), "table", "tables"),
            checked,
            bad,
            seconds
        );
    }
    Ok(if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// One file's verdict as `verify --json` writes it.
fn verdict_json(v: &FileVerdict) -> wire::FileVerdict {
    let (error, examples) = match &v.outcome {
        Outcome::Consistent { .. } | Outcome::AnswersAsPlain { .. } => (None, Vec::new()),
        Outcome::Inconsistent {
            mismatches,
            examples,
        } => (
            Some(format!(
                "{mismatches} of {} positions disagree with their successors",
                v.positions
            )),
            examples
                .iter()
                .map(|(p, s, c)| wire::Disagreement {
                    position: p.clone(),
                    stored: s.to_string(),
                    successors_give: c.to_string(),
                })
                .collect(),
        ),
        Outcome::Failed(e) => (Some(wire::chain(e)), Vec::new()),
    };
    wire::FileVerdict {
        file: v.path.display().to_string(),
        ok: v.passed(),
        positions: v.positions,
        error,
        examples,
    }
}

/// Prints one file's verdict: a JSON line, or a line of text (with `-q`
/// only the files that failed).
fn print_verdict(v: &FileVerdict, json: bool, quiet: bool) {
    if json {
        // With -q only the files that failed, then the summary.
        if !(quiet && v.passed()) {
            let line = verdict_json(v);
            outln!("{}", serde_json::to_string(&line).expect("serialisable"));
        }
        return;
    }
    match &v.outcome {
        _ if v.passed() && quiet => {}
        Outcome::Consistent { ruleset } => {
            outln!(
                "ok   {} ({} positions, {ruleset})",
                v.path.display(),
                v.positions
            )
        }
        Outcome::AnswersAsPlain { plain } => {
            outln!(
                "ok   {} (same answers as {})",
                v.path.display(),
                plain.display()
            )
        }
        Outcome::Inconsistent {
            mismatches,
            examples,
        } => {
            outln!(
                "FAIL {}: {mismatches} of {} positions disagree with their successors",
                v.path.display(),
                v.positions
            );
            for (pos, stored, computed) in examples {
                outln!("     {pos}: stored {stored}, successors give {computed}");
            }
        }
        Outcome::Failed(e) => {
            print_failure(&v.path, e, hint_for(e));
        }
    }
}
