//! How a caller watches a solve: its progress, and a flag that stops it
//! (with a checkpoint, at a point the solve can resume from).

use crate::error::SolveError;
use jungletb_indexer::Material;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// What a caller watches a solve with: progress, and a flag that stops it.
#[derive(Clone, Copy)]
pub struct Watch<'a> {
    /// Called with counts of positions swept (from worker threads).
    pub on_progress: &'a (dyn Fn(u64) + Sync),
    /// Called before each level of the propagation with its number (from
    /// the solving thread, between levels).
    pub on_level: &'a (dyn Fn(u16) + Sync),
    /// Once set, the solve stops at its next safe point. With a
    /// [`Watch::checkpoint`], that is the next chunk of 2^16 slots within
    /// the level under way (by regions: the end of the round), or the end
    /// of the sweep if the flag is set during it: the state there is saved
    /// and the solve returns [`SolveError::Checkpointed`]. Without one, or before the sweep
    /// starts, it stops at the next group of the sweep or level, returns
    /// [`SolveError::Interrupted`] and nothing of it is kept.
    pub stop: &'a AtomicBool,
    /// The checkpoint file (see [`crate::checkpoint_path`]): where a
    /// stopped solve saves its state, and where a solve starts from if the
    /// file is there (refused with [`SolveError::CheckpointRefused`] if it
    /// is of another version, material or rule set, or damaged). The caller
    /// removes it once the table is written.
    pub checkpoint: Option<&'a Path>,
}

impl std::fmt::Debug for Watch<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch")
            .field("stop", &self.stop)
            .finish_non_exhaustive()
    }
}

impl Watch<'_> {
    pub(crate) fn check(&self, material: Material) -> Result<(), SolveError> {
        if self.stop.load(Ordering::Relaxed) {
            Err(SolveError::Interrupted { material })
        } else {
            Ok(())
        }
    }
}
