//! The floors' codes ([`Layout`]) on small materials: their distances are
//! far from the 251 plies a byte holds, so the tests code floor 0 lower
//! than the tables do, leaving the decided values just enough codes to fit
//! once the floors collapse and too few before, and let the upper half of
//! the floors share one code, as the floors past about 125 plies do.

use super::*;
use crate::generate::{generate, GenerateOptions};
use crate::regions::Propagation;
use crate::solve::{solve_material_with, ByteSolve};
use jungletb_format::encoding;
use jungletb_indexer::Material;
use jungletb_tablebase::{table_dir, Tablebase};
use std::sync::atomic::AtomicBool;

/// Solves `material` in one-byte cells laid out as `layout`, stopping at
/// the level `stop_at` with a checkpoint in `work` and resuming from it.
fn solve_bytes(
    tb: &Tablebase,
    material: Material,
    layout: Layout,
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
    let bytes = ByteSolve {
        index: &index,
        rules: tb.rules(),
        layout,
        work_dir: work,
        mem_budget: u64::MAX,
    };
    let watch = || Watch {
        on_progress: &|_| {},
        on_level: &on_level,
        stop: &stop,
        checkpoint: Some(&checkpoint),
    };
    let subs = || SubTables::open(material, tb).unwrap();
    let solved = match bytes.solve(subs(), watch()) {
        Err(SolveError::Checkpointed { level, .. }) => {
            assert_eq!(Some(level), stop_at);
            stop.store(false, Relaxed);
            let on_level = |_: u16| {};
            bytes.solve(
                subs(),
                Watch {
                    on_level: &on_level,
                    ..watch()
                },
            )
        }
        other => other,
    };
    let _ = std::fs::remove_file(&checkpoint);
    Ok(solved?.0.to_vec())
}

#[test]
fn collapsed_or_shared_floor_codes_give_the_values_of_sixteen_bit_cells() {
    let rules = Ruleset::standard();
    // White to move only (TRvTR); both sides, Rats and the river (ELvTR).
    let materials: Vec<Material> = ["TRvTR", "ELvTR"]
        .iter()
        .map(|m| m.parse().unwrap())
        .collect();
    let root = tempfile::tempdir().unwrap();
    generate(&GenerateOptions {
        root: root.path().to_path_buf(),
        rules: rules.clone(),
        max_pieces: 8,
        materials: materials.clone(),
        mem: None,
        check_space: true,
        propagation: Propagation::Auto,
    })
    .unwrap();
    let tb = Tablebase::with_dir(table_dir(root.path(), &rules), rules.clone());
    let work = tempfile::tempdir().unwrap();
    for m in materials {
        let m = m.canonical().0;
        let (wide, _) = solve_material_with(
            m,
            &rules,
            &tb,
            work.path(),
            u64::MAX,
            Propagation::Direct,
            &|_| {},
        )
        .unwrap();
        let wide = wide.to_vec();
        let longest = wide
            .iter()
            .filter_map(|&raw| encoding::decode(raw)?.plies())
            .max()
            .unwrap();
        let max_floor = SubTables::open(m, &tb).unwrap().longest_win().unwrap() + 1;
        // The fewest codes for floors up to `max_floor` (and wins through
        // captures one ply longer) and for the levels up to `longest + 1`
        // once collapsed...
        let floor_zero = (2 * max_floor + 4).max(longest + 4);
        let layout = Layout::new(max_floor).unwrap();
        assert_eq!(
            layout.exact, max_floor,
            "{m}: every floor has its code in the tables"
        );
        let layout = Layout::within(max_floor, floor_zero as u8, max_floor).unwrap();
        assert_eq!(layout.at_level(u16::MAX).max_plies(), floor_zero - 3);
        // ...which, without the collapse, would not reach them.
        assert!(
            layout.max_plies() <= longest,
            "{m}: the test squeezes nothing"
        );
        let collapse_at = layout.collapse_at;
        assert!(
            collapse_at > 2 && collapse_at < longest,
            "{m}: {collapse_at}"
        );
        // Every floor with its own code, or the upper half sharing one.
        let half = Layout::within(max_floor, floor_zero as u8, max_floor / 2).unwrap();
        assert_eq!((layout.exact, half.exact), (max_floor, max_floor / 2));
        for layout in [layout, half] {
            for stop_at in [None, Some(collapse_at), Some(collapse_at + 1)] {
                let bytes = solve_bytes(&tb, m, layout, work.path(), stop_at).unwrap();
                let differ = (0..wide.len()).find(|&i| wide[i] != bytes[i]);
                assert_eq!(
                    differ, None,
                    "{m} ({} exact floors, stopped at {stop_at:?}): differs at the slot",
                    layout.exact
                );
            }
        }
        // Planted fault: floors that never collapse leave too few codes.
        let never = Layout {
            collapse_at: u16::MAX,
            ..layout
        };
        match solve_bytes(&tb, m, never, work.path(), None) {
            Err(SolveError::DistanceOverflow { limit, .. }) => {
                assert_eq!(limit, layout.max_plies())
            }
            other => panic!(
                "{m}: expected an overflow, got {:?}",
                other.map(|v| v.len())
            ),
        }
    }
}
