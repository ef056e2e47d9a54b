//! Tables made from Python: `jungletb.generate`, and the command line the
//! wheel installs as the `jungletb` console script.

use crate::errors;
use crate::rules::{rule_list, ruleset_from};
use jungletb_cli::progress::Progress;
use jungletb_indexer::Material;
use jungletb_solver::{generate_until, GenerateOptions};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Generates tables into `out` (see `jungletb.generate`). The solve runs
/// on a thread of its own, drawn by the command line's progress display,
/// while this one waits with an eye on Python's signals: on Ctrl-C it sets the solver's stop flag, waits for the solve
/// to stop (within its level: well under a second below 6 pieces) and raises
/// KeyboardInterrupt; finished tables are kept and the same call resumes.
#[pyfunction]
#[pyo3(signature = (out, ruleset = "standard", rules = None, max_pieces = None, materials = None, threads = None, progress = true, mem = None))]
#[allow(clippy::too_many_arguments)]
pub fn generate<'py>(
    py: Python<'py>,
    out: &Bound<'py, PyAny>,
    ruleset: &str,
    rules: Option<&Bound<'py, PyAny>>,
    max_pieces: Option<u32>,
    materials: Option<&Bound<'py, PyAny>>,
    threads: Option<usize>,
    progress: bool,
    mem: Option<u64>,
) -> PyResult<Bound<'py, PyDict>> {
    let root: PathBuf = out
        .extract()
        .map_err(|_| PyTypeError::new_err("out is a path (str or os.PathLike)"))?;
    let rules = ruleset_from(ruleset, &rule_list(rules)?, Some(&root))?;
    let materials = material_list(materials)?;
    if materials.is_empty() == max_pieces.is_none() {
        return Err(PyValueError::new_err(
            "say what to generate, one of: max_pieces=N (every material of 2..=N pieces) or \
             materials=[...] (those and what they depend on)",
        ));
    }
    let max_pieces = max_pieces.unwrap_or(16);
    if materials.is_empty() && !(2..=16).contains(&max_pieces) {
        return Err(PyValueError::new_err(format!(
            "max_pieces must be 2 to 16, got {max_pieces}"
        )));
    }
    let opts = GenerateOptions {
        root,
        rules,
        max_pieces,
        materials,
        mem,
        check_space: true,
    };
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        if t == 0 {
            return Err(PyValueError::new_err("threads must be at least 1"));
        }
        pool = pool.num_threads(t);
    }
    let pool = pool
        .build()
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let stop = Arc::new(AtomicBool::new(false));
    let worker = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            // The command line's display: bars on a terminal, a line per
            // table in logs, nothing with progress=False.
            let bar = Progress::new(!progress, false);
            let report = pool.install(|| generate_until(&opts, &|e| bar.event(e), &stop));
            bar.finish();
            report
        })
    };
    // Wait, looking at Python's signals fifty times a second.
    let mut interrupted = None;
    // Signals are looked at before the worker's end, so a Ctrl-C that came
    // while this thread waited for a core (a loaded machine) still raises,
    // even when the work ended meanwhile.
    loop {
        py.allow_threads(|| std::thread::sleep(Duration::from_millis(20)));
        if interrupted.is_none() {
            if let Err(e) = py.check_signals() {
                stop.store(true, Ordering::Relaxed);
                interrupted = Some(e);
            }
        }
        if worker.is_finished() {
            break;
        }
    }
    let report = worker
        .join()
        .map_err(|_| PyRuntimeError::new_err("the generator thread panicked"))?;
    if let Some(e) = interrupted {
        return Err(e);
    }
    report_dict(py, &report.map_err(errors::solve)?)
}

/// `materials=`: a list of material names, parsed.
fn material_list(materials: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Material>> {
    let names: Vec<String> = match materials {
        None => Vec::new(),
        Some(m) if m.is_instance_of::<pyo3::types::PyString>() => {
            return Err(PyTypeError::new_err(
                "materials= is a list of materials, e.g. [\"ELvR\"], not a string",
            ))
        }
        Some(m) => m.extract().map_err(|_| {
            PyTypeError::new_err("materials= is a list of materials, e.g. [\"ELvR\"]")
        })?,
    };
    names
        .iter()
        .map(|m| {
            m.parse()
                .map_err(|e: jungletb_indexer::MaterialError| PyValueError::new_err(e.to_string()))
        })
        .collect()
}

/// What `generate` returns: the directory, tables looked at, those solved,
/// positions, bytes and seconds.
fn report_dict<'py>(
    py: Python<'py>,
    report: &jungletb_solver::GenerateReport,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new_bound(py);
    d.set_item("dir", report.dir.to_string_lossy().into_owned())?;
    d.set_item("tables", report.materials.len())?;
    d.set_item(
        "solved",
        report
            .materials
            .iter()
            .filter(|m| m.solved)
            .map(|m| m.material.to_string())
            .collect::<Vec<_>>(),
    )?;
    d.set_item(
        "positions",
        report.materials.iter().map(|m| m.positions).sum::<u64>(),
    )?;
    d.set_item(
        "bytes",
        report.materials.iter().map(|m| m.bytes).sum::<u64>(),
    )?;
    d.set_item("seconds", report.elapsed.as_secs_f64())?;
    Ok(d)
}

/// The `jungletb` command line on `argv` (program name first), as the
/// console script runs it; returns the exit status.
#[pyfunction]
pub fn run_cli(py: Python<'_>, argv: Vec<String>) -> u8 {
    py.allow_threads(|| jungletb_cli::run(argv))
}
