//! The WDL block decoder on its own: any dictionary, code lengths and
//! block bytes. Building the decoder may fail; decoding may give `None`;
//! nothing may panic or loop forever.
#![no_main]
use jungletb_format::wdl_code::{symbol_lengths, Checkpoint, Decoder, Symbol, BLOCK_BYTES};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    // Layout: symbol count, then per symbol 8 bytes (left, right) and one
    // code length, then the block (zero-padded to a block + 8 bytes).
    let n = usize::from(data[0] % 64) + 1;
    let mut rest = &data[1..];
    let mut symbols = Vec::with_capacity(n);
    let mut lens = Vec::with_capacity(n);
    for _ in 0..n {
        if rest.len() < 9 {
            return;
        }
        let left = u32::from_le_bytes(rest[0..4].try_into().unwrap());
        let right = u32::from_le_bytes(rest[4..8].try_into().unwrap());
        symbols.push(Symbol { left, right });
        lens.push(rest[8] % 24);
        rest = &rest[9..];
    }
    let _ = symbol_lengths(&symbols);
    let Ok(decoder) = Decoder::new(&symbols, &lens) else {
        return;
    };
    let mut block = rest.to_vec();
    block.resize(BLOCK_BYTES + 8, 0);
    // Any checkpoint, valid or not (the layout parser refuses those outside
    // their block, but the decoder must not panic on any).
    let checkpoint = rest.get(..4).map_or(Checkpoint::NONE, |b| {
        u32::from_le_bytes(b.try_into().unwrap())
    });
    for slot in [0u64, 1, 7, 100, 1000, 100_000] {
        let _ = decoder.value_in_block(&block, 0, slot, Checkpoint::NONE);
        let _ = decoder.value_in_block(&block, 0, slot, checkpoint);
    }
    for (from, to) in [(0u64, 1u64), (3, 700), (100, 100_000), (0, u64::MAX)] {
        let _ = decoder.value_and_counts(&block, 0, to, from);
    }
    let mut out = Vec::new();
    let mut stack = Vec::new();
    let _ = decoder.expand_block(&block, 4096, &mut out, &mut stack);
});
