//! The compressed payload of distribution tables (`.jtbz`).
//!
//! A table's values are split in two streams, each cut into independently
//! decodable blocks with a block index, so a probe decodes little:
//!
//! - **WDL** (win / draw / loss for the side to move): the Re-Pair and
//!   Huffman code of [`crate::wdl_code`], 64-byte blocks (62 bytes of codes
//!   and a 2-byte check each) decoded per probe only up to the probed slot (the search path: `probe_wdl` reads only
//!   this stream, and needs no decoded block kept in memory).
//! - **DTM**: the distance halved (a win in `2d + 1` plies or a loss in `2d`
//!   plies stores `d`: the parity is known from the WDL stream), 1 or 2 bytes
//!   each, in blocks of [`DTM_BLOCK_SLOTS`] slots compressed with zstd
//!   (read only when a distance is asked for; a DTM block whose compressed
//!   form is not smaller is stored raw, the stored length tells). A block
//!   is two parts, compressed apart: the distances of its win slots and
//!   those of its loss slots, each in slot order; draws have none. A slot's
//!   entry is its rank among the block's slots of its kind: the file's
//!   rank counts give it up to the slot's WDL block, and the decoder counts
//!   the rest in that block (whole symbols from a table of their wins and
//!   losses). A probe decodes only the part of its kind, about
//!   half the block: so blocks can be larger, which compresses better, for
//!   the same decoding time (measured with `examples/dtm_study.rs`). Each
//!   part has a CRC-32 of its decoded bytes, checked when it is decoded.
//!
//! So every block is checked where it is read: the file's checksum guards
//! the whole payload when a table is opened, the block checks guard each
//! answer against damage that happens later or that the file checksum was
//! made to miss (both are exercised by the tests).
//!
//! Slots whose value is never asked for are "don't care": unused index slots
//! take whatever WDL value extends the current run, and those that become
//! wins or losses there repeat the previous distance of their kind.
//!
//! **Tactical don't-cares** (flag bit 0, written by `jungletb compress`
//! unless told `--no-dont-cares`): a position whose value the side to move
//! already reaches by a *tactical* move — entering the den, or a capture,
//! whose value comes from the smaller table it leads into — may store any
//! WDL value not above its own (loss < draw < win), whichever extends the
//! runs; a probe takes the better of the stored value and the best
//! tactical move ([`crate::Tablebase`] does this search; a lone
//! [`crate::Table`] refuses with [`crate::TableError::NeedsSearch`]). A
//! loss never changes, so a stored loss distance is always right for a
//! position that is a loss. A slot stored as its own kind keeps its
//! distance; one stored as another kind keeps none (its entry repeats the
//! previous one of the stored kind, like an unused slot): a win stored as
//! a draw or a loss gets its distance from a one-ply search (the fastest
//! move to a position lost for the opponent, whose distance is stored).
//! Measured on every 12th four-piece table (71 tables): WDL 0.253 → 0.236
//! bits per position, distances 0.592 → 0.576 (keeping a win's distance
//! in the loss part instead costs 0.614); letting wins be stored only as
//! draws saves nothing on WDL.
//!
//! Tables of more than [`sections::SECTION_SLOTS`] slots (6 pieces) are
//! cut into sections, each one such payload (`JTZ7`, see [`sections`]).
//!
//! Everything a probe needs before it reads a block (the fixed fields,
//! the WDL code and block index, the distance index) comes first, so a
//! reader over HTTP opens a table with one range request, as PMTiles
//! keeps its header and root directory at the front. (`JTZ4`, jungletb
//! 0.2's payload, kept the distance index after the WDL blocks: two
//! requests. It is still read.)
//!
//! Layout (little-endian), after the file header; every length follows
//! from the fixed fields and the index size:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 4 | payload version: `JTZ6`, or `JTZ4` (jungletb 0.2's, still read: the distance index and its check right after the WDL blocks, no zero bytes, then the DTM data); `JTZ3`, without block checkpoints, `JTZ2`, without block checks either, and the first, LZ4-based payload of jungletb 0.2, which began with its block size, 4096, are refused with a message to rerun `jungletb compress` |
//! | 4 | 4 | DTM slots per block |
//! | 8 | 1 | DTM width in bytes (1 or 2) |
//! | 9 | 1 | WDL sparse index shift `k` |
//! | 10 | 1 | flags: bit 0 set if the table stores don't-care values for positions a capture or an immediate win decides (below); other bits 0 |
//! | 11 | 1 | reserved (0) |
//! | 12 | 4 | WDL dictionary symbols `s` |
//! | 16 | 4 | WDL blocks `b` |
//! | 20 | 4 | CRC-32 of the payload from its start to the first WDL block (the distance index included), these 4 bytes left out |
//! | 24 | 8 | DTM data length |
//! | 32 | 8 × s | WDL dictionary: per symbol `left`, `right` (u32 each; see [`crate::wdl_code::Symbol`]) |
//! | … | s | WDL code length per symbol |
//! | … | 8 × b + 4 | block index: per WDL block its first slot (u32) and its checkpoint (u32, see [`crate::wdl_code::Checkpoint`]), then the index size (u32) |
//! | … | 4 × ⌈size / 2^k⌉ | sparse index: the block holding slot `j · 2^k` |
//! | … | 8 × (2 × DTM blocks + 1) | distance index: offsets within the DTM data of each DTM part: part `2k` holds the distances of block `k`'s win slots, part `2k + 1` those of its loss slots (zstd frames) |
//! | … | 8 × 2 × DTM blocks | per DTM part: the CRC-32 of its decoded bytes started from the part number (u32), its entries (u32) |
//! | … | 4 × b | rank counts, per WDL block: the wins and the losses (u16 each) from the first slot of the DTM block holding the WDL block's first slot up to that slot (at most 65,535 slots per DTM block) |
//! | … | 4 | CRC-32 of the distance index: the part offsets, part records and rank counts |
//! | … | | zero padding to a multiple of 64 bytes from the file start |
//! | … | 64 × b | WDL blocks: 62 bytes of codes, then the block check ([`crate::wdl_code::block_check`]) |
//! | … | 8 | zero (the decoder reads up to 8 bytes past a block in place) |
//! | … | | DTM data |
//!
//! DTM blocks: `⌈size / (DTM slots per block)⌉`, so every offset follows
//! from the first 32 bytes and the index size.

mod dtm;
pub mod sections;

use crate::encoding::decode;
use crate::wdl_code::{self, Checkpoint, Decoder, Symbol, BLOCK_BYTES};
pub use dtm::{
    decode_dtm_block, dtm_check, dtm_in_block, value_from, DtmBlockError, DtmIndexAt, DtmPart,
    Section, RANK_BYTES,
};
use jungletb_rules::{Value, Wdl};

/// The payload version tag (the first four bytes).
pub const PAYLOAD_VERSION: [u8; 4] = *b"JTZ6";
/// The payload version of jungletb 0.2: the same as `JTZ6` but for the
/// distance index, after the WDL blocks (and no zero bytes after the
/// blocks, which the index follows). Still read.
pub const PAYLOAD_VERSION_0_2: [u8; 4] = *b"JTZ4";
/// Earlier payload versions (`JTZ2`: no block checks; `JTZ3`: no block
/// checkpoints): refused, with a message to compress again.
const OLDER_VERSIONS: [[u8; 4]; 2] = [*b"JTZ2", *b"JTZ3"];
/// Zero bytes after the last WDL block: the decoder reads a block in
/// place with up to this many bytes past its end.
const READ_AHEAD: usize = 8;
/// Slots per DTM block (two parts of about half as many entries each).
/// Measured on every 12th four-piece table (71 tables, `jungletb compress
/// --level 12`): one stream of 8,192 slots 0.686 bits per position; two
/// parts of 8,192-slot blocks 0.714 (each part half as large compresses
/// worse); two parts of 16,384-slot blocks 0.614, decoding about as many
/// bytes per probe as the single 8,192-slot stream.
pub const DTM_BLOCK_SLOTS: u32 = 16384;
/// zstd level of the DTM parts (`jungletb compress --level`). On the same
/// 71 tables: level 12 0.614 bits per position in 20 s, 15 0.580 in 36 s,
/// 19 0.572 in 59 s (2 threads, WDL included in the times).
pub const DEFAULT_ZSTD_LEVEL: i32 = 15;

const FIXED_LEN: usize = 32;
/// Flag bit of payload byte 10: tactical don't-cares are stored.
const FLAG_DONT_CARES: u8 = 1;
const WDL_DRAW: u8 = 0;
/// WDL stream code of a win for the side to move.
pub const WDL_WIN: u8 = 1;
/// WDL stream code of a loss for the side to move.
pub const WDL_LOSS: u8 = 2;

/// Sizes of a compressed payload, by stream (for reports).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CompressedSizes {
    /// Bytes of the WDL code: dictionary, block index and blocks.
    pub wdl_bytes: u64,
    /// Bytes of DTM blocks plus their index.
    pub dtm_bytes: u64,
}

/// The WDL value the side to move reaches by its best tactical move (see
/// the module docs), per slot, for [`compress_payload`]: `None` where it
/// has none (or the slot holds no position).
pub type TacticalValues = [Option<Wdl>];

/// Builds the compressed payload from the raw values of every slot (see
/// [`crate::encoding`]), to be written at file offset `payload_at` (a
/// multiple of 64). With `tactical` (one entry per slot), positions whose
/// tactical value equals their value become don't-cares. Returns the
/// payload, its DTM width and sizes.
pub fn compress_payload(
    raw: &[u16],
    payload_at: u64,
    zstd_level: i32,
    tactical: Option<&TacticalValues>,
) -> std::io::Result<(Vec<u8>, u8, CompressedSizes)> {
    if tactical.is_some_and(|t| t.len() != raw.len()) {
        return Err(std::io::Error::other(
            "tactical values do not match the slots",
        ));
    }
    if raw.len() as u64 > wdl_code::MAX_SLOTS {
        return Err(std::io::Error::other(format!(
            "{} slots: the compressed format holds at most {}",
            raw.len(),
            wdl_code::MAX_SLOTS
        )));
    }
    let (allowed, mut dtm) = allowed_and_distances(raw, tactical);
    let filled = wdl_code::fill_runs(&allowed);
    drop(allowed);
    let wdl = wdl_code::encode(&filled);
    let width: u8 = if dtm
        .iter()
        .all(|&d| d == dtm::NO_DISTANCE || d <= u8::MAX as u16)
    {
        1
    } else {
        2
    };
    // A don't-care stored as another kind keeps no distance (its entry
    // repeats the previous one of the stored kind): its own distance would
    // be noise among the other kind's, and probes find it by a search.
    // (Without don't-cares every position is stored as its own kind.)
    if tactical.is_some() {
        for ((d, &code), &r) in dtm.iter_mut().zip(&filled).zip(raw) {
            if decode(r).is_some_and(|v| wdl_code_of(v.wdl()) != code) {
                *d = dtm::NO_DISTANCE;
            }
        }
    }
    let dtm_parts = dtm::parts(&filled, &dtm, width);
    drop(dtm);
    let (dtm_offsets, dtm_data) =
        dtm::compress_parts(dtm_parts.iter().map(|b| &b.0[..]), zstd_level)?;

    let mut out = Vec::with_capacity(wdl.stored_bytes() as usize + 64 + dtm_data.len());
    write_wdl_front(&mut out, &wdl, width, tactical.is_some(), dtm_data.len());
    let index_at = out.len();
    for o in &dtm_offsets {
        out.extend_from_slice(&o.to_le_bytes());
    }
    for (_, part) in &dtm_parts {
        out.extend_from_slice(&part.to_bytes());
    }
    for [wins, losses] in dtm::rank_counts(&filled, &wdl.starts[..wdl.starts.len() - 1]) {
        out.extend_from_slice(&wins.to_le_bytes());
        out.extend_from_slice(&losses.to_le_bytes());
    }
    let check = dtm::index_check(&out[index_at..]);
    out.extend_from_slice(&check.to_le_bytes());
    out.resize(
        out.len() + block_padding(payload_at, out.len() as u64) as usize,
        0,
    );
    let check = prefix_check(&out);
    out[20..24].copy_from_slice(&check.to_le_bytes());
    out.extend_from_slice(&wdl.data);
    out.extend_from_slice(&[0; READ_AHEAD]);
    out.extend_from_slice(&dtm_data);
    let sizes = CompressedSizes {
        wdl_bytes: wdl.stored_bytes(),
        dtm_bytes: (8 * dtm_offsets.len()
            + DtmPart::BYTES * dtm_parts.len()
            + RANK_BYTES * (wdl.starts.len() - 1)
            + 4
            + dtm_data.len()) as u64,
    };
    Ok((out, width, sizes))
}

/// Pass 1 of [`compress_payload`]: per slot, the WDL values it may be
/// stored as (a don't-care any not above its tactical value), and its
/// halved distance ([`dtm::NO_DISTANCE`]: no distance to store; two bytes
/// a slot, not the four of an `Option`, for `compress`'s memory).
fn allowed_and_distances(raw: &[u16], tactical: Option<&TacticalValues>) -> (Vec<u8>, Vec<u16>) {
    let mut allowed = vec![0u8; raw.len()];
    let mut dtm: Vec<u16> = Vec::with_capacity(raw.len());
    for (i, &r) in raw.iter().enumerate() {
        let v = decode(r);
        let w = v.map(|v| wdl_code_of(v.wdl()));
        let d = v.and_then(Value::plies).map(|n| n / 2);
        let decided = tactical.and_then(|t| t[i]).map(wdl_code_of);
        allowed[i] = match w {
            None => wdl_code::ANY,
            Some(w) if decided == Some(w) => at_most(w),
            Some(w) => 1 << w,
        };
        dtm.push(d.unwrap_or(dtm::NO_DISTANCE));
    }
    (allowed, dtm)
}

/// The payload's front: version, layout bytes, the WDL dictionary, code
/// lengths, block starts with checkpoints and the sparse index (the
/// padding and prefix check follow in [`compress_payload`]).
fn write_wdl_front(
    out: &mut Vec<u8>,
    wdl: &wdl_code::EncodedWdl,
    width: u8,
    dont_cares: bool,
    dtm_data_len: usize,
) {
    out.extend_from_slice(&PAYLOAD_VERSION);
    out.extend_from_slice(&DTM_BLOCK_SLOTS.to_le_bytes());
    out.push(width);
    out.push(wdl.sparse_shift);
    out.push(if dont_cares { FLAG_DONT_CARES } else { 0 });
    out.push(0);
    out.extend_from_slice(&(wdl.symbols.len() as u32).to_le_bytes());
    out.extend_from_slice(&((wdl.starts.len() - 1) as u32).to_le_bytes());
    out.extend_from_slice(&[0u8; 4]);
    out.extend_from_slice(&(dtm_data_len as u64).to_le_bytes());
    for s in &wdl.symbols {
        out.extend_from_slice(&s.left.to_le_bytes());
        out.extend_from_slice(&s.right.to_le_bytes());
    }
    out.extend_from_slice(&wdl.lens);
    for (start, checkpoint) in wdl.starts.iter().zip(&wdl.checkpoints) {
        out.extend_from_slice(&start.to_le_bytes());
        out.extend_from_slice(&checkpoint.to_le_bytes());
    }
    let size = *wdl.starts.last().expect("the index size ends the starts");
    out.extend_from_slice(&size.to_le_bytes());
    for x in &wdl.sparse {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

/// The stream's code of a WDL value.
fn wdl_code_of(w: Wdl) -> u8 {
    match w {
        Wdl::Draw => WDL_DRAW,
        Wdl::Win => WDL_WIN,
        Wdl::Loss => WDL_LOSS,
    }
}

/// The set (bit per code) of the values not above `code`'s: what a
/// position decided by a tactical move may store.
fn at_most(code: u8) -> u8 {
    match code {
        WDL_WIN => wdl_code::ANY,
        WDL_DRAW => 1 << WDL_DRAW | 1 << WDL_LOSS,
        _ => 1 << WDL_LOSS,
    }
}

/// The check of the payload's prefix (fixed fields, dictionary, code
/// lengths, block index, distance index, padding): CRC-32 of it without bytes 20..24, where
/// it is stored. A damaged run length or block start would decode into
/// wrong values without any block check failing, so the prefix has its own.
fn prefix_check(prefix: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(&prefix[..20]);
    h.update(&prefix[24..]);
    h.finalize()
}

/// Rewrites the inner checks of compressed `payload` (its bytes after the
/// file header, at file offset `payload_at`, of a table of `size` index
/// slots) to match its bytes: the prefix CRC, every WDL block check and
/// every DTM part check whose part still decodes. Returns `false` (and
/// changes nothing) if the payload is not this version's (`JTZ6`) or too
/// damaged to find its prefix.
///
/// For tests and fuzzing only: damage made to pass these checks (and the
/// file's, rewritten by the caller) reaches the validation and decoders
/// behind them, which must still give typed errors and never panic. No
/// reader calls it. Never panics, whatever the bytes.
#[doc(hidden)]
pub fn reseal_checks(payload: &mut [u8], payload_at: u64, size: u64) -> bool {
    if payload.get(..4) != Some(&PAYLOAD_VERSION[..]) {
        return false;
    }
    let Ok(prefix_len) = Layout::prefix_len(payload, payload_at, size) else {
        return false;
    };
    let Some(prefix_len) = usize::try_from(prefix_len)
        .ok()
        .filter(|&p| p <= payload.len())
    else {
        return false;
    };
    let field = |o: usize| u32_at(payload, o).unwrap_or(0) as usize;
    let (stated_blocks, slots, width) = (field(16), field(4) as u64, u64::from(payload[8]));
    let len = payload.len();
    // WDL blocks, as many as the payload holds.
    let blocks = stated_blocks.min((len - prefix_len) / BLOCK_BYTES);
    let body = BLOCK_BYTES - wdl_code::CHECK_BYTES;
    for b in 0..blocks {
        let at = prefix_len + BLOCK_BYTES * b;
        let check = wdl_code::block_check(b as u64, &payload[at..at + body]);
        payload[at + body..at + BLOCK_BYTES].copy_from_slice(&check);
    }
    // DTM blocks whose offsets and bytes still make sense, then the
    // distance index's check, then the prefix's, which covers both.
    if slots > 0 && (1..=2).contains(&width) && blocks == stated_blocks {
        if let Ok(p) = Layout::places(payload, payload_at, size) {
            let parts = 2 * size.div_ceil(slots);
            reseal_dtm(payload, &p.index, p.data_at, parts, slots, width);
        }
    }
    let check = prefix_check(&payload[..prefix_len]);
    payload[20..24].copy_from_slice(&check.to_le_bytes());
    true
}

/// [`reseal_checks`] of the DTM part checks and the distance index check
/// (`index`, data at `data_at`, `dtm_parts` parts of blocks of `slots`
/// slots, `width` bytes a distance).
fn reseal_dtm(
    payload: &mut [u8],
    index: &DtmIndexAt,
    data_at: u64,
    dtm_parts: u64,
    slots: u64,
    width: u64,
) {
    let len = payload.len();
    let (offsets_at, records_at) = (index.offsets, index.records);
    let at = |o: u64| usize::try_from(o).ok().filter(|&o| o <= len);
    let offset = |p: &[u8], k: u64| at(offsets_at.saturating_add(8 * k)).and_then(|o| u64_at(p, o));
    let mut out = Vec::new();
    for k in 0..dtm_parts {
        let meta_at = at(records_at.saturating_add(DtmPart::BYTES as u64 * (k + 1)))
            .map(|end| end - DtmPart::BYTES);
        let (Some(start), Some(end), Some(m)) =
            (offset(payload, k), offset(payload, k + 1), meta_at)
        else {
            break;
        };
        let meta = DtmPart::from_bytes(&payload[m..m + DtmPart::BYTES]);
        // A damaged record may claim any length: a part has at most a
        // block's slots (and no block more than 2^16), so larger ones are
        // left as they are (the reader refuses them).
        if meta.raw_len(width as u8) as u64 > slots.min(1 << 16) * width {
            continue;
        }
        let stored = at(data_at.saturating_add(start))
            .zip(at(data_at.saturating_add(end)))
            .filter(|(s, e)| s <= e)
            .map(|(s, e)| &payload[s..e]);
        out.resize(meta.raw_len(width as u8), 0);
        if let Some(stored) = stored {
            if decode_dtm_block(stored, &mut out).is_ok() {
                let check = dtm_check(k, &out).to_le_bytes();
                payload[m..m + 4].copy_from_slice(&check);
            }
        }
    }
    if let (Some(from), Some(to)) = (at(index.offsets), at(index.end)) {
        if from + 4 <= to {
            let check = dtm::index_check(&payload[from..to - 4]).to_le_bytes();
            payload[to - 4..to].copy_from_slice(&check);
        }
    }
}

/// Zero bytes that put the WDL blocks, which follow `prefix` payload bytes,
/// on a 64-byte boundary of the file.
fn block_padding(payload_at: u64, prefix: u64) -> u64 {
    (64 - (payload_at + prefix) % 64) % 64
}

/// Where the WDL code lives in the file, and its decoder.
#[derive(Debug, Clone)]
pub struct WdlSection {
    /// Huffman tables and dictionary.
    pub decoder: Decoder,
    /// File offset of the block index (per block its first slot and its
    /// checkpoint, u32 each; then the index size).
    pub starts_at: u64,
    /// File offset of the sparse index (u32 each).
    pub sparse_at: u64,
    /// `log2` of the sparse stride.
    pub sparse_shift: u8,
    /// File offset of the first block.
    pub blocks_at: u64,
    /// Number of blocks.
    pub blocks: u64,
    /// Bytes of the WDL code in the file.
    pub stored_bytes: u64,
}

/// The parsed layout of a compressed payload.
#[derive(Debug, Clone)]
pub struct Layout {
    /// The WDL stream: its code and block index.
    pub wdl: WdlSection,
    /// The distance stream's byte range.
    pub dtm: Section,
    /// Index slots of the table.
    pub size: u64,
    /// Bytes of one stored distance (1 or 2).
    pub dtm_width: u8,
    /// Tactical don't-cares are stored (see the module docs).
    pub dont_cares: bool,
}

/// Reads little-endian integers from a byte slice, `None` past its end.
fn u32_at(b: &[u8], o: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(o..o + 4)?.try_into().ok()?))
}

fn u64_at(b: &[u8], o: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(o..o + 8)?.try_into().ok()?))
}

/// Checks the WDL block index of `prefix`: block starts from 0, strictly
/// increasing, ending at the index size, checkpoints inside their blocks,
/// and every sparse entry naming the block that holds its slot.
fn check_block_index(
    prefix: &[u8],
    starts_at: usize,
    sparse_at: usize,
    blocks: u64,
    sparse_shift: u8,
    size: u64,
) -> Result<(), LayoutError> {
    let bad = |m: String| LayoutError::Corrupt(m);
    // Block starts: 0, strictly increasing, ending at the index size;
    // checkpoints inside their blocks.
    let entry = |b: u64, k: usize| u32_at(prefix, starts_at + 8 * b as usize + k).expect("checked");
    let start = |b: u64| entry(b, 0) as u64;
    if (size > 0 && blocks == 0) || start(0) != 0 || start(blocks) != size {
        return Err(bad("WDL block starts do not cover the table".into()));
    }
    for b in 0..blocks {
        if start(b + 1) <= start(b) {
            return Err(bad(format!("WDL block {b} starts out of order")));
        }
        let (bit, skip) = Checkpoint::unpack(entry(b, 4));
        let none = entry(b, 4) == Checkpoint::NONE;
        if !none && (bit >= wdl_code::PAYLOAD_BITS || skip >= start(b + 1) - start(b)) {
            return Err(bad(format!("WDL block {b}: checkpoint outside the block")));
        }
    }
    // Sparse index: entry j names the block holding slot j << shift.
    for j in 0..size.div_ceil(1 << sparse_shift) {
        let b = u32_at(prefix, sparse_at + 4 * j as usize).expect("checked") as u64;
        let s = j << sparse_shift;
        if b >= blocks || start(b) > s || start(b + 1) <= s {
            return Err(bad(format!("WDL sparse index entry {j}")));
        }
    }
    Ok(())
}

impl Layout {
    /// Length of the fixed fields.
    pub const FIXED_LEN: usize = FIXED_LEN;

    /// From the fixed fields (the first [`Layout::FIXED_LEN`] bytes of the
    /// payload, at file offset `payload_at`): the length of everything
    /// before the WDL blocks (fixed fields, dictionary, block index,
    /// distance index, padding): what opening the table reads. An error
    /// names what is wrong, including a payload of an older version.
    pub fn prefix_len(fixed: &[u8], payload_at: u64, size: u64) -> Result<u64, LayoutError> {
        if fixed.len() < FIXED_LEN {
            return Err(LayoutError::Corrupt(
                "compressed payload shorter than its fixed fields".into(),
            ));
        }
        if fixed[..4] != PAYLOAD_VERSION && fixed[..4] != PAYLOAD_VERSION_0_2 {
            return Err(
                if u32_at(fixed, 0) == Some(4096) || OLDER_VERSIONS.iter().any(|v| fixed[..4] == *v)
                {
                    LayoutError::OldVersion
                } else {
                    LayoutError::Corrupt("unknown compressed payload version".into())
                },
            );
        }
        let shift = fixed[9];
        if shift >= 64 {
            return Err(LayoutError::Corrupt(format!("sparse shift {shift}")));
        }
        Ok(Self::places(fixed, payload_at, size)?.blocks_at)
    }

    /// Where the parts of the payload lie, from the fixed fields (checked
    /// by [`Layout::prefix_len`]): `JTZ6` keeps the distance index in the
    /// prefix, `JTZ4` after the WDL blocks.
    fn places(fixed: &[u8], payload_at: u64, size: u64) -> Result<Places, LayoutError> {
        let field = |o: usize| u32_at(fixed, o).expect("fixed fields") as u64;
        let (dtm_slots, symbols, blocks) = (field(4), field(12), field(16));
        if dtm_slots == 0 {
            return Err(LayoutError::Corrupt("0 DTM slots per block".into()));
        }
        let sparse = size.div_ceil(1 << fixed[9]);
        let front = FIXED_LEN as u64 + 9 * symbols + 8 * blocks + 4 + 4 * sparse;
        let dtm_parts = 2 * size.div_ceil(dtm_slots);
        let pad = |end: u64| end + block_padding(payload_at, end);
        let blocks_len = blocks.saturating_mul(BLOCK_BYTES as u64);
        Ok(if fixed[..4] == PAYLOAD_VERSION_0_2 {
            let blocks_at = pad(front);
            let index = DtmIndexAt::new(blocks_at.saturating_add(blocks_len), blocks, dtm_parts);
            Places {
                blocks_at,
                index,
                data_at: index.end,
            }
        } else {
            let index = DtmIndexAt::new(front, blocks, dtm_parts);
            let blocks_at = pad(index.end);
            Places {
                blocks_at,
                index,
                data_at: blocks_at
                    .saturating_add(blocks_len)
                    .saturating_add(READ_AHEAD as u64),
            }
        })
    }

    /// Parses and checks the layout. `prefix` is the start of the payload
    /// (at least [`Layout::prefix_len`] bytes), `payload_at` its file
    /// offset, `payload_len` its length, `size` the index size. The
    /// dictionary, the code and every block start and offset are checked
    /// here.
    pub fn parse(
        prefix: &[u8],
        payload_at: u64,
        payload_len: u64,
        size: u64,
    ) -> Result<Layout, LayoutError> {
        let bad = |m: String| LayoutError::Corrupt(m);
        let prefix_len = Self::prefix_len(prefix, payload_at, size)?;
        let short = || bad("compressed payload too short for its block index".into());
        if (prefix.len() as u64) < prefix_len {
            return Err(short());
        }
        let dtm_slots = u32_at(prefix, 4).expect("fixed fields") as u64;
        let dtm_width = prefix[8];
        let sparse_shift = prefix[9];
        let n_symbols = u32_at(prefix, 12).expect("fixed fields") as usize;
        let blocks = u32_at(prefix, 16).expect("fixed fields") as u64;
        let dtm_len = u64_at(prefix, 24).expect("fixed fields");
        if dtm_slots == 0 || dtm_slots > u64::from(u16::MAX) {
            return Err(bad(format!("{dtm_slots} DTM slots per block")));
        }
        if dtm_width != 1 && dtm_width != 2 {
            return Err(bad(format!("distance width {dtm_width}")));
        }
        if prefix[10] & !FLAG_DONT_CARES != 0 || prefix[11] != 0 {
            return Err(bad("unknown flags or non-zero reserved bytes".into()));
        }
        let dont_cares = prefix[10] & FLAG_DONT_CARES != 0;
        let prefix_len_usize = prefix_len as usize;
        if u32_at(prefix, 20) != Some(prefix_check(&prefix[..prefix_len_usize])) {
            return Err(bad("the dictionary or block index fails its check".into()));
        }
        // Dictionary and code.
        let dict_at = FIXED_LEN;
        let lens_at = dict_at + 8 * n_symbols;
        let symbols: Vec<Symbol> = (0..n_symbols)
            .map(|i| Symbol {
                left: u32_at(prefix, dict_at + 8 * i).expect("checked length"),
                right: u32_at(prefix, dict_at + 8 * i + 4).expect("checked length"),
            })
            .collect();
        let lens = &prefix[lens_at..lens_at + n_symbols];
        let decoder = Decoder::new(&symbols, lens).map_err(|e| bad(format!("WDL code: {e}")))?;
        let starts_at = lens_at + n_symbols;
        let sparse_at = starts_at + 8 * blocks as usize + 4;
        check_block_index(prefix, starts_at, sparse_at, blocks, sparse_shift, size)?;
        let dtm_blocks = size.div_ceil(dtm_slots);
        let Places {
            blocks_at,
            index,
            data_at,
        } = Self::places(prefix, payload_at, size)?;
        let expected = data_at.checked_add(dtm_len);
        if expected != Some(payload_len) {
            return Err(bad(format!(
                "payload of {payload_len} bytes, its block index implies {}",
                expected.map_or("more than 2^64".to_string(), |e| e.to_string())
            )));
        }
        let wdl = WdlSection {
            decoder,
            starts_at: payload_at + starts_at as u64,
            sparse_at: payload_at + sparse_at as u64,
            sparse_shift,
            blocks_at: payload_at + blocks_at,
            blocks,
            stored_bytes: 9 * n_symbols as u64
                + 8 * blocks
                + 4
                + 4 * size.div_ceil(1 << sparse_shift)
                + BLOCK_BYTES as u64 * blocks,
        };
        let dtm = Section {
            block_slots: dtm_slots,
            blocks: dtm_blocks,
            offsets_at: payload_at + index.offsets,
            records_at: payload_at + index.records,
            ranks_at: payload_at + index.ranks,
            index_len: index.end - index.offsets,
            data_at: payload_at + data_at,
            data_len: dtm_len,
        };
        Ok(Layout {
            wdl,
            dtm,
            size,
            dtm_width,
            dont_cares,
        })
    }

    /// Checks the DTM part offsets and records, read from `index` (the
    /// `8 × (parts + 1)` bytes of offsets at `dtm.offsets_at`, then the
    /// records): in order, within the data, no part longer than its
    /// decoded form, no block with more wins and losses than slots.
    pub fn check_dtm_index(&self, index: &[u8]) -> Result<(), LayoutError> {
        let s = &self.dtm;
        let short =
            || LayoutError::Corrupt("compressed payload too short for its DTM index".into());
        let n = usize::try_from(s.index_len).map_err(|_| short())?;
        if index.len() < n || n < 4 {
            return Err(short());
        }
        if u32_at(index, n - 4) != Some(dtm::index_check(&index[..n - 4])) {
            return Err(LayoutError::Corrupt(
                "the distance index fails its check".into(),
            ));
        }
        let parts = 2 * s.blocks;
        let records = 8 * (parts as usize + 1);
        let record = |p: u64| {
            let at = records + DtmPart::BYTES * p as usize;
            index
                .get(at..at + DtmPart::BYTES)
                .map(DtmPart::from_bytes)
                .ok_or_else(short)
        };
        let mut prev = 0u64;
        for p in 0..=parts {
            let o = u64_at(index, 8 * p as usize).ok_or_else(short)?;
            let first_ok = p != 0 || o == 0;
            let last_ok = p != parts || o == s.data_len;
            if o < prev || o > s.data_len || !first_ok || !last_ok {
                return Err(LayoutError::Corrupt(format!(
                    "DTM part offset {p} out of order"
                )));
            }
            if p > 0 && (o - prev) as usize > record(p - 1)?.raw_len(self.dtm_width) {
                return Err(LayoutError::Corrupt(format!(
                    "DTM part {} longer than its raw form",
                    p - 1
                )));
            }
            prev = o;
        }
        for k in 0..s.blocks {
            let entries = u64::from(record(2 * k)?.entries) + u64::from(record(2 * k + 1)?.entries);
            if entries > s.slots_of(k, self.size) {
                return Err(LayoutError::Corrupt(format!(
                    "DTM block {k}: more wins and losses than slots"
                )));
            }
        }
        Ok(())
    }
}

/// Payload offsets of the WDL blocks, the distance index and the DTM data
/// (see [`Layout::places`]).
struct Places {
    blocks_at: u64,
    index: DtmIndexAt,
    data_at: u64,
}

/// Why a compressed payload cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LayoutError {
    /// An older compressed payload: the first (LZ4-based) one of jungletb
    /// 0.2, or `JTZ2` (no block checks).
    OldVersion,
    /// Damaged or inconsistent.
    Corrupt(String),
}

/// The [`Wdl`] of a WDL code value.
#[inline]
pub fn wdl_of(code: u8) -> Option<Wdl> {
    match code {
        WDL_DRAW => Some(Wdl::Draw),
        WDL_WIN => Some(Wdl::Win),
        WDL_LOSS => Some(Wdl::Loss),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::encode;

    /// A payload of wins, losses and draws over a few DTM blocks, written at
    /// file offset 64, and its layout.
    fn sample() -> (Vec<u8>, Layout) {
        let raw: Vec<u16> = (0..40_000u32)
            .map(|i| {
                encode(match i % 7 {
                    0 | 1 => Value::Win(1 + 2 * (i % 5) as u16),
                    2 | 3 => Value::Loss(2 * (i % 3) as u16),
                    _ => Value::Draw,
                })
                .unwrap()
            })
            .collect();
        let (payload, _, _) = compress_payload(&raw, 64, 3, None).unwrap();
        let layout = Layout::parse(&payload, 64, payload.len() as u64, raw.len() as u64).unwrap();
        (payload, layout)
    }

    /// The distance index's check covers the rank counts: a flipped bit
    /// there (which no part check would notice: it only picks another
    /// entry) fails it, and so does one in the part records.
    #[test]
    fn damaged_rank_counts_fail_the_index_check() {
        let (payload, layout) = sample();
        let at = |file: u64| (file - 64) as usize;
        let index =
            at(layout.dtm.offsets_at)..at(layout.dtm.offsets_at) + layout.dtm.index_len as usize;
        layout.check_dtm_index(&payload[index.clone()]).unwrap();
        for damaged_at in [at(layout.dtm.ranks_at) + 1, at(layout.dtm.records_at) + 5] {
            let mut damaged = payload.clone();
            damaged[damaged_at] ^= 4;
            let err = layout.check_dtm_index(&damaged[index.clone()]).unwrap_err();
            assert!(
                matches!(err, LayoutError::Corrupt(ref m) if m.contains("check")),
                "{err:?}"
            );
        }
    }
}
