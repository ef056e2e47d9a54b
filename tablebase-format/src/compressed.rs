//! The compressed payload of distribution tables (`.jtbz`).
//!
//! A table's values are split in two streams, each cut into independently
//! decodable blocks with a block index, so a probe decodes one small block:
//!
//! - **WDL**: 2 bits per slot (0 draw, 1 win, 2 loss for the side to move),
//!   4 slots per byte, blocks of [`WDL_BLOCK_SLOTS`] slots compressed with
//!   LZ4 (the fast decoder: `probe_wdl`, the search path, reads only these).
//! - **DTM**: the distance halved (a win in `2d + 1` plies or a loss in `2d`
//!   plies stores `d`: the parity is known from the WDL stream), 1 or 2 bytes
//!   per slot, blocks of [`DTM_BLOCK_SLOTS`] slots compressed with zstd
//!   (better ratio, slower: read only when a distance is asked for).
//!
//! Slots whose value is never asked for are "don't care": unused index slots
//! (both streams) and draws (DTM) repeat the previous slot's value, which
//! lengthens the runs the compressors see. A block whose compressed form is
//! not smaller than its raw form is stored raw (the stored length tells).
//!
//! Layout (little-endian), after the file header:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 4 | WDL slots per block (a multiple of 4) |
//! | 4 | 4 | DTM slots per block |
//! | 8 | 1 | DTM width in bytes (1 or 2) |
//! | 9 | 7 | reserved (0) |
//! | 16 | 8 | WDL data length |
//! | 24 | 8 | DTM data length |
//! | 32 | 8 × (WDL blocks + 1) | WDL block offsets within the WDL data |
//! | … | 8 × (DTM blocks + 1) | DTM block offsets within the DTM data |
//! | … | | WDL data, then DTM data |

use crate::encoding::{decode, RAW_UNUSED};
use jungletb_rules::{Value, Wdl};

/// Slots per WDL block: 1 KiB of 2-bit values. Smaller blocks decode
/// faster and compress worse (see the README's measurements).
pub const WDL_BLOCK_SLOTS: u32 = 4096;
/// Slots per DTM block.
pub const DTM_BLOCK_SLOTS: u32 = 32768;
/// zstd level for DTM blocks.
pub const DEFAULT_ZSTD_LEVEL: i32 = 12;

const FIXED_LEN: usize = 32;
const WDL_DRAW: u8 = 0;
const WDL_WIN: u8 = 1;
const WDL_LOSS: u8 = 2;

/// Which stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stream {
    Wdl,
    Dtm,
}

/// Sizes of a compressed payload, by stream (for reports).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CompressedSizes {
    /// Bytes of WDL blocks plus their index.
    pub wdl_bytes: u64,
    /// Bytes of DTM blocks plus their index.
    pub dtm_bytes: u64,
}

/// Builds the compressed payload from the raw values of every slot (see
/// [`crate::encoding`]). Returns the payload, its DTM width and sizes.
pub(crate) fn compress_payload(
    raw: &[u16],
    zstd_level: i32,
) -> std::io::Result<(Vec<u8>, u8, CompressedSizes)> {
    // Pass 1: the two raw streams, don't-care slots filled in.
    let size = raw.len() as u64;
    let mut wdl = vec![0u8; size.div_ceil(4) as usize];
    let mut dtm: Vec<u16> = Vec::with_capacity(raw.len());
    let (mut last_wdl, mut last_d) = (WDL_DRAW, 0u16);
    for (i, &r) in raw.iter().enumerate() {
        let i = i as u64;
        let (w, d) = match decode(r) {
            None => (last_wdl, last_d),
            Some(Value::Draw) => (WDL_DRAW, last_d),
            Some(Value::Win(n)) => (WDL_WIN, n / 2),
            Some(Value::Loss(n)) => (WDL_LOSS, n / 2),
        };
        if r != RAW_UNUSED {
            last_wdl = w;
        }
        last_d = d;
        wdl[(i / 4) as usize] |= w << (2 * (i % 4));
        dtm.push(d);
    }
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

    // Pass 2: blocks.
    let wdl_block_bytes = (WDL_BLOCK_SLOTS / 4) as usize;
    let (wdl_offsets, wdl_data) =
        blocks(&wdl, wdl_block_bytes, |b| Ok(lz4_flex::block::compress(b)))?;
    let dtm_block_bytes = DTM_BLOCK_SLOTS as usize * width as usize;
    let (dtm_offsets, dtm_data) = blocks(&dtm_bytes, dtm_block_bytes, |b| {
        zstd::bulk::compress(b, zstd_level)
    })?;

    let mut out = Vec::with_capacity(
        FIXED_LEN + 8 * (wdl_offsets.len() + dtm_offsets.len()) + wdl_data.len() + dtm_data.len(),
    );
    out.extend_from_slice(&WDL_BLOCK_SLOTS.to_le_bytes());
    out.extend_from_slice(&DTM_BLOCK_SLOTS.to_le_bytes());
    out.push(width);
    out.extend_from_slice(&[0u8; 7]);
    out.extend_from_slice(&(wdl_data.len() as u64).to_le_bytes());
    out.extend_from_slice(&(dtm_data.len() as u64).to_le_bytes());
    for o in wdl_offsets.iter().chain(&dtm_offsets) {
        out.extend_from_slice(&o.to_le_bytes());
    }
    out.extend_from_slice(&wdl_data);
    out.extend_from_slice(&dtm_data);
    let sizes = CompressedSizes {
        wdl_bytes: (8 * wdl_offsets.len() + wdl_data.len()) as u64,
        dtm_bytes: (8 * dtm_offsets.len() + dtm_data.len()) as u64,
    };
    Ok((out, width, sizes))
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

/// Where one stream lives in the file.
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
#[derive(Debug, Clone, Copy)]
pub(crate) struct Layout {
    pub wdl: Section,
    pub dtm: Section,
    /// Raw bytes of the whole WDL stream.
    pub wdl_raw: u64,
    /// Raw bytes of the whole DTM stream.
    pub dtm_raw: u64,
    pub dtm_width: u8,
}

impl Layout {
    /// Length of the fixed fields.
    pub const FIXED_LEN: usize = FIXED_LEN;

    /// From the fixed fields (the first [`Layout::FIXED_LEN`] bytes of the
    /// payload): the length of the fixed fields plus the block index.
    pub fn prefix_len(fixed: &[u8], size: u64) -> Result<u64, String> {
        let slots = |o: usize| -> Result<u64, String> {
            let b = fixed
                .get(o..o + 4)
                .ok_or("compressed payload shorter than its fixed fields")?;
            match u32::from_le_bytes(b.try_into().expect("4 bytes")) {
                0 => Err("zero slots per block".to_string()),
                n => Ok(n as u64),
            }
        };
        let blocks = size.div_ceil(slots(0)?) + 1 + size.div_ceil(slots(4)?) + 1;
        Ok(FIXED_LEN as u64 + 8 * blocks)
    }

    /// Parses and checks the layout. `prefix` is the start of the payload
    /// (at least the fixed fields and block index), `payload_at` its file
    /// offset, `payload_len` its length, `size` the index size. Every block
    /// offset is checked here.
    pub fn parse(
        prefix: &[u8],
        payload_at: u64,
        payload_len: u64,
        size: u64,
    ) -> Result<Layout, String> {
        let u32_at = |o: usize| -> Option<u32> {
            Some(u32::from_le_bytes(prefix.get(o..o + 4)?.try_into().ok()?))
        };
        let u64_at = |o: usize| -> Option<u64> {
            Some(u64::from_le_bytes(prefix.get(o..o + 8)?.try_into().ok()?))
        };
        let short = || "compressed payload too short for its block index".to_string();
        if prefix.len() < FIXED_LEN {
            return Err(short());
        }
        let wdl_slots = u32_at(0).ok_or_else(short)? as u64;
        let dtm_slots = u32_at(4).ok_or_else(short)? as u64;
        let dtm_width = prefix[8];
        if wdl_slots == 0 || !wdl_slots.is_multiple_of(4) || dtm_slots == 0 {
            return Err(format!(
                "block sizes {wdl_slots} (WDL) and {dtm_slots} (DTM) slots"
            ));
        }
        if dtm_width != 1 && dtm_width != 2 {
            return Err(format!("distance width {dtm_width}"));
        }
        if prefix[9..16].iter().any(|&b| b != 0) {
            return Err("non-zero reserved bytes".into());
        }
        let wdl_len = u64_at(16).ok_or_else(short)?;
        let dtm_len = u64_at(24).ok_or_else(short)?;
        let wdl_blocks = size.div_ceil(wdl_slots);
        let dtm_blocks = size.div_ceil(dtm_slots);
        let index_len = 8 * (wdl_blocks + 1 + dtm_blocks + 1);
        let wdl_at = FIXED_LEN as u64 + index_len;
        let expected = wdl_at
            .checked_add(wdl_len)
            .and_then(|x| x.checked_add(dtm_len));
        if expected != Some(payload_len) {
            return Err(format!(
                "payload of {payload_len} bytes, its block index implies {}",
                expected.map_or("more than 2^64".to_string(), |e| e.to_string())
            ));
        }
        let wdl = Section {
            block_slots: wdl_slots,
            block_bytes: wdl_slots / 4,
            blocks: wdl_blocks,
            offsets_at: payload_at + FIXED_LEN as u64,
            data_at: payload_at + wdl_at,
            data_len: wdl_len,
        };
        let dtm = Section {
            block_slots: dtm_slots,
            block_bytes: dtm_slots * dtm_width as u64,
            blocks: dtm_blocks,
            offsets_at: wdl.offsets_at + 8 * (wdl_blocks + 1),
            data_at: wdl.data_at + wdl_len,
            data_len: dtm_len,
        };
        let layout = Layout {
            wdl,
            dtm,
            wdl_raw: size.div_ceil(4),
            dtm_raw: size * dtm_width as u64,
            dtm_width,
        };
        for (name, s, raw_total) in [("WDL", &wdl, layout.wdl_raw), ("DTM", &dtm, layout.dtm_raw)] {
            let mut prev = 0u64;
            for k in 0..=s.blocks {
                let at = (s.offsets_at - payload_at + 8 * k) as usize;
                let o = u64_at(at).ok_or_else(short)?;
                let first_ok = k != 0 || o == 0;
                let last_ok = k != s.blocks || o == s.data_len;
                if o < prev || o > s.data_len || !first_ok || !last_ok {
                    return Err(format!("{name} block offset {k} out of order"));
                }
                if k > 0 && (o - prev) as usize > s.raw_len(k - 1, raw_total) {
                    return Err(format!("{name} block {} longer than its raw form", k - 1));
                }
                prev = o;
            }
        }
        Ok(layout)
    }

    /// The section of a stream.
    #[inline]
    pub fn section(&self, stream: Stream) -> (&Section, u64) {
        match stream {
            Stream::Wdl => (&self.wdl, self.wdl_raw),
            Stream::Dtm => (&self.dtm, self.dtm_raw),
        }
    }
}

/// Decodes one block (`stored`) of `stream` into `out` (its raw length).
pub(crate) fn decode_block(stream: Stream, stored: &[u8], out: &mut [u8]) -> Result<(), String> {
    if stored.len() == out.len() {
        out.copy_from_slice(stored);
        return Ok(());
    }
    let n = match stream {
        Stream::Wdl => lz4_flex::block::decompress_into(stored, out).map_err(|e| e.to_string())?,
        Stream::Dtm => ZSTD.with(|z| {
            let mut z = z.borrow_mut();
            if z.is_none() {
                *z = Some(zstd::bulk::Decompressor::new().map_err(|e| e.to_string())?);
            }
            z.as_mut()
                .expect("just created")
                .decompress_to_buffer(stored, out)
                .map_err(|e| e.to_string())
        })?,
    };
    if n != out.len() {
        return Err(format!(
            "{:?} block decodes to {n} bytes, not {}",
            stream,
            out.len()
        ));
    }
    Ok(())
}

thread_local! {
    /// One zstd decompression context per thread (creating one allocates).
    static ZSTD: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
        const { std::cell::RefCell::new(None) };
}

/// The WDL code of slot `j` of a decoded WDL block.
#[inline]
pub(crate) fn wdl_in_block(block: &[u8], j: u64) -> Option<Wdl> {
    match (block[(j / 4) as usize] >> (2 * (j % 4))) & 3 {
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
