//! Tables beyond 2^32 slots and 4 GiB, without solving one: a sparse file
//! laid out as the 6-piece table of ELTvELT (5,124,069,720 slots, a 5.1 GB
//! payload of which only a few pages are written) must be opened, checked
//! and read at slots above 2^32 and file offsets above 4 GiB, through
//! `Table` and through a `Tablebase` probe of the positions there.

use jungletb::format::encoding::{encode, RAW_UNUSED};
use jungletb::format::header::{Header, SideStats, FORMAT_VERSION};
use jungletb::indexer::{Material, PositionIndex, INDEX_SCHEME_VERSION};
use jungletb::rules::{Ruleset, Value};
use jungletb::tablebase::{table_dir, table_path, Table, Tablebase};
use std::io::{Seek, SeekFrom, Write};

#[test]
fn a_sparse_six_piece_table_reads_beyond_two_to_the_32_slots() {
    let rules = Ruleset::standard();
    let m: Material = "ELTvELT".parse().unwrap();
    let index = PositionIndex::new(m, &rules).unwrap();
    let size = index.size();
    assert!(size > 1 << 32);
    // Planted values at used slots around 2^32, past 4 GiB of file and at
    // the very end.
    let used = |from: u64| (from..size).find(|&i| index.is_canonical_slot(i)).unwrap();
    let last = (0..size)
        .rev()
        .find(|&i| index.is_canonical_slot(i))
        .unwrap();
    let planted: Vec<(u64, Value)> = vec![
        (used((1 << 32) - 3), Value::Win(17)),
        (used(1 << 32), Value::Loss(42)),
        (used((1 << 32) + 4097), Value::Draw),
        (used(size - 100_000), Value::Win(1)),
        (last, Value::Loss(0)),
    ];
    let ruleset = rules.canonical_string();
    let header_len = Header::len_for(&ruleset, &m);
    let mut header = Header {
        format_version: FORMAT_VERSION,
        index_scheme_version: INDEX_SCHEME_VERSION,
        ruleset_id: rules.id(),
        ruleset: ruleset.clone(),
        material: m,
        index_size: size,
        value_width: 1,
        white_to_move_only: index.white_to_move_only(),
        compressed: false,
        header_len,
        payload_len: size,
        payload_crc: 0,
        sides: [SideStats::default(); 2],
    };
    // The payload checksum over the zeros and the planted bytes, streamed.
    let mut crc = crc32fast::Hasher::new();
    let zeros = vec![0u8; 1 << 20];
    let mut at = 0u64;
    for &(slot, v) in &planted {
        while at < slot {
            let n = (slot - at).min(zeros.len() as u64) as usize;
            crc.update(&zeros[..n]);
            at += n as u64;
        }
        crc.update(&[encode(v).unwrap() as u8]);
        at += 1;
    }
    while at < size {
        let n = (size - at).min(zeros.len() as u64) as usize;
        crc.update(&zeros[..n]);
        at += n as u64;
    }
    header.payload_crc = crc.finalize();

    let root = tempfile::tempdir().unwrap();
    let dir = table_dir(root.path(), &rules);
    std::fs::create_dir_all(&dir).unwrap();
    let path = table_path(&dir, m);
    let mut f = std::fs::File::create(&path).unwrap();
    f.write_all(&header.to_bytes()).unwrap();
    f.set_len(header_len as u64 + size).unwrap(); // sparse
    for &(slot, v) in &planted {
        f.seek(SeekFrom::Start(header_len as u64 + slot)).unwrap();
        f.write_all(&[encode(v).unwrap() as u8]).unwrap();
    }
    drop(f);
    assert!(header_len as u64 + planted[1].0 > 4 << 30);

    let table = Table::open(&path, &rules, m).unwrap();
    let tb = Tablebase::open(root.path(), rules.clone()).unwrap();
    for &(slot, v) in &planted {
        assert!(slot > (1 << 32) - 8, "{slot}");
        assert_eq!(table.value_at(slot).unwrap(), v, "slot {slot}");
        let pos = index.canonical_position(slot).unwrap();
        assert_eq!(index.index(&pos), slot);
        assert_eq!(tb.probe(&pos).unwrap(), v, "{pos}");
        assert_eq!(tb.probe(&pos.mirror()).unwrap(), v, "{pos} mirrored");
    }
    // A slot next to the planted ones holds no value: the table says so
    // instead of answering.
    let empty = planted[1].0 + 1;
    assert_eq!(table.raw_values_in(empty..empty + 1).unwrap(), [RAW_UNUSED]);
    assert!(table.value_at(empty).is_err());
}
