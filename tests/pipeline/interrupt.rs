//! A generation told to stop ([`generate_until`]) stops cleanly: the
//! tables finished before are kept, nothing of an interrupted material is
//! left but its checkpoint (when stopped between levels of its solve), and
//! the same request again ends with the tables an uninterrupted run
//! writes, byte for byte, and no checkpoint.

use jungletb::indexer::Material;
use jungletb::rules::Ruleset;
use jungletb::solver::{generate_until, GenerateEvent, GenerateOptions, SolveError};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

fn request(root: &Path) -> GenerateOptions {
    GenerateOptions {
        root: root.to_path_buf(),
        rules: Ruleset::standard(),
        max_pieces: 8,
        materials: vec!["ELvR".parse::<Material>().unwrap()],
        mem: None,
        check_space: true,
    }
}

/// Every file under the rule set's directory, by name, with its bytes.
fn files(root: &Path) -> Vec<(String, Vec<u8>)> {
    let dir = root.join("standard");
    let mut out: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// Runs the request, setting the stop flag when `trip` says so of an event.
fn run_stopping_at(
    root: &Path,
    trip: impl Fn(&GenerateEvent) -> bool + Sync,
) -> Result<(), SolveError> {
    let stop = AtomicBool::new(false);
    let on_event = |e: GenerateEvent| {
        if trip(&e) {
            stop.store(true, Ordering::Relaxed);
        }
    };
    generate_until(&request(root), &on_event, &stop).map(|_| ())
}

#[test]
fn a_stopped_generation_keeps_finished_tables_leaves_nothing_else_and_resumes_identically() {
    let whole = tempfile::tempdir().unwrap();
    run_stopping_at(whole.path(), |_| false).expect("an uninterrupted run");
    let expected = files(whole.path());
    assert!(
        expected.len() >= 3,
        "ELvR and its sub-tables: {}",
        expected.len()
    );

    // Stopped before a material's solve (the third one), and inside a
    // solve (at its first progress report): both paths of the flag. The
    // two 2-piece tables are solved side by side: a stop inside one may
    // find the other finished, or checkpoint it too.
    let solving = AtomicUsize::new(0);
    type Trip<'a> = &'a (dyn Fn(&GenerateEvent) -> bool + Sync);
    let cases: [(&str, Trip, std::ops::RangeInclusive<usize>); 2] = [
        (
            "before the third solve",
            &|e| {
                matches!(e, GenerateEvent::Done(_)) && solving.fetch_add(1, Ordering::Relaxed) == 1
            },
            2..=2,
        ),
        // A first solve stops inside (at its first level, since the sweep
        // of so small a material is one group): only checkpoints are
        // written, and perhaps the table solved beside it.
        (
            "inside a solve",
            &|e| matches!(e, GenerateEvent::Swept(_)),
            0..=1,
        ),
    ];
    for (when, trip, kept) in cases {
        let root = tempfile::tempdir().unwrap();
        let err = run_stopping_at(root.path(), trip).expect_err(when);
        let (material, checkpoint) = match err {
            SolveError::Interrupted { material } => (material, None),
            SolveError::Checkpointed { material, path, .. } => (material, Some(path)),
            err => panic!("{when}: {err}"),
        };
        let (checkpoints, tables): (Vec<_>, Vec<_>) = files(root.path())
            .into_iter()
            .partition(|(n, _)| n.ends_with(".checkpoint"));
        if let Some(path) = &checkpoint {
            assert_eq!(
                path.file_name().unwrap(),
                &*format!("{material}.checkpoint")
            );
            assert!(path.exists(), "{when}: the checkpoint named is missing");
        }
        // Only finished tables are there, each identical to the whole run's;
        // an interrupted material has no table and no working directory.
        assert!(
            kept.contains(&tables.len()),
            "{when}: {} tables",
            tables.len()
        );
        for f in &tables {
            assert!(
                expected.contains(f),
                "{when}: {} is not a finished table",
                f.0
            );
        }
        for (name, _) in &checkpoints {
            let stem = name.trim_end_matches(".checkpoint");
            assert!(
                !tables
                    .iter()
                    .any(|(n, _)| n.starts_with(&format!("{stem}."))),
                "{when}: {stem} has a checkpoint and a table"
            );
        }
        assert!(!tables
            .iter()
            .any(|(n, _)| n.starts_with(&format!("{material}."))));
        let dirs = std::fs::read_dir(root.path().join("standard"))
            .unwrap()
            .map(|e| e.unwrap())
            .filter(|e| e.path().is_dir() && !e.file_name().to_string_lossy().starts_with(".locks"))
            .count();
        assert_eq!(dirs, 0, "{when}: a working directory was left");
        // The same request again resumes from the checkpoints, to the
        // whole run's tables and no checkpoint.
        run_stopping_at(root.path(), |_| false).expect("the resumed run");
        assert_eq!(
            files(root.path()),
            expected,
            "{when}: resumed tables differ"
        );
    }
}
