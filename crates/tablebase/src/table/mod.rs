//! One table, validated, read through a memory map, positional reads, bytes
//! in memory or a range reader ([`RangeRead`]). A compressed table's layout
//! is parsed in `layout.rs` (at open, and each section of a sectioned one
//! when first read); how its blocks are read (WDL blocks,
//! distance parts, ranks) is in `compressed_read.rs`; where the bytes come
//! from, in `source.rs`.

mod compressed_read;
mod layout;
mod source;

use source::{prefetch, read_range, with_range, Source};
pub use source::{RangeRead, StoredTable};

use jungletb_format::encoding::{decode, encode, RAW_UNUSED};
use jungletb_format::header::Header;
use jungletb_format::TableError;
use jungletb_indexer::{Material, PositionIndex};
use jungletb_rules::{Position, Ruleset, Value, Wdl};
use layout::Compressed;
use memmap2::Mmap;
use std::fs::File;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

/// How a table's bytes are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Backend {
    /// A read-only memory map: the fastest; costs address space, no file
    /// descriptor.
    #[default]
    Mmap,
    /// Positional reads (`pread`) of the bytes a probe needs: no mapping,
    /// one open file per table, a system call per probe.
    Pread,
}

/// A validated table: header checked, rule set and material matched,
/// payload checksum verified. Plain (`.jtb`, one value per slot) and
/// compressed (`.jtbz`, see [`jungletb_format::compressed`]) tables answer the same
/// queries, except compressed tables with don't-cares
/// ([`Table::has_dont_cares`]), whose values only a [`crate::Tablebase`]
/// answers (with the search that recovers them).
pub struct Table {
    path: PathBuf,
    header: Header,
    index: PositionIndex,
    source: Source,
    backend: Backend,
    offset: u64,
    file_len: u64,
    layout: Option<Compressed>,
    /// Distinguishes this table in the per-thread block cache.
    uid: u64,
    /// What decoded DTM parts kept for later probes may take (kept in
    /// each part of a compressed table; WDL is decoded per probe).
    budget: Arc<DecodeBudget>,
    /// The identity of the file opened.
    stamp: Option<FileStamp>,
}

/// The identity of a file as the file system gives it: device, inode,
/// length, modification and change times. jungletb never modifies a table
/// file in place (a new table arrives by rename, with a new inode), so an
/// equal stamp means the same bytes as when the stamp was taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FileStamp {
    dev: u64,
    ino: u64,
    len: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl FileStamp {
    #[cfg(unix)]
    fn of(m: &std::fs::Metadata) -> Option<FileStamp> {
        use std::os::unix::fs::MetadataExt;
        Some(FileStamp {
            dev: m.dev(),
            ino: m.ino(),
            len: m.len(),
            mtime: (m.mtime(), m.mtime_nsec()),
            ctime: (m.ctime(), m.ctime_nsec()),
        })
    }

    #[cfg(not(unix))]
    fn of(_: &std::fs::Metadata) -> Option<FileStamp> {
        None
    }
}

static NEXT_UID: AtomicU64 = AtomicU64::new(1);

/// Memory that tables may spend keeping decoded blocks of compressed tables
/// (shared by the tables of one [`crate::Tablebase`]).
#[derive(Debug)]
pub(crate) struct DecodeBudget {
    used: AtomicU64,
    limit: u64,
}

impl DecodeBudget {
    /// A budget of `limit` bytes.
    pub(crate) fn new(limit: u64) -> Arc<DecodeBudget> {
        Arc::new(DecodeBudget {
            used: AtomicU64::new(0),
            limit,
        })
    }

    fn try_reserve(&self, n: u64) -> bool {
        if self.used.fetch_add(n, Ordering::Relaxed) + n <= self.limit {
            return true;
        }
        self.used.fetch_sub(n, Ordering::Relaxed);
        false
    }

    fn release(&self, n: u64) {
        self.used.fetch_sub(n, Ordering::Relaxed);
    }
}

impl Drop for Table {
    /// Gives the decoded blocks this table kept back to the shared budget
    /// (an evicted table's memory is then free for the others).
    fn drop(&mut self) {
        let kept: u64 = self.layout.as_ref().map_or(0, |c| {
            c.parts
                .iter()
                .filter_map(OnceLock::get)
                .flat_map(|part| part.kept.iter())
                .filter_map(OnceLock::get)
                .map(|b| b.len() as u64)
                .sum()
        });
        if kept > 0 {
            self.budget.release(kept);
        }
    }
}

impl Table {
    /// Opens and fully validates the table of `material` at `path` for
    /// `rules`, memory-mapped. Every check (magic, versions, sizes, rule set,
    /// material, both checksums, the block index of compressed tables)
    /// happens here, so a `Table` never answers from a bad file.
    pub fn open(path: &Path, rules: &Ruleset, material: Material) -> Result<Table, TableError> {
        Self::open_with(path, rules, material, Backend::Mmap)
    }

    /// [`Table::open`] with a choice of [`Backend`].
    pub fn open_with(
        path: &Path,
        rules: &Ruleset,
        material: Material,
        backend: Backend,
    ) -> Result<Table, TableError> {
        Self::open_budgeted(path, rules, material, backend, DecodeBudget::new(0), None)
    }

    /// [`Table::open_with`], keeping decoded blocks of a compressed table
    /// while `budget` allows. If the file still has the identity `verified`
    /// (device, inode, length, modification and change times) of a file
    /// whose payload checksum this caller verified before, the payload
    /// checksum is not computed again (the header's still is).
    pub(crate) fn open_budgeted(
        path: &Path,
        rules: &Ruleset,
        material: Material,
        backend: Backend,
        budget: Arc<DecodeBudget>,
        verified: Option<FileStamp>,
    ) -> Result<Table, TableError> {
        let mut table = Self::open_unchecked_ruleset(path, backend, verified)?;
        table.keep_blocks(budget);
        table.check_identity(path, rules, material)?;
        Ok(table)
    }

    /// Refuses a table of another rule set or material than asked for.
    fn check_identity(
        &self,
        path: &Path,
        rules: &Ruleset,
        material: Material,
    ) -> Result<(), TableError> {
        self.header.check_ruleset(rules, path)?;
        if self.header.material != material {
            return Err(TableError::WrongMaterial {
                path: path.to_path_buf(),
                expected: material.to_string(),
                found: self.header.material.to_string(),
            });
        }
        Ok(())
    }

    /// Opens and validates a table file under whatever rule set it records
    /// (for `info`). Checksums are verified.
    pub fn open_any(path: &Path) -> Result<Table, TableError> {
        Self::open_unchecked_ruleset(path, Backend::Mmap, None)
    }

    /// [`Table::open_any`] with a choice of [`Backend`]: positional reads
    /// keep a table read once from end to end (as `compress` reads it) out
    /// of the process's resident memory.
    pub fn open_any_with(path: &Path, backend: Backend) -> Result<Table, TableError> {
        Self::open_unchecked_ruleset(path, backend, None)
    }

    /// The identity of the file this table was opened from (`None` where
    /// the platform does not give one).
    pub(crate) fn stamp(&self) -> Option<FileStamp> {
        self.stamp
    }

    fn open_unchecked_ruleset(
        path: &Path,
        backend: Backend,
        verified: Option<FileStamp>,
    ) -> Result<Table, TableError> {
        let io = |e| TableError::from_io(path, "reading", e);
        let file = File::open(path).map_err(io)?;
        let metadata = file.metadata().map_err(io)?;
        let len = metadata.len();
        let stamp = FileStamp::of(&metadata);
        Self::open_source(
            path,
            Source::File(file),
            len,
            backend,
            stamp,
            verified,
            true,
        )
    }

    /// A table whose bytes are in memory, named `name` in errors: checked
    /// as a file is (header, rule set, material, checksums).
    pub fn from_bytes(
        name: &Path,
        bytes: Arc<[u8]>,
        rules: &Ruleset,
        material: Material,
    ) -> Result<Table, TableError> {
        let len = bytes.len() as u64;
        Self::from_source(name, Source::Bytes(bytes), len, rules, material)
    }

    /// A table read range by range from `reader`, named `name` in errors:
    /// checked as a file is; each probe reads only the ranges it needs.
    pub fn from_ranges(
        name: &Path,
        reader: Arc<dyn RangeRead>,
        rules: &Ruleset,
        material: Material,
    ) -> Result<Table, TableError> {
        let len = reader.len();
        Self::from_source(name, Source::Ranges(reader), len, rules, material)
    }

    fn from_source(
        name: &Path,
        source: Source,
        len: u64,
        rules: &Ruleset,
        material: Material,
    ) -> Result<Table, TableError> {
        let table = Self::open_source(name, source, len, Backend::Pread, None, None, true)?;
        table.check_identity(name, rules, material)?;
        Ok(table)
    }

    /// A table of a [`TableStore`](crate::store::TableStore): whole bytes checked as a file is;
    /// ranges (compressed tables only) checked without the whole-file
    /// checksum, which would read every byte: the header, the block and
    /// distance indexes at open (each has its own checksum; those of a
    /// section after the first when a probe first reads it) and every block
    /// when it is read. Keeps decoded blocks while `budget` allows.
    pub(crate) fn from_store(
        name: &Path,
        stored: StoredTable,
        rules: &Ruleset,
        material: Material,
        budget: Arc<DecodeBudget>,
    ) -> Result<Table, TableError> {
        let mut table = match stored {
            StoredTable::Whole(bytes) => {
                let len = bytes.len() as u64;
                Self::open_source(
                    name,
                    Source::Bytes(bytes),
                    len,
                    Backend::Pread,
                    None,
                    None,
                    true,
                )?
            }
            StoredTable::Ranges(reader) => {
                let len = reader.len();
                let source = Source::Ranges(reader);
                Self::open_source(name, source, len, Backend::Pread, None, None, false)?
            }
        };
        table.keep_blocks(budget);
        table.check_identity(name, rules, material)?;
        Ok(table)
    }

    /// Keeps decoded blocks of a compressed table while `budget` allows.
    fn keep_blocks(&mut self, budget: Arc<DecodeBudget>) {
        // The parts parsed so far; the others get theirs when parsed.
        if let (Some(c), true) = (&mut self.layout, budget.limit > 0) {
            for part in c.parts.iter_mut().filter_map(OnceLock::get_mut) {
                part.kept = layout::new_block_store(part);
            }
        }
        self.budget = budget;
    }

    /// Checks and opens a table from `reader` (`len` bytes); a file reader
    /// becomes a memory map afterwards if `backend` asks for one. Without
    /// `whole_checksum`, the payload checksum is not computed and the table
    /// must be compressed (whose parts carry checks of their own).
    #[allow(clippy::too_many_arguments)]
    fn open_source(
        path: &Path,
        reader: Source,
        len: u64,
        backend: Backend,
        stamp: Option<FileStamp>,
        verified: Option<FileStamp>,
        whole_checksum: bool,
    ) -> Result<Table, TableError> {
        if len == 0 {
            return Err(TableError::NotATable(path.to_path_buf()));
        }
        let io = |e| TableError::from_io(path, "reading", e);
        let corrupt = |what: String| TableError::Corrupt {
            path: path.to_path_buf(),
            what,
        };
        let header_bytes = read_range(&reader, 0, len.min(1 << 16) as usize).map_err(io)?;
        let header = Header::parse(&header_bytes, len, path)?;
        let rules = Ruleset::from_canonical_string(&header.ruleset)
            .map_err(|e| corrupt(format!("rule set: {e}")))?;
        if rules.id() != header.ruleset_id {
            return Err(corrupt(
                "rule-set identifier does not match its options".into(),
            ));
        }
        let index =
            PositionIndex::new(header.material, &rules).map_err(|e| corrupt(e.to_string()))?;
        if index.size() != header.index_size {
            return Err(corrupt(format!(
                "index size {} does not match the material's {}",
                header.index_size,
                index.size()
            )));
        }
        let offset = header.header_len as u64;
        // The payload checksum, in pieces (no need to hold a whole file);
        // skipped only for the unchanged file the caller verified before.
        // Read from the file, not through a map: a map's pages touched
        // here would stay in the process's resident set (5 GB for a
        // 6-piece table) though probes need few of them. In pieces of
        // 64 KiB, the largest the per-thread read buffer otherwise holds
        // (a header), so that opening a table leaves no larger buffer.
        let mut crc = crc32fast::Hasher::new();
        let mut at = offset;
        if !whole_checksum && !header.compressed {
            return Err(TableError::NeedsWholeFile(path.to_path_buf()));
        }
        let known = (stamp.is_some() && stamp == verified) || !whole_checksum;
        while at < len && !known {
            let n = (len - at).min(1 << 16) as usize;
            with_range(&reader, at, n, |b| crc.update(b)).map_err(io)?;
            at += n as u64;
        }
        if !known && crc.finalize() != header.payload_crc {
            return Err(TableError::ChecksumMismatch {
                path: path.to_path_buf(),
                part: "payload",
            });
        }
        let source = match (backend, reader) {
            (Backend::Mmap, Source::File(file)) => {
                // SAFETY: the map is read-only. Table files are written once
                // under a temporary name and renamed into place, never
                // modified in place, so the mapped bytes do not change while
                // mapped (unless another program writes them, which no
                // jungletb tool does).
                let map = unsafe { Mmap::map(&file) }.map_err(io)?;
                #[cfg(unix)]
                let _ = map.advise(memmap2::Advice::Random);
                Source::Map(map)
            }
            (_, reader) => reader,
        };
        let layout = if header.compressed {
            Some(layout::parse(&source, path, offset, len, index.size())?)
        } else {
            None
        };
        Ok(Table {
            path: path.to_path_buf(),
            header,
            index,
            source,
            backend,
            offset,
            file_len: len,
            layout,
            uid: NEXT_UID.fetch_add(1, Ordering::Relaxed),
            budget: DecodeBudget::new(0),
            stamp,
        })
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The file path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The position index of the material.
    pub fn index(&self) -> &PositionIndex {
        &self.index
    }

    /// How the table is read.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Bytes of the WDL and DTM streams of a compressed table (`None` for
    /// a plain one). Reads the layout of every section no probe read yet:
    /// an error if one is corrupt or cannot be read.
    pub fn compressed_sizes(&self) -> Result<Option<jungletb_format::CompressedSizes>, TableError> {
        let Some(c) = &self.layout else {
            return Ok(None);
        };
        let parts = self.all_parts(c)?;
        Ok(Some(jungletb_format::CompressedSizes {
            wdl_bytes: parts.iter().map(|p| p.layout.wdl.stored_bytes).sum(),
            dtm_bytes: parts
                .iter()
                .map(|p| p.layout.dtm.index_len + p.layout.dtm.data_len)
                .sum(),
        }))
    }

    /// The byte ranges (start, length) that opening this table reads, in
    /// order, overlapping and adjacent ones merged: the first 64 KiB (the
    /// header, and all of a small table) and, for a compressed table, its
    /// block index and distance index, which lie at the front of its
    /// payload (of its first section and its section table for a sectioned
    /// one, whose other sections are read when a probe first needs them).
    /// So a table opens with one range, whatever its size. A caller fetching a table over a
    /// network fetches them together, in one round (`jungletb site` lists
    /// them in its manifest).
    pub fn open_ranges(&self) -> Vec<(u64, u64)> {
        let mut ranges = vec![(0, self.file_len.min(1 << 16))];
        if let Some(c) = &self.layout {
            ranges.extend(c.opened.iter().copied());
        }
        ranges.sort_unstable();
        let mut out: Vec<(u64, u64)> = Vec::with_capacity(ranges.len());
        for (at, len) in ranges {
            match out.last_mut() {
                Some((start, n)) if at <= *start + *n => *n = (*n).max(at + len - *start),
                _ => out.push((at, len)),
            }
        }
        out
    }

    /// True for a compressed (`.jtbz`) table.
    pub fn is_compressed(&self) -> bool {
        self.layout.is_some()
    }

    /// True for a compressed table that stores don't-care values for the
    /// positions a capture or an immediate win decides (see
    /// [`jungletb_format::compressed`]): its values are answered only through a
    /// [`crate::Tablebase`], which searches those moves; this table's own
    /// value queries refuse with [`TableError::NeedsSearch`].
    pub fn has_dont_cares(&self) -> bool {
        self.layout.as_ref().is_some_and(|c| c.dont_cares)
    }

    /// Refuses value queries on a table whose stored values need a search.
    #[inline]
    fn answers_alone(&self) -> Result<(), TableError> {
        if self.has_dont_cares() {
            return Err(TableError::NeedsSearch(self.path.clone()));
        }
        Ok(())
    }

    fn io_error(&self, e: std::io::Error) -> TableError {
        TableError::io(&self.path, "reading", e)
    }

    fn corrupt(&self, what: String) -> TableError {
        TableError::Corrupt {
            path: self.path.clone(),
            what,
        }
    }

    /// The raw values of the slots of `range` (within the index) of a plain
    /// table, read in one piece: one system call for a file read by
    /// positional reads, not one a slot.
    fn raw_plain_in(&self, range: Range<u64>) -> Result<Vec<u16>, TableError> {
        let width = self.header.value_width as usize;
        let at = self.offset + width as u64 * range.start;
        let len = width * (range.end - range.start) as usize;
        with_range(&self.source, at, len, |bytes| match width {
            1 => bytes.iter().map(|&b| b as u16).collect(),
            _ => bytes
                .chunks_exact(2)
                .map(|b| u16::from_le_bytes([b[0], b[1]]))
                .collect(),
        })
        .map_err(|e| self.io_error(e))
    }

    /// The raw value of slot `i` of a plain table (see [`jungletb_format::encoding`]).
    #[inline]
    fn raw_plain(&self, i: u64) -> Result<u16, TableError> {
        let width = self.header.value_width as u64;
        let at = self.offset + width * i;
        if let Source::Map(map) = &self.source {
            // Fast path: in range because `i` is below the index size and
            // the file length was checked against it.
            let at = at as usize;
            return match width {
                1 => map.get(at).map(|&b| b as u16),
                _ => map
                    .get(at..at + 2)
                    .map(|b| u16::from_le_bytes([b[0], b[1]])),
            }
            .ok_or_else(|| self.corrupt(format!("slot {i} beyond the end")));
        }
        let mut b = [0u8; 2];
        with_range(&self.source, at, width as usize, |s| {
            b[..s.len()].copy_from_slice(s)
        })
        .map_err(|e| self.io_error(e))?;
        Ok(if width == 1 {
            b[0] as u16
        } else {
            u16::from_le_bytes(b)
        })
    }

    /// The value of slot `i`, which must hold a position (`i` below the
    /// index size). Plain tables report an unused slot as an error; in
    /// compressed tables unused slots hold an arbitrary value.
    #[inline]
    pub fn value_at(&self, i: u64) -> Result<Value, TableError> {
        self.answers_alone()?;
        self.value_as_stored(i)
    }

    /// [`Table::value_at`] as the file stores it: for a table with
    /// don't-cares, possibly below the position's value.
    #[inline]
    pub(crate) fn value_as_stored(&self, i: u64) -> Result<Value, TableError> {
        if i >= self.index.size() {
            return Err(self.corrupt(format!("slot {i} out of range")));
        }
        match &self.layout {
            None => decode(self.raw_plain(i)?).ok_or_else(|| {
                self.corrupt(format!("slot {i} is marked unused but holds a position"))
            }),
            Some(c) => {
                let (part, local) = self.locate(c, i)?;
                self.value_compressed(part, local)
            }
        }
    }

    /// The value of slot `i`, or `None` when the slot holds no position
    /// (unused index slots). For scans, [`Table::stored_values`] reads a
    /// range faster.
    pub fn stored_value(&self, i: u64) -> Result<Option<Value>, TableError> {
        self.answers_alone()?;
        if i >= self.index.size() {
            return Err(self.corrupt(format!("slot {i} out of range")));
        }
        match &self.layout {
            None => Ok(decode(self.raw_plain(i)?)),
            Some(_) if !self.index.is_canonical_slot(i) => Ok(None),
            Some(c) => {
                let (part, local) = self.locate(c, i)?;
                self.value_compressed(part, local).map(Some)
            }
        }
    }

    /// [`Table::stored_value`] of every slot of `range`, in order: for
    /// scans. A compressed table decodes each WDL block of the range once
    /// (not once per slot) and reads distances through the per-thread
    /// block cache, in slot order.
    pub fn stored_values(&self, range: Range<u64>) -> Result<Vec<Option<Value>>, TableError> {
        self.answers_alone()?;
        self.values_as_stored(range)
    }

    /// [`Table::stored_values`] as the file stores them (see
    /// [`Table::value_as_stored`]).
    pub(crate) fn values_as_stored(
        &self,
        range: Range<u64>,
    ) -> Result<Vec<Option<Value>>, TableError> {
        if range.end > self.index.size() {
            return Err(self.corrupt(format!("slots {range:?} out of range")));
        }
        let Some(c) = &self.layout else {
            return Ok(self.raw_plain_in(range)?.into_iter().map(decode).collect());
        };
        let mut out = Vec::with_capacity((range.end - range.start) as usize);
        self.each_part(c, range, |part, local| {
            self.values_in_part(part, local, &mut out)
        })?;
        Ok(out)
    }

    /// The WDL value of every slot of `range` of a compressed table as
    /// the file stores it (unused slots hold any value), each block decoded
    /// once: for scans. `None` for a plain table, read in place as fast.
    pub(crate) fn wdls_as_stored(&self, range: Range<u64>) -> Result<Option<Vec<Wdl>>, TableError> {
        let Some(c) = &self.layout else {
            return Ok(None);
        };
        if range.end > self.index.size() {
            return Err(self.corrupt(format!("slots {range:?} out of range")));
        }
        let mut out = Vec::with_capacity((range.end - range.start) as usize);
        self.each_part(c, range, |part, local| {
            self.wdl_values_in_part(part, local, &mut out)
        })?;
        Ok(Some(out))
    }

    /// Win, draw or loss at slot `i`: reads only the WDL stream of
    /// compressed tables.
    #[inline]
    pub fn wdl_at(&self, i: u64) -> Result<Wdl, TableError> {
        self.answers_alone()?;
        self.wdl_as_stored(i)
    }

    /// [`Table::wdl_at`] as the file stores it (see
    /// [`Table::value_as_stored`]).
    #[inline]
    pub(crate) fn wdl_as_stored(&self, i: u64) -> Result<Wdl, TableError> {
        match &self.layout {
            Some(c) if i < self.index.size() => {
                let (part, local) = self.locate(c, i)?;
                self.wdl_compressed(part, local)
            }
            _ => self.value_as_stored(i).map(Value::wdl),
        }
    }

    /// The value of `pos`, whose material must be this table's (canonical)
    /// material, for the side to move.
    #[inline]
    pub fn probe(&self, pos: &Position) -> Result<Value, TableError> {
        self.value_at(self.index.index(pos))
    }

    /// [`Table::probe`] as the file stores it (see
    /// [`Table::value_as_stored`]).
    #[inline]
    pub(crate) fn probe_as_stored(&self, pos: &Position) -> Result<Value, TableError> {
        self.value_as_stored(self.index.index(pos))
    }

    /// [`Table::probe_wdl`] as the file stores it (see
    /// [`Table::value_as_stored`]).
    #[inline]
    pub(crate) fn probe_wdl_as_stored(&self, pos: &Position) -> Result<Wdl, TableError> {
        self.wdl_as_stored(self.index.index(pos))
    }

    /// Win, draw or loss of `pos` (see [`Table::probe`]).
    #[inline]
    pub fn probe_wdl(&self, pos: &Position) -> Result<Wdl, TableError> {
        self.wdl_at(self.index.index(pos))
    }

    /// Every slot's raw value (see [`jungletb_format::encoding`]), decoded in order:
    /// for compressing, comparing and checking whole tables. Unused slots of
    /// compressed tables (whose values are not stored) read as unused.
    pub fn raw_values(&self) -> Result<Vec<u16>, TableError> {
        self.raw_values_in(0..self.index.size())
    }

    /// [`Table::raw_values`] of the slots of `range` only.
    pub fn raw_values_in(&self, range: Range<u64>) -> Result<Vec<u16>, TableError> {
        self.answers_alone()?;
        if range.end > self.index.size() {
            return Err(self.corrupt(format!("slots {range:?} out of range")));
        }
        if self.layout.is_none() {
            return self.raw_plain_in(range);
        }
        let first = range.start;
        self.values_as_stored(range)?
            .into_iter()
            .enumerate()
            .map(|(k, v)| match v {
                None => Ok(RAW_UNUSED),
                Some(v) => encode(v).ok_or_else(|| {
                    self.corrupt(format!("slot {}: {v} out of range", first + k as u64))
                }),
            })
            .collect()
    }

    /// Number of bytes of the file.
    pub fn file_len(&self) -> u64 {
        self.file_len
    }

    /// Checks that `other` (e.g. the compressed form of this table) holds
    /// exactly this table's values, slot by slot; the first difference is a
    /// [`TableError::Corrupt`] of `other`.
    pub fn same_values(&self, other: &Table) -> Result<(), TableError> {
        let n = self.index.size();
        if other.index.size() != n {
            return Err(other.corrupt(format!(
                "{} slots against {n} in {}",
                other.index.size(),
                self.path.display()
            )));
        }
        // Range by range (a 6-piece table's values would take 10 GB at
        // once), ranges in parallel; the first difference in slot order is
        // the one reported.
        let chunk = 1u64 << 22;
        crate::parallel::first_failure(n.div_ceil(chunk), |c| {
            let start = c * chunk;
            let range = start..(start + chunk).min(n);
            let (mine, theirs) = (
                self.raw_values_in(range.clone())?,
                other.raw_values_in(range)?,
            );
            match mine.iter().zip(&theirs).position(|(x, y)| x != y) {
                None => Ok(()),
                Some(k) => Err(other.corrupt(format!(
                    "slot {} decodes to raw value {} instead of {} (as in {})",
                    start + k as u64,
                    theirs[k],
                    mine[k],
                    self.path.display()
                ))),
            }
        })
    }
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({})", self.path.display())
    }
}
