//! Round trips and refusals of the WDL code.

use super::encode::base_symbols;
use super::*;

/// Decodes every slot of `e` the way a probe does, and block by block.
fn decode_all(e: &EncodedWdl) -> Vec<u8> {
    let d = Decoder::new(&e.symbols, &e.lens).unwrap();
    let size = *e.starts.last().unwrap() as u64;
    let blocks = e.starts.len() - 1;
    let block = |b: usize| &e.data[b * BLOCK_BYTES..(b + 1) * BLOCK_BYTES];
    let mut expanded = Vec::new();
    for b in 0..blocks {
        let n = (e.starts[b + 1] - e.starts[b]) as u64;
        d.expand_block(block(b), n, &mut expanded, &mut Vec::new())
            .unwrap();
    }
    let probed: Vec<u8> = (0..size)
        .map(|s| {
            let mut b = e.sparse[(s >> e.sparse_shift) as usize] as usize;
            while e.starts[b + 1] as u64 <= s {
                b += 1;
            }
            d.value_in_block(block(b), e.starts[b] as u64, s, Checkpoint::NONE)
                .unwrap()
        })
        .collect();
    // From each block's checkpoint, the same values.
    let checkpoints = &e.checkpoints;
    assert_eq!(checkpoints.len(), blocks);
    let from_checkpoints: Vec<u8> = (0..size)
        .map(|s| {
            let b = e.starts.partition_point(|&x| x as u64 <= s) - 1;
            d.value_in_block(block(b), e.starts[b] as u64, s, checkpoints[b])
                .unwrap()
        })
        .collect();
    assert_eq!(from_checkpoints, expanded);
    if blocks > 4 {
        assert!(
            checkpoints.iter().any(|&c| c != Checkpoint::NONE),
            "no checkpoint was set"
        );
    }
    assert_eq!(probed, expanded);
    // The distance probe's walk over ranges of each block (from its first
    // slot, to its last, one slot, and ranges starting and ending inside
    // symbols): the value of the range's end slot, and wins and losses
    // before it that agree with the expanded values.
    let mut rnd = rng(size | 1);
    for b in 0..blocks {
        let (start, last) = (e.starts[b] as u64, e.starts[b + 1] as u64 - 1);
        let mut ranges = vec![(start, last), (start, start), (last, last)];
        for _ in 0..8 {
            let x = start + rnd() % (last - start + 1);
            let y = start + rnd() % (last - start + 1);
            ranges.push((x.min(y), x.max(y)));
        }
        for (from, to) in ranges {
            let slots = &expanded[from as usize..to as usize];
            let naive = [1u8, 2].map(|v| slots.iter().filter(|&&x| x == v).count() as u64);
            let (value, counts) = d.value_and_counts(block(b), start, to, from).unwrap();
            assert_eq!(
                (value, counts),
                (expanded[to as usize], naive),
                "block {b}, slot {to} from {from}"
            );
        }
        // Out of order: refused, not miscounted.
        assert_eq!(d.value_and_counts(block(b), start, last, last + 1), None);
        if start > 0 {
            assert_eq!(d.value_and_counts(block(b), start, last, start - 1), None);
        }
    }
    probed
}

fn rng(mut x: u64) -> impl FnMut() -> u64 {
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

#[test]
fn round_trips_random_runs_and_repeated_patterns() {
    let mut rnd = rng(0x9E37_79B9_7F4A_7C15);
    let mut values = Vec::new();
    // A repeated "row" with noise: what Re-Pair is for.
    let row: Vec<u8> = (0..61).map(|_| (rnd() % 3) as u8).collect();
    for _ in 0..2000 {
        values.extend_from_slice(&row);
        let k = (rnd() % 61) as usize;
        let n = values.len();
        values[n - 61 + k] = (rnd() % 3) as u8;
    }
    for _ in 0..3000 {
        let v = (rnd() % 3) as u8;
        let n = match rnd() % 4 {
            0 => 1,
            1 => rnd() % 16,
            2 => rnd() % 1000,
            _ => rnd() % 20_000,
        };
        values.extend(std::iter::repeat_n(v, n as usize));
    }
    let e = encode(&values);
    assert!(e.starts.len() > 100, "the test must span many blocks");
    assert!(
        e.symbols.iter().any(|s| s.left & BASE == 0),
        "pairs must have been formed"
    );
    // Pair trees stay within the depth a probe is allowed to walk.
    let mut depth = vec![0u8; e.symbols.len()];
    for (i, s) in e.symbols.iter().enumerate() {
        if s.left & BASE == 0 {
            depth[i] = depth[s.left as usize].max(depth[s.right as usize]) + 1;
        }
    }
    assert!(
        depth.iter().all(|&d| d <= MAX_DEPTH),
        "{:?}",
        depth.iter().max()
    );
    assert_eq!(decode_all(&e), values);
    for v in [vec![1u8; 100_000], vec![2u8], vec![]] {
        assert_eq!(decode_all(&encode(&v)), v);
    }
}

/// More distinct run lengths than the dictionary holds (what a 2^29-slot
/// section of a 6-piece table had): the runs are cut into power-of-two
/// pieces, the dictionary stays within `MAX_SYMBOLS`, and every value
/// decodes. Few distinct runs keep one symbol per run.
#[test]
fn many_distinct_run_lengths_still_fit_the_dictionary() {
    let mut values = Vec::new();
    for n in 1..=3 * MAX_SYMBOLS {
        values.extend(std::iter::repeat_n((n % 3) as u8, n));
    }
    let (_, whole) = base_symbols(&values);
    assert!(whole.len() <= 96, "{} base symbols", whole.len());
    let e = encode(&values);
    assert!(e.symbols.len() <= MAX_SYMBOLS);
    assert!(Decoder::new(&e.symbols, &e.lens).is_ok());
    assert_eq!(decode_all(&e), values);
    let few: Vec<u8> = (0..200)
        .flat_map(|n| std::iter::repeat_n((n % 3) as u8, n % 7 + 1))
        .collect();
    let (seq, symbols) = base_symbols(&few);
    assert!(
        symbols.len() <= 21 && seq.len() == 200,
        "{} {}",
        symbols.len(),
        seq.len()
    );
}

#[test]
fn long_codes_are_limited_and_still_decode() {
    // Fibonacci frequencies of 30 distinct runs force a Huffman tree
    // deeper than the limit.
    let mut left: Vec<u64> = Vec::new();
    let (mut a, mut b) = (1u64, 1u64);
    for _ in 0..30 {
        left.push(a);
        (a, b) = (b, a + b);
    }
    let mut rnd = rng(7);
    let mut values: Vec<u8> = Vec::new();
    while left.iter().any(|&n| n > 0) {
        let i = (rnd() % 30) as usize;
        if left[i] > 0 {
            left[i] -= 1;
            let v = (i % 3) as u8;
            if values.last() == Some(&v) {
                values.push((v + 1) % 3); // keep the runs apart
            }
            values.extend(std::iter::repeat_n(v, 1 + i / 3));
        }
    }
    let e = encode(&values);
    assert!(e.lens.iter().all(|&l| l as u32 <= MAX_CODE_LEN));
    assert!(
        e.lens.iter().any(|&l| l >= 16),
        "the slow path must be used"
    );
    assert_eq!(decode_all(&e), values);
}

#[test]
fn fill_runs_respects_masks_and_joins_runs() {
    let allowed = [1u8, 0b011, 0b110, ANY, 0, 0b100, 0b001];
    let v = fill_runs(&allowed);
    for (a, v) in allowed.iter().zip(&v) {
        assert!(*a == 0 || a & (1 << v) != 0);
    }
    assert_eq!(base_symbols(&v).0.len(), 3, "{v:?}");
}

#[test]
fn bad_dictionaries_and_codes_are_refused() {
    let base = Symbol {
        left: BASE | 1,
        right: 5,
    };
    assert!(Decoder::new(&[base; 3], &[1; 3]).is_err(), "over-full code");
    assert!(Decoder::new(&[base], &[1, 1]).is_err(), "count mismatch");
    assert!(Decoder::new(&[base], &[21]).is_err(), "too long");
    let self_pair = Symbol { left: 1, right: 0 };
    assert!(Decoder::new(&[base, self_pair], &[1, 1]).is_err());
    let bad_value = Symbol {
        left: BASE | 3,
        right: 1,
    };
    assert!(Decoder::new(&[bad_value], &[1]).is_err());
    let empty = Symbol {
        left: BASE,
        right: 0,
    };
    assert!(Decoder::new(&[empty], &[1]).is_err());
}
