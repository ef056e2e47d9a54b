//! Which tables a [`crate::Tablebase`] holds open, within its caps on
//! mapped bytes and open files.
//!
//! Two regimes:
//!
//! - **Resident** (the default: memory maps, no cap on mapped bytes): a
//!   table once opened stays open for the life of the tablebase. Its slot is
//!   a `OnceLock`, and a probe borrows the table without touching a
//!   reference count or a lock.
//! - **Evicting** (positional reads, or a cap on mapped bytes): tables live
//!   in an [`Evicting`] set. A table that would exceed a cap makes room by
//!   closing the least recently used ones, so an engine or server can probe
//!   every table for as long as it runs with a fixed number of open files
//!   and mapped bytes. A probe holds a reference count for its duration; a
//!   table evicted while probed closes when that probe ends, so the caps can
//!   be exceeded by at most one table per probing thread, briefly.
//!
//! A table opened again after eviction skips its payload checksum if its
//! file is unchanged (same device, inode, length, modification and change
//! times: jungletb never rewrites a table in place), so a small cap costs
//! system calls, not a read of the whole file per reopening.
//!
//! Recency is counted in openings, not in probes (a per-probe clock would
//! make every probe write one shared cache line): each use stamps the table
//! with the number of tables opened so far, and the table with the oldest
//! stamp goes first. Ties are tables not used since the same opening.

use crate::table::{Backend, FileStamp, Table};
use jungletb_format::TableError;
use rustc_hash::FxHashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

/// The caps, and what is held against them.
#[derive(Debug, Default)]
pub(crate) struct Caps {
    /// Bytes of table files mapped.
    pub(crate) mapped_bytes: AtomicU64,
    /// Table files held open for positional reads.
    pub(crate) open_files: AtomicU64,
}

/// What one open table holds against the caps.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cost {
    pub(crate) backend: Backend,
    pub(crate) bytes: u64,
}

impl Caps {
    /// Reserves room for a table file of `len` bytes: mapped if `prefer` is
    /// `Mmap` and the mapped-bytes cap allows, else one open file if that
    /// cap allows. `None` if neither does (nothing reserved then).
    pub(crate) fn reserve(
        &self,
        prefer: Backend,
        len: u64,
        max_mapped: u64,
        max_files: u64,
    ) -> Option<Cost> {
        if prefer == Backend::Mmap {
            if self.mapped_bytes.fetch_add(len, Ordering::Relaxed) + len <= max_mapped {
                return Some(Cost {
                    backend: Backend::Mmap,
                    bytes: len,
                });
            }
            self.mapped_bytes.fetch_sub(len, Ordering::Relaxed);
        }
        if self.open_files.fetch_add(1, Ordering::Relaxed) < max_files {
            return Some(Cost {
                backend: Backend::Pread,
                bytes: len,
            });
        }
        self.open_files.fetch_sub(1, Ordering::Relaxed);
        None
    }

    /// Gives back what `cost` reserved.
    pub(crate) fn release(&self, cost: Cost) {
        match cost.backend {
            Backend::Mmap => self.mapped_bytes.fetch_sub(cost.bytes, Ordering::Relaxed),
            Backend::Pread => self.open_files.fetch_sub(1, Ordering::Relaxed),
        };
    }
}

/// An entry of the evicting set: a table (or why it cannot be opened: a
/// missing or damaged file is remembered, it costs nothing), when it was
/// last used, and what it holds against the caps.
#[derive(Debug)]
struct Entry {
    table: Result<Arc<Table>, Box<TableError>>,
    cost: Option<Cost>,
    last_used: AtomicU64,
}

/// Tables opened under caps, least recently used closed first.
#[derive(Debug, Default)]
pub(crate) struct Evicting {
    /// By canonical material code.
    entries: RwLock<FxHashMap<usize, Entry>>,
    /// Tables opened so far: the clock of recency.
    opened: AtomicU64,
    /// Tables closed to make room.
    evicted: AtomicU64,
    /// The files of closed tables, verified when they were opened.
    verified: Mutex<FxHashMap<usize, FileStamp>>,
}

impl Evicting {
    /// The table of material `code`, opening it with `open` on a miss.
    /// `open` gets a `make_room` callback that closes the least recently
    /// used table and says whether it found one to close, and the stamp of
    /// the file if it was verified when this table was open before.
    pub(crate) fn get(
        &self,
        code: usize,
        caps: &Caps,
        open: impl FnOnce(
            &dyn Fn() -> bool,
            Option<FileStamp>,
        ) -> (Result<Table, TableError>, Option<Cost>),
    ) -> Result<Arc<Table>, TableError> {
        let now = self.opened.load(Ordering::Relaxed);
        if let Some(e) = self.read().get(&code) {
            e.last_used.store(now, Ordering::Relaxed);
            return e.table.clone().map_err(|e| *e);
        }
        // Opened without the lock held (opening checks the checksums): two
        // threads may open the same table at once; the second one's copy
        // is dropped and its reservation given back.
        let verified = self.stamps().get(&code).copied();
        let (table, cost) = open(&|| self.make_room(caps), verified);
        let mut entries = self.write();
        if let Some(e) = entries.get(&code) {
            if let Some(c) = cost {
                caps.release(c);
            }
            e.last_used.store(now, Ordering::Relaxed);
            return e.table.clone().map_err(|e| *e);
        }
        let stamp = self.opened.fetch_add(1, Ordering::Relaxed) + 1;
        let table = table.map(Arc::new).map_err(Box::new);
        // A refusal for lack of room is not remembered: room may come.
        if !matches!(&table, Err(e) if matches!(**e, TableError::Limit { .. })) {
            entries.insert(
                code,
                Entry {
                    table: table.clone(),
                    cost,
                    last_used: AtomicU64::new(stamp),
                },
            );
        }
        table.map_err(|e| *e)
    }

    /// Closes the least recently used table, or, if none is in the set,
    /// waits a moment for the tables other threads are opening (they hold
    /// room but are not in the set yet). The caller has checked that the
    /// table fits the caps when nothing else is open, so room comes.
    fn make_room(&self, caps: &Caps) -> bool {
        if !self.evict_one(caps) {
            std::thread::sleep(std::time::Duration::from_micros(20));
        }
        true
    }

    /// Closes the least recently used open table; false if none is open.
    fn evict_one(&self, caps: &Caps) -> bool {
        let mut entries = self.write();
        let victim = entries
            .iter()
            .filter(|(_, e)| e.cost.is_some())
            .min_by_key(|(_, e)| e.last_used.load(Ordering::Relaxed))
            .map(|(&k, _)| k);
        let Some(k) = victim else { return false };
        let e = entries.remove(&k).expect("just found");
        if let Some(c) = e.cost {
            caps.release(c);
        }
        if let Some(stamp) = e.table.as_ref().ok().and_then(|t| t.stamp()) {
            self.stamps().insert(k, stamp);
        }
        self.evicted.fetch_add(1, Ordering::Relaxed);
        true
    }

    /// Tables closed to make room so far.
    pub(crate) fn evictions(&self) -> u64 {
        self.evicted.load(Ordering::Relaxed)
    }

    /// Tables open now.
    pub(crate) fn open_count(&self) -> usize {
        self.read().values().filter(|e| e.cost.is_some()).count()
    }

    fn stamps(&self) -> std::sync::MutexGuard<'_, FxHashMap<usize, FileStamp>> {
        self.verified.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, FxHashMap<usize, Entry>> {
        self.entries.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, FxHashMap<usize, Entry>> {
        self.entries.write().unwrap_or_else(|e| e.into_inner())
    }
}

/// The error for a table that cannot be opened even with every other table
/// closed.
pub(crate) fn no_room(path: PathBuf, max_mapped: u64, max_files: u64) -> TableError {
    // A cap left at its default (none) is said as such, not as 2^64 - 1.
    let limit = |n: u64, what: &str| match n {
        u64::MAX => format!("no limit on {what}"),
        n => format!("{n} {what}"),
    };
    TableError::Limit {
        path,
        what: format!(
            "it does not fit the limits ({}, {}) even with every other table closed",
            limit(max_mapped, "mapped bytes"),
            limit(max_files, "open files")
        ),
    }
}

#[cfg(test)]
mod no_room_tests {
    use super::no_room;

    #[test]
    fn a_limit_left_unset_is_said_as_no_limit() {
        let e = no_room("t.jtb".into(), u64::MAX, 1).to_string();
        assert!(e.contains("no limit on mapped bytes, 1 open files"), "{e}");
        assert!(!e.contains(&u64::MAX.to_string()), "{e}");
        let e = no_room("t.jtb".into(), 4096, u64::MAX).to_string();
        assert!(
            e.contains("4096 mapped bytes, no limit on open files"),
            "{e}"
        );
    }
}
