#![allow(unexpected_cfgs)] // pyo3 0.22's macros test a `gil-refs` feature this crate does not declare
#![allow(clippy::useless_conversion)] // raised inside the code #[pymethods] generates (PyO3 0.22)
//! The native module of the `jungletb` Python package (`jungletb._jungletb`):
//! a thin layer over [`jungletb_tablebase::Tablebase`]. The Python-facing
//! API, documented for users, is `python/jungletb/__init__.py`.

use jungletb_indexer::Material;
use jungletb_rules::{Color, Piece, Position as RulesPosition, Ruleset, Square, Wdl};
use jungletb_tablebase::{ProbeError, TableError, Tablebase as Inner};
use pyo3::create_exception;
use pyo3::exceptions::{PyKeyError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rayon::prelude::*;
use std::sync::{Arc, RwLock};

create_exception!(
    _jungletb,
    MissingTableError,
    PyKeyError,
    "The table a probe needs is not there."
);
create_exception!(
    _jungletb,
    BadTableError,
    PyRuntimeError,
    "A table is damaged, truncated or of another rule set."
);

/// The Python exception for a probe failure.
fn py_err(e: ProbeError) -> PyErr {
    match &e {
        ProbeError::Table(TableError::Missing(_)) | ProbeError::NoTables { .. } => {
            MissingTableError::new_err(e.to_string())
        }
        ProbeError::Table(_) => BadTableError::new_err(e.to_string()),
        ProbeError::Position(_) | ProbeError::GameOver(_) | ProbeError::Rules(_) => {
            PyValueError::new_err(e.to_string())
        }
    }
}

fn wdl_int(w: Wdl) -> i8 {
    match w {
        Wdl::Win => 1,
        Wdl::Draw => 0,
        Wdl::Loss => -1,
    }
}

/// A rule set from a name and optional `KEY=VALUE` options.
fn ruleset(name: &str, rules: Option<Vec<String>>) -> PyResult<Ruleset> {
    let mut r = Ruleset::by_name(name).map_err(|e| PyValueError::new_err(e.to_string()))?;
    for kv in rules.unwrap_or_default() {
        r.apply_override(&kv)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    r.check_supported()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(r)
}

/// Position text (or `start`) as a position.
fn parse(text: &str) -> PyResult<RulesPosition> {
    if text == "start" {
        return Ok(RulesPosition::start());
    }
    text.parse()
        .map_err(|e: jungletb_rules::ParseError| PyValueError::new_err(e.to_string()))
}

/// A position: its notation, moves and material, usable without tables.
#[pyclass(module = "jungletb._jungletb")]
#[derive(Clone)]
struct Position {
    pos: RulesPosition,
    rules: Ruleset,
}

#[pymethods]
impl Position {
    #[new]
    #[pyo3(signature = (text = "start", ruleset = "standard", rules = None))]
    fn new(text: &str, ruleset: &str, rules: Option<Vec<String>>) -> PyResult<Position> {
        let rules = self::ruleset(ruleset, rules)?;
        let pos = parse(text)?;
        pos.validate_reachable(&rules)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Position { pos, rules })
    }

    /// The legal moves, as `"a1a2"` strings (none when the game is over).
    fn legal_moves(&self) -> Vec<String> {
        if self.pos.is_game_over(&self.rules) {
            return Vec::new();
        }
        self.pos
            .legal_moves(&self.rules)
            .iter()
            .map(|m| m.to_string())
            .collect()
    }

    /// Plays `mv` (`"a1a2"`); a move that is not legal is a ValueError.
    fn push(&mut self, mv: &str) -> PyResult<()> {
        if self.pos.is_game_over(&self.rules) {
            return Err(PyValueError::new_err("the game is over"));
        }
        let m = self
            .pos
            .legal_moves(&self.rules)
            .iter()
            .copied()
            .find(|m| m.to_string() == mv)
            .ok_or_else(|| {
                PyValueError::new_err(format!("{mv} is not a legal move in {}", self.pos))
            })?;
        self.pos = self.pos.play(&m);
        Ok(())
    }

    /// True when a piece stands on the enemy den, a side has no pieces or
    /// the side to move has no legal move.
    fn is_game_over(&self) -> bool {
        self.pos.is_game_over(&self.rules) || self.pos.legal_moves(&self.rules).is_empty()
    }

    /// `"w"` or `"b"`.
    #[getter]
    fn side_to_move(&self) -> &'static str {
        match self.pos.side_to_move() {
            Color::White => "w",
            Color::Black => "b",
        }
    }

    /// The material (`"ELvR"`), or `None` when a side has no pieces.
    #[getter]
    fn material(&self) -> Option<String> {
        Material::of_position(&self.pos).map(|m| m.to_string())
    }

    /// The squares by piece (16 bytes: White Rat … White Elephant, Black
    /// Rat … Black Elephant; 0 = a1 … 62 = g9, 255 none) and the side to
    /// move (0 White, 1 Black): the row `probe_wdl_many` reads.
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
        format!("Position('{}', ruleset='{}')", self.pos, self.rules.label())
    }

    fn __eq__(&self, other: &Position) -> bool {
        self.pos == other.pos && self.rules.id() == other.rules.id()
    }
}

/// Position text or a `Position`.
fn position_of(obj: &Bound<'_, PyAny>) -> PyResult<RulesPosition> {
    if let Ok(p) = obj.extract::<Position>() {
        return Ok(p.pos);
    }
    let text: String = obj
        .extract()
        .map_err(|_| PyValueError::new_err("a position is its text or a jungletb.Position"))?;
    parse(&text)
}

/// An open tablebase (see `jungletb.open_tablebase`).
#[pyclass(module = "jungletb._jungletb", frozen)]
struct Tablebase {
    inner: RwLock<Option<Arc<Inner>>>,
}

impl Tablebase {
    fn get(&self) -> PyResult<Arc<Inner>> {
        self.inner
            .read()
            .expect("no panic while held")
            .clone()
            .ok_or_else(|| PyValueError::new_err("the tablebase is closed"))
    }
}

#[pymethods]
impl Tablebase {
    #[new]
    #[pyo3(signature = (directory, ruleset = "standard", rules = None))]
    fn new(directory: &str, ruleset: &str, rules: Option<Vec<String>>) -> PyResult<Tablebase> {
        let rules = self::ruleset(ruleset, rules)?;
        let tb = Inner::open(directory, rules).map_err(py_err)?;
        Ok(Tablebase {
            inner: RwLock::new(Some(Arc::new(tb))),
        })
    }

    /// Frees the tables; later probes raise ValueError.
    fn close(&self) {
        *self.inner.write().expect("no panic while held") = None;
    }

    fn probe_wdl(&self, position: &Bound<'_, PyAny>) -> PyResult<i8> {
        let pos = position_of(position)?;
        self.get()?.probe_wdl(&pos).map(wdl_int).map_err(py_err)
    }

    fn probe_plies(&self, position: &Bound<'_, PyAny>) -> PyResult<Option<u16>> {
        let pos = position_of(position)?;
        Ok(self.get()?.probe(&pos).map_err(py_err)?.plies())
    }

    /// Every legal move with its value for the mover: (move, wdl, plies).
    fn root_moves(&self, position: &Bound<'_, PyAny>) -> PyResult<Vec<(String, i8, Option<u16>)>> {
        let pos = position_of(position)?;
        let root = self.get()?.probe_root(&pos).map_err(py_err)?;
        Ok(root
            .iter()
            .map(|r| (r.mv.to_string(), wdl_int(r.value.wdl()), r.value.plies()))
            .collect())
    }

    fn line(&self, position: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
        let pos = position_of(position)?;
        Ok(self
            .get()?
            .line(&pos)
            .map_err(py_err)?
            .iter()
            .map(|m| m.to_string())
            .collect())
    }

    /// WDL of many position texts, on all cores with the GIL released:
    /// bytes of int8 (1, 0, -1; -128 where the probe failed) and the
    /// failures as (index, kind, message).
    fn probe_wdl_many_texts<'py>(
        &self,
        py: Python<'py>,
        positions: Vec<String>,
    ) -> PyResult<Batch<'py>> {
        let tb = self.get()?;
        Ok(run_batch(py, positions.len(), |i| {
            let pos = positions[i]
                .parse::<RulesPosition>()
                .map_err(|e| ("value", e.to_string()))?;
            tb.probe_wdl(&pos)
                .map(wdl_int)
                .map_err(|e| (kind(&e), e.to_string()))
        }))
    }

    /// WDL of `n` positions given as rows of 17 bytes (16 squares by piece,
    /// then the side to move; see `Position.squares`), as
    /// `probe_wdl_many_texts`.
    fn probe_wdl_many_squares<'py>(
        &self,
        py: Python<'py>,
        rows: &Bound<'py, PyBytes>,
    ) -> PyResult<Batch<'py>> {
        // The bytes as a slice (a Vec<u8> argument would take them one
        // Python int at a time).
        let rows = rows.as_bytes();
        if rows.len() % 17 != 0 {
            return Err(PyValueError::new_err(
                "rows of 17 bytes: 16 squares and the side to move",
            ));
        }
        let tb = self.get()?;
        Ok(run_batch(py, rows.len() / 17, |i| {
            let pos = from_row(&rows[17 * i..17 * i + 17]).map_err(|m| ("value", m))?;
            tb.probe_wdl(&pos)
                .map(wdl_int)
                .map_err(|e| (kind(&e), e.to_string()))
        }))
    }

    /// `n` positions of `material`'s table drawn at random (uniform over
    /// its positions, both sides to move; the same `seed` gives the same
    /// draw), with their values: rows of 17 bytes (see `Position.squares`),
    /// WDL as int8 and plies as little-endian int16 (-1 for a draw).
    #[pyo3(signature = (material, n, seed = 0))]
    fn sample<'py>(
        &self,
        py: Python<'py>,
        material: &str,
        n: usize,
        seed: u64,
    ) -> PyResult<(
        Bound<'py, PyBytes>,
        Bound<'py, PyBytes>,
        Bound<'py, PyBytes>,
    )> {
        let tb = self.get()?;
        let asked: Material = material
            .parse()
            .map_err(|e: jungletb_indexer::MaterialError| PyValueError::new_err(e.to_string()))?;
        let (canonical, flipped) = asked.canonical();
        let table = tb.table(canonical).map_err(py_err)?;
        let symmetric = canonical.is_symmetric();
        let (rows, wdl, plies) = py
            .allow_threads(|| -> Result<_, ProbeError> {
                let index = table.index();
                let size = index.size();
                let mut state = seed ^ 0x9e37_79b9_7f4a_7c15;
                let mut next = || {
                    // splitmix64: a small, well-mixed generator for the draw.
                    state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
                    let mut z = state;
                    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                    z ^ (z >> 31)
                };
                let (mut rows, mut wdl, mut plies) = (Vec::new(), Vec::new(), Vec::new());
                while wdl.len() < n {
                    // Slots that hold no position are drawn again (the index
                    // is 95-100 % dense).
                    let Some(mut pos) = index.canonical_position(next() % size.max(1)) else {
                        continue;
                    };
                    // A symmetric material stores White to move only: Black to
                    // move is its colour swap, drawn half the time.
                    if flipped || (symmetric && next() & 1 == 1) {
                        pos = pos.color_flip();
                    }
                    let v = tb.probe(&pos)?;
                    rows.extend_from_slice(&pos.raw_squares());
                    rows.push(pos.side_to_move().index() as u8);
                    wdl.push(wdl_int(v.wdl()) as u8);
                    plies.extend_from_slice(&v.plies().map_or(-1i16, |p| p as i16).to_le_bytes());
                }
                Ok((rows, wdl, plies))
            })
            .map_err(py_err)?;
        Ok((
            PyBytes::new_bound(py, &rows),
            PyBytes::new_bound(py, &wdl),
            PyBytes::new_bound(py, &plies),
        ))
    }

    /// The number of threads a batch runs on (rayon's pool:
    /// `RAYON_NUM_THREADS`, else one per core).
    #[staticmethod]
    fn _batch_threads() -> usize {
        rayon::current_num_threads()
    }

    /// Seconds a Rust loop on one thread takes to probe the WDL of the
    /// rows (built before the clock starts): the native rate beside which
    /// `examples/probe_speed.py` puts the Python ones.
    fn _native_seconds(&self, py: Python<'_>, rows: &Bound<'_, PyBytes>) -> PyResult<f64> {
        let tb = self.get()?;
        let positions: Vec<RulesPosition> = rows
            .as_bytes()
            .chunks(17)
            .map(from_row)
            .collect::<Result<_, _>>()
            .map_err(PyValueError::new_err)?;
        Ok(py.allow_threads(|| {
            let start = std::time::Instant::now();
            let mut sum = 0i64;
            for p in &positions {
                sum += tb.probe_wdl(p).map_or(0, |w| wdl_int(w) as i64);
            }
            std::hint::black_box(sum);
            start.elapsed().as_secs_f64()
        }))
    }
}

/// A batch's answer: the values as bytes of int8, and the failures as
/// (index, kind, message).
type Batch<'py> = (Bound<'py, PyBytes>, Vec<(usize, &'static str, String)>);

/// `"missing"`, `"bad_table"` or `"value"`: which exception a failure
/// raises on the Python side.
fn kind(e: &ProbeError) -> &'static str {
    match e {
        ProbeError::Table(TableError::Missing(_)) | ProbeError::NoTables { .. } => "missing",
        ProbeError::Table(_) => "bad_table",
        _ => "value",
    }
}

/// Runs `probe` over `0..n` on the thread pool with the GIL released.
/// The values are collected as bytes (int8, `i8::MIN` for a failure) with
/// nothing else per position; the rare failures are probed again one by
/// one for their kind and message.
fn run_batch<'py, F>(py: Python<'py>, n: usize, probe: F) -> Batch<'py>
where
    F: Fn(usize) -> Result<i8, (&'static str, String)> + Sync,
{
    let values: Vec<u8> = py.allow_threads(|| {
        (0..n)
            .into_par_iter()
            .map(|i| probe(i).map_or(i8::MIN as u8, |v| v as u8))
            .collect()
    });
    let errors = values
        .iter()
        .enumerate()
        .filter(|&(_, &v)| v == i8::MIN as u8)
        .filter_map(|(i, _)| probe(i).err().map(|(k, m)| (i, k, m)))
        .collect();
    (PyBytes::new_bound(py, &values), errors)
}

/// A position from a row of 16 squares by piece code and the side to move.
/// The fast path builds it straight from the squares; a row it refuses is
/// read again piece by piece for a message that names the fault.
fn from_row(row: &[u8]) -> Result<RulesPosition, String> {
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
        let sq = Square::from_index(s as usize).ok_or(format!("square {s} is off the board"))?;
        pieces.push((Piece::from_code(code), sq));
    }
    RulesPosition::from_pieces(&pieces, side).map_err(|e| e.to_string())
}

#[pymodule]
fn _jungletb(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Tablebase>()?;
    m.add_class::<Position>()?;
    m.add(
        "MissingTableError",
        m.py().get_type_bound::<MissingTableError>(),
    )?;
    m.add("BadTableError", m.py().get_type_bound::<BadTableError>())?;
    Ok(())
}
