//! Batch scripts that run a [`Plan`] on a Slurm cluster.
//!
//! In Jungle a capture removes a piece and nothing is ever added, so a
//! material of k pieces needs only tables of k − 1 pieces: the work is a
//! chain of levels, and the materials of one level are independent. The
//! scripts follow that shape:
//!
//! - one job array per piece count (`level-<k>.sbatch`); its tasks are bins
//!   of materials balanced by estimated cost (longest first, each to the
//!   least loaded bin), listed one bin per line in `tasks-<k>.txt`;
//! - every task runs `jungletb generate --material …` on the shared tables
//!   directory: generators claim materials one at a time (see
//!   [`crate::generate`]), so overlapping or repeated tasks are safe;
//! - `submit.sh` submits the levels in order, each with
//!   `--dependency=afterok:` on the one before.
//!
//! Arrays stay within Slurm's default `MaxArraySize` (1001, so at most 1000
//! tasks), and `%N` caps the tasks running at once. Every task of an array
//! gets the array's largest memory and time estimate (Slurm sets them per
//! array). After a failure, running `plan` again writes scripts for what is
//! still missing: resubmitting is the same command.

use crate::plan::{Plan, PlanEntry};
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
}

/// One level's job array.
#[derive(Debug, Clone)]
pub struct ArrayJob {
    /// Piece count.
    pub pieces: u32,
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

/// Splits a plan into one array per piece count.
pub fn arrays(plan: &Plan, opts: &SlurmOptions) -> Vec<ArrayJob> {
    let mut out = Vec::new();
    for (k, level) in plan.levels() {
        let threads = opts.cpus_per_task.max(1);
        let secs = |e: &PlanEntry| e.seconds_one_thread / threads as f64;
        let total: f64 = level.iter().map(|e| secs(e)).sum();
        let bins = ((total / opts.task_seconds.max(1.0)).ceil() as usize)
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
        out.push(ArrayJob {
            pieces: k,
            tasks: tasks
                .into_iter()
                .map(|t| t.iter().map(|e| e.material.to_string()).collect())
                .collect(),
            mem_mib: max_mem.div_ceil(1 << 20).max(256),
            alloc_mib: max_mem.div_ceil(1 << 20).max(256) * 5 / 4 + 256,
            // Twice the estimate plus ten minutes: estimates come from
            // another machine or material.
            minutes: (max_load * 2.0 / 60.0).ceil() as u64 + 10,
        });
    }
    out
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
         dependency=()\n",
    );
    for job in arrays(plan, opts) {
        let k = job.pieces;
        let tasks_file = dir.join(format!("tasks-{k}.txt"));
        let mut lines = String::new();
        for t in &job.tasks {
            lines.push_str(&t.join(" "));
            lines.push('\n');
        }
        std::fs::write(&tasks_file, lines)?;
        written.push(tasks_file.clone());

        let cap = if opts.max_running > 0 {
            format!("%{}", opts.max_running)
        } else {
            String::new()
        };
        let mut s = String::new();
        let _ = writeln!(s, "#!/bin/bash");
        let _ = writeln!(s, "#SBATCH --job-name=jungletb-{k}");
        let _ = writeln!(s, "#SBATCH --array=0-{}{cap}", job.tasks.len() - 1);
        let _ = writeln!(s, "#SBATCH --cpus-per-task={}", opts.cpus_per_task.max(1));
        let _ = writeln!(s, "#SBATCH --mem={}M", job.alloc_mib);
        let _ = writeln!(s, "#SBATCH --time={}", slurm_time(job.minutes));
        let _ = writeln!(
            s,
            "#SBATCH --output={}",
            dir.join(format!("logs/level-{k}-%A_%a.out")).display()
        );
        for line in &opts.extra {
            let _ = writeln!(s, "#SBATCH {line}");
        }
        let _ = writeln!(
            s,
            "# {} material(s) of {k} pieces in {} task(s); each task solves the materials\n\
             # of its line of tasks-{k}.txt (and any missing dependency) in turn.",
            job.tasks.iter().map(Vec::len).sum::<usize>(),
            job.tasks.len()
        );
        let _ = writeln!(s, "set -euo pipefail");
        let _ = writeln!(
            s,
            "line=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" {})",
            quote(&tasks_file.display().to_string())
        );
        let _ = writeln!(s, "args=()");
        let _ = writeln!(s, "for m in $line; do args+=(--material \"$m\"); done");
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
        let _ = writeln!(s, "exec {}", cmd.join(" "));
        let script = dir.join(format!("level-{k}.sbatch"));
        std::fs::write(&script, s)?;
        written.push(script);

        let _ = writeln!(
            submit,
            "job=$(sbatch --parsable ${{dependency[@]+\"${{dependency[@]}}\"}} level-{k}.sbatch)\n\
             job=${{job%%;*}}\n\
             echo \"level {k}: job $job ({} task(s))\"\n\
             dependency=(--dependency=afterok:$job)",
            job.tasks.len()
        );
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
    use crate::plan::Calibration;
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
        }
    }

    #[test]
    fn arrays_cover_every_material_once_within_slurm_limits() {
        let dir = tempfile::tempdir().unwrap();
        let rules = Ruleset::standard();
        let list = Plan::request(&rules, Some(4), &[]);
        let plan = Plan::new(dir.path(), &rules, list, Calibration::default()).unwrap();
        let jobs = arrays(&plan, &options());
        assert_eq!(jobs.iter().map(|j| j.pieces).collect::<Vec<_>>(), [2, 3, 4]);
        let mut all: Vec<String> = jobs.iter().flat_map(|j| j.tasks.concat()).collect();
        all.sort();
        let mut expected: Vec<String> = plan
            .entries
            .iter()
            .map(|e| e.material.to_string())
            .collect();
        expected.sort();
        assert_eq!(all, expected);
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
        let dir = tempfile::tempdir().unwrap();
        let rules = Ruleset::standard();
        let list = Plan::request(&rules, Some(3), &[]);
        let plan = Plan::new(dir.path(), &rules, list, Calibration::default()).unwrap();
        let out = dir.path().join("slurm");
        let mut opts = options();
        opts.root = "/shared/it's here".into();
        write_scripts(&plan, &opts, &out).unwrap();
        let submit = std::fs::read_to_string(out.join("submit.sh")).unwrap();
        assert!(submit.find("level-2.sbatch").unwrap() < submit.find("level-3.sbatch").unwrap());
        assert!(submit.contains("--dependency=afterok:$job"));
        let level = std::fs::read_to_string(out.join("level-3.sbatch")).unwrap();
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
}
