//! Builds the C example against the static library with the system C
//! compiler and checks its answers against the `jungletb` command line.

use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn c_example_agrees_with_the_cli() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let target = std::env::var("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| root().join("target"));
    // The static library and the CLI, in release mode.
    let st = Command::new(&cargo)
        .args([
            "build",
            "--release",
            "-p",
            "jungletb-capi",
            "-p",
            "jungletb-cli",
        ])
        .current_dir(root())
        .status()
        .unwrap();
    assert!(st.success());
    let lib = target.join("release/libjungletb_c.a");
    let cli = target.join("release/jungletb");
    let tmp = tempfile::tempdir().unwrap();
    let exe = tmp.path().join("best_move");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let st = Command::new(&cc)
        .arg(format!(
            "-I{}",
            root().join("crates/capi/include").display()
        ))
        .arg(root().join("crates/capi/examples/best_move.c"))
        .arg(&lib)
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&exe)
        .status()
        .expect("a C compiler (cc) is installed");
    assert!(st.success(), "the C example compiles and links");
    let tables = tmp.path().join("tables");
    for extra in [&["--max-pieces", "2"][..], &["--material", "ERvL"][..]] {
        let st = Command::new(&cli)
            .args(["generate", "--quiet", "--out", tables.to_str().unwrap()])
            .args(extra)
            .status()
            .unwrap();
        assert!(st.success());
    }
    for pos in [
        "7/7/7/7/7/7/2E4/7/6r b",
        "7/7/7/7/7/l6/7/7/L6 w",
        "l6/7/7/7/7/7/2E4/7/6R w",
        "7/7/7/7/7/r6/7/7/E6 w",
    ] {
        let c = Command::new(&exe)
            .args([tables.to_str().unwrap(), "standard", pos])
            .output()
            .unwrap();
        assert!(
            c.status.success(),
            "{pos}: {}",
            String::from_utf8_lossy(&c.stderr)
        );
        let c_out = String::from_utf8_lossy(&c.stdout).into_owned();
        agrees_with_the_cli(&cli, &tables, pos, &c_out);
    }
    // Errors come back as codes with a message, not crashes.
    let c = Command::new(&exe)
        .args([tables.to_str().unwrap(), "standard", "not a position"])
        .output()
        .unwrap();
    assert_eq!(c.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&c.stderr).contains("error:"));
    let c = Command::new(&exe)
        .args([tables.to_str().unwrap(), "chess", "7/7/7/7/7/7/2E4/7/6r b"])
        .output()
        .unwrap();
    assert_eq!(c.status.code(), Some(1));
}

/// The C example's answer `c_out` for `pos` has the CLI's value, plies,
/// first best move and line.
fn agrees_with_the_cli(cli: &std::path::Path, tables: &std::path::Path, pos: &str, c_out: &str) {
    let j = Command::new(cli)
        .args(["probe", "--json", "--tables", tables.to_str().unwrap(), pos])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&j.stdout).unwrap();
    assert!(
        c_out.contains(&format!("value: {}\n", v["category"].as_str().unwrap())),
        "{pos}: {c_out}"
    );
    if let Some(p) = v["plies"].as_u64() {
        assert!(c_out.contains(&format!("plies: {p}\n")), "{pos}: {c_out}");
    }
    let best = v["best_moves"].as_array().unwrap();
    let first = best
        .first()
        .map_or("(none)".to_string(), |m| m.as_str().unwrap().to_string());
    assert!(
        c_out.contains(&format!("best: {first}\n")),
        "{pos}: {c_out}"
    );
    let line: Vec<&str> = v["line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(
        c_out.contains(&format!("line: {}\n", line.join(" "))),
        "{pos}: {c_out}"
    );
}

/// The header's structs have the Rust structs' sizes and field offsets, as
/// the system C compiler lays them out (a field added on one side only
/// would shift every later one).
#[test]
fn the_header_lays_out_structs_as_the_library_does() {
    use jungletb_c::{JtbOptions, JtbPosition, JtbReplies, JtbRootMove};
    use std::mem::{offset_of, size_of};
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("layout.c");
    std::fs::write(
        &src,
        r#"#include <stddef.h>
#include <stdio.h>
#include "jungletb.h"
int main(void) {
    printf("%zu %zu %zu\n", sizeof(jtb_position), offsetof(jtb_position, side_to_move),
           sizeof(jtb_options));
    printf("%zu %zu %zu %zu\n", offsetof(jtb_options, max_mapped_bytes),
           offsetof(jtb_options, max_open_files), offsetof(jtb_options, max_decoded_bytes),
           sizeof(jtb_root_move));
    printf("%zu %zu %zu %zu %zu %zu\n", offsetof(jtb_root_move, to), offsetof(jtb_root_move, wdl),
           offsetof(jtb_root_move, plies), offsetof(jtb_root_move, text),
           offsetof(jtb_root_move, capture), offsetof(jtb_root_move, den));
    printf("%zu %zu %zu\n", sizeof(jtb_replies), offsetof(jtb_replies, draw), offsetof(jtb_replies, loss));
    return 0;
}
"#,
    )
    .unwrap();
    let exe = tmp.path().join("layout");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let st = Command::new(&cc)
        .arg(format!(
            "-I{}",
            root().join("crates/capi/include").display()
        ))
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .status()
        .expect("a C compiler (cc) is installed");
    assert!(st.success());
    let out = Command::new(&exe).output().unwrap();
    let c: Vec<usize> = String::from_utf8(out.stdout)
        .unwrap()
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    let rust = vec![
        size_of::<JtbPosition>(),
        offset_of!(JtbPosition, side_to_move),
        size_of::<JtbOptions>(),
        offset_of!(JtbOptions, max_mapped_bytes),
        offset_of!(JtbOptions, max_open_files),
        offset_of!(JtbOptions, max_decoded_bytes),
        size_of::<JtbRootMove>(),
        offset_of!(JtbRootMove, to),
        offset_of!(JtbRootMove, wdl),
        offset_of!(JtbRootMove, plies),
        offset_of!(JtbRootMove, text),
        offset_of!(JtbRootMove, capture),
        offset_of!(JtbRootMove, den),
        size_of::<JtbReplies>(),
        offset_of!(JtbReplies, draw),
        offset_of!(JtbReplies, loss),
    ];
    assert_eq!(c, rust);
}
