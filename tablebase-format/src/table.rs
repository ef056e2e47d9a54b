//! One table file, validated and memory-mapped.

use crate::encoding::decode;
use crate::error::TableError;
use crate::header::Header;
use jungletb_indexer::{Material, PositionIndex};
use jungletb_rules::{Position, Ruleset, Value};
use memmap2::Mmap;
use std::fs::File;
use std::path::{Path, PathBuf};

/// A validated table: header checked, rule set and material matched,
/// payload checksum verified, values read through a memory map.
pub struct Table {
    path: PathBuf,
    header: Header,
    index: PositionIndex,
    map: Mmap,
    offset: usize,
}

impl Table {
    /// Opens and fully validates the table of `material` at `path` for
    /// `rules`. Every check (magic, versions, sizes, rule set, material,
    /// both checksums) happens here, so a `Table` never answers from a bad
    /// file.
    pub fn open(path: &Path, rules: &Ruleset, material: Material) -> Result<Table, TableError> {
        let table = Self::open_unchecked_ruleset(path)?;
        table.header.check_ruleset(rules, path)?;
        if table.header.material != material {
            return Err(TableError::WrongMaterial {
                path: path.to_path_buf(),
                expected: material.to_string(),
                found: table.header.material.to_string(),
            });
        }
        Ok(table)
    }

    /// Opens and validates a table file under whatever rule set it records
    /// (for `info`). Checksums are verified.
    pub fn open_any(path: &Path) -> Result<Table, TableError> {
        Self::open_unchecked_ruleset(path)
    }

    fn open_unchecked_ruleset(path: &Path) -> Result<Table, TableError> {
        let io = |e: std::io::Error| {
            if e.kind() == std::io::ErrorKind::NotFound {
                TableError::Missing(path.to_path_buf())
            } else {
                TableError::Io {
                    path: path.to_path_buf(),
                    message: e.to_string(),
                }
            }
        };
        let file = File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        if len == 0 {
            return Err(TableError::NotATable(path.to_path_buf()));
        }
        // SAFETY: the map is read-only. Table files are written once under a
        // temporary name and renamed into place, never modified in place, so
        // the mapped bytes do not change while mapped (unless another program
        // writes them, which no jungletb tool does).
        let map = unsafe { Mmap::map(&file) }.map_err(io)?;
        #[cfg(unix)]
        let _ = map.advise(memmap2::Advice::Random);
        let header = Header::parse(&map, len, path)?;
        let rules =
            Ruleset::from_canonical_string(&header.ruleset).map_err(|e| TableError::Corrupt {
                path: path.to_path_buf(),
                what: format!("rule set: {e}"),
            })?;
        if rules.id() != header.ruleset_id {
            return Err(TableError::Corrupt {
                path: path.to_path_buf(),
                what: "rule-set identifier does not match its options".into(),
            });
        }
        let index =
            PositionIndex::new(header.material, &rules).map_err(|e| TableError::Corrupt {
                path: path.to_path_buf(),
                what: e.to_string(),
            })?;
        if index.size() != header.index_size {
            return Err(TableError::Corrupt {
                path: path.to_path_buf(),
                what: format!(
                    "index size {} does not match the material's {}",
                    header.index_size,
                    index.size()
                ),
            });
        }
        let offset = header.header_len as usize;
        if crc32fast::hash(&map[offset..]) != header.payload_crc {
            return Err(TableError::ChecksumMismatch {
                path: path.to_path_buf(),
                part: "payload",
            });
        }
        Ok(Table {
            path: path.to_path_buf(),
            header,
            index,
            map,
            offset,
        })
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The file path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The position index of the material.
    pub fn index(&self) -> &PositionIndex {
        &self.index
    }

    /// The raw stored value of slot `i` (see [`crate::encoding`]).
    /// `i` must be below the index size.
    #[inline]
    pub fn raw(&self, i: u64) -> u16 {
        let i = i as usize;
        match self.header.value_width {
            1 => self.map[self.offset + i] as u16,
            _ => {
                let o = self.offset + 2 * i;
                u16::from_le_bytes([self.map[o], self.map[o + 1]])
            }
        }
    }

    /// The value of slot `i`; an error if the slot is unused (which a probe
    /// of a real position never hits unless the file is inconsistent).
    #[inline]
    pub fn value_at(&self, i: u64) -> Result<Value, TableError> {
        decode(self.raw(i)).ok_or_else(|| TableError::Corrupt {
            path: self.path.clone(),
            what: format!("slot {i} is marked unused but holds a position"),
        })
    }

    /// The value of `pos`, whose material must be this table's (canonical)
    /// material, for the side to move.
    #[inline]
    pub fn probe(&self, pos: &Position) -> Result<Value, TableError> {
        self.value_at(self.index.index(pos))
    }

    /// Number of bytes of the file.
    pub fn file_len(&self) -> u64 {
        self.map.len() as u64
    }
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({})", self.path.display())
    }
}
