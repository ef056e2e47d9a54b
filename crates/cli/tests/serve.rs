//! `jungletb serve` over loopback: answers equal to `jungletb probe --json`,
//! errors with the right status for bad requests, hostile requests survived,
//! graceful shutdown; and `jungletb render`.

use serde_json::Value as Json;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_jungletb"))
}

/// Every standard table up to 3 pieces, and the 2-piece tables of a custom
/// rule set, generated once.
fn tables() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().to_str().unwrap();
        for extra in [
            &["--max-pieces", "3"][..],
            &["--max-pieces", "2", "--rule", "universal_traps=true"],
        ] {
            let o = bin()
                .args(["generate", "--out", out, "-q"])
                .args(extra)
                .output()
                .unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        }
        d
    })
    .path()
}

/// A running server, stopped (SIGTERM) when dropped.
struct Server {
    child: Child,
    addr: String,
    /// What the server wrote to standard error after its listening line.
    said: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let mut child = bin()
            .args([
                "serve",
                "--tables",
                tables().to_str().unwrap(),
                "--bind",
                "127.0.0.1:0",
                "-q",
            ])
            .args(extra)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let addr = loop {
            let line = lines
                .next()
                .expect("the server prints where it listens")
                .unwrap();
            if let Some(rest) = line.strip_prefix("listening on http://") {
                break rest.split('/').next().unwrap().to_string();
            }
        };
        // Keep draining standard error so that the server never blocks on
        // it, and keep what it says for a failed stop.
        let said = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let kept = std::sync::Arc::clone(&said);
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                kept.lock().unwrap().push(line);
            }
        });
        Server { child, addr, said }
    }

    /// Sends raw request bytes; returns the status and the body.
    fn raw(&self, request: &[u8]) -> (u16, String) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        s.write_all(request).unwrap();
        let mut buf = Vec::new();
        let _ = s.read_to_end(&mut buf);
        let text = String::from_utf8_lossy(&buf).into_owned();
        let status = text
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no HTTP status in {text:?}"));
        let body = text
            .split_once("\r\n\r\n")
            .map_or("", |(_, b)| b)
            .to_string();
        (status, body)
    }

    fn get(&self, target: &str) -> (u16, String) {
        self.raw(
            format!("GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes(),
        )
    }

    fn json(&self, target: &str) -> (u16, Json) {
        let (status, body) = self.get(target);
        let doc = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{target}: {e}: {body:?}"));
        (status, doc)
    }

    /// SIGTERM, then the exit status. The signal is sent by a system call:
    /// running `kill` meant forking a process, which under load can fail
    /// (the test then failed here, at `stop`, with the server fine).
    fn stop(mut self) -> std::process::ExitStatus {
        let pid = self.child.id() as libc::pid_t;
        // SAFETY: kill(2) on our own child, which has not been waited for
        // (its pid is still ours); no memory is involved.
        let sent = unsafe { libc::kill(pid, libc::SIGTERM) };
        assert_eq!(sent, 0, "SIGTERM: {}", std::io::Error::last_os_error());
        let status = self.child.wait().unwrap();
        if !status.success() {
            let said = self.said.lock().unwrap().join("\n");
            eprintln!("the server exited with {status}; it said:\n{said}");
        }
        status
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

/// Deterministic sample positions of the 2- and 3-piece materials (some
/// impossible, filtered out by `probe`), plus finished games.
fn sample_positions() -> Vec<String> {
    let letters = ["E", "L", "T", "P", "D", "W", "C", "R"];
    let mut seed = 0x1234_5678_u64;
    let mut next = |n: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    let mut out = vec![
        "7/7/7/7/7/7/7/7/E5r w".to_string(),
        "3E3/7/7/7/7/7/7/7/6r b".to_string(), // White Elephant on the black den
        "7/7/7/7/7/7/7/7/6r w".to_string(),   // White has no pieces
    ];
    while out.len() < 150 {
        let pieces = 2 + next(2) as usize;
        let mut board: Vec<Option<String>> = vec![None; 63];
        for k in 0..pieces {
            let animal = letters[next(8) as usize];
            let piece = if k == 0 || (k == 2 && next(2) == 0) {
                animal.to_string()
            } else {
                animal.to_lowercase()
            };
            board[next(63) as usize] = Some(piece);
        }
        let mut ranks = Vec::new();
        for r in (0..9).rev() {
            let (mut s, mut empty) = (String::new(), 0);
            for f in 0..7 {
                match &board[r * 7 + f] {
                    Some(p) => {
                        if empty > 0 {
                            s += &empty.to_string();
                        }
                        empty = 0;
                        s += p;
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            ranks.push(s);
        }
        out.push(format!(
            "{} {}",
            ranks.join("/"),
            if next(2) == 0 { "w" } else { "b" }
        ));
    }
    out
}

/// The mover's value of a move, from the API's value after it.
fn mover_view(category: &str, plies: &Json) -> (String, Json) {
    match category {
        "draw" => ("draw".into(), Json::Null),
        c => (
            if c == "loss" { "win" } else { "loss" }.into(),
            Json::from(plies.as_u64().unwrap() + 1),
        ),
    }
}

#[test]
fn answers_equal_probe_json() {
    let positions = sample_positions();
    let out = bin()
        .args(["probe", "--json", "--tables", tables().to_str().unwrap()])
        .args(&positions)
        .output()
        .unwrap();
    let server = Server::start(&[]);
    let mut compared = 0;
    let mut finished = 0;
    let mut steps_checked = 0;
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let p: Json = serde_json::from_str(line).unwrap();
        let text = p["input"].as_str().unwrap().replace(' ', "_");
        let (status, a) = server.json(&format!("/api/standard?position={text}"));
        if p.get("error").is_some() {
            // The same position is refused by the API, with a 4xx.
            assert!((400..500).contains(&status), "{text}: {status} {a}");
            assert!(a["error"].is_string());
            continue;
        }
        assert_eq!(status, 200, "{text}: {a}");
        assert_eq!(a["position"], p["position"]);
        assert_eq!(a["side_to_move"], p["side_to_move"]);
        assert_eq!(a["category"], p["category"], "{text}");
        assert_eq!(a["plies"], p["plies"], "{text}");
        assert_eq!(a["game_over"], p["game_over"], "{text}");
        finished += usize::from(!p["game_over"].is_null());
        let pm = p["moves"].as_array().unwrap();
        let am = a["moves"].as_array().unwrap();
        assert_eq!(pm.len(), am.len(), "{text}");
        // One wire format: the same move objects, in the same order.
        assert_eq!(pm, am, "{text}");
        // The best move, seen from the mover, is the position's value.
        if let Some(best) = am.first() {
            let (cat, plies) = mover_view(best["category"].as_str().unwrap(), &best["plies"]);
            assert_eq!(a["category"], Json::from(cat), "{text}");
            assert_eq!(a["plies"], plies, "{text}");
        }
        // The mainline is the line `probe` prints.
        let (status, m) = server.json(&format!("/api/standard/mainline?position={text}"));
        assert_eq!(status, 200);
        let moves: Vec<&Json> = m["mainline"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| &s["move"])
            .collect();
        let expected: Vec<&Json> = p["line"].as_array().unwrap().iter().collect();
        assert_eq!(moves, expected, "{text}");
        // Each step's value (derived along the line) is what a probe of
        // that step's position says; checked on the first positions.
        if compared < 15 {
            for step in m["mainline"].as_array().unwrap() {
                let at = step["position"].as_str().unwrap().replace(' ', "_");
                let (_, direct) = server.json(&format!("/api/standard?position={at}"));
                assert_eq!(step["category"], direct["category"], "{text} → {at}");
                assert_eq!(step["plies"], direct["plies"], "{text} → {at}");
                steps_checked += 1;
            }
        }
        compared += 1;
    }
    assert!(compared >= 40, "only {compared} valid sample positions");
    assert!(
        steps_checked >= 20,
        "only {steps_checked} mainline steps checked"
    );
    assert!(finished >= 2, "finished games compared: {finished}");
    // A second round is served from the cache, with the same bodies.
    let (_, first) = server.get("/api/standard?position=7/7/7/7/7/7/7/7/E5r_w");
    let (_, again) = server.get("/api/standard?position=7/7/7/7/7/7/7/7/E5r%20w");
    assert_eq!(first, again);
    let (_, metrics) = server.get("/metrics");
    let hits: u64 = metrics
        .lines()
        .find_map(|l| l.strip_prefix("jungletb_cache_hits_total "))
        .unwrap()
        .parse()
        .unwrap();
    assert!(hits >= 1, "{metrics}");
    assert!(metrics.contains("jungletb_request_duration_seconds{quantile=\"0.99\"}"));
    assert!(server.stop().success(), "graceful shutdown exits 0");
}

#[test]
fn stats_map_and_board_answer_as_the_tables_do() {
    let server = Server::start(&["--rule", "universal_traps=true"]);
    // Stats: the histogram sums to the table's counts (`info --json`).
    let (status, s) = server.json("/api/standard/stats/ERvT");
    assert_eq!(status, 200, "{s}");
    let info = bin()
        .args(["info", "--json"])
        .arg(tables().join("standard").join("ERvT.jtb"))
        .output()
        .unwrap();
    let info: Json = serde_json::from_slice(&info.stdout).unwrap();
    let w = &s["white_to_move"];
    assert_eq!(w["wins"], info["sides"]["white_to_move"]["wins"]);
    assert_eq!(w["draws"], info["sides"]["white_to_move"]["draws"]);
    let sum: u64 = w["win_plies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(Json::from(sum), w["wins"]);
    assert_eq!(
        w["longest_win_example"]["plies"],
        info["sides"]["white_to_move"]["longest_win"]
    );
    assert_eq!(
        w["longest_win"],
        info["sides"]["white_to_move"]["longest_win"]
    );
    // One shape: the CLI's `stats --json --histograms` line of the material
    // is the server's answer.
    let cli = bin()
        .args(["stats", "--json", "--histograms", "--tables"])
        .arg(tables())
        .output()
        .unwrap();
    let line = String::from_utf8_lossy(&cli.stdout)
        .lines()
        .map(|l| serde_json::from_str::<Json>(l).unwrap())
        .find(|l| l["material"] == "ERvT")
        .expect("stats lists ERvT");
    assert_eq!(line, s, "stats --json and /api/…/stats agree");
    // The example position probes to the longest win.
    let ex = w["longest_win_example"]["position"]
        .as_str()
        .unwrap()
        .replace(' ', "_");
    let (_, a) = server.json(&format!("/api/standard?position={ex}"));
    assert_eq!(a["plies"], w["longest_win"]);

    // Map: each square's value is the value of the position with the piece
    // moved there.
    let (status, m) = server.json("/api/standard/map?position=7/7/4t2/7/7/7/1E5/7/R6_w&square=b3");
    assert_eq!(status, 200, "{m}");
    let squares = m["squares"].as_array().unwrap();
    assert_eq!(squares.len(), 63);
    assert!(squares[0].is_null(), "a1 holds the White Rat");
    let c2 = &squares[9]; // c2: file 2 + 7 × rank index 1
    let (_, direct) = server.json("/api/standard?position=7/7/4t2/7/7/7/7/2E4/R6_w");
    assert_eq!(c2["category"], direct["category"]);
    assert_eq!(c2["plies"], direct["plies"]);
    let (status, e) = server.json("/api/standard/map?position=7/7/4t2/7/7/7/1E5/7/R6_w&square=c3");
    assert_eq!((status, e["kind"].as_str()), (400, Some("no_piece")));

    // Board terrain.
    let (_, b) = server.json("/api/standard/board");
    assert_eq!(b["water"].as_array().unwrap().len(), 12);
    assert_eq!(b["dens"]["w"], serde_json::json!(["d1"]));
    assert!(server.stop().success());
}

#[test]
fn a_custom_rule_set_is_served_under_its_label_with_its_coverage() {
    let server = Server::start(&["--rule", "universal_traps=true"]);
    // The custom rule set is served under its label.
    let (_, list) = server.json("/api/rulesets");
    let custom = list["rulesets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["label"].as_str().unwrap().starts_with("standard-custom"))
        .expect("custom rule set listed");
    assert_eq!(custom["tables"], true);
    // Complete up to 2 pieces, nothing partial; standard up to 3.
    assert_eq!(
        (
            custom["complete_pieces"].as_u64(),
            custom["partial"].as_array().map(|p| p.len())
        ),
        (Some(2), Some(0))
    );
    let standard = &list["rulesets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["label"] == "standard")
        .unwrap();
    assert_eq!(
        (
            standard["complete_pieces"].as_u64(),
            standard["max_pieces"].as_u64()
        ),
        (Some(3), Some(3))
    );
    let label = custom["label"].as_str().unwrap();
    let (status, a) = server.json(&format!("/api/{label}?position=7/7/7/7/7/7/7/7/E5r_w"));
    assert_eq!(status, 200, "{a}");
    let (status, e) = server.json("/api/leiden?position=7/7/7/7/7/7/7/7/E5r_w");
    assert_eq!((status, e["kind"].as_str()), (404, Some("no_tables")));
    assert!(server.stop().success());
}

/// The signal handlers are installed before the server says where it
/// listens: a SIGTERM sent as soon as it has said so once killed it (about
/// one time in twenty, before the fix) instead of stopping it cleanly.
#[test]
fn a_sigterm_right_after_the_listening_line_stops_the_server_cleanly() {
    for _ in 0..10 {
        let server = Server::start(&[]);
        assert!(server.stop().success());
    }
}

#[test]
fn a_request_naming_other_rules_is_refused_never_answered_under_the_paths() {
    let server = Server::start(&[]);
    let pos = "7/7/7/7/7/7/7/d6/W6_w";
    // Rules that agree with the path are answered as without them.
    let (status, plain) = server.json(&format!("/api/standard?position={pos}"));
    assert_eq!(status, 200, "{plain}");
    for agree in ["ruleset=standard", "rule=wolf_outranks_dog%3Dfalse"] {
        let (status, a) = server.json(&format!("/api/standard?position={pos}&{agree}"));
        assert_eq!((status, &a), (200, &plain), "{agree}");
    }
    // Rules that differ are refused, naming both rule sets, in every route
    // that answers a position or a material.
    for target in [
        format!("/api/standard?position={pos}&rule=wolf_outranks_dog%3Dtrue"),
        format!("/api/standard?position={pos}&ruleset=popular"),
        format!("/api/standard/mainline?position={pos}&ruleset=leiden"),
        format!("/api/standard/map?position={pos}&square=a1&ruleset=popular"),
        "/api/standard/stats/ERvT?rule=wolf_outranks_dog%3Dtrue".to_string(),
    ] {
        let (status, e) = server.json(&target);
        assert_eq!(
            (status, e["kind"].as_str()),
            (400, Some("ruleset_mismatch")),
            "{target}: {e}"
        );
        let msg = e["error"].as_str().unwrap();
        assert!(msg.contains("standard"), "{msg}");
    }
    let (status, e) = server.json(&format!("/api/standard?position={pos}&rule=nosuch%3D1"));
    assert_eq!((status, e["kind"].as_str()), (400, Some("rules")), "{e}");
    assert!(server.stop().success());
}

#[test]
fn bad_requests_get_a_clear_4xx_naming_their_kind() {
    let server = Server::start(&["--max-connections", "256", "--workers", "2"]);
    let cases: &[(&str, u16, &str)] = &[
        (
            "/api/standard?position=7/7/7/7/7/7/7/7/E5x_w",
            400,
            "notation",
        ),
        (
            "/api/standard?position=7/7/7/7/7/7/7/7/E2R2r_w",
            400,
            "impossible_position",
        ),
        (
            "/api/standard?position=7/7/7/7/7/7/7/7/E5r",
            400,
            "notation",
        ),
        ("/api/standard", 400, "missing_position"),
        ("/api/standard?position=%FF%FE_w", 400, "notation"),
        (
            "/api/standard?position=7/7/7/7/7/7/7/7/ELTr2r_w",
            400,
            "notation",
        ),
        (
            "/api/standard?position=7/7/7/7/7/7/7/7/ELT1r2_w",
            404,
            "missing_table",
        ),
        (
            "/api/nosuch?position=7/7/7/7/7/7/7/7/E5r_w",
            404,
            "unknown_ruleset",
        ),
        ("/api/standard/stats/XvY", 400, "material"),
        ("/api/standard/stats/ELTvR", 404, "missing_table"),
        ("/nosuch/route", 404, "no_route"),
    ];
    for &(target, status, kind) in cases {
        let (got, doc) = server.json(target);
        assert_eq!(got, status, "{target}: {doc}");
        assert_eq!(doc["kind"], kind, "{target}: {doc}");
        assert!(!doc["error"].as_str().unwrap().is_empty());
    }
    // A missing table says what the server has, never a server path or a
    // shell command (those go to the server's log).
    for target in [
        "/api/standard?position=7/7/7/7/7/7/7/7/ELT1r2_w",
        "/api/standard/stats/ELTvR",
    ] {
        let (_, doc) = server.json(target);
        let msg = doc["error"].as_str().unwrap();
        assert!(
            msg.contains("ELTvR") && msg.contains("up to 3 pieces"),
            "{doc}"
        );
        assert!(!msg.contains("jungletb") && !msg.contains('/'), "{doc}");
    }
    let (_, doc) = server.json("/api/leiden?position=7/7/7/7/7/7/7/7/E5r_w");
    assert!(!doc["error"].as_str().unwrap().contains('/'), "{doc}");
    assert!(server.stop().success());
}

#[test]
fn hostile_requests_leave_the_server_answering_in_bounded_memory() {
    let server = Server::start(&["--max-connections", "256", "--workers", "2"]);
    // A very long query string: refused, not echoed, server alive.
    let long = format!("/api/standard?position={}", "7/".repeat(20_000));
    let (status, _) = server.get(&long);
    assert!((400..500).contains(&status), "{status}");
    let huge = format!("/api/standard?position={}", "a".repeat(2_000_000));
    let mut s = TcpStream::connect(&server.addr).unwrap();
    let _ = s.write_all(format!("GET {huge} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes());
    drop(s);
    // Invalid UTF-8 and garbage on the wire.
    let (status, _) = server.raw(
        b"GET /api/standard?position=\xff\xfe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert!((400..500).contains(&status), "{status}");
    let (status, _) = server.raw(b"\x00\x01garbage\r\n\r\n");
    assert!((400..500).contains(&status), "{status}");
    // Many concurrent connections, more than the bound: all answered.
    let handles: Vec<_> = (0..600)
        .map(|k| {
            let addr = server.addr.clone();
            std::thread::spawn(move || {
                let pos = if k % 2 == 0 { "7/7/7/7/7/7/7/7/E5r_w" } else { "7/7/4t2/7/7/7/1E5/7/R6_w" };
                let mut s = TcpStream::connect(&addr).unwrap();
                s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
                s.write_all(format!("GET /api/standard?position={pos} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes())
                    .unwrap();
                let mut buf = String::new();
                let _ = s.read_to_string(&mut buf);
                buf.starts_with("HTTP/1.1 200")
            })
        })
        .collect();
    let ok = handles
        .into_iter()
        .map(|h| h.join().unwrap())
        .filter(|&b| b)
        .count();
    assert_eq!(ok, 600, "every concurrent request answered");
    // Still healthy, memory bounded.
    let (status, _) = server.get("/health");
    assert_eq!(status, 200);
    let rss_kb: u64 = std::fs::read_to_string(format!("/proc/{}/status", server.child.id()))
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
        .unwrap();
    assert!(
        rss_kb < 200 * 1024,
        "server RSS {rss_kb} kB after the flood"
    );
    assert!(server.stop().success());
}

#[test]
fn render_writes_svg_and_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("map.svg");
    let t = tables().to_str().unwrap();
    let run = |extra: &[&str]| {
        bin()
            .args(["render", "--tables", t])
            .args(extra)
            .output()
            .unwrap()
    };
    let o = run(&[
        "map",
        "7/7/4t2/7/7/7/1E5/7/R6 w",
        "--square",
        "b3",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    // 48 squares where the Elephant may stand carry a value label.
    let labels = svg.matches(">W").count() + svg.matches(">L").count() + svg.matches(">D<").count();
    assert!(labels >= 40, "{labels} labels");
    let o = run(&[
        "map",
        "7/7/4t2/7/7/7/1E5/7/R6 w",
        "--square",
        "b3",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!o.status.success(), "an existing file is not replaced");
    assert!(String::from_utf8_lossy(&o.stderr).contains("--force"));
    let o = run(&["histogram", "ERvT"]);
    assert!(o.status.success());
    let svg = String::from_utf8(o.stdout).unwrap();
    assert!(svg.contains("ERvT") && svg.matches("<rect").count() > 10);
    let o = run(&["map", "7/7/4t2/7/7/7/1E5/7/R6 w", "--square", "c3"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("no piece on c3"));
}

#[test]
fn idle_connections_are_closed_and_free_their_places() {
    let server = Server::start(&["--max-connections", "2", "--idle-timeout", "1"]);
    // Two clients take both places and say nothing.
    let idle: Vec<TcpStream> = (0..2)
        .map(|_| TcpStream::connect(&server.addr).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    // A third is answered once the idle ones are closed (about a second).
    let start = std::time::Instant::now();
    let (status, _) = server.get("/health");
    assert_eq!(status, 200);
    let waited = start.elapsed();
    assert!(
        waited >= Duration::from_millis(500),
        "answered after {waited:?}: the places were free?"
    );
    assert!(
        waited < Duration::from_secs(10),
        "answered after {waited:?}"
    );
    // The idle clients find their connections closed.
    for mut s in idle {
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut buf = [0u8; 16];
        let n = s.read(&mut buf).unwrap_or(0);
        assert_eq!(n, 0, "an idle connection stays open");
    }
    assert!(server.stop().success());
}

#[test]
fn preflight_405_fen_and_the_log_speak_http_and_json() {
    let server = Server::start(&[]);
    // CORS preflight: 204 with the headers a browser asks for.
    let mut s = TcpStream::connect(&server.addr).unwrap();
    s.write_all(
        b"OPTIONS /api/standard?position=x HTTP/1.1\r\nHost: x\r\nOrigin: http://a.example\r\n\
          Access-Control-Request-Method: GET\r\nConnection: close\r\n\r\n",
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    assert!(text.starts_with("HTTP/1.1 204"), "{text}");
    let lower = text.to_ascii_lowercase();
    assert!(lower.contains("access-control-allow-origin: *"), "{text}");
    assert!(
        lower.contains("access-control-allow-methods: get, options"),
        "{text}"
    );
    // Another method: 405 with a JSON body like every error.
    let (status, body) = server.raw(
        b"POST /api/standard HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(status, 405, "{body}");
    let doc: Json = serde_json::from_str(&body).unwrap();
    assert_eq!(doc["kind"], "method_not_allowed");
    // `fen`, lichess's name for the position, is accepted.
    let (status, a) = server.json("/api/standard?fen=7/7/7/7/7/7/7/7/E5r_w");
    let (_, b) = server.json("/api/standard?position=7/7/7/7/7/7/7/7/E5r_w");
    assert_eq!(status, 200, "{a}");
    assert_eq!(a, b);
    assert!(server.stop().success());
}

#[test]
fn start_up_is_one_line_and_requests_are_logged_with_time_and_client() {
    let mut child = bin()
        .args([
            "serve",
            "--tables",
            tables().to_str().unwrap(),
            "--bind",
            "127.0.0.1:0",
        ])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    // One line: where, what (leiden and popular have no tables here: named,
    // not an error each).
    assert!(first.starts_with("listening on http://"), "{first}");
    assert!(
        first.contains("standard (tables up to 3 pieces)"),
        "{first}"
    );
    assert!(first.contains("no tables for leiden, popular"), "{first}");
    let addr = first
        .strip_prefix("listening on http://")
        .unwrap()
        .split('/')
        .next()
        .unwrap()
        .to_string();
    let mut s = TcpStream::connect(&addr).unwrap();
    s.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut reply = String::new();
    s.read_to_string(&mut reply).unwrap();
    let log = lines.next().unwrap().unwrap();
    // 2026-12-01T09:57:21Z 127.0.0.1:54116 GET /health 200 0.007 ms
    let fields: Vec<&str> = log.split(' ').collect();
    assert_eq!(fields[0].len(), 20, "{log}");
    assert!(
        fields[0].ends_with('Z') && fields[0].as_bytes()[10] == b'T',
        "{log}"
    );
    assert!(fields[1].starts_with("127.0.0.1:"), "{log}");
    assert_eq!(&fields[2..5], ["GET", "/health", "200"], "{log}");
    let _ = child.kill();
    let _ = child.wait();
}
