//! The JSON documents of the API, computed from a [`Tablebase`] (blocking
//! work: these run on the probe pool, never on the async threads).
//!
//! Conventions (those of lichess's tablebase API): `category` and `plies`
//! of a position are for its side to move; each move's are for the side to
//! move *after* the move, so the mover's best move is the one whose
//! category is `"loss"` with the fewest plies.

use jungletb_analysis::histogram::histogram;
use jungletb_analysis::piece_map::{piece_map, MapError};
use jungletb_indexer::Material;
use jungletb_rules::{Position, Square};
use jungletb_tablebase::{Evaluation, ProbeError, Tablebase};
use jungletb_wire as wire;
use serde_json::Value as Json;

/// `GET /api/{ruleset}?position=P`: the position's value and every legal
/// move with the value after it, best first for the mover
/// ([`wire::PositionAnswer`]).
pub fn position(tb: &Tablebase, pos: &Position) -> Result<(Json, u64), ProbeError> {
    answer_of(tb, tb.evaluate(pos)?)
}

/// `GET /api/{ruleset}?position=P&replies=true`: [`position`] with each
/// move's replies counted by their value (a ply of WDL probes more).
pub fn position_with_replies(tb: &Tablebase, pos: &Position) -> Result<(Json, u64), ProbeError> {
    answer_of(tb, tb.evaluate_with_replies(pos)?)
}

/// The JSON of `e` and the probes it took: one, one a move, and one a
/// reply.
fn answer_of(tb: &Tablebase, e: Evaluation) -> Result<(Json, u64), ProbeError> {
    let probes = 1 + e
        .moves
        .iter()
        .map(|r| 1 + r.replies.map_or(0, |r| r.total() as u64))
        .sum::<u64>();
    let answer = wire::position_answer(tb.rules(), &e);
    Ok((serde_json::to_value(answer).expect("serialisable"), probes))
}

/// `GET /api/{ruleset}/mainline?position=P`: the optimal line to the end
/// (empty for a draw or a finished game), each step with the position and
/// its value after the move ([`wire::MainlineAnswer`]). (The probe count
/// reported is one per step.)
pub fn mainline(tb: &Tablebase, pos: &Position) -> Result<(Json, u64), ProbeError> {
    let e: Evaluation = tb.evaluate_value(pos)?;
    let line = if e.game_over.is_some() {
        Vec::new()
    } else {
        tb.line(pos)?
    };
    // Along an optimal line the values follow from the first one (`line`
    // has checked that the line is as long as the table says).
    let answer = wire::MainlineAnswer::new(tb.rules(), &e.position, e.value, &line);
    Ok((
        serde_json::to_value(answer).expect("serialisable"),
        1 + line.len() as u64,
    ))
}

/// `GET /api/{ruleset}/stats/{material}`: counts per side to move (from
/// the header), the distance histogram and the longest win and loss with
/// an example position each (one pass over the table).
pub fn stats(tb: &Tablebase, material: Material) -> Result<(Json, u64), ProbeError> {
    let table = tb.table(material)?;
    let hist = histogram(tb, material)?;
    let header = table.header();
    let answer = wire::MaterialStats::new(header, Some(table.file_len()), Some(&hist));
    Ok((
        serde_json::to_value(answer).expect("serialisable"),
        header.index_size,
    ))
}

/// `GET /api/{ruleset}/map?position=P&square=S`: the value (for the side
/// to move of `P`) with the piece on `S` placed on each square; `null`
/// where it may not stand.
pub fn map(tb: &Tablebase, pos: &Position, from: Square) -> Result<(Json, u64), MapError> {
    let m = piece_map(tb, pos, from)?;
    let answer = wire::MapAnswer::new(&m);
    let probes = answer.squares.iter().flatten().count() as u64;
    Ok((serde_json::to_value(answer).expect("serialisable"), probes))
}

/// `GET /api/{ruleset}/board`: the terrain, for drawing the board.
pub fn board(rules: &jungletb_rules::Ruleset) -> Json {
    serde_json::to_value(wire::BoardAnswer::new(rules)).expect("serialisable")
}
