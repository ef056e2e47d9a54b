//! Placements: a table's positions without the side to move, each with the
//! values for both sides to move.
//!
//! A table's index stores one of each pair of mirror images (left–right),
//! both sides to move; materials with the same animals on both sides store
//! White to move only, the Black-to-move value of a placement being the
//! White-to-move value of its colour swap. Scans that count "every
//! placement on the board" weigh each stored placement by its mirror
//! images: 1 if it is its own mirror image, else 2.

use jungletb_rules::{Color, Position, Value};
use jungletb_tablebase::{ProbeError, Table, Tablebase};
use std::ops::Range;

/// Slot ranges of at most this many slots are the unit of parallel work.
pub const CHUNK: u64 = 1 << 20;

/// The slots of White-to-move placements of `t`: `0..n`; the Black-to-move
/// slot of placement `i` is `i + n` unless the table stores White to move
/// only.
pub fn white_slots(t: &Table) -> u64 {
    let idx = t.index();
    if idx.white_to_move_only() {
        idx.size()
    } else {
        idx.size() / 2
    }
}

/// `0..n` cut into chunks of [`CHUNK`] slots.
pub fn chunks(n: u64) -> Vec<Range<u64>> {
    (0..n.div_ceil(CHUNK))
        .map(|k| k * CHUNK..((k + 1) * CHUNK).min(n))
        .collect()
}

/// The value with Black to move of the placement of `pos` (White to move),
/// probed through `tb` (for tables that store White to move only, where
/// it is the value of the colour swap, found at another slot).
pub fn black_value(tb: &Tablebase, pos: &Position) -> Result<Value, ProbeError> {
    let mut black = *pos;
    black.set_side_to_move(Color::Black);
    tb.probe(&black)
}

/// How many placements on the board slot `pos` stands for: 1 if it is its
/// own mirror image, else 2.
pub fn weight(pos: &Position) -> u64 {
    if pos.is_mirror_symmetric() {
        1
    } else {
        2
    }
}
