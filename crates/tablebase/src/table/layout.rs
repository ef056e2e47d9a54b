//! Reading a compressed table's layout when it opens: one `JTZ6` payload
//! or the sections of a `JTZ7` one, each part's fixed fields and prefix
//! (the distance index in it), checked before any probe reads a block.

use super::compressed_read::{Compressed, Part};
use super::{read_range, Source};
use jungletb_format::compressed::{sections, Layout, LayoutError};
use jungletb_format::{TableError, Unsupported};
use std::path::Path;

/// The layout of the compressed payload at `offset` of a table of `len`
/// bytes and `slots` slots read from `source` (`path` names it in errors).
pub(super) fn parse(
    source: &Source,
    path: &Path,
    offset: u64,
    len: u64,
    slots: u64,
) -> Result<Compressed, TableError> {
    let io = |e| TableError::from_io(path, "reading", e);
    let corrupt = |what: String| TableError::Corrupt {
        path: path.to_path_buf(),
        what,
    };
    let layout_error = |e| match e {
        LayoutError::OldVersion => TableError::UnsupportedVersion {
            path: path.to_path_buf(),
            what: Unsupported::OldCompressedPayload,
        },
        LayoutError::Corrupt(m) => corrupt(m),
    };
    let payload_len = len - offset;
    // Every range read here: what opening the table reads (the header's
    // first 64 KiB aside), for callers that fetch it ahead.
    let mut opened: Vec<(u64, u64)> = Vec::new();
    let mut read = |at: u64, n: usize| {
        opened.push((at, n as u64));
        read_range(source, at, n).map_err(io)
    };
    let fixed_len = (Layout::FIXED_LEN as u64).min(payload_len) as usize;
    let fixed = read(offset, fixed_len)?;
    // One JTZ6 payload over the whole table, or sections of them.
    let (per_part, ranges) = if sections::is_sectioned(&fixed) {
        let count = sections::stated_sections(&fixed).map_err(layout_error)?;
        let table_len = sections::table_len(count).min(payload_len) as usize;
        let table = read(offset, table_len)?;
        let (per, parts) =
            sections::parse(&table, offset, payload_len, slots).map_err(layout_error)?;
        (
            per,
            parts
                .into_iter()
                .map(|s| (s.first_slot, s.slots, s.at, s.len))
                .collect(),
        )
    } else {
        (slots.max(1), vec![(0, slots, offset, payload_len)])
    };
    let mut parts = Vec::with_capacity(ranges.len());
    let mut first_dtm_part = 0;
    for (first_slot, slots, at, part_len) in ranges {
        let fixed_len = (Layout::FIXED_LEN as u64).min(part_len) as usize;
        let fixed = read(at, fixed_len)?;
        let prefix_len = Layout::prefix_len(&fixed, at, slots).map_err(layout_error)?;
        let prefix = read(at, prefix_len.min(part_len) as usize)?;
        let layout = Layout::parse(&prefix, at, part_len, slots).map_err(layout_error)?;
        // The distance index lies in the prefix (`JTZ6`), or after the
        // WDL blocks (`JTZ4`): read apart.
        let index_len =
            usize::try_from(layout.dtm.index_len).map_err(|_| corrupt("DTM index".into()))?;
        let in_prefix = usize::try_from(layout.dtm.offsets_at - at)
            .ok()
            .and_then(|from| prefix.get(from..from.checked_add(index_len)?));
        let apart;
        let dtm_index = match in_prefix {
            Some(index) => index,
            None => {
                apart = read(layout.dtm.offsets_at, index_len)?;
                &apart[..]
            }
        };
        layout.check_dtm_index(dtm_index).map_err(layout_error)?;
        let dtm_parts = 2 * layout.dtm.blocks;
        if parts
            .first()
            .is_some_and(|p: &Part| p.layout.dont_cares != layout.dont_cares)
        {
            return Err(corrupt("sections disagree on don't-cares".into()));
        }
        parts.push(Part {
            layout,
            first_slot,
            first_dtm_part,
        });
        first_dtm_part += dtm_parts;
    }
    Ok(Compressed {
        parts,
        per_part,
        opened,
    })
}
