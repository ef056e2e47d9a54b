//! Truncated, corrupted, wrong-version, wrong-rule-set and foreign table
//! files give typed errors, never a panic and never an answer.

use crate::fixture;
use jungletb::indexer::Material;
use jungletb::rules::{Position, Ruleset};
use jungletb::tablebase::{table_dir, Table, TableError, Tablebase};
use std::path::{Path, PathBuf};

fn copy_table(name: &str) -> (tempfile::TempDir, PathBuf, Vec<u8>) {
    let src = table_dir(fixture::standard(), &Ruleset::standard()).join(format!("{name}.jtb"));
    let bytes = std::fs::read(&src).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let dst = dir.path().join(format!("{name}.jtb"));
    std::fs::write(&dst, &bytes).unwrap();
    (dir, dst, bytes)
}

fn open(path: &Path, name: &str) -> Result<Table, TableError> {
    Table::open(
        path,
        &Ruleset::standard(),
        name.parse::<Material>().unwrap(),
    )
}

#[test]
fn a_good_copy_opens() {
    let (_d, path, _) = copy_table("ELvR");
    assert!(open(&path, "ELvR").is_ok());
}

#[test]
fn truncated_and_padded_files_are_rejected() {
    let (_d, path, bytes) = copy_table("ELvR");
    for len in [0, 7, 8, 100, 200, bytes.len() / 2, bytes.len() - 1] {
        std::fs::write(&path, &bytes[..len]).unwrap();
        let err = open(&path, "ELvR").unwrap_err();
        assert!(
            matches!(err, TableError::Truncated { .. } | TableError::NotATable(_)),
            "length {len}: {err}"
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    std::fs::write(&path, &longer).unwrap();
    assert!(matches!(
        open(&path, "ELvR").unwrap_err(),
        TableError::Truncated { .. }
    ));
}

#[test]
fn every_flipped_byte_is_detected() {
    let (_d, path, bytes) = copy_table("EvR");
    // Every header byte and a spread of payload bytes.
    let positions: Vec<usize> = (0..256.min(bytes.len()))
        .chain((256..bytes.len()).step_by(37))
        .collect();
    for &i in &positions {
        let mut bad = bytes.clone();
        bad[i] ^= 0x5A;
        std::fs::write(&path, &bad).unwrap();
        assert!(
            open(&path, "EvR").is_err(),
            "flipping byte {i} went unnoticed"
        );
    }
}

#[test]
fn wrong_version_is_named() {
    let (_d, path, mut bytes) = copy_table("EvR");
    bytes[8] = 99; // format version
    std::fs::write(&path, &bytes).unwrap();
    let err = open(&path, "EvR").unwrap_err();
    assert!(
        matches!(err, TableError::UnsupportedVersion { .. }),
        "{err}"
    );
    assert!(err.to_string().contains("format version 99"));
}

#[test]
fn wrong_rule_set_names_both() {
    let (_d, path, _) = copy_table("EvR");
    let err = Table::open(&path, &Ruleset::leiden(), "EvR".parse().unwrap()).unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, TableError::WrongRuleset { .. }));
    assert!(
        text.contains("standard") && text.contains("leiden"),
        "{text}"
    );
}

#[test]
fn a_table_under_the_wrong_name_is_rejected() {
    let (_d, path, _) = copy_table("EvR");
    let err = open(&path, "LvR").unwrap_err();
    assert!(matches!(err, TableError::WrongMaterial { .. }), "{err}");
}

#[test]
fn foreign_and_missing_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("EvR.jtb");
    std::fs::write(&path, b"this is not a table file at all, just some text\n").unwrap();
    assert!(matches!(
        open(&path, "EvR").unwrap_err(),
        TableError::NotATable(_)
    ));
    let missing = dir.path().join("LvR.jtb");
    assert!(matches!(
        open(&missing, "LvR").unwrap_err(),
        TableError::Missing(_)
    ));
}

#[test]
fn probing_through_a_corrupt_table_is_an_error() {
    let (d, path, mut bytes) = copy_table("EvR");
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let tb = Tablebase::with_dir(d.path().to_path_buf(), Ruleset::standard());
    let pos: Position = "7/7/7/7/7/7/7/7/E5r w".parse().unwrap();
    let err = tb.probe(&pos).unwrap_err();
    assert!(err.to_string().contains("checksum"), "{err}");
}

#[test]
fn random_corruptions_never_open_and_never_panic() {
    let (_d, path, bytes) = copy_table("ERvR");
    let mut next = fixture::xorshift(0xC0FF_EE00_1234_5678u64);
    for round in 0..500 {
        let mut bad = bytes.clone();
        // 1-4 random byte changes, sometimes a truncation or an extension.
        for _ in 0..1 + next() % 4 {
            let i = next() as usize % bad.len();
            bad[i] = bad[i].wrapping_add(1 + (next() % 255) as u8);
        }
        match next() % 5 {
            0 => bad.truncate(next() as usize % bad.len()),
            1 => bad.extend(std::iter::repeat_n(0u8, 1 + next() as usize % 100)),
            _ => {}
        }
        std::fs::write(&path, &bad).unwrap();
        let opened = std::panic::catch_unwind(|| open(&path, "ERvR").is_ok());
        assert_eq!(
            opened.ok(),
            Some(false),
            "round {round}: a corrupted file opened or panicked"
        );
    }
}

/// Every single-bit flip and every truncation of a small plain table and of
/// its compressed form: none opens, through `Table::open`, through a
/// `Tablebase` probe or through `verify` (exhaustive, not sampled).
#[test]
fn every_bit_flip_and_truncation_of_a_small_table_is_refused() {
    use jungletb::solver::verify_material;
    use jungletb::tablebase::{write_compressed_table, COMPRESSED_EXTENSION, TABLE_EXTENSION};
    let name = "CvC"; // the smallest table: 1,197 slots
    let (d, plain_path, plain) = copy_table(name);
    let table = open(&plain_path, name).unwrap();
    write_compressed_table(d.path(), &table, 3, None).unwrap();
    drop(table);
    let packed_path = d.path().join(format!("{name}.{COMPRESSED_EXTENSION}"));
    let packed = std::fs::read(&packed_path).unwrap();
    let pos: Position = "7/7/7/7/7/7/7/7/C5c w".parse().unwrap();
    let material: jungletb::indexer::Material = name.parse().unwrap();
    for (path, bytes, ext) in [
        (&plain_path, &plain, TABLE_EXTENSION),
        (&packed_path, &packed, COMPRESSED_EXTENSION),
    ] {
        // The probe library prefers the plain table, so each form is
        // probed alone.
        let other = if ext == TABLE_EXTENSION {
            &packed_path
        } else {
            &plain_path
        };
        let aside = other.with_extension("aside");
        std::fs::rename(other, &aside).unwrap();
        let mut cases = 0;
        let mut check = |bad: &[u8], what: &str| {
            std::fs::write(path, bad).unwrap();
            assert!(
                Table::open_any(path).is_err(),
                "{ext}: {what} went unnoticed"
            );
            let tb = Tablebase::with_dir(d.path().to_path_buf(), Ruleset::standard());
            assert!(tb.probe(&pos).is_err(), "{ext}: {what} answered a probe");
            assert!(
                verify_material(&tb, material).is_err(),
                "{ext}: {what} passed verify"
            );
            cases += 1;
        };
        for i in 0..bytes.len() * 8 {
            let mut bad = bytes.clone();
            bad[i / 8] ^= 1 << (i % 8);
            check(&bad, &format!("flipping bit {i}"));
        }
        for len in 0..bytes.len() {
            check(&bytes[..len], &format!("truncation to {len} bytes"));
        }
        assert_eq!(cases, bytes.len() * 9);
        // The intact file opens and answers: the failures above were the
        // damage, not the set-up.
        std::fs::write(path, bytes).unwrap();
        assert!(
            Table::open_any(path).is_ok(),
            "{ext}: the intact file opens"
        );
        let tb = Tablebase::with_dir(d.path().to_path_buf(), Ruleset::standard());
        assert!(tb.probe(&pos).is_ok(), "{ext}: the intact file answers");
        let report = verify_material(&tb, material).expect("the intact file verifies");
        assert_eq!(report.mismatches, 0);
        std::fs::rename(&aside, other).unwrap();
    }
}
