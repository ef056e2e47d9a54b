//! Every rule option changes the moves it should, and keeps the board's
//! symmetries (which the indexer relies on).

use jungletb_rules::{perft, Animal, Color, MoveTables, Piece, Position, Ruleset, Square};

fn with(kv: &str) -> Ruleset {
    let mut r = Ruleset::standard();
    r.apply_override(kv).unwrap();
    r.check_supported().unwrap();
    r
}

fn moves(fen: &str, rules: &Ruleset) -> Vec<String> {
    let pos: Position = fen.parse().unwrap();
    pos.validate(rules).unwrap();
    let mut v: Vec<String> = pos
        .legal_moves(rules)
        .iter()
        .map(|m| m.to_string())
        .collect();
    v.sort();
    v
}

/// (option, position, move present only with the option, or only without)
const CASES: [(&str, &str, &str, bool); 12] = [
    (
        "elephant_captures_rat=never",
        "7/7/7/7/7/7/7/7/Er5 w",
        "a1b1",
        false,
    ),
    (
        "water_rat_captures_elephant=true",
        "7/7/7/7/7/eR5/7/7/7 w",
        "b4a4",
        true,
    ),
    (
        "lion_tiger_equal=true",
        "7/7/7/7/7/3l3/3T3/7/7 w",
        "d3d4",
        true,
    ),
    (
        "tiger_outranks_lion=true",
        "7/7/7/7/7/3l3/3T3/7/7 w",
        "d3d4",
        true,
    ),
    (
        "wolf_outranks_dog=true",
        "7/7/7/7/7/3d3/3W3/7/7 w",
        "d3d4",
        true,
    ),
    (
        "jumpers=L:v,T:hv,P:h",
        "6r/7/7/7/7/L6/7/7/7 w",
        "a4d4",
        false,
    ),
    (
        "jumpers=L:v,T:hv,P:h",
        "6r/7/7/7/7/P6/7/7/7 w",
        "a4d4",
        true,
    ),
    (
        "universal_traps=true",
        "6r/3e3/3C3/7/7/7/7/7/7 w",
        "d7d8",
        true,
    ),
    (
        "trap_entry_max_rank=3",
        "6r/7/7/7/7/7/3E3/7/7 w",
        "d3d2",
        false,
    ),
    ("dog_swims=true", "6r/7/7/7/7/7/1D5/7/7 w", "b3b4", true),
    (
        "animal_checkers=true",
        "6r/7/7/7/7/7/1E5/7/7 w",
        "b3b4",
        true,
    ),
    (
        "land_rat_captures_water_rat=true",
        "7/7/7/7/7/Rr5/7/7/7 w",
        "a4b4",
        true,
    ),
];

#[test]
fn each_option_changes_the_legal_moves() {
    let base = Ruleset::standard();
    for (kv, fen, mv, present_with) in CASES {
        let rules = with(kv);
        let (a, b) = (moves(fen, &rules), moves(fen, &base));
        assert_eq!(
            a.contains(&mv.to_string()),
            present_with,
            "{kv}: {fen}: {a:?}"
        );
        assert_eq!(
            b.contains(&mv.to_string()),
            !present_with,
            "standard: {fen}: {b:?}"
        );
        let pos: Position = fen.parse().unwrap();
        assert_ne!(
            perft(&pos, &rules, 3),
            perft(&pos, &base, 3),
            "{kv}: perft 3 from {fen}"
        );
        // The fast tables agree with the plain generator under the option.
        assert_eq!(
            MoveTables::new(&rules).legal_moves(&pos),
            pos.legal_moves(&rules)
        );
    }
}

#[test]
fn a_swimming_dog_fights_like_a_rat() {
    let rules = with("dog_swims=true");
    // White dog in the water (b4) and a black rat on land (a4): water-to-land
    // like a Rat (allowed under standard's water_rat_captures_land_rat).
    assert!(moves("7/7/7/7/7/rD5/7/7/7 w", &rules).contains(&"b4a4".to_string()));
    // A black cat on land cannot be taken from the water.
    assert!(!moves("7/7/7/7/7/cD5/7/7/7 w", &rules).contains(&"b4a4".to_string()));
    // A dog in the river blocks a Lion's jump.
    assert!(!moves("7/7/7/1d5/7/7/1L5/7/7 w", &rules).contains(&"b3b7".to_string()));
}

#[test]
fn animal_checkers_has_four_animals_and_no_traps() {
    let rules = with("animal_checkers=true");
    let cat: Position = "7/7/7/7/7/7/1C5/7/7 w".parse().unwrap();
    assert!(cat.validate(&rules).is_err());
    // d2 is no trap here: a White Dog may not take a Black Tiger there,
    // which it may under the standard rules (the Tiger is trapped).
    assert!(!moves("7/7/7/7/7/7/3D3/3t3/7 w", &rules).contains(&"d3d2".to_string()));
    assert!(moves("7/7/7/7/7/7/3D3/3t3/7 w", &Ruleset::standard()).contains(&"d3d2".to_string()));
}

fn random_position(seed: &mut u64, rules: &Ruleset) -> Position {
    loop {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        let mut s = *seed;
        let side = if s & 1 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mut pos = Position::empty(side);
        for code in 0..16 {
            s = s.rotate_left(7) ^ 0x9E37_79B9_7F4A_7C15;
            if s.is_multiple_of(3) {
                continue;
            }
            let sq = Square::from_index((s >> 8) as usize % 63).unwrap();
            let p = Piece::from_code(code);
            if pos.is_empty(sq) && rules.animal_allowed(p.animal) {
                pos.put(p, sq);
            }
        }
        if pos.validate(rules).is_ok() && pos.count(Color::White) > 0 && pos.count(Color::Black) > 0
        {
            return pos;
        }
    }
}

#[test]
fn every_option_keeps_the_mirror_and_colour_symmetries() {
    let mirror = |m: &jungletb_rules::Move| (m.from.mirror(), m.to.mirror());
    let flip = |m: &jungletb_rules::Move| (m.from.flip(), m.to.flip());
    let mut seed = 0xDEAD_BEEF_1234_5678u64;
    let mut variants: Vec<Ruleset> = CASES.iter().map(|c| with(c.0)).collect();
    variants.push(with("no_move=draw"));
    variants.push(Ruleset::leiden());
    variants.push(Ruleset::popular());
    for rules in &variants {
        for _ in 0..300 {
            let pos = random_position(&mut seed, rules);
            let mut a: Vec<(Square, Square)> = pos.legal_moves(rules).iter().map(mirror).collect();
            let mut b: Vec<(Square, Square)> = pos
                .mirror()
                .legal_moves(rules)
                .iter()
                .map(|m| (m.from, m.to))
                .collect();
            a.sort();
            b.sort();
            assert_eq!(a, b, "{rules}: mirror of {pos}");
            let mut c: Vec<(Square, Square)> = pos.legal_moves(rules).iter().map(flip).collect();
            let mut d: Vec<(Square, Square)> = pos
                .color_flip()
                .legal_moves(rules)
                .iter()
                .map(|m| (m.from, m.to))
                .collect();
            c.sort();
            d.sort();
            assert_eq!(c, d, "{rules}: colour swap of {pos}");
        }
    }
    let _ = Animal::Rat;
}

#[test]
fn per_animal_jumper_options_change_only_the_animals_named() {
    let standard = Ruleset::standard();
    let mut r = Ruleset::standard();
    r.apply_override("jumpers=P:h").unwrap();
    assert_eq!(r.jumpers.lion, standard.jumpers.lion);
    assert_eq!(r.jumpers.tiger, standard.jumpers.tiger);
    assert_ne!(r.jumpers.panther, standard.jumpers.panther);
    // Naming an animal twice, a missing value and a bad value are errors
    // that say what is allowed.
    let err = Ruleset::standard()
        .apply_override("jumpers=L:v,L:h")
        .unwrap_err();
    assert!(err.to_string().contains("allowed"), "{err}");
    let err = Ruleset::standard().apply_override("dog_swims").unwrap_err();
    assert!(err.to_string().contains("needs a value"), "{err}");
    assert!(err.to_string().contains("true"), "{err}");
    let err = Ruleset::standard()
        .apply_override("no_move=maybe")
        .unwrap_err();
    assert!(err.to_string().contains("loss | draw"), "{err}");
    // The canonical string still round-trips (it names all three).
    let back = Ruleset::from_canonical_string(&r.canonical_string()).unwrap();
    assert_eq!(back, r);
}

#[test]
fn the_panther_is_also_the_leopard_wherever_animals_are_named() {
    assert_eq!(Animal::from_name("Leopard"), Some(Animal::Panther));
    assert_eq!(Animal::from_name("panther"), Some(Animal::Panther));
    assert_eq!(Animal::from_name("Elephant"), Some(Animal::Elephant));
    assert_eq!(Animal::from_name("Unicorn"), None);
    let by = |text: &str| {
        let mut r = Ruleset::standard();
        r.apply_override(text).unwrap();
        r
    };
    assert_eq!(by("jumpers=Leopard:h"), by("jumpers=P:h"));
    assert_eq!(by("jumpers=Panther:h,Lion:v"), by("jumpers=P:h,L:v"));
    assert!(Ruleset::standard().apply_override("jumpers=Rat:h").is_err());
}
