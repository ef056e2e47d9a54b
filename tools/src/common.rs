//! Options shared by several commands.

use clap::Args;
use jungletb_rules::Ruleset;

/// The rule set to use: a named one plus overrides.
#[derive(Args, Debug, Clone)]
pub struct RulesArgs {
    /// Rule set: standard, leiden or popular.
    #[arg(long, default_value = "standard", value_name = "NAME")]
    pub ruleset: String,
    /// Override one rule option, e.g. --rule universal_traps=true (repeatable).
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    pub rules: Vec<String>,
}

impl RulesArgs {
    /// The resolved rule set.
    pub fn resolve(&self) -> Result<Ruleset, String> {
        let mut r = Ruleset::by_name(&self.ruleset).map_err(|e| e.to_string())?;
        for kv in &self.rules {
            r.apply_override(kv).map_err(|e| e.to_string())?;
        }
        r.check_supported().map_err(|e| e.to_string())?;
        Ok(r)
    }
}

/// The error type of commands: a message for the user.
pub type CmdResult = Result<std::process::ExitCode, String>;

/// A worker pool of `threads` threads (default: all cores).
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, String> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        pool = pool.num_threads(t.max(1));
    }
    pool.build().map_err(|e| e.to_string())
}

/// Formats a byte count.
pub fn human_bytes(b: u64) -> String {
    if b >= 1 << 30 {
        format!("{:.2} GiB", b as f64 / (1u64 << 30) as f64)
    } else if b >= 1 << 20 {
        format!("{:.2} MiB", b as f64 / (1u64 << 20) as f64)
    } else if b >= 1 << 10 {
        format!("{:.1} KiB", b as f64 / 1024.0)
    } else {
        format!("{b} B")
    }
}
