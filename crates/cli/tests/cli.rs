//! End-to-end tests of the `jungletb` binary.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_jungletb"))
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("jungletb runs")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A tables root with every 2-piece table (standard), generated once.
fn tables() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = tempfile::tempdir().unwrap();
        let o = run(&[
            "generate",
            "--max-pieces",
            "2",
            "--out",
            d.path().to_str().unwrap(),
            "--quiet",
        ]);
        assert!(o.status.success(), "{:?}", text(&o));
        d
    })
    .path()
}

fn probe_json(extra: &[&str], positions: &[&str]) -> (Output, Vec<serde_json::Value>) {
    let mut args = vec!["probe", "--json", "--tables", tables().to_str().unwrap()];
    args.extend_from_slice(extra);
    args.extend_from_slice(positions);
    let o = run(&args);
    let lines = text(&o)
        .0
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    (o, lines)
}

#[test]
fn help_lists_the_commands() {
    let o = run(&["--help"]);
    assert!(o.status.success());
    let (out, _) = text(&o);
    for c in ["generate", "probe", "perft", "verify", "info", "stats"] {
        assert!(out.contains(c), "{c} missing from --help");
    }
}

#[test]
fn probe_json_gives_value_distance_moves_and_line() {
    let (o, lines) = probe_json(&[], &["7/7/7/7/7/7/7/7/Er5 w", "7/7/7/7/7/l6/7/7/L6 w"]);
    assert!(o.status.success());
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["category"], "win");
    assert_eq!(lines[0]["plies"], 1);
    assert_eq!(lines[0]["best_moves"], serde_json::json!(["a1b1"]));
    assert_eq!(lines[0]["line"], serde_json::json!(["a1b1"]));
    assert_eq!(lines[1]["category"], "loss");
    let plies = lines[1]["plies"].as_u64().unwrap();
    assert_eq!(lines[1]["line"].as_array().unwrap().len() as u64, plies);
}

#[test]
fn probe_text_draws_the_board() {
    let o = run(&[
        "probe",
        "--tables",
        tables().to_str().unwrap(),
        "7/7/7/7/7/r6/7/7/R6 w",
    ]);
    assert!(o.status.success());
    let (out, _) = text(&o);
    assert!(out.contains("a b c d e f g"));
    assert!(out.contains("Value: draw"));
}

#[test]
fn probe_text_marks_each_move_with_its_piece_capture_and_den() {
    let o = run(&[
        "probe",
        "--tables",
        tables().to_str().unwrap(),
        "7/3Lr2/7/7/7/7/7/7/7 w",
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    let (out, _) = text(&o);
    assert!(out.contains("  Ld8d9   win in 1 ply (den)\n"), "{out}");
    assert!(out.contains("  Ld8e8   win in 1 ply (capture)\n"), "{out}");
    assert!(out.contains("  Ld8d7   win in 5 plies\n"), "{out}");
}

#[test]
fn text_errors_repeat_the_input_and_the_start_says_its_piece_count() {
    let mut child = bin()
        .args(["probe", "--batch", "--tables", tables().to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"7/7/x w\nstart\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(!o.status.success());
    let (_, err) = text(&o);
    assert!(
        err.contains("error: 7/7/x w: expected 9 ranks separated by '/', found 3"),
        "{err}"
    );
    assert!(
        err.contains(
            "error: start: no table holds a position of 16 pieces (tables are made up to 6"
        ),
        "{err}"
    );
    assert!(!err.contains(".jtb") && !err.contains("2^64"), "{err}");
}

#[test]
fn batch_reports_errors_per_line_and_fails_overall() {
    let mut child = bin()
        .args([
            "probe",
            "--json",
            "--batch",
            "--tables",
            tables().to_str().unwrap(),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"7/7/7/7/7/7/7/7/Er5 w\nnot a position\n7/7/7/7/7/7/7/7/E5r w\n3E3/7/7/7/7/7/7/7/r6 b\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(
        !o.status.success(),
        "a failed line makes the exit code non-zero"
    );
    let lines: Vec<serde_json::Value> = text(&o)
        .0
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["category"], "win");
    assert!(
        lines[1]["error"]
            .as_str()
            .unwrap()
            .contains("expected 2 fields"),
        "{}",
        lines[1]
    );
    assert!(lines[2]["category"].is_string());
    // A piece on the enemy den is a finished game, not an error.
    assert_eq!(lines[3]["game_over"], "den", "{}", lines[3]);
}

#[test]
fn malformed_and_impossible_positions_fail_cleanly() {
    for (pos, needle) in [
        ("7/7/7/7/7/7/7/7 w", "9 ranks"),
        ("7/7/7/7/7/7/7/7/X6 w", "unknown piece letter"),
        ("7/7/7/7/7/7/7/7/E5r x", "'w' or 'b'"),
        ("7/7/7/7/7/7/7/7/EE4r w", "two White Elephants"),
        ("7/7/7/7/7/1E5/7/7/6r w", "water"),
        ("3E3/7/7/7/7/1L5/7/7/6r w", "water"),
    ] {
        let o = run(&["probe", "--tables", tables().to_str().unwrap(), pos]);
        assert_eq!(o.status.code(), Some(1), "{pos}");
        let (_, err) = text(&o);
        assert!(err.contains(needle), "{pos}: {err}");
        assert!(!err.contains("panicked"), "{pos}: {err}");
    }
}

#[test]
fn finished_games_are_answered_with_their_result_and_reason() {
    for (pos, value, plies, reason) in [
        // White's Elephant entered Black's den: Black (to move) has lost.
        ("3E3/7/7/7/7/7/7/7/6r b", "loss", 0, "den"),
        // Black has no pieces left.
        ("7/7/7/7/7/7/7/7/E6 b", "loss", 0, "no_pieces"),
    ] {
        let (o, lines) = probe_json(&[], &[pos]);
        assert!(o.status.success(), "{pos}: {:?}", text(&o));
        assert_eq!(lines[0]["category"], value, "{pos}");
        assert_eq!(lines[0]["plies"], plies, "{pos}");
        assert_eq!(lines[0]["game_over"], reason, "{pos}");
        let o = run(&["probe", "--tables", tables().to_str().unwrap(), pos]);
        assert!(text(&o).0.contains("Game over"), "{pos}: {:?}", text(&o));
    }
}

#[test]
fn no_tables_and_wrong_rule_set_fail_cleanly() {
    let empty = tempfile::tempdir().unwrap();
    let o = run(&[
        "probe",
        "--tables",
        empty.path().to_str().unwrap(),
        "7/7/7/7/7/7/7/7/Er5 w",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("no tables"));
    let o = run(&[
        "probe",
        "--ruleset",
        "leiden",
        "--tables",
        tables().to_str().unwrap(),
        "7/7/7/7/7/7/7/7/Er5 w",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let (_, err) = text(&o);
    assert!(err.contains("leiden") && err.contains("standard"), "{err}");
    let o = run(&["probe", "--ruleset", "chess", "7/7/7/7/7/7/7/7/Er5 w"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("unknown rule set"));
    // A 3-piece position with only 2-piece tables.
    let o = run(&[
        "probe",
        "--tables",
        tables().to_str().unwrap(),
        "7/7/7/7/7/7/7/7/EL4r w",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("not found"));
}

#[test]
fn perft_matches_published_counts() {
    let o = run(&["perft", "--ruleset", "popular", "start", "--depth", "3"]);
    assert_eq!(text(&o).0.trim(), "12240");
    let o = run(&["perft", "--ruleset", "leiden", "start", "--depth", "4"]);
    assert_eq!(text(&o).0.trim(), "260100");
    let o = run(&["perft", "start", "--depth", "2", "--divide"]);
    let (out, _) = text(&o);
    assert!(out.contains("total: 576"));
    assert_eq!(out.lines().count(), 25);
}

/// The suite a rule set's `movegen-suite` writes checks clean against
/// itself; answers with a planted fault fail (exit 1) and name the line,
/// the move and its rule point; another rule set's file and bad files are
/// refused with the reason.
#[test]
fn movegen_suite_checks_answers_and_names_the_rule_point_of_each_difference() {
    let o = run(&["movegen-suite", "--ruleset", "popular"]);
    assert!(o.status.success());
    let suite = text(&o).0;
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.jsonl");
    std::fs::write(&good, &suite).unwrap();
    let o = run(&[
        "movegen-suite",
        "--ruleset",
        "popular",
        "--check",
        good.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    assert!(text(&o).0.contains("every answer agrees with jungletb"));

    // The Elephant takes the Rat on land: legal under standard, not under
    // popular. A program that allows it is told so.
    let line = r#"{"position": "7/7/7/7/7/7/7/7/Er5 w", "moves": ["a1a2", "a1b1", "a1b1"]}"#;
    let fine = std::fs::read_to_string(&good).unwrap();
    assert!(
        fine.contains(r#""position":"7/7/7/7/7/7/7/7/Er5 w","rules":"popular","moves":["a1a2"]"#)
    );
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, format!("{line}\n")).unwrap();
    let o = run(&[
        "movegen-suite",
        "--ruleset",
        "popular",
        "--check",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let (out, _) = text(&o);
    assert!(out.contains("line 1: 7/7/7/7/7/7/7/7/Er5 w"), "{out}");
    assert!(
        out.contains("extra   a1b1 (not legal here): takes a lower rank, Elephant takes Rat"),
        "{out}"
    );
    assert!(
        out.contains("Elephant takes Rat [--rule elephant_captures_rat]: 1 position (line 1)"),
        "{out}"
    );
    // Under standard the same answers agree.
    let o = run(&["movegen-suite", "--check", bad.to_str().unwrap()]);
    assert!(o.status.success(), "{:?}", text(&o));

    for (file, says) in [
        (good.to_str().unwrap().to_string(), "line 1: the line is of the rule set popular, not standard: check it with --ruleset popular"),
        ("/nonexistent/answers.jsonl".to_string(), "reading the answers"),
    ] {
        let o = run(&["movegen-suite", "--check", &file]);
        assert_eq!(o.status.code(), Some(1));
        let (_, err) = text(&o);
        assert!(err.contains(says) && !err.contains("panicked"), "{err}");
    }
}

#[test]
fn verify_info_and_stats() {
    let root = tables().to_str().unwrap();
    let o = run(&["verify", "--tables", root, "--quiet"]);
    assert!(o.status.success(), "{:?}", text(&o));
    assert!(text(&o).0.contains("36 tables"));
    let file = tables().join("standard/EvR.jtb");
    let o = run(&["info", file.to_str().unwrap()]);
    assert!(o.status.success());
    let (out, _) = text(&o);
    assert!(out.contains("material:       EvR") && out.contains("rule set:       standard"));
    let o = run(&["stats", "--tables", root, "--json"]);
    assert!(o.status.success());
    let lines: Vec<serde_json::Value> = text(&o)
        .0
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        lines.iter().filter(|l| l.get("material").is_some()).count(),
        36
    );
    let total = lines.iter().find(|l| l.get("material").is_none()).unwrap();
    assert_eq!(total["pieces"], 2);
    let o = run(&["info", "/nonexistent/EvR.jtb"]);
    assert_eq!(o.status.code(), Some(1));
    // The same table named by its material (either colour order), as the
    // other commands name it; a missing one and a file beside it refused.
    for m in ["EvR", "RvE"] {
        let o = run(&["info", "--tables", root, "--material", m]);
        assert!(o.status.success(), "{m}: {:?}", text(&o));
        assert!(text(&o)
            .0
            .contains(&format!("file:           {}", file.display())));
    }
    let o = run(&["info", "--tables", root, "--material", "ELTvELT"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("no table of ELTvELT"), "{:?}", text(&o));
    let o = run(&["info", "--tables", root, "--material", "XvE"]);
    assert_eq!(o.status.code(), Some(1));
    let o = run(&["info", file.to_str().unwrap(), "--material", "EvR"]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["info"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("--material"), "{:?}", text(&o));
}

#[test]
fn generate_keeps_valid_tables_and_sets_corrupt_ones_aside() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path().to_str().unwrap();
    let o = run(&[
        "generate",
        "--out",
        root,
        "--material",
        "ELvR",
        "--threads",
        "1",
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    let dir = d.path().join("standard");
    let names = |dir: &Path| {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| !n.starts_with('.'))
            .collect();
        v.sort();
        v
    };
    assert_eq!(names(&dir), ["ELvR.jtb", "EvR.jtb", "LvR.jtb"]);
    let original = std::fs::read(dir.join("ELvR.jtb")).unwrap();
    // Again: nothing to do.
    let o = run(&["generate", "--out", root, "--material", "ELvR"]);
    assert!(
        text(&o).1.contains("0 solved now, 3 kept"),
        "{:?}",
        text(&o)
    );
    // Corrupt one: it is renamed aside (not lost) and solved again, identically.
    let mut bad = original.clone();
    let n = bad.len();
    bad[n - 10] ^= 0xFF;
    std::fs::write(dir.join("ELvR.jtb"), &bad).unwrap();
    let o = run(&["verify", "--tables", root]);
    assert_eq!(o.status.code(), Some(1), "verify notices the corruption");
    let o = run(&["generate", "--out", root, "--material", "ELvR"]);
    assert!(o.status.success());
    assert!(text(&o).1.contains("moved to"));
    assert_eq!(std::fs::read(dir.join("ELvR.jtb")).unwrap(), original);
    assert_eq!(std::fs::read(dir.join("ELvR.jtb.invalid-1")).unwrap(), bad);
    // Bad material names.
    let o = run(&["generate", "--out", root, "--material", "XvR"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("unknown material"));
}

#[test]
fn one_and_two_threads_write_identical_tables_and_one_byte_is_a_no_op() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let c = tempfile::tempdir().unwrap();
    for (d, t, flag) in [
        (&a, "1", None),
        (&b, "2", None),
        (&c, "2", Some("--one-byte")),
    ] {
        let mut args = vec![
            "generate",
            "--out",
            d.path().to_str().unwrap(),
            "--material",
            "LTvR",
            "--threads",
            t,
        ];
        args.extend(flag);
        let o = run(&args);
        assert!(o.status.success(), "{}", text(&o).1);
        // The flag is accepted for a release, and says it does nothing.
        let note = text(&o).1.contains("--one-byte is the default now");
        assert_eq!(note, flag.is_some(), "{}", text(&o).1);
    }
    for name in ["LTvR", "LvR", "TvR"] {
        let f = format!("standard/{name}.jtb");
        let one = std::fs::read(a.path().join(&f)).unwrap();
        assert_eq!(one, std::fs::read(b.path().join(&f)).unwrap(), "{name}");
        assert_eq!(
            one,
            std::fs::read(c.path().join(&f)).unwrap(),
            "{name}: --one-byte"
        );
    }
}

#[test]
fn plan_fits_the_largest_six_piece_material_in_21_gb_and_tasks_run_the_one_solve() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().to_str().unwrap();
    let o = run(&["plan", "--tables", root, "--material", "DCRvWCR", "--json"]);
    assert!(o.status.success(), "{}", text(&o).1);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let m = v["materials"].as_array().unwrap();
    let last = m.iter().find(|e| e["material"] == "DCRvWCR").unwrap();
    let bytes = last["memory_bytes"].as_f64().unwrap();
    let slots = last["slots"].as_f64().unwrap();
    assert!(bytes <= 21e9, "{bytes} bytes planned");
    assert!(
        bytes < 1.5 * slots,
        "{bytes} bytes planned for {slots} slots"
    );
    let slurm = t.path().join("slurm");
    let o = run(&[
        "plan",
        "--tables",
        root,
        "--material",
        "ELvR",
        "--slurm",
        slurm.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o).1);
    let scripts: Vec<String> = std::fs::read_dir(&slurm)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "sbatch"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .filter(|s| s.contains(" generate "))
        .collect();
    assert!(!scripts.is_empty());
    assert!(scripts.iter().all(|s| !s.contains("--one-byte")));
}

#[test]
fn compress_then_probe_and_verify_compressed_tables() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("z");
    let args = |cmd: &str| {
        vec![
            cmd.to_string(),
            "--tables".into(),
            tables().to_str().unwrap().into(),
            "--out".into(),
            out.to_str().unwrap().into(),
            "--quiet".into(),
        ]
    };
    let compress = args("compress");
    let compress: Vec<&str> = compress.iter().map(String::as_str).collect();
    let o = run(&compress);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains("36 tables of standard (36 compressed now"),
        "{stdout}"
    );
    // A second run keeps the valid compressed tables.
    let o = run(&compress);
    assert!(text(&o).0.contains("0 compressed now, 36 already done"));
    // The compressed directory holds .jtbz files only, and probes the same.
    let positions = [
        "7/7/7/7/7/7/2E4/7/6r b",
        "7/7/7/7/3r3/7/7/7/E6 w",
        "l6/7/7/7/7/7/7/7/6R b",
    ];
    let (_, plain) = probe_json(&[], &positions);
    let mut zargs = vec!["probe", "--json", "--tables", out.to_str().unwrap()];
    zargs.extend_from_slice(&positions);
    let o = run(&zargs);
    assert!(o.status.success(), "{:?}", text(&o));
    let packed: Vec<serde_json::Value> = text(&o)
        .0
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(packed, plain);
    // stats counts each material once when both forms are present.
    let both = root.path().join("both");
    let std_dir = both.join("standard");
    std::fs::create_dir_all(&std_dir).unwrap();
    for dir in [tables().join("standard"), out.join("standard")] {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_file() {
                std::fs::copy(&p, std_dir.join(p.file_name().unwrap())).unwrap();
            }
        }
    }
    let stats = |dir: &Path| {
        let o = run(&["stats", "--json", "--tables", dir.to_str().unwrap()]);
        assert!(o.status.success(), "{:?}", text(&o));
        text(&o).0.lines().count()
    };
    assert_eq!(stats(&both), stats(tables()));
    // verify checks them by forward consistency (no plain tables beside them).
    let o = run(&["verify", "--tables", out.to_str().unwrap(), "-q"]);
    let (stdout, _) = text(&o);
    assert!(o.status.success(), "{stdout}");
    assert!(
        stdout.contains("36 tables") && stdout.contains("0 failed"),
        "{stdout}"
    );
    // By default the tables carry don't-cares; --no-dont-cares writes them
    // anew without (not kept: a different choice).
    let dont_cares = |file: &Path| {
        let o = run(&["info", "--json", file.to_str().unwrap()]);
        let v: serde_json::Value = serde_json::from_str(&text(&o).0).unwrap();
        v["compressed"]["dont_cares"].as_bool().unwrap()
    };
    let elvr = out.join("standard/LvR.jtbz");
    assert!(dont_cares(&elvr));
    let mut exact = compress.clone();
    exact.push("--no-dont-cares");
    let o = run(&exact);
    assert!(text(&o).0.contains("36 compressed now"), "{:?}", text(&o));
    assert!(!dont_cares(&elvr));
}

/// A lone table cannot get don't-cares: the tables its captures lead into
/// are missing. The error says so and how to do without.
#[test]
fn a_lone_table_is_compressed_without_dont_cares_when_told_how() {
    let root = tempfile::tempdir().unwrap();
    let lone_root = root.path().join("lone");
    let o = run(&[
        "generate",
        "--material",
        "LTvR",
        "--out",
        lone_root.to_str().unwrap(),
        "-q",
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    let lone = lone_root.join("standard");
    for e in std::fs::read_dir(&lone).unwrap() {
        let p = e.unwrap().path();
        if p.is_file() && p.file_name().unwrap() != "LTvR.jtb" {
            std::fs::remove_file(p).unwrap();
        }
    }
    let o = run(&["compress", "--tables", lone.to_str().unwrap(), "-q"]);
    let (stdout, stderr) = text(&o);
    assert!(!o.status.success());
    assert!(stdout.contains("--no-dont-cares"), "{stdout}{stderr}");
    assert!(!lone.join("LTvR.jtbz").exists());
    let o = run(&[
        "compress",
        "--tables",
        lone.to_str().unwrap(),
        "-q",
        "--no-dont-cares",
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
}

#[test]
fn compress_verbose_times_each_phase_and_cannot_be_quiet_too() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("z");
    let (tables, out) = (tables().to_str().unwrap(), out.to_str().unwrap());
    let args = ["compress", "--tables", tables, "--out", out];
    let o = run(&[&args[..], &["--material", "EvR", "-v"]].concat());
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stdout}{stderr}");
    let timed: Vec<&str> = stdout.lines().filter(|l| l.starts_with("ok ")).collect();
    assert_eq!(timed.len(), 1, "{stdout}");
    assert!(timed[0].contains(", written in ") && timed[0].contains(" s, checked in "));
    assert!(stderr.contains("EvR.jtb: writing ("), "{stderr}");
    assert!(stderr.contains("EvR.jtb: written; checking ("), "{stderr}");
    // A table kept from an earlier run was neither written nor checked.
    let o = run(&[&args[..], &["--material", "EvR", "-v"]].concat());
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains("kept ") && !stdout.contains("written in"),
        "{stdout}"
    );
    assert!(!stderr.contains("writing ("), "{stderr}");
    let o = run(&[&args[..], &["-v", "-q"]].concat());
    assert_eq!(o.status.code(), Some(2), "{:?}", text(&o));
    assert!(text(&o).1.contains("cannot be used with"), "{:?}", text(&o));
}
#[test]
fn generate_refuses_impossible_requests_clearly() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().to_str().unwrap();
    for (args, expected) in [
        (vec!["--material", "ELTPRvDCW"], "placements an index holds"),
        (vec!["--material", "XYvZ"], "'X' is not an animal letter"),
        (
            vec!["--material", "ELvTRP", "--mem", "10M"],
            "too small to make progress",
        ),
        // The cells can all live in a file: the minimum is the buffers'
        // 64 MiB up to 5 pieces (6-piece ones add the buckets).
        (
            vec!["--material", "ELvTRP", "--mem", "60M"],
            "needs at least 67108864 bytes",
        ),
        (
            vec!["--material", "ELvR", "--mem", "lots"],
            "not a byte count",
        ),
    ] {
        let mut all = vec!["generate", "--out", out];
        all.extend(args.iter());
        let o = run(&all);
        let (_, stderr) = text(&o);
        assert_eq!(
            o.status.code(),
            Some(if args.contains(&"lots") { 2 } else { 1 }),
            "{args:?}: {stderr}"
        );
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
    // Nothing was written.
    let written: Vec<_> = walk(d.path());
    assert!(
        written
            .iter()
            .all(|p| p.is_dir() || p.to_string_lossy().contains(".locks")),
        "{written:?}"
    );
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        }
        out.push(p);
    }
    out
}

#[test]
fn every_command_ends_quietly_on_a_closed_pipe() {
    let t = tables().to_str().unwrap();
    let file = tables().join("standard/EvR.jtb");
    let cases: Vec<Vec<&str>> = vec![
        vec!["stats", "--tables", t],
        vec!["rules"],
        vec!["info", file.to_str().unwrap()],
        vec!["verify", "--tables", t],
        vec!["perft", "start", "--depth", "3", "--divide"],
        vec!["plan", "--max-pieces", "4", "--tables", t],
    ];
    for args in cases {
        let mut child = bin()
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Close the pipe before the command writes, as `| true` does
        // (`| head -1` closes it after a line): every write then fails.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(out.status.success(), "{args:?}: {:?} {stderr}", out.status);
    }
}

#[test]
fn tables_come_from_the_environment_or_the_rule_set_directory() {
    let pos = "7/7/7/7/7/7/2E4/7/6r b";
    let (_, expected) = probe_json(&[], &[pos]);
    let root = tables().to_str().unwrap();
    let by_env = bin()
        .args(["probe", "--json", pos])
        .env("JUNGLETB_TABLES", root)
        .output()
        .unwrap();
    assert!(by_env.status.success(), "{:?}", text(&by_env));
    let by_env: serde_json::Value = serde_json::from_str(text(&by_env).0.trim()).unwrap();
    assert_eq!(by_env, expected[0]);
    let dir = tables().join("standard");
    let o = run(&["probe", "--json", "--tables", dir.to_str().unwrap(), pos]);
    assert!(o.status.success(), "{:?}", text(&o));
    let by_dir: serde_json::Value = serde_json::from_str(text(&o).0.trim()).unwrap();
    assert_eq!(by_dir, expected[0]);
    for cmd in ["stats", "verify", "plan"] {
        let o = run(
            &[cmd, "--tables", dir.to_str().unwrap(), "--max-pieces", "2"]
                [..if cmd == "plan" { 5 } else { 3 }],
        );
        assert!(o.status.success(), "{cmd}: {:?}", text(&o));
        if cmd == "plan" {
            assert!(text(&o).0.contains("nothing to do"), "{:?}", text(&o));
        }
    }
}

#[test]
fn batch_answers_each_line_as_it_is_read_and_every_move_is_listed() {
    use std::io::{BufRead, BufReader, Write};
    let mut child = bin()
        .args([
            "probe",
            "--json",
            "--batch",
            "--tables",
            tables().to_str().unwrap(),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    // One line in, one answer out, with standard input still open.
    for pos in ["7/7/7/7/7/7/2E4/7/6r b", "3E3/7/7/7/7/7/7/7/6r b", "oops"] {
        writeln!(stdin, "{pos}").unwrap();
        stdin.flush().unwrap();
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["input"], pos);
        match pos {
            "oops" => assert_eq!(v["kind"], "notation"),
            "3E3/7/7/7/7/7/7/7/6r b" => {
                assert_eq!(v["game_over"], "den");
                assert_eq!(v["category"], "loss");
                assert_eq!(v["plies"], 0);
            }
            _ => {
                assert_eq!(v["side_to_move"], "b");
                let moves = v["moves"].as_array().unwrap();
                assert_eq!(moves.len(), 2, "{v}");
                assert_eq!(moves[0]["move"], "g1f1");
                // A move's category and plies are the position's after
                // it, for the opponent: the mover wins in 5, so 4 plies
                // after the move the opponent loses.
                assert_eq!(moves[0]["category"], "loss");
                assert_eq!(moves[0]["plies"], 4);
                assert_eq!(moves[1]["category"], "draw");
            }
        }
    }
    drop(stdin);
    assert_eq!(
        child.wait().unwrap().code(),
        Some(1),
        "a failed line fails the run"
    );
    // Nothing piped in: nothing to answer, not an error.
    let o = bin()
        .args(["probe", "--tables", tables().to_str().unwrap()])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
}

#[test]
fn hints_name_the_command_to_run_and_custom_rule_sets_go_by_label() {
    // A missing table: the hint names the material as written.
    let o = run(&[
        "probe",
        "--tables",
        tables().to_str().unwrap(),
        "7/7/7/7/7/7/2E4/7/5tr b",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o).1;
    assert!(
        err.contains("jungletb generate --out") && err.contains("--material EvTR"),
        "{err}"
    );
    // A custom rule set: the hint repeats its options; then it can be
    // named by its directory label.
    let d = tempfile::tempdir().unwrap();
    let root = d.path().to_str().unwrap();
    let pos = "7/7/7/7/7/7/2E4/7/6r b";
    let o = run(&["probe", "--tables", root, "--rule", "dog_swims=true", pos]);
    assert!(
        text(&o).1.contains("--rule dog_swims=true"),
        "{:?}",
        text(&o)
    );
    let o = run(&[
        "generate",
        "--out",
        root,
        "--max-pieces",
        "2",
        "--rule",
        "dog_swims=true",
        "-q",
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    let label = std::fs::read_dir(d.path())
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .file_name();
    let label = label.to_str().unwrap();
    assert!(label.starts_with("standard-custom-"), "{label}");
    let by_options = run(&[
        "probe",
        "--json",
        "--tables",
        root,
        "--rule",
        "dog_swims=true",
        pos,
    ]);
    let by_label = run(&["probe", "--json", "--tables", root, "--ruleset", label, pos]);
    assert!(by_label.status.success(), "{:?}", text(&by_label));
    assert_eq!(text(&by_options).0, text(&by_label).0);
}

#[test]
fn info_rules_and_verify_speak_json() {
    let t = tables();
    let file = t.join("standard/EvR.jtb");
    let o = run(&["info", "--json", "--examples", file.to_str().unwrap()]);
    assert!(o.status.success(), "{:?}", text(&o));
    let v: serde_json::Value = serde_json::from_str(text(&o).0.trim()).unwrap();
    assert_eq!(v["material"], "EvR");
    assert_eq!(v["ruleset"], "standard");
    let w = &v["sides"]["white_to_move"];
    assert!(w["wins"].as_u64().unwrap() > 0);
    let example: jungletb_rules::Position =
        w["longest_win_example"].as_str().unwrap().parse().unwrap();
    let (_, probed) = probe_json(&[], &[&example.to_string()]);
    assert_eq!(probed[0]["plies"], w["longest_win"]);

    let o = run(&["rules", "--json"]);
    let v: serde_json::Value = serde_json::from_str(text(&o).0.trim()).unwrap();
    assert_eq!(v["rule_sets"].as_array().unwrap().len(), 3);
    let o = run(&["rules", "leiden", "--json"]);
    let v: serde_json::Value = serde_json::from_str(text(&o).0.trim()).unwrap();
    assert_eq!(v["label"], "leiden");

    let o = run(&["verify", "--json", "--tables", t.to_str().unwrap()]);
    assert!(o.status.success(), "{:?}", text(&o));
    let lines: Vec<serde_json::Value> = text(&o)
        .0
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 37);
    assert!(lines[..36].iter().all(|l| l["ok"] == true));
    assert_eq!(lines[36]["failed"], 0);

    // `info` on a directory says what it wants.
    let o = run(&["info", t.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("is a directory"), "{:?}", text(&o));
}

#[test]
fn zugzwangs_and_compare_rules_answer_in_text_and_json() {
    let root = tables().to_str().unwrap();
    let o = run(&[
        "zugzwangs",
        "--tables",
        root,
        "--json",
        "--material",
        "RvR",
        "--limit",
        "2",
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    let lines: Vec<serde_json::Value> = text(&o)
        .0
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["material"], "RvR");
    assert!(lines[0]["mutual"].as_u64().unwrap() > 0);
    // --limit 2: two of each kind, mutual and half.
    let examples = lines[0]["examples"].as_array().unwrap();
    for kind in ["mutual", "half"] {
        let n = examples.iter().filter(|e| e["kind"] == kind).count();
        assert_eq!(n, 2, "{kind}: {examples:?}");
    }
    assert_eq!(lines[1]["pieces"], 2);
    // One table is "1 table", not "1 tables".
    let o = run(&["zugzwangs", "--tables", root, "--material", "RvR"]);
    let (out, _) = text(&o);
    assert!(out.contains("2 pieces: 1 table, "), "{out}");
    // Against a rule set with no tables: a clear error naming it.
    let o = run(&["compare-rules", "--tables", root, "--against", "leiden"]);
    assert!(!o.status.success());
    assert!(
        text(&o).1.contains("no tables of rule set 'leiden'"),
        "{:?}",
        text(&o)
    );
    // With leiden tables (in a root of their own, beside standard ones):
    // RvR changes (a Rat on land may take a Rat in the water).
    let both = tempfile::tempdir().unwrap();
    let both_root = both.path().to_str().unwrap();
    for ruleset in ["standard", "leiden"] {
        let args = [
            "generate",
            "--max-pieces",
            "2",
            "--ruleset",
            ruleset,
            "--out",
            both_root,
            "-q",
        ];
        let o = run(&args);
        assert!(o.status.success(), "{:?}", text(&o));
    }
    let args = [
        "compare-rules",
        "--tables",
        both_root,
        "--against",
        "leiden",
        "--material",
        "RvR",
    ];
    let o = run(&args);
    assert!(o.status.success(), "{:?}", text(&o));
    let (out, _) = text(&o);
    assert!(
        out.contains("RvR") && out.contains("most affected"),
        "{out}"
    );
    let o = run(&["stats", "--tables", root, "--histograms", "--json"]);
    assert!(o.status.success(), "{:?}", text(&o));
    let first: serde_json::Value =
        serde_json::from_str(text(&o).0.lines().next().unwrap()).unwrap();
    assert!(first["white_to_move"]["win_plies"].is_array());
}

#[test]
fn a_rule_sets_tables_are_found_by_what_they_record_not_by_their_directorys_name() {
    let work = tempfile::tempdir().unwrap();
    let (a, b, c) = (
        work.path().join("a"),
        work.path().join("b"),
        work.path().join("c"),
    );
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let o = run(&[
        "generate",
        "--out",
        &s(&a),
        "--ruleset",
        "leiden",
        "--max-pieces",
        "2",
        "-q",
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    let pos = "7/7/7/7/7/7/7/d6/W6 w";
    let answer = |tables: &str, extra: &[&str]| {
        let mut args = vec!["probe", "--json", "--tables", tables];
        args.extend_from_slice(extra);
        args.push(pos);
        let o = run(&args);
        assert!(o.status.success(), "{args:?}: {:?}", text(&o));
        let v: serde_json::Value = serde_json::from_str(text(&o).0.trim()).unwrap();
        (v["category"].clone(), v["plies"].clone())
    };
    let expected = answer(&s(&a), &["--ruleset", "leiden"]);

    // compress --ruleset R --out DIR writes DIR/R/, as its help says, and
    // every reader finds the tables there.
    let o = run(&[
        "compress",
        "--tables",
        &s(&a),
        "--ruleset",
        "leiden",
        "--out",
        &s(&b),
        "-q",
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    assert!(b.join("leiden").join("DvW.jtbz").is_file());
    assert!(!b.join("DvW.jtbz").exists(), "written flat into --out");
    assert_eq!(answer(&s(&b), &["--ruleset", "leiden"]), expected);
    let tables = s(&b);
    for args in [
        &["stats", "--tables", &tables, "--ruleset", "leiden"][..],
        &[
            "zugzwangs",
            "--tables",
            &tables,
            "--ruleset",
            "leiden",
            "--material",
            "DvW",
        ],
        &["verify", "--tables", &tables, "--ruleset", "leiden"],
    ] {
        let o = run(args);
        assert!(o.status.success(), "{args:?}: {:?}", text(&o));
    }

    // A copy of the rule set's directory under another name is found by
    // its tables' headers: given itself, and one level down.
    std::fs::create_dir_all(&c).unwrap();
    let copy = c.join("my-leiden-copy");
    std::fs::create_dir_all(&copy).unwrap();
    for e in std::fs::read_dir(a.join("leiden")).unwrap() {
        let p = e.unwrap().path();
        if p.is_file() {
            std::fs::copy(&p, copy.join(p.file_name().unwrap())).unwrap();
        }
    }
    assert_eq!(answer(&s(&copy), &[]), expected);
    assert_eq!(answer(&s(&copy), &["--ruleset", "leiden"]), expected);
    assert_eq!(answer(&s(&c), &["--ruleset", "leiden"]), expected);
    // Under other rules the copy is not taken for theirs.
    let o = run(&["probe", "--tables", &s(&c), "--ruleset", "standard", pos]);
    assert!(!o.status.success());
    assert!(
        text(&o).1.contains("tables found for: my-leiden-copy"),
        "{:?}",
        text(&o)
    );
}

/// Rough edges a new user met, each now said plainly: `compress` of a
/// folder of compressed tables only; a rule set's folder used as the
/// tables root of another rule set; a material named in the other colour
/// order; `compress` of a root with several rule sets.
#[test]
fn compressed_only_folders_nested_rule_sets_and_colour_swaps_are_said_plainly() {
    let root = tempfile::tempdir().unwrap();
    let r = root.path().to_str().unwrap();
    for ruleset in ["standard", "leiden"] {
        let o = run(&[
            "generate",
            "--max-pieces",
            "2",
            "--ruleset",
            ruleset,
            "--out",
            r,
            "-q",
        ]);
        assert!(o.status.success(), "{:?}", text(&o));
    }
    // A root of two rule sets: both are compressed, and the summary says so.
    let o = run(&["compress", "--tables", r, "-q"]);
    assert!(o.status.success(), "{:?}", text(&o));
    assert!(
        text(&o).0.contains("72 tables of leiden, standard ("),
        "{:?}",
        text(&o)
    );
    let help = text(&run(&["compress", "--help"])).0;
    assert!(
        help.contains("every rule set's tables under a tables root are compressed"),
        "{help}"
    );

    // Compressed tables only: nothing to compress, and why.
    let z = tempfile::tempdir().unwrap();
    let o = run(&[
        "compress",
        "--tables",
        &format!("{r}/standard"),
        "--out",
        z.path().to_str().unwrap(),
        "-q",
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    let o = run(&[
        "compress",
        "--tables",
        z.path().join("standard").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let (_, err) = text(&o);
    assert!(
        err.contains("no plain table (.jtb) to compress")
            && err.contains("36 tables are compressed already"),
        "{err}"
    );
    assert!(
        err.contains("a damaged .jtbz is written again from its .jtb"),
        "{err}"
    );

    // The leiden folder given as the root of standard tables.
    let leiden = format!("{r}/leiden");
    for json in [false, true] {
        let mut args = vec!["probe", "--tables", &leiden, "--ruleset", "standard"];
        if json {
            args.push("--json");
        }
        args.push("7/7/7/7/7/7/7/7/Er5 w");
        let o = run(&args);
        assert_eq!(o.status.code(), Some(1));
        let (out, err) = text(&o);
        if json {
            assert!(out.contains("\"kind\":\"no_tables\""), "{out}");
        } else {
            assert!(
                err.contains(&format!("'{leiden}' is the folder of the leiden tables")),
                "{err}"
            );
            assert!(err.contains(&format!("the tables root '{r}'")), "{err}");
            assert!(!err.contains("--out"), "{err}");
        }
    }

    // RvE's table is EvR's.
    let o = run(&["info", "--material", "RvE", "--tables", r]);
    assert!(o.status.success());
    assert!(
        text(&o)
            .0
            .contains("asked for:      RvE, the colour swap of EvR"),
        "{:?}",
        text(&o)
    );
    let o = run(&["info", "--material", "EvR", "--tables", r]);
    assert!(!text(&o).0.contains("asked for"));
    let svg = root.path().join("h.svg");
    let o = run(&[
        "render",
        "histogram",
        "RvE",
        "--tables",
        r,
        "--out",
        svg.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    assert!(
        text(&o).1.contains("RvE is the colour swap of EvR"),
        "{:?}",
        text(&o)
    );
}
