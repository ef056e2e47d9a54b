//! `jungletb site`: a static site of the tables of every rule set under
//! a tables root, or of one (see `jungletb_site`).

use crate::args::{thread_pool, CmdResult, RulesArgs, TablesArg};
use crate::output::table_bar;
use anyhow::{bail, Context};
use clap::Args as ClapArgs;
use jungletb_site::{Package, RulesetTables};
use jungletb_tablebase::{find_table_dir, ruleset_dirs, ruleset_of_dir};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `site`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    #[command(flatten)]
    tables: TablesArg,
    #[command(flatten)]
    rules: RulesArgs,
    /// The directory to write the site to: missing, empty, or a site
    /// written before, which is updated: each rule set built loses the
    /// files it no longer serves, and rule sets built into it before and
    /// not now stay. Every rule set under --tables is built, or the one
    /// --tables names, or the one --ruleset/--rule select. The site serves compressed tables only: plain ones without
    /// a compressed table beside them are compressed into it (kept for the
    /// next build). Serve it with any static host that answers range
    /// requests (nginx, Apache, GitHub Pages, S3).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// The JavaScript package, built by `js/build.sh` (`index.js` and
    /// `jungletb.wasm` in it).
    #[arg(long, value_name = "DIR", env = "JUNGLETB_JS", default_value = "js")]
    js: PathBuf,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Only print problems and the final summary.
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(a: Args) -> CmdResult {
    let sets = rule_sets(&a)?;
    let wasm_path = a.js.join("jungletb.wasm");
    let js_path = a.js.join("index.js");
    let wasm = std::fs::read(&wasm_path).with_context(|| {
        format!(
            "{}: the WebAssembly module is not there; build it with js/build.sh (or give \
             --js DIR)",
            wasm_path.display()
        )
    })?;
    let js = std::fs::read_to_string(&js_path)
        .with_context(|| format!("{}: the JavaScript package is not there", js_path.display()))?;
    let pool = thread_pool(a.threads)?;
    let started = std::time::Instant::now();
    let bar = table_bar(0, a.quiet);
    let progress = |done: usize, total: usize| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    };
    let summary =
        pool.install(|| jungletb_site::build(&sets, &a.out, &Package { wasm, js }, &progress))?;
    bar.finish_and_clear();
    let kept = if summary.kept.is_empty() {
        String::new()
    } else {
        format!(" (kept from an earlier build: {})", summary.kept.join(", "))
    };
    outln!(
        "{}: rule sets {}{kept}: {} materials, {} bytes of tables and {} bytes of pages, data and code \
         ({:.1} % more), {:.1} s",
        a.out.display(),
        summary.built.join(", "),
        summary.materials,
        summary.table_bytes,
        summary.other_bytes,
        100.0 * summary.other_bytes as f64 / summary.table_bytes.max(1) as f64,
        started.elapsed().as_secs_f64()
    );
    outln!(
        "Serve it with a static host that answers range requests; open index.html, or \
         board.html to probe."
    );
    Ok(ExitCode::SUCCESS)
}

/// The rule sets to build: the one `--ruleset`/`--rule` select, or the
/// one `--tables` is the directory of, or every one under `--tables`.
fn rule_sets(a: &Args) -> anyhow::Result<Vec<RulesetTables>> {
    let root = &a.tables.path;
    if a.rules.ruleset.is_some() || !a.rules.rules.is_empty() {
        let rules = a.rules.resolve_in(Some(root))?;
        let dir = find_table_dir(root, &rules);
        if !dir.is_dir() {
            bail!(
                "no tables of rule set '{}' in '{}'",
                rules.label(),
                root.display()
            );
        }
        return Ok(vec![RulesetTables { dir, rules }]);
    }
    if let Some(rules) = ruleset_of_dir(root) {
        return Ok(vec![RulesetTables {
            dir: root.clone(),
            rules,
        }]);
    }
    let mut sets: Vec<RulesetTables> = Vec::new();
    for name in ruleset_dirs(root) {
        let dir = root.join(&name);
        let Some(rules) = ruleset_of_dir(&dir) else {
            continue;
        };
        if let Some(twin) = sets.iter().find(|s| s.rules.label() == rules.label()) {
            bail!(
                "'{}' and '{}' both hold tables of rule set '{}': give --ruleset, or \
                 --tables one of them",
                twin.dir.display(),
                dir.display(),
                rules.label()
            );
        }
        sets.push(RulesetTables { dir, rules });
    }
    if sets.is_empty() {
        bail!(
            "no tables in '{}' nor in a rule set's directory under it",
            root.display()
        );
    }
    Ok(sets)
}
