//! The probe front door: a directory of tables for one rule set.

use crate::error::ProbeError;
use crate::open_tables::{no_room, Caps, Cost, Evicting};
use crate::store::TableStore;
use crate::table::{Backend, DecodeBudget, FileStamp, Table};
use jungletb_format::TableError;
use jungletb_indexer::Material;
use jungletb_rules::{MoveTables, Ruleset};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, OnceLock};

/// File extension of (plain) table files.
pub const TABLE_EXTENSION: &str = "jtb";
/// File extension of compressed table files.
pub const COMPRESSED_EXTENSION: &str = "jtbz";

/// The directory holding the tables of `rules` under the tables root `root`:
/// `root/<rule-set label>` (e.g. `tables/standard`). Given a rule set's
/// directory itself (one whose tables record these rules in their headers,
/// whatever its name: `tables/standard`, a copy in `backup/`, a flat
/// `compress --out`), that directory. This is where `generate` writes;
/// readers use [`find_table_dir`], which also looks one level down.
pub fn table_dir(root: &Path, rules: &Ruleset) -> PathBuf {
    let label = rules.label();
    let nested = root.join(&label);
    if nested.is_dir() {
        return nested;
    }
    let named = root.file_name().and_then(|n| n.to_str()) == Some(label.as_str());
    // Found by what its tables record, or (with tables of other rules, which
    // probes then refuse by name) by its name.
    if holds_tables_of(root, rules) || (named && ruleset_of_dir(root).is_some()) {
        root.to_path_buf()
    } else {
        nested
    }
}

/// The directory the tables of `rules` are read from under `root`: as
/// [`table_dir`], and else the one directory directly under `root` whose
/// tables record these rules (a rule set's directory under another name).
/// Returns [`table_dir`]'s answer when there is none.
pub fn find_table_dir(root: &Path, rules: &Ruleset) -> PathBuf {
    let dir = table_dir(root, rules);
    if dir.is_dir() {
        return dir;
    }
    let mut under: Vec<PathBuf> = std::fs::read_dir(root)
        .map(|rd| {
            rd.flatten()
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    under.sort();
    under
        .into_iter()
        .find(|d| holds_tables_of(d, rules))
        .unwrap_or(dir)
}

/// True when the tables directly in `dir` record `rules` (their options:
/// the base a rule set was named from does not matter).
fn holds_tables_of(dir: &Path, rules: &Ruleset) -> bool {
    ruleset_of_dir(dir).is_some_and(|r| r.id() == rules.id())
}

/// Every table file (plain or compressed) in `root` and in the directories
/// directly under it (a tables root holds one directory per rule set), in
/// name order.
pub fn table_files(root: &Path) -> Result<Vec<PathBuf>, TableError> {
    let io = |p: &Path, e| TableError::from_io(p, "listing", e);
    if !root.is_dir() {
        return Err(TableError::NotADirectory(root.to_path_buf()));
    }
    let mut dirs = vec![root.to_path_buf()];
    for e in std::fs::read_dir(root).map_err(|e| io(root, e))?.flatten() {
        if e.path().is_dir() {
            dirs.push(e.path());
        }
    }
    let mut files = Vec::new();
    for d in dirs {
        for e in std::fs::read_dir(&d).map_err(|e| io(&d, e))?.flatten() {
            let p = e.path();
            let ext = p.extension().and_then(|x| x.to_str());
            if ext == Some(TABLE_EXTENSION) || ext == Some(COMPRESSED_EXTENSION) {
                files.push(p);
            }
        }
    }
    files.sort();
    Ok(files)
}

/// The file of `material` in a rule set's directory: `dir/ELvR.jtb`.
pub fn table_path(dir: &Path, material: Material) -> PathBuf {
    dir.join(format!("{material}.{TABLE_EXTENSION}"))
}

/// The compressed file of `material` in a rule set's directory:
/// `dir/ELvR.jtbz`.
pub fn compressed_table_path(dir: &Path, material: Material) -> PathBuf {
    dir.join(format!("{material}.{COMPRESSED_EXTENSION}"))
}

/// How a [`Tablebase`] reads its tables, and how much it may hold open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TablebaseOptions {
    /// How tables are read: memory maps (default) or positional reads.
    pub backend: Backend,
    /// Most bytes of table files mapped at once. Tables opened beyond it are
    /// read with positional reads instead (default: no limit).
    pub max_mapped_bytes: u64,
    /// Most table files held open for positional reads (mapped tables hold
    /// no file open; default: 512).
    ///
    /// With the defaults (memory maps, no cap on mapped bytes) a table once
    /// opened stays open. With positional reads or a cap on mapped bytes, a
    /// table that would exceed the caps closes the least recently used
    /// tables first, so every table can be probed with any caps (a probe
    /// fails with [`TableError::Limit`] only if its one table does not fit
    /// them at all).
    pub max_open_files: u64,
    /// Most bytes of decoded blocks of compressed tables kept in memory for
    /// later probes (a WDL block costs 2 bits per position, a distance block
    /// 1 byte). Beyond it, blocks are decoded on every probe that needs them
    /// (default: 1 GiB; 0 keeps none).
    pub max_decoded_bytes: u64,
    /// Where a material has both a plain and a compressed table, read the
    /// compressed one (default: the plain one, which is faster to read; set
    /// it to examine what a compressed table answers beside its original).
    pub prefer_compressed: bool,
    /// Scans ([`Tablebase::scanner`]: `zugzwangs`, `stats`, `compare-rules`,
    /// the check `compress` runs) decode a compressed table of at most this many
    /// index slots whole, a byte a slot, when they read it at random (the
    /// successors of the slots scanned); a larger one is read block by
    /// block, as probes read it (default: 2^25 slots, 32 MiB).
    pub scan_decode_max_slots: u64,
}

impl Default for TablebaseOptions {
    fn default() -> Self {
        TablebaseOptions {
            backend: Backend::Mmap,
            max_mapped_bytes: u64::MAX,
            max_open_files: 512,
            max_decoded_bytes: 1 << 30,
            prefer_compressed: false,
            scan_decode_max_slots: 1 << 25,
        }
    }
}

/// What a [`Tablebase`]'s open tables hold ([`Tablebase::usage`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TablebaseUsage {
    /// Bytes of table files mapped.
    pub mapped_bytes: u64,
    /// Table files held open for positional reads.
    pub open_files: u64,
    /// Tables closed to make room so far.
    pub evictions: u64,
    /// Tables open under caps that can bind (0 in the resident regime).
    pub evicting_open: usize,
}

type Slot = OnceLock<Result<Arc<Table>, Box<TableError>>>;

/// A set of tables for one rule set, opened lazily and shared between
/// threads (`Tablebase` is `Send + Sync`; probing takes `&self`, allocates
/// nothing and makes no system call once a table is open).
pub struct Tablebase {
    dir: PathBuf,
    /// Where the tables come from when they are not files in `dir`.
    store: Option<Arc<dyn TableStore>>,
    rules: Ruleset,
    options: TablebaseOptions,
    /// By material code; each table is opened (and checksummed) on first use
    /// and stays open (when the caps cannot bind; see [`crate::open_tables`]).
    slots: Box<[Slot]>,
    /// The tables open under caps that can bind, least recently used
    /// closed first.
    evicting: Evicting,
    /// Mapped bytes and open files held.
    caps: Caps,
    /// Shared by the compressed tables' kept blocks (set on first use, so
    /// that options set after construction apply).
    budget: OnceLock<Arc<DecodeBudget>>,
    /// Move generation for the search that recovers don't-cares (built on
    /// first use).
    moves: OnceLock<MoveTables>,
}

impl std::fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebase")
            .field("dir", &self.dir)
            .field("rules", &self.rules.label())
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

/// The rule set of the tables directly in `dir` (one rule set's
/// directory), read from the header of its first table file; `None` if it
/// holds no readable table. A custom rule set's directory named by its
/// label (`popular-custom-96041d7177d2e47e`) gives the rule set on that
/// label's base, so that its label is the directory's name again.
pub fn ruleset_of_dir(dir: &Path) -> Option<Ruleset> {
    let found = ruleset_in_headers(dir)?;
    let named = dir.file_name().and_then(|n| n.to_str());
    if let Some(label) = named.filter(|n| n.contains("-custom-")) {
        if let Some(rules) = rebased(&found, label) {
            return Some(rules);
        }
    }
    Some(found)
}

/// `found`'s options on the base that `label` names, if that gives
/// `label`.
fn rebased(found: &Ruleset, label: &str) -> Option<Ruleset> {
    let (base, id) = label.split_once("-custom-")?;
    if format!("{:016x}", found.id()) != id {
        return None;
    }
    let mut rules = Ruleset::by_name(base).ok()?;
    for (k, v) in found.options() {
        rules.set_option(k, &v).ok()?;
    }
    (rules.label() == label).then_some(rules)
}

/// The rule set the first readable table header directly in `dir` records.
fn ruleset_in_headers(dir: &Path) -> Option<Ruleset> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let ext = p.extension().and_then(|x| x.to_str());
            ext == Some(TABLE_EXTENSION) || ext == Some(COMPRESSED_EXTENSION)
        })
        .collect();
    files.sort();
    files.iter().find_map(|f| {
        let h = jungletb_format::Header::read(f).ok()?;
        Ruleset::from_canonical_string(&h.ruleset).ok()
    })
}

/// The names of the rule-set directories under the tables root `root`,
/// sorted (`.locks` and working directories are not rule sets).
pub fn ruleset_dirs(root: &Path) -> Vec<String> {
    let mut found: Vec<String> = std::fs::read_dir(root)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter(|e| e.path().is_dir())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| !n.starts_with('.'))
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

/// The custom rule set whose directory under `root` (or `root` itself) is
/// labelled `label` (`popular-custom-96041d7177d2e47e`): its options read
/// from a table there, on the named base the label gives, so that its
/// label is `label` again. `None` if there is no such directory or its
/// tables are of another rule set.
pub fn ruleset_of_label(root: &Path, label: &str) -> Option<Ruleset> {
    label.split_once("-custom-")?;
    let dir = if root.file_name().and_then(|n| n.to_str()) == Some(label) {
        root.to_path_buf()
    } else {
        root.join(label)
    };
    rebased(&ruleset_in_headers(&dir)?, label)
}

impl Tablebase {
    /// Opens the tables of `rules` under the tables root `root` (the
    /// directory `generate --out` wrote, e.g. `tables`), or in the rule
    /// set's directory itself, found by what its tables record (see
    /// [`find_table_dir`]).
    pub fn open(root: impl AsRef<Path>, rules: Ruleset) -> Result<Tablebase, ProbeError> {
        let root = root.as_ref();
        rules.check_supported().map_err(ProbeError::Rules)?;
        let dir = find_table_dir(root, &rules);
        if !dir.is_dir() {
            let found = ruleset_dirs(root);
            return Err(ProbeError::NoTables {
                ruleset: rules.label(),
                dir,
                found,
            });
        }
        Ok(Self::with_dir(dir, rules))
    }

    /// [`Tablebase::open`] with options (backend, limits).
    pub fn open_with(
        root: impl AsRef<Path>,
        rules: Ruleset,
        options: TablebaseOptions,
    ) -> Result<Tablebase, ProbeError> {
        let mut tb = Self::open(root, rules)?;
        tb.options = options;
        Ok(tb)
    }

    /// [`Tablebase::with_dir`] with options (backend, limits).
    pub fn with_dir_and_options(
        dir: PathBuf,
        rules: Ruleset,
        options: TablebaseOptions,
    ) -> Tablebase {
        let mut tb = Self::with_dir(dir, rules);
        tb.options = options;
        tb
    }

    /// Uses `dir` itself as the rule set's directory (no `<label>` subfolder).
    pub fn with_dir(dir: PathBuf, rules: Ruleset) -> Tablebase {
        let slots = (0..256 * 256).map(|_| OnceLock::new()).collect();
        Tablebase {
            dir,
            store: None,
            rules,
            options: TablebaseOptions::default(),
            slots,
            evicting: Evicting::default(),
            caps: Caps::default(),
            budget: OnceLock::new(),
            moves: OnceLock::new(),
        }
    }

    /// The tables of `rules` that `store` holds (bytes in memory, or
    /// fetched range by range: see [`crate::remote::RemoteTables`]), keeping decoded
    /// blocks within `options.max_decoded_bytes` (its other options are
    /// for files). Tables open on first use and stay open; a table that
    /// fails to open is tried again by the next probe that needs it.
    pub fn with_store(
        store: Arc<dyn TableStore>,
        rules: Ruleset,
        options: TablebaseOptions,
    ) -> Result<Tablebase, ProbeError> {
        rules.check_supported().map_err(ProbeError::Rules)?;
        let mut tb = Self::with_dir(PathBuf::from(store.name()), rules);
        tb.options = TablebaseOptions {
            backend: Backend::Pread,
            ..options
        };
        tb.store = Some(store);
        Ok(tb)
    }

    /// The canonical materials with a table: in the store, or (plain or
    /// compressed) in the directory; sorted, files not opened.
    pub fn materials(&self) -> Vec<Material> {
        if let Some(store) = &self.store {
            return store.materials();
        }
        let mut found: Vec<Material> = table_files(self.dir())
            .unwrap_or_default()
            .iter()
            .filter(|f| f.parent() == Some(self.dir()))
            .filter_map(|f| f.file_stem()?.to_str()?.parse::<Material>().ok())
            .map(|m| m.canonical().0)
            .collect();
        found.sort();
        found.dedup();
        found
    }

    /// The table of canonical `m` from the store, opened on first use; an
    /// error is not kept (the next probe tries again).
    fn stored_table(&self, store: &dyn TableStore, m: Material) -> Result<Arc<Table>, ProbeError> {
        let slot = &self.slots[m.code()];
        if let Some(Ok(t)) = slot.get() {
            return Ok(Arc::clone(t));
        }
        let name = PathBuf::from(store.table_name(m));
        let budget = self
            .budget
            .get_or_init(|| DecodeBudget::new(self.options.max_decoded_bytes));
        let table = store
            .table(m)
            .and_then(|stored| Table::from_store(&name, stored, &self.rules, m, Arc::clone(budget)))
            .map_err(ProbeError::Table)?;
        store.opened(m);
        let _ = slot.set(Ok(Arc::new(table)));
        match slot.get() {
            Some(Ok(t)) => Ok(Arc::clone(t)),
            _ => unreachable!("the slot was set above"),
        }
    }

    /// The options in force.
    pub fn options(&self) -> &TablebaseOptions {
        &self.options
    }

    /// The rule set.
    pub fn rules(&self) -> &Ruleset {
        &self.rules
    }

    /// `Ok` when `rules` are the tables' rule set (the same options: the
    /// base a rule set was named from does not matter), else
    /// [`ProbeError::RulesetMismatch`] naming both. Callers whose positions
    /// carry a rule set of their own (the Python `Position`, a request
    /// naming its rules) check it before every probe: this tablebase
    /// answers only under its own rules.
    pub fn check_rules(&self, rules: &Ruleset) -> Result<(), ProbeError> {
        if rules.id() == self.rules.id() {
            Ok(())
        } else {
            Err(ProbeError::RulesetMismatch {
                position: rules.label(),
                tables: self.rules.label(),
            })
        }
    }

    /// Move tables of the rule set.
    pub(crate) fn move_tables(&self) -> &MoveTables {
        self.moves.get_or_init(|| MoveTables::new(&self.rules))
    }

    /// The rule set's table directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Opens (and checksums) now every table present of up to
    /// `max_pieces` pieces, so that the first probe of a material costs no
    /// more than the others (an engine calls it before its first search;
    /// opening costs about the file's size in checksum reads: 0.8–2.6 ms a
    /// 4-piece material here). Returns how many tables are open; materials
    /// without a table are skipped (probing them stays a missing table).
    pub fn preload(&self, max_pieces: u32) -> Result<usize, ProbeError> {
        let mut opened = 0;
        for m in self.materials() {
            if m.piece_count() > max_pieces {
                continue;
            }
            self.table(m)?;
            opened += 1;
        }
        Ok(opened)
    }

    /// Reads the header of every table file in the directory (plain and
    /// compressed, without checksumming the payload) and checks that it
    /// records this tablebase's rule set: a server or an engine calls it
    /// at start-up so that tables of other rules under this rule set's name
    /// are refused then, not at the first probe that reaches them. Returns
    /// how many headers were read; a store-backed tablebase reads none.
    pub fn check_headers(&self) -> Result<usize, ProbeError> {
        if self.store.is_some() {
            return Ok(0);
        }
        let files = table_files(self.dir()).map_err(ProbeError::Table)?;
        let mut read = 0;
        for f in files.iter().filter(|f| f.parent() == Some(self.dir())) {
            let header = jungletb_format::Header::read(f).map_err(ProbeError::Table)?;
            header
                .check_ruleset(&self.rules, f)
                .map_err(ProbeError::Table)?;
            read += 1;
        }
        Ok(read)
    }

    /// What the open tables hold: mapped bytes, open files, tables open
    /// and tables closed to make room.
    pub fn usage(&self) -> TablebaseUsage {
        TablebaseUsage {
            mapped_bytes: self.caps.mapped_bytes.load(Ordering::Relaxed),
            open_files: self.caps.open_files.load(Ordering::Relaxed),
            evictions: self.evicting.evictions(),
            evicting_open: self.evicting.open_count(),
        }
    }

    /// True if the tables come from a [`TableStore`].
    pub(crate) fn has_store(&self) -> bool {
        self.store.is_some()
    }

    /// True if the caps can bind, so tables are closed to make room.
    pub(crate) fn evicts(&self) -> bool {
        self.store.is_none()
            && (self.options.backend == Backend::Pread || self.options.max_mapped_bytes != u64::MAX)
    }

    /// The slot of a material's table, opening the table on first use
    /// (resident regime).
    pub(crate) fn slot(&self, material: Material) -> &Result<Arc<Table>, Box<TableError>> {
        let m = material.canonical().0;
        self.slots[m.code()].get_or_init(|| {
            self.open_table(m, &|| false, None)
                .0
                .map(Arc::new)
                .map_err(Box::new)
        })
    }

    /// Opens the table of canonical material `m`: the plain file if there is
    /// one, else the compressed one (the other way round with
    /// [`TablebaseOptions::prefer_compressed`]); mapped or read by positional reads as
    /// the options and caps allow, calling `make_room` (which closes a
    /// table and says whether it could) until it fits. Returns the table
    /// and what it holds against the caps.
    fn open_table(
        &self,
        m: Material,
        make_room: &dyn Fn() -> bool,
        verified: Option<FileStamp>,
    ) -> (Result<Table, TableError>, Option<Cost>) {
        let plain = table_path(&self.dir, m);
        let compressed = compressed_table_path(&self.dir, m);
        let (first, second) = if self.options.prefer_compressed {
            (compressed, plain)
        } else {
            (plain, compressed)
        };
        let path = match (first.exists(), second.exists()) {
            (true, _) => first,
            (false, true) => second,
            (false, false) => {
                return (Err(TableError::Missing(table_path(&self.dir, m))), None);
            }
        };
        let len = match std::fs::metadata(&path) {
            Ok(md) => md.len(),
            Err(e) => {
                return (Err(TableError::from_io(&path, "reading", e)), None);
            }
        };
        let o = &self.options;
        // Reserve before opening so that threads opening tables at once
        // cannot overshoot a cap together; given back on failure.
        // A table that cannot fit even with every other table closed is
        // refused at once (waiting for room would never end).
        let fits =
            (o.backend == Backend::Mmap && len <= o.max_mapped_bytes) || o.max_open_files > 0;
        if !fits {
            return (
                Err(no_room(path, o.max_mapped_bytes, o.max_open_files)),
                None,
            );
        }
        let cost = loop {
            match self
                .caps
                .reserve(o.backend, len, o.max_mapped_bytes, o.max_open_files)
            {
                Some(cost) => break cost,
                None if make_room() => continue,
                None => {
                    return (
                        Err(no_room(path, o.max_mapped_bytes, o.max_open_files)),
                        None,
                    )
                }
            }
        };
        let budget = self
            .budget
            .get_or_init(|| DecodeBudget::new(o.max_decoded_bytes));
        match Table::open_budgeted(
            &path,
            &self.rules,
            m,
            cost.backend,
            Arc::clone(budget),
            verified,
        ) {
            Ok(t) => (Ok(t), Some(cost)),
            Err(e) => {
                self.caps.release(cost);
                (Err(e), None)
            }
        }
    }

    /// The table of a material (either colour order), opened on first use.
    /// A shared handle: holding it keeps the table open even if the
    /// tablebase closes it to make room.
    pub fn table(&self, material: Material) -> Result<Arc<Table>, ProbeError> {
        if let Some(store) = &self.store {
            return self.stored_table(&**store, material.canonical().0);
        }
        if self.evicts() {
            let m = material.canonical().0;
            return self
                .evicting
                .get(m.code(), &self.caps, |make_room, verified| {
                    self.open_table(m, make_room, verified)
                })
                .map_err(ProbeError::Table);
        }
        match self.slot(material) {
            Ok(t) => Ok(Arc::clone(t)),
            Err(e) => Err(ProbeError::Table((**e).clone())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn tablebase_is_send_and_sync() {
        assert_send_sync::<Tablebase>();
    }
}
