//! The JSON documents of the API, computed from a [`Tablebase`] (blocking
//! work: these run on the probe pool, never on the async threads).
//!
//! Conventions (those of lichess's tablebase API): `category` and `plies`
//! of a position are for its side to move; each move's are for the side to
//! move *after* the move, so the mover's best move is the one whose
//! category is `"loss"` with the fewest plies.

use jungletb_analysis::histogram::histogram;
use jungletb_analysis::piece_map::{piece_map, MapError, MapSquare};
use jungletb_indexer::Material;
use jungletb_rules::{Color, Position, Square, Value};
use jungletb_tablebase::{Evaluation, ProbeError, Tablebase};
use jungletb_wire as wire;
use serde_json::{json, Value as Json};

/// `"w"` or `"b"`.
pub fn side_letter(c: Color) -> &'static str {
    match c {
        Color::White => "w",
        Color::Black => "b",
    }
}

/// `category` and `plies` of a value.
fn value_fields(v: Value) -> (&'static str, Option<u16>) {
    (v.wdl_name(), v.plies())
}

/// `GET /api/{ruleset}?position=P`: the position's value and every legal
/// move with the value after it, best first for the mover
/// ([`wire::PositionAnswer`]).
pub fn position(tb: &Tablebase, pos: &Position) -> Result<(Json, u64), ProbeError> {
    let e = tb.evaluate(pos)?;
    let probes = 1 + e.moves.len() as u64;
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
    let answer = wire::MainlineAnswer::new(&e.position, e.value, &line);
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
    let mut probes = 0;
    let squares: Vec<Json> = Square::all()
        .zip(&m.squares)
        .map(|(sq, cell)| match cell {
            MapSquare::Unavailable => Json::Null,
            MapSquare::Value(e) => {
                probes += 1;
                let (category, plies) = value_fields(e.value);
                json!({
                    "square": sq.to_string(),
                    "category": category,
                    "plies": plies,
                    "game_over": e.game_over.map(|g| g.name()),
                })
            }
        })
        .collect();
    Ok((
        json!({
            "position": m.position.to_string(),
            "square": from.to_string(),
            "piece": m.piece.letter().to_string(),
            "owner": side_letter(m.piece.color),
            "side_to_move": side_letter(m.position.side_to_move()),
            "squares": squares,
        }),
        probes,
    ))
}

/// `GET /api/{ruleset}/board`: the terrain, for drawing the board.
pub fn board(rules: &jungletb_rules::Ruleset) -> Json {
    let b = rules.board();
    let names = |f: &dyn Fn(Square) -> bool| -> Vec<String> {
        Square::all()
            .filter(|&s| f(s))
            .map(|s| s.to_string())
            .collect()
    };
    let animals: Vec<Json> = jungletb_rules::Animal::ALL
        .iter()
        .map(|&a| {
            json!({
                "letter": a.letter().to_string(),
                "name": a.name(),
                "rank": rules.rank(a),
                "in_game": rules.animal_allowed(a),
                "swims": rules.swims(a),
            })
        })
        .collect();
    json!({
        "ruleset": rules.label(),
        "source": rules.matching_name().and_then(|n| {
            jungletb_rules::BaseRuleset::ALL.iter().find(|b| b.name() == n).map(|b| b.source())
        }),
        "common_disagreements": jungletb_rules::COMMON_DISAGREEMENTS.iter().map(|(what, rule)| json!({
            "rules_say": what, "rule": rule,
        })).collect::<Vec<_>>(),
        "files": 7,
        "ranks": 9,
        "water": names(&|s| b.is_water(s)),
        "traps": {
            "w": names(&|s| b.is_trap_of(s, Color::White)),
            "b": names(&|s| b.is_trap_of(s, Color::Black)),
        },
        "dens": {
            "w": names(&|s| b.is_den_of(s, Color::White)),
            "b": names(&|s| b.is_den_of(s, Color::Black)),
        },
        "animals": animals,
        "options": rules.options().into_iter().map(|(k, v)| (k.to_string(), Json::from(v))).collect::<serde_json::Map<_, _>>(),
    })
}
