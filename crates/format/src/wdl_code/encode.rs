//! Building a WDL stream: runs, Re-Pair, Huffman code lengths, blocks.

use super::{
    block_check, canonical_codes, symbol_lengths, Checkpoint, EncodedWdl, Symbol, BASE,
    BLOCK_BYTES, CHECK_BYTES, MAX_CODE_LEN, MAX_DEPTH, MAX_SLOTS, MAX_SYMBOLS, MIN_PAIR_COUNT,
    PAYLOAD_BITS,
};
use rustc_hash::FxHashMap;

/// Chooses a stored value for every slot, within its allowed mask, so that
/// runs are as few as possible: at each run boundary the allowed value that
/// stays allowed the longest is taken (the greedy choice is optimal for the
/// number of runs). A mask of 0 is treated as [`ANY`](super::ANY).
pub fn fill_runs(allowed: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; allowed.len()];
    let mut i = 0;
    while i < allowed.len() {
        let mut best = (0usize, 0u8);
        for v in 0..3u8 {
            let mut j = i;
            while j < allowed.len() && (allowed[j] == 0 || allowed[j] & (1 << v) != 0) {
                j += 1;
            }
            if j - i > best.0 {
                best = (j - i, v);
            }
        }
        let end = i + best.0.max(1);
        out[i..end].fill(best.1);
        i = end;
    }
    out
}

/// Encodes `values` (0 draw, 1 win, 2 loss, one per slot; fill don't-care
/// slots first with [`fill_runs`]). At most [`MAX_SLOTS`] slots.
pub fn encode(values: &[u8]) -> EncodedWdl {
    assert!(values.len() as u64 <= MAX_SLOTS, "too many slots");
    let (mut seq, mut symbols) = base_symbols(values);
    re_pair(&mut seq, &mut symbols);
    let lengths = symbol_lengths(&symbols).expect("the encoder builds a valid dictionary");
    let mut freq = vec![0u64; symbols.len()];
    for &s in &seq {
        freq[s as usize] += 1;
    }
    let lens = code_lengths(&freq);
    let codes = canonical_codes(&lens);

    let mut starts = Vec::new();
    let mut checkpoints = Vec::new();
    let mut data = Vec::new();
    let mut w = BlockWriter::default();
    // (bit offset, slot offset, slots) of each symbol of the current block.
    let mut in_block: Vec<(usize, u64, u64)> = Vec::new();
    let mut slot = 0u64;
    for &s in &seq {
        let (code, len) = codes[s as usize];
        if starts.is_empty() || !w.fits(len as usize) {
            if !starts.is_empty() {
                data.extend_from_slice(&w.finish(starts.len() as u64 - 1));
                checkpoints.push(checkpoint(&in_block));
            }
            w = BlockWriter::default();
            in_block.clear();
            starts.push(slot as u32);
        }
        let n = lengths[s as usize];
        in_block.push((w.bits, slot - *starts.last().expect("a block") as u64, n));
        w.put(code, len as u32);
        slot += n;
    }
    if !starts.is_empty() {
        data.extend_from_slice(&w.finish(starts.len() as u64 - 1));
        checkpoints.push(checkpoint(&in_block));
    }
    let size = values.len() as u64;
    starts.push(size as u32);
    let blocks = starts.len() as u64 - 1;
    let sparse_shift = sparse_shift(size, blocks);
    let sparse = sparse_index(&starts, size, sparse_shift);
    EncodedWdl {
        symbols,
        lens,
        starts,
        checkpoints,
        sparse_shift,
        sparse,
        data,
    }
}

/// The checkpoint of a block whose symbols are `syms` (bit offset, slot
/// offset, slots each): the symbol that minimises the symbols a probe
/// decodes, summed over the block's slots (a probe of a slot before the
/// checkpoint decodes from the block's first symbol, any other from the
/// checkpoint's). [`Checkpoint::NONE`] when no symbol after the first
/// helps or fits.
fn checkpoint(syms: &[(usize, u64, u64)]) -> u32 {
    // cost(h) = Σ_{i<h} n_i (i + 1) + Σ_{i≥h} n_i (i − h + 1), computed for
    // every h in one pass from prefix sums.
    let total: u64 = syms.iter().map(|s| s.2).sum();
    let mut before = 0u64; // Σ_{i<h} n_i (i + 1)
    let mut weight_before = 0u64; // Σ_{i<h} n_i
    let from_start: u64 = syms
        .iter()
        .enumerate()
        .map(|(i, s)| s.2 * (i as u64 + 1))
        .sum();
    let (mut best, mut best_cost) = (0usize, from_start);
    for (h, &(_, skip, n)) in syms.iter().enumerate() {
        if h > 0 && skip < Checkpoint::MAX_SKIP {
            // Slots from h on pay (i + 1) - h.
            let after = from_start - before - h as u64 * (total - weight_before);
            let cost = before + after;
            if cost < best_cost {
                (best, best_cost) = (h, cost);
            }
        }
        before += n * (h as u64 + 1);
        weight_before += n;
    }
    if best == 0 {
        Checkpoint::NONE
    } else {
        Checkpoint::pack(syms[best].0, syms[best].1)
    }
}

/// The sparse stride for `blocks` blocks over `size` slots: the power of
/// two nearest below four blocks' worth of slots.
fn sparse_shift(size: u64, blocks: u64) -> u8 {
    let per_block = size.checked_div(blocks).unwrap_or(1).max(1);
    (63 - (4 * per_block).leading_zeros()) as u8
}

/// The sparse index of `starts`: for every `j`, the block holding slot
/// `j << shift`.
fn sparse_index(starts: &[u32], size: u64, shift: u8) -> Vec<u32> {
    let mut sparse = Vec::with_capacity(size.div_ceil(1 << shift) as usize);
    let mut b = 0usize;
    let mut s = 0u64;
    while s < size {
        while starts[b + 1] as u64 <= s {
            b += 1;
        }
        sparse.push(b as u32);
        s += 1 << shift;
    }
    sparse
}

/// The runs of `values` as base symbols: the sequence and the dictionary.
///
/// One symbol per distinct (value, run length). Where that would overflow
/// the dictionary ([`MAX_SYMBOLS`]; a 2^29-slot section of the 6-piece
/// ELTvELT had 4,882 distinct runs, and the decoder refused the table),
/// every run is cut into pieces of power-of-two lengths instead (the
/// binary digits of its length): at most 3 × 32 distinct symbols, and the
/// same values. A table whose runs fit, which is every table that could be
/// written before, keeps its bytes.
pub(super) fn base_symbols(values: &[u8]) -> (Vec<u32>, Vec<Symbol>) {
    let whole = runs_as_symbols(values, false);
    if whole.1.len() <= MAX_SYMBOLS {
        return whole;
    }
    runs_as_symbols(values, true)
}

/// [`base_symbols`], with runs cut into power-of-two pieces if `split`.
fn runs_as_symbols(values: &[u8], split: bool) -> (Vec<u32>, Vec<Symbol>) {
    let mut ids: FxHashMap<(u8, u32), u32> = FxHashMap::default();
    let mut symbols = Vec::new();
    let mut seq = Vec::new();
    let mut push = |v: u8, n: u32, seq: &mut Vec<u32>| {
        let id = *ids.entry((v, n)).or_insert_with(|| {
            symbols.push(Symbol {
                left: BASE | v as u32,
                right: n,
            });
            symbols.len() as u32 - 1
        });
        seq.push(id);
    };
    let mut i = 0;
    while i < values.len() {
        let v = values[i];
        let mut j = i + 1;
        while j < values.len() && values[j] == v && ((j - i) as u64) < MAX_SLOTS {
            j += 1;
        }
        let n = (j - i) as u32;
        if split {
            // Highest piece first.
            for bit in (0..32).rev().filter(|b| n >> b & 1 == 1) {
                push(v, 1 << bit, &mut seq);
            }
        } else {
            push(v, n, &mut seq);
        }
        i = j;
    }
    (seq, symbols)
}

/// Re-Pair: replaces the most frequent adjacent pairs by new symbols,
/// a batch of pairs per round, until pairs are rare or the dictionary is
/// full.
fn re_pair(seq: &mut Vec<u32>, symbols: &mut Vec<Symbol>) {
    let key = |a: u32, b: u32| (a as u64) << 32 | b as u64;
    // Depth of each symbol's pair tree (0 for a run): a probe walks down
    // one tree, a chain of dependent reads, so trees are kept shallow.
    let mut depth: Vec<u8> = vec![0; symbols.len()];
    let depth_of =
        |depth: &[u8], k: u64| depth[(k >> 32) as usize].max(depth[k as u32 as usize]) + 1;
    while symbols.len() < MAX_SYMBOLS && seq.len() > 1 {
        let mut counts: FxHashMap<u64, u32> = FxHashMap::default();
        for w in seq.windows(2) {
            *counts.entry(key(w[0], w[1])).or_insert(0) += 1;
        }
        let mut top: Vec<(u32, u64)> = counts
            .into_iter()
            .filter(|&(k, c)| c >= MIN_PAIR_COUNT && depth_of(&depth, k) <= MAX_DEPTH)
            .map(|(k, c)| (c, k))
            .collect();
        if top.is_empty() {
            break;
        }
        // Small batches while the dictionary is small (each choice changes
        // the counts of the next), larger ones later.
        let batch = (symbols.len() / 16)
            .clamp(16, 256)
            .min(MAX_SYMBOLS - symbols.len());
        top.sort_unstable_by(|x, y| y.cmp(x));
        top.truncate(batch);
        let mut new_id: FxHashMap<u64, u32> = FxHashMap::default();
        for &(_, k) in &top {
            depth.push(depth_of(&depth, k));
            new_id.insert(k, symbols.len() as u32);
            symbols.push(Symbol {
                left: (k >> 32) as u32,
                right: k as u32,
            });
        }
        let (mut r, mut w) = (0, 0);
        while r < seq.len() {
            if r + 1 < seq.len() {
                if let Some(&id) = new_id.get(&key(seq[r], seq[r + 1])) {
                    seq[w] = id;
                    w += 1;
                    r += 2;
                    continue;
                }
            }
            seq[w] = seq[r];
            w += 1;
            r += 1;
        }
        seq.truncate(w);
    }
}

/// Huffman code lengths for `freq` (0 for unused symbols), at most
/// [`MAX_CODE_LEN`] bits: when the plain Huffman tree is too deep, the
/// frequencies are flattened and the tree rebuilt.
fn code_lengths(freq: &[u64]) -> Vec<u8> {
    let mut f: Vec<u64> = freq.to_vec();
    loop {
        let lens = huffman_lengths(&f);
        if lens.iter().all(|&l| l as u32 <= MAX_CODE_LEN) {
            return lens;
        }
        for x in f.iter_mut().filter(|x| **x > 0) {
            *x = (*x).div_ceil(2);
        }
    }
}

/// Plain Huffman code lengths (a single used symbol gets length 1).
fn huffman_lengths(freq: &[u64]) -> Vec<u8> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut lens = vec![0u8; freq.len()];
    let used: Vec<usize> = (0..freq.len()).filter(|&s| freq[s] > 0).collect();
    if used.len() == 1 {
        lens[used[0]] = 1;
        return lens;
    }
    let mut parent: Vec<usize> = vec![usize::MAX; used.len()];
    let mut heap: BinaryHeap<Reverse<(u64, usize)>> = used
        .iter()
        .enumerate()
        .map(|(n, &s)| Reverse((freq[s], n)))
        .collect();
    while heap.len() > 1 {
        let Reverse((fa, a)) = heap.pop().expect("two nodes");
        let Reverse((fb, b)) = heap.pop().expect("two nodes");
        let n = parent.len();
        parent.push(usize::MAX);
        parent[a] = n;
        parent[b] = n;
        heap.push(Reverse((fa + fb, n)));
    }
    // Depths, from the root down (parents are created after children).
    let mut depth = vec![0u8; parent.len()];
    for n in (0..parent.len()).rev() {
        if parent[n] != usize::MAX {
            depth[n] = depth[parent[n]].saturating_add(1);
        }
    }
    for (leaf, &s) in used.iter().enumerate() {
        lens[s] = depth[leaf];
    }
    lens
}

/// Bit writer, most significant bit first, into one block.
struct BlockWriter {
    bytes: [u8; BLOCK_BYTES],
    bits: usize,
}

impl Default for BlockWriter {
    fn default() -> Self {
        BlockWriter {
            bytes: [0; BLOCK_BYTES],
            bits: 0,
        }
    }
}

impl BlockWriter {
    fn fits(&self, n: usize) -> bool {
        self.bits + n <= PAYLOAD_BITS
    }

    /// The block, numbered `b`, with its check.
    fn finish(mut self, b: u64) -> [u8; BLOCK_BYTES] {
        let payload = BLOCK_BYTES - CHECK_BYTES;
        let check = block_check(b, &self.bytes[..payload]);
        self.bytes[payload..].copy_from_slice(&check);
        self.bytes
    }

    fn put(&mut self, value: u32, n: u32) {
        for i in (0..n).rev() {
            if (value >> i) & 1 == 1 {
                self.bytes[self.bits / 8] |= 0x80 >> (self.bits % 8);
            }
            self.bits += 1;
        }
    }
}
