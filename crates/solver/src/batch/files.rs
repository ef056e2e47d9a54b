//! What the directory operations ([`generate`](crate::batch::generate),
//! [`compress`](crate::batch::compress), [`verify`](crate::verify)) share about
//! table files: which files a request names, and where an invalid table
//! goes.

use crate::error::SolveError;
use jungletb_indexer::Material;
use jungletb_tablebase::table_files;
use std::path::{Path, PathBuf};

/// The table files (plain and compressed) under `tables` (a tables root or
/// one rule set's directory), in name order; only those of `materials`
/// (any colour order) when it is not empty.
pub fn select_files(tables: &Path, materials: &[Material]) -> Result<Vec<PathBuf>, SolveError> {
    let files = table_files(tables)?;
    if materials.is_empty() {
        return Ok(files);
    }
    let names: Vec<String> = materials
        .iter()
        .map(|m| m.canonical().0.to_string())
        .collect();
    Ok(files
        .into_iter()
        .filter(|p| {
            p.file_stem()
                .and_then(|s| s.to_str())
                .is_some_and(|s| names.iter().any(|n| n == s))
        })
        .collect())
}

/// Moves the invalid table `path` aside to the first free name
/// `<path>.invalid-N` (never over another file, never deleted: it is the
/// evidence) and returns the new name.
pub(crate) fn move_aside(path: &Path) -> Result<PathBuf, SolveError> {
    move_aside_as(path, path)
}

/// [`move_aside`] of the file `path` to the first free name
/// `<name>.invalid-N` (for a table written elsewhere before it counts).
pub(crate) fn move_aside_as(path: &Path, name: &Path) -> Result<PathBuf, SolveError> {
    let aside = (1..)
        .map(|k| PathBuf::from(format!("{}.invalid-{k}", name.display())))
        .find(|p| !p.exists())
        .expect("some free name");
    std::fs::rename(path, &aside)
        .map_err(|e| SolveError::io(path, "moving an invalid table aside", e))?;
    Ok(aside)
}
