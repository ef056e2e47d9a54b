//! Writing table files: a temporary file in the target directory, renamed
//! into place only once complete and synced.

use crate::error::ProbeError;
use crate::table::Table;
use crate::tablebase::{compressed_table_path, table_path, Tablebase};
use jungletb_format::compressed::{self, sections, CompressedSizes};
use jungletb_format::encoding::{decode, RAW_UNUSED};
use jungletb_format::header::{Header, SideStats, FORMAT_VERSION};
use jungletb_format::TableError;
use jungletb_indexer::PositionIndex;
use jungletb_rules::{Ruleset, Value};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Summary of a written table.
#[derive(Debug, Clone)]
pub struct TableStats {
    /// The header written.
    pub header: Header,
    /// The final path.
    pub path: PathBuf,
    /// File size in bytes.
    pub bytes: u64,
}

/// The size in bytes of the plain table of `index`'s material under `rules`
/// with values of `value_width` bytes (1 or 2): its header and a value a
/// slot. A solve learns the width only at the end (2 once a distance passes
/// 255 plies), so `plain_table_len(rules, index, 1)` is the least a table
/// can take, what a disk must hold before the solve starts.
pub fn plain_table_len(rules: &Ruleset, index: &PositionIndex, value_width: u8) -> u64 {
    Header::len_for(&rules.canonical_string(), &index.material()) as u64
        + index.size() * value_width as u64
}

/// Writes the table of `index`'s material under `rules` into `dir` (the rule
/// set's directory) from raw values (one per slot, one or two bytes, see
/// [`jungletb_format::encoding`]). The file appears under its final name only when
/// complete; an existing file of that name is replaced atomically.
pub fn write_table<R: Copy + Into<u16>>(
    dir: &Path,
    rules: &Ruleset,
    index: &PositionIndex,
    raw: &[R],
) -> Result<TableStats, TableError> {
    let material = index.material();
    let path = table_path(dir, material);
    if raw.len() as u64 != index.size() {
        return Err(TableError::Corrupt {
            path: path.clone(),
            what: format!("{} values for {} slots", raw.len(), index.size()),
        });
    }
    let half = if index.white_to_move_only() {
        u64::MAX
    } else {
        index.size() / 2
    };
    let mut sides = [SideStats::default(); 2];
    let mut max_raw = 0u16;
    for (i, r) in raw.iter().enumerate() {
        let r: u16 = (*r).into();
        if r == RAW_UNUSED {
            continue;
        }
        max_raw = max_raw.max(r);
        let s = &mut sides[(i as u64 >= half) as usize];
        s.positions += 1;
        match decode(r).expect("used slot") {
            Value::Win(n) => {
                s.wins += 1;
                s.longest_win = s.longest_win.max(n);
            }
            Value::Loss(n) => {
                s.losses += 1;
                s.longest_loss = s.longest_loss.max(n);
            }
            Value::Draw => s.draws += 1,
        }
    }
    let value_width: u8 = if max_raw <= u8::MAX as u16 { 1 } else { 2 };
    let ruleset = rules.canonical_string();
    let mut header = Header {
        format_version: FORMAT_VERSION,
        index_scheme_version: jungletb_indexer::INDEX_SCHEME_VERSION,
        ruleset_id: rules.id(),
        ruleset: ruleset.clone(),
        material,
        index_size: index.size(),
        value_width,
        white_to_move_only: index.white_to_move_only(),
        compressed: false,
        header_len: Header::len_for(&ruleset, &material),
        payload_len: index.size() * value_width as u64,
        payload_crc: 0,
        sides,
    };
    write_atomically(dir, &path, &mut header, |w, crc| {
        let mut chunk = Vec::with_capacity(1 << 16);
        for block in raw.chunks(1 << 15) {
            chunk.clear();
            for r in block {
                let r: u16 = (*r).into();
                if value_width == 1 {
                    chunk.push(r as u8);
                } else {
                    chunk.extend_from_slice(&r.to_le_bytes());
                }
            }
            crc.update(&chunk);
            w.write_all(&chunk)?;
        }
        Ok(())
    })?;
    let bytes = header.header_len as u64 + header.payload_len;
    debug_assert_eq!(bytes, plain_table_len(rules, index, value_width));
    Ok(TableStats {
        header,
        path,
        bytes,
    })
}

/// Writes the compressed distribution table (`.jtbz`, see
/// [`jungletb_format::compressed`]) of the plain table `table` into `dir`, with
/// distance blocks at zstd level `zstd_level`. Given `dont_cares`, a
/// tablebase holding the tables `table`'s captures lead into, positions
/// decided by a capture or an immediate win store don't-care values (a
/// smaller WDL stream; probes recover them by a search). Like
/// [`write_table`], the file appears under its final name only when
/// complete. The caller should check the result answers the same values
/// (the compress operation of `jungletb-solver` does, with
/// [`Tablebase::same_answers`]). Fails with a [`ProbeError`] when the
/// search for the don't-cares cannot probe a table it needs.
pub fn write_compressed_table(
    dir: &Path,
    table: &Table,
    zstd_level: i32,
    dont_cares: Option<&Tablebase>,
) -> Result<(TableStats, CompressedSizes), ProbeError> {
    let size = table.index().size();
    let per = if sections::needs_sections(size) {
        sections::SECTION_SLOTS
    } else {
        size
    };
    write_compressed_table_in_sections(dir, table, zstd_level, dont_cares, per)
}

/// [`write_compressed_table`] cut into sections of `per` slots (a multiple
/// of the DTM block) whenever the table has more: for tests of the
/// sectioned payload on small tables.
#[doc(hidden)]
pub fn write_compressed_table_in_sections(
    dir: &Path,
    table: &Table,
    zstd_level: i32,
    dont_cares: Option<&Tablebase>,
    per: u64,
) -> Result<(TableStats, CompressedSizes), ProbeError> {
    let material = table.header().material;
    let path = compressed_table_path(dir, material);
    let size = table.index().size();
    let mut header = table.header().clone();
    header.header_len = Header::len_for(&header.ruleset, &header.material);
    let payload_at = header.header_len as u64;
    let compressing = |e| TableError::io(&path, "compressing", e);
    // One payload over the slots of `range`, for a 64-byte aligned file
    // offset (the header's length is a multiple of 64).
    let part = |range: std::ops::Range<u64>| -> Result<_, ProbeError> {
        let raw = table.raw_values_in(range.clone())?;
        let tactical = match dont_cares {
            None => None,
            Some(tb) => Some(tb.tactical_values_in(table, range)?),
        };
        compressed::compress_payload(&raw, payload_at, zstd_level, tactical.as_deref())
            .map_err(|e| compressing(e).into())
    };
    let (parts, head) = if size > per {
        // Sections built in parallel on the thread pool, one a thread:
        // about 10 bytes a slot each while it is built (85 MB for 2^23
        // slots, see `sections`).
        use rayon::prelude::*;
        let parts = sections::section_ranges(size, per)
            .into_par_iter()
            .map(part)
            .collect::<Result<Vec<_>, _>>()?;
        let lens: Vec<u64> = parts.iter().map(|p| p.0.len() as u64).collect();
        let (head, offsets) = sections::lay_out(payload_at, per, &lens);
        (parts, Some((head, offsets)))
    } else {
        (vec![part(0..size)?], None)
    };
    let width = parts.iter().map(|p| p.1).max().expect("a part");
    let sizes = parts
        .iter()
        .fold(CompressedSizes::default(), |a, p| CompressedSizes {
            wdl_bytes: a.wdl_bytes + p.2.wdl_bytes,
            dtm_bytes: a.dtm_bytes + p.2.dtm_bytes,
        });
    header.compressed = true;
    header.value_width = width;
    header.payload_len = match &head {
        None => parts[0].0.len() as u64,
        Some((_, offsets)) => {
            offsets.last().expect("sections") + parts.last().expect("a part").0.len() as u64
        }
    };
    write_atomically(dir, &path, &mut header, |w, crc| {
        let mut put = |bytes: &[u8]| {
            crc.update(bytes);
            w.write_all(bytes)
        };
        match &head {
            None => put(&parts[0].0),
            Some((head, offsets)) => {
                put(head)?;
                let mut written = head.len() as u64;
                for (p, &o) in parts.iter().zip(offsets) {
                    put(&vec![0u8; (o - written) as usize])?;
                    put(&p.0)?;
                    written = o + p.0.len() as u64;
                }
                Ok(())
            }
        }
    })?;
    let bytes = header.header_len as u64 + header.payload_len;
    Ok((
        TableStats {
            header,
            path,
            bytes,
        },
        sizes,
    ))
}

/// Writes `header` and the payload `write_payload` produces (which also
/// feeds the payload checksum) to a temporary file in `dir`, then renames it
/// to `path` once complete and synced. An existing file at `path` is
/// replaced atomically; nothing is left behind on error.
fn write_atomically(
    dir: &Path,
    path: &Path,
    header: &mut Header,
    write_payload: impl FnOnce(&mut dyn Write, &mut crc32fast::Hasher) -> std::io::Result<()>,
) -> Result<(), TableError> {
    let io = |e: std::io::Error| TableError::io(path, "writing", e);
    std::fs::create_dir_all(dir).map_err(io)?;
    let tmp = tempfile::Builder::new()
        .prefix(&format!(".{}.", header.material))
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(io)?;
    let mut payload_crc = crc32fast::Hasher::new();
    {
        let mut w = BufWriter::with_capacity(1 << 20, tmp.as_file());
        // Placeholder header; rewritten once the payload checksum is known.
        w.write_all(&header.to_bytes()).map_err(io)?;
        write_payload(&mut w, &mut payload_crc).map_err(io)?;
        w.flush().map_err(io)?;
    }
    header.payload_crc = payload_crc.finalize();
    {
        use std::io::{Seek, SeekFrom};
        let mut f = tmp.as_file();
        f.seek(SeekFrom::Start(0)).map_err(io)?;
        f.write_all(&header.to_bytes()).map_err(io)?;
        f.sync_all().map_err(io)?;
    }
    #[cfg(unix)]
    {
        // tempfile creates files readable by the owner only; tables are data
        // to share.
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o644)).map_err(io)?;
    }
    tmp.persist(path).map_err(|e| io(e.error))?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all(); // make the rename durable where supported
    }
    Ok(())
}
