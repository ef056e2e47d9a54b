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
use std::sync::atomic::{AtomicU16, AtomicU64};

/// A zero-initialised array of `len` elements of `width` bytes, in
/// anonymous memory or in a mapped file.
pub(crate) struct WorkArray {
    map: MmapMut,
    len: usize,
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
        Ok(WorkArray { map, len })
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
        Ok(WorkArray { map, len })
    }

    /// The cells as atomics, for shared updates from many threads.
    pub(crate) fn atomic_u16(&self) -> &[AtomicU16] {
        assert!(self.map.len() >= self.len * 2);
        // SAFETY: the map is page-aligned (so 2-byte aligned), at least
        // `len * 2` bytes long, and `AtomicU16` has the size and alignment of
        // `u16`; all access through this slice is atomic.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr() as *const AtomicU16, self.len) }
    }

    /// The array as atomic 64-bit words, eight one-byte cells each (the
    /// byte solve's cells, see `byte_solve.rs`), `len.div_ceil(8)` of them.
    pub(crate) fn atomic_u64(&self) -> &[AtomicU64] {
        let words = self.len.div_ceil(8);
        assert!(self.map.len() >= words * 8);
        // SAFETY: the map is page-aligned (so 8-byte aligned) and at least
        // `words * 8` bytes long (every array is a whole number of words); `AtomicU64` has
        // the size and alignment of `u64`; all access through this slice is
        // atomic.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr() as *const AtomicU64, words) }
    }

    /// The elements as bytes.
    pub(crate) fn u8(&self) -> &[u8] {
        assert!(self.map.len() >= self.len);
        // SAFETY: long enough; shared access only reads.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr(), self.len) }
    }

    /// Elements.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Replaces every 16-bit element `x` by `f(x)` in place, in parallel.
    /// Returns how many results `counted` accepts.
    pub(crate) fn map_u16(
        &mut self,
        f: impl Fn(u16) -> u16 + Sync,
        counted: impl Fn(u16) -> bool + Sync,
    ) -> u64 {
        use rayon::prelude::*;
        assert!(self.map.len() >= self.len * 2);
        // SAFETY: page-aligned, long enough; `&mut self` excludes any other
        // access while the slice lives.
        let values =
            unsafe { std::slice::from_raw_parts_mut(self.map.as_mut_ptr() as *mut u16, self.len) };
        values
            .par_chunks_mut(1 << 16)
            .map(|chunk| {
                chunk
                    .iter_mut()
                    .map(|v| {
                        *v = f(*v);
                        counted(*v) as u64
                    })
                    .sum::<u64>()
            })
            .sum()
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

    /// In memory and in a file: every element mapped once, the count right.
    #[test]
    fn mapping_in_place_converts_every_element_once() {
        let dir = tempfile::tempdir().unwrap();
        for len in [0, 1, 2, 65535, 65536, 65537, 200_003] {
            for in_file in [false, true] {
                let mut a = if in_file {
                    WorkArray::file(dir.path(), &format!("a{len}"), len, 2).unwrap()
                } else {
                    WorkArray::anonymous(len, 2).unwrap()
                };
                for (i, c) in a.atomic_u16().iter().enumerate() {
                    c.store((i as u16).wrapping_mul(40_503), Relaxed);
                }
                let count = a.map_u16(|x| x ^ 0x5555, |v| v % 3 == 0);
                let expect: Vec<u16> = (0..len)
                    .map(|i| (i as u16).wrapping_mul(40_503) ^ 0x5555)
                    .collect();
                assert_eq!(a.u16(), &expect[..], "len {len}");
                let threes = expect.iter().filter(|&&v| v % 3 == 0).count() as u64;
                assert_eq!(count, threes, "len {len}");
            }
        }
    }
}
