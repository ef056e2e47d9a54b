//! Working arrays in memory-mapped files.
//!
//! The solver's per-position state lives in files under a temporary
//! directory next to the tables, mapped into memory: the kernel pages them
//! to disk when a material does not fit in RAM, and they vanish with the
//! directory when the solve ends (or is interrupted).

use crate::error::SolveError;
use memmap2::MmapMut;
use std::fs::OpenOptions;
use std::path::Path;
use std::sync::atomic::AtomicU32;

/// A zero-initialised array of `len` elements of `width` bytes in a mapped file.
pub(crate) struct WorkArray {
    map: MmapMut,
    len: usize,
}

impl WorkArray {
    fn create(dir: &Path, name: &str, len: usize, width: usize) -> Result<WorkArray, SolveError> {
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

    /// A new array of `len` 32-bit cells.
    pub(crate) fn u32(dir: &Path, name: &str, len: usize) -> Result<WorkArray, SolveError> {
        Self::create(dir, name, len, 4)
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
}
