//! What every request shares: the rule sets served with their tables, the
//! response cache, the bound on probe work, the counters.

use crate::cache::ResponseCache;
use crate::metrics::Metrics;
use jungletb_rules::Ruleset;
use jungletb_tablebase::{Coverage, ProbeError, Tablebase};
use std::sync::Arc;
use tokio::sync::Semaphore;

/// One rule set the server answers for.
#[derive(Debug)]
pub struct Served {
    /// The name in URLs: `standard`, `leiden`, `popular` or a custom label.
    pub label: String,
    /// The rule set.
    pub rules: Ruleset,
    /// Its tables, or why there are none (answered with 404; the details
    /// go to the server's log, not to visitors).
    pub tables: Result<Arc<Tablebase>, ProbeError>,
    /// Which of its tables are there, by piece count (what visitors are
    /// told when a table is missing; empty without tables).
    pub coverage: Coverage,
    /// The `jungletb generate` arguments that select this rule set (for the
    /// server log's "generate it with" hints).
    pub generate_args: String,
}

/// Shared by all requests.
#[derive(Debug)]
pub struct AppState {
    /// The rule sets served.
    pub rulesets: Vec<Served>,
    /// Finished answers.
    pub cache: ResponseCache,
    /// Permits to run probe work on the blocking pool (one per worker).
    pub workers: Arc<Semaphore>,
    /// Permits to wait for a worker: requests beyond it get 503 at once,
    /// so a flood cannot queue unbounded work.
    pub queue: Arc<Semaphore>,
    /// Counters.
    pub metrics: Metrics,
    /// Print one line per request on standard error.
    pub log_requests: bool,
}

impl AppState {
    /// The rule set served under `label`.
    pub fn served(&self, label: &str) -> Option<&Served> {
        self.rulesets.iter().find(|s| s.label == label)
    }
}
