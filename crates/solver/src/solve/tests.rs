//! The cells ([`Layout`]) on small materials, whose distances are far from
//! the 172 plies a byte holds: the tests squeeze the decided values into
//! just enough codes, stop and resume the solve, and compare with the same
//! solve in two-byte cells, the path of a material whose distances pass a
//! byte's (forced here), which must write the same values. And a level run
//! in part, then again in full, as a solve stopped within a level and
//! resumed runs it. (The values themselves are checked against an
//! independent reference solver and recorded checksums in
//! `tests/pipeline`.)

use super::buckets::Rounds;
use super::cells::{chunk_words, ByteCells, ByteCtx, CHUNK};
use super::codes::Layout;
use super::expand::expand_for;
use super::levels::{level_as_found, level_by_regions};
use super::presence::Presence;
use super::subtables::SubTables;
use super::sweep::count;
use super::CellSolve;
use crate::batch::generate::{generate, GenerateOptions};
use crate::error::SolveError;
use crate::watch::Watch;
use jungletb_format::encoding;
use jungletb_indexer::{Material, PositionIndex};
use jungletb_rules::{MoveTables, Ruleset};
use jungletb_tablebase::{table_dir, Tablebase};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// Solves `material` in cells of `W` bytes laid out as `layout` with its
/// checkpoint in `work` (resuming from it if there), stopping at the level
/// `stop_at`, its updates applied as found or by regions (their bits and
/// their parts', see `byte_region_bits`).
fn solve_once<const W: usize>(
    tb: &Tablebase,
    material: Material,
    (layout, regions): (Layout, Option<(u32, u32)>),
    work: &std::path::Path,
    stop_at: Option<u16>,
) -> Result<Vec<u16>, SolveError> {
    let index = PositionIndex::new(material, tb.rules()).unwrap();
    let checkpoint = work.join("bytes.checkpoint");
    let stop = AtomicBool::new(false);
    let on_level = |d: u16| {
        if Some(d) == stop_at {
            stop.store(true, Relaxed);
        }
    };
    let solve = CellSolve {
        index: &index,
        rules: tb.rules(),
        work_dir: work,
        mem_budget: u64::MAX,
        regions,
    };
    let watch = Watch {
        on_progress: &|_| {},
        on_level: &on_level,
        stop: &stop,
        checkpoint: Some(&checkpoint),
    };
    Ok(solve
        .solve::<W>(SubTables::open(material, tb).unwrap(), watch, layout)?
        .0
        .to_vec())
}

/// [`solve_once`] stopped at the level `stop_at`, then resumed.
fn solve_bytes<const W: usize>(
    tb: &Tablebase,
    material: Material,
    how: (Layout, Option<(u32, u32)>),
    work: &std::path::Path,
    stop_at: Option<u16>,
) -> Result<Vec<u16>, SolveError> {
    let solved = match solve_once::<W>(tb, material, how, work, stop_at) {
        Err(SolveError::Checkpointed { level, .. }) => {
            assert_eq!(Some(level), stop_at);
            solve_once::<W>(tb, material, how, work, None)
        }
        other => other,
    };
    let _ = std::fs::remove_file(work.join("bytes.checkpoint"));
    solved
}

/// The tables of TRvTR (White to move only) and ELvTR (both sides, Rats
/// and the river) and of what they depend on, generated once.
fn fixture() -> &'static (tempfile::TempDir, Tablebase) {
    static TABLES: std::sync::OnceLock<(tempfile::TempDir, Tablebase)> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        let rules = Ruleset::standard();
        let root = tempfile::tempdir().unwrap();
        generate(&GenerateOptions {
            root: root.path().to_path_buf(),
            rules: rules.clone(),
            max_pieces: 8,
            materials: MATERIALS.iter().map(|m| m.parse().unwrap()).collect(),
            mem: None,
            check_space: true,
        })
        .unwrap();
        let tb = Tablebase::with_dir(table_dir(root.path(), &rules), rules);
        (root, tb)
    })
}

const MATERIALS: [&str; 2] = ["TRvTR", "ELvTR"];

/// The values of `m` solved in two-byte cells: the path of a material
/// whose distances or counts a byte cannot hold, forced.
fn two_bytes(tb: &Tablebase, m: Material, work: &std::path::Path) -> Vec<u16> {
    solve_bytes::<2>(tb, m, (Layout::for_width(2), None), work, None).unwrap()
}

#[test]
fn two_byte_cells_write_the_tables_one_byte_cells_write() {
    let (_, tb) = fixture();
    let work = tempfile::tempdir().unwrap();
    for m in MATERIALS {
        let m = m.parse::<Material>().unwrap().canonical().0;
        let wide = two_bytes(tb, m, work.path());
        // The generated table (one-byte cells), value for value.
        let table = tb.table(m).unwrap().raw_values().unwrap();
        let differ = (0..wide.len()).find(|&i| table[i] != wide[i]);
        assert_eq!(differ, None, "{m}: two-byte cells differ at the slot");
        assert!(wide.iter().any(|&v| v > 2), "{m}: nothing decided");
        // Stopped and resumed, as found and by regions of 256 slots in
        // parts of 32.
        for regions in [None, Some((8, 5))] {
            for stop_at in [Some(1), Some(4)] {
                let again =
                    solve_bytes::<2>(tb, m, (Layout::for_width(2), regions), work.path(), stop_at)
                        .unwrap();
                assert!(
                    again == wide,
                    "{m}: two bytes stopped at {stop_at:?}, {regions:?}"
                );
            }
        }
    }
}

#[test]
fn one_byte_counts_give_the_values_of_two_byte_cells_in_the_fewest_codes() {
    let (_, tb) = fixture();
    let work = tempfile::tempdir().unwrap();
    for m in MATERIALS {
        let m = m.parse::<Material>().unwrap().canonical().0;
        let wide = two_bytes(tb, m, work.path());
        let longest = wide
            .iter()
            .filter_map(|&raw| encoding::decode(raw)?.plies())
            .max()
            .unwrap();
        // Wins through a capture are one ply longer than the sub-tables',
        // and the last level makes room for one more.
        let through = SubTables::open(m, tb).unwrap().longest_win().unwrap() + 1;
        let room = (longest + 1).max(through);
        let layout = Layout::with_room(room).unwrap();
        assert!(layout.undecided < Layout::default().undecided);
        // Updates as found, and by regions of 256 slots, whole or in parts
        // of 32.
        for regions in [None, Some((8, 8)), Some((8, 5))] {
            for stop_at in [None, Some(1), Some(4), Some(longest / 2)] {
                let bytes =
                    solve_bytes::<1>(tb, m, (layout, regions), work.path(), stop_at).unwrap();
                let differ = (0..wide.len()).find(|&i| wide[i] != bytes[i]);
                assert_eq!(
                    differ, None,
                    "{m} (stopped at {stop_at:?}, regions {regions:?}): differs at the slot"
                );
            }
        }
        // Planted fault: one code too few for the longest distance.
        if longest + 1 > through {
            let short = Layout::with_room(room - 1).unwrap();
            match solve_bytes::<1>(tb, m, (short, Some((8, 5))), work.path(), None) {
                Err(SolveError::DistanceOverflow { limit, .. }) => {
                    assert_eq!(limit, room - 1)
                }
                other => panic!(
                    "{m}: expected an overflow, got {:?}",
                    other.map(|v| v.len())
                ),
            }
        }
    }
}

/// Stops ELvTR's solve at level `level` (updates by `regions`, see
/// `byte_region_bits`, or as found), runs part of that level with `part`
/// on the checkpoint's bytes (the counts taken from them first, as a
/// resumed solve does), saves the chunks `part` returns as done, or none
/// unless `saved` (planted fault: a won level's chunks run twice count
/// their wins down twice), and resumes. The values must be those of a
/// solve run whole, except with the fault on a won level, where they must
/// differ.
fn part_of_a_level_then_the_rest(
    level: u16,
    regions: Option<(u32, u32)>,
    saved: bool,
    part: impl FnOnce(&ByteCtx<1>) -> Vec<u64>,
) {
    let (_, tb) = fixture();
    let work = tempfile::tempdir().unwrap();
    let m = "ELvTR".parse::<Material>().unwrap().canonical().0;
    static WIDE: std::sync::OnceLock<Vec<u16>> = std::sync::OnceLock::new();
    let wide = WIDE.get_or_init(|| two_bytes(tb, m, work.path()));
    let index = PositionIndex::new(m, tb.rules()).unwrap();
    let layout = Layout::default();
    let n = index.size() as usize;
    let words = chunk_words(n as u64);
    let id = super::checkpoint::Identity {
        material: m,
        rules: tb.rules(),
        slots: n as u64,
        width: 1,
    };
    let checkpoint = work.path().join("bytes.checkpoint");
    match solve_once::<1>(tb, m, (layout, regions), work.path(), Some(level)) {
        Err(SolveError::Checkpointed { level: at, .. }) => assert_eq!(at, level),
        other => panic!("expected a checkpoint, got {:?}", other.map(|v| v.len())),
    }
    let cells = super::work::WorkArray::anonymous(n, 1).unwrap();
    let (levels, none) = super::checkpoint::load(&checkpoint, &id, &cells, words).unwrap();
    assert!(
        none.iter().all(|&w| w == 0),
        "between levels, no chunk is done"
    );
    let ctx = ByteCtx {
        rules: tb.rules(),
        tables: MoveTables::new(tb.rules()),
        index: &index,
        subs: SubTables::open(m, tb).unwrap(),
        cells: ByteCells::<1>(cells.atomic_u64()),
        layout,
        present: Presence::new(n as u64),
        scanned: Default::default(),
    };
    count(&ctx);
    let done = part(&ctx);
    drop(ctx);
    let done = if saved { done } else { Vec::new() };
    super::checkpoint::save(&checkpoint, &id, &cells, levels, (&done, words)).unwrap();
    let bytes = solve_bytes::<1>(tb, m, (layout, regions), work.path(), None).unwrap();
    let differ = (0..wide.len()).find(|&i| wide[i] != bytes[i]);
    if saved || level.is_multiple_of(2) {
        assert_eq!(
            differ, None,
            "part of level {level} run, then the rest (regions {regions:?}, saved: {saved}): differs at the slot"
        );
    } else {
        assert!(
            differ.is_some(),
            "part of level {level} run twice (regions {regions:?}), and the values are the same"
        );
    }
}

#[test]
fn a_level_run_in_part_as_found_resumes_to_the_bytes_of_one_run() {
    // Lost and won levels: every other chunk on 3 threads (locked), or a
    // side a thread on 2, stopped after a few chunks. (Level 1 writes
    // nothing in ELvTR: its wins are den entries, whose predecessors the
    // sweep decided; level 2 nothing in a few chunks.)
    for (level, saved, threads) in (0..16).map(|k| ([2, 3, 4, 7][k / 4], k % 2 == 0, 2 + k / 2 % 2))
    {
        part_of_a_level_then_the_rest(level, None, saved, |ctx| {
            let every_other = if threads == 3 {
                0xAAAA_AAAA_AAAA_AAAA
            } else {
                0
            };
            let skip = vec![every_other; chunk_words(ctx.index.size())];
            let done: Vec<AtomicU64> = skip.iter().map(|&w| AtomicU64::new(w)).collect();
            let asked = std::sync::atomic::AtomicUsize::new(0);
            let stop = || threads == 2 && asked.fetch_add(1, Relaxed) >= 6;
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let run = || level_as_found(ctx, expand_for(ctx.index), level, &done, stop);
            let (delta, _) = pool.install(run).unwrap();
            assert!(
                level == 2 || delta.iter().any(|&k| k != 0),
                "level {level}: wrote nothing"
            );
            let ran: Vec<u64> = done
                .into_iter()
                .zip(skip)
                .map(|(d, s)| d.into_inner() & !s)
                .collect();
            some_but_not_all(&ran, ctx.index.size());
            ran
        });
    }
}

/// Asserts that the chunks of `ran` (a bit each) are some of a level's
/// `slots`, not all.
fn some_but_not_all(ran: &[u64], slots: u64) {
    let count = ran.iter().map(|w| w.count_ones()).sum::<u32>() as usize;
    let chunks = (slots as usize).div_ceil(CHUNK);
    assert!(
        count > 0 && count < chunks,
        "{count} of {chunks} chunks ran"
    );
}

/// ELvTR (both sides to move stored) solved on two threads, a side each,
/// run after run: the table generated on one thread. (Planted fault: a
/// thread asked to lock goes on by plain stores; the runs differ.)
#[test]
fn two_threads_a_side_each_write_the_table_of_one_thread_run_after_run() {
    let (_, tb) = fixture();
    let work = tempfile::tempdir().unwrap();
    let m = "ELvTR".parse::<Material>().unwrap().canonical().0;
    let table = tb.table(m).unwrap().raw_values().unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let how = (Layout::default(), None);
    for run in 0..12 {
        let bytes = pool
            .install(|| solve_bytes::<1>(tb, m, how, work.path(), None))
            .unwrap();
        let differ = (0..bytes.len()).find(|&i| table[i] != bytes[i]);
        assert_eq!(differ, None, "run {run}: differs at the slot");
    }
}

#[test]
fn a_level_by_regions_stopped_after_a_round_resumes_to_the_bytes_of_one_run() {
    for level in [2, 3, 5] {
        for saved in [true, false] {
            part_of_a_level_then_the_rest(level, Some((10, 7)), saved, |ctx| {
                let n = ctx.index.size();
                // Rounds of a few hundred updates, stopped after the first,
                // regions of 2^10 slots applied in parts of 2^7.
                let mut rounds = Rounds::new(n, (10, 7), 2);
                rounds.quota = 300;
                let done: Vec<AtomicU64> = (0..chunk_words(n)).map(|_| AtomicU64::new(0)).collect();
                let (delta, stopped) =
                    level_by_regions(ctx, &mut rounds, level, &done, || true).unwrap();
                assert!(stopped, "level {level}: one round was the whole level");
                assert!(
                    delta.iter().any(|&k| k != 0),
                    "level {level}: the round wrote nothing"
                );
                let done: Vec<u64> = done.into_iter().map(AtomicU64::into_inner).collect();
                some_but_not_all(&done, n);
                done
            });
        }
    }
}

#[test]
fn checkpoints_of_earlier_builds_bytes_are_refused_not_misread() {
    let (_, tb) = fixture();
    let work = tempfile::tempdir().unwrap();
    let m = "ELvTR".parse::<Material>().unwrap().canonical().0;
    let checkpoint = work.path().join("bytes.checkpoint");
    match solve_once::<1>(tb, m, (Layout::default(), None), work.path(), Some(3)) {
        Err(SolveError::Checkpointed { level: 3, .. }) => {}
        other => panic!("expected a checkpoint, got {:?}", other.map(|v| v.len())),
    }
    let mut file = std::fs::read(&checkpoint).unwrap();
    assert_eq!(&file[..8], b"JTBCKPB4");
    // The same file as an earlier build's (floors in the bytes, or counts
    // of positions open to a den entry, which level 1 no longer counts, or
    // the 16-bit solver's), or as two-byte cells'.
    for (old, says) in [
        (b"JTBCKPB1", "earlier build"),
        (b"JTBCKPB2", "earlier build"),
        (b"JTBCKPB3", "earlier build"),
        (b"JTBCKPT1", "16-bit solver of an earlier build"),
        (b"JTBCKPW1", "two-byte cells"),
    ] {
        file[..8].copy_from_slice(old);
        std::fs::write(&checkpoint, &file).unwrap();
        match solve_once::<1>(tb, m, (Layout::default(), None), work.path(), None) {
            Err(SolveError::CheckpointRefused { reason, .. }) => {
                assert!(reason.contains(says), "{reason}")
            }
            other => panic!("expected a refusal, got {:?}", other.map(|v| v.len())),
        }
        assert!(checkpoint.exists(), "a refused checkpoint is kept");
    }
}
