//! `jungletb generate`.

use crate::common::{human_bytes, parse_bytes, CmdResult, RulesArgs};
use clap::Args as ClapArgs;
use jungletb_indexer::Material;
use jungletb_solver::{generate, GenerateOptions};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `generate`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Generate every material with 2..=N pieces.
    #[arg(long, default_value_t = 3, value_name = "N")]
    max_pieces: u32,
    #[command(flatten)]
    rules: RulesArgs,
    /// Tables root directory (tables go to DIR/<ruleset>/).
    #[arg(
        long,
        default_value = "tables",
        env = "JUNGLETB_TABLES",
        value_name = "DIR"
    )]
    out: PathBuf,
    /// Generate just this material (e.g. ELvR) and what it depends on (repeatable).
    #[arg(long = "material", value_name = "KEY")]
    materials: Vec<String>,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// No progress bars and no summary.
    #[arg(long, short)]
    quiet: bool,
    /// Print figures for every table solved.
    #[arg(long, short)]
    verbose: bool,
    /// Memory budget, e.g. 4G or 512M (default: no limit). A material whose
    /// working arrays do not fit keeps them in memory-mapped files in the
    /// tables directory, paged by the kernel (slower, but it solves).
    #[arg(long, value_name = "BYTES", value_parser = parse_bytes)]
    mem: Option<u64>,
}

pub fn run(a: Args) -> CmdResult {
    if !(2..=8).contains(&a.max_pieces) {
        return Err(format!("--max-pieces must be 2..8, got {}", a.max_pieces));
    }
    let rules = a.rules.resolve_in(Some(&a.out))?;
    let materials = a
        .materials
        .iter()
        .map(|s| s.parse::<Material>().map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    let opts = GenerateOptions {
        root: a.out,
        rules,
        max_pieces: a.max_pieces,
        materials,
        threads: a.threads,
        quiet: a.quiet,
        verbose: a.verbose,
        mem: a.mem,
    };
    let report = generate(&opts).map_err(|e| e.to_string())?;
    if !a.quiet {
        let solved: Vec<_> = report.materials.iter().filter(|m| m.solved).collect();
        let positions: u64 = report.materials.iter().map(|m| m.positions).sum();
        let bytes: u64 = report.materials.iter().map(|m| m.bytes).sum();
        eprintln!(
            "{} tables in {} ({} solved now, {} kept): {} positions, {} on disk, {:.2} s",
            report.materials.len(),
            report.dir.display(),
            solved.len(),
            report.materials.len() - solved.len(),
            positions,
            human_bytes(bytes),
            report.elapsed.as_secs_f64()
        );
    }
    Ok(ExitCode::SUCCESS)
}
