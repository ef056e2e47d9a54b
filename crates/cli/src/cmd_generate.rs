//! `jungletb generate`.

use crate::args::{parse_bytes, thread_pool, CmdResult, RulesArgs};
use crate::output::{count, duration, human_bytes};
use crate::progress::Progress;
use anyhow::anyhow;
use clap::Args as ClapArgs;
use jungletb_indexer::Material;
use jungletb_solver::{generate_until, Calibration, GenerateOptions, Plan};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

/// Arguments of `generate`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Generate every material with 2..=N pieces.
    #[arg(long, default_value_t = 3, value_name = "N")]
    max_pieces: u32,
    #[command(flatten)]
    rules: RulesArgs,
    /// Tables root directory (tables go to DIR/RULESET/); `--tables` is
    /// another name for it, as in the other commands.
    #[arg(
        long,
        visible_alias = "tables",
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
    /// Solve even when the tables directory's file system reports less space
    /// available than the tables need (checked before solving, at a byte a
    /// slot): for file systems that store a table in less than its size
    /// (compression, deduplication). A disk that does fill up fails the
    /// write of the table being made; finished tables are kept.
    #[arg(long)]
    no_space_check: bool,
    /// Accepted and ignored, for one release: every solve is in one byte a
    /// slot now (two for a material whose distances a byte cannot hold).
    #[arg(long, hide_short_help = true)]
    one_byte: bool,
}

pub fn run(a: Args) -> CmdResult {
    if !(2..=16).contains(&a.max_pieces) {
        // (Above 7 pieces the index may refuse, with the material and its size.)
        return Err(anyhow!(
            "--max-pieces must be 2 to 16 (a material has a piece a side, at most 16), got {}",
            a.max_pieces
        ));
    }
    let rules = a.rules.resolve_in(Some(&a.out))?;
    let materials = crate::args::parse_materials(&a.materials)?;
    let opts = GenerateOptions {
        root: a.out,
        rules,
        max_pieces: a.max_pieces,
        materials,
        mem: a.mem,
        check_space: !a.no_space_check,
    };
    if a.one_byte && !a.quiet {
        errln!("jungletb: note: --one-byte is the default now (every solve is in one byte a slot); it will be refused in a later release");
    }
    let plan = plan_of(&opts)?;
    // A solve that needs more memory than the machine has would page or be
    // killed: refused, with the --mem that runs it, unless --mem is given.
    if opts.mem.is_none() {
        if let Some(advice) = crate::advice::memory_advice(&plan) {
            return Err(anyhow!("{advice}"));
        }
    }
    if !a.quiet {
        announce(&plan, a.threads);
    }
    // Ctrl-C or SIGTERM (Slurm's time limit and preemption send it): the
    // solve stops within its level and saves a checkpoint, which the same
    // command resumes from; a second signal quits at once. Finished tables
    // are safe either way (they appear only by atomic rename), and the
    // next run clears what this one leaves.
    static STOP: AtomicBool = AtomicBool::new(false);
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::Relaxed) {
            errln!("\njungletb: interrupted; run the same command again to resume (finished tables are kept)");
            std::process::exit(130);
        }
        errln!(
            "\njungletb: stopping: the solve under way saves a checkpoint (a signal again quits at once)"
        );
    });
    let progress = Progress::new(a.quiet, a.verbose);
    let pool = thread_pool(a.threads)?;
    let report = pool.install(|| generate_until(&opts, &|e| progress.event(e), &STOP));
    progress.finish();
    let report = report?;
    if !a.quiet {
        let solved: Vec<_> = report.materials.iter().filter(|m| m.solved).collect();
        let positions: u64 = report.materials.iter().map(|m| m.positions).sum();
        let bytes: u64 = report.materials.iter().map(|m| m.bytes).sum();
        errln!(
            "{} in {} ({} solved now, {} kept): {} positions, {} on disk, {:.2} s",
            count(report.materials.len(), "table", "tables"),
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

/// The plan of what `opts` still has to solve (built-in calibration).
fn plan_of(opts: &GenerateOptions) -> anyhow::Result<Plan> {
    let list = if opts.materials.is_empty() {
        Material::all(opts.max_pieces, |a| opts.rules.animal_allowed(a))
    } else {
        Material::with_dependencies(&opts.materials)
    };
    Ok(Plan::new(
        &opts.root,
        &opts.rules,
        list,
        Calibration::default(),
    )?)
}

/// States the size of a long run and an estimate of its time before it
/// starts (runs estimated under a minute start silently).
fn announce(plan: &Plan, threads: Option<usize>) {
    let threads = threads.unwrap_or_else(rayon::current_num_threads).max(1);
    let seconds = plan.core_seconds() / threads as f64;
    if seconds >= 60.0 {
        let slots: u64 = plan.entries.iter().map(|e| e.slots).sum();
        let memory = plan.largest_memory();
        let rate = rates(plan);
        errln!(
            "{} to solve ({} present): {slots} index slots, about {} on {threads} thread(s), up to {} of memory per table (estimates: {rate} per slot per thread, see `jungletb plan`)",
            count(plan.entries.len(), "table", "tables"),
            plan.present,
            duration(seconds),
            human_bytes(memory),
        );
    }
}

/// The rates an estimate of `plan` used, as the announcement says them:
/// each class of piece count present has its own.
fn rates(plan: &Plan) -> String {
    plan.calibration
        .describe(plan.entries.iter().map(|e| e.material.piece_count()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungletb_rules::Ruleset;

    /// A run names the rates its estimate used, one per class of piece
    /// count (a 6-piece run named only the 5-piece one, 260 ns, for a
    /// 24-minute estimate made at 540).
    #[test]
    fn the_announced_rates_are_those_the_estimate_used() {
        let dir = tempfile::tempdir().unwrap();
        let rules = Ruleset::standard();
        let cal = Calibration::default();
        let plan_of = |m: &str| {
            let list = Material::with_dependencies(&[m.parse().unwrap()]);
            Plan::new(dir.path(), &rules, list, cal.clone()).unwrap()
        };
        assert_eq!(
            rates(&plan_of("ELTvEL")),
            format!(
                "{:.0} ns up to 4 pieces, {:.0} ns at 5",
                cal.ns_per_slot_small, cal.ns_per_slot
            )
        );
        let with_six = rates(&plan_of("ELTvELT"));
        assert!(
            with_six.ends_with(&format!("{:.0} ns from 6", cal.ns_per_slot_six)),
            "{with_six}"
        );
        assert_eq!(
            rates(&plan_of("ELvTR")),
            format!("{:.0} ns up to 4 pieces", cal.ns_per_slot_small)
        );
    }
}
