//! Compresses one plain table in sections of a given size, as `jungletb
//! compress` does (don't-cares on, zstd level 15), and prints the bytes
//! written and the time: how the section size trades memory (run it under
//! `/usr/bin/time -v`) against size.
//!
//! `cargo run --release -p jungletb-studies --bin compress_sections --
//! RULESET_DIR MATERIAL OUT_DIR SLOTS_PER_SECTION` (0: one payload).
use jungletb_indexer::Material;
use jungletb_rules::Ruleset;
use jungletb_tablebase::{write_compressed_table_in_sections, Table, Tablebase, TablebaseOptions};
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, dir, material, out, per] = &args[..] else {
        eprintln!("usage: compress_sections RULESET_DIR MATERIAL OUT_DIR SLOTS_PER_SECTION");
        std::process::exit(2);
    };
    let dir = PathBuf::from(dir);
    let material: Material = material.parse().expect("a material");
    let plain = Table::open_any(&dir.join(format!("{material}.jtb"))).expect("the plain table");
    let rules = Ruleset::from_canonical_string(&plain.header().ruleset).expect("its rule set");
    let options = TablebaseOptions {
        max_mapped_bytes: 1 << 30,
        ..TablebaseOptions::default()
    };
    let search = Tablebase::with_dir_and_options(dir, rules, options);
    let size = plain.index().size();
    let per = match per.parse::<u64>().expect("a number of slots") {
        0 => size,
        n => n,
    };
    let start = Instant::now();
    let (stats, sizes) =
        write_compressed_table_in_sections(out.as_ref(), &plain, 15, Some(&search), per)
            .expect("compressed");
    println!(
        "{material} {size} slots, sections of {per}: {} bytes (WDL {}, distances {}), {:.1} s",
        stats.bytes,
        sizes.wdl_bytes,
        sizes.dtm_bytes,
        start.elapsed().as_secs_f64()
    );
}
