//! Position notation (docs/rules.md#notation): `ranks/…/… w`.

use crate::board::Square;
use crate::error::{ParseError, Placement};
use crate::movegen::Move;
use crate::piece::{Color, Piece};
use crate::position::Position;
use crate::ruleset::Ruleset;
use std::fmt;
use std::str::FromStr;

impl FromStr for Position {
    type Err = ParseError;

    /// Parses `rank9/…/rank1 side [4 ignored fields]`, or `start` for the
    /// starting position (every interface reads positions through here, so
    /// `start` means the same to the CLI, C, Python, HTTP and JavaScript).
    /// No allocation unless it fails (the WebAssembly probe parses a
    /// position a call).
    fn from_str(text: &str) -> Result<Position, ParseError> {
        if text.trim() == "start" {
            return Ok(Position::start());
        }
        let mut fields = text.split_whitespace();
        let (Some(board), side) = (fields.next(), fields.next()) else {
            return Err(ParseError::Empty);
        };
        let Some(side) = side else {
            return Err(ParseError::MissingSide { text: text.into() });
        };
        let count = 2 + fields.count();
        if count != 2 && count != 6 {
            return Err(ParseError::FieldCount {
                text: text.into(),
                found: count,
            });
        }
        let side = match side {
            "w" => Color::White,
            "b" => Color::Black,
            other => {
                return Err(ParseError::BadSide {
                    found: other.into(),
                })
            }
        };
        let mut ranks = [""; 9];
        let mut found = 0;
        for rank_text in board.split('/') {
            if let Some(r) = ranks.get_mut(found) {
                *r = rank_text;
            }
            found += 1;
        }
        if found != 9 {
            return Err(ParseError::RankCount { found });
        }
        let mut pos = Position::empty(side);
        for (i, rank_text) in ranks.iter().enumerate() {
            parse_rank(&mut pos, 8 - i as u8, rank_text)?;
        }
        Ok(pos)
    }
}

/// Puts the pieces of `rank_text` (one rank, files a to g) on `rank`.
fn parse_rank(pos: &mut Position, rank: u8, rank_text: &str) -> Result<(), ParseError> {
    let mut file: u8 = 0;
    for c in rank_text.chars() {
        if let Some(d) = c.to_digit(10) {
            if !(1..=7).contains(&d) {
                return Err(ParseError::BadDigit {
                    rank: rank + 1,
                    digit: c,
                });
            }
            file += d as u8;
        } else if let Some(p) = Piece::from_letter(c) {
            let Some(sq) = Square::new(file, rank) else {
                return Err(too_long(rank, rank_text));
            };
            if let Some(other) = pos.square_of(p) {
                return Err(ParseError::DuplicateAnimal(Placement::TwoOfOneAnimal {
                    piece: p,
                    first: other,
                    second: sq,
                }));
            }
            pos.put(p, sq);
            file += 1;
        } else {
            return Err(ParseError::UnknownLetter {
                rank: rank + 1,
                letter: c,
            });
        }
        if file > 7 {
            return Err(too_long(rank, rank_text));
        }
    }
    if file != 7 {
        return Err(ParseError::RankTooShort {
            rank: rank + 1,
            text: rank_text.to_string(),
            files: file,
        });
    }
    Ok(())
}

fn too_long(rank: u8, text: &str) -> ParseError {
    ParseError::RankTooLong {
        rank: rank + 1,
        text: text.into(),
    }
}

impl fmt::Display for Position {
    /// Written into a buffer on the stack and handed on in one piece: at
    /// most 63 board characters, 8 slashes and the side (the WebAssembly
    /// probe writes a position a call, and each `write!` is a call through
    /// the formatter).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; 80];
        let mut n = 0;
        let mut push = |b: u8| {
            buf[n] = b;
            n += 1;
        };
        for rank in (0..9u8).rev() {
            let mut empty = 0;
            for file in 0..7u8 {
                let sq = Square::new(file, rank).expect("on board");
                match self.piece_at(sq) {
                    Some(p) => {
                        if empty > 0 {
                            push(b'0' + empty);
                            empty = 0;
                        }
                        push(p.letter() as u8);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                push(b'0' + empty);
            }
            if rank > 0 {
                push(b'/');
            }
        }
        push(b' ');
        push(self.side_to_move().letter() as u8);
        f.write_str(std::str::from_utf8(&buf[..n]).expect("ASCII"))
    }
}

/// A line of play from `pos` written for people: numbered moves, each with
/// the letter of the piece that moves (upper case White, lower case
/// Black), `x` before the square of a capture and `#` after a move that
/// ends the game (a den entry or the last capture), e.g.
/// `1... rg1f1 2. Ec3c2 rf1e1 3. Ec2c3 re1d1#`. Moves that are not legal
/// in turn end the text where they start.
pub fn line_text(pos: &Position, line: &[Move], rules: &Ruleset) -> String {
    let mut out = String::new();
    let mut cur = *pos;
    let mut number = 1;
    for (k, mv) in line.iter().enumerate() {
        let Some(piece) = cur.piece_at(mv.from) else {
            break;
        };
        if !out.is_empty() {
            out.push(' ');
        }
        match cur.side_to_move() {
            Color::White => out.push_str(&format!("{number}. ")),
            Color::Black if k == 0 => out.push_str(&format!("{number}... ")),
            Color::Black => {}
        }
        let capture = if mv.captured.is_some() { "x" } else { "" };
        out.push_str(&format!("{}{}{capture}{}", piece.letter(), mv.from, mv.to));
        if cur.is_winning_move(rules, mv) {
            out.push('#');
            break;
        }
        if cur.side_to_move() == Color::Black {
            number += 1;
        }
        cur = cur.play(mv);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_round_trips() {
        let s = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w";
        assert_eq!(s.parse::<Position>().unwrap().to_string(), s);
        let with_extra = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w - - 0 1";
        assert_eq!(with_extra.parse::<Position>().unwrap().to_string(), s);
    }

    #[test]
    fn malformed_notation_is_rejected_with_a_reason() {
        let cases = [
            ("", "empty"),
            ("7/7/7/7/7/7/7/7/E5r", "missing side"),
            ("7/7/7/7/7/7/7/E5r w", "9 ranks"),
            ("7/7/7/7/7/7/7/7/7/E5r w", "9 ranks"),
            ("7/7/7/7/7/7/7/7/E6r w", "more than 7"),
            ("7/7/7/7/7/7/7/7/E4r w", "expected 7"),
            ("7/7/7/7/7/7/7/7/X5r w", "unknown piece letter 'X'"),
            ("7/7/7/7/7/7/7/7/E5r x", "'w' or 'b'"),
            ("7/7/7/7/7/7/7/7/E4Er w", "two White Elephants"),
            ("7/7/7/7/7/7/7/7/E0r6 w", "1..7"),
            ("7/7/7/7/7/7/7/7/E5r w - -", "expected 2 fields"),
        ];
        for (text, needle) in cases {
            let err = text.parse::<Position>().unwrap_err();
            assert!(
                err.to_string().contains(needle),
                "{text:?}: error {err} does not mention {needle:?}"
            );
        }
    }
}
