//! Today's solver writes the tables the solver before the 6-piece work
//! wrote, byte for byte: the 5-piece ELTvEL and its 17 smaller tables (2 to
//! 4 pieces), against the payload checksums recorded from commit d5cb911
//! in `tests/data/table-crcs-d5cb911.txt` (headers are identical by
//! construction: same material, rule set and statistics).

use jungletb::format::header::Header;
use jungletb::indexer::Material;
use jungletb::rules::Ruleset;
use jungletb::tablebase::{table_dir, table_path};
use std::collections::BTreeMap;

#[test]
fn a_five_piece_table_and_its_sub_tables_are_byte_identical_to_the_old_solver() {
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
}
