//! The board's static API (`assets/static-api.js`) answers each failure
//! kind with the HTTP status the server gives it: its table of statuses,
//! and every answer it writes with a kind and a status, agree with
//! `ErrorKind::status`, the one Rust mapping.

use jungletb_wire::ErrorKind;

const JS: &str = include_str!("../assets/static-api.js");

/// The server's kind named `kind`, or `None` for a kind of the browser
/// alone (`options`: the JavaScript package's; `host`: a page opened from
/// disk).
fn server_kind(kind: &str) -> Option<ErrorKind> {
    match serde_json::from_value(serde_json::Value::String(kind.into())) {
        Ok(k) => Some(k),
        Err(_) => {
            assert!(
                ["options", "host"].contains(&kind),
                "{kind} is no kind of the server"
            );
            None
        }
    }
}

#[test]
fn the_static_api_table_gives_each_kind_the_servers_status() {
    let start = JS.find("const status = {").expect("the table of statuses") + 16;
    let end = start + JS[start..].find('}').expect("its end");
    let entries: Vec<&str> = JS[start..end].split(',').collect();
    let mut checked = 0;
    for entry in &entries {
        let (kind, status) = entry.split_once(':').expect("kind: status");
        let (kind, status) = (kind.trim(), status.trim().parse::<u16>().expect("a status"));
        if let Some(rust) = server_kind(kind) {
            assert_eq!(status, rust.status(), "{kind}");
            checked += 1;
        }
    }
    // Every entry was read: all but the package's own `options`.
    assert_eq!(checked, entries.len() - 1);
    // What `failure` may be thrown: the rule set a site lacks.
    assert!(JS.contains("unknown_ruleset: 404"));
}

#[test]
fn every_answer_the_static_api_writes_has_its_kinds_status() {
    let mut checked = 0;
    for (at, _) in JS.match_indices("kind: \"") {
        let rest = &JS[at + 7..];
        let kind = &rest[..rest.find('"').expect("a closing quote")];
        // `json({ …, kind: "…" }, STATUS)`; a kind thrown instead goes
        // through the table above.
        let after = &rest[rest.find('"').unwrap()..];
        let Some(call) = after.strip_prefix("\" }, ") else {
            continue;
        };
        let status: u16 = call[..3].parse().expect("a status");
        if let Some(rust) = server_kind(kind) {
            assert_eq!(status, rust.status(), "{kind}");
            checked += 1;
        }
    }
    assert!(checked >= 5, "{checked} answers checked");
}
