//! What the propagation's expansion of one decided position costs, without
//! any working cells: decoding its slot, generating its quiet un-moves and
//! indexing each predecessor, on one thread, for any material (6-piece ones
//! too: nothing is allocated per slot).
//!
//! ```text
//! cargo run --release -p jungletb-studies --bin expand_cost ELTvEL ELTvELT
//! valgrind --tool=callgrind target/release/expand_cost --log2-slots 18 ELTvELT
//! ```
//!
//! For each material it times three stages over the same slots (blocks of
//! consecutive slots spread over the index, as a level's frontier is drained
//! in slot order): decode only, decode + un-moves, decode + un-moves +
//! predecessor indices (the whole expansion but the update itself), and
//! prints nanoseconds a position and a predecessor, and predecessors a
//! position. The stage differences say where a 6-piece slot's extra cost
//! lies; the sum of indices is printed so that no stage is optimised away.

use jungletb_indexer::{Material, Neighbours, PositionIndex};
use jungletb_rules::{MoveTables, RawPosition, Ruleset};
use std::hint::black_box;
use std::time::Instant;

/// Slots a material is sampled at (2^23 unless `--log2-slots K`), in
/// blocks of `BLOCK` consecutive slots.
const SAMPLED: u64 = 1 << 23;
const BLOCK: u64 = 1 << 14;

fn main() {
    let mut names: Vec<String> = std::env::args().skip(1).collect();
    let mut sampled = SAMPLED;
    if names.first().map(String::as_str) == Some("--log2-slots") {
        match names.get(1).and_then(|k| k.parse::<u32>().ok()) {
            Some(k @ 14..=40) => sampled = 1 << k,
            _ => {
                eprintln!("expand_cost: --log2-slots takes a number from 14 to 40");
                std::process::exit(2);
            }
        }
        names.drain(..2);
    }
    if names.is_empty() {
        eprintln!("usage: expand_cost [--log2-slots K] MATERIAL...");
        std::process::exit(2);
    }
    let rules = Ruleset::standard();
    let tables = MoveTables::new(&rules);
    println!("material     slots   decode  +unmoves  +indices  ns/pred  preds/pos");
    for name in &names {
        let material = match name.parse::<Material>() {
            Ok(m) => m.canonical().0,
            Err(e) => {
                eprintln!("expand_cost: {name}: {e}");
                std::process::exit(2);
            }
        };
        let index = match PositionIndex::new(material, &rules) {
            Ok(i) => i,
            Err(e) => {
                eprintln!("expand_cost: {name}: {e}");
                std::process::exit(1);
            }
        };
        let run = match index.piece_count() {
            2 => measure::<2>,
            3 => measure::<3>,
            4 => measure::<4>,
            5 => measure::<5>,
            6 => measure::<6>,
            _ => measure::<{ Neighbours::<16>::PIECES_ANY }>,
        };
        let m = run(&index, &tables, sampled);
        println!(
            "{:<10} {:>8.2e} {:>7.1} {:>9.1} {:>9.1} {:>8.2} {:>10.2}   (sum {:x})",
            material.to_string(),
            index.size() as f64,
            m.ns[0],
            m.ns[1],
            m.ns[2],
            m.ns[2] / m.preds_per_pos,
            m.preds_per_pos,
            m.sum
        );
    }
}

struct Measured {
    /// Nanoseconds a position for each cumulative stage.
    ns: [f64; 3],
    preds_per_pos: f64,
    sum: u64,
}

/// `count` sampled slots: `count / BLOCK` blocks spread evenly.
fn sampled(index: &PositionIndex, count: u64) -> impl Iterator<Item = u64> + '_ {
    let blocks = count / BLOCK;
    let stride = (index.size() / blocks).max(BLOCK);
    (0..blocks)
        .map(move |b| b * stride)
        .filter(move |&s| s < index.size())
        .flat_map(move |s| s..(s + BLOCK).min(index.size()))
}

fn measure<const N: usize>(index: &PositionIndex, tables: &MoveTables, count: u64) -> Measured {
    let decode = |i: u64| -> RawPosition { index.raw_position(i).expect("in range") };
    let mut positions = 0u64;
    let mut sum = 0u64;
    // Stage 1: decode.
    let t = Instant::now();
    for i in sampled(index, count) {
        let pos = black_box(decode(i));
        sum = sum.wrapping_add(pos.occupied());
        positions += 1;
    }
    let decode_ns = t.elapsed().as_nanos() as f64 / positions as f64;
    // Stage 2: + un-moves.
    let mut preds = 0u64;
    let t = Instant::now();
    for i in sampled(index, count) {
        let pos = decode(i);
        tables.for_each_quiet_unmove(&pos, |code, from| {
            sum = sum.wrapping_add((code as u64) << 8 | from as u64);
            preds += 1;
        });
    }
    let unmoves_ns = t.elapsed().as_nanos() as f64 / positions as f64;
    // Stage 3: + neighbours and each predecessor's index.
    let t = Instant::now();
    for i in sampled(index, count) {
        let pos = decode(i);
        let before = pos.side_to_move().opponent();
        let near = index
            .neighbours::<N>(pos.squares(), before)
            .expect("N is the piece count");
        tables.for_each_quiet_unmove(&pos, |code, from| {
            sum = sum.wrapping_add(near.index_after(code, from));
        });
    }
    let indices_ns = t.elapsed().as_nanos() as f64 / positions as f64;
    Measured {
        ns: [decode_ns, unmoves_ns, indices_ns],
        preds_per_pos: preds as f64 / positions as f64,
        sum,
    }
}
