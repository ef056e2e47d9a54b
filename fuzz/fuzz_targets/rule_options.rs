//! Any text as rule options (`key=value` lines), a rule-set name or a
//! stored rule-set string: never a panic; a rule set built from options
//! round-trips through its canonical string.
#![no_main]
use jungletb_rules::Ruleset;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = Ruleset::by_name(text);
    let _ = Ruleset::from_canonical_string(text);
    let mut rules = Ruleset::standard();
    for line in text.lines() {
        let _ = rules.apply_override(line);
    }
    let again =
        Ruleset::from_canonical_string(&rules.canonical_string()).expect("canonical strings parse");
    assert_eq!(again.id(), rules.id());
    let _ = rules.check_supported();
    let _ = rules.label();
});
