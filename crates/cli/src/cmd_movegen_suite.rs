//! `jungletb movegen-suite`: write the move-generator suite of a rule set,
//! or check another program's answers against it.

use crate::args::{CmdResult, RulesArgs};
use anyhow::{anyhow, Context};
use clap::Args as ClapArgs;
use jungletb_suite::{check, suite, Difference, Point};
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `movegen-suite`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    #[command(flatten)]
    rules: RulesArgs,
    /// Check another program's answers (JSON lines, `-` for standard
    /// input) instead of writing the suite: each difference with the rule
    /// points it touches; exit status 1 if any.
    #[arg(long, value_name = "FILE")]
    check: Option<PathBuf>,
}

pub fn run(a: Args) -> CmdResult {
    let rules = a.rules.resolve()?;
    let Some(file) = a.check else {
        for line in suite(&rules) {
            outln!("{}", serde_json::to_string(&line)?);
        }
        return Ok(ExitCode::SUCCESS);
    };
    let shown = file.display().to_string();
    let mut text = String::new();
    if file.as_os_str() == "-" {
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading the answers from standard input")?;
    } else {
        text = std::fs::read_to_string(&file)
            .with_context(|| format!("{shown}: reading the answers"))?;
    }
    let report = check(&rules, &text).map_err(|(line, e)| anyhow!("{shown} line {line}: {e}"))?;
    if report.lines == 0 {
        return Err(anyhow!(
            "{shown}: no line to check (one JSON object a line, each with a \"position\")"
        ));
    }
    for d in &report.differences {
        show(d);
    }
    let label = rules.label();
    if report.differences.is_empty() {
        outln!(
            "{} positions checked under {label}: every answer agrees with jungletb",
            report.lines
        );
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        "{} positions checked under {label}: {} differ",
        report.lines,
        report.differences.len()
    );
    outln!("by rule point:");
    for (point, lines) in report.by_point() {
        let list: Vec<String> = lines.iter().take(8).map(|l| l.to_string()).collect();
        let more = if lines.len() > 8 { ", …" } else { "" };
        outln!(
            "  {}{}: {} position{} (line {}{more})",
            point,
            options(point),
            lines.len(),
            if lines.len() == 1 { "" } else { "s" },
            list.join(", ")
        );
    }
    Ok(ExitCode::FAILURE)
}

/// One differing line.
fn show(d: &Difference) {
    outln!("line {}: {}", d.line, d.position);
    let points = |p: &[Point]| {
        if p.is_empty() {
            String::from("no step or crossing of the side to move")
        } else {
            p.iter().map(|p| p.text()).collect::<Vec<_>>().join(", ")
        }
    };
    for (mv, p) in &d.missing {
        outln!("  missing {mv} (legal here): {}", points(p));
    }
    for (mv, p) in &d.extra {
        outln!("  extra   {mv} (not legal here): {}", points(p));
    }
    for (depth, ours, theirs) in &d.perft {
        outln!("  perft {depth}: {ours} here, {theirs} in the answers");
    }
}

/// The options that decide `point`'s moves, as ` [--rule a, b]`.
fn options(point: Point) -> String {
    match point.options() {
        [] => String::new(),
        names => format!(" [--rule {}]", names.join(", ")),
    }
}
