//! Batch scripts that run a [`Plan`] on a Slurm cluster.
//!
//! In Jungle a capture removes a piece and nothing is ever added, so a
//! material of k pieces needs only tables of k − 1 pieces: the work is a
//! chain of levels, and the materials of one level are independent. The
//! scripts follow that shape:
//!
//! - one job array per piece count (`level-<k>.sbatch`), or, where the
//!   level's materials need very different memory (6 pieces: 1 to 40 GB),
//!   one per memory class of the level (`level-<k>-<GiB>g.sbatch`, every
//!   material of class `c` needing at most `c` GiB), so that small
//!   materials do not ask for the largest one's memory; its tasks are bins
//!   of materials balanced by estimated cost (longest first, each to the
//!   least loaded bin), listed one bin per line in `tasks-<name>.txt`;
//! - every task runs `jungletb generate --material …` on the shared tables
//!   directory: generators claim materials one at a time (see
//!   [`crate::generate()`]), so overlapping or repeated tasks are safe;
//! - `submit.sh` submits the levels in order, each array with
//!   `--dependency=afterok:` on every array of the level before;
//! - a material that needs more memory than a node holds (given
//!   `node_mem`) is flagged and still planned: its task asks for the whole
//!   node and gives `generate` a budget within it, so that its working
//!   arrays live in memory-mapped files (slower, see `docs/cluster.md`).
//!
//! Arrays stay within Slurm's default `MaxArraySize` (1001, so at most 1000
//! tasks), and `%N` caps the tasks running at once. Every task of an array
//! gets the array's largest memory and time estimate (Slurm sets them per
//! array). After a failure, running `plan` again writes scripts for what is
//! still missing: resubmitting is the same command.

use crate::batch::plan::{Plan, PlanEntry};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Largest array Slurm accepts by default (`MaxArraySize` 1001 → indices
/// 0..=1000); we stay one below.
pub const MAX_ARRAY_TASKS: usize = 1000;

/// How to shape the jobs.
#[derive(Debug, Clone)]
pub struct SlurmOptions {
    /// The `jungletb` binary the tasks run (an absolute path on the nodes).
    pub binary: PathBuf,
    /// The tables root the tasks write to (shared by all nodes).
    pub root: PathBuf,
    /// Rule-set arguments for `generate` (e.g. `--ruleset leiden`).
    pub rule_args: Vec<String>,
    /// CPUs (threads) per task.
    pub cpus_per_task: usize,
    /// Target estimated duration of one task, in seconds: bins are filled
    /// up to about this (a single larger material gets a bin of its own).
    pub task_seconds: f64,
    /// At most this many tasks of an array run at once (`%N`); 0: no cap.
    pub max_running: usize,
    /// Extra `#SBATCH` lines (e.g. `--partition=long`), written verbatim.
    pub extra: Vec<String>,
    /// Memory of one node (bytes), if known: materials that need more are
    /// flagged and solved within it through file-backed memory.
    pub node_mem: Option<u64>,
}

/// One job array: a level, or one memory class of a level.
#[derive(Debug, Clone)]
pub struct ArrayJob {
    /// Piece count.
    pub pieces: u32,
    /// The array's name in file names: `<k>`, or `<k>-<GiB>g` for one
    /// memory class of a level of several.
    pub name: String,
    /// The materials of this array need more memory than a node holds:
    /// they run within `node_mem` with file-backed working arrays.
    pub over_node: bool,
    /// Materials of each task.
    pub tasks: Vec<Vec<String>>,
    /// The memory budget each task gives `jungletb generate --mem` (MiB):
    /// the plan's estimate for the level's largest material, at least 256.
    pub mem_mib: u64,
    /// The memory each task asks Slurm for (`#SBATCH --mem`, MiB): the
    /// budget plus a quarter and 256 MiB, for what the process holds
    /// beside its working arrays (the binary, the maps of the smaller
    /// tables a capture reads, allocator slack), so that the job is not
    /// killed at its own budget.
    pub alloc_mib: u64,
    /// Time limit per task (minutes).
    pub minutes: u64,
}

/// The memory class of an entry: the least power of two of GiB that holds
/// its estimate (`u32::MAX` for one over the node's memory).
fn memory_class(e: &PlanEntry, node_mem: Option<u64>) -> u32 {
    if node_mem.is_some_and(|n| e.memory_bytes > n) {
        return u32::MAX;
    }
    let gib = e.memory_bytes.div_ceil(1 << 30).max(1);
    gib.next_power_of_two().trailing_zeros()
}

/// Splits a plan into job arrays: per piece count, and within one by memory
/// class when its materials' classes differ.
pub fn arrays(plan: &Plan, opts: &SlurmOptions) -> Vec<ArrayJob> {
    let mut out = Vec::new();
    for (k, level) in plan.levels() {
        let mut classes: std::collections::BTreeMap<u32, Vec<&PlanEntry>> = Default::default();
        for e in level {
            classes
                .entry(memory_class(e, opts.node_mem))
                .or_default()
                .push(e);
        }
        let several = classes.len() > 1;
        for (class, entries) in classes {
            let name = match (several, class) {
                (false, _) => k.to_string(),
                (true, u32::MAX) => format!("{k}-over-node"),
                (true, c) => format!("{k}-{}g", 1u64 << c),
            };
            out.push(array(k, name, class == u32::MAX, entries, opts));
        }
    }
    out
}

/// One array of `entries` (of `k` pieces).
fn array(
    k: u32,
    name: String,
    over_node: bool,
    level: Vec<&PlanEntry>,
    opts: &SlurmOptions,
) -> ArrayJob {
    let threads = opts.cpus_per_task.max(1);
    let secs = |e: &PlanEntry| e.seconds_one_thread / threads as f64;
    let total: f64 = level.iter().map(|e| secs(e)).sum();
    // A target below every material's estimate gives each material a task
    // of its own (as many as an array may hold).
    let bins = ((total / opts.task_seconds.max(f64::MIN_POSITIVE)).ceil() as usize)
        .clamp(1, level.len().min(MAX_ARRAY_TASKS));
    // Longest processing time first: each material to the least loaded
    // bin.
    let mut sorted = level.clone();
    sorted.sort_by(|a, b| secs(b).total_cmp(&secs(a)));
    let mut load = vec![0.0f64; bins];
    let mut tasks: Vec<Vec<&PlanEntry>> = vec![Vec::new(); bins];
    for e in sorted {
        let (i, _) = load
            .iter()
            .enumerate()
            .min_by(|a, b| a.1.total_cmp(b.1))
            .expect("at least one bin");
        load[i] += secs(e);
        tasks[i].push(e);
    }
    let max_load = load.iter().cloned().fold(0.0, f64::max);
    let max_mem = level.iter().map(|e| e.memory_bytes).max().unwrap_or(0);
    let (mem_mib, alloc_mib) = match opts.node_mem.filter(|_| over_node) {
        // The whole node; generate's budget leaves room for the page cache
        // of its working files and the rest of the process.
        Some(node) => {
            let node_mib = node >> 20;
            (node_mib * 3 / 5, node_mib * 15 / 16)
        }
        None => {
            let mib = max_mem.div_ceil(1 << 20).max(256);
            (mib, mib * 5 / 4 + 256)
        }
    };
    ArrayJob {
        pieces: k,
        name,
        over_node,
        tasks: tasks
            .into_iter()
            .map(|t| t.iter().map(|e| e.material.to_string()).collect())
            .collect(),
        mem_mib,
        alloc_mib,
        // Twice the estimate plus ten minutes: estimates come from
        // another machine or material; file-backed solves take longer
        // still (four times).
        minutes: (max_load * if over_node { 8.0 } else { 2.0 } / 60.0).ceil() as u64 + 10,
    }
}

/// Writes the scripts for `plan` into `dir` and returns the paths written.
pub fn write_scripts(
    plan: &Plan,
    opts: &SlurmOptions,
    dir: &Path,
) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir.join("logs"))?;
    let dir = std::fs::canonicalize(dir)?;
    let mut written = Vec::new();
    let mut submit = String::from(
        "#!/bin/bash\n\
         # Submits the job arrays written by `jungletb plan --slurm`, each level\n\
         # after the one before has succeeded (afterok). Run `jungletb plan` again\n\
         # after a failure: it writes scripts for what is still missing.\n\
         set -euo pipefail\n\
         cd \"$(dirname \"$0\")\"\n\
         dependency=()\n\
         level_jobs=\"\"\n",
    );
    let jobs = arrays(plan, opts);
    for (n, job) in jobs.iter().enumerate() {
        let k = job.pieces;
        let name = &job.name;
        let tasks_file = dir.join(format!("tasks-{name}.txt"));
        let mut lines = String::new();
        for t in &job.tasks {
            lines.push_str(&t.join(" "));
            lines.push('\n');
        }
        std::fs::write(&tasks_file, lines)?;
        written.push(tasks_file.clone());

        let s = array_script(job, opts, &dir, &tasks_file);
        let script = dir.join(format!("level-{name}.sbatch"));
        std::fs::write(&script, s)?;
        written.push(script);

        // Every array of a level waits for every array of the level before.
        let _ = writeln!(
            submit,
            "job=$(sbatch --parsable ${{dependency[@]+\"${{dependency[@]}}\"}} level-{name}.sbatch)\n\
             job=${{job%%;*}}\n\
             echo \"level {name}: job $job ({} task(s))\"\n\
             level_jobs=\"$level_jobs:$job\"",
            job.tasks.len()
        );
        if jobs.get(n + 1).is_none_or(|next| next.pieces != k) {
            let _ = writeln!(
                submit,
                "dependency=(--dependency=afterok$level_jobs)\nlevel_jobs=\"\""
            );
        }
    }
    let submit_path = dir.join("submit.sh");
    std::fs::write(&submit_path, submit)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&submit_path, std::fs::Permissions::from_mode(0o755))?;
    }
    written.push(submit_path);
    Ok(written)
}

/// The sbatch script of one job array: its resources, then each task
/// reading its line of materials from `tasks_file` and running `generate`.
fn array_script(job: &ArrayJob, opts: &SlurmOptions, dir: &Path, tasks_file: &Path) -> String {
    let (k, name) = (job.pieces, &job.name);
    let cap = if opts.max_running > 0 {
        format!("%{}", opts.max_running)
    } else {
        String::new()
    };
    let extra: String = opts
        .extra
        .iter()
        .map(|l| format!("#SBATCH {l}\n"))
        .collect();
    let over_node = if job.over_node {
        "# These materials need more memory than a node holds: generate keeps its\n\
         # working arrays in memory-mapped files within --mem (slower).\n"
    } else {
        ""
    };
    let mut cmd = vec![
        quote(&opts.binary.display().to_string()),
        "generate".into(),
        "--out".into(),
        quote(&opts.root.display().to_string()),
    ];
    cmd.extend(opts.rule_args.iter().map(|a| quote(a)));
    cmd.push("--threads \"${SLURM_CPUS_PER_TASK:-1}\"".into());
    cmd.push(format!("--mem {}M", job.mem_mib));
    cmd.push("--verbose".into());
    // `${a[@]+"${a[@]}"}`: an empty array under `set -u` is an error
    // in bash before 4.4 (RHEL 7's 4.2 among them).
    cmd.push("${args[@]+\"${args[@]}\"}".into());
    // `--signal`: SIGTERM (the time limit's warning, or preemption) goes to
    // this script this long before the limit; passed on, generate saves its
    // solve's state within the level and exits with 75, and the task is
    // requeued to resume there.
    format!(
        r#"#!/bin/bash
#SBATCH --job-name=jungletb-{name}
#SBATCH --array=0-{last}{cap}
#SBATCH --cpus-per-task={cpus}
#SBATCH --mem={alloc}M
#SBATCH --time={time}
#SBATCH --signal=B:TERM@{lead}
#SBATCH --requeue
#SBATCH --output={log}
{extra}# {materials} material(s) of {k} pieces in {tasks} task(s); each task solves the materials
# of its line of tasks-{name}.txt (and any missing dependency) in turn.
{over_node}set -euo pipefail
line=$(sed -n "$((SLURM_ARRAY_TASK_ID + 1))p" {tasks_file})
args=()
for m in $line; do args+=(--material "$m"); done
{cmd} &
pid=$!
trap 'kill -TERM "$pid" 2>/dev/null || true' TERM
status=0
wait "$pid" || status=$?
# A wait cut short by the trap: wait for generate itself.
if [ "$status" -gt 128 ]; then status=0; wait "$pid" || status=$?; fi
if [ "$status" -eq 75 ]; then
  scontrol requeue "${{SLURM_ARRAY_JOB_ID}}_${{SLURM_ARRAY_TASK_ID}}"
fi
exit "$status"
"#,
        last = job.tasks.len() - 1,
        cpus = opts.cpus_per_task.max(1),
        alloc = job.alloc_mib,
        time = slurm_time(job.minutes),
        lead = signal_lead_seconds(job.minutes),
        log = dir.join(format!("logs/level-{name}-%A_%a.out")).display(),
        materials = job.tasks.iter().map(Vec::len).sum::<usize>(),
        tasks = job.tasks.len(),
        tasks_file = quote(&tasks_file.display().to_string()),
        cmd = cmd.join(" "),
    )
}

/// Seconds before a task's limit of `minutes` that Slurm sends SIGTERM:
/// a tenth of the limit, between one and ten minutes: the solve stops
/// within its level, but a stop during a 6-piece sweep lets the sweep run
/// to its end (up to a few minutes), and the checkpoint is a byte a slot
/// to write.
fn signal_lead_seconds(minutes: u64) -> u64 {
    (minutes * 6).clamp(60, 600)
}

/// Minutes as Slurm's `D-HH:MM:SS`.
fn slurm_time(minutes: u64) -> String {
    format!(
        "{}-{:02}:{:02}:00",
        minutes / 1440,
        minutes / 60 % 24,
        minutes % 60
    )
}

/// Single-quotes `s` for the shell.
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::plan::Calibration;
    use jungletb_indexer::Material;
    use jungletb_rules::Ruleset;

    fn options() -> SlurmOptions {
        SlurmOptions {
            binary: "/opt/jungletb".into(),
            root: "/shared/tables".into(),
            rule_args: vec!["--ruleset".into(), "standard".into()],
            cpus_per_task: 2,
            task_seconds: 0.5,
            max_running: 4,
            extra: vec![],
            node_mem: None,
        }
    }

    /// The plan of every standard material up to `pieces`, in a temporary
    /// tables directory (kept alive by the returned guard).
    fn standard_plan(pieces: u32) -> (tempfile::TempDir, Plan) {
        let dir = tempfile::tempdir().unwrap();
        let rules = Ruleset::standard();
        let list = Plan::request(&rules, Some(pieces), &[]);
        let plan = Plan::new(dir.path(), &rules, list, Calibration::default()).unwrap();
        (dir, plan)
    }

    /// The arrays' tasks hold every material of the plan exactly once.
    fn assert_every_material_once(plan: &Plan, jobs: &[ArrayJob]) {
        let mut all: Vec<String> = jobs.iter().flat_map(|j| j.tasks.concat()).collect();
        all.sort();
        let mut expected: Vec<String> = plan
            .entries
            .iter()
            .map(|e| e.material.to_string())
            .collect();
        expected.sort();
        assert_eq!(all, expected);
    }

    #[test]
    fn a_task_target_below_every_estimate_gives_each_material_a_task() {
        let dir = tempfile::tempdir().unwrap();
        let rules = Ruleset::standard();
        let four: Vec<Material> = ["ELvTR", "TRvTR", "LTvRP", "WDvCP"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let list = Plan::request(&rules, Some(3), &four);
        let plan = Plan::new(dir.path(), &rules, list, Calibration::default()).unwrap();
        let mut opts = options();
        // Each 4-piece material is estimated at a second or less.
        opts.task_seconds = 0.006;
        let jobs = arrays(&plan, &opts);
        let last = jobs.last().unwrap();
        assert_eq!(last.pieces, 4);
        assert_eq!(last.tasks.len(), 4, "{:?}", last.tasks);
        assert_every_material_once(&plan, &jobs);
    }

    #[test]
    fn arrays_cover_every_material_once_within_slurm_limits() {
        let (_dir, plan) = standard_plan(4);
        let jobs = arrays(&plan, &options());
        assert_eq!(jobs.iter().map(|j| j.pieces).collect::<Vec<_>>(), [2, 3, 4]);
        assert_every_material_once(&plan, &jobs);
        for j in &jobs {
            assert!(!j.tasks.is_empty() && j.tasks.len() <= MAX_ARRAY_TASKS);
            assert!(j.tasks.iter().all(|t| !t.is_empty()));
            assert!(j.mem_mib >= 256 && j.minutes >= 10);
            // Slurm's allocation has room above jungletb's own budget.
            assert!(j.alloc_mib >= j.mem_mib * 5 / 4 + 256);
        }
        // 4-piece: 848 materials of about a second each → many bins, none
        // empty, loads balanced by the greedy packing.
        assert!(jobs[2].tasks.len() > 100);
    }

    #[test]
    fn scripts_chain_levels_and_quote_paths() {
        let (dir, plan) = standard_plan(3);
        let out = dir.path().join("slurm");
        let mut opts = options();
        opts.root = "/shared/it's here".into();
        write_scripts(&plan, &opts, &out).unwrap();
        let submit = std::fs::read_to_string(out.join("submit.sh")).unwrap();
        assert!(submit.find("level-2.sbatch").unwrap() < submit.find("level-3.sbatch").unwrap());
        assert!(submit.contains("dependency=(--dependency=afterok$level_jobs)"));
        let level = std::fs::read_to_string(out.join("level-3.sbatch")).unwrap();
        assert!(level.contains("#SBATCH --signal=B:TERM@"));
        assert!(level.contains("#SBATCH --requeue"));
        assert!(level.contains("scontrol requeue"));
        assert!(level.contains("#SBATCH --array=0-"));
        assert!(level.contains("%4"));
        assert!(level.contains("'/shared/it'\\''s here'"));
        assert!(level.contains("--cpus-per-task=2"));
        let tasks = std::fs::read_to_string(out.join("tasks-3.txt")).unwrap();
        let three = plan
            .entries
            .iter()
            .filter(|e| e.material.piece_count() == 3)
            .count();
        assert_eq!(tasks.split_whitespace().count(), three);
    }

    /// The whole 6-piece set (every material up to 6 pieces): arrays by
    /// level and memory class cover every material once, within
    /// `MaxArraySize`; each asks for its materials' memory, and with a node
    /// of 8 GiB the materials above it are flagged, in arrays of their own
    /// that ask for the node; submit.sh makes each level wait for every
    /// array of the one before.
    #[test]
    fn the_six_piece_set_is_planned_by_memory_class_within_a_node() {
        let (dir, plan) = standard_plan(6);
        let six: Vec<&PlanEntry> = plan
            .entries
            .iter()
            .filter(|e| e.material.piece_count() == 6)
            .collect();
        // Pairs of animal sets of sizes 1+5, 2+4, 3+3, 4+2, 5+1: 7,952, of
        // which the 56 pairs of equal 3-sets are their own colour swap.
        assert_eq!(six.len(), (7952 + 56) / 2);
        let node = 8u64 << 30;
        let mut opts = options();
        opts.task_seconds = 3600.0;
        // Without a node size: one array per memory class (8, 16 and 32 GiB
        // at 6 pieces, a byte a slot).
        let classes: Vec<String> = arrays(&plan, &opts)
            .into_iter()
            .filter(|j| j.pieces == 6)
            .map(|j| j.name)
            .collect();
        assert_eq!(classes, ["6-8g", "6-16g", "6-32g"]);
        opts.node_mem = Some(node);
        let jobs = arrays(&plan, &opts);
        assert_every_material_once(&plan, &jobs);
        let memory = |m: &str| {
            plan.entries
                .iter()
                .find(|e| e.material.to_string() == m)
                .unwrap()
        };
        let mut over = 0;
        for j in &jobs {
            assert!(!j.tasks.is_empty() && j.tasks.len() <= MAX_ARRAY_TASKS);
            for m in j.tasks.concat() {
                let e = memory(&m);
                assert_eq!(j.over_node, e.memory_bytes > node, "{m}");
                if j.over_node {
                    over += 1;
                    assert!(j.alloc_mib << 20 <= node && j.mem_mib < j.alloc_mib);
                } else {
                    assert!(j.mem_mib << 20 >= e.memory_bytes, "{m} in {}", j.name);
                }
            }
        }
        assert!(over > 0, "no material over an 8 GiB node");
        // A 256 GiB node holds every material.
        opts.node_mem = Some(256 << 30);
        assert!(arrays(&plan, &opts).iter().all(|j| !j.over_node));
        opts.node_mem = Some(node);
        let out = dir.path().join("slurm");
        write_scripts(&plan, &opts, &out).unwrap();
        let submit = std::fs::read_to_string(out.join("submit.sh")).unwrap();
        let five_done = submit.rfind("level 5").unwrap();
        let wait = submit[five_done..]
            .find("dependency=(--dependency=afterok$level_jobs)")
            .unwrap();
        let first_six = submit.find("level-6-").unwrap();
        assert!(
            five_done + wait < first_six,
            "level 6 waits for all of level 5"
        );
        let big = std::fs::read_to_string(out.join("level-6-over-node.sbatch")).unwrap();
        assert!(big.contains("memory-mapped files"));
    }
}
