//! `Tablebase`: probes of one rule set's tables, single and in batches.
//! Every position a caller gives as a `Position` carries its rules, and is
//! refused (`RulesetMismatch`) unless they are the tables'.

use crate::errors::{self, MissingTableError};
use crate::position::{from_row, parse, Move, Position};
use crate::rules::{rule_list, ruleset_from};
use jungletb_indexer::Material;
use jungletb_rules::{Position as RulesPosition, Ruleset, Value, Wdl};
use jungletb_tablebase::{ProbeError, Tablebase as Inner};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString};
use rayon::prelude::*;
use std::path::Path;
use std::sync::{Arc, RwLock};

pub fn wdl_int(w: Wdl) -> i8 {
    match w {
        Wdl::Win => 1,
        Wdl::Draw => 0,
        Wdl::Loss => -1,
    }
}

/// Every legal move with its WDL and plies for the mover.
type RootMoves = Vec<(Move, i8, Option<u16>)>;

/// Sampled rows, WDL bytes and plies bytes.
type Sample = (Vec<u8>, Vec<u8>, Vec<u8>);

/// The value of a batch entry that could not be probed (`jungletb.MISSING`).
pub const MISSING: i8 = i8::MIN;

/// An open tablebase (see `jungletb.open_tablebase`).
#[pyclass(module = "jungletb._jungletb", frozen)]
pub struct Tablebase {
    inner: RwLock<Option<Arc<Inner>>>,
    rules: Arc<Ruleset>,
    /// `rules.id()`, kept for the check every probe of a `Position` makes.
    rules_id: u64,
}

/// A position given to a probe, before it is read.
enum Given<'a> {
    Text(&'a str),
    Pos(RulesPosition),
}

impl Tablebase {
    fn get(&self) -> PyResult<Arc<Inner>> {
        self.inner
            .read()
            .expect("no panic while held")
            .clone()
            .ok_or_else(|| PyValueError::new_err("the tablebase is closed"))
    }

    /// A text or a `Position` of these rules; a `Position` of other rules is
    /// a `RulesetMismatch`.
    fn given<'a>(&self, obj: &'a Bound<'_, PyAny>) -> PyResult<Given<'a>> {
        if let Ok(s) = obj.downcast::<PyString>() {
            return Ok(Given::Text(s.to_str()?));
        }
        if let Ok(p) = obj.downcast::<Position>() {
            let p = p.borrow();
            // The ids compared first (computed once each), and the
            // tablebase's own check, which names both, when they differ.
            if p.rules_id != self.rules_id {
                self.get()?.check_rules(&p.rules).map_err(errors::probe)?;
            }
            return Ok(Given::Pos(p.pos));
        }
        Err(PyTypeError::new_err(format!(
            "a position is its text or a jungletb.Position, not {}",
            obj.get_type().name()?
        )))
    }

    fn position_of(&self, obj: &Bound<'_, PyAny>) -> PyResult<RulesPosition> {
        match self.given(obj)? {
            Given::Text(t) => parse(t).map_err(PyValueError::new_err),
            Given::Pos(p) => Ok(p),
        }
    }
}

/// The value of `pos`, a finished game included (a piece on the enemy den
/// or a side without pieces: won or lost in 0), as the CLI, C and HTTP
/// answer it. The fast path is the table probe; only a position it refuses
/// is looked at again.
fn value(tb: &Inner, pos: &RulesPosition) -> Result<Value, ProbeError> {
    tb.probe(pos).or_else(|e| finished(tb, pos, e))
}

/// [`value`]'s win, draw or loss, on the WDL fast path.
fn wdl(tb: &Inner, pos: &RulesPosition) -> Result<Wdl, ProbeError> {
    tb.probe_wdl(pos)
        .or_else(|e| finished(tb, pos, e).map(|v| v.wdl()))
}

/// The value of a finished game the table probe refused with `e`, or `e`.
fn finished(tb: &Inner, pos: &RulesPosition, e: ProbeError) -> Result<Value, ProbeError> {
    if !matches!(e, ProbeError::Position(_) | ProbeError::GameOver(_)) {
        return Err(e);
    }
    match tb.evaluate_value(pos) {
        Ok(ev) if ev.game_over.is_some() => Ok(ev.value),
        _ => Err(e),
    }
}

/// True when `pos` is a finished game that can occur (it has no moves and
/// no line), false when play goes on; an impossible position is an error.
fn over(tb: &Inner, pos: &RulesPosition) -> Result<bool, ProbeError> {
    if !pos.is_game_over(tb.rules()) {
        return Ok(false);
    }
    pos.validate_reachable(tb.rules())
        .map_err(ProbeError::Position)?;
    Ok(true)
}

/// What a batch computes per position.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Want {
    Wdl,
    Both,
}

/// A batch's answer: WDL as int8 bytes, plies as little-endian int16 bytes
/// (-1 a draw; empty when not asked), and the failures as (index, kind,
/// message).
type Batch<'py> = (
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Vec<(usize, &'static str, String)>,
);

/// Runs `get` (the position of entry `i`) and the probe over `0..n` on the
/// thread pool with the GIL released. Values are collected as bytes with
/// nothing else per position; the rare failures are probed again one by
/// one for their kind and message.
fn run_batch<'py, F>(py: Python<'py>, tb: &Inner, n: usize, want: Want, get: F) -> Batch<'py>
where
    F: Fn(usize) -> Result<RulesPosition, String> + Sync,
{
    let one = |i: usize| -> Result<(i8, i16), (&'static str, String)> {
        let pos = get(i).map_err(|m| ("value", m))?;
        let fail = |e: ProbeError| (errors::kind(&e), format!("{pos}: {}", errors::message(&e)));
        match want {
            Want::Wdl => wdl(tb, &pos).map(|w| (wdl_int(w), 0)).map_err(fail),
            Want::Both => value(tb, &pos)
                .map(|v| (wdl_int(v.wdl()), v.plies().map_or(-1, |p| p as i16)))
                .map_err(fail),
        }
    };
    // WDL alone collects one byte a position and nothing else (the array
    // batch's rate is within 0.8x of a native loop only so).
    let (w, p): (Vec<u8>, Vec<i16>) = py.allow_threads(|| match want {
        Want::Wdl => (
            (0..n)
                .into_par_iter()
                .map(|i| one(i).map_or(MISSING as u8, |(w, _)| w as u8))
                .collect(),
            Vec::new(),
        ),
        Want::Both => (0..n)
            .into_par_iter()
            .map(|i| match one(i) {
                Ok((w, p)) => (w as u8, p),
                Err(_) => (MISSING as u8, MISSING as i16),
            })
            .unzip(),
    });
    let errors = w
        .iter()
        .enumerate()
        .filter(|&(_, &v)| v == MISSING as u8)
        .filter_map(|(i, _)| one(i).err().map(|(k, m)| (i, k, m)))
        .collect();
    let plies: Vec<u8> = if want == Want::Both {
        p.iter().flat_map(|x| x.to_le_bytes()).collect()
    } else {
        Vec::new()
    };
    (
        PyBytes::new_bound(py, &w),
        PyBytes::new_bound(py, &plies),
        errors,
    )
}

fn want(kind: &str) -> PyResult<Want> {
    match kind {
        "wdl" => Ok(Want::Wdl),
        "both" => Ok(Want::Both),
        _ => Err(PyValueError::new_err(format!("unknown batch kind {kind}"))),
    }
}

#[pymethods]
impl Tablebase {
    #[new]
    #[pyo3(signature = (directory, ruleset = "standard", rules = None))]
    fn new(
        directory: &Bound<'_, PyAny>,
        ruleset: &str,
        rules: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Tablebase> {
        let directory: std::path::PathBuf = directory
            .extract()
            .map_err(|_| PyTypeError::new_err("directory is a path (str or os.PathLike)"))?;
        let rules = ruleset_from(ruleset, &rule_list(rules)?, Some(&directory))?;
        let tb = open(&directory, rules.clone())?;
        Ok(Tablebase {
            inner: RwLock::new(Some(Arc::new(tb))),
            rules_id: rules.id(),
            rules: Arc::new(rules),
        })
    }

    /// Frees the tables; later probes raise ValueError.
    fn close(&self) {
        *self.inner.write().expect("no panic while held") = None;
    }

    /// The named rule set the tables' rules start from.
    #[getter]
    fn ruleset(&self) -> &'static str {
        self.rules.base.name()
    }

    /// The options in which the tables' rules differ from `ruleset`'s.
    #[getter(rules)]
    fn rule_options(&self) -> Vec<String> {
        crate::rules::ruleset_state(&self.rules).1
    }

    /// The rule set's label (its directory's name).
    #[getter]
    fn ruleset_label(&self) -> String {
        self.rules.label()
    }

    /// `text` as a `Position` under the tables' rules.
    #[pyo3(signature = (text = "start"))]
    fn position(&self, text: &str) -> PyResult<Position> {
        let pos = parse(text).map_err(PyValueError::new_err)?;
        Position::checked(pos, Arc::clone(&self.rules))
    }

    fn probe_wdl(&self, position: &Bound<'_, PyAny>) -> PyResult<i8> {
        let pos = self.position_of(position)?;
        wdl(&*self.get()?, &pos).map(wdl_int).map_err(errors::probe)
    }

    fn probe_plies(&self, position: &Bound<'_, PyAny>) -> PyResult<Option<u16>> {
        let pos = self.position_of(position)?;
        Ok(value(&*self.get()?, &pos).map_err(errors::probe)?.plies())
    }

    /// Every legal move with its value for the mover: (move, wdl, plies),
    /// best first; none when the game is over.
    fn root_moves(&self, position: &Bound<'_, PyAny>) -> PyResult<RootMoves> {
        let pos = self.position_of(position)?;
        root_moves(&*self.get()?, &pos).map_err(errors::probe)
    }

    /// `root_moves` of many positions, on all cores with the GIL released.
    fn root_moves_many(
        &self,
        py: Python<'_>,
        positions: &Bound<'_, PyList>,
    ) -> PyResult<Vec<RootMoves>> {
        let given: Vec<RulesPosition> = positions
            .iter()
            .enumerate()
            .map(|(i, p)| self.position_of(&p).map_err(|e| with_index(py, e, i)))
            .collect::<PyResult<_>>()?;
        let tb = self.get()?;
        let answers: Vec<Result<_, ProbeError>> =
            py.allow_threads(|| given.par_iter().map(|p| root_moves(&tb, p)).collect());
        answers
            .into_iter()
            .enumerate()
            .map(|(i, r)| r.map_err(|e| with_index(py, errors::probe(e), i)))
            .collect()
    }

    /// The opponent's replies to `move` (a `Move` or its text) by their
    /// value for the opponent: `(win, draw, loss)`.
    fn replies(
        &self,
        position: &Bound<'_, PyAny>,
        mv: &Bound<'_, PyAny>,
    ) -> PyResult<(u32, u32, u32)> {
        let pos = self.position_of(position)?;
        let text = mv.str()?.to_string();
        let tb = self.get()?;
        let parsed = pos
            .parse_move(tb.rules(), &text)
            .map_err(|e| PyValueError::new_err(format!("{e} ({pos})")))?;
        let r = tb.replies(&pos, &parsed).map_err(errors::probe)?;
        Ok((r.win, r.draw, r.loss))
    }

    /// An optimal line to the end (empty for a draw or a finished game).
    fn line(&self, position: &Bound<'_, PyAny>) -> PyResult<Vec<Move>> {
        let pos = self.position_of(position)?;
        let tb = self.get()?;
        if over(&tb, &pos).map_err(errors::probe)? {
            return Ok(Vec::new());
        }
        let moves = tb.line(&pos).map_err(errors::probe)?;
        let mut at = pos;
        Ok(moves
            .iter()
            .map(|m| {
                let mv = Move::new(*m, &at, tb.rules());
                at = at.play(m);
                mv
            })
            .collect())
    }

    /// A batch over a list of texts and `Position`s: `kind` is `"wdl"` or
    /// `"both"` (WDL and plies). See [`Batch`].
    fn _many<'py>(
        &self,
        py: Python<'py>,
        kind: &str,
        positions: &Bound<'py, PyList>,
    ) -> PyResult<Batch<'py>> {
        let want = want(kind)?;
        let items: Vec<Bound<'py, PyAny>> = positions.iter().collect();
        let given: Vec<Given<'_>> = items
            .iter()
            .enumerate()
            .map(|(i, p)| self.given(p).map_err(|e| with_index(py, e, i)))
            .collect::<PyResult<_>>()?;
        let tb = self.get()?;
        Ok(run_batch(py, &tb, given.len(), want, |i| match &given[i] {
            Given::Text(t) => parse(t),
            Given::Pos(p) => Ok(*p),
        }))
    }

    /// A batch over rows of 17 bytes (see `Position.to_array`).
    fn _many_rows<'py>(
        &self,
        py: Python<'py>,
        kind: &str,
        rows: &Bound<'py, PyBytes>,
    ) -> PyResult<Batch<'py>> {
        let want = want(kind)?;
        // The bytes as a slice (a Vec<u8> argument would take them one
        // Python int at a time).
        let rows = rows.as_bytes();
        if rows.len() % 17 != 0 {
            return Err(PyValueError::new_err(
                "rows of 17 bytes: 16 squares and the side to move",
            ));
        }
        let tb = self.get()?;
        Ok(run_batch(py, &tb, rows.len() / 17, want, |i| {
            from_row(&rows[17 * i..17 * i + 17])
        }))
    }

    /// `n` positions of `material`'s table drawn at random (uniform over
    /// its positions, both sides to move; the same `seed` gives the same
    /// draw), with their values: rows of 17 bytes (see `Position.to_array`),
    /// WDL as int8 and plies as little-endian int16 (-1 for a draw).
    #[pyo3(signature = (material, n, seed = 0))]
    fn _sample<'py>(
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
        let (rows, wdl, plies) = py
            .allow_threads(|| sample(&tb, asked, n, seed))
            .map_err(errors::probe)?;
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

/// Opens the tables; a missing directory is a `MissingTableError` that
/// names it.
fn open(directory: &Path, rules: Ruleset) -> PyResult<Inner> {
    Inner::open(directory, rules).map_err(|e| match e {
        e @ ProbeError::NoTables { .. } => MissingTableError::new_err(errors::message(&e)),
        e => errors::probe(e),
    })
}

/// `e` with "position `i`: " before its message, of the same type.
fn with_index(py: Python<'_>, e: PyErr, i: usize) -> PyErr {
    let message = format!("position {i}: {}", e.value_bound(py));
    let ty = e.get_type_bound(py);
    PyErr::from_type_bound(ty, message)
}

fn root_moves(tb: &Inner, pos: &RulesPosition) -> Result<RootMoves, ProbeError> {
    if over(tb, pos)? {
        return Ok(Vec::new());
    }
    Ok(tb
        .probe_root(pos)?
        .iter()
        .map(|r| {
            (
                Move::new(r.mv, pos, tb.rules()),
                wdl_int(r.value.wdl()),
                r.value.plies(),
            )
        })
        .collect())
}

/// `n` random positions of `asked`'s table with their values (see
/// `Tablebase._sample`).
fn sample(tb: &Inner, asked: Material, n: usize, seed: u64) -> Result<Sample, ProbeError> {
    let (canonical, flipped) = asked.canonical();
    let table = tb.table(canonical)?;
    let symmetric = canonical.is_symmetric();
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
        // Slots that hold no position are drawn again (the index is
        // 95-100 % dense).
        let Some(mut pos) = index.canonical_position(next() % size.max(1)) else {
            continue;
        };
        // A symmetric material stores White to move only: Black to move is
        // its colour swap, drawn half the time.
        if flipped || (symmetric && next() & 1 == 1) {
            pos = pos.color_flip();
        }
        let v = tb.probe(&pos)?;
        rows.extend_from_slice(&crate::position::to_row(&pos));
        wdl.push(wdl_int(v.wdl()) as u8);
        plies.extend_from_slice(&v.plies().map_or(-1i16, |p| p as i16).to_le_bytes());
    }
    Ok((rows, wdl, plies))
}
