//! `Position`, `Move` and `Outcome`: a position under its own rule set,
//! usable as a value (hashable, comparable, copied and pickled with its
//! rules), with moves that say what they do. No tables are needed.

use crate::rules::{rule_list, ruleset_from, ruleset_state};
use jungletb_indexer::Material;
use jungletb_rules::{
    Color, Move as RulesMove, NoMoveRule, Piece, Position as RulesPosition, Ruleset, Square,
};
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::types::{PyBytes, PyString};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// Position text (or `start`) as a position, not yet checked against rules.
pub fn parse(text: &str) -> Result<RulesPosition, String> {
    text.parse()
        .map_err(|e: jungletb_rules::ParseError| e.to_string())
}

/// A position from a row of 16 squares by piece code and the side to move
/// (`Position.to_array`'s layout). The fast path builds it straight from
/// the squares; a row it refuses is read again piece by piece for a
/// message that names the fault.
pub fn from_row(row: &[u8]) -> Result<RulesPosition, String> {
    let side = match row[16] {
        0 => Color::White,
        1 => Color::Black,
        s => return Err(format!("side to move {s}: 0 (White) or 1 (Black)")),
    };
    let mut squares = [0u8; 16];
    squares.copy_from_slice(&row[..16]);
    if let Some(pos) = RulesPosition::from_raw_squares(squares, side) {
        return Ok(pos);
    }
    let mut pieces = Vec::new();
    for (code, &s) in row[..16].iter().enumerate() {
        if s == 255 {
            continue;
        }
        let sq = Square::from_index(s as usize).ok_or(format!(
            "square {s} of {} is off the board (0 = a1 ... 62 = g9, 255 absent)",
            Piece::from_code(code)
        ))?;
        pieces.push((Piece::from_code(code), sq));
    }
    RulesPosition::from_pieces(&pieces, side).map_err(|e| e.to_string())
}

/// The two squares of a move's text (`"a1a2"`), if it is one.
fn move_squares(text: &str) -> Option<(Square, Square)> {
    if text.len() != 4 || !text.is_ascii() {
        return None;
    }
    Some((text[..2].parse().ok()?, text[2..].parse().ok()?))
}

/// The 17-byte row of `pos`: its squares by piece code, then the side.
pub fn to_row(pos: &RulesPosition) -> [u8; 17] {
    let mut row = [0u8; 17];
    row[..16].copy_from_slice(&pos.raw_squares());
    row[16] = pos.side_to_move().index() as u8;
    row
}

/// `"w"` or `"b"`.
pub fn side_letter(c: Color) -> &'static str {
    match c {
        Color::White => "w",
        Color::Black => "b",
    }
}

/// A legal move: `str(move)` is its notation (`"a1a2"`), and it compares
/// equal to that text, so `"a3a4" in position.legal_moves()` works.
#[pyclass(module = "jungletb._jungletb", frozen)]
#[derive(Clone, Copy)]
pub struct Move {
    pub(crate) mv: RulesMove,
    enters_den: bool,
}

impl Move {
    /// `mv`, played by the side to move of `pos` under `rules`.
    pub fn new(mv: RulesMove, pos: &RulesPosition, rules: &Ruleset) -> Move {
        let mover = pos.side_to_move();
        Move {
            mv,
            enters_den: rules.board().is_den_of(mv.to, mover.opponent()),
        }
    }
}

#[pymethods]
impl Move {
    /// The square the piece leaves (`"a1"`).
    #[getter(from_square)]
    fn origin(&self) -> String {
        self.mv.from.to_string()
    }

    /// The square the piece lands on.
    #[getter(to_square)]
    fn target(&self) -> String {
        self.mv.to.to_string()
    }

    /// True when the move takes a piece.
    #[getter]
    fn is_capture(&self) -> bool {
        self.mv.captured.is_some()
    }

    /// The animal taken (`"rat"` … `"elephant"`), or `None`.
    #[getter]
    fn captured(&self) -> Option<String> {
        self.mv.captured.map(|a| a.name().to_ascii_lowercase())
    }

    /// True when the move enters the enemy den (and so wins).
    #[getter]
    fn enters_den(&self) -> bool {
        self.enters_den
    }

    fn __str__(&self) -> String {
        self.mv.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Move('{}')", self.mv)
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        // Python's own hash of its text: a move equals its text, so the two
        // must hash alike (`"a1a2" in set(moves)`, dict look-ups by text).
        PyString::new_bound(py, &self.mv.to_string()).hash()
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyObject {
        let py = other.py();
        let same = if let Ok(m) = other.downcast::<Move>() {
            Some(m.get().mv == self.mv)
        } else if let Ok(s) = other.downcast::<PyString>() {
            s.to_str().ok().map(|s| s == self.mv.to_string())
        } else {
            None
        };
        match (same, op) {
            (Some(s), CompareOp::Eq) => s.into_py(py),
            (Some(s), CompareOp::Ne) => (!s).into_py(py),
            _ => py.NotImplemented(),
        }
    }
}

/// How a finished game ended: `winner` is `"w"`, `"b"` or `None` (a draw,
/// under `no_move=draw`), `reason` is `"den"`, `"no_pieces"` or
/// `"no_moves"`.
#[pyclass(module = "jungletb._jungletb", frozen, eq)]
#[derive(Clone, PartialEq, Eq)]
pub struct Outcome {
    /// `"w"`, `"b"`, or `None` for a draw.
    #[pyo3(get)]
    winner: Option<&'static str>,
    /// `"den"`, `"no_pieces"` or `"no_moves"`.
    #[pyo3(get)]
    reason: &'static str,
}

#[pymethods]
impl Outcome {
    fn __repr__(&self) -> String {
        let w = self.winner.map_or("None".to_string(), |w| format!("'{w}'"));
        format!("Outcome(winner={w}, reason='{}')", self.reason)
    }
}

/// A position under its own rule set (see `jungletb.Position`).
#[pyclass(module = "jungletb._jungletb")]
#[derive(Clone)]
pub struct Position {
    pub(crate) pos: RulesPosition,
    pub(crate) rules: Arc<Ruleset>,
    /// `rules.id()`, computed once: every probe compares it.
    pub(crate) rules_id: u64,
    /// The positions before each move played with `push`, and the moves.
    stack: Vec<(RulesPosition, RulesMove)>,
}

impl Position {
    /// `pos` under `rules`, with no moves played.
    pub fn of(pos: RulesPosition, rules: Arc<Ruleset>) -> Position {
        Position {
            pos,
            rules_id: rules.id(),
            rules,
            stack: Vec::new(),
        }
    }

    /// `pos` checked as a position that can occur under `rules` (finished
    /// games included).
    pub fn checked(pos: RulesPosition, rules: Arc<Ruleset>) -> PyResult<Position> {
        pos.validate_reachable(&rules)
            .map_err(|e| PyValueError::new_err(format!("{pos}: {e}")))?;
        Ok(Position::of(pos, rules))
    }

    fn moves(&self) -> Vec<RulesMove> {
        if self.pos.is_game_over(&self.rules) {
            return Vec::new();
        }
        self.pos.legal_moves(&self.rules).to_vec()
    }

    /// The legal move `mv` (its text or a `Move`) names: found by its two
    /// squares, with nothing allocated (the hot path of a tree search).
    fn find_move(&self, mv: &Bound<'_, PyAny>) -> PyResult<RulesMove> {
        let squares = if let Ok(m) = mv.downcast::<Move>() {
            let m = m.get().mv;
            Some((m.from, m.to))
        } else if let Ok(s) = mv.downcast::<PyString>() {
            move_squares(s.to_str()?)
        } else {
            return Err(PyTypeError::new_err(
                "a move is its text (\"a1a2\") or a jungletb.Move",
            ));
        };
        self.legal_by_squares(squares).ok_or_else(|| {
            let over = if self.pos.is_game_over(&self.rules) {
                ": the game is over"
            } else {
                ""
            };
            PyValueError::new_err(format!(
                "{} is not a legal move in {}{over}",
                mv.str().map_or_else(|_| "?".into(), |s| s.to_string()),
                self.pos
            ))
        })
    }

    fn legal_by_squares(&self, squares: Option<(Square, Square)>) -> Option<RulesMove> {
        let (from, to) = squares?;
        self.moves()
            .into_iter()
            .find(|m| m.from == from && m.to == to)
    }
}

#[pymethods]
impl Position {
    #[new]
    #[pyo3(signature = (text = "start", ruleset = "standard", rules = None))]
    fn new(text: &str, ruleset: &str, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Position> {
        let rules = Arc::new(ruleset_from(ruleset, &rule_list(rules)?, None)?);
        let pos = parse(text).map_err(PyValueError::new_err)?;
        Position::checked(pos, rules)
    }

    /// The position of a 17-byte row (`to_array`'s layout: the square of
    /// each piece, White Rat ... White Elephant, Black Rat ... Black
    /// Elephant, 0 = a1 ... 62 = g9, 255 absent; then the side to move, 0
    /// White, 1 Black) under `ruleset` and `rules`.
    #[staticmethod]
    #[pyo3(signature = (row, ruleset = "standard", rules = None))]
    fn from_array(
        row: &Bound<'_, PyAny>,
        ruleset: &str,
        rules: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Position> {
        let rules = Arc::new(ruleset_from(ruleset, &rule_list(rules)?, None)?);
        let values: Vec<i64> = row.extract().map_err(|_| {
            PyTypeError::new_err("a row is 17 integers (a sequence or a NumPy array)")
        })?;
        if values.len() != 17 {
            return Err(PyValueError::new_err(format!(
                "a row is 17 integers (16 squares and the side to move), not {}",
                values.len()
            )));
        }
        let mut bytes = [0u8; 17];
        for (i, &v) in values.iter().enumerate() {
            bytes[i] = u8::try_from(v).map_err(|_| {
                PyValueError::new_err(format!(
                    "column {i} holds {v}: squares are 0..=62 or 255, the side 0 or 1"
                ))
            })?;
        }
        let pos = from_row(&bytes).map_err(PyValueError::new_err)?;
        Position::checked(pos, rules)
    }

    /// The 17-byte row of this position as a NumPy `uint8` array (see
    /// `from_array`).
    fn to_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let bytes = PyBytes::new_bound(py, &to_row(&self.pos));
        py.import_bound("numpy")?
            .call_method1("frombuffer", (bytes, "uint8"))?
            .call_method0("copy")
    }

    /// The legal moves (none when the game is over).
    fn legal_moves(&self) -> Vec<Move> {
        self.moves()
            .into_iter()
            .map(|m| Move::new(m, &self.pos, &self.rules))
            .collect()
    }

    /// The position after each legal move, in the order of `legal_moves`.
    fn children(&self) -> Vec<Position> {
        self.moves()
            .into_iter()
            .map(|m| Position {
                pos: self.pos.play(&m),
                rules: Arc::clone(&self.rules),
                rules_id: self.rules_id,
                stack: Vec::new(),
            })
            .collect()
    }

    /// Plays `move` (its text or a `Move`); an illegal move is a
    /// ValueError.
    fn push(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let m = self.find_move(r#move)?;
        self.stack.push((self.pos, m));
        self.pos = self.pos.play(&m);
        Ok(())
    }

    /// Takes back the last move `push` played and returns it.
    fn pop(&mut self) -> PyResult<Move> {
        let (before, m) = self
            .stack
            .pop()
            .ok_or_else(|| PyIndexError::new_err("pop from a position with no moves played"))?;
        self.pos = before;
        Ok(Move::new(m, &before, &self.rules))
    }

    /// The moves played with `push`, first to last.
    #[getter]
    fn move_stack(&self) -> Vec<Move> {
        self.stack
            .iter()
            .map(|(p, m)| Move::new(*m, p, &self.rules))
            .collect()
    }

    /// True when a piece stands on the enemy den, a side has no pieces or
    /// the side to move has no legal move.
    fn is_game_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// How the game ended, or `None` while it goes on.
    fn outcome(&self) -> Option<Outcome> {
        let board = self.rules.board();
        if let Some((p, _)) = self
            .pos
            .pieces()
            .find(|&(p, s)| board.is_den_of(s, p.color.opponent()))
        {
            return Some(Outcome {
                winner: Some(side_letter(p.color)),
                reason: "den",
            });
        }
        for side in Color::ALL {
            if self.pos.count(side) == 0 {
                return Some(Outcome {
                    winner: Some(side_letter(side.opponent())),
                    reason: "no_pieces",
                });
            }
        }
        if self.pos.legal_moves(&self.rules).is_empty() {
            let winner = match self.rules.no_move {
                NoMoveRule::Loss => Some(side_letter(self.pos.side_to_move().opponent())),
                NoMoveRule::Draw => None,
            };
            return Some(Outcome {
                winner,
                reason: "no_moves",
            });
        }
        None
    }

    /// `"w"` or `"b"`.
    #[getter]
    fn side_to_move(&self) -> &'static str {
        side_letter(self.pos.side_to_move())
    }

    /// The material (`"ELvR"`), or `None` when a side has no pieces.
    #[getter]
    fn material(&self) -> Option<String> {
        Material::of_position(&self.pos).map(|m| m.to_string())
    }

    /// The named rule set these rules start from (`"popular"`): with
    /// `rules`, what `Position(text, ruleset, rules)` takes to build this
    /// position again.
    #[getter]
    fn ruleset(&self) -> &'static str {
        self.rules.base.name()
    }

    /// The options that differ from the named rule set's, as
    /// `["KEY=VALUE", ...]`.
    #[getter(rules)]
    fn rule_options(&self) -> Vec<String> {
        ruleset_state(&self.rules).1
    }

    /// The rule set's label, as table directories are named (`standard`,
    /// or `popular-custom-<id>` for options no named rule set has).
    #[getter]
    fn ruleset_label(&self) -> String {
        self.rules.label()
    }

    /// The squares by piece (16 bytes: White Rat … White Elephant, Black
    /// Rat … Black Elephant; 0 = a1 … 62 = g9, 255 none) and the side to
    /// move (0 White, 1 Black).
    fn squares(&self) -> (Vec<u8>, u8) {
        (
            self.pos.raw_squares().to_vec(),
            self.pos.side_to_move().index() as u8,
        )
    }

    fn __str__(&self) -> String {
        self.pos.to_string()
    }

    fn __repr__(&self) -> String {
        let (base, options) = ruleset_state(&self.rules);
        if options.is_empty() {
            format!("Position('{}', '{base}')", self.pos)
        } else {
            format!("Position('{}', '{base}', {options:?})", self.pos)
        }
    }

    fn __hash__(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.pos.hash(&mut h);
        self.rules_id.hash(&mut h);
        h.finish()
    }

    /// Equal when the pieces, the side to move and the rules' options are
    /// (the moves that led there do not count).
    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyObject {
        let py = other.py();
        let Ok(o) = other.downcast::<Position>() else {
            return py.NotImplemented();
        };
        let o = o.borrow();
        let same = self.pos == o.pos && self.rules_id == o.rules_id;
        match op {
            CompareOp::Eq => same.into_py(py),
            CompareOp::Ne => (!same).into_py(py),
            _ => py.NotImplemented(),
        }
    }

    fn __copy__(&self) -> Position {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Position {
        self.clone()
    }

    /// Pickles as the start of its moves, its rules and the moves played,
    /// so that a copy in another process has the same rules and can `pop`.
    fn __reduce__(slf: &Bound<'_, Self>) -> PyResult<(PyObject, PyObject)> {
        let py = slf.py();
        let me = slf.borrow();
        let root = me.stack.first().map_or(me.pos, |(p, _)| *p);
        let (base, options) = ruleset_state(&me.rules);
        let moves: Vec<String> = me.stack.iter().map(|(_, m)| m.to_string()).collect();
        let rebuild = py
            .import_bound("jungletb._jungletb")?
            .getattr("_position_from_state")?;
        Ok((
            rebuild.unbind(),
            (root.to_string(), base, options, moves).into_py(py),
        ))
    }
}

/// Builds a pickled `Position` again (see `Position.__reduce__`).
#[pyfunction]
pub fn _position_from_state(
    text: &str,
    ruleset: &str,
    rules: Vec<String>,
    moves: Vec<String>,
) -> PyResult<Position> {
    let rules = Arc::new(ruleset_from(ruleset, &rules, None)?);
    let pos = parse(text).map_err(PyValueError::new_err)?;
    let mut p = Position::checked(pos, rules)?;
    for m in moves {
        let mv = p
            .legal_by_squares(move_squares(&m))
            .ok_or_else(|| PyValueError::new_err(format!("{m} is not legal in {}", p.pos)))?;
        p.stack.push((p.pos, mv));
        p.pos = p.pos.play(&mv);
    }
    Ok(p)
}
