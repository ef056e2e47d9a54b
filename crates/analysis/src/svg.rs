//! Pictures as SVG text: the map of a piece ([`map_svg`]) and the distance
//! histogram of a material ([`histogram_svg`]). Written by `jungletb render`
//! and drawn the same way (same colours) by the web board.
//!
//! Colours: wins green, draws grey, losses red, a shorter win or a longer
//! loss darker; squares a piece may not stand on are left white. A map is
//! coloured for the owner of the mapped piece, whoever is to move.

use crate::histogram::Histogram;
use crate::piece_map::{MapSquare, PieceMap};
use jungletb_indexer::Material;
use jungletb_rules::{Color, Ruleset, Square, Value};
use std::fmt::Write;

/// Side of one square, in SVG units.
const CELL: u32 = 56;
/// Margin for the coordinates.
const MARGIN: u32 = 24;

/// The fill colour of a value for the player it is given for: wins green
/// (darker the sooner), draws grey, losses red (darker the sooner).
pub fn value_colour(v: Value) -> String {
    // Shade by distance: 0 plies full strength, fading towards 120.
    let fade = |d: u16| 0.35 + 0.65 * (1.0 - (f64::from(d) / 120.0).min(1.0));
    match v {
        Value::Win(d) => format!("rgba(34,139,34,{:.2})", fade(d)),
        Value::Loss(d) => format!("rgba(200,40,40,{:.2})", fade(d)),
        Value::Draw => "rgba(140,140,140,0.55)".into(),
    }
}

/// A value for the other player.
fn for_other(v: Value) -> Value {
    match v {
        Value::Win(d) => Value::Loss(d),
        Value::Loss(d) => Value::Win(d),
        Value::Draw => Value::Draw,
    }
}

/// Short text of a value: `W13`, `L8`, `D`.
fn short(v: Value) -> String {
    match v {
        Value::Win(d) => format!("W{d}"),
        Value::Loss(d) => format!("L{d}"),
        Value::Draw => "D".into(),
    }
}

/// Top-left corner of a square (White's den at the bottom).
fn corner(sq: Square) -> (u32, u32) {
    (
        MARGIN + u32::from(sq.file()) * CELL,
        MARGIN + (8 - u32::from(sq.rank())) * CELL,
    )
}

/// The map of a piece: each square coloured by the value of the position
/// with the piece there, for the piece's owner, with the distance written
/// in the square; the other pieces drawn as letters (White upper case).
pub fn map_svg(rules: &Ruleset, map: &PieceMap) -> String {
    let board = rules.board();
    let (w, h) = (2 * MARGIN + 7 * CELL, 2 * MARGIN + 9 * CELL + 28);
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"#
    );
    let _ = write!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    for sq in Square::all() {
        let (x, y) = corner(sq);
        let terrain = if board.is_water(sq) {
            "#9cc9ef"
        } else if board.is_den(sq) {
            "#e9d39a"
        } else if board.is_trap(sq) {
            "#d9c7b0"
        } else {
            "#f4f1e8"
        };
        let _ = write!(
            s,
            r##"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{terrain}" stroke="#777"/>"##
        );
        if let MapSquare::Value(e) = &map.squares[sq.index()] {
            let v = if e.position.side_to_move() == map.piece.color {
                e.value
            } else {
                for_other(e.value)
            };
            let _ = write!(
                s,
                r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/>"#,
                x + 4,
                y + 4,
                CELL - 8,
                CELL - 8,
                value_colour(v)
            );
            let _ = write!(
                s,
                r#"<text x="{}" y="{}" font-size="13" text-anchor="middle" fill="black">{}</text>"#,
                x + CELL / 2,
                y + CELL - 8,
                short(v)
            );
        }
        if board.is_trap(sq) || board.is_den(sq) {
            let mark = if board.is_den(sq) { "den" } else { "trap" };
            let _ = write!(
                s,
                r##"<text x="{}" y="{}" font-size="9" fill="#555">{mark}</text>"##,
                x + 3,
                y + 11
            );
        }
        if let Some(p) = map.position.piece_at(sq).filter(|_| sq != map.from) {
            let (fill, ink) = match p.color {
                Color::White => ("white", "black"),
                Color::Black => ("#222", "white"),
            };
            let _ = write!(
                s,
                r#"<circle cx="{}" cy="{}" r="17" fill="{fill}" stroke="black"/><text x="{}" y="{}" font-size="18" text-anchor="middle" fill="{ink}">{}</text>"#,
                x + CELL / 2,
                y + CELL / 2,
                x + CELL / 2,
                y + CELL / 2 + 6,
                p.letter()
            );
        }
    }
    let (fx, fy) = corner(map.from);
    let _ = write!(
        s,
        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="blue" stroke-width="3"/>"#,
        fx + 1,
        fy + 1,
        CELL - 2,
        CELL - 2
    );
    for f in 0..7u32 {
        let _ = write!(
            s,
            r#"<text x="{}" y="{}" font-size="12" text-anchor="middle">{}</text>"#,
            MARGIN + f * CELL + CELL / 2,
            MARGIN + 9 * CELL + 14,
            (b'a' + f as u8) as char
        );
    }
    for r in 0..9u32 {
        let _ = write!(
            s,
            r#"<text x="{}" y="{}" font-size="12" text-anchor="middle">{}</text>"#,
            MARGIN / 2,
            MARGIN + (8 - r) * CELL + CELL / 2 + 4,
            r + 1
        );
    }
    let owner = match map.piece.color {
        Color::White => "White",
        Color::Black => "Black",
    };
    let _ = write!(
        s,
        r#"<text x="{MARGIN}" y="{}" font-size="12">{} {} from {} — values for {owner} ({} to move): W win, D draw, L loss in plies</text>"#,
        h - 6,
        owner,
        map.piece.animal.name(),
        map.from,
        if map.position.side_to_move() == Color::White {
            "White"
        } else {
            "Black"
        },
    );
    s.push_str("</svg>\n");
    s
}

/// The distance histogram of a material: for each side to move, wins and
/// losses by distance in plies (bars up for wins, down for losses, on a
/// square-root scale so that rare long wins stay visible), draws in the
/// caption.
pub fn histogram_svg(material: Material, hist: &Histogram) -> String {
    let longest = Color::ALL
        .iter()
        .map(|&c| hist.side(c).wins.len().max(hist.side(c).losses.len()))
        .max()
        .unwrap_or(0)
        .max(1);
    let bar = 4u32;
    let plot_w = (longest as u32 * bar).max(200);
    let (w, panel) = (plot_w + 80, 200u32);
    let h = 2 * panel + 40;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif"><rect width="{w}" height="{h}" fill="white"/>"#
    );
    let peak = Color::ALL
        .iter()
        .flat_map(|&c| hist.side(c).wins.iter().chain(&hist.side(c).losses))
        .copied()
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    for (k, c) in Color::ALL.into_iter().enumerate() {
        let side = hist.side(c);
        let top = 30 + k as u32 * panel;
        let axis = top + panel / 2;
        let half = f64::from(panel / 2 - 14);
        let name = if c == Color::White { "White" } else { "Black" };
        let _ = write!(
            s,
            r#"<text x="8" y="{}" font-size="12">{material}, {name} to move: {} wins, {} losses, {} draws</text><line x1="40" y1="{axis}" x2="{}" y2="{axis}" stroke="black"/>"#,
            top - 6,
            side.wins.iter().sum::<u64>(),
            side.losses.iter().sum::<u64>(),
            side.draws,
            40 + plot_w
        );
        for (counts, up, colour) in [
            (&side.wins, true, "#228b22"),
            (&side.losses, false, "#c82828"),
        ] {
            for (d, &n) in counts.iter().enumerate().filter(|(_, &n)| n > 0) {
                let len = ((n as f64 / peak).sqrt() * half).max(1.0);
                let y = if up {
                    f64::from(axis) - len
                } else {
                    f64::from(axis)
                };
                let _ = write!(
                    s,
                    r#"<rect x="{}" y="{y:.1}" width="{}" height="{len:.1}" fill="{colour}"><title>{} in {d}: {n}</title></rect>"#,
                    40 + d as u32 * bar,
                    bar - 1,
                    if up { "win" } else { "loss" }
                );
            }
        }
        for d in (0..longest).step_by(20) {
            let _ = write!(
                s,
                r#"<text x="{}" y="{}" font-size="10" text-anchor="middle">{d}</text>"#,
                40 + d as u32 * bar,
                top + panel - 4
            );
        }
    }
    let _ = write!(
        s,
        r#"<text x="8" y="{}" font-size="11">plies to the end (wins up, losses down, square-root scale)</text></svg>"#,
        h - 4
    );
    s.push('\n');
    s
}
