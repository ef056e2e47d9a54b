//! A compressed table's layout (`Compressed`: its parts, each a `Part`
//! once parsed) and its reading: one `JTZ6` payload, or the
//! section table of a `JTZ7` one at open and each section's fixed fields
//! and prefix (the distance index in it) when a probe first reads the
//! section, checked before any probe reads one of its blocks.
//!
//! Why sections open when first read: a 6-piece table has about a thousand
//! sections (8.26 × 10⁹ slots in sections of 2^23), and reading every
//! prefix at open cost two reads a section: some 2,000 HTTP ranges to open
//! `ECRvECR` in a browser, about 60 for a 5-piece table, where a probe
//! needs one or two sections.

use super::{read_range, Source};
use jungletb_format::compressed::{sections, Layout, LayoutError};
use jungletb_format::{TableError, Unsupported};
use std::path::Path;
use std::sync::OnceLock;

/// Bytes read first of a section opened by a probe: its fixed fields and,
/// in the same read, the prefix that follows them unless it is longer (a
/// section of 2^23 slots of ELTvET or ECRvECR has a prefix of 60–110 KB;
/// with 64 KiB, a cold probe of ELTvET took a round more). Over HTTP, one
/// request instead of two rounds.
const FIRST_READ: u64 = 128 << 10;

/// One `JTZ6` payload of a compressed table: the whole table, or one
/// section of a sectioned (`JTZ7`) one. Slots passed with a part are
/// numbered within it.
#[derive(Debug)]
pub(super) struct Part {
    pub(super) layout: Layout,
    /// The table slot of its slot 0.
    pub(super) first_slot: u64,
    /// Its number among the table's parts (in the per-thread cache's key).
    pub(super) section: u64,
    /// Its decoded DTM parts kept for later probes (empty unless the table
    /// has a budget for them).
    pub(super) kept: BlockStore,
}

/// Where a part lies in the file.
#[derive(Debug, Clone, Copy)]
pub(super) struct Place {
    /// The table slot of its slot 0.
    pub(super) first_slot: u64,
    /// Its slots.
    pub(super) slots: u64,
    /// File offset of its payload.
    pub(super) at: u64,
    /// Bytes of its payload.
    pub(super) len: u64,
}

/// A compressed table's payload: its parts, every one but the last of
/// `per_part` slots, each parsed when first read (the first at open).
#[derive(Debug)]
pub(super) struct Compressed {
    pub(super) places: Vec<Place>,
    pub(super) parts: Box<[OnceLock<Part>]>,
    pub(super) per_part: u64,
    /// True if the table stores tactical don't-cares (every part agrees,
    /// checked as each is parsed).
    pub(super) dont_cares: bool,
    /// The byte ranges (start, length) read to parse the layout at open.
    pub(super) opened: Vec<(u64, u64)>,
}

/// Decoded blocks of one stream, kept once decoded (within the budget).
pub(super) type BlockStore = Box<[OnceLock<Box<[u8]>>]>;

/// An empty store for every DTM part of `part`.
pub(super) fn new_block_store(part: &Part) -> BlockStore {
    (0..2 * part.layout.dtm.blocks)
        .map(|_| OnceLock::new())
        .collect()
}

/// Maps a [`LayoutError`] of the table at `path` to its [`TableError`].
fn layout_error(path: &Path) -> impl Fn(LayoutError) -> TableError + '_ {
    move |e| match e {
        LayoutError::OldVersion => TableError::UnsupportedVersion {
            path: path.to_path_buf(),
            what: Unsupported::OldCompressedPayload,
        },
        LayoutError::Corrupt(what) => TableError::Corrupt {
            path: path.to_path_buf(),
            what,
        },
    }
}

/// The layout of the compressed payload at `offset` of a table of `len`
/// bytes and `slots` slots read from `source` (`path` names it in errors):
/// where its parts lie, and the first part's layout (which says whether
/// the table stores don't-cares).
pub(super) fn parse(
    source: &Source,
    path: &Path,
    offset: u64,
    len: u64,
    slots: u64,
) -> Result<Compressed, TableError> {
    let io = |e| TableError::from_io(path, "reading", e);
    let payload_len = len - offset;
    // Every range read here: what opening the table reads (the header's
    // first 64 KiB aside), for callers that fetch it ahead.
    let mut opened: Vec<(u64, u64)> = Vec::new();
    let fixed_len = (Layout::FIXED_LEN as u64).min(payload_len) as usize;
    opened.push((offset, fixed_len as u64));
    let fixed = read_range(source, offset, fixed_len).map_err(io)?;
    // One JTZ6 payload over the whole table, or sections of them.
    let (per_part, places) = if sections::is_sectioned(&fixed) {
        let count = sections::stated_sections(&fixed).map_err(layout_error(path))?;
        let table_len = sections::table_len(count).min(payload_len) as usize;
        opened.push((offset, table_len as u64));
        let table = read_range(source, offset, table_len).map_err(io)?;
        let (per, parts) =
            sections::parse(&table, offset, payload_len, slots).map_err(layout_error(path))?;
        let places = parts
            .into_iter()
            .map(|s| Place {
                first_slot: s.first_slot,
                slots: s.slots,
                at: s.at,
                len: s.len,
            })
            .collect();
        (per, places)
    } else {
        let whole = Place {
            first_slot: 0,
            slots,
            at: offset,
            len: payload_len,
        };
        (slots.max(1), vec![whole])
    };
    let sections = places.len() as u64;
    let (first, read) = parse_part(source, path, &places[0], 0, sections, false)?;
    opened.extend(read);
    let dont_cares = first.layout.dont_cares;
    let parts: Box<[OnceLock<Part>]> = places.iter().map(|_| OnceLock::new()).collect();
    parts[0].set(first).expect("a new cell");
    Ok(Compressed {
        places,
        parts,
        per_part,
        dont_cares,
        opened,
    })
}

/// The layout of part `section` (at `place`) of a table of `sections`
/// parts: its fixed fields, prefix and distance index read and checked,
/// and the ranges read for it; its kept blocks left empty. `ahead` reads
/// the fixed fields and what follows them in one read (a section opened
/// by a probe: one request over HTTP, not two rounds); else the fixed
/// fields first, then the prefix (at open, where the caller may fetch
/// both together from `Table::open_ranges`).
pub(super) fn parse_part(
    source: &Source,
    path: &Path,
    place: &Place,
    section: u64,
    sections: u64,
    ahead: bool,
) -> Result<(Part, Vec<(u64, u64)>), TableError> {
    let mut read: Vec<(u64, u64)> = Vec::new();
    let layout = part_layout(source, path, place, ahead, &mut read).map_err(|e| match e {
        TableError::Corrupt { path, what } if sections > 1 => TableError::Corrupt {
            path,
            what: format!("section {section} of {sections}: {what}"),
        },
        e => e,
    })?;
    let part = Part {
        layout,
        first_slot: place.first_slot,
        section,
        kept: Box::new([]),
    };
    Ok((part, read))
}

/// [`parse_part`]'s layout, the ranges it reads noted in `read`.
fn part_layout(
    source: &Source,
    path: &Path,
    place: &Place,
    ahead: bool,
    read: &mut Vec<(u64, u64)>,
) -> Result<Layout, TableError> {
    let io = |e| TableError::from_io(path, "reading", e);
    let corrupt = |what: String| TableError::Corrupt {
        path: path.to_path_buf(),
        what,
    };
    let &Place {
        slots,
        at,
        len: part_len,
        ..
    } = place;
    let first_entry = read.len();
    let mut read_at = |at: u64, n: usize| {
        read.push((at, n as u64));
        read_range(source, at, n).map_err(io)
    };
    let fixed_len = (Layout::FIXED_LEN as u64).min(part_len);
    let first_len = if ahead {
        FIRST_READ.min(part_len)
    } else {
        fixed_len
    };
    let first = read_at(at, first_len as usize)?;
    let prefix_len =
        Layout::prefix_len(&first[..fixed_len as usize], at, slots).map_err(layout_error(path))?;
    let prefix_len = prefix_len.min(part_len) as usize;
    let longer;
    let prefix = match first.get(..prefix_len) {
        Some(prefix) => prefix,
        None => {
            longer = read_at(at, prefix_len)?;
            &longer[..]
        }
    };
    let layout = Layout::parse(prefix, at, part_len, slots).map_err(layout_error(path))?;
    // The distance index lies in the prefix (`JTZ6`), or after the WDL
    // blocks (`JTZ4`): read apart.
    let index_len =
        usize::try_from(layout.dtm.index_len).map_err(|_| corrupt("DTM index".into()))?;
    let in_prefix = usize::try_from(layout.dtm.offsets_at - at)
        .ok()
        .and_then(|from| prefix.get(from..from.checked_add(index_len)?));
    let apart;
    let dtm_index = match in_prefix {
        Some(index) => index,
        None => {
            apart = read_at(layout.dtm.offsets_at, index_len)?;
            &apart[..]
        }
    };
    layout
        .check_dtm_index(dtm_index)
        .map_err(layout_error(path))?;
    // Of a read ahead, only the prefix is the layout's (the rest is WDL
    // blocks, read again by the probes that need them).
    read[first_entry].1 = read[first_entry].1.min(prefix_len as u64);
    Ok(layout)
}
