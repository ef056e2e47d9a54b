//! Tables fetched piece by piece by a caller that cannot block: a browser
//! (HTTP range requests are asynchronous, a WebAssembly probe is not), or
//! any program that fetches bytes itself.
//!
//! The protocol is one of retries. A probe through a
//! [`crate::Tablebase::with_store`] of [`RemoteTables`] reads what it needs
//! from the pages fetched so far; a read of a page not fetched fails, and
//! the store notes the range ([`Missing`]). The caller takes the missing
//! ranges ([`RemoteTables::take_missing`]), fetches them (all at once: one
//! round trip), hands them in ([`RemoteTables::supply`]) and probes again.
//! Tables stay open between probes, so a repeated probe in the same block
//! needs no fetch at all.
//!
//! What is kept: every page fetched while a table is opening (its header,
//! block index and distance index, which later probes read and which were
//! checked when it opened: they are never fetched again, so they cannot
//! change), the same for each section of a sectioned table once a probe
//! first read it, and, within a cap on bytes, the pages fetched for probes,
//! least recently used out first.
//!
//! ```
//! use jungletb_indexer::Material;
//! use jungletb_tablebase::remote::{RemoteOptions, RemoteTables};
//! let m: Material = "ELvR".parse().unwrap();
//! let store = RemoteTables::new("https://example.org/tables", RemoteOptions::default());
//! store.add(m, "ELvR.jtbz", 30_000);
//! assert_eq!(store.take_missing(), vec![]);
//! ```

use crate::store::{RangeRead, StoredTable, TableStore};
use crate::tablebase::COMPRESSED_EXTENSION;
use jungletb_format::TableError;
use jungletb_indexer::Material;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

mod attempt;

pub use attempt::Attempt;

/// How a [`RemoteTables`] fetches and keeps bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RemoteOptions {
    /// Bytes of a page: the unit of fetching and keeping; a missing range
    /// is widened to whole pages (default 4 KiB). Larger pages cost more
    /// bytes per cold probe and fewer requests along a line of play.
    pub page_bytes: u64,
    /// Most bytes of probe pages kept between probes (default 32 MiB). The
    /// pages read while a table opens are kept beyond it, and so are those
    /// the probe under way reads.
    pub max_cached_bytes: u64,
}

impl Default for RemoteOptions {
    fn default() -> Self {
        RemoteOptions {
            page_bytes: 4096,
            max_cached_bytes: 32 << 20,
        }
    }
}

/// A byte range of a table that a probe needed before it was fetched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Missing {
    /// The table's (canonical) material.
    pub material: Material,
    /// Its file name, as given to [`RemoteTables::add`].
    pub file: String,
    /// The first byte (a page boundary).
    pub at: u64,
    /// How many bytes (whole pages, the last one cut at the file's end).
    pub len: u64,
}

/// What [`RemoteTables::cache_usage`] reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CacheUsage {
    /// Bytes of pages kept for good (read while a table opened).
    pub pinned_bytes: u64,
    /// Bytes of probe pages kept.
    pub cached_bytes: u64,
    /// Probe pages dropped to stay under the cap.
    pub evicted_pages: u64,
    /// Bytes of the tables held whole (small ones, and those a host sent
    /// whole).
    pub whole_bytes: u64,
}

/// A [`TableStore`] of tables whose bytes a caller fetches (see the module
/// docs for the protocol).
pub struct RemoteTables {
    name: String,
    shared: Arc<Shared>,
    files: Mutex<BTreeMap<Material, Entry>>,
}

impl std::fmt::Debug for RemoteTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RemoteTables")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// One table of the store.
struct Entry {
    file: String,
    len: u64,
    ranges: Arc<FetchedFile>,
    whole: Option<Arc<[u8]>>,
}

/// What the tables of a store share: the pages and the missing ranges.
struct Shared {
    options: RemoteOptions,
    cache: Mutex<Cache>,
    missing: Mutex<Vec<Missing>>,
}

#[derive(Default)]
struct Cache {
    /// By (material code, page number).
    pages: HashMap<(usize, u64), Page>,
    /// Materials whose table has opened: their later pages are probe
    /// pages.
    opened: std::collections::HashSet<usize>,
    tick: u64,
    /// Pages used since this tick serve the probe under way, over all its
    /// attempts: not dropped (a probe needing more than the cap would
    /// fetch forever).
    probe_began: u64,
    /// The last attempt asked for bytes: the next one retries the same
    /// probe, which keeps its `probe_began`.
    retrying: bool,
    usage: CacheUsage,
}

struct Page {
    bytes: Box<[u8]>,
    pinned: bool,
    used: u64,
    /// Handed in and not read yet: the probe that asked for it has not
    /// retried (kept whatever the cap).
    fresh: bool,
}

/// The reader of one table's fetched pages.
struct FetchedFile {
    material: Material,
    file: String,
    len: u64,
    shared: Arc<Shared>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl RemoteTables {
    /// An empty store named `name` (a base URL, say: it names the tables in
    /// errors, as `<name>/<file>`).
    pub fn new(name: &str, options: RemoteOptions) -> RemoteTables {
        let options = RemoteOptions {
            page_bytes: options.page_bytes.max(64),
            ..options
        };
        RemoteTables {
            name: name.trim_end_matches('/').to_string(),
            shared: Arc::new(Shared {
                options,
                cache: Mutex::new(Cache::default()),
                missing: Mutex::new(Vec::new()),
            }),
            files: Mutex::new(BTreeMap::new()),
        }
    }

    /// Declares that the table of `material` (either colour order) is the
    /// file `file` of `len` bytes. Declaring it again replaces it (and what
    /// was fetched of it) for tables not yet opened.
    pub fn add(&self, material: Material, file: &str, len: u64) {
        let material = material.canonical().0;
        let ranges = Arc::new(FetchedFile {
            material,
            file: file.to_string(),
            len,
            shared: Arc::clone(&self.shared),
        });
        let mut cache = lock(&self.shared.cache);
        cache.pages.retain(|(code, _), _| *code != material.code());
        drop(cache);
        lock(&self.files).insert(
            material,
            Entry {
                file: file.to_string(),
                len,
                ranges,
                whole: None,
            },
        );
    }

    /// The ranges probes needed since the last call, each once, in the
    /// order they were needed (emptied by the call).
    pub fn take_missing(&self) -> Vec<Missing> {
        std::mem::take(&mut *lock(&self.shared.missing))
    }

    /// Hands in the bytes from `at` of `material`'s table, as fetched for a
    /// [`Missing`] range: `at` on a page boundary, whole pages (the last
    /// may end at the file's end). An error if they do not fit the file.
    pub fn supply(&self, material: Material, at: u64, bytes: &[u8]) -> Result<(), TableError> {
        let material = material.canonical().0;
        let (len, name) = self.entry_len(material)?;
        let page = self.shared.options.page_bytes;
        let end = at.checked_add(bytes.len() as u64);
        let fits = at.is_multiple_of(page)
            && end.is_some_and(|e| e <= len && (e.is_multiple_of(page) || e == len))
            && !bytes.is_empty();
        if !fits {
            return Err(TableError::Corrupt {
                path: name,
                what: format!(
                    "{} bytes from {at} handed in: not whole {page}-byte pages of a \
                     {len}-byte file",
                    bytes.len()
                ),
            });
        }
        let mut cache = lock(&self.shared.cache);
        let pinned = !cache.opened.contains(&material.code());
        for (k, chunk) in bytes.chunks(page as usize).enumerate() {
            let key = (material.code(), at / page + k as u64);
            cache.tick += 1;
            let page = Page {
                bytes: chunk.into(),
                pinned,
                used: cache.tick,
                fresh: true,
            };
            let n = chunk.len() as u64;
            if let Some(old) = cache.pages.insert(key, page) {
                cache.forget(&old);
            }
            if pinned {
                cache.usage.pinned_bytes += n;
            } else {
                cache.usage.cached_bytes += n;
            }
        }
        cache.evict(self.shared.options.max_cached_bytes);
        Ok(())
    }

    /// Hands in the whole file of `material`'s table (a small table, or a
    /// host that sent the whole file for a range): opened with every check
    /// a file gets, its payload checksum included.
    pub fn supply_whole(&self, material: Material, bytes: Arc<[u8]>) -> Result<(), TableError> {
        let material = material.canonical().0;
        let (len, name) = self.entry_len(material)?;
        if bytes.len() as u64 != len {
            return Err(TableError::Truncated {
                path: name,
                expected: len,
                found: bytes.len() as u64,
            });
        }
        if let Some(e) = lock(&self.files).get_mut(&material) {
            e.whole = Some(bytes);
        }
        Ok(())
    }

    /// The length and name of a declared table.
    fn entry_len(&self, material: Material) -> Result<(u64, PathBuf), TableError> {
        let name = PathBuf::from(self.table_name(material));
        match lock(&self.files).get(&material) {
            Some(e) => Ok((e.len, name)),
            None => Err(TableError::Missing(name)),
        }
    }

    /// Bytes kept (pinned pages, probe pages, whole tables) and pages
    /// dropped.
    pub fn cache_usage(&self) -> CacheUsage {
        let mut usage = lock(&self.shared.cache).usage;
        usage.whole_bytes = lock(&self.files)
            .values()
            .filter_map(|e| e.whole.as_ref())
            .map(|b| b.len() as u64)
            .sum();
        usage
    }
}

impl Cache {
    fn forget(&mut self, page: &Page) {
        let n = page.bytes.len() as u64;
        if page.pinned {
            self.usage.pinned_bytes -= n;
        } else {
            self.usage.cached_bytes -= n;
        }
    }

    /// Drops least recently used probe pages until they fit `cap`.
    fn evict(&mut self, cap: u64) {
        while self.usage.cached_bytes > cap {
            let Some(key) = self
                .pages
                .iter()
                .filter(|(_, p)| !p.pinned && !p.fresh && p.used < self.probe_began)
                .min_by_key(|(_, p)| p.used)
                .map(|(k, _)| *k)
            else {
                return;
            };
            if let Some(p) = self.pages.remove(&key) {
                self.forget(&p);
                self.usage.evicted_pages += 1;
            }
        }
    }
}

impl TableStore for RemoteTables {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn materials(&self) -> Vec<Material> {
        lock(&self.files).keys().copied().collect()
    }

    fn table_name(&self, material: Material) -> String {
        let file = lock(&self.files)
            .get(&material)
            .map(|e| e.file.clone())
            .unwrap_or_else(|| format!("{material}.{}", COMPRESSED_EXTENSION));
        format!("{}/{file}", self.name)
    }

    fn table(&self, material: Material) -> Result<StoredTable, TableError> {
        // The lock is released before `table_name` takes it again.
        let stored = match lock(&self.files).get(&material) {
            Some(Entry {
                whole: Some(bytes), ..
            }) => Some(StoredTable::Whole(Arc::clone(bytes))),
            Some(e) => Some(StoredTable::Ranges(e.ranges.clone())),
            None => None,
        };
        stored.ok_or_else(|| TableError::Missing(PathBuf::from(self.table_name(material))))
    }

    fn opened(&self, material: Material) {
        lock(&self.shared.cache).opened.insert(material.code());
    }
}

impl RangeRead for FetchedFile {
    fn len(&self) -> u64 {
        self.len
    }

    fn read_exact_at(&self, buf: &mut [u8], at: u64) -> std::io::Result<()> {
        let end = at
            .checked_add(buf.len() as u64)
            .filter(|&e| e <= self.len)
            .ok_or_else(|| {
                std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "read beyond the end")
            })?;
        if buf.is_empty() {
            return Ok(());
        }
        let page = self.shared.options.page_bytes;
        let (first, last) = (at / page, (end - 1) / page);
        let mut cache = lock(&self.shared.cache);
        let code = self.material.code();
        let absent: Vec<u64> = (first..=last)
            .filter(|p| !cache.pages.contains_key(&(code, *p)))
            .collect();
        if !absent.is_empty() {
            drop(cache);
            self.note_missing(&absent);
            return Err(std::io::Error::new(
                std::io::ErrorKind::WouldBlock,
                format!("bytes {at}..{end} of {} not fetched yet", self.file),
            ));
        }
        cache.tick += 1;
        let tick = cache.tick;
        let mut filled = 0;
        for p in first..=last {
            let page_bytes = cache.pages.get_mut(&(code, p)).expect("present");
            page_bytes.used = tick;
            page_bytes.fresh = false;
            let start = if p == first { at - p * page } else { 0 } as usize;
            let take = (buf.len() - filled).min(page_bytes.bytes.len() - start);
            let src = page_bytes.bytes.get(start..start + take).ok_or_else(|| {
                std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "short page")
            })?;
            buf[filled..filled + take].copy_from_slice(src);
            filled += take;
        }
        Ok(())
    }

    /// A section's block index, checked when a probe first read it: its
    /// pages are kept for good, as those read while the table opened.
    fn retain(&self, at: u64, len: u64) {
        if len == 0 {
            return;
        }
        let page = self.shared.options.page_bytes;
        let code = self.material.code();
        let mut cache = lock(&self.shared.cache);
        let Cache { pages, usage, .. } = &mut *cache;
        for p in at / page..=(at + len - 1) / page {
            if let Some(kept) = pages.get_mut(&(code, p)).filter(|k| !k.pinned) {
                kept.pinned = true;
                let n = kept.bytes.len() as u64;
                usage.cached_bytes -= n;
                usage.pinned_bytes += n;
            }
        }
    }
}

impl FetchedFile {
    /// Notes the runs of absent pages as missing ranges (once each).
    fn note_missing(&self, absent: &[u64]) {
        let page = self.shared.options.page_bytes;
        let mut missing = lock(&self.shared.missing);
        let mut k = 0;
        while k < absent.len() {
            let mut j = k;
            while j + 1 < absent.len() && absent[j + 1] == absent[j] + 1 {
                j += 1;
            }
            let at = absent[k] * page;
            let end = ((absent[j] + 1) * page).min(self.len);
            let m = Missing {
                material: self.material,
                file: self.file.clone(),
                at,
                len: end - at,
            };
            if !missing.contains(&m) {
                missing.push(m);
            }
            k = j + 1;
        }
    }
}
