//! Sectioned payloads (`JTZ7`): a compressed table of more than
//! [`SECTION_SLOTS`] index slots is cut into sections of that many slots
//! (the last holds the rest), each a complete `JTZ6` payload of its own
//! (dictionary, block index, WDL blocks, distances) over its slots
//! numbered from 0.
//!
//! (`JTZ5`, written by development versions of 0.3, is the same table
//! over `JTZ4` sections, and is still read.)
//!
//! Why: building one payload holds about 10 bytes a slot in memory
//! (`jungletb compress` of ELTvET, 233 M slots, as one payload: 2.37 GB
//! peak), which for a 6-piece table of 5 × 10^9 slots would be some 50 GB;
//! and the `JTZ6` block index numbers slots in 32 bits. Sections are built
//! one a thread, so the memory of `compress` is the threads times a
//! section's, whatever the table's size. Measured on ELTvET
//! (`compress_sections` in `jungletb-studies`, 2 threads, don't-cares,
//! level 15; the peak includes the mapped plain table):
//!
//! | slots per section | bytes written | WDL bytes | peak RSS |
//! |---|---|---|---|
//! | one payload | 26,323,748 | 6,832,772 | 2,365,232 KiB |
//! | 2^26 | 24,500,796 | 5,110,752 | 1,116,244 KiB |
//! | 2^24 | 23,748,654 | 4,414,340 | 565,856 KiB |
//! | **2^23** | 23,829,978 | 4,503,996 | 435,764 KiB |
//! | 2^22 | 24,149,032 | 4,811,308 | 375,876 KiB |
//!
//! Smaller sections also compress better, down to 2^24 (each section's WDL
//! dictionary fits its own slots); 2^23 costs 0.3 % more bytes than 2^24
//! for a quarter less memory. Tables up to 2^23 slots (every material up
//! to 4 pieces) keep a single `JTZ6` payload; compressed tables written
//! with sections of 2^29 slots (jungletb 0.3 before this choice) are read
//! as they are, the size being in the section table.
//!
//! Layout (little-endian), after the file header:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 4 | payload version: `JTZ7` |
//! | 4 | 4 | sections `c` |
//! | 8 | 8 | slots per section, a multiple of the DTM block ([`SECTION_SLOTS`] as written by jungletb; every section but the last holds this many) |
//! | 16 | 16 × c | per section: its `JTZ6` payload's offset from this payload's start (u64) and its length (u64) |
//! | 16 + 16c | 4 | CRC-32 of the bytes above |
//! | … | | zero padding; each section starts on a 64-byte boundary of the file, in order, without overlap |

use super::{LayoutError, DTM_BLOCK_SLOTS};

/// The payload version tag of a sectioned payload.
pub const SECTIONS_VERSION: [u8; 4] = *b"JTZ7";
/// The same section table over `JTZ4` sections (0.3 development
/// versions): read like `JTZ7`, each section by its own tag.
const SECTIONS_OF_JTZ4: [u8; 4] = *b"JTZ5";
/// Slots per section as jungletb writes them, and the most a table may
/// have to be one `JTZ6` payload (a multiple of the DTM block; why 2^23:
/// the table above).
pub const SECTION_SLOTS: u64 = 1 << 23;
const _: () = assert!(SECTION_SLOTS.is_multiple_of(DTM_BLOCK_SLOTS as u64));

/// One section of a sectioned payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SectionAt {
    /// Its first slot in the table.
    pub first_slot: u64,
    /// Its slots.
    pub slots: u64,
    /// File offset of its `JTZ6` payload.
    pub at: u64,
    /// Length of its payload.
    pub len: u64,
}

/// True if `fixed` (the payload's first bytes) starts a sectioned payload.
pub fn is_sectioned(fixed: &[u8]) -> bool {
    let tag = fixed.get(..4);
    tag == Some(&SECTIONS_VERSION[..]) || tag == Some(&SECTIONS_OF_JTZ4[..])
}

/// True if a table of `size` slots is written as sections.
pub fn needs_sections(size: u64) -> bool {
    size > SECTION_SLOTS
}

/// The slot ranges of the sections of `per` slots of a table of `size`
/// slots.
pub fn section_ranges(size: u64, per: u64) -> Vec<std::ops::Range<u64>> {
    (0..size.div_ceil(per))
        .map(|k| k * per..((k + 1) * per).min(size))
        .collect()
}

/// Bytes of the section table of `count` sections, before the padding.
pub fn table_len(count: u64) -> u64 {
    16 + 16 * count + 4
}

/// Lays out sections of `per` slots and `lens` bytes after the section
/// table, for a payload at file offset `payload_at` (each section payload
/// must have been built for a 64-byte aligned file offset). Returns the
/// table with its padding, and each section's offset from the payload's
/// start.
pub fn lay_out(payload_at: u64, per: u64, lens: &[u64]) -> (Vec<u8>, Vec<u64>) {
    let pad = |o: u64| o + (64 - (payload_at + o) % 64) % 64;
    let mut offsets = Vec::with_capacity(lens.len());
    let mut at = pad(table_len(lens.len() as u64));
    for &len in lens {
        offsets.push(at);
        at = pad(at + len);
    }
    let mut table = Vec::new();
    table.extend_from_slice(&SECTIONS_VERSION);
    table.extend_from_slice(&(lens.len() as u32).to_le_bytes());
    table.extend_from_slice(&per.to_le_bytes());
    for (&o, &len) in offsets.iter().zip(lens) {
        table.extend_from_slice(&o.to_le_bytes());
        table.extend_from_slice(&len.to_le_bytes());
    }
    let check = crc32fast::hash(&table);
    table.extend_from_slice(&check.to_le_bytes());
    let first = offsets.first().copied().unwrap_or(table.len() as u64);
    table.resize(first as usize, 0);
    (table, offsets)
}

/// The number of sections a section table starting with `fixed` (at least
/// 8 bytes) states: what to read before [`parse`].
pub fn stated_sections(fixed: &[u8]) -> Result<u64, LayoutError> {
    let count = fixed
        .get(4..8)
        .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")) as u64)
        .ok_or_else(|| LayoutError::Corrupt("sectioned payload shorter than its table".into()))?;
    Ok(count)
}

/// Parses and checks the section table `table` (its first
/// [`table_len`] bytes) of a payload at file offset `payload_at` of
/// `payload_len` bytes, for a table of `size` slots: the slots per section
/// and the sections.
pub fn parse(
    table: &[u8],
    payload_at: u64,
    payload_len: u64,
    size: u64,
) -> Result<(u64, Vec<SectionAt>), LayoutError> {
    let bad = |m: String| LayoutError::Corrupt(m);
    let count = stated_sections(table)?;
    let n = table_len(count) as usize;
    if table.len() < n || !is_sectioned(table) {
        return Err(bad("sectioned payload shorter than its table".into()));
    }
    let u64_at = |o: usize| u64::from_le_bytes(table[o..o + 8].try_into().expect("8 bytes"));
    if crc32fast::hash(&table[..n - 4]) != u32::from_le_bytes(table[n - 4..n].try_into().unwrap()) {
        return Err(bad("the section table fails its check".into()));
    }
    let per = u64_at(8);
    let whole_blocks = per > 0 && per.is_multiple_of(DTM_BLOCK_SLOTS as u64);
    if !whole_blocks || count != size.div_ceil(per.max(1)) || count < 2 {
        return Err(bad(format!(
            "{count} sections of {per} slots for a table of {size} slots"
        )));
    }
    let mut end = n as u64;
    let mut out = Vec::with_capacity(count as usize);
    for (k, range) in section_ranges(size, per).into_iter().enumerate() {
        let (o, len) = (u64_at(16 + 16 * k), u64_at(24 + 16 * k));
        let fits = o.checked_add(len).is_some_and(|e| e <= payload_len);
        if o < end || !fits || !(payload_at + o).is_multiple_of(64) {
            return Err(bad(format!(
                "section {k} lies outside the payload or out of order"
            )));
        }
        end = o + len;
        out.push(SectionAt {
            first_slot: range.start,
            slots: range.end - range.start,
            at: payload_at + o,
            len,
        });
    }
    Ok((per, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_laid_out_table_parses_back() {
        let size = 3 * SECTION_SLOTS - 5;
        let lens = [1000, 64, 77];
        for payload_at in [0, 64, 100, 4095] {
            let (table, offsets) = lay_out(payload_at, SECTION_SLOTS, &lens);
            assert_eq!(offsets[0], table.len() as u64);
            let payload_len = offsets[2] + lens[2];
            let (per, parts) = parse(&table, payload_at, payload_len, size).unwrap();
            assert_eq!(per, SECTION_SLOTS);
            assert_eq!(parts.len(), 3);
            for (k, p) in parts.iter().enumerate() {
                assert_eq!(p.at % 64, 0, "section {k} at {}", p.at);
                assert_eq!((p.at - payload_at, p.len), (offsets[k], lens[k]));
                assert_eq!(p.first_slot, k as u64 * SECTION_SLOTS);
            }
            assert_eq!(parts[2].slots, SECTION_SLOTS - 5);
            // Too short a payload, a flipped bit, a wrong size: refused.
            assert!(parse(&table, payload_at, payload_len - 1, size).is_err());
            let mut flipped = table.clone();
            flipped[17] ^= 1;
            assert!(parse(&flipped, payload_at, payload_len, size).is_err());
            assert!(parse(&table, payload_at, payload_len, SECTION_SLOTS).is_err());
        }
    }
}
