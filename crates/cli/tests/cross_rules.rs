//! The cross-rule attack on the CLI and the HTTP API: the White Wolf on a1
//! and the Black Dog on a2 (a win in 1 under popular + wolf_outranks_dog, a
//! loss in 8 under standard) and its colour swap, put to the tables of
//! each rule set by every route a client takes: a tables root with
//! `--ruleset`, one rule set's directory, its label, a directory of other
//! rules under a rule set's name, query parameters the server does not
//! read. Each answer is right and names its rule set, or is a clear
//! refusal. (The same attack runs on Rust, C, Python and JavaScript:
//! `crates/capi/tests/api.rs`, `crates/python/tests`, `tests/site`.)

use serde_json::Value as Json;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

const WD: &str = "7/7/7/7/7/7/7/d6/W6 w";
const SWAPPED: &str = "w6/D6/7/7/7/7/7/7/7 b";
const WOLF: &str = "popular-custom-96041d7177d2e47e";

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_jungletb"))
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The 2-piece tables of standard, leiden and popular + wolf_outranks_dog
/// under one root; `swapped/standard` holding the wolf tables.
fn fixture() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = tempfile::tempdir().unwrap();
        let root = d.path().join("tables");
        let out = root.to_str().unwrap();
        for rules in [
            &["--ruleset", "standard"][..],
            &["--ruleset", "leiden"],
            &["--ruleset", "popular", "--rule", "wolf_outranks_dog=true"],
        ] {
            let o = bin()
                .args(["generate", "--out", out, "--max-pieces", "2", "-q"])
                .args(rules)
                .output()
                .unwrap();
            assert!(o.status.success(), "{}", text(&o).1);
        }
        let swapped = d.path().join("swapped").join("standard");
        std::fs::create_dir_all(&swapped).unwrap();
        for e in std::fs::read_dir(root.join(WOLF)).unwrap() {
            let p = e.unwrap().path();
            if p.is_file() {
                std::fs::copy(&p, swapped.join(p.file_name().unwrap())).unwrap();
            }
        }
        d
    })
    .path()
}

fn root() -> PathBuf {
    fixture().join("tables")
}

/// The expected (ruleset label, category, plies) of WD and its swap.
fn expected(label: &str) -> (&'static str, u64) {
    match label {
        WOLF => ("win", 1),
        _ => ("loss", 8),
    }
}

fn probe_json(tables: &Path, rules: &[&str]) -> Vec<Json> {
    let mut args = vec!["probe", "--tables", tables.to_str().unwrap(), "--json"];
    args.extend_from_slice(rules);
    args.extend_from_slice(&[WD, SWAPPED]);
    let o = run(&args);
    assert!(o.status.success(), "{args:?}: {:?}", text(&o));
    text(&o)
        .0
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// An answer is right for the rules it names, and names the rules asked.
fn is_right(a: &Json, label: &str) {
    assert_eq!(a["ruleset"], label, "{a}");
    let (category, plies) = expected(label);
    assert_eq!(a["category"], category, "{a}");
    assert_eq!(a["plies"], plies, "{a}");
}

#[test]
fn the_cli_answers_under_the_rules_it_names_by_every_route() {
    let root = root();
    let routes: Vec<(PathBuf, Vec<&str>, &str)> = vec![
        (root.clone(), vec![], "standard"),
        (root.clone(), vec!["--ruleset", "standard"], "standard"),
        (root.clone(), vec!["--ruleset", "leiden"], "leiden"),
        (
            root.clone(),
            vec!["--ruleset", "popular", "--rule", "wolf_outranks_dog=true"],
            WOLF,
        ),
        (root.clone(), vec!["--ruleset", WOLF], WOLF),
        (root.join(WOLF), vec![], WOLF),
        (root.join("leiden"), vec![], "leiden"),
        (root.join(WOLF), vec!["--ruleset", WOLF], WOLF),
    ];
    for (tables, rules, label) in &routes {
        for a in probe_json(tables, rules) {
            is_right(&a, label);
        }
        // The text answer names the rule set too.
        let mut args = vec!["probe", "--tables", tables.to_str().unwrap()];
        args.extend_from_slice(rules);
        args.push(WD);
        let o = run(&args);
        assert!(o.status.success(), "{:?}", text(&o));
        assert!(
            text(&o).0.contains(&format!("\nRules: {label}\n")),
            "{args:?}: {}",
            text(&o).0
        );
    }
    // A rule set's directory under other rules: refused, naming both.
    for (tables, rules) in [
        (root.join(WOLF), vec!["--ruleset", "standard"]),
        (root.join("leiden"), vec!["--ruleset", "popular"]),
        (fixture().join("swapped"), vec![]),
        (
            fixture().join("swapped").join("standard"),
            vec!["--ruleset", "standard"],
        ),
    ] {
        let mut args = vec!["probe", "--tables", tables.to_str().unwrap(), "--json"];
        args.extend_from_slice(&rules);
        args.push(WD);
        let o = run(&args);
        assert!(!o.status.success(), "{args:?} answered: {:?}", text(&o));
        assert!(
            !text(&o).0.contains("\"category\""),
            "{args:?}: {:?}",
            text(&o)
        );
    }
}

#[test]
fn verify_fails_a_table_of_other_rules_in_a_rule_sets_directory() {
    let swapped = fixture().join("swapped");
    let o = run(&["verify", "--tables", swapped.to_str().unwrap()]);
    assert!(!o.status.success(), "{:?}", text(&o));
    let out = text(&o).0;
    assert!(
        out.contains("FAIL") && out.contains("not 'standard'"),
        "{out}"
    );
    // The same tables in their own directory, or in one of a name that is no
    // rule set's, pass.
    let o = run(&["verify", "--tables", root().join(WOLF).to_str().unwrap()]);
    assert!(o.status.success(), "{:?}", text(&o));
    let elsewhere = tempfile::tempdir().unwrap();
    let mine = elsewhere.path().join("my-copy");
    std::fs::create_dir(&mine).unwrap();
    for e in std::fs::read_dir(root().join(WOLF)).unwrap() {
        let p = e.unwrap().path();
        if p.is_file() {
            std::fs::copy(&p, mine.join(p.file_name().unwrap())).unwrap();
        }
    }
    let o = run(&["verify", "--tables", mine.to_str().unwrap()]);
    assert!(o.status.success(), "{:?}", text(&o));
}

/// A running server over `tables`, stopped when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(tables: &Path, extra: &[&str]) -> Result<Server, String> {
        let mut child = bin()
            .args(["serve", "--tables", tables.to_str().unwrap()])
            .args(["--bind", "127.0.0.1:0", "-q"])
            .args(extra)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let mut said = String::new();
        let addr = loop {
            let Some(Ok(line)) = lines.next() else {
                let status = child.wait().unwrap();
                return Err(format!("{status}: {said}"));
            };
            if let Some(rest) = line.strip_prefix("listening on http://") {
                said.push_str(&line);
                break rest.split('/').next().unwrap().to_string();
            }
            said.push_str(&line);
        };
        std::thread::spawn(move || for _ in lines {});
        Ok(Server { child, addr })
    }

    fn json(&self, target: &str) -> (u16, Json) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let req = format!("GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        s.write_all(req.as_bytes()).unwrap();
        let mut buf = String::new();
        let _ = s.read_to_string(&mut buf);
        let status = buf.split_whitespace().nth(1).unwrap().parse().unwrap();
        let body = buf.split_once("\r\n\r\n").map_or("", |(_, b)| b);
        (status, serde_json::from_str(body).unwrap_or(Json::Null))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn q(position: &str) -> String {
    position.replace(' ', "_")
}

#[test]
fn the_http_api_answers_each_rule_set_under_its_own_name_or_refuses() {
    let root = root();
    let wolf = ["--ruleset", "popular", "--rule", "wolf_outranks_dog=true"];
    // The root (with the wolf rule set named), and the wolf directory
    // alone: each rule set under its own label, never another's.
    for (tables, extra, labels) in [
        (root.clone(), &wolf[..], &["standard", "leiden", WOLF][..]),
        (root.join(WOLF), &[][..], &[WOLF][..]),
    ] {
        let server = Server::start(&tables, extra).unwrap();
        let (_, list) = server.json("/api/rulesets");
        let served: Vec<&str> = list["rulesets"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["tables"] == true)
            .map(|r| r["label"].as_str().unwrap())
            .collect();
        assert_eq!(served, labels, "{}", tables.display());
        for label in labels {
            for pos in [WD, SWAPPED] {
                let (status, a) = server.json(&format!("/api/{label}?position={}", q(pos)));
                assert_eq!(status, 200, "{a}");
                is_right(&a, label);
                let (status, a) =
                    server.json(&format!("/api/{label}/mainline?position={}", q(pos)));
                assert_eq!(status, 200, "{a}");
                is_right(&a, label);
                // Rules named in the query must be the path's.
                for other in ["standard", "leiden", "popular"] {
                    let (status, a) =
                        server.json(&format!("/api/{label}?position={}&ruleset={other}", q(pos)));
                    if other == *label {
                        is_right(&a, label);
                    } else {
                        assert_eq!(
                            (status, a["kind"].as_str()),
                            (400, Some("ruleset_mismatch"))
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn unknown_and_repeated_query_parameters_are_refused_not_ignored() {
    let server = Server::start(&root(), &[]).unwrap();
    let (status, plain) = server.json(&format!("/api/standard?position={}", q(WD)));
    assert_eq!(status, 200);
    is_right(&plain, "standard");
    for target in [
        format!("/api/standard?position={}&variant=popular", q(WD)),
        format!("/api/standard?position={}&rulset=popular", q(WD)),
        format!("/api/standard/mainline?position={}&rules_=x", q(WD)),
        format!("/api/standard/map?position={}&square=a1&piece=W", q(WD)),
        "/api/standard/stats/DvW?position=x".to_string(),
        format!("/api/standard?position={}&position={}", q(WD), q(SWAPPED)),
        format!("/api/standard?position={}&fen={}", q(WD), q(SWAPPED)),
        format!(
            "/api/standard?position={}&ruleset=standard&ruleset=popular",
            q(WD)
        ),
    ] {
        let (status, e) = server.json(&target);
        assert_eq!(
            (status, e["kind"].as_str()),
            (400, Some("parameter")),
            "{target}: {e}"
        );
    }
    // Several `rule` options are one request.
    let (status, a) = server.json(&format!(
        "/api/standard?position={}&rule=wolf_outranks_dog%3Dfalse&rule=dog_swims%3Dfalse",
        q(WD)
    ));
    assert_eq!((status, &a), (200, &plain));
}

#[test]
fn a_server_over_tables_of_other_rules_refuses_to_start_and_says_why() {
    let swapped = fixture().join("swapped");
    let e = Server::start(&swapped, &[])
        .err()
        .expect("served tables of other rules");
    assert!(
        e.contains("not 'standard'") && e.contains("custom-96041d7177d2e47e"),
        "{e}"
    );
}
