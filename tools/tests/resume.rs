//! Generation survives being killed at any moment: complete tables are kept,
//! partial work never appears under a table's name, and the resumed result
//! is byte-identical to an uninterrupted run.

use jungletb_format::Table;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

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

fn tables(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == "jtb"))
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

#[test]
fn killed_runs_resume_to_identical_tables() {
    let reference = tempfile::tempdir().unwrap();
    assert!(generate(reference.path()).status().unwrap().success());
    let expected = tables(&reference.path().join("standard"));
    assert!(expected.len() >= 10, "{} tables", expected.len());

    let target = tempfile::tempdir().unwrap();
    let dir = target.path().join("standard");
    // Kill moments spread over a run (a run takes a few seconds here); the
    // sequence is fixed so a failure reproduces.
    let mut seed: u64 = 0x5EED_1234_ABCD_0001;
    let mut kills = 0;
    for round in 0..8 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let delay = Duration::from_millis(30 + seed % 1200);
        let mut child = generate(target.path()).spawn().unwrap();
        std::thread::sleep(delay);
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap(); // SIGKILL: no chance to clean up
            kills += 1;
        }
        child.wait().unwrap();
        // Whatever carries a table's name is a complete, valid table.
        for (name, _) in tables(&dir) {
            Table::open_any(&dir.join(&name))
                .unwrap_or_else(|e| panic!("round {round}: {name} after kill at {delay:?}: {e}"));
        }
    }
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
fn a_second_generator_on_the_same_directory_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let mut first = generate(d.path()).spawn().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let second = Command::new(env!("CARGO_BIN_EXE_jungletb"))
        .args([
            "generate",
            "--out",
            d.path().to_str().unwrap(),
            "--material",
            "EvR",
        ])
        .output()
        .unwrap();
    let still_running = first.try_wait().unwrap().is_none();
    first.wait().unwrap();
    if still_running {
        assert_eq!(second.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&second.stderr).contains("another `jungletb generate`"));
    }
}
