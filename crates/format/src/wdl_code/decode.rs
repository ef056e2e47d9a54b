//! Answering probes: canonical Huffman decoding up to the probed slot and
//! a walk down one symbol's pair tree, which ends at a node holding the
//! runs of its symbol.

use super::{
    canonical_codes, canonical_order, symbol_lengths, CodeError, Symbol, BASE, BLOCK_BYTES,
    MAX_CODE_LEN, MAX_SYMBOLS, PAYLOAD_BITS,
};
use crate::prefetch::prefetch;

/// A decoder for one stream: canonical Huffman limits and the dictionary,
/// renumbered in canonical order so that a code's position among the codes
/// of its length gives its symbol without a lookup table. Per decoded
/// symbol a probe touches `short_len` and `last` (five cache lines per
/// table at most) and one `slot_len` entry.
///
/// Probes land in cold tables, so the decoder's arrays are kept small:
/// symbol lengths are `u16` (with an escape for longer ones, see
/// `SlotLens`), and a tree node is 8 bytes (see `Node`), so that
/// fewer cache lines are missed per probe.
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
    /// Per first byte of the window: the length of the code it starts if
    /// that is at most 8 bits, else the shortest length a code starting
    /// with that byte can have, where the search for its length starts.
    /// The search from the shortest length, as before, mispredicted a
    /// branch for most symbols; with this table most codes need no search
    /// (counted with callgrind over 600 k probes of the 260 tables up to 3
    /// pieces: 1,610 → 1,378 decoder instructions per probe; 17 % less
    /// time per probe on those tables, alternated runs).
    short_len: [u8; 256],
    /// Slots per (renumbered) symbol.
    slot_len: SlotLens,
    /// Per (renumbered) symbol, one read per level of descent.
    pairs: Box<[Node]>,
    /// Per (renumbered) symbol: how many of its slots are wins and losses.
    /// The distance stream stores one entry per win or loss slot, so a
    /// distance probe needs the slot's rank among them: whole symbols are
    /// counted from this table, only the last is walked (see
    /// [`Decoder::value_and_counts`]).
    classes: Box<[[u32; 2]]>,
}

/// Slots per symbol: 16 bits each, [`SlotLens::ESCAPE`] sending the rare
/// longer symbols to a second table. A probe reads one entry per symbol it
/// skips, at random in a table that is usually cold, so the table is kept at
/// 2 bytes a symbol even when a few symbols need 4 (a table of `u32` for
/// all of them, as before, measured slower over the whole set).
#[derive(Debug, Clone)]
struct SlotLens {
    short: Box<[u16]>,
    /// The lengths of the escaped symbols, by symbol (empty if none).
    long: Box<[u32]>,
}

impl SlotLens {
    /// Marks a length kept in [`SlotLens::long`].
    const ESCAPE: u16 = u16::MAX;

    fn new(lengths: impl Iterator<Item = u32> + Clone) -> SlotLens {
        let escaped = lengths.clone().any(|l| l >= u32::from(Self::ESCAPE));
        SlotLens {
            short: lengths
                .clone()
                .map(|l| l.min(u32::from(Self::ESCAPE)) as u16)
                .collect(),
            long: if escaped {
                lengths.collect()
            } else {
                Box::new([])
            },
        }
    }

    #[inline(always)]
    fn get(&self, sym: usize) -> u32 {
        match self.short[sym] {
            Self::ESCAPE => self.long[sym],
            l => u32::from(l),
        }
    }
}

/// A node of the decoder's tree, in 64 bits: either a **pair** (bit 63
/// clear; `left` in bits 0..12, `right` in bits 12..24, both renumbered
/// symbols, and the left half's length in slots in bits 24..56) or the
/// symbol's whole expansion as **at most three runs** (bit 63 set; the
/// runs' values in bits 0..6, two bits each, and the lengths of the first
/// two in bits 6..33 and 33..60; the last run takes the rest of the
/// symbol, and unused runs repeat the last value).
///
/// Why runs. A probe's walk down the tree reads one node per level, each
/// read depending on the one before and missing the cache in cold tables
/// (perf: half of a compressed probe's time sat on that load). Most
/// symbols a probe lands on are one, two or three runs deep in their tree;
/// storing those expansions in the node itself ends the walk one or two
/// reads earlier, at no cost in memory.
#[derive(Debug, Clone, Copy)]
struct Node(u64);

impl Node {
    const RUNS: u64 = 1 << 63;
    const LEN_BITS: u32 = 27;
    const LEN_MASK: u64 = (1 << Self::LEN_BITS) - 1;

    fn pair(left: u32, right: u32, left_len: u32) -> Node {
        Node(u64::from(left) | u64::from(right) << 12 | u64::from(left_len) << 24)
    }

    /// The node of a symbol that expands to `runs` (value, length), if
    /// they fit: one to three runs, the first two below `2^27` slots.
    fn runs(runs: &[(u8, u64)]) -> Option<Node> {
        let (&(last, _), explicit) = runs.split_last()?;
        if runs.len() > 3 || explicit.iter().any(|&(_, n)| n > Self::LEN_MASK) {
            return None;
        }
        let mut x = Self::RUNS;
        for k in 0..3 {
            let (value, n) = explicit.get(k).copied().unwrap_or((last, 0));
            x |= u64::from(value) << (2 * k);
            if k < 2 {
                x |= n << (6 + Self::LEN_BITS as usize * k);
            }
        }
        Some(Node(x))
    }

    /// The value at `off` slots into a runs node.
    #[inline(always)]
    fn value_at(self, off: u32) -> u8 {
        let (l0, l1) = self.explicit_lengths();
        let k = if u64::from(off) < l0 {
            0
        } else if u64::from(off) - l0 < l1 {
            1
        } else {
            2
        };
        self.value(k)
    }

    #[inline(always)]
    fn value(self, k: u32) -> u8 {
        ((self.0 >> (2 * k)) & 3) as u8
    }

    #[inline(always)]
    fn explicit_lengths(self) -> (u64, u64) {
        (
            (self.0 >> 6) & Self::LEN_MASK,
            (self.0 >> (6 + Self::LEN_BITS)) & Self::LEN_MASK,
        )
    }

    #[inline(always)]
    fn is_runs(self) -> bool {
        self.0 & Self::RUNS != 0
    }

    /// A pair node's `(left, right, left half's length)`.
    #[inline(always)]
    fn halves(self) -> (usize, usize, u32) {
        (
            (self.0 & 0xfff) as usize,
            ((self.0 >> 12) & 0xfff) as usize,
            (self.0 >> 24) as u32,
        )
    }
}

const _: () = assert!(MAX_SYMBOLS <= 1 << 12);
const _: () = assert!(PAYLOAD_BITS <= 1 << Checkpoint::BIT_BITS);

/// Where probes of a block's later slots start decoding, in 32 bits: the
/// bit offset of a symbol in the block (bits 0..9) and its first slot's
/// offset from the block's first slot (bits 9..32). 0: none (decode from
/// the block's start).
///
/// Why. A probe decodes the symbols of its block up to its slot: about 26
/// of a block's ~50 on average, each a code length and a symbol length
/// read. Starting the later slots' probes at a symbol in the block's middle
/// halves that (the encoder picks the symbol that minimises the symbols
/// decoded over all the block's slots). The checkpoint sits beside the
/// block's first slot in the block index, in the line a probe reads
/// anyway; it costs 4 bytes a block (about 6 % of the WDL stream).
#[derive(Debug)]
pub struct Checkpoint;

impl Checkpoint {
    /// Bits of the bit offset.
    pub const BIT_BITS: u32 = 9;
    /// Slot offsets must be below this.
    pub const MAX_SKIP: u64 = 1 << (32 - Self::BIT_BITS);
    /// No checkpoint.
    pub const NONE: u32 = 0;

    /// Packs a checkpoint at bit `bit`, slot offset `skip`.
    pub fn pack(bit: usize, skip: u64) -> u32 {
        bit as u32 | (skip as u32) << Self::BIT_BITS
    }

    /// `(bit, skip)`; [`Checkpoint::NONE`] unpacks to a skip no slot
    /// reaches.
    #[inline(always)]
    pub fn unpack(c: u32) -> (usize, u64) {
        if c == Self::NONE {
            return (0, u64::MAX);
        }
        (
            (c & ((1 << Self::BIT_BITS) - 1)) as usize,
            u64::from(c >> Self::BIT_BITS),
        )
    }
}

/// Per symbol (in dictionary order), its expansion as runs of equal values
/// when it has at most three (`None` for longer ones). `symbols` is a valid
/// dictionary: pairs name earlier symbols.
fn short_expansions(symbols: &[Symbol]) -> Vec<Option<Vec<(u8, u64)>>> {
    let mut out: Vec<Option<Vec<(u8, u64)>>> = Vec::with_capacity(symbols.len());
    for sym in symbols {
        let runs = if sym.left & BASE != 0 {
            Some(vec![((sym.left & !BASE) as u8, u64::from(sym.right))])
        } else {
            match (&out[sym.left as usize], &out[sym.right as usize]) {
                (Some(a), Some(b)) => {
                    let mut runs = a.clone();
                    for &(value, n) in b {
                        match runs.last_mut() {
                            Some((v, m)) if *v == value => *m += n,
                            _ => runs.push((value, n)),
                        }
                    }
                    (runs.len() <= 3).then_some(runs)
                }
                _ => None,
            }
        };
        out.push(runs);
    }
    out
}

/// Wins and losses per symbol, in dictionary order (pairs name earlier
/// symbols), then renumbered to `order`. Lengths are at most `MAX_SLOTS`,
/// a `u32`, and so are the counts.
fn symbol_classes(symbols: &[Symbol], order: &[usize]) -> Vec<[u32; 2]> {
    let mut classes_by_id: Vec<[u32; 2]> = Vec::with_capacity(symbols.len());
    for sym in symbols {
        let c = if sym.left & BASE != 0 {
            match sym.left & !BASE {
                1 => [sym.right, 0],
                2 => [0, sym.right],
                _ => [0, 0],
            }
        } else {
            let (l, r) = (
                classes_by_id[sym.left as usize],
                classes_by_id[sym.right as usize],
            );
            [l[0] + r[0], l[1] + r[1]]
        };
        classes_by_id.push(c);
    }
    order.iter().map(|&s| classes_by_id[s]).collect()
}

/// From the codes per length and each length's first code: the last code
/// of every length (left-aligned), and per leading byte the shortest
/// length a code starting with it can have.
fn code_limits(
    count: &[u64; MAX_CODE_LEN as usize + 1],
    first: &[u64; MAX_CODE_LEN as usize + 1],
) -> ([u64; MAX_CODE_LEN as usize + 2], [u8; 256]) {
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
        // its search at the shortest length or later (`short_len`).
        last[l] = (prev.max(1) - 1).min(u64::MAX as u128) as u64;
    }
    last[MAX_CODE_LEN as usize + 1] = u64::MAX;
    let mut short_len = [0u8; 256];
    for (byte, len) in short_len.iter_mut().enumerate() {
        // The lowest window starting with `byte`: lengths whose last
        // code it is past cannot be its length.
        let low = (byte as u64) << 56;
        let mut l = min_len as usize;
        while l <= MAX_CODE_LEN as usize && low > last[l] {
            l += 1;
        }
        *len = l.min(MAX_CODE_LEN as usize + 1) as u8;
    }
    (last, short_len)
}

impl Decoder {
    /// Builds the decoder, or says why the dictionary or code lengths are
    /// not usable.
    pub fn new(symbols: &[Symbol], lens: &[u8]) -> Result<Decoder, CodeError> {
        if lens.len() != symbols.len() || symbols.len() > MAX_SYMBOLS {
            return Err(CodeError::LengthCount {
                symbols: symbols.len(),
                lengths: lens.len(),
            });
        }
        if let Some(&length) = lens.iter().find(|&&l| l as u32 > MAX_CODE_LEN) {
            return Err(CodeError::CodeTooLong { length });
        }
        let kraft: u64 = lens
            .iter()
            .filter(|&&l| l > 0)
            .map(|&l| 1u64 << (MAX_CODE_LEN - l as u32))
            .sum();
        if kraft > 1u64 << MAX_CODE_LEN {
            return Err(CodeError::OverFull);
        }
        let lengths = symbol_lengths(symbols)?;
        // Renumber: coded symbols in canonical order first, then the rest.
        let mut order = canonical_order(lens);
        order.extend((0..symbols.len()).filter(|&s| lens[s] == 0));
        let mut new_id = vec![0u32; symbols.len()];
        for (i, &s) in order.iter().enumerate() {
            new_id[s] = i as u32;
        }
        // `symbol_lengths` caps every length at `MAX_SLOTS` (a u32), and
        // symbol ids are below `MAX_SYMBOLS` (4,096: 12 bits).
        let slot_len = SlotLens::new(order.iter().map(|&s| lengths[s] as u32));
        let expansions = short_expansions(symbols);
        let pairs = order
            .iter()
            .map(|&s| {
                let sym = symbols[s];
                expansions[s]
                    .as_deref()
                    .and_then(Node::runs)
                    .unwrap_or_else(|| {
                        // Only pairs have more than one run (or a run too
                        // long for a runs node).
                        Node::pair(
                            new_id[sym.left as usize],
                            new_id[sym.right as usize],
                            lengths[sym.left as usize] as u32,
                        )
                    })
            })
            .collect();
        let classes = symbol_classes(symbols, &order);
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
        let (last, short_len) = code_limits(&count, &first);
        Ok(Decoder {
            last,
            first,
            offset,
            short_len,
            slot_len,
            pairs,
            classes: classes.into(),
        })
    }

    /// The (renumbered) symbol at the front of `window` (the next bits,
    /// left-aligned) and its code length, `None` if the bits are no code.
    #[inline]
    fn symbol(&self, window: u64) -> Option<(usize, u32)> {
        let mut l = self.short_len[(window >> 56) as usize] as usize;
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
        self.walk_from(block, 0, each)
    }

    /// [`Decoder::walk`] from bit `bit` of the block.
    #[inline]
    fn walk_from(&self, block: &[u8], bit: usize, each: impl FnMut(usize) -> bool) -> Option<()> {
        if block.len() >= BLOCK_BYTES + 8 {
            return self.walk_padded(block, bit, each);
        }
        let mut buf = [0u8; BLOCK_BYTES + 8];
        let n = block.len().min(BLOCK_BYTES);
        buf[..n].copy_from_slice(&block[..n]);
        self.walk_padded(&buf, bit, each)
    }

    /// [`Decoder::walk`] over a block followed by at least 8 bytes.
    #[inline]
    fn walk_padded(
        &self,
        buf: &[u8],
        mut bit: usize,
        mut each: impl FnMut(usize) -> bool,
    ) -> Option<()> {
        while bit < PAYLOAD_BITS {
            let at = bit / 8;
            let window =
                u64::from_be_bytes(buf[at..at + 8].try_into().expect("8 bytes")) << (bit % 8);
            let (sym, len) = self.symbol(window)?;
            bit += len as usize;
            if bit > PAYLOAD_BITS || !each(sym) {
                return (bit <= PAYLOAD_BITS).then_some(());
            }
        }
        None
    }

    /// The value (0 draw, 1 win, 2 loss) of `slot` in `block`, whose first
    /// slot is `start` and whose [`Checkpoint`] is `checkpoint` (`block` may
    /// carry 8 more bytes, see `walk`). `None` if the block does not decode
    /// (corrupt data).
    #[inline]
    pub fn value_in_block(
        &self,
        block: &[u8],
        start: u64,
        slot: u64,
        checkpoint: u32,
    ) -> Option<u8> {
        let (bit, skip) = Checkpoint::unpack(checkpoint);
        let (bit, mut pos) = if slot - start >= skip {
            (bit, start + skip)
        } else {
            (0, start)
        };
        let mut found = None;
        self.walk_from(block, bit, |sym| {
            // Which symbol holds the slot is known only once its length
            // is read; its node, read next, would then be one more miss
            // after that one. Asking for every decoded symbol's node
            // overlaps the two (10 % less time per probe over the whole
            // set, alternated runs).
            prefetch(&self.pairs[sym]);
            let next = pos + u64::from(self.slot_len.get(sym));
            if slot < next {
                found = Some(sym);
                return false;
            }
            pos = next;
            true
        })?;
        self.value_in_symbol(found?, (slot - pos) as u32)
    }

    /// The value at `off` slots into symbol `sym`: down its pair tree to
    /// the node holding the slot's run.
    #[inline]
    fn value_in_symbol(&self, mut sym: usize, mut off: u32) -> Option<u8> {
        loop {
            let node = self.pairs[sym];
            if node.is_runs() {
                return Some(node.value_at(off));
            }
            let (left, right, n) = node.halves();
            if off < n {
                sym = left;
            } else {
                off -= n;
                sym = right;
            }
        }
    }

    /// For a distance probe: the value of `slot` (as
    /// [`Decoder::value_in_block`]) and how many slots of `from..slot` are
    /// wins and how many losses (`start ≤ from ≤ slot`), in one walk from
    /// the block's start. `None` if the block does not decode or the
    /// arguments are out of order.
    pub fn value_and_counts(
        &self,
        block: &[u8],
        start: u64,
        slot: u64,
        from: u64,
    ) -> Option<(u8, [u64; 2])> {
        if from < start || slot < from {
            return None;
        }
        let (mut pos, mut counts, mut found, mut ok) = (start, [0u64; 2], None, true);
        let mut add = |c: [u64; 2], sub: [u64; 2]| {
            counts[0] += c[0] - sub[0];
            counts[1] += c[1] - sub[1];
        };
        self.walk(block, |sym| {
            prefetch(&self.pairs[sym]);
            let len = u64::from(self.slot_len.get(sym));
            let next = pos + len;
            if slot < next {
                found = Some(sym);
                return false;
            }
            if pos >= from {
                let c = self.classes[sym];
                add([u64::from(c[0]), u64::from(c[1])], [0, 0]);
            } else if next > from {
                match (
                    self.prefix_counts(sym, len),
                    self.prefix_counts(sym, from - pos),
                ) {
                    (Some(hi), Some(lo)) => add(hi, lo),
                    _ => ok = false,
                }
            }
            pos = next;
            ok
        })?;
        let sym = found?;
        let lo = self.prefix_counts(sym, from.max(pos) - pos)?;
        let hi = self.prefix_counts(sym, slot - pos)?;
        add(hi, lo);
        let value = self.value_in_symbol(sym, (slot - pos) as u32)?;
        ok.then_some((value, counts))
    }

    /// Wins and losses among the first `off` slots of symbol `sym` (at most
    /// its length; `None` past it, which a valid dictionary never asks).
    fn prefix_counts(&self, mut sym: usize, mut off: u64) -> Option<[u64; 2]> {
        let mut counts = [0u64; 2];
        let mut add = |value: u8, n: u64| {
            if value == 1 || value == 2 {
                counts[value as usize - 1] += n;
            }
        };
        // A tree is at most `MAX_SYMBOLS` deep: the loop ends.
        while off > 0 {
            let node = self.pairs[sym];
            let total = u64::from(self.slot_len.get(sym));
            if off > total {
                return None;
            }
            if node.is_runs() {
                let (l0, l1) = node.explicit_lengths();
                let mut left = off;
                for (k, n) in (0..3).zip([l0, l1, u64::MAX]) {
                    let take = left.min(n);
                    add(node.value(k), take);
                    left -= take;
                }
                break;
            }
            let (l, r, n) = node.halves();
            if off >= u64::from(n) {
                let c = self.classes[l];
                add(1, u64::from(c[0]));
                add(2, u64::from(c[1]));
                off -= u64::from(n);
                sym = r;
            } else {
                sym = l;
            }
        }
        Some(counts)
    }

    /// Appends the values of the `n` slots of `block` to `out`; `None` if
    /// the block does not decode to exactly `n` slots. `stack` is working
    /// space, reused across calls.
    pub fn expand_block(
        &self,
        block: &[u8],
        n: u64,
        out: &mut Vec<u8>,
        stack: &mut Vec<usize>,
    ) -> Option<()> {
        let target = out.len() as u64 + n;
        stack.clear();
        self.walk(block, |sym| {
            stack.push(sym);
            while let Some(s) = stack.pop() {
                let node = self.pairs[s];
                if node.is_runs() {
                    let (l0, l1) = node.explicit_lengths();
                    let total = u64::from(self.slot_len.get(s));
                    let l1 = l1.min(total.saturating_sub(l0));
                    let lens = [l0.min(total), l1, total.saturating_sub(l0 + l1)];
                    for (k, n) in (0..3).zip(lens) {
                        let room = target.saturating_sub(out.len() as u64);
                        out.extend(std::iter::repeat_n(node.value(k), n.min(room) as usize));
                    }
                } else {
                    let (left, right, _) = node.halves();
                    stack.push(right);
                    stack.push(left);
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

    fn base(value: u32, n: u32) -> Symbol {
        Symbol {
            left: BASE | value,
            right: n,
        }
    }

    fn pair(left: u32, right: u32) -> Symbol {
        Symbol { left, right }
    }

    #[test]
    fn runs_nodes_answer_like_their_expansion() {
        for runs in [
            vec![(1u8, 5u64)],
            vec![(0, 1), (2, 1)],
            vec![(2, 3), (0, 7), (1, 2)],
            vec![(0, 1), (1, 1), (2, 1)],
            vec![(1, 1 << 30)],
            vec![(1, 3), (0, (1 << 27) - 1), (2, 4)],
        ] {
            let node = Node::runs(&runs).expect("fits");
            assert!(node.is_runs());
            let mut off = 0u64;
            for &(value, n) in &runs {
                for o in [off, off + n / 2, off + n - 1] {
                    assert_eq!(node.value_at(o as u32), value, "{runs:?} at {o}");
                }
                off += n;
            }
        }
        // Too many runs, or an explicit run too long for 27 bits.
        assert!(Node::runs(&[(0, 1), (1, 1), (0, 1), (1, 1)]).is_none());
        assert!(Node::runs(&[(0, 1 << 27), (1, 1)]).is_none());
        assert!(Node::runs(&[]).is_none());
    }

    #[test]
    fn short_expansions_join_runs_and_stop_at_three() {
        let symbols = [
            base(0, 2), // 0
            base(1, 3), // 1
            base(0, 4), // 2
            pair(0, 1), // 3: 0x2 1x3
            pair(3, 2), // 4: 0x2 1x3 0x4
            pair(4, 1), // 5: four runs
            pair(2, 0), // 6: 0x6, joined
        ];
        let e = short_expansions(&symbols);
        assert_eq!(e[3].as_deref(), Some(&[(0, 2), (1, 3)][..]));
        assert_eq!(e[4].as_deref(), Some(&[(0, 2), (1, 3), (0, 4)][..]));
        assert_eq!(e[5], None);
        assert_eq!(e[6].as_deref(), Some(&[(0, 6)][..]));
        // The decoder mixes both kinds of node and answers every slot.
        let lens = [3u8, 3, 3, 3, 3, 3, 2];
        let d = Decoder::new(&symbols, &lens).expect("valid");
        assert!(d.pairs.iter().any(|n| n.is_runs()));
        assert!(d.pairs.iter().any(|n| !n.is_runs()));
    }
}
