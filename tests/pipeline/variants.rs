//! Every rule option (alone and in combinations) solved by the generator
//! agrees with the reference solver on every 2-piece material and on
//! 3-piece materials.

use crate::reference_solver::Reference;
use jungletb::indexer::Material;
use jungletb::rules::{Animal, Color, Ruleset};
use jungletb::tablebase::Tablebase;

/// Each option on its own, then three combinations.
pub const VARIANTS: [&[&str]; 15] = [
    &["elephant_captures_rat=never"],
    &["water_rat_captures_elephant=true"],
    &["lion_tiger_equal=true"],
    &["tiger_outranks_lion=true"],
    &["wolf_outranks_dog=true"],
    &["jumpers=L:v,T:hv,P:h"],
    &["universal_traps=true"],
    &["trap_entry_max_rank=3"],
    &["dog_swims=true"],
    &["no_move=draw"],
    &["animal_checkers=true"],
    &["land_rat_captures_water_rat=true"],
    &[
        "elephant_captures_rat=never",
        "universal_traps=true",
        "dog_swims=true",
    ],
    &[
        "tiger_outranks_lion=true",
        "wolf_outranks_dog=true",
        "jumpers=L:hv,T:v,P:hv",
    ],
    &[
        "animal_checkers=true",
        "no_move=draw",
        "water_rat_captures_elephant=true",
    ],
];

/// 3-piece materials checked under each variant (those whose animals take
/// part: Animal Checkers keeps only Rat, Dog, Tiger, Elephant).
const THREE: [&str; 4] = ["DvER", "TRvP", "LvTR", "CvED"];

fn variant(overrides: &[&str]) -> Ruleset {
    let mut r = Ruleset::standard();
    for kv in overrides {
        r.apply_override(kv).unwrap();
    }
    r.check_supported().unwrap();
    r
}

#[test]
fn every_option_agrees_with_the_reference_solver() {
    for overrides in VARIANTS {
        let rules = variant(overrides);
        let allowed = |m: &Material| m.pieces().iter().all(|p| rules.animal_allowed(p.animal));
        let three: Vec<Material> = THREE
            .iter()
            .map(|s| s.parse::<Material>().unwrap())
            .filter(|m| allowed(m))
            .collect();
        let mut materials = Material::all(2, |a| rules.animal_allowed(a));
        materials.extend(three.iter().copied());
        let root = crate::fixture::generate_tables(&rules, materials);
        let tb = Tablebase::open(root.path(), rules.clone()).unwrap();
        let mut reference = Reference::default();
        reference.solve_two_piece(&rules);
        let check = |w: u8, b: u8, reference: &Reference| {
            crate::reference::compare(&tb, reference, &rules, w, b);
        };
        let animals: Vec<Animal> = Animal::ALL
            .into_iter()
            .filter(|a| rules.animal_allowed(*a))
            .collect();
        for &w in &animals {
            for &b in &animals {
                check(1 << w.index(), 1 << b.index(), &reference);
            }
        }
        for m in &three {
            let (w, b) = (m.mask(Color::White), m.mask(Color::Black));
            reference.solve(&rules, w, b);
            check(w, b, &reference);
        }
        assert!(!three.is_empty());
    }
}
