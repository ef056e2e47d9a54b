//! `jungletb serve`: the HTTP API and the web board.

use crate::args::{CmdResult, RulesArgs, TablesArg};
use anyhow::anyhow;
use anyhow::Context;
use clap::Args as ClapArgs;
use jungletb_rules::Ruleset;
use jungletb_server::{serve, Served, ServerConfig};
use jungletb_tablebase::{Coverage, Tablebase};
use std::process::ExitCode;
use std::sync::Arc;

/// Arguments of `serve`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    #[command(flatten)]
    tables: TablesArg,
    /// Also serve this rule set (with --rule overrides) under its label, as
    /// well as standard, leiden and popular.
    #[command(flatten)]
    rules: RulesArgs,
    /// Address to listen on (port 0: any free port, printed at start).
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "ADDR")]
    bind: String,
    /// Probe threads (default: all cores).
    #[arg(long, value_name = "N")]
    workers: Option<usize>,
    /// Requests that may wait for a probe thread; more get 503 at once.
    #[arg(long, default_value_t = 1024, value_name = "N")]
    queue: usize,
    /// Connections open at once; more wait in the kernel's accept queue.
    #[arg(long, default_value_t = 4096, value_name = "N")]
    max_connections: usize,
    /// Seconds a connection may stay without traffic before it is closed
    /// (not while one of its requests is being answered).
    #[arg(long, default_value_t = 60, value_name = "SECONDS")]
    idle_timeout: u64,
    /// Cached answers (0: no cache).
    #[arg(long, default_value_t = 100_000, value_name = "N")]
    cache_entries: usize,
    /// Megabytes of cached answers.
    #[arg(long, default_value_t = 64, value_name = "MB")]
    cache_mb: usize,
    /// No line per request on standard error.
    #[arg(short, long)]
    quiet: bool,
}

/// A rule set to serve, with its tables if they are there.
fn served(root: &std::path::Path, rules: Ruleset, generate_args: String) -> Served {
    let tables = Tablebase::open(root, rules.clone()).map(Arc::new);
    // Which tables are there (what visitors are told).
    let coverage = tables.as_ref().map_or(
        Coverage {
            complete: 0,
            counts: Vec::new(),
        },
        |tb| tb.coverage(),
    );
    Served {
        label: rules.label(),
        rules,
        tables,
        coverage,
        generate_args,
    }
}

pub fn run(a: Args) -> CmdResult {
    let root = &a.tables.path;
    if !root.is_dir() {
        return Err(anyhow!(
            "no tables directory '{}' (generate tables with `jungletb generate --out {}`, or pass --tables DIR)",
            root.display(),
            root.display()
        ));
    }
    let mut rulesets: Vec<Served> = ["standard", "leiden", "popular"]
        .iter()
        .map(|name| {
            let rules = Ruleset::by_name(name).expect("a named rule set");
            served(
                root,
                rules,
                format!("--out {} --ruleset {name}", root.display()),
            )
        })
        .collect();
    let custom = a.rules.resolve_in(Some(root))?;
    if rulesets.iter().all(|s| s.label != custom.label()) {
        let args = format!("--out {} {}", root.display(), a.rules.command_args());
        rulesets.push(served(root, custom, args));
    }
    // Tables of other rules under a rule set's name would answer 500 to
    // every probe that reaches them: refuse to start, as probe refuses.
    for s in &rulesets {
        if let Ok(tb) = &s.tables {
            tb.check_headers().with_context(|| {
                format!(
                    "serve: the tables of rule set '{}' in '{}' cannot be served",
                    s.label,
                    tb.dir().display()
                )
            })?;
        }
    }
    if rulesets.iter().all(|s| s.tables.is_err()) {
        return Err(anyhow!(
            "no tables for any rule set under '{}' (generate some with `jungletb generate --out {}`)",
            root.display(),
            root.display()
        ));
    }
    let config = ServerConfig {
        workers: a.workers.unwrap_or(ServerConfig::default().workers),
        queue: a.queue,
        max_connections: a.max_connections,
        idle_timeout: std::time::Duration::from_secs(a.idle_timeout.max(1)),
        cache_entries: a.cache_entries,
        cache_bytes: a.cache_mb << 20,
        log_requests: !a.quiet,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(config.workers + 2)
        .build()
        .context("serve: cannot start the runtime")?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(&a.bind)
            .await
            .with_context(|| format!("serve: cannot listen on {}", a.bind))?;
        let addr = listener.local_addr().context("serve")?;
        // The signal handlers before the line that says where it listens:
        // a SIGTERM sent as soon as a client reads that line (or has its
        // answers) shuts the server down cleanly, never kills it.
        let shutdown = shutdown_signal();
        // One line: what is served, where; the rule sets without tables
        // are named, not each reported as an error.
        let with: Vec<String> = rulesets
            .iter()
            .filter(|s| s.tables.is_ok())
            .map(|s| format!("{} ({})", s.label, s.coverage.describe()))
            .collect();
        let without: Vec<&str> = rulesets
            .iter()
            .filter(|s| s.tables.is_err())
            .map(|s| s.label.as_str())
            .collect();
        let none = if without.is_empty() {
            String::new()
        } else {
            format!("; no tables for {}", without.join(", "))
        };
        errln!(
            "listening on http://{addr}/: serving {} from {}{none} (Ctrl-C to stop)",
            with.join(", "),
            root.display()
        );
        serve(listener, rulesets, config, shutdown)
            .await
            .context("serve")?;
        errln!("stopped");
        Ok(ExitCode::SUCCESS)
    })
}

/// Completes on SIGINT or SIGTERM. The handlers are installed when this is
/// called, not when the future is first polled (the server may poll it
/// only once it runs), so call it before telling clients where to connect.
fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    let signals = {
        use tokio::signal::unix::{signal, SignalKind};
        signal(SignalKind::interrupt()).and_then(|i| Ok((i, signal(SignalKind::terminate())?)))
    };
    async move {
        #[cfg(unix)]
        match signals {
            Ok((mut interrupt, mut term)) => {
                tokio::select! {
                    _ = interrupt.recv() => {},
                    _ = term.recv() => {},
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
        errln!("shutting down: finishing the requests in flight");
    }
}
