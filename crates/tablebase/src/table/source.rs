//! Where a table's bytes come from ([`Source`]: a memory map, a file read
//! by positional reads, bytes in memory, or a [`RangeRead`]), and the one
//! way every read of a table goes: [`with_range`].

use memmap2::Mmap;
use std::cell::RefCell;
use std::fs::File;
use std::sync::Arc;

/// Reads bytes of a table that is not a file: an HTTP range source, a
/// database blob, a test's counting reader. A [`Table`](super::Table)
/// built on one ([`Table::from_ranges`](super::Table::from_ranges)) reads
/// only what it needs, as through a file.
pub trait RangeRead: Send + Sync {
    /// The length of the table's bytes.
    fn len(&self) -> u64;
    /// True for an empty source.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Fills `buf` with the bytes from `at` (an error if they run out).
    fn read_exact_at(&self, buf: &mut [u8], at: u64) -> std::io::Result<()>;
    /// Bytes `at..at + len`, read before, that the table has checked and
    /// that later reads will ask for again (a section's block index, read
    /// when a probe first reads the section): a reader that drops bytes it
    /// fetched should keep these, so that what was checked is what is read.
    /// By default, nothing to do.
    fn retain(&self, _at: u64, _len: u64) {}
}

/// The bytes of one table, as a
/// [`TableStore`](crate::store::TableStore) holds them.
#[derive(Clone)]
pub enum StoredTable {
    /// The whole file in memory: opened with every check a file gets, the
    /// payload checksum included.
    Whole(Arc<[u8]>),
    /// Read range by range, each probe reading only what it needs. The
    /// whole-file checksum cannot be computed without reading the whole
    /// file, so such a table must be compressed: its header, its block
    /// index and distance index are checked when it opens (a sectioned
    /// table's other sections' when a probe first reads them), and every
    /// WDL block and distance part when it is read (a plain table is
    /// refused).
    Ranges(Arc<dyn RangeRead>),
}

impl std::fmt::Debug for StoredTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoredTable::Whole(b) => write!(f, "Whole({} bytes)", b.len()),
            StoredTable::Ranges(r) => write!(f, "Ranges({} bytes)", r.len()),
        }
    }
}

/// Where a table's bytes come from: every read of a table goes through
/// [`with_range`].
pub(crate) enum Source {
    Map(Mmap),
    File(File),
    /// The whole table in memory.
    Bytes(Arc<[u8]>),
    /// Ranges read on demand from another source.
    Ranges(Arc<dyn RangeRead>),
}

thread_local! {
    /// Compressed bytes fetched by positional reads.
    static READ_BUF: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Bytes `at..at + len` of a source held in memory (a map, bytes).
#[inline(always)]
fn in_memory(bytes: &[u8], at: u64, len: usize) -> std::io::Result<&[u8]> {
    usize::try_from(at)
        .ok()
        .and_then(|a| bytes.get(a..a.checked_add(len)?))
        .ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "read beyond the end")
        })
}

/// Runs `f` on bytes `at..at + len` of the source.
#[inline]
pub(crate) fn with_range<R>(
    source: &Source,
    at: u64,
    len: usize,
    f: impl FnOnce(&[u8]) -> R,
) -> std::io::Result<R> {
    match source {
        Source::Map(map) => Ok(f(in_memory(map, at, len)?)),
        Source::Bytes(bytes) => Ok(f(in_memory(bytes, at, len)?)),
        Source::File(file) => READ_BUF.with(|buf| {
            let mut buf = buf.borrow_mut();
            buf.resize(len, 0);
            read_exact_at(file, &mut buf, at)?;
            Ok(f(&buf))
        }),
        Source::Ranges(reader) => READ_BUF.with(|buf| {
            let mut buf = buf.borrow_mut();
            buf.resize(len, 0);
            reader.read_exact_at(&mut buf, at)?;
            Ok(f(&buf))
        }),
    }
}

/// Asks for the cache line holding byte `at` of a mapped source, ahead of
/// its use; nothing for a file source or a byte beyond the end.
#[inline(always)]
pub(crate) fn prefetch(source: &Source, at: u64) {
    if let Source::Map(map) = source {
        if let Some(byte) = usize::try_from(at).ok().and_then(|a| map.get(a)) {
            jungletb_format::prefetch::prefetch(byte);
        }
    }
}

pub(crate) fn read_range(source: &Source, at: u64, len: usize) -> std::io::Result<Vec<u8>> {
    with_range(source, at, len, |b| b.to_vec())
}

#[cfg(unix)]
pub(crate) fn read_exact_at(file: &File, buf: &mut [u8], at: u64) -> std::io::Result<()> {
    use std::os::unix::fs::FileExt;
    file.read_exact_at(buf, at)
}

/// Elsewhere (WebAssembly, WASI): seek, then read. Not atomic, so not for
/// threads sharing a file, which these targets do not have.
#[cfg(not(any(unix, windows)))]
pub(crate) fn read_exact_at(mut file: &File, buf: &mut [u8], at: u64) -> std::io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    file.seek(SeekFrom::Start(at))?;
    file.read_exact(buf)
}

#[cfg(windows)]
pub(crate) fn read_exact_at(file: &File, mut buf: &mut [u8], mut at: u64) -> std::io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        match file.seek_read(buf, at)? {
            0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            n => {
                buf = &mut buf[n..];
                at += n as u64;
            }
        }
    }
    Ok(())
}
