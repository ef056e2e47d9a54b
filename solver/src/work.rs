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
            .map_err(|e| SolveError::Io(format!("allocating {} bytes: {e}", len * width)))?;
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
        let io = |e: std::io::Error| SolveError::Io(format!("{}: {e}", path.display()));
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

    /// The cells as plain values; exclusive access, so no atomics needed.
    pub(crate) fn u32_mut(&mut self) -> &mut [u32] {
        assert!(self.map.len() >= self.len * 4);
        // SAFETY: page-aligned, long enough, and `&mut self` rules out any
        // other reference to the cells.
        unsafe { std::slice::from_raw_parts_mut(self.map.as_mut_ptr() as *mut u32, self.len) }
    }

    /// The elements as 16-bit values.
    pub(crate) fn u16(&self) -> &[u16] {
        assert!(self.map.len() >= self.len * 2);
        // SAFETY: page-aligned, long enough; shared access only reads.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr() as *const u16, self.len) }
    }

    /// The elements as 16-bit values, exclusively.
    pub(crate) fn u16_mut(&mut self) -> &mut [u16] {
        assert!(self.map.len() >= self.len * 2);
        // SAFETY: page-aligned, long enough, and `&mut self` rules out any
        // other reference.
        unsafe { std::slice::from_raw_parts_mut(self.map.as_mut_ptr() as *mut u16, self.len) }
    }
}
