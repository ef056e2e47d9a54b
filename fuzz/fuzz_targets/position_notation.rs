//! Any text as a position: parsing never panics, and what parses prints
//! back to text that parses to the same position.
#![no_main]
use jungletb_rules::{Position, Ruleset};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(pos) = text.parse::<Position>() {
        let again: Position = pos.to_string().parse().expect("printed positions parse");
        assert_eq!(again, pos);
        let rules = Ruleset::standard();
        if pos.validate(&rules).is_ok() && !pos.is_game_over(&rules) {
            for mv in pos.legal_moves(&rules) {
                let _ = pos.play(&mv);
            }
        }
        let _ = pos.to_diagram(&rules);
    }
});
