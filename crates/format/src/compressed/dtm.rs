//! The distance stream of compressed tables: DTM blocks of
//! [`DTM_BLOCK_SLOTS`] slots, each two zstd frames ("parts"), the
//! distances of the block's win slots and of its loss slots (see the
//! parent module for the layout and why).

use super::{DTM_BLOCK_SLOTS, WDL_LOSS, WDL_WIN};
use jungletb_rules::{Value, Wdl};

/// A slot's halved distance when it has none to store (no halved
/// distance reaches it: raw values hold plies in 16 bits, so halves stay
/// below 2^15).
pub(super) const NO_DISTANCE: u16 = u16::MAX;

/// The parts of every DTM block, in order (part `2k`: the halved distances
/// of block `k`'s win slots, `2k + 1`: of its loss slots, `width` bytes
/// each), with their records. `codes` are the WDL values as the WDL stream
/// stores them, `halves` the halved distances of the positions
/// ([`NO_DISTANCE`]: none, or not a position): unused slots the WDL stream
/// filled as wins or losses repeat the previous distance of their kind.
pub(super) fn parts(codes: &[u8], halves: &[u16], width: u8) -> Vec<(Vec<u8>, DtmPart)> {
    let mut out = Vec::new();
    for (k, (codes, ds)) in codes
        .chunks(DTM_BLOCK_SLOTS as usize)
        .zip(halves.chunks(DTM_BLOCK_SLOTS as usize))
        .enumerate()
    {
        let mut parts: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
        let mut last = [0u16; 2];
        for (&code, &d) in codes.iter().zip(ds) {
            let kind = match code {
                WDL_WIN => 0,
                WDL_LOSS => 1,
                _ => continue,
            };
            let d = if d == NO_DISTANCE { last[kind] } else { d };
            last[kind] = d;
            if width == 1 {
                parts[kind].push(d as u8);
            } else {
                parts[kind].extend_from_slice(&d.to_le_bytes());
            }
        }
        for (kind, bytes) in parts.into_iter().enumerate() {
            let part = DtmPart {
                check: dtm_check(2 * k as u64 + kind as u64, &bytes),
                entries: (bytes.len() / width as usize) as u32,
            };
            out.push((bytes, part));
        }
    }
    out
}

/// Compresses each part with zstd at `level` (kept raw when that is not
/// smaller): the offsets (parts + 1) and the data.
pub(super) fn compress_parts<'a>(
    parts: impl Iterator<Item = &'a [u8]>,
    level: i32,
) -> std::io::Result<(Vec<u64>, Vec<u8>)> {
    #[cfg(target_arch = "wasm32")]
    {
        let _ = (parts, level);
        Err(std::io::Error::new(
            std::io::ErrorKind::Unsupported,
            "this build (WebAssembly) reads compressed tables but does not write them",
        ))
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let mut offsets = vec![0u64];
        let mut data = Vec::new();
        for part in parts {
            let c = zstd::bulk::compress(part, level)?;
            if c.len() < part.len() {
                data.extend_from_slice(&c);
            } else {
                data.extend_from_slice(part);
            }
            offsets.push(data.len() as u64);
        }
        Ok((offsets, data))
    }
}

/// Where the distance index lies: payload offsets of the part offsets,
/// the part records ([`DtmPart`]), the rank counts (one [`RANK_BYTES`]
/// entry per WDL block), the index check, and the index's end, for an
/// index starting at `index_at`, `wdl_blocks` WDL blocks and `dtm_parts`
/// parts (the layout table of the parent module). Saturating: a payload
/// that claims impossible sizes gets offsets past its end, which the
/// callers refuse.
#[derive(Debug, Clone, Copy)]
pub struct DtmIndexAt {
    /// Start of the part offsets.
    pub offsets: u64,
    /// Start of the part records ([`DtmPart`]).
    pub records: u64,
    /// Start of the WDL blocks' rank counts.
    pub ranks: u64,
    /// Start of the index checksum.
    pub check: u64,
    /// The index's end (its check included).
    pub end: u64,
}

/// Bytes of one WDL block's rank counts: the wins and the losses (u16
/// each) from the first slot of the DTM block holding the WDL block's first
/// slot up to that slot.
pub const RANK_BYTES: usize = 4;

impl DtmIndexAt {
    pub(super) fn new(index_at: u64, wdl_blocks: u64, dtm_parts: u64) -> DtmIndexAt {
        let offsets = index_at;
        let records = offsets.saturating_add(dtm_parts.saturating_add(1).saturating_mul(8));
        let ranks = records.saturating_add(dtm_parts.saturating_mul(DtmPart::BYTES as u64));
        let check = ranks.saturating_add(wdl_blocks.saturating_mul(RANK_BYTES as u64));
        let end = check.saturating_add(4);
        DtmIndexAt {
            offsets,
            records,
            ranks,
            check,
            end,
        }
    }
}

/// The rank counts of every WDL block (see [`RANK_BYTES`]), from the WDL
/// values as stored (`codes`) and the blocks' first slots (`starts`,
/// without the final size).
pub(super) fn rank_counts(codes: &[u8], starts: &[u32]) -> Vec<[u16; 2]> {
    let block = DTM_BLOCK_SLOTS as usize;
    let mut out = Vec::with_capacity(starts.len());
    let mut counts = [0u16; 2];
    let mut next = starts.iter().map(|&s| s as usize).peekable();
    for (i, &code) in codes.iter().enumerate() {
        if i % block == 0 {
            counts = [0, 0];
        }
        while next.peek() == Some(&i) {
            out.push(counts);
            next.next();
        }
        match code {
            WDL_WIN => counts[0] += 1,
            WDL_LOSS => counts[1] += 1,
            _ => {}
        }
    }
    out
}

/// The CRC-32 of the distance index (part offsets, records and rank
/// counts), checked when a table is opened: a damaged rank count would
/// otherwise pick a wrong entry without any part check failing.
pub fn index_check(index: &[u8]) -> u32 {
    crc32fast::hash(index)
}

/// The check of decoded DTM part number `k` (its raw bytes): CRC-32
/// started from `k`.
pub fn dtm_check(k: u64, raw: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new_with_initial(k as u32);
    h.update(raw);
    h.finalize()
}

/// What the file says of one DTM part beside its offset: the CRC-32 of
/// its decoded bytes (started from the part number, see [`dtm_check`]) and
/// its number of entries. Part `2k` holds the distances of the win slots of
/// DTM block `k`, part `2k + 1` those of its loss slots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DtmPart {
    /// CRC-32 of the decoded bytes, started from the part number.
    pub check: u32,
    /// Distances stored in the part.
    pub entries: u32,
}

impl DtmPart {
    /// Bytes per part in the file.
    pub const BYTES: usize = 8;

    /// The part's record as stored (little-endian check, then entries).
    pub fn to_bytes(self) -> [u8; 8] {
        let mut b = [0u8; 8];
        b[..4].copy_from_slice(&self.check.to_le_bytes());
        b[4..].copy_from_slice(&self.entries.to_le_bytes());
        b
    }

    /// From [`DtmPart::BYTES`] bytes.
    pub fn from_bytes(b: &[u8]) -> DtmPart {
        let word = |o: usize| u32::from_le_bytes(b[o..o + 4].try_into().expect("4 bytes"));
        DtmPart {
            check: word(0),
            entries: word(4),
        }
    }

    /// Decoded bytes of the part.
    pub fn raw_len(self, width: u8) -> usize {
        self.entries as usize * usize::from(width)
    }
}

/// Where the DTM stream lives in the file.
#[derive(Debug, Clone, Copy)]
pub struct Section {
    /// Slots per block.
    pub block_slots: u64,
    /// Number of blocks (each of two parts: wins, losses).
    pub blocks: u64,
    /// File offset of the part offsets.
    pub offsets_at: u64,
    /// File offset of the part records ([`DtmPart`] each).
    pub records_at: u64,
    /// File offset of the rank counts ([`RANK_BYTES`] per WDL block).
    pub ranks_at: u64,
    /// Bytes of the whole distance index: part offsets, records, rank
    /// counts and their check.
    pub index_len: u64,
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

    /// Slots of block `k` of a table of `size` slots.
    #[inline]
    pub fn slots_of(&self, k: u64, size: u64) -> u64 {
        (size - k * self.block_slots).min(self.block_slots)
    }
}

/// Why a stored DTM block does not decode.
#[derive(Debug)]
pub enum DtmBlockError {
    /// The zstd frame is damaged: the decoder's error.
    Zstd(Box<dyn std::error::Error + Send + Sync>),
    /// The frame decodes to another length than the block has.
    Length {
        /// Bytes decoded.
        decoded: usize,
        /// The block's raw length.
        expected: usize,
    },
}

impl std::fmt::Display for DtmBlockError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DtmBlockError::Zstd(e) => write!(f, "zstd: {e}"),
            DtmBlockError::Length { decoded, expected } => {
                write!(f, "DTM block decodes to {decoded} bytes, not {expected}")
            }
        }
    }
}

impl std::error::Error for DtmBlockError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DtmBlockError::Zstd(e) => Some(e.as_ref()),
            DtmBlockError::Length { .. } => None,
        }
    }
}

/// Decodes one DTM block (`stored`) into `out` (its raw length).
pub fn decode_dtm_block(stored: &[u8], out: &mut [u8]) -> Result<(), DtmBlockError> {
    if stored.len() == out.len() {
        out.copy_from_slice(stored);
        return Ok(());
    }
    #[cfg(not(target_arch = "wasm32"))]
    let n = ZSTD.with(|z| {
        let mut z = z.borrow_mut();
        if z.is_none() {
            *z = Some(
                zstd::bulk::Decompressor::new().map_err(|e| DtmBlockError::Zstd(Box::new(e)))?,
            );
        }
        z.as_mut()
            .expect("just created")
            .decompress_to_buffer(stored, out)
            .map_err(|e| DtmBlockError::Zstd(Box::new(e)))
    })?;
    #[cfg(target_arch = "wasm32")]
    let n = decode_zstd_pure(stored, out)?;
    if n != out.len() {
        return Err(DtmBlockError::Length {
            decoded: n,
            expected: out.len(),
        });
    }
    Ok(())
}

/// [`decode_dtm_block`]'s zstd step in pure Rust (ruzstd), for targets
/// where the C library does not build (WebAssembly); the bytes written, or
/// why the block is not a zstd frame that fits `out`.
#[cfg(any(target_arch = "wasm32", test))]
pub fn decode_zstd_pure(stored: &[u8], out: &mut [u8]) -> Result<usize, DtmBlockError> {
    ruzstd::decoding::FrameDecoder::new()
        .decode_all(stored, out)
        .map_err(|e| DtmBlockError::Zstd(e.to_string().into()))
}

#[cfg(not(target_arch = "wasm32"))]
thread_local! {
    /// One zstd decompression context per thread (creating one allocates).
    static ZSTD: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
        const { std::cell::RefCell::new(None) };
}

/// The halved distance of entry `j` of a decoded DTM block, `None` past
/// its end.
#[inline]
pub fn dtm_in_block(block: &[u8], j: u64, width: u8) -> Option<u16> {
    let o = usize::try_from(j).ok()? * usize::from(width);
    match width {
        1 => block.get(o).map(|&d| u16::from(d)),
        _ => block
            .get(o..o + 2)
            .map(|b| u16::from_le_bytes([b[0], b[1]])),
    }
}

/// Rebuilds a value from its WDL and halved distance.
#[inline]
pub fn value_from(wdl: Wdl, half: u16) -> Value {
    match wdl {
        Wdl::Draw => Value::Draw,
        // Saturating: a corrupt distance must not overflow (the writer never
        // stores one above `MAX_PLIES / 2`).
        Wdl::Win => Value::Win(half.saturating_mul(2).saturating_add(1)),
        Wdl::Loss => Value::Loss(half.saturating_mul(2)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pure-Rust decoder (the WebAssembly build's) gives back every
    /// byte of parts the C library compressed, at the levels `compress`
    /// uses, for distance-like data (short runs, a few symbols) and noise.
    #[test]
    fn the_pure_rust_decoder_reads_what_zstd_wrote() {
        let mut x = 0x9e37_79b9_u32;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        let mut parts: Vec<Vec<u8>> = Vec::new();
        for len in [1usize, 7, 100, 4096, 65_536] {
            parts.push((0..len).map(|i| (i / 37 % 5) as u8 * 2).collect());
            parts.push((0..len).map(|_| (next() % 9) as u8).collect());
            parts.push((0..len).map(|_| next() as u8).collect());
        }
        for level in [3, 12, 19] {
            let (offsets, data) = compress_parts(parts.iter().map(|p| &p[..]), level).unwrap();
            for (k, part) in parts.iter().enumerate() {
                let stored = &data[offsets[k] as usize..offsets[k + 1] as usize];
                let mut out = vec![0xAA; part.len()];
                decode_dtm_block(stored, &mut out).unwrap();
                assert_eq!(&out, part, "zstd, part {k}, level {level}");
                if stored.len() != part.len() {
                    let mut pure = vec![0x55; part.len()];
                    let n = decode_zstd_pure(stored, &mut pure).unwrap();
                    assert_eq!(
                        (n, &pure),
                        (part.len(), part),
                        "ruzstd, part {k}, level {level}"
                    );
                }
            }
        }
    }

    /// A damaged frame is an error from the pure decoder, never a panic.
    #[test]
    fn the_pure_rust_decoder_refuses_damaged_frames() {
        let part: Vec<u8> = (0..5000).map(|i| (i % 11) as u8).collect();
        let (_, data) = compress_parts(std::iter::once(&part[..]), 12).unwrap();
        assert!(data.len() < part.len());
        for cut in [1, data.len() / 2, data.len() - 1] {
            let mut out = vec![0; part.len()];
            assert!(
                decode_zstd_pure(&data[..cut], &mut out).is_err(),
                "cut at {cut}"
            );
        }
        let mut out = vec![0; part.len() - 1];
        assert!(
            decode_zstd_pure(&data, &mut out).is_err(),
            "too small a buffer"
        );
    }
}
