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
/// Left and right margins (the rank numbers stand in the left one).
const MARGIN: u32 = 24;
/// Height of the title band above the board (two lines).
const TITLE: u32 = 44;
/// Height of the band below the board (the file letters).
const FOOT: u32 = 22;
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
        TITLE + (8 - u32::from(sq.rank())) * CELL,
    )
}

/// A piece as a disc with its letter, centred on `(cx, cy)` (layout of a
/// square: the trap or den label in the top band, the piece in the middle,
/// the value in the bottom band, so that no two texts meet).
fn piece_disc(s: &mut String, p: jungletb_rules::Piece, cx: u32, cy: u32) {
    let (fill, ink) = match p.color {
        Color::White => ("white", "black"),
        Color::Black => ("#222", "white"),
    };
    let _ = write!(
        s,
        r#"<circle cx="{cx}" cy="{cy}" r="13" fill="{fill}" stroke="black"/><text x="{cx}" y="{}" font-size="15" text-anchor="middle" fill="{ink}">{}</text>"#,
        cy + 5,
        p.letter()
    );
}

/// The map of a piece: each square coloured by the value of the position
/// with the piece there, for the piece's owner, with the distance written
/// in the square; the other pieces drawn as letters (White upper case).
pub fn map_svg(rules: &Ruleset, map: &PieceMap) -> String {
    let board = rules.board();
    let (w, h) = (2 * MARGIN + 7 * CELL, TITLE + 9 * CELL + FOOT);
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"#
    );
    let _ = write!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let name = |c: Color| if c == Color::White { "White" } else { "Black" };
    let owner = name(map.piece.color);
    let _ = write!(
        s,
        r#"<text x="{MARGIN}" y="17" font-size="14" font-weight="bold">Map of the {owner} {} from {}</text><text x="{MARGIN}" y="36" font-size="11">values for {owner} ({} to move): W win, D draw, L loss, in plies</text>"#,
        map.piece.animal.name(),
        map.from,
        name(map.position.side_to_move()),
    );
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
                x + 3,
                y + 3,
                CELL - 6,
                CELL - 6,
                value_colour(v)
            );
            let _ = write!(
                s,
                r#"<text x="{}" y="{}" font-size="12" text-anchor="middle" fill="black">{}</text>"#,
                x + CELL / 2,
                y + CELL - 5,
                short(v)
            );
        }
        if board.is_trap(sq) || board.is_den(sq) {
            // On a light ground, so that the colouring never hides it.
            let mark = if board.is_den(sq) { "den" } else { "trap" };
            let _ = write!(
                s,
                r##"<rect x="{}" y="{}" width="24" height="11" rx="2" fill="white" fill-opacity="0.85"/><text x="{}" y="{}" font-size="9" fill="#333">{mark}</text>"##,
                x + 3,
                y + 3,
                x + 5,
                y + 12
            );
        }
        if let Some(p) = map.position.piece_at(sq) {
            piece_disc(&mut s, p, x + CELL / 2, y + CELL / 2 - 2);
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
    coordinates(&mut s);
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
    // Layout, top to bottom, per side to move: a title band, the plot (wins
    // up from the axis, losses down), the band of distance ticks; the
    // counts' scale in the left margin; a legend at the foot.
    let (bar, left, right) = (4u32, 64u32, 16u32);
    let plot_w = (longest as u32 * bar).max(400);
    let w = left + plot_w + right;
    let (title, plot, ticks, gap) = (22u32, 160u32, 18u32, 10u32);
    let panel = title + plot + ticks + gap;
    let h = 2 * panel + 24;
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
        .max(1);
    let half = f64::from(plot / 2 - 4);
    for (k, c) in Color::ALL.into_iter().enumerate() {
        let side = hist.side(c);
        let top = k as u32 * panel;
        let axis = top + title + plot / 2;
        let name = if c == Color::White { "White" } else { "Black" };
        let _ = write!(
            s,
            r#"<text x="8" y="{}" font-size="13">{material}, {name} to move: {} wins, {} losses, {} draws</text><line x1="{left}" y1="{axis}" x2="{}" y2="{axis}" stroke="black"/><line x1="{left}" y1="{}" x2="{left}" y2="{}" stroke="black"/>"#,
            top + 15,
            side.wins.iter().sum::<u64>(),
            side.losses.iter().sum::<u64>(),
            side.draws,
            left + plot_w,
            top + title,
            top + title + plot,
        );
        count_scale(&mut s, axis, half, peak, left);
        for (counts, up, colour) in [
            (&side.wins, true, "#228b22"),
            (&side.losses, false, "#c82828"),
        ] {
            for (d, &n) in counts.iter().enumerate().filter(|(_, &n)| n > 0) {
                let len = ((n as f64 / peak as f64).sqrt() * half).max(1.0);
                let y = if up {
                    f64::from(axis) - len
                } else {
                    f64::from(axis)
                };
                let _ = write!(
                    s,
                    r#"<rect x="{}" y="{y:.1}" width="{}" height="{len:.1}" fill="{colour}"><title>{} in {d}: {n}</title></rect>"#,
                    left + d as u32 * bar,
                    bar - 1,
                    if up { "win" } else { "loss" }
                );
            }
        }
        let step = if longest > 100 { 20 } else { 10 };
        for d in (0..longest).step_by(step) {
            let _ = write!(
                s,
                r#"<text x="{}" y="{}" font-size="11" text-anchor="middle">{d}</text>"#,
                left + d as u32 * bar,
                top + title + plot + 13
            );
        }
    }
    let _ = write!(
        s,
        r#"<text x="8" y="{}" font-size="12">plies to the end; wins up, losses down (square-root scale)</text></svg>"#,
        h - 8
    );
    s.push('\n');
    s
}

/// The files' letters under the board and the ranks' numbers beside it.
fn coordinates(s: &mut String) {
    for f in 0..7u32 {
        let _ = write!(
            s,
            r#"<text x="{}" y="{}" font-size="12" text-anchor="middle">{}</text>"#,
            MARGIN + f * CELL + CELL / 2,
            TITLE + 9 * CELL + 16,
            (b'a' + f as u8) as char
        );
    }
    for r in 0..9u32 {
        let _ = write!(
            s,
            r#"<text x="{}" y="{}" font-size="12" text-anchor="middle">{}</text>"#,
            MARGIN / 2,
            TITLE + (8 - r) * CELL + CELL / 2 + 4,
            r + 1
        );
    }
}

/// The counts' scale (square root) left of a panel's axis at `axis`: the
/// peak, a quarter of it (half the length), and 0 on the axis.
fn count_scale(s: &mut String, axis: u32, half: f64, peak: u64, left: u32) {
    for (n, frac) in [(peak, 1.0f64), (peak / 4, 0.5)] {
        for up in [true, false] {
            let y = if up {
                f64::from(axis) - frac * half
            } else {
                f64::from(axis) + frac * half
            };
            let _ = write!(
                s,
                r#"<line x1="{}" y1="{y:.1}" x2="{left}" y2="{y:.1}" stroke="black"/><text x="{}" y="{:.1}" font-size="11" text-anchor="end">{n}</text>"#,
                left - 3,
                left - 5,
                y + 3.0
            );
        }
    }
    let _ = write!(
        s,
        r#"<text x="{}" y="{}" font-size="11" text-anchor="end">0</text>"#,
        left - 5,
        axis + 3
    );
}
