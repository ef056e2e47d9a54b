//! Disk space, checked before solving: a disk too small for the tables still
//! to solve refuses the request at once, rather than failing the write of a
//! table after its solve (ELTvELT: 25 minutes of solving, then 4.77 GiB that
//! did not fit).
//!
//! The check counts the least a table can take: its header and one byte a
//! slot (a table holds 2 bytes a slot only once a distance passes 255 plies,
//! which the solve learns at its end), plus the working files of a solve
//! whose cells do not fit the memory budget. The write itself still reports a
//! full disk clearly, should the space go between the check and the write
//! (another writer on the same disk, a table that needs 2 bytes a slot).

use crate::error::SolveError;
use crate::solve::memory::working_file_bytes;
use jungletb_indexer::{Material, PositionIndex};
use jungletb_rules::Ruleset;
use jungletb_tablebase::plain_table_len;
use std::path::{Path, PathBuf};

/// What the solve of one material needs on disk at least.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DiskNeed {
    /// The material.
    pub material: Material,
    /// Its table at one byte a slot, with its header.
    pub table: u64,
    /// Its working files (zero when its cells fit the memory budget).
    pub work: u64,
}

impl DiskNeed {
    /// The need of `index`'s material under `rules` with a memory budget of
    /// `mem_budget` bytes.
    pub fn of(rules: &Ruleset, index: &PositionIndex, mem_budget: u64) -> DiskNeed {
        DiskNeed {
            material: index.material(),
            table: plain_table_len(rules, index, 1),
            work: working_file_bytes(index.size(), mem_budget),
        }
    }
}

/// Checks that `available` bytes hold the solves of `needs`, one after
/// another into `dir`: every table stays, while working files exist only
/// during their own solve, so the need is the sum of the tables plus the
/// largest working files. Nothing to solve needs nothing.
pub(crate) fn check_space(
    dir: &Path,
    needs: &[DiskNeed],
    available: u64,
) -> Result<(), SolveError> {
    let tables: u64 = needs.iter().map(|n| n.table).sum();
    let work = needs.iter().map(|n| n.work).max().unwrap_or(0);
    let need = tables + work;
    match needs.iter().max_by_key(|n| n.table + n.work) {
        Some(largest) if need > available => Err(SolveError::NoSpace {
            dir: dir.to_path_buf(),
            tables: needs.len(),
            largest: largest.material,
            need,
            available,
        }),
        _ => Ok(()),
    }
}

/// Bytes available to this process in the file system that holds `dir`,
/// read at `dir` or, while it does not exist yet, at its nearest existing
/// ancestor (where it will be created).
pub(crate) fn available_space(dir: &Path) -> Result<u64, SolveError> {
    let absolute = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    let at: PathBuf = absolute
        .ancestors()
        .find(|p| p.exists())
        .unwrap_or(&absolute)
        .to_path_buf();
    fs4::available_space(&at).map_err(|source| SolveError::SpaceUnknown { dir: at, source })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn need(m: &str, table: u64, work: u64) -> DiskNeed {
        DiskNeed {
            material: m.parse().unwrap(),
            table,
            work,
        }
    }

    /// Tables add up; working files, removed after each solve, do not.
    #[test]
    fn the_need_is_every_table_plus_the_largest_working_files() {
        let dir = Path::new("d");
        let needs = [
            need("ELvR", 100, 0),
            need("ETvR", 50, 300),
            need("LTvR", 70, 200),
        ];
        // 220 of tables + 300 of working files.
        assert!(check_space(dir, &needs, 520).is_ok());
        match check_space(dir, &needs, 519) {
            Err(SolveError::NoSpace {
                tables,
                largest,
                need,
                available,
                ..
            }) => {
                assert_eq!((tables, need, available), (3, 520, 519));
                assert_eq!(largest.to_string(), "ETvR");
            }
            other => panic!("expected NoSpace, got {other:?}"),
        }
        assert!(check_space(dir, &[], 0).is_ok());
    }

    /// A table's need is its size at one byte a slot, exactly what the
    /// writer makes of a table of 8-bit values; a budget below the solve's
    /// memory adds the cells' working file.
    #[test]
    fn a_tables_need_is_its_size_at_a_byte_a_slot() {
        let rules = Ruleset::standard();
        let index = PositionIndex::new("ELvR".parse().unwrap(), &rules).unwrap();
        let n = DiskNeed::of(&rules, &index, u64::MAX);
        assert_eq!(n.work, 0);
        let header = n.table - index.size();
        assert!(header > 0 && header.is_multiple_of(64), "header {header}");
        let least = crate::minimum_memory(index.size());
        let tight = DiskNeed::of(&rules, &index, least);
        assert_eq!(tight.work, index.size());
    }

    /// A directory still to be created is measured where it will be made.
    #[test]
    fn a_directory_not_made_yet_is_measured_at_its_nearest_ancestor() {
        let tmp = tempfile::tempdir().unwrap();
        let deep = tmp.path().join("a/b/c");
        let here = available_space(tmp.path()).unwrap();
        let there = available_space(&deep).unwrap();
        assert!(here > 0);
        // Same file system; other writers may move it a little meanwhile.
        assert!(here.abs_diff(there) < 64 << 20, "{here} vs {there}");
        assert!(!deep.exists(), "measuring created the directory");
    }
}
