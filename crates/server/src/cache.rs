//! The response cache: finished JSON answers by request, least recently
//! used first out, bounded by entry count and by bytes.
//!
//! Tables never change while the server runs (a table file is replaced only
//! by an atomic rename, and an open table keeps its old map), so cached
//! answers never go stale.

use axum::body::Bytes;
use lru::LruCache;
use std::sync::Mutex;

/// A cached answer: HTTP status and JSON body.
#[derive(Debug, Clone)]
pub struct Cached {
    /// The HTTP status code.
    pub status: u16,
    /// The body (reference-counted: a hit hands it out without a copy).
    pub body: Bytes,
}

/// A bounded cache shared by all requests.
#[derive(Debug)]
pub struct ResponseCache {
    inner: Mutex<Inner>,
    max_bytes: usize,
}

#[derive(Debug)]
struct Inner {
    map: LruCache<String, Cached>,
    bytes: usize,
}

impl ResponseCache {
    /// A cache of at most `max_entries` answers and `max_bytes` bytes of
    /// keys and bodies (0 entries: nothing is kept).
    pub fn new(max_entries: usize, max_bytes: usize) -> ResponseCache {
        ResponseCache {
            inner: Mutex::new(Inner {
                map: LruCache::new(
                    std::num::NonZeroUsize::new(max_entries.max(1)).expect("at least one"),
                ),
                bytes: 0,
            }),
            max_bytes: if max_entries == 0 { 0 } else { max_bytes },
        }
    }

    /// The answer for `key`, marking it recently used.
    pub fn get(&self, key: &str) -> Option<Cached> {
        self.lock().map.get(key).cloned()
    }

    /// Keeps an answer, evicting the least recently used ones beyond the
    /// bounds. An answer larger than the whole byte bound is not kept.
    pub fn put(&self, key: String, value: Cached) {
        let size = key.len() + value.body.len();
        if size > self.max_bytes {
            return;
        }
        let mut inner = self.lock();
        inner.bytes += size;
        if let Some((k, old)) = inner.map.push(key, value) {
            // Either the same key replaced, or the entry pushed out by the
            // count bound.
            inner.bytes -= k.len() + old.body.len();
        }
        while inner.bytes > self.max_bytes {
            match inner.map.pop_lru() {
                Some((k, old)) => inner.bytes -= k.len() + old.body.len(),
                None => break,
            }
        }
    }

    /// Entries and bytes held.
    pub fn size(&self) -> (usize, usize) {
        let inner = self.lock();
        (inner.map.len(), inner.bytes)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic while holding the lock cannot leave the map inconsistent
        // in a way that matters for a cache: keep serving.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(n: usize) -> Cached {
        Cached {
            status: 200,
            body: Bytes::from("x".repeat(n)),
        }
    }

    #[test]
    fn bounded_by_entries_and_bytes_least_recent_out() {
        let c = ResponseCache::new(3, 1000);
        for k in ["a", "b", "c"] {
            c.put(k.into(), answer(10));
        }
        assert!(c.get("a").is_some()); // a is now the most recent
        c.put("d".into(), answer(10));
        assert!(c.get("b").is_none(), "b was the least recently used");
        assert_eq!(c.size(), (3, 33));
        c.put("big".into(), answer(990));
        // 993 + the others exceed 1000: older entries go until it fits.
        let (entries, bytes) = c.size();
        assert!(bytes <= 1000, "{bytes}");
        assert!(c.get("big").is_some());
        assert_eq!(entries, 1);
        c.put("huge".into(), answer(2000));
        assert!(c.get("huge").is_none(), "larger than the bound: not kept");
        // Replacing a key keeps the byte count right.
        c.put("big".into(), answer(5));
        assert_eq!(c.size(), (1, 8));
    }

    #[test]
    fn zero_entries_keeps_nothing() {
        let c = ResponseCache::new(0, 1 << 20);
        c.put("a".into(), answer(1));
        assert!(c.get("a").is_none());
    }
}
