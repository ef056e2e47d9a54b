//! What the table fuzz targets share: small real tables generated once per
//! process, and a way to damage one with the fuzzer's bytes while keeping
//! its checksums right, so that the readers and decoders (not only the
//! checksum checks) see the damage.

use jungletb_format::compressed::reseal_checks;
use jungletb_tablebase::{
    table_dir, table_files, write_compressed_table, Header, Table, Tablebase,
};
use jungletb_indexer::Material;
use jungletb_rules::Ruleset;
use jungletb_solver::{generate, GenerateOptions};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The materials the table targets damage.
pub const MATERIALS: [&str; 2] = ["EvR", "ELvR"];

/// A directory with the standard tables of [`MATERIALS`] (and what they
/// need), plain and compressed copies, generated on first use.
pub fn fixture() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let rules = Ruleset::standard();
        generate(&GenerateOptions {
            root: dir.path().to_path_buf(),
            rules: rules.clone(),
            max_pieces: 3,
            materials: MATERIALS.iter().map(|m| m.parse().unwrap()).collect(),
            mem: None,
            check_space: true,
        })
        .expect("fixture tables");
        let src = table_dir(dir.path(), &rules);
        let packed = dir.path().join("compressed");
        // Every table, with don't-cares (as `jungletb compress` writes
        // them): the probes of a damaged one search captures in the others.
        let plain = Tablebase::with_dir(src.clone(), rules.clone());
        for path in table_files(&src).unwrap() {
            let t = Table::open_any(&path).unwrap();
            write_compressed_table(&packed, &t, 3, Some(&plain)).unwrap();
        }
        dir
    })
    .path()
}

/// The path of a fixture table: plain (`.jtb`) or compressed (`.jtbz`).
pub fn table_file(material: &str, compressed: bool) -> PathBuf {
    let root = fixture();
    if compressed {
        root.join("compressed").join(format!("{material}.jtbz"))
    } else {
        table_dir(root, &Ruleset::standard()).join(format!("{material}.jtb"))
    }
}

/// Applies the fuzzer's `edits` to `bytes`: the first byte picks a
/// truncation (0: none), then each 3 bytes `(offset lo, offset hi, xor)`
/// flip bits at `offset` (scaled over the file). Afterwards the checks of a
/// compressed payload (its prefix and blocks) are rewritten to match, and,
/// if the header still parses, the payload length and both file checksums.
pub fn damage(mut bytes: Vec<u8>, edits: &[u8], path: &Path) -> Vec<u8> {
    let Some((&cut, rest)) = edits.split_first() else {
        return bytes;
    };
    // Where the payload starts and how many slots the table has, from the
    // intact file (the damaged header may say anything).
    let intact = Header::parse(&bytes, bytes.len() as u64, path)
        .map(|h| (h.header_len as usize, h.index_size))
        .ok();
    for e in rest.chunks_exact(3) {
        let at = (usize::from(e[0]) | usize::from(e[1]) << 8) * bytes.len() / 65536;
        bytes[at] ^= e[2];
    }
    if cut != 0 {
        let keep = bytes.len() * usize::from(cut) / 256;
        bytes.truncate(keep.max(1));
    }
    if let Some((at, size)) = intact.filter(|&(at, _)| at < bytes.len()) {
        // Not a compressed payload of this version: nothing done.
        reseal_checks(&mut bytes[at..], at as u64, size);
    }
    if let Ok(mut header) = Header::parse(&bytes, bytes.len() as u64, path) {
        let start = header.header_len as usize;
        if start <= bytes.len() {
            header.payload_len = (bytes.len() - start) as u64;
            header.payload_crc = crc32fast::hash(&bytes[start..]);
            let h = header.to_bytes();
            if h.len() <= bytes.len() {
                bytes[..h.len()].copy_from_slice(&h);
            }
        }
    }
    bytes
}

/// Writes damaged `bytes` as `material`'s table in a fresh directory, opens
/// it and reads every slot and probes positions through a [`Tablebase`]:
/// errors are fine, panics are the bugs the fuzzer looks for.
pub fn open_and_read(material: &str, compressed: bool, bytes: &[u8]) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let rules = Ruleset::standard();
    let sub = table_dir(dir.path(), &rules);
    std::fs::create_dir_all(&sub).unwrap();
    let ext = if compressed { "jtbz" } else { "jtb" };
    let path = sub.join(format!("{material}.{ext}"));
    if compressed {
        // The intact tables the damaged one's captures lead into.
        for other in table_files(&fixture().join("compressed")).unwrap() {
            let name = other.file_name().unwrap();
            if name != path.file_name().unwrap() {
                std::fs::copy(&other, sub.join(name)).unwrap();
            }
        }
    }
    std::fs::write(&path, bytes).unwrap();
    let m: Material = material.parse().unwrap();
    if let Ok(t) = Table::open(&path, &rules, m) {
        let n = t.index().size();
        let _ = t.stored_values(0..n);
        for i in (0..n).step_by(7) {
            let _ = t.wdl_at(i);
            let _ = t.value_at(i);
        }
    }
    let tb = Tablebase::open(dir.path(), rules).unwrap();
    if let Ok(t) = tb.table(m) {
        let _ = tb.values(m, 0..t.index().size());
        for i in (0..t.index().size()).step_by(97) {
            if let Some(pos) = t.index().canonical_position(i) {
                let _ = tb.probe(&pos);
                let _ = tb.probe_wdl(&pos);
            }
        }
    }
}
