//! Generation survives being killed at any moment: complete tables are kept,
//! partial work never appears under a table's name, and the resumed result
//! is byte-identical to an uninterrupted run.

use jungletb_tablebase::Table;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const MATERIALS: [&str; 3] = ["ELvTR", "LTvRP", "RvER"];

fn generate(out: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_jungletb"));
    c.args([
        "generate",
        "--quiet",
        "--threads",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    for m in MATERIALS {
        c.args(["--material", m]);
    }
    c.stdout(Stdio::null()).stderr(Stdio::null());
    c
}

/// The plain tables in `dir`, by name, with their bytes.
fn tables(dir: &Path) -> Vec<(String, Vec<u8>)> {
    files_with_extension(dir, "jtb")
}

/// The files of `dir` with extension `ext`, by name, with their bytes.
fn files_with_extension(dir: &Path, ext: &str) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == ext))
                .map(|p| {
                    (
                        p.file_name().unwrap().to_string_lossy().into_owned(),
                        std::fs::read(&p).unwrap(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Runs `command` again and again, each run killed (SIGKILL: no chance to
/// clean up) after a fraction of `whole_run`, an uninterrupted run's time,
/// until one ends by itself (at most 30 runs); `check` looks at the
/// directory after each. The first four moments are 3–18 % of a run, so
/// those runs cannot finish the work even with this machine's 30 % timing
/// noise; the later ones are 10–80 %, long enough to finish the largest
/// table, so the kills fall all over the run, up to its end, as the
/// finished tables accumulate. The seed fixes them, so a failure
/// reproduces. Returns how many runs were killed.
fn kill_runs(
    whole_run: Duration,
    mut seed: u64,
    command: impl Fn() -> Command,
    check: impl Fn(Duration),
) -> usize {
    let mut kills = 0;
    for round in 0..30 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let per_mille = if round < 4 {
            30 + seed % 150
        } else {
            100 + seed % 700
        };
        let at = whole_run * per_mille as u32 / 1000;
        let mut child = command().spawn().unwrap();
        std::thread::sleep(at);
        let ended = child.try_wait().unwrap().is_some();
        if !ended {
            child.kill().unwrap();
            kills += 1;
        }
        child.wait().unwrap();
        check(at);
        if ended {
            break;
        }
    }
    eprintln!("{kills} runs killed before one ended, a whole run taking {whole_run:?}");
    kills
}

#[test]
fn killed_runs_resume_to_identical_tables() {
    let reference = tempfile::tempdir().unwrap();
    let t0 = Instant::now();
    assert!(generate(reference.path()).status().unwrap().success());
    let whole_run = t0.elapsed();
    let expected = tables(&reference.path().join("standard"));
    assert!(expected.len() >= 10, "{} tables", expected.len());

    let target = tempfile::tempdir().unwrap();
    let dir = target.path().join("standard");
    let kills = kill_runs(
        whole_run,
        0x5EED_1234_ABCD_0001,
        || generate(target.path()),
        |at| {
            // Whatever carries a table's name is a complete, valid table.
            for (name, _) in tables(&dir) {
                Table::open_any(&dir.join(&name))
                    .unwrap_or_else(|e| panic!("{name} after a kill at {at:?}: {e}"));
            }
        },
    );
    assert!(kills >= 4, "only {kills} runs were actually interrupted");
    assert!(generate(target.path()).status().unwrap().success());
    let resumed = tables(&dir);
    assert_eq!(resumed.len(), expected.len());
    for ((n1, b1), (n2, b2)) in expected.iter().zip(&resumed) {
        assert_eq!(n1, n2);
        assert!(b1 == b2, "{n1} differs after resuming");
    }
    // Nothing left behind by the killed runs.
    let leftovers: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".work-") || n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn generators_at_once_on_one_directory_share_the_work() {
    let reference = tempfile::tempdir().unwrap();
    assert!(generate(reference.path()).status().unwrap().success());
    let expected = tables(&reference.path().join("standard"));

    // Two generators of the same request and one of a single material that
    // the others also need, all at once on one directory: each material is
    // solved by one of them, the others wait for it and use its table.
    let d = tempfile::tempdir().unwrap();
    let mut runs = vec![
        generate(d.path()).spawn().unwrap(),
        generate(d.path()).spawn().unwrap(),
    ];
    let mut single = generate(d.path());
    single.args(["--material", "LvRP"]);
    runs.push(single.spawn().unwrap());
    for mut r in runs {
        assert!(r.wait().unwrap().success());
    }
    let shared = tables(&d.path().join("standard"));
    assert_eq!(shared.len(), expected.len());
    for ((n1, b1), (n2, b2)) in expected.iter().zip(&shared) {
        assert_eq!(n1, n2);
        assert!(b1 == b2, "{n1} differs when generated by several processes");
    }
    let leftovers: Vec<String> = std::fs::read_dir(d.path().join("standard"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".work-") || n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn killed_compress_runs_leave_only_valid_tables_and_resume_to_identical_files() {
    let tables = tempfile::tempdir().unwrap();
    assert!(generate(tables.path()).status().unwrap().success());
    let dir = tables.path().join("standard");
    let compress = |out: &Path| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_jungletb"));
        // One thread: tables are compressed one after another, so a kill
        // lands while one is being written and most runs are interrupted.
        c.args(["compress", "-q", "--threads", "1", "--tables"])
            .arg(&dir)
            .arg("--out")
            .arg(out)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        c
    };
    let reference = tempfile::tempdir().unwrap();
    let t0 = Instant::now();
    assert!(compress(reference.path()).status().unwrap().success());
    let whole_run = t0.elapsed();
    // --out is a tables root: the rule set's directory is made in it.
    let packed = |d: &Path| files_with_extension(&d.join("standard"), "jtbz");
    let expected = packed(reference.path());
    assert!(expected.len() >= 10, "{} compressed tables", expected.len());

    let target = tempfile::tempdir().unwrap();
    let kills = kill_runs(
        whole_run,
        0x0C0F_FEE0_1234_5678,
        || compress(target.path()),
        |at| {
            for (name, _) in packed(target.path()) {
                Table::open_any(&target.path().join("standard").join(&name))
                    .unwrap_or_else(|e| panic!("{name} after a kill at {at:?}: {e}"));
            }
        },
    );
    assert!(kills >= 4, "only {kills} runs were actually interrupted");
    assert!(compress(target.path()).status().unwrap().success());
    let resumed = packed(target.path());
    assert_eq!(resumed.len(), expected.len());
    for ((n1, b1), (n2, b2)) in expected.iter().zip(&resumed) {
        assert_eq!(n1, n2);
        assert!(b1 == b2, "{n1} differs after resuming");
    }
    // Tables are written and checked in work directories of their claim,
    // which the next run clears.
    let leftovers: Vec<String> = std::fs::read_dir(target.path().join("standard"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp") || n.starts_with(".work-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// A run killed between moving a table in place and removing its working
/// directory leaves that directory beside a complete table: the next run
/// keeps the table and removes the directory (before, it kept both, and
/// `killed_runs_resume_to_identical_tables` failed now and then).
#[test]
fn a_working_directory_left_beside_a_finished_table_is_removed() {
    let target = tempfile::tempdir().unwrap();
    assert!(generate(target.path()).status().unwrap().success());
    let dir = target.path().join("standard");
    let before = tables(&dir);
    let left = dir.join(".work-ELvTR-killed");
    std::fs::create_dir(&left).unwrap();
    std::fs::write(left.join("ELvTR.jtb"), b"half").unwrap();
    assert!(generate(target.path()).status().unwrap().success());
    assert!(!left.exists(), "{} is still there", left.display());
    assert_eq!(tables(&dir), before);
}

/// `generate args` with its standard error a pipe whose reader is gone
/// (as in `generate … 2>&1 | head`), signalled (SIGTERM) once `ready`
/// says so and then at each of `signals` delays: its exit code.
fn signalled_with_stderr_closed(
    args: &[&str],
    ready: impl Fn(&Path) -> bool,
    signals: &[Duration],
) -> Option<i32> {
    let out = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_jungletb"))
        .args(["generate", "--threads", "2", "--out"])
        .arg(out.path())
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the read end: every write to standard error fails from now on.
    drop(child.stderr.take());
    let t0 = Instant::now();
    while !ready(out.path()) {
        assert!(child.try_wait().unwrap().is_none(), "the run ended early");
        assert!(t0.elapsed() < Duration::from_secs(120), "never ready");
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = child.id() as libc::pid_t;
    for &delay in signals {
        std::thread::sleep(delay);
        // A system call, not a forked `kill` (which can fail under load).
        // SAFETY: kill(2) on our own child, not yet waited for.
        assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    }
    let t0 = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code();
        }
        if t0.elapsed() > Duration::from_secs(120) {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!(
                "still running two minutes after {} SIGTERM(s)",
                signals.len()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A failed write to standard error never kills the stop handling: the
/// handler's message to a closed pipe panicked it, later signals were
/// ignored and the run ended 101. The first signal stops the run for the
/// same command to resume (75; it was 1 when the signal came between two
/// materials or before a sweep began), a second quits at once (130),
/// whatever standard error is.
#[test]
fn a_closed_stderr_never_kills_the_stop_handling() {
    let ms = Duration::from_millis;
    // Among the 4-piece tables, each stopped at once (within a level).
    for _ in 0..3 {
        let code = signalled_with_stderr_closed(&["--max-pieces", "4"], |_| true, &[ms(2000)]);
        assert_eq!(code, Some(75));
    }
    // In the sweep of a 5-piece table (295 million slots), which runs to
    // its end before the checkpoint: the second signal comes within it.
    let sweeping = |out: &Path| {
        std::fs::read_dir(out.join("standard")).is_ok_and(|rd| {
            rd.flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with(".work-TCRvEL-"))
        })
    };
    let code =
        signalled_with_stderr_closed(&["--material", "ELvTRC"], sweeping, &[ms(300), ms(300)]);
    assert_eq!(code, Some(130));
}
