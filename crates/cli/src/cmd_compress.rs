//! `jungletb compress`: the compressed distribution form of table files.

use crate::advice::{compress_hint, print_failure};
use crate::args::{parse_materials, thread_pool, CmdResult, RulesArgs, TablesArg};
use crate::output::{count, human_bytes};
use crate::progress::LONG_SOLVE_SLOTS;
use anyhow::bail;
use clap::Args as ClapArgs;
use jungletb_format::compressed::DEFAULT_ZSTD_LEVEL;
use jungletb_solver::{compress, CompressEvent, CompressOptions, CompressPhase, CompressedTable};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `compress`.
#[derive(ClapArgs, Debug)]
#[command(
    after_help = "Without --ruleset or --rule, every rule set's tables under a tables root are compressed (the summary names them); --ruleset NAME compresses that rule set's alone."
)]
pub struct Args {
    #[command(flatten)]
    tables: TablesArg,
    /// Only the tables of this rule set (default: every rule set's tables
    /// under --tables).
    #[command(flatten)]
    rules: RulesArgs,
    /// A tables root to write the compressed tables to, each in its rule
    /// set's directory (DIR/standard/ELvR.jtbz, whether --tables is a root
    /// or one rule set's directory); default: beside the originals, which
    /// are kept.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// zstd level of the distance blocks (1-22: higher is smaller and
    /// slower to write; reading speed hardly changes).
    #[arg(long, default_value_t = DEFAULT_ZSTD_LEVEL, value_name = "N",
          value_parser = clap::value_parser!(i32).range(1..=22))]
    level: i32,
    /// Store every position's value as it is, with no don't-cares. By
    /// default, positions whose value a capture or an entry into the den
    /// already reaches store whatever value compresses best, and probes
    /// recover them by searching those moves (which needs the tables the
    /// captures lead into beside this one, here and when probing).
    #[arg(long)]
    no_dont_cares: bool,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Only print problems and the final summary.
    #[arg(long, short)]
    quiet: bool,
    /// Print how long each table took to write and to check, and when a
    /// large table's write and check begin (also printed in logs, when
    /// standard error is not a terminal).
    #[arg(long, short, conflicts_with = "quiet")]
    verbose: bool,
    /// Only the table of this material (e.g. ELvR; repeatable).
    #[arg(long = "material", value_name = "KEY")]
    materials: Vec<String>,
}

pub fn run(a: Args) -> CmdResult {
    let opts = CompressOptions {
        tables: a.rules.directory_under(&a.tables.path)?,
        out: a.out,
        zstd_level: a.level,
        dont_cares: !a.no_dont_cares,
        materials: parse_materials(&a.materials)?,
    };
    let pool = thread_pool(a.threads)?;
    let (quiet, verbose, dont_cares) = (a.quiet, a.verbose, !a.no_dont_cares);
    // Phases of large tables are announced in logs too, so that an hour's
    // 6-piece compression shows what it is doing.
    let announce = verbose || (!quiet && !std::io::stderr().is_terminal());
    let report = pool.install(|| {
        compress(&opts, &|event| match event {
            CompressEvent::Phase { path, phase, slots } => {
                if announce && (verbose || slots >= LONG_SOLVE_SLOTS) {
                    let what = match phase {
                        CompressPhase::Writing => "writing",
                        CompressPhase::Checking => "written; checking",
                    };
                    errln!("{}: {what} ({slots} index slots)", path.display());
                }
            }
            CompressEvent::Done(t) if t.kept => {
                if !quiet {
                    outln!("kept {}", t.path.display());
                }
            }
            CompressEvent::Done(t) => {
                if !quiet {
                    // Bits a position, as the docs and the field count.
                    let per = |b: u64| 8.0 * b as f64 / t.positions.max(1) as f64;
                    let sizes = t.sizes.unwrap_or_default();
                    let timing = match t.timing {
                        Some(t) if verbose => format!(
                            ", written in {:.2} s, checked in {:.2} s",
                            t.write.as_secs_f64(),
                            t.check.as_secs_f64()
                        ),
                        _ => String::new(),
                    };
                    outln!(
                        "ok   {} ({} -> {}, bits a position: WDL {:.3} + DTM {:.3}{timing})",
                        t.path.display(),
                        human_bytes(t.plain_bytes),
                        human_bytes(t.bytes),
                        per(sizes.wdl_bytes),
                        per(sizes.dtm_bytes),
                    );
                }
            }
            CompressEvent::Failed { path, error } => {
                print_failure(path, error, compress_hint(dont_cares, error));
            }
            CompressEvent::Notice(m) => {
                if !quiet {
                    errln!("{m}");
                }
            }
            CompressEvent::Start { .. } => {}
        })
    })?;
    let sum = |f: &dyn Fn(&CompressedTable) -> u64| report.tables.iter().map(f).sum::<u64>();
    let kept = report.tables.iter().filter(|t| t.kept).count();
    let positions = sum(&|t| t.positions);
    let plain = sum(&|t| t.plain_bytes);
    let bytes = sum(&|t| t.bytes);
    let wdl = sum(&|t| t.sizes.map_or(0, |s| s.wdl_bytes));
    let dtm = sum(&|t| t.sizes.map_or(0, |s| s.dtm_bytes));
    let per = |b: u64| 8.0 * b as f64 / positions.max(1) as f64;
    // The rule sets compressed: their directories' names.
    let mut rule_sets: Vec<String> = report
        .tables
        .iter()
        .filter_map(|t| t.path.parent()?.file_name()?.to_str().map(String::from))
        .collect();
    rule_sets.sort();
    rule_sets.dedup();
    outln!(
        "{} of {} ({} compressed now, {} already done), {} positions: {} -> {} ({:.2} %), \
         bits a position: WDL (win/draw/loss) {:.3} + DTM (distance) {:.3} = {:.3}, {:.1} s",
        count(report.tables.len(), "table", "tables"),
        rule_sets.join(", "),
        report.tables.len() - kept,
        kept,
        positions,
        human_bytes(plain),
        human_bytes(bytes),
        100.0 * bytes as f64 / plain.max(1) as f64,
        per(wdl),
        per(dtm),
        per(bytes),
        report.elapsed.as_secs_f64()
    );
    if !report.failed.is_empty() {
        bail!(
            "{} could not be compressed",
            count(report.failed.len(), "table", "tables")
        );
    }
    Ok(ExitCode::SUCCESS)
}
