//! Checkpoints: a solve stopped by a signal (Slurm's time limit or
//! preemption sends SIGTERM first) saves its whole state, and the same
//! solve started again resumes from it.
//!
//! Between levels the whole state of a solve is its cells and the level
//! (the counts per code are taken again from the cells on resuming); within
//! a level, also the chunks of 2^16 slots already run. A solve may stop
//! between two chunks: the resumed solve runs that level's other chunks,
//! and only those (a chunk run twice would count its wins down twice).
//! Updates within a level commute and every chunk starts from this state
//! alone, so a resumed solve writes the same bytes as one that never
//! stopped (tested at several levels, on one and more threads).
//!
//! The file is written beside the tables as `<material>.checkpoint.tmp`
//! and renamed to `<material>.checkpoint` once complete and synced, so a
//! full disk or a kill during the write leaves the previous checkpoint (or
//! none) and never a file that looks like a table. It names the jungletb
//! version, the material, the rule set and the index size, and ends with
//! a CRC-32 of everything before it: a checkpoint of another version,
//! material or rule set, or a damaged one, is refused with
//! [`SolveError::CheckpointRefused`], never used.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | `JTBCKPB4` (one-byte cells) or `JTBCKPW1` (two-byte cells) |
//! | 8 | 2 + v | the jungletb version (`u16` length, UTF-8) |
//! | … | 2 + m | the material (`u16` length, UTF-8) |
//! | … | 8 | the rule set's id |
//! | … | 8 | index slots `n` |
//! | … | 2 + 2 | the level to run next, the highest level run |
//! | … | n × width | the cells (little-endian) |
//! | … | 8⌈n / 2^22⌉ | a bit for each chunk of that level already run (0 between levels) |
//! | … | 4 | CRC-32 of the bytes above |
//!
//! Integers are little-endian. Refused with a message that says why:
//! `JTBCKPT1`, of the 16-bit solver earlier builds had beside this one;
//! `JTBCKPB1` and `JTBCKPB2`, of builds whose bytes held floors instead of
//! counts; `JTBCKPB3`, of builds whose sweep left positions open to a den
//! entry for level 1 to count down (this one's level 1 passes them by).

use crate::error::SolveError;
use crate::solve::work::WorkArray;
use jungletb_indexer::Material;
use jungletb_rules::Ruleset;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;

/// The checkpoint of a solve in one-byte cells.
const MAGIC_BYTES: &[u8; 8] = b"JTBCKPB4";
/// The checkpoint of a solve in two-byte cells.
const MAGIC_WIDE: &[u8; 8] = b"JTBCKPW1";
/// The checkpoint of the 16-bit solver of earlier builds.
const MAGIC_SIXTEEN: &[u8; 8] = b"JTBCKPT1";
/// The checkpoints of one-byte solves of earlier builds, whose bytes held
/// floors instead of counts (1, 2) or counts this build's level 1 no
/// longer counts down (3, see `levels.rs`): they would be misread, so
/// they are refused.
const MAGIC_BYTES_OLD: [&[u8; 8]; 3] = [b"JTBCKPB1", b"JTBCKPB2", b"JTBCKPB3"];

/// The magic of a checkpoint of cells of `width` bytes.
fn magic_of(width: usize) -> &'static [u8; 8] {
    if width == 1 {
        MAGIC_BYTES
    } else {
        MAGIC_WIDE
    }
}

/// The checkpoint file of `material` in the tables directory `dir`.
pub fn checkpoint_path(dir: &Path, material: Material) -> PathBuf {
    dir.join(format!("{material}.checkpoint"))
}

/// What a checkpoint belongs to.
pub(crate) struct Identity<'a> {
    pub(crate) material: Material,
    pub(crate) rules: &'a Ruleset,
    pub(crate) slots: u64,
    /// Bytes of a cell.
    pub(crate) width: usize,
}

/// A writer that keeps the CRC-32 of what passes through it.
struct Checked<W> {
    inner: W,
    crc: crc32fast::Hasher,
}

impl<W: Write> Write for Checked<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// A reader that keeps the CRC-32 of what passes through it.
struct CheckedRead<R> {
    inner: R,
    crc: crc32fast::Hasher,
}

impl<R: Read> Read for CheckedRead<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }
}

fn write_text(w: &mut impl Write, s: &str) -> std::io::Result<()> {
    w.write_all(&(s.len() as u16).to_le_bytes())?;
    w.write_all(s.as_bytes())
}

/// Saves the state of a solve at `path` (through `path.tmp`, renamed and
/// synced when complete): its cells, the level to run next (or to finish)
/// and the highest level run, and the chunks of that level already run: a
/// bitmap of `done_words` words, `done` (empty when none is).
pub(crate) fn save(
    path: &Path,
    id: &Identity<'_>,
    cells: &WorkArray,
    (level, highest): (u16, u16),
    (done, done_words): (&[u64], usize),
) -> Result<(), SolveError> {
    let tmp = tmp_path(path);
    let write = || -> std::io::Result<()> {
        let file = std::fs::File::create(&tmp)?;
        let mut w = Checked {
            inner: BufWriter::with_capacity(1 << 20, file),
            crc: crc32fast::Hasher::new(),
        };
        w.write_all(magic_of(id.width))?;
        write_text(&mut w, env!("CARGO_PKG_VERSION"))?;
        write_text(&mut w, &id.material.to_string())?;
        w.write_all(&id.rules.id().to_le_bytes())?;
        w.write_all(&id.slots.to_le_bytes())?;
        w.write_all(&level.to_le_bytes())?;
        w.write_all(&highest.to_le_bytes())?;
        w.write_all(&cells.bytes()[..id.slots as usize * id.width])?;
        for k in 0..done_words {
            w.write_all(&done.get(k).copied().unwrap_or(0).to_le_bytes())?;
        }
        let crc = w.crc.clone().finalize();
        let mut file = w.inner.into_inner().map_err(|e| e.into_error())?;
        file.write_all(&crc.to_le_bytes())?;
        file.sync_all()
    };
    let done = write().and_then(|()| std::fs::rename(&tmp, path));
    done.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        SolveError::io(path, "writing the checkpoint", e)
    })
}

fn tmp_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".tmp");
    PathBuf::from(name)
}

/// The width of the cells a checkpoint at `path` holds; `None` if there
/// is no file or it is no checkpoint of this build (loading it then says
/// why).
pub(crate) fn saved_width(path: &Path) -> Option<usize> {
    let mut found = [0u8; 8];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut found))
        .ok()?;
    match &found {
        MAGIC_BYTES => Some(1),
        MAGIC_WIDE => Some(2),
        _ => None,
    }
}

/// Loads the checkpoint at `path` into `cells` (zeroed, `id.slots` cells of
/// `id.width` bytes in words), refusing one of another version, material,
/// rule set, size or width, or a damaged one (its identity is checked
/// before its cells are read, its CRC-32 after). The level to run next and
/// the highest level run, and the chunks of that level already run (a
/// bitmap of `done_words` words).
pub(crate) fn load(
    path: &Path,
    id: &Identity<'_>,
    cells: &WorkArray,
    done_words: usize,
) -> Result<((u16, u16), Vec<u64>), SolveError> {
    let refused = |reason: String| SolveError::CheckpointRefused {
        path: path.to_path_buf(),
        reason,
    };
    let io = |e: std::io::Error| {
        if e.kind() == std::io::ErrorKind::UnexpectedEof {
            refused("it ends early".into())
        } else {
            SolveError::io(path, "reading the checkpoint", e)
        }
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let file_len = file.metadata().map_err(io)?.len();
    let mut r = CheckedRead {
        inner: BufReader::with_capacity(1 << 20, file),
        crc: crc32fast::Hasher::new(),
    };
    let mut found = [0u8; 8];
    r.read_exact(&mut found).map_err(io)?;
    if &found != magic_of(id.width) {
        return Err(refused(
            match &found {
                MAGIC_SIXTEEN => {
                    "a checkpoint of the 16-bit solver of an earlier build, which this build \
                     no longer has (remove it: the solve starts again)"
                }
                MAGIC_BYTES => "a checkpoint of a solve in one-byte cells",
                MAGIC_WIDE => "a checkpoint of a solve in two-byte cells",
                m if MAGIC_BYTES_OLD.contains(&m) => {
                    "a checkpoint of an earlier build's one-byte cells, which this build reads otherwise"
                }
                _ => "not a jungletb checkpoint",
            }
            .into(),
        ));
    }
    let version = read_text(&mut r).map_err(io)?;
    if version != env!("CARGO_PKG_VERSION") {
        return Err(refused(format!(
            "written by jungletb {version}, this is {}",
            env!("CARGO_PKG_VERSION")
        )));
    }
    let material = read_text(&mut r).map_err(io)?;
    if material != id.material.to_string() {
        return Err(refused(format!("a checkpoint of {material}")));
    }
    let rules = u64::from_le_bytes(le(&mut r).map_err(io)?);
    if rules != id.rules.id() {
        return Err(refused(format!(
            "of rule set id {rules:016x}, not {:016x}",
            id.rules.id()
        )));
    }
    let slots = u64::from_le_bytes(le(&mut r).map_err(io)?);
    let (n, done_bytes) = (id.slots as usize * id.width, done_words as u64 * 8);
    let head = 8 + 2 + version.len() as u64 + 2 + material.len() as u64 + 8 + 8 + 4;
    if slots != id.slots || file_len < head + n as u64 + done_bytes {
        return Err(refused(format!(
            "{slots} slots in {file_len} bytes, for a table of {}",
            id.slots
        )));
    }
    let level = u16::from_le_bytes(le(&mut r).map_err(io)?);
    let highest = u16::from_le_bytes(le(&mut r).map_err(io)?);
    let read_cells = |r: &mut CheckedRead<_>| -> std::io::Result<Vec<u64>> {
        let words = cells.atomic_u64();
        let mut buf = vec![0u8; 1 << 16];
        for (k, chunk) in words.chunks(1 << 13).enumerate() {
            let start = k << 16;
            let len = (n - start).min(1 << 16);
            buf.fill(0);
            r.read_exact(&mut buf[..len])?;
            for (w, b) in chunk.iter().zip(buf.chunks_exact(8)) {
                w.store(u64::from_le_bytes(b.try_into().expect("8 bytes")), Relaxed);
            }
        }
        (0..done_words)
            .map(|_| le(r).map(u64::from_le_bytes))
            .collect()
    };
    let done = read_cells(&mut r).map_err(io)?;
    let crc = r.crc.clone().finalize();
    let mut stored = [0u8; 4];
    r.inner.read_exact(&mut stored).map_err(io)?;
    let mut rest = [0u8; 1];
    let trailing = r.inner.read(&mut rest).map_err(io)?;
    if u32::from_le_bytes(stored) != crc || trailing != 0 {
        return Err(refused("it fails its check".into()));
    }
    Ok(((level, highest), done))
}

fn read_text(r: &mut impl Read) -> std::io::Result<String> {
    let len = u16::from_le_bytes(le(r)?) as usize;
    let mut b = vec![0u8; len];
    r.read_exact(&mut b)?;
    String::from_utf8(b).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}

/// The next `N` bytes of `r`: a little-endian integer's.
fn le<const N: usize>(r: &mut impl Read) -> std::io::Result<[u8; N]> {
    let mut b = [0u8; N];
    r.read_exact(&mut b)?;
    Ok(b)
}
