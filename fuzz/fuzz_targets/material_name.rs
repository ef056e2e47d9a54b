//! Any text as a material name: parsing never panics, and a parsed
//! material prints to a name that parses to the same material.
#![no_main]
use jungletb_indexer::{Material, PositionIndex};
use jungletb_rules::Ruleset;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(m) = text.parse::<Material>() {
        let again: Material = m.to_string().parse().expect("printed names parse");
        assert_eq!(again, m);
        let (canonical, _) = m.canonical();
        if m.piece_count() <= 3 {
            let _ = PositionIndex::new(canonical, &Ruleset::standard());
        }
    }
});
