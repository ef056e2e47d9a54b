//! The WDL code of compressed tables: a dictionary of symbols built by
//! Re-Pair over runs of equal values, canonical Huffman codes, 64-byte
//! blocks.
//!
//! Why this shape. An engine probes WDL millions of times per second, so a
//! probe must touch little memory and decode little. Syzygy's answer (read
//! by Fathom and shakmaty-syzygy) is blocks of at most 64 bytes, a small
//! index to find the block, and Huffman-coded symbols that each stand for
//! many positions, decoded only up to the probed slot. Here:
//!
//! - **Runs, then pairs.** The values in index order (don't-care slots
//!   filled to extend runs, see [`fill_runs`]) are cut into runs; each
//!   distinct run (value, length) is a *base symbol*. Re-Pair then replaces
//!   the most frequent adjacent pairs of symbols by new *pair symbols*,
//!   round after round, so that a pattern repeated across the table (the
//!   same row of values for the last piece, again and again) becomes one
//!   symbol. Plain run-length coding measured 0.57 bits per position on
//!   4-piece tables, worse than LZ4; with pairs it is about half that.
//! - **Huffman.** The final sequence is coded with canonical Huffman codes
//!   of at most [`MAX_CODE_LEN`] bits, most significant bit first; only the
//!   code lengths are stored.
//! - **Blocks.** [`BLOCK_BYTES`] bytes each, holding whole symbols
//!   (zero-padded). `starts[b]` is the first slot of block `b`
//!   (`starts[blocks] = size`).
//! - **Finding the block.** `sparse[j]` is the block holding slot `j << k`,
//!   with `2^k` about four blocks' worth of slots; a probe searches `starts`
//!   from `sparse[j]` (usually a few entries in one cache line).
//! - **A probe** reads one sparse entry, a line of `starts`, one block; it
//!   adds symbol lengths until it passes its slot and then walks down that
//!   symbol's pair tree (left or right by length) to a base symbol: the
//!   value. Nothing is expanded.

use rustc_hash::FxHashMap;

/// Bytes per block: one cache line.
pub const BLOCK_BYTES: usize = 64;
/// Longest Huffman code.
pub const MAX_CODE_LEN: u32 = 20;
/// Most dictionary symbols of one table.
pub const MAX_SYMBOLS: usize = 4096;
/// A pair is replaced only if it occurs at least this often (a symbol
/// costs 9 bytes of dictionary and code length).
const MIN_PAIR_COUNT: u32 = 16;
/// Deepest pair tree Re-Pair may build (see `re_pair`): measured on 8
/// tables of 3 and 4 pieces, no limit 0.2849 bits per position, 10 levels
/// 0.2852, 8 levels 0.2861, 6 levels 0.2908, 4 levels 0.3216.
const MAX_DEPTH: u8 = 8;
/// Marks a base symbol in [`Symbol::left`].
const BASE: u32 = 1 << 31;

/// Allowed-value masks used by [`fill_runs`]: bit `v` set when value `v`
/// (0 draw, 1 win, 2 loss) may be stored.
pub const ANY: u8 = 0b111;

/// Chooses a stored value for every slot, within its allowed mask, so that
/// runs are as few as possible: at each run boundary the allowed value that
/// stays allowed the longest is taken (the greedy choice is optimal for the
/// number of runs). A mask of 0 is treated as [`ANY`].
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

/// One dictionary entry as stored: a base symbol (`left = BASE | value`,
/// `right = run length`) or a pair (`left`, `right`: earlier symbols).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Symbol {
    /// `BASE | value`, or the left half's symbol.
    pub left: u32,
    /// The run length, or the right half's symbol.
    pub right: u32,
}

/// An encoded WDL stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodedWdl {
    /// The dictionary.
    pub symbols: Vec<Symbol>,
    /// Code length per symbol (0: never coded).
    pub lens: Vec<u8>,
    /// First slot of each block, plus the stream size at the end.
    pub starts: Vec<u32>,
    /// `log2` of the sparse index stride in slots.
    pub sparse_shift: u8,
    /// Block holding slot `j << sparse_shift`, for every `j`.
    pub sparse: Vec<u32>,
    /// The blocks, [`BLOCK_BYTES`] each.
    pub data: Vec<u8>,
}

impl EncodedWdl {
    /// Bytes this stream takes in a file (dictionary, code lengths, block
    /// index and blocks).
    pub fn stored_bytes(&self) -> u64 {
        (8 * self.symbols.len()
            + self.lens.len()
            + 4 * (self.starts.len() + self.sparse.len())
            + self.data.len()) as u64
    }
}

/// The slot count of a stream too large for this code's 32-bit block index.
pub const MAX_SLOTS: u64 = u32::MAX as u64;

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
    let mut data = Vec::new();
    let mut w = BlockWriter::default();
    let mut slot = 0u64;
    for &s in &seq {
        let (code, len) = codes[s as usize];
        if starts.is_empty() || !w.fits(len as usize) {
            if !starts.is_empty() {
                data.extend_from_slice(&w.bytes);
            }
            w = BlockWriter::default();
            starts.push(slot as u32);
        }
        w.put(code, len as u32);
        slot += lengths[s as usize];
    }
    if !starts.is_empty() {
        data.extend_from_slice(&w.bytes);
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
        sparse_shift,
        sparse,
        data,
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
fn base_symbols(values: &[u8]) -> (Vec<u32>, Vec<Symbol>) {
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
        push(v, (j - i) as u32, &mut seq);
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

/// The number of slots each symbol stands for, or why the dictionary is
/// not valid (a pair naming itself or a later symbol, a bad value, an
/// empty run, a length overflow).
pub fn symbol_lengths(symbols: &[Symbol]) -> Result<Vec<u64>, String> {
    let mut len = Vec::with_capacity(symbols.len());
    for (i, s) in symbols.iter().enumerate() {
        let n = if s.left & BASE != 0 {
            if s.left & !BASE > 2 || s.right == 0 {
                return Err(format!("symbol {i}: bad base symbol"));
            }
            s.right as u64
        } else {
            let (l, r) = (s.left as usize, s.right as usize);
            if l >= i || r >= i {
                return Err(format!("symbol {i}: pair of later symbols"));
            }
            len[l] + len[r]
        };
        if n > MAX_SLOTS {
            return Err(format!("symbol {i}: longer than a table"));
        }
        len.push(n);
    }
    Ok(len)
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

/// Canonical codes for `lens`: `(code, len)` per symbol.
fn canonical_codes(lens: &[u8]) -> Vec<(u32, u8)> {
    let mut codes = vec![(0u32, 0u8); lens.len()];
    let (mut code, mut len) = (0u32, 0u8);
    for s in canonical_order(lens) {
        code <<= lens[s] - len;
        len = lens[s];
        codes[s] = (code, len);
        code += 1;
    }
    codes
}

/// Coded symbols in canonical order: by code length, then symbol.
fn canonical_order(lens: &[u8]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..lens.len()).filter(|&s| lens[s] > 0).collect();
    order.sort_by_key(|&s| (lens[s], s));
    order
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
        self.bits + n <= BLOCK_BYTES * 8
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

/// A decoder for one stream: canonical Huffman limits and the dictionary,
/// renumbered in canonical order so that a code's position among the codes
/// of its length gives its symbol without a lookup table. Per decoded
/// symbol a probe touches `last` (one cache line) and one `slot_len` entry.
#[derive(Debug, Clone)]
pub struct Decoder {
    /// Per code length `l`: the largest window (next 64 bits, left-aligned)
    /// that starts with a code of length ≤ `l`; index `MAX_CODE_LEN + 1`
    /// is a sentinel.
    last: [u64; MAX_CODE_LEN as usize + 2],
    /// Per code length: the first code, left-aligned in 64 bits.
    first: [u64; MAX_CODE_LEN as usize + 1],
    /// Per code length: the (renumbered) symbol of its first code.
    offset: [u32; MAX_CODE_LEN as usize + 1],
    /// Shortest code length.
    min_len: u32,
    /// Slots per (renumbered) symbol.
    slot_len: Box<[u32]>,
    /// Per (renumbered) symbol: `[BASE | value, run length, 0]`, or its two
    /// halves and the left half's length (one read per level of descent).
    pairs: Box<[[u32; 3]]>,
}

impl Decoder {
    /// Builds the decoder, or says why the dictionary or code lengths are
    /// not usable.
    pub fn new(symbols: &[Symbol], lens: &[u8]) -> Result<Decoder, String> {
        if lens.len() != symbols.len() || symbols.len() > MAX_SYMBOLS {
            return Err(format!(
                "{} symbols with {} code lengths",
                symbols.len(),
                lens.len()
            ));
        }
        if let Some(l) = lens.iter().find(|&&l| l as u32 > MAX_CODE_LEN) {
            return Err(format!("code length {l} above {MAX_CODE_LEN}"));
        }
        let kraft: u64 = lens
            .iter()
            .filter(|&&l| l > 0)
            .map(|&l| 1u64 << (MAX_CODE_LEN - l as u32))
            .sum();
        if kraft > 1u64 << MAX_CODE_LEN {
            return Err("over-full Huffman code".into());
        }
        let lengths = symbol_lengths(symbols)?;
        // Renumber: coded symbols in canonical order first, then the rest.
        let mut order = canonical_order(lens);
        order.extend((0..symbols.len()).filter(|&s| lens[s] == 0));
        let mut new_id = vec![0u32; symbols.len()];
        for (i, &s) in order.iter().enumerate() {
            new_id[s] = i as u32;
        }
        let slot_len = order.iter().map(|&s| lengths[s] as u32).collect();
        let pairs = order
            .iter()
            .map(|&s| {
                let sym = symbols[s];
                if sym.left & BASE != 0 {
                    [sym.left, sym.right, 0]
                } else {
                    [
                        new_id[sym.left as usize],
                        new_id[sym.right as usize],
                        lengths[sym.left as usize] as u32,
                    ]
                }
            })
            .collect();
        let codes = canonical_codes(lens);
        let mut first = [0u64; MAX_CODE_LEN as usize + 1];
        let mut offset = [0u32; MAX_CODE_LEN as usize + 1];
        let mut count = [0u64; MAX_CODE_LEN as usize + 1];
        for (i, &s) in order.iter().take_while(|&&s| lens[s] > 0).enumerate() {
            let (code, len) = codes[s];
            let l = len as usize;
            if count[l] == 0 {
                first[l] = (code as u64) << (64 - len as u32);
                offset[l] = i as u32;
            }
            count[l] += 1;
        }
        let min_len = (1..=MAX_CODE_LEN)
            .find(|&l| count[l as usize] > 0)
            .unwrap_or(1);
        let mut last = [0u64; MAX_CODE_LEN as usize + 2];
        let mut prev: u128 = 0; // end of the codes so far, left-aligned (exclusive)
        for l in 1..=MAX_CODE_LEN as usize {
            if count[l] > 0 {
                prev = ((first[l] as u128 >> (64 - l)) + count[l] as u128) << (64 - l);
            }
            // Below the shortest length nothing decodes; `symbol` starts
            // its search at the shortest length.
            last[l] = (prev.max(1) - 1).min(u64::MAX as u128) as u64;
        }
        last[MAX_CODE_LEN as usize + 1] = u64::MAX;
        Ok(Decoder {
            last,
            first,
            offset,
            min_len,
            slot_len,
            pairs,
        })
    }

    /// The (renumbered) symbol at the front of `window` (the next bits,
    /// left-aligned) and its code length, `None` if the bits are no code.
    #[inline]
    fn symbol(&self, window: u64) -> Option<(usize, u32)> {
        let mut l = self.min_len as usize;
        while window > self.last[l] {
            l += 1;
        }
        if l > MAX_CODE_LEN as usize {
            return None;
        }
        let i = (window - self.first[l]) >> (64 - l);
        Some(((self.offset[l] as u64 + i) as usize, l as u32))
    }

    /// Calls `each(symbol)` for the symbols of `block` in order until it
    /// returns `false`; `None` if the bits stop being codes first.
    /// `block` may carry 8 bytes after the block (any bytes): the bits are
    /// then read in place, else from a padded copy.
    #[inline]
    fn walk(&self, block: &[u8], each: impl FnMut(usize) -> bool) -> Option<()> {
        if block.len() >= BLOCK_BYTES + 8 {
            return self.walk_padded(block, each);
        }
        let mut buf = [0u8; BLOCK_BYTES + 8];
        let n = block.len().min(BLOCK_BYTES);
        buf[..n].copy_from_slice(&block[..n]);
        self.walk_padded(&buf, each)
    }

    /// [`Decoder::walk`] over a block followed by at least 8 bytes.
    #[inline]
    fn walk_padded(&self, buf: &[u8], mut each: impl FnMut(usize) -> bool) -> Option<()> {
        let mut bit = 0usize;
        while bit < BLOCK_BYTES * 8 {
            let at = bit / 8;
            let window =
                u64::from_be_bytes(buf[at..at + 8].try_into().expect("8 bytes")) << (bit % 8);
            let (sym, len) = self.symbol(window)?;
            bit += len as usize;
            if bit > BLOCK_BYTES * 8 || !each(sym) {
                return (bit <= BLOCK_BYTES * 8).then_some(());
            }
        }
        None
    }

    /// The value (0 draw, 1 win, 2 loss) of `slot` in `block`, whose first
    /// slot is `start` (`block` may carry 8 more bytes, see `walk`). `None`
    /// if the block does not decode (corrupt data).
    #[inline]
    pub fn value_in_block(&self, block: &[u8], start: u64, slot: u64) -> Option<u8> {
        let mut pos = start;
        let mut found = None;
        self.walk(block, |sym| {
            let next = pos + self.slot_len[sym] as u64;
            if slot < next {
                found = Some(sym);
                return false;
            }
            pos = next;
            true
        })?;
        // Down the pair tree to the base symbol holding the slot.
        let (mut sym, mut off) = (found?, (slot - pos) as u32);
        loop {
            let [left, right, left_len] = self.pairs[sym];
            if left & BASE != 0 {
                return Some((left & !BASE) as u8);
            }
            if off < left_len {
                sym = left as usize;
            } else {
                off -= left_len;
                sym = right as usize;
            }
        }
    }

    /// Appends the values of the `n` slots of `block` to `out`; `None` if
    /// the block does not decode to exactly `n` slots.
    pub fn expand_block(&self, block: &[u8], n: u64, out: &mut Vec<u8>) -> Option<()> {
        let target = out.len() as u64 + n;
        let mut stack = Vec::new();
        self.walk(block, |sym| {
            stack.push(sym);
            while let Some(s) = stack.pop() {
                let [left, right, _] = self.pairs[s];
                if left & BASE != 0 {
                    let room = target.saturating_sub(out.len() as u64);
                    let k = (right as u64).min(room);
                    out.extend(std::iter::repeat_n((left & !BASE) as u8, k as usize));
                } else {
                    stack.push(right as usize);
                    stack.push(left as usize);
                }
            }
            (out.len() as u64) < target
        })?;
        (out.len() as u64 == target).then_some(())
    }
}

#[cfg(test)]
mod tests {
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
            d.expand_block(block(b), n, &mut expanded).unwrap();
        }
        let probed: Vec<u8> = (0..size)
            .map(|s| {
                let mut b = e.sparse[(s >> e.sparse_shift) as usize] as usize;
                while e.starts[b + 1] as u64 <= s {
                    b += 1;
                }
                d.value_in_block(block(b), e.starts[b] as u64, s).unwrap()
            })
            .collect();
        assert_eq!(probed, expanded);
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
}
