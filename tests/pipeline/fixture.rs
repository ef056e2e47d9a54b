//! Tables generated once per test run, shared by the tests of this binary.

use jungletb::format::encoding;
use jungletb::indexer::Material;
use jungletb::rules::{Ruleset, Value};
use jungletb::solver::{generate, GenerateOptions};
use std::path::Path;
use std::sync::OnceLock;
use tempfile::TempDir;

/// The 3-piece materials checked against the reference solver: with and
/// without Rats, with jumpers, with the Elephant, written in both colour
/// orders (non-canonical names are probed through the colour swap).
pub const THREE_PIECE: [&str; 15] = [
    "ELvR", "RvER", "TLvP", "LvTR", "PvDC", "WDvE", "WCvR", "EvLR", "DvER", "TRvT", "EPvD", "CvLR",
    "RCvR", "LvLE", "CvED",
];

/// Generates `materials` (and what they depend on) under `rules` into a new
/// temporary tables root.
pub fn generate_tables(rules: &Ruleset, materials: Vec<Material>) -> TempDir {
    let dir = tempfile::tempdir().expect("temporary directory");
    generate(&GenerateOptions {
        root: dir.path().to_path_buf(),
        rules: rules.clone(),
        max_pieces: 8,
        materials,
        mem: None,
        check_space: true,
    })
    .expect("generation succeeds");
    dir
}

fn build(rules: Ruleset) -> TempDir {
    let mut materials: Vec<Material> = Material::all(2, |_| true);
    materials.extend(THREE_PIECE.iter().map(|s| s.parse::<Material>().unwrap()));
    generate_tables(&rules, materials)
}

/// The tables root for `standard` (all 2-piece and the 3-piece list).
pub fn standard() -> &'static Path {
    static DIR: OnceLock<TempDir> = OnceLock::new();
    DIR.get_or_init(|| build(Ruleset::standard())).path()
}

/// The tables root for `leiden` (all 2-piece and the 3-piece list).
pub fn leiden() -> &'static Path {
    static DIR: OnceLock<TempDir> = OnceLock::new();
    DIR.get_or_init(|| build(Ruleset::leiden())).path()
}

/// Copies every file of the directory `from` (one rule set's tables) into
/// `to`, made if missing: a copy for a test to change.
pub fn copy_tables(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
        }
    }
}

/// A deterministic pseudo-random stream (xorshift64) from `seed` (not 0),
/// for the property tests: the same cases every run.
pub fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

/// Makes the first win longer than 5 plies in `raw` (a table's raw values)
/// two plies longer, as a wrong value `verify` must find; returns its slot
/// and its true distance.
pub fn lengthen_a_win(raw: &mut [u16]) -> (usize, u16) {
    let slot = raw
        .iter()
        .position(|&v| matches!(encoding::decode(v), Some(Value::Win(k)) if k > 5))
        .expect("a win longer than 5 plies");
    let Some(Value::Win(k)) = encoding::decode(raw[slot]) else {
        unreachable!()
    };
    raw[slot] = encoding::encode(Value::Win(k + 2)).unwrap();
    (slot, k)
}
