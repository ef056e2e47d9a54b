//! Little-endian integers read back from checkpoint files (see
//! `checkpoint.rs`; the level lists read theirs too).

use std::io::Read;

/// A `u16`.
pub(crate) fn u16_of<R: Read + ?Sized>(r: &mut R) -> std::io::Result<u16> {
    let mut b = [0u8; 2];
    r.read_exact(&mut b)?;
    Ok(u16::from_le_bytes(b))
}

/// A `u64`.
pub(crate) fn u64_of<R: Read + ?Sized>(r: &mut R) -> std::io::Result<u64> {
    let mut b = [0u8; 8];
    r.read_exact(&mut b)?;
    Ok(u64::from_le_bytes(b))
}
