//! What a new user trips over (issue 28): each test failed before its fix.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jungletb"))
        .args(args)
        .output()
        .expect("jungletb runs")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A tables root with every standard table up to 3 pieces, made once.
fn tables() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = tempfile::tempdir().unwrap();
        let o = run(&["generate", "--max-pieces", "3", "--out", s(d.path()), "-q"]);
        assert!(o.status.success(), "{:?}", text(&o));
        d
    })
    .path()
}

/// A copy of the tables of `tables()` in a fresh root.
fn copy_of_tables() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("standard");
    std::fs::create_dir_all(&dir).unwrap();
    for e in std::fs::read_dir(tables().join("standard")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "jtb") {
            std::fs::copy(&p, dir.join(p.file_name().unwrap())).unwrap();
        }
    }
    d
}

#[test]
fn tables_compressed_in_place_verify() {
    // Before: `verify` failed the .jtbz beside its .jtb with "needs the
    // plain table" (it compared raw values, which don't-cares change).
    let root = copy_of_tables();
    let o = run(&[
        "compress",
        "--tables",
        s(root.path()),
        "--material",
        "ERvT",
        "-q",
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    let o = run(&["verify", "--tables", s(root.path()), "--material", "ERvT"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert!(out.contains("ERvT.jtbz (same answers as"), "{out}");
    assert!(out.contains("0 failed"), "{out}");
}

#[test]
fn verify_of_a_material_without_a_table_names_it() {
    let o = run(&["verify", "--tables", s(tables()), "--material", "ELvTR"]);
    let err = text(&o).1;
    assert_eq!(o.status.code(), Some(1));
    assert!(err.contains("no table for ELvTR"), "{err}");
}

#[test]
fn verify_json_quiet_prints_only_failures_and_the_summary() {
    let o = run(&[
        "verify",
        "--tables",
        s(tables()),
        "--json",
        "-q",
        "--material",
        "EvR",
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    let out = text(&o).0;
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert_eq!(lines[0]["failed"], 0);
}

#[test]
fn compress_and_verify_take_a_rule_set() {
    let o = run(&[
        "verify",
        "--tables",
        s(tables()),
        "--ruleset",
        "standard",
        "--material",
        "EvR",
        "-q",
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    // No leiden tables there: refused with the directory it looked in.
    let o = run(&[
        "verify",
        "--tables",
        s(tables()),
        "--ruleset",
        "leiden",
        "-q",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("leiden"), "{:?}", text(&o));
}

#[test]
fn probe_takes_start_and_skips_comments_in_batches() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_jungletb"))
        .args(["probe", "--json", "--batch", "--tables", s(tables())])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let stdin = child.stdin.as_mut().unwrap();
        writeln!(
            stdin,
            "# White to move wins at once\n\n7/7/7/7/7/7/7/7/Er5 w"
        )
        .unwrap();
    }
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    let out = text(&o).0;
    assert_eq!(out.lines().count(), 1, "{out}");
    // `start` is the start position: no table holds its 16 pieces, and
    // the error says so (no file path, no index arithmetic).
    let o = run(&["probe", "--tables", s(tables()), "start"]);
    let err = text(&o).1;
    assert!(!o.status.success());
    assert!(
        err.contains("no table holds a position of 16 pieces"),
        "{err}"
    );
}

#[test]
fn unreachable_and_empty_positions_are_errors() {
    for (pos, needle) in [
        // White's Elephant on Black's den with White to move: the game
        // ended when it entered, with Black to move.
        ("3E3/7/7/7/7/7/7/7/6r w", "unreachable position"),
        // Black without pieces and White to move.
        ("7/7/7/7/7/7/7/7/E6 w", "unreachable position"),
        ("7/7/7/7/7/7/7/7/7 w", "no piece on the board"),
    ] {
        let o = run(&["probe", "--tables", s(tables()), pos]);
        let err = text(&o).1;
        assert_eq!(o.status.code(), Some(1), "{pos}");
        assert!(err.contains(needle), "{pos}: {err}");
    }
}

#[test]
fn a_finished_game_has_perft_zero_and_no_best_move_lines() {
    let o = run(&["perft", "3E3/7/7/7/7/7/7/7/6r b", "--depth", "3"]);
    assert!(o.status.success(), "{:?}", text(&o));
    assert_eq!(text(&o).0.trim(), "0");
    let o = run(&["probe", "--tables", s(tables()), "3E3/7/7/7/7/7/7/7/6r b"]);
    let out = text(&o).0;
    assert!(
        out.contains("Game over") && out.contains("no moves to play"),
        "{out}"
    );
    assert!(
        !out.contains("Best moves") && !out.contains("Line:"),
        "{out}"
    );
}

#[test]
fn the_line_is_numbered_with_piece_letters_captures_and_den_entries() {
    let o = run(&["probe", "--tables", s(tables()), "7/7/7/7/7/7/2E4/7/6r b"]);
    let out = text(&o).0;
    assert!(
        out.contains("Line: 1... rg1f1 2. Ec3c2 rf1e1 3. Ec2c3 re1d1#"),
        "{out}"
    );
    let o = run(&["probe", "--tables", s(tables()), "7/7/7/7/7/7/7/7/Er5 w"]);
    assert!(text(&o).0.contains("Line: 1. Ea1xb1#"), "{:?}", text(&o));
}

#[test]
fn a_causes_chain_says_each_cause_once() {
    // Before: "impossible position: …: impossible position: …".
    let o = run(&["probe", "--tables", s(tables()), "3r3/7/7/7/7/7/7/7/3E3 w"]);
    let err = text(&o).1;
    assert_eq!(err.matches("may not enter its own den").count(), 1, "{err}");
}

/// Generates every 2-piece table of rule set `rs` under the root `out`.
fn generate_two_pieces(out: &Path, rs: &str) {
    let o = run(&[
        "generate",
        "--ruleset",
        rs,
        "--max-pieces",
        "2",
        "--out",
        s(out),
        "-q",
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
}

#[test]
fn tables_of_one_rule_set_bring_their_rule_set() {
    let d = tempfile::tempdir().unwrap();
    generate_two_pieces(d.path(), "leiden");
    // --tables names leiden's directory, no --ruleset: its tables answer.
    let leiden = d.path().join("leiden");
    let o = run(&["probe", "--tables", s(&leiden), "7/7/7/7/7/r6/7/7/R6 w"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    // Under leiden this Rat takes the other from the land: a win
    // (standard: a draw).
    assert!(out.contains("Value: win"), "{out}");
    // A rule set with no tables lists the rule sets found, never `.locks`.
    let o = run(&[
        "probe",
        "--tables",
        s(d.path()),
        "--ruleset",
        "popular",
        "7/7/7/7/7/r6/7/7/R6 w",
    ]);
    let err = text(&o).1;
    assert!(err.contains("tables found for: leiden"), "{err}");
    assert!(!err.contains(".locks"), "{err}");
}

#[test]
fn an_unknown_rule_option_lists_the_options() {
    let o = run(&["rules", "standard", "--rule", "dogs_swim=true"]);
    let err = text(&o).1;
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err.contains("dog_swims") && err.contains("universal_traps"),
        "{err}"
    );
}

#[test]
fn compare_rules_hints_with_the_options_given() {
    let o = run(&[
        "compare-rules",
        "--tables",
        s(tables()),
        "--against",
        "standard",
        "--against-rule",
        "dog_swims=true",
    ]);
    let err = text(&o).1;
    assert_eq!(o.status.code(), Some(1));
    assert!(err.contains("--rule dog_swims=true"), "{err}");
}

#[test]
fn max_pieces_beyond_the_index_is_refused_with_the_reason_and_nothing_made() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path().join("t");
    let o = run(&["generate", "--max-pieces", "8", "--tables", s(&root), "-q"]);
    let err = text(&o).1;
    assert_eq!(o.status.code(), Some(1));
    assert!(err.contains("placements an index holds"), "{err}");
    assert!(!root.exists(), "nothing is created for a refused request");
    let o = run(&["generate", "--max-pieces", "1", "--tables", s(&root), "-q"]);
    assert!(text(&o).1.contains("2 to 16"), "{:?}", text(&o));
}

/// Six pieces have an index now: a position without its table is a
/// missing table (with the command that makes it), not a refused material.
#[test]
fn a_six_piece_position_without_its_table_is_a_missing_table() {
    let pos = "7/7/elt4/7/7/7/7/4ELT/7 w";
    let o = run(&["probe", "--tables", s(tables()), pos]);
    let err = text(&o).1;
    assert_eq!(o.status.code(), Some(1));
    assert!(err.contains("ELTvELT.jtb: table file not found"), "{err}");
    assert!(err.contains("--material ELTvELT"), "{err}");
    let o = run(&["probe", "--tables", s(tables()), "--json", pos]);
    assert_eq!(o.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_str(text(&o).0.trim()).unwrap();
    assert_eq!(doc["kind"], "missing_table", "{doc}");
}

#[test]
fn plan_with_nothing_to_do_says_zero_core_hours() {
    let o = run(&[
        "plan",
        "--tables",
        s(tables()),
        "--max-pieces",
        "2",
        "--json",
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    let out = text(&o).0;
    assert!(!out.contains("-0.0"), "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["total"]["core_hours"], 0.0);
}

/// `plan --slurm scripts` of the 2-piece tables under `dir/t`, with `more`.
fn plan_slurm(dir: &Path, scripts: &Path, more: &[&str]) -> Output {
    let tables = dir.join("t");
    let mut args = vec![
        "plan",
        "--tables",
        s(&tables),
        "--max-pieces",
        "2",
        "--slurm",
        s(scripts),
    ];
    args.extend_from_slice(more);
    run(&args)
}

#[test]
fn a_task_length_of_zero_or_less_is_refused_and_writes_no_script() {
    let d = tempfile::tempdir().unwrap();
    let scripts = d.path().join("slurm");
    for minutes in ["0", "-3", "nan", "inf"] {
        let o = plan_slurm(d.path(), &scripts, &[&format!("--task-minutes={minutes}")]);
        assert_eq!(o.status.code(), Some(2), "{minutes}: {:?}", text(&o));
        assert!(text(&o).1.contains("minutes above 0"), "{:?}", text(&o));
        assert!(!scripts.exists(), "{minutes}: scripts written");
    }
}

#[test]
fn slurm_scripts_run_with_empty_arrays_under_set_u() {
    let d = tempfile::tempdir().unwrap();
    let scripts = d.path().join("slurm");
    let o = plan_slurm(d.path(), &scripts, &[]);
    assert!(o.status.success(), "{:?}", text(&o));
    // The tables lie in a temporary directory: a warning says the nodes
    // may not see it.
    assert!(text(&o).1.contains("shared file system"), "{:?}", text(&o));
    let submit = std::fs::read_to_string(scripts.join("submit.sh")).unwrap();
    // The first level's sbatch line expands an empty array: written so that
    // bash before 4.4 accepts it under `set -u`.
    assert!(
        submit.contains("${dependency[@]+\"${dependency[@]}\"}"),
        "{submit}"
    );
    // Run it with an sbatch that prints a job id: every level is submitted.
    let bin = d.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(bin.join("sbatch"), "#!/bin/sh\necho 42\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(bin.join("sbatch"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let o = Command::new("bash")
        .arg(scripts.join("submit.sh"))
        .env("PATH", path)
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    assert!(text(&o).0.contains("level 2: job 42"), "{:?}", text(&o));
    // Slurm gets more memory than jungletb's own budget.
    let level = std::fs::read_to_string(scripts.join("level-2.sbatch")).unwrap();
    let number = |key: &str| -> u64 {
        let at = level.find(key).unwrap() + key.len();
        level[at..]
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .collect::<String>()
            .parse()
            .unwrap()
    };
    assert!(number("#SBATCH --mem=") > number("--mem "), "{level}");
}

#[test]
fn rules_say_where_each_rule_set_comes_from_and_list_values_not_defaults() {
    let o = run(&["rules"]);
    let out = text(&o).0;
    assert!(
        out.contains("Wikipedia") && out.contains("van Rijn"),
        "{out}"
    );
    assert!(out.contains("--rule wolf_outranks_dog=true"), "{out}");
    // jumpers' values: the form, not standard's setting.
    let jumpers = out.split("  jumpers\n").nth(1).unwrap();
    let values = jumpers.lines().nth(1).unwrap();
    assert!(values.contains("AXES: h | v | hv | none"), "{values}");
    let o = run(&["rules", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&text(&o).0).unwrap();
    assert!(v["rule_sets"][1]["source"]
        .as_str()
        .unwrap()
        .contains("van Rijn"));
}

#[test]
fn render_takes_its_options_after_the_picture_and_stats_prints_histograms() {
    // Before: --tables after the subcommand was refused, and absent from
    // `render map --help`.
    let o = run(&["render", "histogram", "ERvT", "--tables", s(tables())]);
    assert!(o.status.success(), "{:?}", text(&o));
    assert!(text(&o).0.starts_with("<svg"));
    let o = run(&["render", "map", "--help"]);
    assert!(text(&o).0.contains("--tables"), "{:?}", text(&o));
    // Before: --histograms printed no histogram in text.
    let o = run(&["stats", "--tables", s(tables()), "--histograms"]);
    let out = text(&o).0;
    assert!(out.contains("White to move, wins by plies: 1:"), "{out}");
}

#[test]
fn compare_rules_lists_only_the_materials_that_change_unless_asked() {
    let d = tempfile::tempdir().unwrap();
    for rs in ["standard", "leiden"] {
        generate_two_pieces(d.path(), rs);
    }
    let compare = |extra: &[&str]| {
        let mut args = vec![
            "compare-rules",
            "--tables",
            s(d.path()),
            "--against",
            "leiden",
            "-q",
        ];
        args.extend_from_slice(extra);
        let o = run(&args);
        assert!(o.status.success(), "{:?}", text(&o));
        text(&o).0
    };
    let rows = |out: &str, m: &str| {
        out.lines()
            .filter(|l| l.starts_with(&format!("{m} ")))
            .count()
    };
    // Rats fight across the water's edge under leiden: RvR changes, EvL
    // does not.
    let changed = compare(&[]);
    assert_eq!(rows(&changed, "RvR"), 1, "{changed}");
    assert_eq!(rows(&changed, "EvL"), 0, "{changed}");
    let all = compare(&["--all"]);
    assert_eq!(rows(&all, "EvL"), 1, "{all}");
}

#[test]
fn stats_count_both_sides_to_move_consistently_strongest_first() {
    let o = run(&["stats", "--tables", s(tables())]);
    let out = text(&o).0;
    assert!(out.contains("Positions count both sides to move"), "{out}");
    // EvE stores White to move only; its row counts both sides (2 × 1,197),
    // as its W / L / D columns do.
    let row = out.lines().find(|l| l.starts_with("EvE ")).unwrap();
    assert!(row.contains(" 2394 "), "{row}");
    // The totals add up the W / L / D columns, and name the longest win.
    let two = out.lines().find(|l| l.starts_with("2 pieces:")).unwrap();
    assert!(
        two.contains("91608 positions with either side to move"),
        "{two}"
    );
    assert!(two.contains("longest win 33 ("), "{two}");
    // Strongest first: EvE before RvR, ELvE (3 pieces) after every 2-piece one.
    let at = |m: &str| out.find(&format!("\n{m} ")).unwrap();
    assert!(at("EvE") < at("RvR"));
    assert!(at("RvR") < at("ELvE"));
}
