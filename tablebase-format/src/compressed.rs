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
//!   per slot, blocks of [`DTM_BLOCK_SLOTS`] slots compressed with zstd
//!   (read only when a distance is asked for; a DTM block whose compressed
//!   form is not smaller is stored raw, the stored length tells). Each DTM
//!   block has a CRC-32 of its decoded bytes, checked when it is decoded.
//!
//! So every block is checked where it is read: the file's checksum guards
//! the whole payload when a table is opened, the block checks guard each
//! answer against damage that happens later or that the file checksum was
//! made to miss (both are exercised by the tests).
//!
//! Slots whose value is never asked for are "don't care": unused index slots
//! (both streams) take whatever value extends the current run, and draws
//! repeat the previous distance (DTM).
//!
//! Layout (little-endian), after the file header; every length follows
//! from the fixed fields and the index size:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 4 | payload version: `JTZ4` (`JTZ3`, the same without block checkpoints, `JTZ2`, without block checks either, and the first, LZ4-based payload of jungletb 0.2, which began with its block size, 4096, are refused with a message to rerun `jungletb compress`) |
//! | 4 | 4 | DTM slots per block |
//! | 8 | 1 | DTM width in bytes (1 or 2) |
//! | 9 | 1 | WDL sparse index shift `k` |
//! | 10 | 2 | reserved (0) |
//! | 12 | 4 | WDL dictionary symbols `s` |
//! | 16 | 4 | WDL blocks `b` |
//! | 20 | 4 | CRC-32 of the payload from its start to the first WDL block, these 4 bytes left out |
//! | 24 | 8 | DTM data length |
//! | 32 | 8 × s | WDL dictionary: per symbol `left`, `right` (u32 each; see [`crate::wdl_code::Symbol`]) |
//! | … | s | WDL code length per symbol |
//! | … | 8 × b + 4 | block index: per WDL block its first slot (u32) and its checkpoint (u32, see [`crate::wdl_code::Checkpoint`]), then the index size (u32) |
//! | … | 4 × ⌈size / 2^k⌉ | sparse index: the block holding slot `j · 2^k` |
//! | … | | zero padding to a multiple of 64 bytes from the file start |
//! | … | 64 × b | WDL blocks: 62 bytes of codes, then the block check ([`crate::wdl_code::block_check`]) |
//! | … | 8 × (DTM blocks + 1) | DTM block offsets within the DTM data |
//! | … | 4 × DTM blocks | CRC-32 of each decoded DTM block, started from the block number |
//! | … | | DTM data |

use crate::encoding::decode;
use crate::wdl_code::{self, Checkpoint, Decoder, Symbol, BLOCK_BYTES};
use jungletb_rules::{Value, Wdl};

/// The payload version tag (the first four bytes).
pub const PAYLOAD_VERSION: [u8; 4] = *b"JTZ4";
/// Earlier payload versions (`JTZ2`: no block checks; `JTZ3`: no block
/// checkpoints): refused, with a message to compress again.
const OLDER_VERSIONS: [[u8; 4]; 2] = [*b"JTZ2", *b"JTZ3"];
/// Slots per DTM block.
pub const DTM_BLOCK_SLOTS: u32 = 8192;
/// zstd level for DTM blocks (`jungletb compress --level`): 19 writes
/// about 7 % smaller distance blocks in about three times the time.
pub const DEFAULT_ZSTD_LEVEL: i32 = 12;

const FIXED_LEN: usize = 32;
const WDL_DRAW: u8 = 0;
const WDL_WIN: u8 = 1;
const WDL_LOSS: u8 = 2;

/// Sizes of a compressed payload, by stream (for reports).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CompressedSizes {
    /// Bytes of the WDL code: dictionary, block index and blocks.
    pub wdl_bytes: u64,
    /// Bytes of DTM blocks plus their index.
    pub dtm_bytes: u64,
}

/// Builds the compressed payload from the raw values of every slot (see
/// [`crate::encoding`]), to be written at file offset `payload_at` (a
/// multiple of 64). Returns the payload, its DTM width and sizes.
pub(crate) fn compress_payload(
    raw: &[u16],
    payload_at: u64,
    zstd_level: i32,
) -> std::io::Result<(Vec<u8>, u8, CompressedSizes)> {
    if raw.len() as u64 > wdl_code::MAX_SLOTS {
        return Err(std::io::Error::other(format!(
            "{} slots: the compressed format holds at most {}",
            raw.len(),
            wdl_code::MAX_SLOTS
        )));
    }
    // Pass 1: the two raw streams, don't-care slots marked or filled in.
    let mut allowed = vec![0u8; raw.len()];
    let mut dtm: Vec<u16> = Vec::with_capacity(raw.len());
    let mut last_d = 0u16;
    for (i, &r) in raw.iter().enumerate() {
        let (w, d) = match decode(r) {
            None => (None, last_d),
            Some(Value::Draw) => (Some(WDL_DRAW), last_d),
            Some(Value::Win(n)) => (Some(WDL_WIN), n / 2),
            Some(Value::Loss(n)) => (Some(WDL_LOSS), n / 2),
        };
        allowed[i] = w.map_or(wdl_code::ANY, |w| 1 << w);
        last_d = d;
        dtm.push(d);
    }
    let wdl = wdl_code::encode(&wdl_code::fill_runs(&allowed));
    drop(allowed);
    let width: u8 = if dtm.iter().all(|&d| d <= u8::MAX as u16) {
        1
    } else {
        2
    };
    let dtm_bytes: Vec<u8> = if width == 1 {
        dtm.iter().map(|&d| d as u8).collect()
    } else {
        dtm.iter().flat_map(|d| d.to_le_bytes()).collect()
    };
    drop(dtm);
    let dtm_block_bytes = DTM_BLOCK_SLOTS as usize * width as usize;
    let (dtm_offsets, dtm_data) = blocks(&dtm_bytes, dtm_block_bytes, |b| {
        zstd::bulk::compress(b, zstd_level)
    })?;
    let dtm_checks: Vec<u32> = dtm_bytes
        .chunks(dtm_block_bytes)
        .enumerate()
        .map(|(k, b)| dtm_check(k as u64, b))
        .collect();

    let mut out = Vec::with_capacity(wdl.stored_bytes() as usize + 64 + dtm_data.len());
    out.extend_from_slice(&PAYLOAD_VERSION);
    out.extend_from_slice(&DTM_BLOCK_SLOTS.to_le_bytes());
    out.push(width);
    out.push(wdl.sparse_shift);
    out.extend_from_slice(&[0u8; 2]);
    out.extend_from_slice(&(wdl.symbols.len() as u32).to_le_bytes());
    out.extend_from_slice(&((wdl.starts.len() - 1) as u32).to_le_bytes());
    out.extend_from_slice(&[0u8; 4]);
    out.extend_from_slice(&(dtm_data.len() as u64).to_le_bytes());
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
    out.resize(
        out.len() + block_padding(payload_at, out.len() as u64) as usize,
        0,
    );
    let check = prefix_check(&out);
    out[20..24].copy_from_slice(&check.to_le_bytes());
    out.extend_from_slice(&wdl.data);
    for o in &dtm_offsets {
        out.extend_from_slice(&o.to_le_bytes());
    }
    for c in &dtm_checks {
        out.extend_from_slice(&c.to_le_bytes());
    }
    out.extend_from_slice(&dtm_data);
    let sizes = CompressedSizes {
        wdl_bytes: wdl.stored_bytes(),
        dtm_bytes: (8 * dtm_offsets.len() + 4 * dtm_checks.len() + dtm_data.len()) as u64,
    };
    Ok((out, width, sizes))
}

/// The check of the payload's prefix (fixed fields, dictionary, code
/// lengths, block index, padding): CRC-32 of it without bytes 20..24, where
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
/// every DTM block check whose block still decodes. Returns `false` (and
/// changes nothing) if the payload is not this version's or too damaged to
/// find its prefix.
///
/// For tests and fuzzing only: damage made to pass these checks (and the
/// file's, rewritten by the caller) reaches the validation and decoders
/// behind them, which must still give typed errors and never panic. No
/// reader calls it. Never panics, whatever the bytes.
#[doc(hidden)]
pub fn reseal_checks(payload: &mut [u8], payload_at: u64, size: u64) -> bool {
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
    let check = prefix_check(&payload[..prefix_len]);
    payload[20..24].copy_from_slice(&check.to_le_bytes());
    // WDL blocks, as many as the payload holds.
    let blocks = stated_blocks.min((len - prefix_len) / BLOCK_BYTES);
    let body = BLOCK_BYTES - wdl_code::CHECK_BYTES;
    for b in 0..blocks {
        let at = prefix_len + BLOCK_BYTES * b;
        let check = wdl_code::block_check(b as u64, &payload[at..at + body]);
        payload[at + body..at + BLOCK_BYTES].copy_from_slice(&check);
    }
    // DTM blocks whose offsets and bytes still make sense.
    if slots == 0 || !(1..=2).contains(&width) || blocks != stated_blocks {
        return true;
    }
    // Saturating: `size` and the fields may be anything here.
    let dtm_blocks = size.div_ceil(slots);
    let block_bytes = slots * width;
    let (offsets_at, checks_at, data_at) =
        dtm_index_offsets(prefix_len as u64, blocks as u64, dtm_blocks);
    let at = |o: u64| usize::try_from(o).ok().filter(|&o| o <= len);
    let offset = |p: &[u8], k: u64| at(offsets_at.saturating_add(8 * k)).and_then(|o| u64_at(p, o));
    let mut out = Vec::new();
    for k in 0..dtm_blocks {
        let (Some(start), Some(end), Some(c)) = (
            offset(payload, k),
            offset(payload, k + 1),
            at(checks_at.saturating_add(4 * k + 4)),
        ) else {
            break;
        };
        let stored = at(data_at.saturating_add(start))
            .zip(at(data_at.saturating_add(end)))
            .filter(|(s, e)| s <= e)
            .map(|(s, e)| &payload[s..e]);
        let raw = size
            .saturating_mul(width)
            .saturating_sub(k * block_bytes)
            .min(block_bytes);
        out.resize(raw as usize, 0);
        if let Some(stored) = stored {
            if decode_dtm_block(stored, &mut out).is_ok() {
                payload[c - 4..c].copy_from_slice(&dtm_check(k, &out).to_le_bytes());
            }
        }
    }
    true
}

/// Payload offsets of the DTM block offsets, block checks and data, after
/// `wdl_blocks` WDL blocks starting at `blocks_at`, for `dtm_blocks` DTM
/// blocks (the layout table above). Saturating: a payload that claims
/// impossible sizes gets offsets past its end, which the callers refuse.
fn dtm_index_offsets(blocks_at: u64, wdl_blocks: u64, dtm_blocks: u64) -> (u64, u64, u64) {
    let offsets_at = blocks_at.saturating_add(wdl_blocks.saturating_mul(BLOCK_BYTES as u64));
    let checks_at = offsets_at.saturating_add(dtm_blocks.saturating_add(1).saturating_mul(8));
    let data_at = checks_at.saturating_add(dtm_blocks.saturating_mul(4));
    (offsets_at, checks_at, data_at)
}

/// The check of decoded DTM block number `k` (its raw bytes): CRC-32
/// started from `k`.
pub(crate) fn dtm_check(k: u64, raw: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new_with_initial(k as u32);
    h.update(raw);
    h.finalize()
}

/// Zero bytes that put the WDL blocks, which follow `prefix` payload bytes,
/// on a 64-byte boundary of the file.
fn block_padding(payload_at: u64, prefix: u64) -> u64 {
    (64 - (payload_at + prefix) % 64) % 64
}

/// Cuts `raw` into blocks of `block_bytes`, compresses each (kept raw when
/// that is not smaller) and returns the offsets (blocks + 1) and the data.
fn blocks(
    raw: &[u8],
    block_bytes: usize,
    compress: impl Fn(&[u8]) -> std::io::Result<Vec<u8>>,
) -> std::io::Result<(Vec<u64>, Vec<u8>)> {
    let mut offsets = vec![0u64];
    let mut data = Vec::new();
    for block in raw.chunks(block_bytes) {
        let c = compress(block)?;
        if c.len() < block.len() {
            data.extend_from_slice(&c);
        } else {
            data.extend_from_slice(block);
        }
        offsets.push(data.len() as u64);
    }
    Ok((offsets, data))
}

/// Where the WDL code lives in the file, and its decoder.
#[derive(Debug, Clone)]
pub(crate) struct WdlSection {
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

/// Where the DTM stream lives in the file.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Section {
    /// Slots per block.
    pub block_slots: u64,
    /// Bytes per raw block (all but the last).
    pub block_bytes: u64,
    /// Number of blocks.
    pub blocks: u64,
    /// File offset of the block offsets.
    pub offsets_at: u64,
    /// File offset of the block checks (u32 each, see [`dtm_check`]).
    pub checks_at: u64,
    /// File offset of the data.
    pub data_at: u64,
    /// Data length.
    pub data_len: u64,
}

impl Section {
    /// The block holding `slot` and the slot's position in it.
    #[inline]
    pub fn locate(&self, slot: u64) -> (u64, u64) {
        (slot / self.block_slots, slot % self.block_slots)
    }

    /// Raw (decoded) length of block `k` of a stream of `total` raw bytes.
    #[inline]
    pub fn raw_len(&self, k: u64, total: u64) -> usize {
        (total - k * self.block_bytes).min(self.block_bytes) as usize
    }
}

/// The parsed layout of a compressed payload.
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    pub wdl: WdlSection,
    pub dtm: Section,
    /// Raw bytes of the whole DTM stream.
    pub dtm_raw: u64,
    pub dtm_width: u8,
}

/// Reads little-endian integers from a byte slice, `None` past its end.
fn u32_at(b: &[u8], o: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(o..o + 4)?.try_into().ok()?))
}

fn u64_at(b: &[u8], o: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(o..o + 8)?.try_into().ok()?))
}

impl Layout {
    /// Length of the fixed fields.
    pub const FIXED_LEN: usize = FIXED_LEN;

    /// From the fixed fields (the first [`Layout::FIXED_LEN`] bytes of the
    /// payload, at file offset `payload_at`): the length of everything
    /// before the WDL blocks (fixed fields, dictionary, block index,
    /// padding). An error names what is wrong, including a payload of an
    /// older version.
    pub fn prefix_len(fixed: &[u8], payload_at: u64, size: u64) -> Result<u64, LayoutError> {
        if fixed.len() < FIXED_LEN {
            return Err(LayoutError::Corrupt(
                "compressed payload shorter than its fixed fields".into(),
            ));
        }
        if fixed[..4] != PAYLOAD_VERSION {
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
        let symbols = u32_at(fixed, 12).expect("fixed fields") as u64;
        let blocks = u32_at(fixed, 16).expect("fixed fields") as u64;
        let sparse = size.div_ceil(1 << shift);
        let prefix = FIXED_LEN as u64 + 9 * symbols + 8 * blocks + 4 + 4 * sparse;
        Ok(prefix + block_padding(payload_at, prefix))
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
        if dtm_slots == 0 {
            return Err(bad("zero DTM slots per block".into()));
        }
        if dtm_width != 1 && dtm_width != 2 {
            return Err(bad(format!("distance width {dtm_width}")));
        }
        if prefix[10..12].iter().any(|&b| b != 0) {
            return Err(bad("non-zero reserved bytes".into()));
        }
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
        // Block starts: 0, strictly increasing, ending at the index size;
        // checkpoints inside their blocks.
        let starts_at = lens_at + n_symbols;
        let entry =
            |b: u64, k: usize| u32_at(prefix, starts_at + 8 * b as usize + k).expect("checked");
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
        let sparse_at = starts_at + 8 * blocks as usize + 4;
        for j in 0..size.div_ceil(1 << sparse_shift) {
            let b = u32_at(prefix, sparse_at + 4 * j as usize).expect("checked") as u64;
            let s = j << sparse_shift;
            if b >= blocks || start(b) > s || start(b + 1) <= s {
                return Err(bad(format!("WDL sparse index entry {j}")));
            }
        }
        let blocks_at = prefix_len;
        let dtm_blocks = size.div_ceil(dtm_slots);
        let (dtm_offsets_at, dtm_checks_at, dtm_data_at) =
            dtm_index_offsets(blocks_at, blocks, dtm_blocks);
        let expected = dtm_data_at.checked_add(dtm_len);
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
            block_bytes: dtm_slots * dtm_width as u64,
            blocks: dtm_blocks,
            offsets_at: payload_at + dtm_offsets_at,
            checks_at: payload_at + dtm_checks_at,
            data_at: payload_at + dtm_data_at,
            data_len: dtm_len,
        };
        Ok(Layout {
            wdl,
            dtm,
            dtm_raw: size * dtm_width as u64,
            dtm_width,
        })
    }

    /// Checks the DTM block offsets, read from `offsets` (the
    /// `8 × (blocks + 1)` bytes at `dtm.offsets_at`).
    pub fn check_dtm_offsets(&self, offsets: &[u8]) -> Result<(), LayoutError> {
        let s = &self.dtm;
        let mut prev = 0u64;
        for k in 0..=s.blocks {
            let o = u64_at(offsets, 8 * k as usize).ok_or_else(|| {
                LayoutError::Corrupt("compressed payload too short for its DTM index".into())
            })?;
            let first_ok = k != 0 || o == 0;
            let last_ok = k != s.blocks || o == s.data_len;
            if o < prev || o > s.data_len || !first_ok || !last_ok {
                return Err(LayoutError::Corrupt(format!(
                    "DTM block offset {k} out of order"
                )));
            }
            if k > 0 && (o - prev) as usize > s.raw_len(k - 1, self.dtm_raw) {
                return Err(LayoutError::Corrupt(format!(
                    "DTM block {} longer than its raw form",
                    k - 1
                )));
            }
            prev = o;
        }
        Ok(())
    }
}

/// Why a compressed payload cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum LayoutError {
    /// An older compressed payload: the first (LZ4-based) one of jungletb
    /// 0.2, or `JTZ2` (no block checks).
    OldVersion,
    /// Damaged or inconsistent.
    Corrupt(String),
}

/// Decodes one DTM block (`stored`) into `out` (its raw length).
pub(crate) fn decode_dtm_block(stored: &[u8], out: &mut [u8]) -> Result<(), String> {
    if stored.len() == out.len() {
        out.copy_from_slice(stored);
        return Ok(());
    }
    let n = ZSTD.with(|z| {
        let mut z = z.borrow_mut();
        if z.is_none() {
            *z = Some(zstd::bulk::Decompressor::new().map_err(|e| e.to_string())?);
        }
        z.as_mut()
            .expect("just created")
            .decompress_to_buffer(stored, out)
            .map_err(|e| e.to_string())
    })?;
    if n != out.len() {
        return Err(format!("DTM block decodes to {n} bytes, not {}", out.len()));
    }
    Ok(())
}

thread_local! {
    /// One zstd decompression context per thread (creating one allocates).
    static ZSTD: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
        const { std::cell::RefCell::new(None) };
}

/// The [`Wdl`] of a WDL code value.
#[inline]
pub(crate) fn wdl_of(code: u8) -> Option<Wdl> {
    match code {
        WDL_DRAW => Some(Wdl::Draw),
        WDL_WIN => Some(Wdl::Win),
        WDL_LOSS => Some(Wdl::Loss),
        _ => None,
    }
}
/// The halved distance of slot `j` of a decoded DTM block.
#[inline]
pub(crate) fn dtm_in_block(block: &[u8], j: u64, width: u8) -> u16 {
    if width == 1 {
        block[j as usize] as u16
    } else {
        let o = 2 * j as usize;
        u16::from_le_bytes([block[o], block[o + 1]])
    }
}

/// Rebuilds a value from its WDL and halved distance.
#[inline]
pub(crate) fn value_from(wdl: Wdl, half: u16) -> Value {
    match wdl {
        Wdl::Draw => Value::Draw,
        // Saturating: a corrupt distance must not overflow (the writer never
        // stores one above `MAX_PLIES / 2`).
        Wdl::Win => Value::Win(half.saturating_mul(2).saturating_add(1)),
        Wdl::Loss => Value::Loss(half.saturating_mul(2)),
    }
}
