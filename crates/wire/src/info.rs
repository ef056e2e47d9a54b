//! `jungletb info --json` (one table's header) and the per-piece-count
//! lines of `jungletb stats --json`.

use jungletb_analysis::histogram::Histogram;
use jungletb_rules::{Color, Ruleset};
use jungletb_tablebase::{Table, TableError};
use serde::Serialize;
use std::collections::BTreeMap;

/// One side to move's counts in a header.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InfoSide {
    /// Wins of the side to move.
    pub wins: u64,
    /// Its losses.
    pub losses: u64,
    /// Draws.
    pub draws: u64,
    /// Its longest win, in plies.
    pub longest_win: u16,
    /// Its longest loss.
    pub longest_loss: u16,
    /// A position of the longest win (`--examples` only; `null` if none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub longest_win_example: Option<Option<String>>,
    /// A position of the longest loss (`--examples` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub longest_loss_example: Option<Option<String>>,
}

/// A compressed table's streams.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InfoCompressed {
    /// Bytes of the WDL stream.
    pub wdl_bytes: u64,
    /// Bytes of the distance stream.
    pub distance_bytes: u64,
    /// It stores tactical don't-cares.
    pub dont_cares: bool,
}

/// `jungletb info FILE --json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InfoAnswer {
    /// The file.
    pub file: String,
    /// Its material.
    pub material: String,
    /// The header's format version.
    pub format_version: u32,
    /// The index scheme's version.
    pub index_scheme_version: u32,
    /// The rule set's label.
    pub ruleset: String,
    /// Its identifier (hex).
    pub ruleset_id: String,
    /// Every rule option's value.
    pub options: BTreeMap<&'static str, String>,
    /// Index slots.
    pub slots: u64,
    /// Positions stored.
    pub positions: u64,
    /// Only White to move is stored (the same animals on both sides).
    pub white_to_move_only: bool,
    /// Bytes a value.
    pub value_width: u8,
    /// The compressed streams (`null`: a plain table).
    pub compressed: Option<InfoCompressed>,
    /// The file's size.
    pub bytes: u64,
    /// The payload's CRC-32 (hex).
    pub payload_crc32: String,
    /// Each side to move stored: `white_to_move`, `black_to_move`.
    pub sides: BTreeMap<&'static str, InfoSide>,
}

impl InfoAnswer {
    /// The answer for table `t` (the file `file`) under `rules`, with the
    /// longest wins' and losses' positions of `examples` if given. An
    /// error if a section of a compressed table cannot be read.
    pub fn new(
        file: String,
        t: &Table,
        rules: &Ruleset,
        examples: Option<&Histogram>,
    ) -> Result<Self, TableError> {
        let h = t.header();
        let mut sides = BTreeMap::new();
        for side in Color::ALL {
            if h.white_to_move_only && side == Color::Black {
                continue;
            }
            let s = h.sides[side.index()];
            let example = |e: &Option<(jungletb_rules::Value, jungletb_rules::Position)>| {
                e.as_ref().map(|(_, p)| p.to_string())
            };
            let hs = examples.map(|x| x.side(side));
            let key = if side == Color::White {
                "white_to_move"
            } else {
                "black_to_move"
            };
            sides.insert(
                key,
                InfoSide {
                    wins: s.wins,
                    losses: s.losses,
                    draws: s.draws,
                    longest_win: s.longest_win,
                    longest_loss: s.longest_loss,
                    longest_win_example: hs.map(|hs| example(&hs.longest_win)),
                    longest_loss_example: hs.map(|hs| example(&hs.longest_loss)),
                },
            );
        }
        Ok(InfoAnswer {
            file,
            material: h.material.to_string(),
            format_version: h.format_version,
            index_scheme_version: h.index_scheme_version,
            ruleset: rules.label(),
            ruleset_id: format!("{:016x}", h.ruleset_id),
            options: rules.options().into_iter().collect(),
            slots: h.index_size,
            positions: h.sides.iter().map(|s| s.positions).sum(),
            white_to_move_only: h.white_to_move_only,
            value_width: h.value_width,
            compressed: t.compressed_sizes()?.map(|z| InfoCompressed {
                wdl_bytes: z.wdl_bytes,
                distance_bytes: z.dtm_bytes,
                dont_cares: t.has_dont_cares(),
            }),
            bytes: t.file_len(),
            payload_crc32: format!("{:08x}", h.payload_crc),
            sides,
        })
    }
}

/// Wins, losses and draws of one side to move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Wld {
    /// Wins.
    pub wins: u64,
    /// Losses.
    pub losses: u64,
    /// Draws.
    pub draws: u64,
}

/// One piece count's totals (the last lines of `stats --json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PieceCountStats {
    /// Pieces.
    pub pieces: u32,
    /// Tables.
    pub tables: u64,
    /// Positions with either side to move.
    pub positions_both_sides_to_move: u64,
    /// Index slots.
    pub slots: u64,
    /// Bytes of the files.
    pub bytes: u64,
    /// White to move.
    pub white_to_move: Wld,
    /// Black to move.
    pub black_to_move: Wld,
    /// The longest win of any of them.
    pub longest_win: u16,
    /// The material it is in.
    pub longest_win_material: Option<String>,
}
