//! `jungletb site`: a static site of a rule set's tables (see
//! `jungletb_site`).

use crate::args::{thread_pool, CmdResult, RulesArgs, TablesArg};
use crate::output::table_bar;
use anyhow::{bail, Context};
use clap::Args as ClapArgs;
use jungletb_site::Package;
use jungletb_tablebase::find_table_dir;
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
    /// written before (which is updated, and loses the files it no longer
    /// serves). The site serves compressed tables only: plain ones without
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
    let rules = a.rules.resolve_in(Some(&a.tables.path))?;
    let dir = find_table_dir(&a.tables.path, &rules);
    if !dir.is_dir() {
        bail!(
            "no tables of rule set '{}' in '{}'",
            rules.label(),
            a.tables.path.display()
        );
    }
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
    let summary = pool
        .install(|| jungletb_site::build(&dir, &rules, &a.out, &Package { wasm, js }, &progress))?;
    bar.finish_and_clear();
    outln!(
        "{}: {} materials, {} bytes of tables and {} bytes of pages, data and code \
         ({:.1} % more), {:.1} s",
        a.out.display(),
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
