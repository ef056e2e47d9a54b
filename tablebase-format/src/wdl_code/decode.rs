//! Answering probes: canonical Huffman decoding up to the probed slot and
//! a walk down one symbol's pair tree.

use super::{
    canonical_codes, canonical_order, symbol_lengths, Symbol, BASE, BLOCK_BYTES, MAX_CODE_LEN,
    MAX_SYMBOLS, PAYLOAD_BITS,
};

/// A decoder for one stream: canonical Huffman limits and the dictionary,
/// renumbered in canonical order so that a code's position among the codes
/// of its length gives its symbol without a lookup table. Per decoded
/// symbol a probe touches `last` (one cache line) and one `slot_len` entry.
///
/// Probes land in cold tables, so the decoder's arrays are kept small:
/// symbol lengths are `u16` (with an escape for longer ones, see
/// [`SlotLens`]), and a pair-tree node is 8 bytes (two `u16` symbol
/// ids and a `u32`), so that fewer cache lines are missed per probe.
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
    slot_len: SlotLens,
    /// Per (renumbered) symbol, one read per level of descent.
    pairs: Box<[Node]>,
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

/// A pair-tree node: a base symbol (`left = LEAF | value`, `n` = run
/// length) or a pair (`left`, `right`: renumbered symbols; `n` = the left
/// half's length in slots).
#[derive(Debug, Clone, Copy)]
struct Node {
    left: u16,
    right: u16,
    n: u32,
}

/// Marks a base symbol in [`Node::left`] (symbol ids are below 4,096).
const LEAF: u16 = 1 << 15;
const _: () = assert!(MAX_SYMBOLS < LEAF as usize);

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
        // `symbol_lengths` caps every length at `MAX_SLOTS` (a u32), and
        // symbol ids are below `MAX_SYMBOLS` (4,096 < `LEAF`).
        let slot_len = SlotLens::new(order.iter().map(|&s| lengths[s] as u32));
        let pairs = order
            .iter()
            .map(|&s| {
                let sym = symbols[s];
                if sym.left & BASE != 0 {
                    Node {
                        left: LEAF | (sym.left & !BASE) as u16,
                        right: 0,
                        n: sym.right,
                    }
                } else {
                    Node {
                        left: new_id[sym.left as usize] as u16,
                        right: new_id[sym.right as usize] as u16,
                        n: lengths[sym.left as usize] as u32,
                    }
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
    /// slot is `start` (`block` may carry 8 more bytes, see `walk`). `None`
    /// if the block does not decode (corrupt data).
    #[inline]
    pub fn value_in_block(&self, block: &[u8], start: u64, slot: u64) -> Option<u8> {
        let mut pos = start;
        let mut found = None;
        self.walk(block, |sym| {
            let next = pos + u64::from(self.slot_len.get(sym));
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
            let Node { left, right, n } = self.pairs[sym];
            if left & LEAF != 0 {
                return Some((left & !LEAF) as u8);
            }
            if off < n {
                sym = left as usize;
            } else {
                off -= n;
                sym = right as usize;
            }
        }
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
                let Node { left, right, n } = self.pairs[s];
                if left & LEAF != 0 {
                    let room = target.saturating_sub(out.len() as u64);
                    let k = u64::from(n).min(room);
                    out.extend(std::iter::repeat_n((left & !LEAF) as u8, k as usize));
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
