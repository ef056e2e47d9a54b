//! `jungletb plan`.

use crate::args::{parse_bytes, CmdResult, RulesArgs, TablesArg};
use crate::output::{duration, human_bytes, human_bytes_as};
use anyhow::anyhow;
use anyhow::Context;
use clap::Args as ClapArgs;
use jungletb_solver::slurm::{self, SlurmOptions};
use jungletb_solver::{Calibration, Plan};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `plan`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Plan every material with 2..=N pieces (default 3 unless --material is given).
    #[arg(long, value_name = "N")]
    max_pieces: Option<u32>,
    /// Also plan this material (e.g. ELvR) and what it depends on (repeatable).
    #[arg(long = "material", value_name = "KEY")]
    materials: Vec<String>,
    #[command(flatten)]
    tables: TablesArg,
    #[command(flatten)]
    rules: RulesArgs,
    /// One JSON document instead of text.
    #[arg(long)]
    json: bool,
    /// Measure this machine's solve speed first (solves a 4-piece material
    /// in a temporary directory, a few seconds) instead of the built-in figure.
    #[arg(long)]
    calibrate: bool,
    /// Threads per generator (per Slurm task), for time estimates.
    #[arg(long, default_value_t = 2, value_name = "N")]
    threads: usize,
    /// Write Slurm batch scripts into DIR: one job array per piece count,
    /// chained with afterok, and DIR/submit.sh to submit them.
    #[arg(long, value_name = "DIR")]
    slurm: Option<PathBuf>,
    /// Target estimated length of one Slurm task, in minutes (above 0):
    /// materials are packed into tasks up to about this; a material
    /// estimated longer gets a task of its own.
    #[arg(long, default_value_t = 60.0, value_name = "MIN", value_parser = parse_minutes)]
    task_minutes: f64,
    /// At most N tasks of an array run at once (Slurm's %N; 0: no cap).
    #[arg(long, default_value_t = 0, value_name = "N")]
    max_running: usize,
    /// The jungletb binary the tasks run (default: this one).
    #[arg(long, value_name = "PATH")]
    binary: Option<PathBuf>,
    /// Extra #SBATCH option for every job, e.g. --sbatch=--partition=long (repeatable).
    #[arg(long = "sbatch", value_name = "OPTION", allow_hyphen_values = true)]
    sbatch: Vec<String>,
    /// Memory of one cluster node (e.g. 64G): materials that need more are
    /// flagged, and their Slurm tasks ask for the whole node and solve with
    /// file-backed working arrays.
    #[arg(long, value_name = "BYTES", value_parser = parse_bytes)]
    node_mem: Option<u64>,
    /// Accepted and ignored, for one release: every solve is in one byte a
    /// slot now, and so is every plan.
    #[arg(long, hide_short_help = true)]
    one_byte: bool,
}

pub fn run(a: Args) -> CmdResult {
    if let Some(n) = a.max_pieces.filter(|n| !(2..=16).contains(n)) {
        return Err(anyhow!(
            "--max-pieces must be 2 to 16 (a material has a piece a side, at most 16), got {n}"
        ));
    }
    let rules = a.rules.resolve_in(Some(&a.tables.path))?;
    let materials = crate::args::parse_materials(&a.materials)?;
    let calibration = if a.calibrate {
        Calibration::measure(a.threads.max(1)).context("calibrating")?
    } else {
        Calibration::default()
    };
    if a.one_byte {
        errln!("jungletb: note: --one-byte is the default now (every solve is in one byte a slot); it will be refused in a later release");
    }
    let list = Plan::request(&rules, a.max_pieces, &materials);
    let plan = Plan::new(&a.tables.path, &rules, list, calibration)?;
    let threads = a.threads.max(1);
    let mut scripts = Vec::new();
    if let Some(dir) = &a.slurm {
        let opts = slurm_options(&a, threads)?;
        if !plan.entries.is_empty() {
            scripts = slurm::write_scripts(&plan, &opts, dir)
                .with_context(|| format!("writing scripts to {}", dir.display()))?;
        }
    }

    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let written = if a.json {
        let doc = plan_answer(&plan, threads, a.node_mem, &scripts);
        let doc = serde_json::to_string(&doc).expect("serialisable");
        writeln!(out, "{doc}")
    } else {
        write_text(&mut out, &plan, threads, a.node_mem, &scripts)
    };
    match written {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Err(anyhow!("writing output: {e}")),
    }
}

/// `--slurm`'s options: the binary and tables root as absolute paths (with
/// a warning for each on a file system other nodes probably do not see),
/// the rule arguments, the resources of a task.
fn slurm_options(a: &Args, threads: usize) -> anyhow::Result<SlurmOptions> {
    let binary = match &a.binary {
        Some(b) => b.clone(),
        None => std::env::current_exe().context("finding this binary")?,
    };
    let root = std::fs::create_dir_all(&a.tables.path)
        .and_then(|_| std::fs::canonicalize(&a.tables.path))
        .with_context(|| a.tables.path.display().to_string())?;
    let mut rule_args = vec!["--ruleset".to_string(), a.rules.name().to_string()];
    for kv in &a.rules.rules {
        rule_args.push("--rule".into());
        rule_args.push(kv.clone());
    }
    for (what, path) in [("the tables", &root), ("the jungletb binary", &binary)] {
        if let Some(fs) = local_file_system(path) {
            errln!(
                "warning: {what} ({}): on a {fs} file system, which other nodes \
                 probably do not see: the tasks need the same tables directory and binary \
                 on every node (a shared file system such as NFS or Lustre)",
                path.display()
            );
        }
    }
    let opts = SlurmOptions {
        binary,
        root,
        rule_args,
        cpus_per_task: threads,
        task_seconds: a.task_minutes * 60.0,
        max_running: a.max_running,
        extra: a.sbatch.clone(),
        node_mem: a.node_mem,
    };
    Ok(opts)
}

/// `plan --json`'s answer.
fn plan_answer(
    plan: &Plan,
    threads: usize,
    node_mem: Option<u64>,
    scripts: &[std::path::PathBuf],
) -> jungletb_wire::PlanAnswer {
    jungletb_wire::PlanAnswer {
        tables: plan.dir.display().to_string(),
        present: plan.present,
        calibration: jungletb_wire::Calibration {
            ns_per_slot_per_thread: plan.calibration.ns_per_slot,
            ns_per_slot_per_thread_up_to_4: plan.calibration.ns_per_slot_small,
            ns_per_slot_per_thread_from_6: plan.calibration.ns_per_slot_six,
            peak_bytes_per_slot: plan.calibration.peak_bytes_per_slot,
            source: plan.calibration.source.clone(),
        },
        threads,
        materials: plan
            .entries
            .iter()
            .map(|e| jungletb_wire::PlannedMaterial {
                material: e.material.to_string(),
                pieces: e.material.piece_count(),
                slots: e.slots,
                depends_on: e.depends_on.iter().map(|m| m.to_string()).collect(),
                memory_bytes: e.memory_bytes,
                seconds: e.seconds_one_thread / threads as f64,
                reason: e.reason.clone(),
                over_node_memory: node_mem.is_some_and(|n| e.memory_bytes > n),
            })
            .collect(),
        node_memory_bytes: node_mem,
        total: jungletb_wire::PlanTotal {
            materials: plan.entries.len(),
            slots: plan.entries.iter().map(|e| e.slots).sum(),
            core_hours: plan.core_seconds() / 3600.0,
        },
        slurm_scripts: scripts.iter().map(|p| p.display().to_string()).collect(),
    }
}

fn write_text(
    out: &mut impl Write,
    plan: &Plan,
    threads: usize,
    node_mem: Option<u64>,
    scripts: &[PathBuf],
) -> std::io::Result<()> {
    writeln!(out, "tables: {}", plan.dir.display())?;
    writeln!(
        out,
        "calibration: per index slot per thread {} ({}; `jungletb plan --calibrate` \
         measures this machine)",
        plan.calibration.describe([4, 5, 6]),
        plan.calibration.source
    )?;
    if plan.entries.is_empty() {
        writeln!(
            out,
            "nothing to do: {} present",
            match plan.present {
                1 => "the 1 table is".to_string(),
                n => format!("all {n} tables are"),
            }
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "{:<12} {:>6} {:>14} {:>11} {:>12}  depends on / reason",
        "material",
        "pieces",
        "slots",
        "memory",
        format!("time ({threads} t)")
    )?;
    let largest = plan.largest_memory();
    for e in &plan.entries {
        let deps: Vec<String> = e.depends_on.iter().map(|m| m.to_string()).collect();
        let why = if e.reason == "missing" {
            String::new()
        } else {
            format!(" [{}]", e.reason)
        };
        writeln!(
            out,
            "{:<12} {:>6} {:>14} {:>11} {:>12}  {}{why}",
            e.material.to_string(),
            e.material.piece_count(),
            e.slots,
            human_bytes_as(e.memory_bytes, largest),
            duration(e.seconds_one_thread / threads as f64),
            deps.join(" "),
        )?;
    }
    for (k, level) in plan.levels() {
        writeln!(
            out,
            "{k} pieces: {} material(s), {} slots, {:.1} core-hours, largest needs {}",
            level.len(),
            level.iter().map(|e| e.slots).sum::<u64>(),
            level.iter().map(|e| e.seconds_one_thread).sum::<f64>() / 3600.0,
            human_bytes(level.iter().map(|e| e.memory_bytes).max().unwrap_or(0)),
        )?;
    }
    writeln!(
        out,
        "to do: {} material(s) ({} present), {:.1} core-hours in all",
        plan.entries.len(),
        plan.present,
        plan.core_seconds() / 3600.0
    )?;
    if let Some(node) = node_mem {
        let over: Vec<String> = plan
            .entries
            .iter()
            .filter(|e| e.memory_bytes > node)
            .map(|e| e.material.to_string())
            .collect();
        match over.len() {
            0 => writeln!(out, "every material fits a node of {}", human_bytes(node))?,
            n => writeln!(
                out,
                "{n} material(s) need more than a node's {}, solved with file-backed working \
                 arrays (slower): {}",
                human_bytes(node),
                if n > 12 {
                    format!("{} … {}", over[..6].join(" "), over[n - 6..].join(" "))
                } else {
                    over.join(" ")
                }
            )?,
        }
    }
    for s in scripts {
        writeln!(out, "wrote {}", s.display())?;
    }
    Ok(())
}

/// The type of the file system holding `path` when it is one that other
/// nodes of a cluster cannot see (a RAM disk, or a disk of this machine
/// under a temporary directory), read from `/proc/self/mountinfo`. `None`
/// when it looks shared, or cannot be told (not Linux).
fn local_file_system(path: &std::path::Path) -> Option<String> {
    let path = std::fs::canonicalize(path).ok()?;
    let info = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
    // The mount with the longest mount point that holds the path.
    let (_, fs) = info
        .lines()
        .filter_map(|l| {
            let fields: Vec<&str> = l.split(' ').collect();
            let mount = fields.get(4)?;
            let dash = fields.iter().position(|f| *f == "-")?;
            let fs = fields.get(dash + 1)?;
            path.starts_with(mount)
                .then(|| (mount.len(), fs.to_string()))
        })
        .max_by_key(|(len, _)| *len)?;
    let temporary = ["/tmp", "/var/tmp", "/dev/shm", "/run"]
        .iter()
        .any(|t| path.starts_with(t));
    let shared = [
        "nfs",
        "nfs4",
        "lustre",
        "gpfs",
        "beegfs",
        "cifs",
        "smb3",
        "ceph",
        "fuse.glusterfs",
        "glusterfs",
        "panfs",
        "fuse.sshfs",
        "9p",
        "virtiofs",
    ];
    match fs.as_str() {
        "tmpfs" | "ramfs" => Some(fs),
        f if shared.contains(&f) => None,
        _ if temporary => Some(format!("{fs} (temporary directory)")),
        _ => None,
    }
}

/// A task length in minutes: a finite number above 0.
fn parse_minutes(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(m) if m.is_finite() && m > 0.0 => Ok(m),
        Ok(_) => Err(format!(
            "{text}: a task length must be a number of minutes above 0"
        )),
        Err(e) => Err(format!("{text}: {e}")),
    }
}
