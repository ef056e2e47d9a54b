//! Measures the distance stream on plain tables: bits per position for a
//! few block sizes, zstd levels and transforms. `cargo run --release
//! --example dtm_study -- TABLES_DIR MATERIAL…`
use jungletb_format::encoding::decode;
use jungletb_format::Tablebase;
use jungletb_indexer::Material;
use jungletb_rules::{Ruleset, Value};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rules = Ruleset::standard();
    let tb = Tablebase::open(&args[1], rules.clone()).unwrap();
    let variants: [(&str, usize, i32, bool); 6] = [
        ("8192 L12 plain", 8192, 12, false),
        ("8192 L19 plain", 8192, 19, false),
        ("8192 L12 delta", 8192, 12, true),
        ("8192 L19 delta", 8192, 19, true),
        ("4096 L12 delta", 4096, 12, true),
        ("12288 L12 delta", 12288, 12, true),
    ];
    let mut bytes = vec![0u64; variants.len()];
    let mut decode_ns = vec![0f64; variants.len()];
    let mut blocks = vec![0u64; variants.len()];
    let mut positions = 0u64;
    for m in &args[2..] {
        let m: Material = m.parse().unwrap();
        let t = tb.table(m).unwrap();
        let raw = t.raw_values().unwrap();
        let mut last = 0u8;
        let mut d = Vec::with_capacity(raw.len());
        for &r in raw.iter() {
            let v = match decode(r) {
                None | Some(Value::Draw) => last,
                Some(Value::Win(n)) | Some(Value::Loss(n)) => (n / 2).min(255) as u8,
            };
            if decode(r).is_some() {
                positions += 1;
            }
            last = v;
            d.push(v);
        }
        for (k, &(_, slots, level, delta)) in variants.iter().enumerate() {
            for block in d.chunks(slots) {
                let data: Vec<u8> = if delta {
                    let mut prev = 0u8;
                    block
                        .iter()
                        .map(|&x| {
                            let y = x.wrapping_sub(prev);
                            prev = x;
                            y
                        })
                        .collect()
                } else {
                    block.to_vec()
                };
                let c = zstd::bulk::compress(&data, level).unwrap();
                bytes[k] += c.len().min(data.len()) as u64 + 12;
                let t0 = Instant::now();
                let out = zstd::bulk::decompress(&c, data.len()).unwrap();
                if delta {
                    let mut s = 0u8;
                    let mut acc = 0u64;
                    for &y in &out {
                        s = s.wrapping_add(y);
                        acc += s as u64;
                    }
                    std::hint::black_box(acc);
                }
                decode_ns[k] += t0.elapsed().as_nanos() as f64;
                blocks[k] += 1;
            }
        }
    }
    for (k, v) in variants.iter().enumerate() {
        println!(
            "{:16} {:.3} bits/position, {:.1} µs per block decode",
            v.0,
            8.0 * bytes[k] as f64 / positions as f64,
            decode_ns[k] / blocks[k] as f64 / 1000.0
        );
    }
}
