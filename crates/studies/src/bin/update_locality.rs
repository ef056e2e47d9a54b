//! What a propagation update costs by where it lands: random 16-bit
//! read-modify-writes over a cell array (huge pages asked for, as the
//! solver's), 64 prefetched at a time as the direct propagation does, over
//! the whole array, confined to one region after another, or sorted into
//! per-region buckets first and then applied region by region (the
//! propagation by regions, `crates/solver/src/regions.rs`, whose module
//! docs and `docs/lab/2026-12-01-six-pieces.md` quote it).
//!
//! ```text
//! cargo run --release -p jungletb-studies --bin update_locality [GB] [UPDATES]
//! ```
//!
//! One thread. The random generator's division (a slot anywhere in the
//! array) is part of every figure but the region ones.

use std::sync::atomic::{AtomicU16, Ordering::Relaxed};
use std::time::Instant;

/// Updates prefetched before they are applied, as the direct path's batch.
const BATCH: usize = 64;

fn main() {
    let mut args = std::env::args().skip(1);
    let gb: f64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(10.0);
    let updates: usize = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(200_000_000);
    let n = (gb * 1e9 / 2.0) as usize;
    let map = memmap2::MmapMut::map_anon(n * 2).expect("memory");
    let _ = map.advise(memmap2::Advice::HugePage);
    // SAFETY: the map is page-aligned and n * 2 bytes long; every access
    // goes through these atomics.
    let cells = unsafe { std::slice::from_raw_parts(map.as_ptr() as *const AtomicU16, n) };
    for (i, c) in cells.iter().enumerate() {
        c.store(i as u16 | 0x8000, Relaxed);
    }
    println!("{gb} GB of cells, {updates} updates, ns per update:");
    let anywhere = |locked: bool| {
        let mut next = xorshift();
        let t = Instant::now();
        let mut slots = [0usize; BATCH];
        for _ in 0..updates / BATCH {
            for s in &mut slots {
                *s = (next() % n as u64) as usize;
                prefetch(&cells[*s]);
            }
            for &s in &slots {
                update(&cells[s], locked);
            }
        }
        per_update(t, updates)
    };
    println!("  anywhere, plain stores      {:>6.2}", anywhere(false));
    println!("  anywhere, compare-and-swap  {:>6.2}", anywhere(true));
    for bits in [24, 22, 20] {
        let region = 1usize << bits;
        let regions = n / region;
        let per_region = updates / regions / BATCH * BATCH;
        let mut next = xorshift();
        let t = Instant::now();
        let mut slots = [0usize; BATCH];
        for r in 0..regions {
            for _ in 0..per_region / BATCH {
                for s in &mut slots {
                    *s = r * region + (next() as usize & (region - 1));
                    prefetch(&cells[*s]);
                }
                for &s in &slots {
                    update(&cells[s], false);
                }
            }
        }
        let ns = per_update(t, per_region * regions);
        println!("  inside regions of 2^{bits} slots {ns:>6.2}");
    }
    for (bits, round) in [
        (24, 1usize << 26),
        (22, 1 << 26),
        (20, 1 << 26),
        (22, 1 << 24),
    ] {
        let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); n.div_ceil(1 << bits)];
        let mut next = xorshift();
        let (mut scatter, mut apply) = (0.0, 0.0);
        let mut done = 0;
        while done < updates {
            let t = Instant::now();
            for _ in 0..round {
                let s = (next() % n as u64) as usize;
                buckets[s >> bits].push((s & ((1 << bits) - 1)) as u32);
            }
            scatter += t.elapsed().as_secs_f64();
            let t = Instant::now();
            for (r, bucket) in buckets.iter_mut().enumerate() {
                apply_bucket(cells, r << bits, bucket);
                bucket.clear();
            }
            apply += t.elapsed().as_secs_f64();
            done += round;
        }
        let ns = |s: f64| s * 1e9 / done as f64;
        println!(
            "  bucketed by 2^{bits}, rounds of {round}: {:>6.2} (scatter {:.2}, apply {:.2})",
            ns(scatter + apply),
            ns(scatter),
            ns(apply)
        );
    }
    for bits in [22, 24] {
        for stream in [false, true] {
            let (sc, ap) = staged(cells, bits, 1 << 26, updates, stream);
            println!(
                "  staged lines by 2^{bits}, {}: {:>6.2} (scatter {sc:.2}, apply {ap:.2})",
                if stream { "streamed" } else { "copied  " },
                sc + ap
            );
        }
    }
}

/// Applies a region's bucket: each entry the offset of a cell from
/// `base`, prefetched 16 entries ahead.
fn apply_bucket(cells: &[AtomicU16], base: usize, entries: &[u32]) {
    for (k, &offset) in entries.iter().enumerate() {
        if let Some(&ahead) = entries.get(k + 16) {
            prefetch(&cells[base + ahead as usize]);
        }
        update(&cells[base + offset as usize], false);
    }
}

/// A cache line of bucket entries.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Line([u32; 16]);

/// The bucketed scatter with software write-combining: each region's
/// entries gather in one staging line, copied whole to the region's bucket
/// when full (`stream`: by non-temporal stores, which skip reading the
/// destination line first). Returns the scatter's and the apply's ns.
fn staged(
    cells: &[AtomicU16],
    bits: u32,
    round: usize,
    updates: usize,
    stream: bool,
) -> (f64, f64) {
    let n = cells.len();
    let regions = n.div_ceil(1 << bits);
    let mut stage = vec![Line([0; 16]); regions];
    let mut fill = vec![0u8; regions];
    let mut buckets: Vec<Vec<Line>> = vec![Vec::new(); regions];
    let mut next = xorshift();
    let (mut scatter, mut apply) = (0.0, 0.0);
    let mut done = 0;
    while done < updates {
        let t = Instant::now();
        for _ in 0..round {
            let s = (next() % n as u64) as usize;
            let r = s >> bits;
            let f = fill[r] as usize;
            stage[r].0[f] = (s & ((1 << bits) - 1)) as u32;
            if f == 15 {
                let b = &mut buckets[r];
                if stream {
                    b.reserve(1);
                    let dst = b.spare_capacity_mut()[0].as_mut_ptr();
                    stream_line(dst, &stage[r]);
                    // SAFETY: the line was just written whole.
                    unsafe { b.set_len(b.len() + 1) };
                } else {
                    b.push(stage[r]);
                }
                fill[r] = 0;
            } else {
                fill[r] = f as u8 + 1;
            }
        }
        scatter += t.elapsed().as_secs_f64();
        let t = Instant::now();
        for (r, bucket) in buckets.iter_mut().enumerate() {
            // In place, as the solver applies a block: its lines as one run
            // of entries, then the staged ones.
            // SAFETY: `Line` is `repr(C)`, 16 `u32` and no padding, so the
            // bucket's lines are `16 len` aligned entries, borrowed as long
            // as the bucket.
            let lines = unsafe {
                std::slice::from_raw_parts(bucket.as_ptr().cast::<u32>(), bucket.len() * 16)
            };
            apply_bucket(cells, r << bits, lines);
            apply_bucket(cells, r << bits, &stage[r].0[..fill[r] as usize]);
            bucket.clear();
            fill[r] = 0;
        }
        apply += t.elapsed().as_secs_f64();
        done += round;
    }
    (scatter * 1e9 / done as f64, apply * 1e9 / done as f64)
}

/// Copies `line` to `dst` by non-temporal stores.
#[inline(always)]
fn stream_line(dst: *mut Line, line: &Line) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `dst` is a 64-byte aligned, writable line.
    unsafe {
        use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_stream_si128};
        let src = line.0.as_ptr() as *const __m128i;
        let dst = dst as *mut __m128i;
        for k in 0..4 {
            _mm_stream_si128(dst.add(k), _mm_loadu_si128(src.add(k)));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    // SAFETY: as above.
    unsafe {
        dst.write(*line)
    };
}

/// A count-down as the solver's: decrement unless the count is at one.
#[inline(always)]
fn update(cell: &AtomicU16, locked: bool) {
    let c = cell.load(Relaxed);
    if c & 63 == 1 {
        return;
    }
    if locked {
        let _ = cell.compare_exchange_weak(c, c - 1, Relaxed, Relaxed);
    } else {
        cell.store(c - 1, Relaxed);
    }
}

#[inline(always)]
fn prefetch(cell: &AtomicU16) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint and never faults.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(cell as *const AtomicU16 as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = cell;
}

fn per_update(t: Instant, updates: usize) -> f64 {
    t.elapsed().as_nanos() as f64 / updates as f64
}

fn xorshift() -> impl FnMut() -> u64 {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}
