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
use std::sync::atomic::AtomicU32;

/// A zero-initialised array of `len` elements of `width` bytes, in
/// anonymous memory or in a mapped file.
pub(crate) struct WorkArray {
    map: MmapMut,
    len: usize,
}

impl WorkArray {
    /// An array in anonymous memory.
    pub(crate) fn anonymous(len: usize, width: usize) -> Result<WorkArray, SolveError> {
        let map = MmapMut::map_anon((len * width).max(4096))
            .map_err(|e| SolveError::io("", "allocating the working memory", e))?;
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
        file.set_len((len * width).max(4096) as u64).map_err(io)?;
        // SAFETY: the file is private to this solve (a fresh temporary
        // directory) and nothing else maps or writes it.
        let map = unsafe { MmapMut::map_mut(&file) }.map_err(io)?;
        Ok(WorkArray { map, len })
    }

    /// The cells as atomics, for shared updates from many threads.
    pub(crate) fn atomic_u32(&self) -> &[AtomicU32] {
        assert!(self.map.len() >= self.len * 4);
        // SAFETY: the map is page-aligned (so 4-byte aligned), at least
        // `len * 4` bytes long, and `AtomicU32` has the size and alignment of
        // `u32`; all access through this slice is atomic.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr() as *const AtomicU32, self.len) }
    }

    /// Replaces every 32-bit element `x` by the 16-bit `f(x)`, in place:
    /// afterwards the array holds `len` 16-bit elements (its first half).
    /// Returns how many results `counted` accepts.
    ///
    /// No second array, so no second allocation: on this machine's kernel a
    /// fresh 12 MiB array for the values of a 4-piece table cost 25-30 ms
    /// of page faults on one thread, more than converting itself. Element
    /// `i` is written at byte `2i` and read at byte `4i`, so once elements
    /// below `lo` are done, those in `lo..2 lo` can be done in any order:
    /// their writes (`2 lo..4 lo`) only cover inputs already converted, and
    /// their reads (`4 lo..8 lo`) nothing written yet. Doubling rounds, each
    /// in parallel.
    pub(crate) fn narrow_u32_to_u16(
        &mut self,
        f: impl Fn(u32) -> u16 + Sync,
        counted: impl Fn(u16) -> bool + Sync,
    ) -> u64 {
        use rayon::prelude::*;
        assert!(self.map.len() >= self.len * 4);
        let base = self.map.as_mut_ptr();
        let mut count = 0u64;
        let mut lo = 0usize;
        while lo < self.len {
            let hi = (2 * lo).clamp(1, self.len);
            // SAFETY: the map is page-aligned and at least `len * 4` bytes;
            // the inputs (bytes `4 lo..4 hi`) and outputs (bytes `2 lo..2
            // hi`) are disjoint because `hi <= 2 lo`, except in the first
            // round (`lo = 0`, `hi = 1`), which is done below by value
            // without the slices; `&mut self` excludes other access.
            if lo == 0 {
                let x = unsafe { (base as *const u32).read() };
                let v = f(x);
                unsafe { (base as *mut u16).write(v) };
                count += counted(v) as u64;
            } else {
                let input =
                    unsafe { std::slice::from_raw_parts((base as *const u32).add(lo), hi - lo) };
                let output =
                    unsafe { std::slice::from_raw_parts_mut((base as *mut u16).add(lo), hi - lo) };
                count += output
                    .par_iter_mut()
                    .zip(input.par_iter())
                    .map(|(out, &x)| {
                        *out = f(x);
                        counted(*out) as u64
                    })
                    .sum::<u64>();
            }
            lo = hi;
        }
        count
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

    /// In place, in memory and in a file, for sizes around the doubling
    /// rounds' edges: every element converted exactly once, the count right.
    #[test]
    fn narrowing_in_place_converts_every_element_once() {
        let dir = tempfile::tempdir().unwrap();
        for len in [0, 1, 2, 3, 4, 5, 63, 64, 65, 1000, 4097, 100_003] {
            for in_file in [false, true] {
                let mut a = if in_file {
                    WorkArray::file(dir.path(), &format!("a{len}"), len, 4).unwrap()
                } else {
                    WorkArray::anonymous(len, 4).unwrap()
                };
                for (i, c) in a.atomic_u32().iter().enumerate() {
                    c.store((i as u32).wrapping_mul(2_654_435_761) | 1 << 31, Relaxed);
                }
                let count = a.narrow_u32_to_u16(|x| (x >> 8) as u16, |v| v % 3 == 0);
                let expect: Vec<u16> = (0..len)
                    .map(|i| (((i as u32).wrapping_mul(2_654_435_761) | 1 << 31) >> 8) as u16)
                    .collect();
                assert_eq!(a.u16(), &expect[..], "len {len}");
                let threes = expect.iter().filter(|&&v| v % 3 == 0).count() as u64;
                assert_eq!(count, threes, "len {len}");
            }
        }
    }
}
