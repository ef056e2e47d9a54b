//! Measures ways to store the distance stream, on plain tables: bits per
//! position and decode time. `cargo run --release -p jungletb-studies --bin dtm_study --
//! TABLES_DIR [MODE] MATERIAL…`, where MODE is one of
//!
//! - (none): block sizes, zstd levels, the difference from the previous
//!   slot, and "split" blocks (the distances of the block's wins, then of
//!   its losses, no entry for draws: the WDL stream says which slot is
//!   which);
//! - `--flush`: zstd frames cut into internal blocks by flushes, decoded
//!   only up to a random slot;
//! - `--repair`: Re-Pair and Huffman over runs of distances, as the WDL
//!   code does (entropy of the final sequence plus 7 bytes a symbol);
//! - `--rows R,R…`: differences from the slot `R` before.
use jungletb_format::encoding::decode;
use jungletb_indexer::Material;
use jungletb_rules::{Ruleset, Value};
use jungletb_tablebase::Tablebase;
use rustc_hash::FxHashMap;
use std::time::Instant;
use zstd::zstd_safe::{CCtx, CParameter, DCtx, InBuffer, OutBuffer, ResetDirective};

/// One table's halved distances (draws and unused slots repeat the
/// previous one, as the writer does) and WDL classes (0 draw or unused, 1
/// win, 2 loss), and its count of positions.
struct Stream {
    d: Vec<u8>,
    class: Vec<u8>,
    positions: u64,
}

fn load(tb: &Tablebase, m: &str) -> Stream {
    let m: Material = m.parse().expect("a material");
    let raw = tb
        .table(m)
        .expect("table present")
        .raw_values()
        .expect("readable");
    let (mut d, mut class, mut positions, mut last) = (Vec::new(), Vec::new(), 0, 0u8);
    for &r in raw.iter() {
        let (v, c) = match decode(r) {
            None => (last, 0),
            Some(Value::Draw) => (last, 0),
            Some(Value::Win(n)) => ((n / 2).min(255) as u8, 1),
            Some(Value::Loss(n)) => ((n / 2).min(255) as u8, 2),
        };
        positions += decode(r).is_some() as u64;
        last = v;
        d.push(v);
        class.push(c);
    }
    Stream {
        d,
        class,
        positions,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let tb = Tablebase::open(&args[1], Ruleset::standard()).expect("tables");
    let (mode, materials) = match args.get(2).map(String::as_str) {
        Some("--flush") | Some("--repair") => (args[2].as_str(), &args[3..]),
        Some("--rows") => (args[2].as_str(), &args[4..]),
        _ => ("blocks", &args[2..]),
    };
    let streams = materials.iter().map(|m| load(&tb, m));
    match mode {
        "--flush" => flush_study(streams),
        "--repair" => repair_study(streams),
        "--rows" => {
            let rs: Vec<usize> = args[3].split(',').map(|x| x.parse().expect("R")).collect();
            rows_study(streams, &rs)
        }
        _ => blocks_study(streams),
    }
}

/// Block sizes, levels, differences and split blocks.
fn blocks_study(streams: impl Iterator<Item = Stream>) {
    // (slots, level, difference from the previous slot, split)
    let variants: [(usize, i32, bool, bool); 9] = [
        (8192, 12, false, false),
        (8192, 19, false, false),
        (8192, 12, true, false),
        (4096, 12, true, false),
        (12288, 12, false, false),
        (12288, 19, false, false),
        (8192, 12, false, true),
        (8192, 19, false, true),
        (12288, 12, false, true),
    ];
    let mut bytes = vec![0u64; variants.len()];
    let mut decode_ns = vec![0f64; variants.len()];
    let mut blocks = vec![0u64; variants.len()];
    let mut positions = 0u64;
    let mut decompressor = zstd::bulk::Decompressor::new().expect("a context");
    for s in streams {
        positions += s.positions;
        for (k, &(slots, level, delta, split)) in variants.iter().enumerate() {
            for (block, class) in s.d.chunks(slots).zip(s.class.chunks(slots)) {
                let data: Vec<u8> = if split {
                    let of = |c: u8| block.iter().zip(class).filter(move |p| *p.1 == c);
                    of(1).chain(of(2)).map(|p| *p.0).collect()
                } else if delta {
                    let mut prev = 0u8;
                    block
                        .iter()
                        .map(|&x| (x.wrapping_sub(prev), prev = x).0)
                        .collect()
                } else {
                    block.to_vec()
                };
                let c = zstd::bulk::compress(&data, level).expect("compresses");
                bytes[k] += c.len().min(data.len()) as u64 + 12;
                let t0 = Instant::now();
                let out = decompressor
                    .decompress(&c, data.len())
                    .expect("decompresses");
                std::hint::black_box(out);
                decode_ns[k] += t0.elapsed().as_nanos() as f64;
                blocks[k] += 1;
            }
        }
    }
    for (k, v) in variants.iter().enumerate() {
        println!(
            "{:6} slots, level {:2}{}{}: {:.3} bits/position, {:.1} µs per block decode",
            v.0,
            v.1,
            if v.2 { ", differences" } else { "" },
            if v.3 { ", split" } else { "" },
            8.0 * bytes[k] as f64 / positions as f64,
            decode_ns[k] / blocks[k] as f64 / 1000.0
        );
    }
}

/// `data` compressed as one zstd frame, flushed every `flush` bytes.
fn compress_flushed(data: &[u8], level: i32, flush: usize) -> Vec<u8> {
    let mut c = CCtx::create();
    c.set_parameter(CParameter::CompressionLevel(level))
        .expect("level");
    c.set_pledged_src_size(Some(data.len() as u64))
        .expect("size");
    let mut out = vec![0u8; zstd::zstd_safe::compress_bound(data.len()) + 64];
    let mut ob = OutBuffer::around(&mut out[..]);
    for (i, part) in data.chunks(flush).enumerate() {
        let last = (i + 1) * flush >= data.len();
        let mut ib = InBuffer::around(part);
        while ib.pos() < part.len() {
            c.compress_stream(&mut ob, &mut ib).expect("compresses");
        }
        loop {
            let left = if last {
                c.end_stream(&mut ob)
            } else {
                c.flush_stream(&mut ob)
            };
            if left.expect("flushes") == 0 {
                break;
            }
        }
    }
    let n = ob.pos();
    out.truncate(n);
    out
}

/// Flushed frames decoded up to a random slot.
fn flush_study(streams: impl Iterator<Item = Stream>) {
    // (frame slots, flush every, level)
    let variants: [(usize, usize, i32); 6] = [
        (8192, 8192, 12),
        (16384, 16384, 12),
        (16384, 4096, 12),
        (16384, 2048, 12),
        (32768, 4096, 12),
        (32768, 4096, 19),
    ];
    let mut bytes = vec![0u64; variants.len()];
    let mut decode_ns = vec![0f64; variants.len()];
    let mut probes = vec![0u64; variants.len()];
    let mut positions = 0u64;
    let mut dctx = DCtx::create();
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let mut out = vec![0u8; 1 << 16];
    for s in streams {
        positions += s.positions;
        for (k, &(slots, flush, level)) in variants.iter().enumerate() {
            for block in s.d.chunks(slots) {
                let c = compress_flushed(block, level, flush);
                bytes[k] += c.len().min(block.len()) as u64 + 12;
                for _ in 0..4 {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    let target = (rng % block.len() as u64) as usize;
                    let t0 = Instant::now();
                    dctx.reset(ResetDirective::SessionOnly).expect("reset");
                    let mut ob = OutBuffer::around(&mut out[..target + 1]);
                    let mut ib = InBuffer::around(&c[..]);
                    while ob.pos() <= target {
                        dctx.decompress_stream(&mut ob, &mut ib).expect("decodes");
                    }
                    decode_ns[k] += t0.elapsed().as_nanos() as f64;
                    assert_eq!(out[target], block[target]);
                    probes[k] += 1;
                }
            }
        }
    }
    for (k, v) in variants.iter().enumerate() {
        println!(
            "{:6} slots, flushed every {:6} bytes, level {:2}: {:.3} bits/position, {:.2} µs per probe",
            v.0,
            v.1,
            v.2,
            8.0 * bytes[k] as f64 / positions as f64,
            decode_ns[k] / probes[k] as f64 / 1000.0,
        );
    }
}

/// Re-Pair over runs of distances (dictionaries up to 4,096 and 16,384
/// symbols), costed as the entropy of the final sequence plus 7 bytes a
/// symbol.
fn repair_study(streams: impl Iterator<Item = Stream>) {
    let caps = [4096usize, 16384];
    let mut bits = [0f64; 2];
    let mut positions = 0u64;
    for s in streams {
        positions += s.positions;
        // Runs as base symbols.
        let mut ids: FxHashMap<(u8, u32), u32> = FxHashMap::default();
        let mut seq = Vec::new();
        let mut i = 0;
        while i < s.d.len() {
            let j = i + s.d[i..].iter().take_while(|&&x| x == s.d[i]).count();
            let next = ids.len() as u32;
            seq.push(*ids.entry((s.d[i], (j - i) as u32)).or_insert(next));
            i = j;
        }
        let mut symbols = ids.len();
        for (k, &cap) in caps.iter().enumerate() {
            while symbols < cap {
                let mut counts: FxHashMap<(u32, u32), u32> = FxHashMap::default();
                for w in seq.windows(2) {
                    *counts.entry((w[0], w[1])).or_insert(0) += 1;
                }
                let mut top: Vec<(u32, (u32, u32))> = counts
                    .into_iter()
                    .filter(|&(_, c)| c >= 16)
                    .map(|(p, c)| (c, p))
                    .collect();
                if top.is_empty() {
                    break;
                }
                top.sort_unstable_by(|x, y| y.cmp(x));
                top.truncate((symbols / 16).clamp(16, 1024).min(cap - symbols));
                let new_id: FxHashMap<(u32, u32), u32> = top
                    .iter()
                    .enumerate()
                    .map(|(n, &(_, p))| (p, (symbols + n) as u32))
                    .collect();
                symbols += top.len();
                let (mut r, mut w) = (0, 0);
                while r < seq.len() {
                    let pair = seq.get(r + 1).and_then(|&b| new_id.get(&(seq[r], b)));
                    seq[w] = pair.copied().unwrap_or(seq[r]);
                    r += if pair.is_some() { 2 } else { 1 };
                    w += 1;
                }
                seq.truncate(w);
            }
            let mut freq = vec![0u64; symbols];
            for &x in &seq {
                freq[x as usize] += 1;
            }
            let n = seq.len() as f64;
            let entropy: f64 = freq
                .iter()
                .filter(|&&f| f > 0)
                .map(|&f| -(f as f64) * (f as f64 / n).log2())
                .sum();
            bits[k] += entropy + 56.0 * symbols as f64;
        }
    }
    for (k, cap) in caps.iter().enumerate() {
        println!(
            "Re-Pair, up to {cap} symbols: {:.3} bits/position",
            bits[k] / positions as f64
        );
    }
}

/// Differences from the slot `r` before (the first `r` of each 8,192-slot
/// block stored as they are), zstd level 12.
fn rows_study(streams: impl Iterator<Item = Stream>, rs: &[usize]) {
    let mut bytes = vec![0u64; rs.len()];
    let mut positions = 0u64;
    for s in streams {
        positions += s.positions;
        for (k, &r) in rs.iter().enumerate() {
            for block in s.d.chunks(8192) {
                let data: Vec<u8> = (0..block.len())
                    .map(|i| {
                        if i < r {
                            block[i]
                        } else {
                            block[i].wrapping_sub(block[i - r])
                        }
                    })
                    .collect();
                let c = zstd::bulk::compress(&data, 12).expect("compresses");
                bytes[k] += c.len().min(data.len()) as u64 + 12;
            }
        }
    }
    for (k, r) in rs.iter().enumerate() {
        println!(
            "differences from {r} slots before: {:.3} bits/position",
            8.0 * bytes[k] as f64 / positions as f64
        );
    }
}
