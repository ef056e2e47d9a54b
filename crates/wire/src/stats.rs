//! A material's statistics: `jungletb stats --json` (one per material) and
//! `GET /api/{ruleset}/stats/{material}`, one shape for both.

use jungletb_analysis::histogram::{Histogram, SideHistogram};
use jungletb_rules::{Color, Position, Value};
use jungletb_tablebase::Header;
use serde::Serialize;

/// The counts of one material's table, per side to move, with the
/// distance histograms when the values were read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MaterialStats {
    /// The material as stored (`"ERvT"`; `TvER` is answered from it).
    pub material: String,
    /// Pieces on the board.
    pub pieces: u32,
    /// Index slots of the table.
    pub slots: u64,
    /// Positions stored (one side to move only, for a material with the
    /// same animals on both sides).
    pub positions: u64,
    /// Positions with either side to move (the sum of both sides' wins,
    /// losses and draws).
    pub positions_both_sides_to_move: u64,
    /// Size of the table file, where known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
    /// With White to move.
    pub white_to_move: SideStats,
    /// With Black to move.
    pub black_to_move: SideStats,
}

/// One side to move's counts, for that side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SideStats {
    /// Positions the side to move wins.
    pub wins: u64,
    /// Positions it loses.
    pub losses: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Its longest win, in plies (0 if none).
    pub longest_win: u16,
    /// Its longest loss, in plies (0 if none).
    pub longest_loss: u16,
    /// False where the table answers this side to move by the colour swap
    /// of the other (same animals on both sides).
    pub stored: bool,
    /// `win_plies[d]`: wins in `d` plies (with the histogram only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win_plies: Option<Vec<u64>>,
    /// `loss_plies[d]`: losses in `d` plies (with the histogram only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loss_plies: Option<Vec<u64>>,
    /// A position of the longest win (with the histogram only; `null` if
    /// the side never wins).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub longest_win_example: Option<Option<Example>>,
    /// A position of the longest loss (with the histogram only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub longest_loss_example: Option<Option<Example>>,
}

/// A position and its distance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Example {
    /// The position, in the table's colours.
    pub position: String,
    /// Plies to the end.
    pub plies: u16,
}

impl MaterialStats {
    /// The counts of `header`'s table (a file of `bytes`, if given), with
    /// the histograms of `histogram` if the values were read.
    pub fn new(header: &Header, bytes: Option<u64>, histogram: Option<&Histogram>) -> Self {
        let side = |c: Color| {
            let s = header.side(c);
            let h = histogram.map(|h| h.side(c));
            let example = |e: &Option<(Value, Position)>| {
                e.as_ref().map(|(v, p)| Example {
                    position: p.to_string(),
                    plies: v.plies().unwrap_or(0),
                })
            };
            SideStats {
                wins: s.wins,
                losses: s.losses,
                draws: s.draws,
                longest_win: s.longest_win,
                longest_loss: s.longest_loss,
                stored: !(header.white_to_move_only && c == Color::Black),
                win_plies: h.map(|h| h.wins.clone()),
                loss_plies: h.map(|h| h.losses.clone()),
                longest_win_example: h.map(|h: &SideHistogram| example(&h.longest_win)),
                longest_loss_example: h.map(|h: &SideHistogram| example(&h.longest_loss)),
            }
        };
        let (white, black) = (side(Color::White), side(Color::Black));
        MaterialStats {
            material: header.material.to_string(),
            pieces: header.material.piece_count(),
            slots: header.index_size,
            positions: header.sides.iter().map(|s| s.positions).sum(),
            positions_both_sides_to_move: [&white, &black]
                .iter()
                .map(|s| s.wins + s.losses + s.draws)
                .sum(),
            bytes,
            white_to_move: white,
            black_to_move: black,
        }
    }
}
