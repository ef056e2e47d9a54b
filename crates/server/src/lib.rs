//! The jungletb HTTP server: a JSON probe API and a web board.
//!
//! Routes (all `GET`; `{ruleset}` is `standard`, `leiden`, `popular` or the
//! label of a custom rule set the server was started with; in positions,
//! `_` may stand for a space):
//!
//! | route | answer |
//! |---|---|
//! | `/api/{ruleset}?position=P` | value of `P` and every legal move with its value ([`answers::position`]) |
//! | `/api/{ruleset}?position=P&replies=true` | the same, each move with its replies counted by value ([`answers::position_with_replies`]) |
//! | `/api/{ruleset}/mainline?position=P` | the optimal line to the end |
//! | `/api/{ruleset}/stats/{material}` | counts, distance histogram, longest win |
//! | `/api/{ruleset}/map?position=P&square=S` | the value with the piece on `S` on each square |
//! | `/api/{ruleset}/board` | the terrain and the animals, for drawing |
//! | `/api/rulesets` | the rule sets served and whether their tables are there |
//! | `/health`, `/metrics` | liveness; counters in the Prometheus text format |
//! | `/` | the web board |
//!
//! Errors are JSON `{"error", "kind"}`: 400 for a malformed or impossible
//! request, 404 for an unknown route, rule set or missing table (naming the
//! command that generates it), 503 when the probe queue is full.
//!
//! Work is bounded: probes run on at most [`ServerConfig::workers`] blocking
//! threads, at most [`ServerConfig::queue`] requests wait for one (503
//! beyond), at most [`ServerConfig::max_connections`] connections are open
//! (each closed after [`ServerConfig::idle_timeout`] without traffic, unless
//! a request of it is being answered), and
//! the response cache is bounded by entries and bytes.
//!
//! ```no_run
//! use jungletb_server::{serve, Served, ServerConfig};
//! # async fn run(rulesets: Vec<Served>) -> std::io::Result<()> {
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! serve(listener, rulesets, ServerConfig::default(), std::future::pending()).await
//! # }
//! ```

#![warn(missing_docs)]

pub mod answers;
pub mod cache;
mod listener;
pub mod metrics;
mod page;
mod routes;
mod state;

pub use listener::{track_requests, Answering, BoundedListener, Connection};
pub use routes::router;
pub use state::{AppState, Served};

use std::future::Future;
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// Bounds and switches of a server.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Probe threads (blocking pool): default the number of cores.
    pub workers: usize,
    /// Requests that may wait for a probe thread; more get 503 at once.
    pub queue: usize,
    /// Connections open at once; more wait to be accepted.
    pub max_connections: usize,
    /// A connection with nothing read or written for this long is closed,
    /// unless one of its requests is being answered (a long computation
    /// moves no bytes but is not idleness).
    pub idle_timeout: std::time::Duration,
    /// Cached answers (0: no cache).
    pub cache_entries: usize,
    /// Bytes of cached answers.
    pub cache_bytes: usize,
    /// One line per request on standard error.
    pub log_requests: bool,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            queue: 1024,
            max_connections: 4096,
            idle_timeout: std::time::Duration::from_secs(60),
            cache_entries: 100_000,
            cache_bytes: 64 << 20,
            log_requests: true,
        }
    }
}

/// The shared state of a server over `rulesets` with `config`'s bounds.
pub fn state(rulesets: Vec<Served>, config: &ServerConfig) -> Arc<AppState> {
    Arc::new(AppState {
        rulesets,
        cache: cache::ResponseCache::new(config.cache_entries, config.cache_bytes),
        workers: Arc::new(Semaphore::new(config.workers.max(1))),
        queue: Arc::new(Semaphore::new(config.queue.max(1))),
        metrics: metrics::Metrics::default(),
        log_requests: config.log_requests,
    })
}

/// Serves until `shutdown` completes, then finishes the requests in flight
/// and returns (graceful shutdown).
pub async fn serve(
    listener: TcpListener,
    rulesets: Vec<Served>,
    config: ServerConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let app = track_requests(router(state(rulesets, &config)));
    axum::serve(
        BoundedListener::new(listener, config.max_connections, config.idle_timeout),
        app.into_make_service_with_connect_info::<Connection>(),
    )
    .with_graceful_shutdown(shutdown)
    .await
}
