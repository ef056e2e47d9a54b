//! The cost of one memory read that depends on the one before, by how much
//! memory the reads spread over: a pointer chase through a random cycle of
//! 64-byte lines. It tells which of a probe's structures can stay in this
//! machine's caches and what a read that misses them costs ("Compressed
//! probe speed" in `docs/lab/2026-12-01-open-problems.md` quotes it).
//!
//! ```text
//! cargo run --release -p jungletb-studies --bin memory_latency [READS]
//! ```

use std::time::Instant;

/// Words per 64-byte line: one line per step of the chase.
const LINE_WORDS: usize = 8;

fn main() {
    let reads: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5_000_000);
    println!("bytes spanned    ns per dependent read");
    for kib in [
        256usize,
        1 << 10,
        4 << 10,
        16 << 10,
        32 << 10,
        128 << 10,
        1 << 20,
    ] {
        let lines = kib * 1024 / 64;
        let chase = random_cycle(lines);
        // Warm up (pages faulted in, caches filled as they will be).
        let mut at = 0usize;
        for _ in 0..lines.min(1_000_000) {
            at = chase[at] as usize;
        }
        let t = Instant::now();
        for _ in 0..reads {
            at = chase[at] as usize;
        }
        let ns = t.elapsed().as_nanos() as f64 / reads as f64;
        std::hint::black_box(at);
        println!("{:>9} KiB     {ns:>6.1}", kib);
    }
}

/// A buffer of `lines` 64-byte lines whose first words link every line
/// once, in a random order, back to the first: `chase[i]` is the index of
/// the word to read after word `i`.
fn random_cycle(lines: usize) -> Vec<u64> {
    let mut order: Vec<usize> = (0..lines).collect();
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    for i in (1..lines).rev() {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        order.swap(i, (seed % (i as u64 + 1)) as usize);
    }
    let mut chase = vec![0u64; lines * LINE_WORDS];
    for k in 0..lines {
        let (from, to) = (order[k], order[(k + 1) % lines]);
        chase[from * LINE_WORDS] = (to * LINE_WORDS) as u64;
    }
    chase
}
