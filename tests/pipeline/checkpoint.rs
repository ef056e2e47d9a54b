//! A solve stopped with a checkpoint file saves its state there
//! ([`SolveError::Checkpointed`]) and the same solve started again resumes
//! from it, ending with the values of a solve that never stopped: stopped
//! at several levels, one after another, on one, two and three threads. A
//! checkpoint of another material, of another version, of the 16-bit
//! solver earlier builds had, or damaged, is refused and left as it is.

use jungletb::indexer::Material;
use jungletb::rules::Ruleset;
use jungletb::solver::{solve_material_until, SolveError, Watch};
use jungletb::tablebase::{table_dir, Tablebase};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering::Relaxed};

/// Solves `m`, stopping at the levels in `stops` (each once, in order)
/// and resuming from the checkpoint at `path` after each stop. Returns the
/// values and the levels it stopped at.
fn solve_with_stops(
    m: Material,
    tb: &Tablebase,
    work: &Path,
    path: &Path,
    stops: &[u16],
) -> Result<(Vec<u16>, Vec<u16>), SolveError> {
    let rules = tb.rules().clone();
    let mut stopped = Vec::new();
    let next_stop = AtomicU32::new(0);
    loop {
        let stop = AtomicBool::new(false);
        let on_level = |d: u16| {
            let k = next_stop.load(Relaxed) as usize;
            if stops.get(k) == Some(&d) {
                next_stop.store(k as u32 + 1, Relaxed);
                stop.store(true, Relaxed);
            }
        };
        let watch = Watch {
            on_progress: &|_| {},
            on_level: &on_level,
            stop: &stop,
            checkpoint: Some(path),
        };
        match solve_material_until(m, &rules, tb, work, u64::MAX, watch) {
            Ok((values, _)) => return Ok((values.to_vec(), stopped)),
            Err(SolveError::Checkpointed { level, path: p, .. }) => {
                assert_eq!(p, path);
                assert!(path.exists(), "no checkpoint at level {level}");
                stopped.push(level);
            }
            Err(e) => return Err(e),
        }
    }
}

#[test]
fn a_solve_stopped_between_levels_resumes_from_its_checkpoint_to_the_same_values() {
    let rules = Ruleset::standard();
    let m: Material = "ELvTR".parse().unwrap();
    let root = crate::fixture::generate_tables(&rules, vec![m]);
    let dir = table_dir(root.path(), &rules);
    let tb = Tablebase::with_dir(dir.clone(), rules.clone());
    let work = tempfile::tempdir_in(&dir).unwrap();
    let path = dir.join("ELvTR.checkpoint");
    let pool = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
    };
    let (whole, none) = pool(1)
        .install(|| solve_with_stops(m, &tb, work.path(), &path, &[]))
        .unwrap();
    assert!(none.is_empty());
    // The table the generator wrote holds these values: the solve is real.
    let written = Tablebase::with_dir(dir.clone(), rules.clone())
        .table(m)
        .unwrap()
        .raw_values()
        .unwrap();
    assert_eq!(written, whole);
    // At the first level (right after the sweep), early, in the middle and
    // near the end, one after another.
    let stops = [0u16, 1, 2, 9, 30, 61];
    for threads in [1, 2, 3] {
        let (values, stopped) = pool(threads)
            .install(|| solve_with_stops(m, &tb, work.path(), &path, &stops))
            .unwrap();
        assert!(
            stopped.len() >= 4,
            "{threads} thread(s): stopped only at {stopped:?}"
        );
        let differ = (0..whole.len()).find(|&i| whole[i] != values[i]);
        assert_eq!(
            differ, None,
            "{threads} thread(s), stopped at {stopped:?}: differs at the slot"
        );
        std::fs::remove_file(&path).unwrap();
    }
}

#[test]
fn a_stop_during_the_sweep_saves_a_checkpoint_at_its_end_or_interrupts_without_one() {
    let rules = Ruleset::standard();
    let m: Material = "ELvTR".parse().unwrap();
    let root = crate::fixture::generate_tables(&rules, vec![m]);
    let dir = table_dir(root.path(), &rules);
    let tb = Tablebase::with_dir(dir.clone(), rules.clone());
    let work = tempfile::tempdir_in(&dir).unwrap();
    let path = dir.join("ELvTR.checkpoint");
    let whole = tb.table(m).unwrap().raw_values().unwrap();
    // The flag goes up with the sweep's first finished chunk, long before
    // its end (ELvTR has many chunks).
    {
        let stop_in_sweep = |checkpoint: Option<&Path>| {
            let stop = AtomicBool::new(false);
            let swept = std::sync::atomic::AtomicU64::new(0);
            let on_progress = |n: u64| {
                swept.fetch_add(n, Relaxed);
                stop.store(true, Relaxed);
            };
            let watch = Watch {
                on_progress: &on_progress,
                on_level: &|_| {},
                stop: &stop,
                checkpoint,
            };
            let got = solve_material_until(m, &rules, &tb, work.path(), u64::MAX, watch);
            (got.map(|(v, _)| v.to_vec()), swept.into_inner())
        };
        let size = whole.len() as u64;
        let (got, swept) = stop_in_sweep(None);
        assert!(
            matches!(got, Err(SolveError::Interrupted { .. })),
            "{got:?}"
        );
        assert!(
            swept < size,
            "without a checkpoint the sweep ran to its end"
        );
        assert!(!path.exists());
        let (got, swept) = stop_in_sweep(Some(&path));
        assert!(
            matches!(got, Err(SolveError::Checkpointed { level: 0, .. })),
            "{got:?}"
        );
        assert_eq!(swept, size, "the sweep stopped before its end");
        let (values, stopped) = solve_with_stops(m, &tb, work.path(), &path, &[]).unwrap();
        assert!(stopped.is_empty());
        assert_eq!(
            values, whole,
            "resumed from the sweep's end, the values differ"
        );
        std::fs::remove_file(&path).unwrap();
    }
}

/// Stops the solve of `m` at its first level, leaving a checkpoint at
/// `path`.
fn checkpoint_of(m: Material, tb: &Tablebase, work: &Path, path: &Path) {
    checkpoint_at(m, tb, work, path, 0);
}

/// Stops the solve of `m` at `level`, leaving a checkpoint at `path`.
fn checkpoint_at(m: Material, tb: &Tablebase, work: &Path, path: &Path, level: u16) {
    let stop = AtomicBool::new(false);
    let watch = Watch {
        on_progress: &|_| {},
        on_level: &|d| stop.store(d >= level, Relaxed),
        stop: &stop,
        checkpoint: Some(path),
    };
    let rules = tb.rules().clone();
    let got = solve_material_until(m, &rules, tb, work, u64::MAX, watch);
    assert!(
        matches!(got, Err(SolveError::Checkpointed { level: l, .. }) if l == level),
        "{got:?}"
    );
}

#[test]
fn checkpoints_of_another_material_version_or_damaged_are_refused_and_kept() {
    let rules = Ruleset::standard();
    let m: Material = "ELvR".parse().unwrap();
    let other: Material = "LvR".parse().unwrap();
    let dir = table_dir(crate::fixture::standard(), &rules);
    let tb = Tablebase::with_dir(dir.to_path_buf(), rules.clone());
    let work = tempfile::tempdir().unwrap();
    let path = work.path().join("ELvR.checkpoint");
    checkpoint_of(m, &tb, work.path(), &path);
    let good = std::fs::read(&path).unwrap();
    let version = env!("CARGO_PKG_VERSION").as_bytes();
    let at = good
        .windows(version.len())
        .position(|w| w == version)
        .expect("the version in the checkpoint");
    let mut older = good.clone();
    older[at] = if older[at] == b'9' { b'8' } else { b'9' };
    let mut damaged = good.clone();
    let middle = damaged.len() / 2;
    damaged[middle] ^= 0x20;
    // The 16-bit solver's checkpoints began so.
    let mut sixteen = good.clone();
    sixteen[..8].copy_from_slice(b"JTBCKPT1");
    let cases: [(&str, Material, &[u8], &str); 5] = [
        ("another material", other, &good, "a checkpoint of ELvR"),
        ("another version", m, &older, "written by jungletb"),
        ("damaged", m, &damaged, "fails its check"),
        (
            "cut short",
            m,
            &good[..good.len() - 9],
            "bytes, for a table of",
        ),
        ("the 16-bit solver's", m, &sixteen, "16-bit solver"),
    ];
    for (what, material, bytes, says) in cases {
        std::fs::write(&path, bytes).unwrap();
        let watch = Watch {
            on_progress: &|_| {},
            on_level: &|_| {},
            stop: &AtomicBool::new(false),
            checkpoint: Some(&path),
        };
        let err = solve_material_until(material, &rules, &tb, work.path(), u64::MAX, watch)
            .expect_err(what);
        let SolveError::CheckpointRefused { reason, .. } = &err else {
            panic!("{what}: {err}")
        };
        assert!(reason.contains(says), "{what}: {reason}");
        assert_eq!(
            std::fs::read(&path).unwrap(),
            bytes,
            "{what}: the checkpoint changed"
        );
    }
}
