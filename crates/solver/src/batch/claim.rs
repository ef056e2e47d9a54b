//! One generator per material at a time, many per directory.
//!
//! Generators on many machines may share one tables directory (a cluster's
//! shared file system). Each material is claimed through an exclusive
//! `flock` on `<dir>/.locks/<MATERIAL>.lock` while it is solved. The kernel
//! (or the file server) releases the lock when its process dies, so a crashed
//! owner cannot keep a material forever, and whoever takes the claim next may
//! clear what the dead owner left: its working directory
//! (`.work-<MATERIAL>-*`) and unfinished temporary table (`.<MATERIAL>.*.tmp`).
//! Finished tables still appear only by atomic rename, so a table's name
//! always carries a complete table whoever wrote it.
//!
//! Lock files are never deleted: removing a lock file another process has
//! just opened would let two owners hold "the" lock at once.

use crate::error::SolveError;
use jungletb_indexer::Material;
use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

/// An exclusive claim on one material of a tables directory, held until
/// dropped.
#[derive(Debug)]
pub(crate) struct Claim {
    _file: File,
    dir: PathBuf,
    material: Material,
}

impl Claim {
    /// Takes the claim on `material` in `dir`, waiting while another
    /// process holds it (`on_wait` is called once before waiting).
    pub(crate) fn take(
        dir: &Path,
        material: Material,
        on_wait: impl FnOnce(),
    ) -> Result<Claim, SolveError> {
        Ok(Claim::take_or(dir, material, on_wait, true)?.expect("waited for it"))
    }

    /// [`Claim::take`], or `None` at once (after `on_wait`) if another
    /// process holds it and `wait` is false.
    fn take_or(
        dir: &Path,
        material: Material,
        on_wait: impl FnOnce(),
        wait: bool,
    ) -> Result<Option<Claim>, SolveError> {
        let locks = dir.join(".locks");
        let io = |p: &Path, e: std::io::Error| SolveError::io(p, "claiming the material", e);
        std::fs::create_dir_all(&locks).map_err(|e| io(&locks, e))?;
        let path = locks.join(format!("{material}.lock"));
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| io(&path, e))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                on_wait();
                if !wait {
                    return Ok(None);
                }
                file.lock().map_err(|e| io(&path, e))?;
            }
            Err(TryLockError::Error(e)) => return Err(io(&path, e)),
        }
        Ok(Some(Claim {
            _file: file,
            dir: dir.to_path_buf(),
            material,
        }))
    }

    /// Takes the claim on `material` in `dir` if no other process holds
    /// it; `None` if one does.
    pub(crate) fn try_take(dir: &Path, material: Material) -> Result<Option<Claim>, SolveError> {
        Claim::take_or(dir, material, || {}, false)
    }

    /// The prefix of this material's working directories.
    pub(crate) fn work_prefix(&self) -> String {
        format!(".work-{}-", self.material)
    }

    /// Removes what an interrupted owner of this claim left behind; returns
    /// the paths removed.
    pub(crate) fn remove_leftovers(&self) -> Result<Vec<PathBuf>, SolveError> {
        let io = |e: std::io::Error| SolveError::io(&self.dir, "removing leftovers", e);
        let work = self.work_prefix();
        let tmp = format!(".{}.", self.material);
        let mut removed = Vec::new();
        for entry in std::fs::read_dir(&self.dir).map_err(io)? {
            let entry = entry.map_err(io)?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = entry.path();
            if name.starts_with(&work) && path.is_dir() {
                std::fs::remove_dir_all(&path).map_err(io)?;
                removed.push(path);
            } else if name.starts_with(&tmp) && name.ends_with(".tmp") && path.is_file() {
                std::fs::remove_file(&path).map_err(io)?;
                removed.push(path);
            }
        }
        Ok(removed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_claim_is_exclusive_and_clears_only_its_own_leftovers() {
        let dir = tempfile::tempdir().unwrap();
        let m: Material = "ELvR".parse().unwrap();
        let other: Material = "EvR".parse().unwrap();
        for name in [".work-ELvR-abc", ".work-EvR-abc"] {
            std::fs::create_dir(dir.path().join(name)).unwrap();
        }
        for name in [".ELvR.x1.tmp", ".EvR.x1.tmp", "ELvR.jtb"] {
            std::fs::write(dir.path().join(name), b"x").unwrap();
        }
        let claim = Claim::take(dir.path(), m, || panic!("the claim was free")).unwrap();
        // A second claim on the same material (another open file
        // description, as another process would have) is refused for now.
        let second = OpenOptions::new()
            .write(true)
            .open(dir.path().join(".locks/ELvR.lock"))
            .unwrap();
        assert!(matches!(second.try_lock(), Err(TryLockError::WouldBlock)));
        assert!(Claim::try_take(dir.path(), m).unwrap().is_none());
        // Another material is free.
        let _b = Claim::take(dir.path(), other, || panic!("another material is free")).unwrap();
        let mut removed = claim.remove_leftovers().unwrap();
        removed.sort();
        assert_eq!(
            removed,
            [
                dir.path().join(".ELvR.x1.tmp"),
                dir.path().join(".work-ELvR-abc")
            ]
        );
        assert!(dir.path().join(".work-EvR-abc").exists());
        assert!(dir.path().join(".EvR.x1.tmp").exists());
        assert!(dir.path().join("ELvR.jtb").exists());
        drop(claim);
        assert!(Claim::try_take(dir.path(), m).unwrap().is_some());
        assert!(second.try_lock().is_ok());
    }
}
