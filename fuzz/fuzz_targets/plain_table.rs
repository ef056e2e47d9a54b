//! A real plain table damaged by the fuzzer's bytes (checksums repaired):
//! opening, reading every slot and probing never panic.
#![no_main]
use jungletb_fuzz::{damage, open_and_read, table_file, MATERIALS};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, edits)) = data.split_first() else {
        return;
    };
    let material = MATERIALS[usize::from(pick) % MATERIALS.len()];
    let path = table_file(material, false);
    let bytes = damage(std::fs::read(&path).unwrap(), edits, &path);
    open_and_read(material, false, &bytes);
});
