//! Today's solver writes the tables the solver before the 6-piece work
//! wrote, byte for byte: the 5-piece ELTvEL and its 17 smaller tables (2 to
//! 4 pieces), against the payload checksums recorded from commit d5cb911
//! in `tests/data/table-crcs-d5cb911.txt` (headers are identical by
//! construction: same material, rule set and statistics): the 16-bit
//! solver of those builds and today's one-byte cells agree. The solve then
//! writes the same ELTvEL values on one, two and three threads.

use jungletb::format::header::Header;
use jungletb::indexer::Material;
use jungletb::rules::Ruleset;
use jungletb::solver::{solve_material, RawValues};
use jungletb::tablebase::{table_dir, table_path, Tablebase};
use std::collections::BTreeMap;

#[test]
fn a_five_piece_table_and_its_sub_tables_are_byte_identical_to_the_old_solver_on_any_thread_count()
{
    let recorded: BTreeMap<String, u32> = include_str!("../data/table-crcs-d5cb911.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (m, crc) = l.split_once(' ').unwrap();
            (m.to_string(), u32::from_str_radix(crc.trim(), 16).unwrap())
        })
        .collect();
    let rules = Ruleset::standard();
    let m: Material = "ELTvEL".parse().unwrap();
    let root = crate::fixture::generate_tables(&rules, vec![m]);
    let dir = table_dir(root.path(), &rules);
    let mut compared = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let Some(material) = name.strip_suffix(".jtb") else {
            continue;
        };
        let header = Header::read(&table_path(&dir, material.parse().unwrap())).unwrap();
        let expected = recorded
            .get(material)
            .unwrap_or_else(|| panic!("{material} not recorded"));
        assert_eq!(header.payload_crc, *expected, "{material}");
        compared += 1;
    }
    assert_eq!(compared, 18, "ELTvEL and its 17 smaller tables");

    // The same tables serve the solves on 1-3 threads, so ELTvEL is
    // generated once (and the test binary stays within CI's memory bound:
    // no copies of the values, one solve at a time).
    let tb = Tablebase::with_dir(dir.clone(), rules.clone());
    let work = tempfile::tempdir_in(&dir).unwrap();
    let table = tb.table(m).unwrap();
    for threads in [1, 2, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let (values, _) = pool
            .install(|| solve_material(m, &rules, &tb, work.path(), u64::MAX, &|_| {}))
            .unwrap();
        let RawValues::Bytes(bytes) = values.raw() else {
            panic!("{m}: solved in one-byte cells but not given as bytes");
        };
        assert_eq!(bytes.len() as u64, table.index().size());
        // The table's values in chunks of 2^22 slots, not all at once.
        let differ = bytes.chunks(1 << 22).enumerate().find_map(|(c, chunk)| {
            let from = (c << 22) as u64;
            let written = table
                .raw_values_in(from..from + chunk.len() as u64)
                .unwrap();
            let at = (0..chunk.len()).find(|&i| written[i] != u16::from(chunk[i]));
            at.map(|i| from + i as u64)
        });
        assert_eq!(
            differ, None,
            "{m} on {threads} thread(s) differs at the slot"
        );
    }
}
