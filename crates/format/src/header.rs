//! The table file header.
//!
//! All integers little-endian. Layout of format version 1:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `JUNGLETB` |
//! | 8 | 4 | format version |
//! | 12 | 4 | index scheme version |
//! | 16 | 8 | rule-set identifier ([`Ruleset::id`]) |
//! | 24 | 8 | index size (slots) |
//! | 32 | 1 | value width in bytes (1 or 2) |
//! | 33 | 1 | flags (bit 0: White to move only; bit 1: compressed payload) |
//! | 34 | 1 | White's animal mask |
//! | 35 | 1 | Black's animal mask |
//! | 36 | 4 | header length (payload offset, a multiple of 64) |
//! | 40 | 8 | payload length |
//! | 48 | 4 | payload CRC-32 |
//! | 52 | 4 | reserved (0) |
//! | 56 | 72 | per side to move (White, Black): positions, wins, losses, draws (u64 each), longest win, longest loss (u16 each) |
//! | 128 | 2 + n | rule-set canonical string (length u16, bytes) |
//! | … | 1 + m | material name (length u8, bytes) |
//! | … | 4 | header CRC-32 of every byte before it |
//! | … | | zero padding to the header length |
//!
//! The payload is one value per index slot ([`crate::encoding`]), or for
//! compressed tables (`.jtbz`) the block streams of [`crate::compressed`];
//! their value width is that of the stored distances.

use crate::error::{TableError, Unsupported};
use jungletb_indexer::Material;
use jungletb_rules::{Color, Ruleset};
use std::path::Path;

/// The first eight bytes of every table file.
pub const MAGIC: [u8; 8] = *b"JUNGLETB";
/// The version of the file layout written by this library.
pub const FORMAT_VERSION: u32 = 1;
const FIXED_LEN: usize = 128;

/// Counts for one side to move.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SideStats {
    /// Positions stored with this side to move.
    pub positions: u64,
    /// Wins for the side to move.
    pub wins: u64,
    /// Losses for the side to move.
    pub losses: u64,
    /// Draws.
    pub draws: u64,
    /// Longest win (plies), 0 if none.
    pub longest_win: u16,
    /// Longest loss (plies), 0 if none.
    pub longest_loss: u16,
}

/// Everything a table file says about itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// File format version.
    pub format_version: u32,
    /// Index scheme version.
    pub index_scheme_version: u32,
    /// The rule set's identifier.
    pub ruleset_id: u64,
    /// The rule set's canonical option string.
    pub ruleset: String,
    /// The material.
    pub material: Material,
    /// Number of index slots.
    pub index_size: u64,
    /// Bytes per value (1 or 2).
    pub value_width: u8,
    /// Only White-to-move positions are stored.
    pub white_to_move_only: bool,
    /// The payload is compressed (a `.jtbz` distribution table).
    pub compressed: bool,
    /// Offset of the payload.
    pub header_len: u32,
    /// Payload length in bytes.
    pub payload_len: u64,
    /// CRC-32 of the payload.
    pub payload_crc: u32,
    /// Counts per side to move (White, Black).
    pub sides: [SideStats; 2],
}

impl Header {
    /// Counts for `side` to move. For tables storing White to move only, the
    /// Black figures are the White ones (by the colour swap).
    pub fn side(&self, side: Color) -> SideStats {
        if self.white_to_move_only {
            self.sides[0]
        } else {
            self.sides[side.index()]
        }
    }

    /// Serialises the header, padded to its length.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(256);
        b.extend_from_slice(&MAGIC);
        b.extend_from_slice(&self.format_version.to_le_bytes());
        b.extend_from_slice(&self.index_scheme_version.to_le_bytes());
        b.extend_from_slice(&self.ruleset_id.to_le_bytes());
        b.extend_from_slice(&self.index_size.to_le_bytes());
        b.push(self.value_width);
        b.push(self.white_to_move_only as u8 | (self.compressed as u8) << 1);
        b.push(self.material.mask(Color::White));
        b.push(self.material.mask(Color::Black));
        b.extend_from_slice(&Self::len_for(&self.ruleset, &self.material).to_le_bytes());
        b.extend_from_slice(&self.payload_len.to_le_bytes());
        b.extend_from_slice(&self.payload_crc.to_le_bytes());
        b.extend_from_slice(&0u32.to_le_bytes());
        for s in &self.sides {
            for n in [s.positions, s.wins, s.losses, s.draws] {
                b.extend_from_slice(&n.to_le_bytes());
            }
            b.extend_from_slice(&s.longest_win.to_le_bytes());
            b.extend_from_slice(&s.longest_loss.to_le_bytes());
        }
        debug_assert_eq!(b.len(), FIXED_LEN);
        b.extend_from_slice(&(self.ruleset.len() as u16).to_le_bytes());
        b.extend_from_slice(self.ruleset.as_bytes());
        let name = self.material.to_string();
        b.push(name.len() as u8);
        b.extend_from_slice(name.as_bytes());
        let crc = crc32fast::hash(&b);
        b.extend_from_slice(&crc.to_le_bytes());
        b.resize(Self::len_for(&self.ruleset, &self.material) as usize, 0);
        b
    }

    /// The header length for these strings: fixed part, strings, CRC,
    /// rounded up to 64 bytes.
    pub fn len_for(ruleset: &str, material: &Material) -> u32 {
        let raw = FIXED_LEN + 2 + ruleset.len() + 1 + material.to_string().len() + 4;
        raw.div_ceil(64) as u32 * 64
    }

    /// Parses and checks a header from the start of a file. `file_len` is
    /// the size of the whole file; `path` is for error messages.
    pub fn parse(bytes: &[u8], file_len: u64, path: &Path) -> Result<Header, TableError> {
        let p = || path.to_path_buf();
        let corrupt = |what: &str| TableError::Corrupt {
            path: p(),
            what: what.to_string(),
        };
        if bytes.len() < 8 || bytes[..8] != MAGIC {
            return Err(TableError::NotATable(p()));
        }
        if bytes.len() < FIXED_LEN + 2 {
            return Err(TableError::Truncated {
                path: p(),
                expected: FIXED_LEN as u64 + 64,
                found: file_len,
            });
        }
        let u16_at = |o: usize| u16::from_le_bytes([bytes[o], bytes[o + 1]]);
        let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().expect("4 bytes"));
        let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().expect("8 bytes"));
        let (format_version, index_scheme_version) = (u32_at(8), u32_at(12));
        check_versions(format_version, index_scheme_version, path)?;
        let header_len = u32_at(36);
        if (header_len as usize) > bytes.len() || (header_len as usize) < FIXED_LEN + 8 {
            return Err(TableError::Truncated {
                path: p(),
                expected: header_len as u64,
                found: file_len,
            });
        }
        let rs_len = u16_at(FIXED_LEN) as usize;
        let rs_end = FIXED_LEN + 2 + rs_len;
        if rs_end + 1 > header_len as usize {
            return Err(corrupt("rule-set string overruns the header"));
        }
        let name_len = bytes[rs_end] as usize;
        let name_end = rs_end + 1 + name_len;
        if name_end + 4 > header_len as usize {
            return Err(corrupt("material name overruns the header"));
        }
        let stored_crc = u32_at(name_end);
        if crc32fast::hash(&bytes[..name_end]) != stored_crc {
            return Err(TableError::ChecksumMismatch {
                path: p(),
                part: "header",
            });
        }
        if bytes[name_end + 4..header_len as usize]
            .iter()
            .any(|&b| b != 0)
        {
            return Err(corrupt("non-zero bytes in the header padding"));
        }
        let ruleset = std::str::from_utf8(&bytes[FIXED_LEN + 2..rs_end])
            .map_err(|_| corrupt("rule-set string is not UTF-8"))?
            .to_string();
        let name = std::str::from_utf8(&bytes[rs_end + 1..name_end])
            .map_err(|_| corrupt("material name is not UTF-8"))?;
        let material = Material::new(bytes[34], bytes[35])
            .map_err(|_| corrupt("material with an empty side"))?;
        if material.to_string() != name || !material.is_canonical() {
            return Err(corrupt("material name and masks disagree"));
        }
        let flags = bytes[33];
        if flags & !0b11 != 0 {
            return Err(TableError::UnsupportedVersion {
                path: p(),
                what: Unsupported::HeaderFlags { flags },
            });
        }
        let value_width = bytes[32];
        if value_width != 1 && value_width != 2 {
            return Err(corrupt(&format!("value width {value_width}")));
        }
        let sides = [0, 1].map(|k| SideStats::read(&bytes[56 + 36 * k..56 + 36 * (k + 1)]));
        let header = Header {
            format_version,
            index_scheme_version,
            ruleset_id: u64_at(16),
            ruleset,
            material,
            index_size: u64_at(24),
            value_width,
            white_to_move_only: flags & 1 != 0,
            compressed: flags & 2 != 0,
            header_len,
            payload_len: u64_at(40),
            payload_crc: u32_at(48),
            sides,
        };
        header.check_lengths(file_len, path)?;
        Ok(header)
    }

    /// The payload's length against the index (plain tables) and the
    /// file's against header and payload.
    fn check_lengths(&self, file_len: u64, path: &Path) -> Result<(), TableError> {
        if !self.compressed
            && self.payload_len != self.index_size.saturating_mul(self.value_width as u64)
        {
            return Err(TableError::Corrupt {
                path: path.to_path_buf(),
                what: "payload length disagrees with index size".into(),
            });
        }
        let expected = self.header_len as u64 + self.payload_len;
        if file_len != expected {
            return Err(TableError::Truncated {
                path: path.to_path_buf(),
                expected,
                found: file_len,
            });
        }
        Ok(())
    }

    /// Reads and checks only the header of the table file at `path` (its own
    /// checksum included, not the payload's): what `stats` and the first
    /// step of `verify` need, without reading the whole file.
    pub fn read(path: &Path) -> Result<Header, TableError> {
        use std::io::Read;
        let io = |e| TableError::from_io(path, "reading", e);
        let mut file = std::fs::File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        // Headers are a few hundred bytes (strings are bounded by u16/u8
        // lengths), so 64 KiB always holds one.
        let mut bytes = Vec::new();
        file.by_ref()
            .take(1 << 16)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        Header::parse(&bytes, len, path)
    }

    /// Checks that the header belongs to `rules`.
    pub fn check_ruleset(&self, rules: &Ruleset, path: &Path) -> Result<(), TableError> {
        if self.ruleset_id != rules.id() || self.ruleset != rules.canonical_string() {
            let found = Ruleset::from_canonical_string(&self.ruleset)
                .map(|r| r.label())
                .unwrap_or_else(|_| format!("unknown ({})", self.ruleset));
            return Err(TableError::WrongRuleset {
                path: path.to_path_buf(),
                expected: rules.label(),
                found,
            });
        }
        Ok(())
    }
}

impl SideStats {
    /// One side's 36 bytes of the header.
    fn read(b: &[u8]) -> SideStats {
        let u64_at = |o: usize| u64::from_le_bytes(b[o..o + 8].try_into().expect("8 bytes"));
        let u16_at = |o: usize| u16::from_le_bytes([b[o], b[o + 1]]);
        SideStats {
            positions: u64_at(0),
            wins: u64_at(8),
            losses: u64_at(16),
            draws: u64_at(24),
            longest_win: u16_at(32),
            longest_loss: u16_at(34),
        }
    }
}

/// Refuses another table format or index scheme.
fn check_versions(format: u32, index_scheme: u32, path: &Path) -> Result<(), TableError> {
    if format != FORMAT_VERSION {
        return Err(TableError::UnsupportedVersion {
            path: path.to_path_buf(),
            what: Unsupported::FormatVersion {
                found: format,
                supported: FORMAT_VERSION,
            },
        });
    }
    if index_scheme != jungletb_indexer::INDEX_SCHEME_VERSION {
        return Err(TableError::UnsupportedVersion {
            path: path.to_path_buf(),
            what: Unsupported::IndexScheme {
                found: index_scheme,
                supported: jungletb_indexer::INDEX_SCHEME_VERSION,
            },
        });
    }
    Ok(())
}
