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
//! - **Blocks.** [`BLOCK_BYTES`] bytes each: whole symbols in the first
//!   [`PAYLOAD_BITS`] bits (zero-padded), then a [`CHECK_BYTES`]-byte check
//!   of those bytes and the block's number ([`block_check`]), verified by
//!   every probe: a damaged block is reported, not decoded into a wrong
//!   value. It costs 2 bytes in 64 (about 0.007 bits per position) and no
//!   extra read, the check being in the block's own cache line. `starts[b]` is the first slot of block `b`
//!   (`starts[blocks] = size`).
//! - **Finding the block.** `sparse[j]` is the block holding slot `j << k`,
//!   with `2^k` about four blocks' worth of slots; a probe searches `starts`
//!   from `sparse[j]` (usually a few entries in one cache line).
//! - **Checkpoints.** Beside each block's first slot, the bit and slot
//!   offsets of one symbol in its middle ([`Checkpoint`]): a probe of a
//!   later slot starts decoding there, so it decodes about half as many
//!   symbols.
//! - **A probe** reads one sparse entry, a line of `starts`, one block
//!   (prefetched with the next while the starts are read); from the block's
//!   start or its checkpoint it adds symbol
//!   lengths until it passes its slot and then walks down that symbol's
//!   pair tree (left or right by length) until a node that holds its
//!   symbol's expansion as at most three runs: the value. Nothing is
//!   expanded. (The runs nodes are the decoder's, built at open; the file
//!   stores only the dictionary.)
//!
//! Layout of this module: [`encode`](encode()) builds a stream (runs,
//! Re-Pair, Huffman, blocks; `encode.rs`), [`Decoder`] answers probes
//! (`decode.rs`); the dictionary and code helpers both need are here.

mod decode;
mod encode;
#[cfg(test)]
mod tests;

pub use decode::{Checkpoint, Decoder};
pub use encode::{encode, fill_runs};

/// Bytes per block: one cache line.
pub const BLOCK_BYTES: usize = 64;
/// Bytes of each block's check, at its end.
pub const CHECK_BYTES: usize = 2;
/// Bits of codes a block holds.
pub const PAYLOAD_BITS: usize = (BLOCK_BYTES - CHECK_BYTES) * 8;

/// The check of block number `b` whose first [`BLOCK_BYTES`] `-`
/// [`CHECK_BYTES`] bytes are `payload`: the low 16 bits of the CRC-32 of the
/// payload started from `b` (so that a block copied to another place fails
/// too), little-endian.
pub fn block_check(b: u64, payload: &[u8]) -> [u8; CHECK_BYTES] {
    let mut h = crc32fast::Hasher::new_with_initial(b as u32);
    h.update(payload);
    (h.finalize() as u16).to_le_bytes()
}

/// True if `block` (at least [`BLOCK_BYTES`] bytes), block number `b`,
/// carries its check.
#[inline]
pub fn block_is_intact(b: u64, block: &[u8]) -> bool {
    let payload = BLOCK_BYTES - CHECK_BYTES;
    block.len() >= BLOCK_BYTES && block_check(b, &block[..payload]) == block[payload..BLOCK_BYTES]
}
/// Longest Huffman code.
pub const MAX_CODE_LEN: u32 = 20;
/// Most dictionary symbols of one table.
pub const MAX_SYMBOLS: usize = 4096;
/// A pair is replaced only if it occurs at least this often (a symbol
/// costs 9 bytes of dictionary and code length).
pub const MIN_PAIR_COUNT: u32 = 16;
/// Deepest pair tree Re-Pair may build (see `re_pair`): measured on 8
/// tables of 3 and 4 pieces, no limit 0.2849 bits per position, 10 levels
/// 0.2852, 8 levels 0.2861, 6 levels 0.2908, 4 levels 0.3216.
pub const MAX_DEPTH: u8 = 8;
/// Marks a base symbol in [`Symbol::left`].
pub const BASE: u32 = 1 << 31;

/// Allowed-value masks used by [`fill_runs`]: bit `v` set when value `v`
/// (0 draw, 1 win, 2 loss) may be stored.
pub const ANY: u8 = 0b111;

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
    /// Each block's [`Checkpoint`].
    pub checkpoints: Vec<u32>,
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
            + 4 * (self.starts.len() + self.checkpoints.len() + self.sparse.len())
            + self.data.len()) as u64
    }
}

/// The slot count of a stream too large for this code's 32-bit block index.
pub const MAX_SLOTS: u64 = u32::MAX as u64;

/// Why a stored dictionary or its code lengths cannot be decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeError {
    /// Not one code length per symbol, or more symbols than allowed.
    LengthCount {
        /// Symbols in the dictionary.
        symbols: usize,
        /// Code lengths stored.
        lengths: usize,
    },
    /// A code length above [`MAX_CODE_LEN`].
    CodeTooLong {
        /// The length.
        length: u8,
    },
    /// Code lengths that no prefix code has (Kraft sum above one).
    OverFull,
    /// A base symbol with a bad value or an empty run.
    BadBase {
        /// The symbol's number.
        symbol: usize,
    },
    /// A pair naming itself or a later symbol.
    ForwardPair {
        /// The symbol's number.
        symbol: usize,
    },
    /// A symbol standing for more slots than a table has.
    SymbolTooLong {
        /// The symbol's number.
        symbol: usize,
    },
}

impl std::fmt::Display for CodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CodeError::LengthCount { symbols, lengths } => {
                write!(f, "{symbols} symbols with {lengths} code lengths")
            }
            CodeError::CodeTooLong { length } => {
                write!(f, "code length {length} above {MAX_CODE_LEN}")
            }
            CodeError::OverFull => f.write_str("over-full Huffman code"),
            CodeError::BadBase { symbol } => write!(f, "symbol {symbol}: bad base symbol"),
            CodeError::ForwardPair { symbol } => {
                write!(f, "symbol {symbol}: pair of later symbols")
            }
            CodeError::SymbolTooLong { symbol } => {
                write!(f, "symbol {symbol}: longer than a table")
            }
        }
    }
}

impl std::error::Error for CodeError {}

/// The number of slots each symbol stands for, or why the dictionary is
/// not valid (a pair naming itself or a later symbol, a bad value, an
/// empty run, a length overflow).
pub fn symbol_lengths(symbols: &[Symbol]) -> Result<Vec<u64>, CodeError> {
    let mut len = Vec::with_capacity(symbols.len());
    for (i, s) in symbols.iter().enumerate() {
        let n = if s.left & BASE != 0 {
            if s.left & !BASE > 2 || s.right == 0 {
                return Err(CodeError::BadBase { symbol: i });
            }
            s.right as u64
        } else {
            let (l, r) = (s.left as usize, s.right as usize);
            if l >= i || r >= i {
                return Err(CodeError::ForwardPair { symbol: i });
            }
            len[l] + len[r]
        };
        if n > MAX_SLOTS {
            return Err(CodeError::SymbolTooLong { symbol: i });
        }
        len.push(n);
    }
    Ok(len)
}

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
