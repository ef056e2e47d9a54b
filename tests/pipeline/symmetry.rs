//! Mirrored and colour-swapped positions probe identically, and their best
//! moves are the images of each other.
//!
//! A position and its images share one index slot, so comparing their
//! probes alone would compare a slot with itself. Each image's value is
//! therefore also recomputed from its own successors (one ply of search),
//! which live in other slots: a wrong symmetry in the index or the move
//! generator shows up as a disagreement.

use crate::fixture;
use crate::reference_solver::Reference;
use jungletb::indexer::Material;
use jungletb::rules::{Color, Move, Position, Ruleset};
use jungletb::tablebase::Tablebase;

fn mirror_move(m: &Move) -> (String, String) {
    (m.from.mirror().to_string(), m.to.mirror().to_string())
}

#[test]
fn mirror_and_colour_swap_probe_identically() {
    let rules = Ruleset::standard();
    let tb = Tablebase::open(fixture::standard(), rules.clone()).unwrap();
    let mut checked = 0;
    for name in ["ELvR", "LvTR", "RCvR", "EvR", "RvR"] {
        let m: Material = name.parse().unwrap();
        let positions = Reference::positions(m.mask(Color::White), m.mask(Color::Black), &rules);
        for pos in positions.iter().step_by(97) {
            let v = tb.probe(pos).unwrap();
            assert_eq!(tb.probe(&pos.mirror()).unwrap(), v, "mirror of {pos}");
            assert_eq!(
                tb.probe(&pos.color_flip()).unwrap(),
                v,
                "colour swap of {pos}"
            );
            assert_eq!(tb.probe(&pos.color_flip().mirror()).unwrap(), v);
            for image in [pos.mirror(), pos.color_flip(), pos.color_flip().mirror()] {
                let searched = tb.probe_root(&image).unwrap().first().map(|r| r.value);
                let searched = searched.unwrap_or(jungletb::rules::Value::Loss(0));
                assert_eq!(
                    searched, v,
                    "{image} (an image of {pos}) from its successors"
                );
            }
            let best: Vec<(String, String)> = tb
                .best_moves(pos)
                .unwrap()
                .iter()
                .map(mirror_move)
                .collect();
            let mirrored: Vec<(String, String)> = tb
                .best_moves(&pos.mirror())
                .unwrap()
                .iter()
                .map(|m| (m.from.to_string(), m.to.to_string()))
                .collect();
            let (mut a, mut b) = (best, mirrored);
            a.sort();
            b.sort();
            assert_eq!(a, b, "best moves of {pos} and its mirror");
            checked += 1;
        }
    }
    assert!(checked > 5000);
}

#[test]
fn a_non_canonical_material_probes_through_the_colour_swap() {
    let tb = Tablebase::open(fixture::standard(), Ruleset::standard()).unwrap();
    // RvE (Black has the Elephant) is stored as EvR.
    let pos: Position = "7/7/7/7/7/7/7/7/eR5 b".parse().unwrap();
    let flipped = pos.color_flip();
    assert_eq!(flipped.to_string(), "Er5/7/7/7/7/7/7/7/7 w");
    assert_eq!(tb.probe(&pos).unwrap(), tb.probe(&flipped).unwrap());
}
