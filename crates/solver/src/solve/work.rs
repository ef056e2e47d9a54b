//! Working arrays: anonymous memory, or memory-mapped files.
//!
//! The solver's per-position state lives either in ordinary (anonymous)
//! memory or, when it would not fit in the memory budget, in files under a
//! temporary directory next to the tables, mapped into memory: the kernel
//! pages them to disk as needed, and they vanish with the directory when the
//! solve ends (or is interrupted). Both are zero-initialised.

use crate::error::SolveError;
use memmap2::MmapMut;
use std::fs::OpenOptions;
use std::path::Path;
use std::sync::atomic::AtomicU64;

/// A zero-initialised array of `len` elements of `width` bytes, in
/// anonymous memory or in a mapped file.
pub(crate) struct WorkArray {
    map: MmapMut,
    len: usize,
    width: usize,
}

impl WorkArray {
    /// An array in anonymous memory.
    pub(crate) fn anonymous(len: usize, width: usize) -> Result<WorkArray, SolveError> {
        let map = MmapMut::map_anon((len * width).next_multiple_of(8).max(4096))
            .map_err(|e| SolveError::memory("allocating the working memory", e))?;
        // Transparent huge pages where the kernel gives them on request
        // (`madvise` mode): the propagation reads cells at random, and with
        // 4 KiB pages nearly every such read of a 5-piece material (1.5 GB of
        // cells) also misses the TLB. Measured on DCRvCR (365 M positions, 2
        // threads, interleaved, on a loaded machine): propagation 69 / 68 s
        // without, 56 / 64 s with. Only a hint: without it nothing changes.
        let _ = map.advise(memmap2::Advice::HugePage);
        Ok(WorkArray { map, len, width })
    }

    /// An array in the new file `dir/name`.
    pub(crate) fn file(
        dir: &Path,
        name: &str,
        len: usize,
        width: usize,
    ) -> Result<WorkArray, SolveError> {
        let path = dir.join(name);
        let io = |e: std::io::Error| SolveError::io(&path, "working file", e);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)
            .map_err(io)?;
        // Sparse until touched; at least one page so the map is valid.
        file.set_len((len * width).next_multiple_of(8).max(4096) as u64)
            .map_err(io)?;
        // SAFETY: the file is private to this solve (a fresh temporary
        // directory) and nothing else maps or writes it.
        let map = unsafe { MmapMut::map_mut(&file) }.map_err(io)?;
        Ok(WorkArray { map, len, width })
    }

    /// The array as atomic 64-bit words (the solve's cells, see
    /// `levels.rs`), enough for its `len * width` bytes.
    pub(crate) fn atomic_u64(&self) -> &[AtomicU64] {
        let words = (self.len * self.width).div_ceil(8);
        assert!(self.map.len() >= words * 8);
        // SAFETY: the map is page-aligned (so 8-byte aligned) and at least
        // `words * 8` bytes long (every array is a whole number of words); `AtomicU64` has
        // the size and alignment of `u64`; all access through this slice is
        // atomic.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr() as *const AtomicU64, words) }
    }

    /// The array's `len * width` bytes.
    pub(crate) fn bytes(&self) -> &[u8] {
        let len = self.len * self.width;
        assert!(self.map.len() >= len);
        // SAFETY: long enough; shared access only reads.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr(), len) }
    }

    /// Elements.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The elements as 16-bit values.
    pub(crate) fn u16(&self) -> &[u16] {
        assert!(self.map.len() >= self.len * 2);
        // SAFETY: page-aligned, long enough; shared access only reads.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr() as *const u16, self.len) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    /// In memory and in a file, of one and two bytes an element: the words
    /// cover every element, and the bytes and 16-bit views read what the
    /// words hold.
    #[test]
    fn the_words_cover_every_element_in_either_width() {
        let dir = tempfile::tempdir().unwrap();
        for len in [0, 1, 2, 7, 65535, 65536, 200_003] {
            for width in [1, 2] {
                for in_file in [false, true] {
                    let a = if in_file {
                        WorkArray::file(dir.path(), &format!("a{len}-{width}"), len, width).unwrap()
                    } else {
                        WorkArray::anonymous(len, width).unwrap()
                    };
                    let words = a.atomic_u64();
                    assert_eq!(words.len(), (len * width).div_ceil(8));
                    for (k, w) in words.iter().enumerate() {
                        w.store((k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15), Relaxed);
                    }
                    let bytes: Vec<u8> = words
                        .iter()
                        .flat_map(|w| w.load(Relaxed).to_le_bytes())
                        .take(len * width)
                        .collect();
                    assert_eq!(a.bytes(), &bytes[..], "len {len}, width {width}");
                    assert_eq!(a.len(), len);
                    if width == 2 {
                        let wide: Vec<u16> = bytes
                            .chunks_exact(2)
                            .map(|b| u16::from_le_bytes([b[0], b[1]]))
                            .collect();
                        assert_eq!(a.u16(), &wide[..]);
                    }
                }
            }
        }
    }
}
