//! Counters and a latency histogram, rendered in the Prometheus text format
//! at `GET /metrics`.
//!
//! Latencies go into power-of-two microsecond buckets (atomic counters, no
//! lock on the request path); quantiles are read off the buckets, so each is
//! an upper bound within a factor of two of the true value.

use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};

/// Buckets: bucket `k` counts latencies below 2^k µs (the last is open).
const BUCKETS: usize = 32;

/// The server's counters.
#[derive(Debug)]
pub struct Metrics {
    /// Requests answered, by status class (2xx, 4xx, 5xx, other).
    pub responses: [AtomicU64; 4],
    /// Answers computed from the tables (cache misses that reached the pool).
    pub computed: AtomicU64,
    /// Table probes made while computing them.
    pub probes: AtomicU64,
    /// Answers served from the response cache.
    pub cache_hits: AtomicU64,
    /// Requests refused because too many were already waiting.
    pub overloaded: AtomicU64,
    latency: [AtomicU64; BUCKETS],
    latency_sum_us: AtomicU64,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics {
            responses: Default::default(),
            computed: AtomicU64::new(0),
            probes: AtomicU64::new(0),
            cache_hits: AtomicU64::new(0),
            overloaded: AtomicU64::new(0),
            latency: std::array::from_fn(|_| AtomicU64::new(0)),
            latency_sum_us: AtomicU64::new(0),
        }
    }
}

impl Metrics {
    /// Records one answered request.
    pub fn record(&self, status: u16, micros: u64) {
        let class = match status {
            200..=299 => 0,
            400..=499 => 1,
            500..=599 => 2,
            _ => 3,
        };
        self.responses[class].fetch_add(1, Ordering::Relaxed);
        let bucket = (64 - micros.leading_zeros() as usize).min(BUCKETS - 1);
        self.latency[bucket].fetch_add(1, Ordering::Relaxed);
        self.latency_sum_us.fetch_add(micros, Ordering::Relaxed);
    }

    /// The latency (µs, bucket upper bound) below which a fraction `q` of
    /// the requests so far fell; `None` before the first request.
    pub fn quantile_us(&self, q: f64) -> Option<u64> {
        let counts: Vec<u64> = self
            .latency
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .collect();
        let total: u64 = counts.iter().sum();
        if total == 0 {
            return None;
        }
        let rank = ((q * total as f64).ceil() as u64).clamp(1, total);
        let mut seen = 0;
        for (k, n) in counts.iter().enumerate() {
            seen += n;
            if seen >= rank {
                return Some(1u64 << k);
            }
        }
        None
    }

    /// The Prometheus text exposition of every counter, plus the cache's
    /// size (`entries`, `bytes`) passed in by the caller.
    pub fn render(&self, cache_entries: usize, cache_bytes: usize) -> String {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        let mut s = String::new();
        let _ = writeln!(
            s,
            "# HELP jungletb_http_responses_total HTTP responses by status class."
        );
        let _ = writeln!(s, "# TYPE jungletb_http_responses_total counter");
        for (k, class) in ["2xx", "4xx", "5xx", "other"].iter().enumerate() {
            let _ = writeln!(
                s,
                "jungletb_http_responses_total{{class=\"{class}\"}} {}",
                get(&self.responses[k])
            );
        }
        let counters = [
            (
                "jungletb_answers_computed_total",
                "Answers computed from the tables.",
                &self.computed,
            ),
            ("jungletb_probes_total", "Table probes made.", &self.probes),
            (
                "jungletb_cache_hits_total",
                "Answers served from the response cache.",
                &self.cache_hits,
            ),
            (
                "jungletb_overloaded_total",
                "Requests refused with 503 because the probe queue was full.",
                &self.overloaded,
            ),
        ];
        for (name, help, c) in counters {
            let _ = writeln!(
                s,
                "# HELP {name} {help}\n# TYPE {name} counter\n{name} {}",
                get(c)
            );
        }
        let _ = writeln!(s, "# HELP jungletb_cache_entries Responses in the cache.\n# TYPE jungletb_cache_entries gauge\njungletb_cache_entries {cache_entries}");
        let _ = writeln!(s, "# HELP jungletb_cache_bytes Bytes of responses in the cache.\n# TYPE jungletb_cache_bytes gauge\njungletb_cache_bytes {cache_bytes}");
        let count: u64 = self.latency.iter().map(get).sum();
        let _ = writeln!(s, "# HELP jungletb_request_duration_seconds Request latency (quantiles are bucket upper bounds).");
        let _ = writeln!(s, "# TYPE jungletb_request_duration_seconds summary");
        for q in [0.5, 0.9, 0.99, 0.999] {
            if let Some(us) = self.quantile_us(q) {
                let _ = writeln!(
                    s,
                    "jungletb_request_duration_seconds{{quantile=\"{q}\"}} {:.6}",
                    us as f64 / 1e6
                );
            }
        }
        let _ = writeln!(
            s,
            "jungletb_request_duration_seconds_sum {:.6}\njungletb_request_duration_seconds_count {count}",
            get(&self.latency_sum_us) as f64 / 1e6
        );
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_are_bucket_upper_bounds() {
        let m = Metrics::default();
        assert_eq!(m.quantile_us(0.5), None);
        for _ in 0..98 {
            m.record(200, 3); // bucket [2, 4)
        }
        m.record(404, 1000); // bucket [512, 1024)
        m.record(500, 5000); // bucket [4096, 8192)
        assert_eq!(m.quantile_us(0.5), Some(4));
        assert_eq!(m.quantile_us(0.98), Some(4));
        assert_eq!(m.quantile_us(0.99), Some(1024));
        assert_eq!(m.quantile_us(1.0), Some(8192));
        let text = m.render(0, 0);
        assert!(text.contains("jungletb_http_responses_total{class=\"2xx\"} 98"));
        assert!(text.contains("jungletb_http_responses_total{class=\"4xx\"} 1"));
        assert!(text.contains("jungletb_request_duration_seconds_count 100"));
    }
}
