//! The speed goal of the 6-piece work, measured as its issue words it: per
//! index slot, what a 6-piece material costs against the 5-piece ones of
//! the same run, repeated so that the spread between runs shows.
//!
//! ```text
//! cargo run --release -p jungletb-studies --bin six_piece_ratio -- \
//!     SOURCE/standard SCRATCH [MATERIAL] [REPEATS] [THREADS]
//! ```
//!
//! `SOURCE/standard` holds the tables of up to 4 pieces (more may be
//! there; only those are used). Each repeat, in a fresh directory under
//! `SCRATCH` that links to them: `generate` of `MATERIAL` (default
//! ELTvELT), which solves its 5-piece sub-tables first (the control before
//! it), then in another fresh directory the same 5-piece tables again (the
//! control after it). Both directories are removed at the end of the
//! repeat; a repeat needs the material's memory (ELTvELT: 14 GB) and disk
//! for its tables (5.5 GB). Prints each repeat's nanoseconds a slot (wall
//! time × threads ÷ slots) and the two ratios, then their median and range.
//! On the 2-core VM of `docs/lab/2026-12-01-six-pieces.md` a repeat of
//! ELTvELT takes about half an hour.

use jungletb_indexer::{Material, PositionIndex};
use jungletb_rules::Ruleset;
use jungletb_solver::{generate, GenerateOptions, GenerateReport};
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: six_piece_ratio SOURCE_DIR SCRATCH [MATERIAL] [REPEATS] [THREADS]";
    let (Some(source), Some(scratch)) = (args.first(), args.get(1)) else {
        fail(usage);
    };
    let material: Material = match args
        .get(2)
        .map_or("ELTvELT", String::as_str)
        .parse::<Material>()
    {
        Ok(m) => m.canonical().0,
        Err(e) => fail(&e.to_string()),
    };
    let number = |k: usize, default: usize| {
        args.get(k)
            .map_or(Ok(default), |a| a.parse::<usize>())
            .unwrap_or_else(|_| fail(usage))
    };
    let (repeats, threads) = (number(3, 3).max(1), number(4, 2).max(1));
    let rules = Ruleset::standard();
    let big = material.piece_count();
    let controls: Vec<Material> = Material::with_dependencies(&[material])
        .into_iter()
        .filter(|m| m.piece_count() == big - 1)
        .collect();
    if controls.is_empty() {
        fail(&format!(
            "{material} has no sub-table of {} pieces",
            big - 1
        ));
    }
    let slots = |m: Material| {
        PositionIndex::new(m, &rules)
            .unwrap_or_else(|e| fail(&e.to_string()))
            .size()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("threads");
    // Nanoseconds of wall time a slot, times the threads, over `of`.
    let per_slot = |report: &GenerateReport, of: &[Material]| {
        let (mut secs, mut n) = (0.0, 0u64);
        for r in report.materials.iter().filter(|r| of.contains(&r.material)) {
            assert!(r.solved, "{} was not solved", r.material);
            secs += r.time.as_secs_f64();
            n += slots(r.material);
        }
        secs * 1e9 * threads as f64 / n as f64
    };
    let run = |dir: &Path, materials: Vec<Material>| {
        link_small_tables(Path::new(source), &dir.join("standard"), big - 2);
        let opts = GenerateOptions {
            root: dir.to_path_buf(),
            rules: rules.clone(),
            max_pieces: 0,
            materials,
            mem: None,
            check_space: true,
        };
        pool.install(|| generate(&opts))
            .unwrap_or_else(|e| fail(&e.to_string()))
    };
    println!(
        "{material} against {} on {threads} threads; ns a slot and thread",
        controls
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let (mut before, mut after) = (Vec::new(), Vec::new());
    for k in 1..=repeats {
        let a = tempfile::tempdir_in(scratch).unwrap_or_else(|e| fail(&e.to_string()));
        let first = run(a.path(), vec![material]);
        let b = tempfile::tempdir_in(scratch).unwrap_or_else(|e| fail(&e.to_string()));
        let second = run(b.path(), controls.clone());
        let (five_before, six) = (per_slot(&first, &controls), per_slot(&first, &[material]));
        let five_after = per_slot(&second, &controls);
        before.push(six / five_before);
        after.push(six / five_after);
        println!(
            "repeat {k}: {six:.1} against {five_before:.1} before ({:.2}x) and {five_after:.1} \
             after ({:.2}x)",
            six / five_before,
            six / five_after
        );
    }
    let mut all: Vec<f64> = before.iter().chain(&after).copied().collect();
    all.sort_by(f64::total_cmp);
    println!(
        "{} comparisons: median {:.2}x, range {:.2}-{:.2}x",
        all.len(),
        median(&all),
        all[0],
        all[all.len() - 1]
    );
}

/// Links every table of `source` of at most `max_pieces` pieces into
/// `dir` (created).
fn link_small_tables(source: &Path, dir: &Path, max_pieces: u32) {
    std::fs::create_dir_all(dir).unwrap_or_else(|e| fail(&e.to_string()));
    let entries = std::fs::read_dir(source).unwrap_or_else(|e| fail(&e.to_string()));
    for entry in entries.flatten() {
        let path = entry.path();
        let small = path.extension().is_some_and(|x| x == "jtb")
            && path
                .file_stem()
                .and_then(|s| s.to_str()?.parse::<Material>().ok())
                .is_some_and(|m| m.piece_count() <= max_pieces);
        if small {
            let absolute = std::path::absolute(&path).unwrap_or(path.clone());
            std::os::unix::fs::symlink(absolute, dir.join(entry.file_name()))
                .unwrap_or_else(|e| fail(&e.to_string()));
        }
    }
}

/// The median of sorted `v` (not empty).
fn median(v: &[f64]) -> f64 {
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn fail(what: &str) -> ! {
    eprintln!("six_piece_ratio: {what}");
    std::process::exit(2);
}
