//! Cells handled a group of words at a time: the levels' scan for the
//! cells of a code and the last pass that turns undecided cells into
//! draws (`levels.rs`).
//!
//! A group's words are loaded one by one (they are atomic) and compared
//! with no branch, 16 one-byte cells at a time by vector instructions on
//! x86-64 (SSE2, which every x86-64 processor has), a cell at a time
//! elsewhere and in two-byte cells (which no material solved so far
//! needs). The scan then visits only the cells that hold the code, from a
//! mask with a bit a cell. A word at a time, the last pass took a branch
//! per cell, mispredicted wherever decided and undecided cells mix, and
//! the scan a branch per word and a loop over every cell of a word that
//! held the code.

use jungletb_format::encoding::{RAW_DRAW, RAW_UNUSED};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Words of a group: a cache line.
pub(crate) const GROUP: usize = 8;

/// The words of `group` (at most [`GROUP`]) loaded one by one, followed
/// by words of 0 (unused cells) up to a whole group.
#[inline(always)]
fn load(group: &[AtomicU64]) -> [u64; GROUP] {
    if let Ok(whole) = <&[AtomicU64; GROUP]>::try_from(group) {
        return whole.each_ref().map(|w| w.load(Relaxed));
    }
    let mut words = [0; GROUP];
    for (w, g) in words.iter_mut().zip(group) {
        *w = g.load(Relaxed);
    }
    words
}

/// Calls `f(k)` for the offset `k` (from the group's first cell) of every
/// cell of `group` (at most [`GROUP`] words of cells of `W` bytes) whose
/// code is `code` (not [`RAW_UNUSED`], 0, which the padding holds), in order.
#[inline(always)]
pub(crate) fn scan_group<const W: usize>(group: &[AtomicU64], code: u16, mut f: impl FnMut(usize)) {
    debug_assert!(code != RAW_UNUSED && (W == 2 || code < 256));
    let mut hits = matches::<W>(&load(group), code);
    while hits != 0 {
        f(hits.trailing_zeros() as usize);
        hits &= hits - 1;
    }
}

/// Turns the cells of `group` (at most [`GROUP`] words of cells of `W`
/// bytes) from code `top` up into draws; the cells used then (not
/// [`RAW_UNUSED`], which lies below `top`).
#[inline(always)]
pub(crate) fn finish_group<const W: usize>(group: &[AtomicU64], top: u16) -> u64 {
    debug_assert!(RAW_UNUSED < top && (W == 2 || top < 256));
    let (words, used) = finish_words::<W>(&load(group), top);
    for (w, word) in group.iter().zip(words) {
        w.store(word, Relaxed);
    }
    used
}

/// A bit a cell of `words` (cells of `W` bytes, the first cell of the
/// first word the lowest bit), set where the cell is `code`.
#[inline(always)]
fn matches<const W: usize>(words: &[u64; GROUP], code: u16) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if W == 1 {
        return sse2::matches(words, code as u8);
    }
    matches_by_cell::<W>(words, code)
}

/// [`finish_group`]'s work on loaded words: the words, and the cells used.
#[inline(always)]
fn finish_words<const W: usize>(words: &[u64; GROUP], top: u16) -> ([u64; GROUP], u64) {
    #[cfg(target_arch = "x86_64")]
    if W == 1 {
        return sse2::finish_words(words, top as u8);
    }
    finish_by_cell::<W>(words, top)
}

/// The cells of `words`, `W` bytes each, with their offsets.
fn cells<const W: usize>(words: &[u64; GROUP]) -> impl Iterator<Item = (usize, u16)> + '_ {
    let lanes = 8 / W;
    let mask = (1u64 << (8 * W)) - 1;
    (0..GROUP * lanes).map(move |k| (k, (words[k / lanes] >> (k % lanes * 8 * W) & mask) as u16))
}

/// [`matches`] a cell at a time.
fn matches_by_cell<const W: usize>(words: &[u64; GROUP], code: u16) -> u64 {
    cells::<W>(words)
        .filter(|&(_, c)| c == code)
        .fold(0, |hits, (k, _)| hits | 1 << k)
}

/// [`finish_words`] a cell at a time.
fn finish_by_cell<const W: usize>(words: &[u64; GROUP], top: u16) -> ([u64; GROUP], u64) {
    let lanes = 8 / W;
    let mut out = [0; GROUP];
    let mut used = 0;
    for (k, c) in cells::<W>(words) {
        let c = if c >= top { RAW_DRAW } else { c };
        used += (c != RAW_UNUSED) as u64;
        out[k / lanes] |= (c as u64) << (k % lanes * 8 * W);
    }
    (out, used)
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    //! The group operations on one-byte cells in SSE2 registers of two
    //! words, 16 cells. Signed compares see unsigned codes through a
    //! flipped top bit.
    use super::{GROUP, RAW_DRAW, RAW_UNUSED};
    use std::arch::x86_64::*;

    /// Words `2k` and `2k + 1` of `words` in one register (the first low).
    #[inline(always)]
    fn pair(words: &[u64; GROUP], k: usize) -> __m128i {
        // SAFETY: SSE2 is part of x86-64; the operation has no other
        // precondition.
        unsafe { _mm_set_epi64x(words[2 * k + 1] as i64, words[2 * k] as i64) }
    }

    #[inline(always)]
    pub(super) fn matches(words: &[u64; GROUP], code: u8) -> u64 {
        let mut hits = 0;
        // SAFETY: SSE2 is part of x86-64; these operations have no other
        // precondition.
        unsafe {
            let code = _mm_set1_epi8(code as i8);
            for k in 0..GROUP / 2 {
                let eq = _mm_cmpeq_epi8(pair(words, k), code);
                hits |= (_mm_movemask_epi8(eq) as u16 as u64) << (16 * k);
            }
        }
        hits
    }

    #[inline(always)]
    pub(super) fn finish_words(words: &[u64; GROUP], top: u8) -> ([u64; GROUP], u64) {
        let mut out = [0; GROUP];
        let mut unused = 0;
        // SAFETY: SSE2 is part of x86-64; these operations have no other
        // precondition.
        unsafe {
            let flip = _mm_set1_epi8(0x80u8 as i8);
            let top = _mm_xor_si128(_mm_set1_epi8(top as i8), flip);
            let draw = _mm_set1_epi8(RAW_DRAW as i8);
            let none = _mm_set1_epi8(RAW_UNUSED as i8);
            for k in 0..GROUP / 2 {
                let v = pair(words, k);
                // All ones in the lanes below `top` (decided, or unused).
                let below = _mm_cmpgt_epi8(top, _mm_xor_si128(v, flip));
                let v = _mm_or_si128(_mm_and_si128(below, v), _mm_andnot_si128(below, draw));
                unused += (_mm_movemask_epi8(_mm_cmpeq_epi8(v, none)) as u32).count_ones();
                out[2 * k] = _mm_cvtsi128_si64(v) as u64;
                out[2 * k + 1] = _mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v)) as u64;
            }
        }
        (out, (GROUP * 8) as u64 - unused as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words of random cells, mostly near `top` and around the codes
    /// looked for, from a fixed seed.
    fn random_groups(seed: u64, count: usize) -> Vec<[u64; GROUP]> {
        let mut x = seed;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        (0..count)
            .map(|_| std::array::from_fn(|_| next() & next() | next() & 0x0303_0303_0303_0303))
            .collect()
    }

    #[test]
    fn vector_scans_find_the_same_cells_as_a_cell_by_cell_scan() {
        for words in random_groups(7, 2000) {
            for code in [1, 2, 3, 5, 0x80, 0xaf, 0xff] {
                assert_eq!(
                    matches::<1>(&words, code),
                    matches_by_cell::<1>(&words, code)
                );
            }
        }
    }

    #[test]
    fn vector_finishing_writes_the_same_cells_and_counts_as_a_cell_by_cell_one() {
        for words in random_groups(11, 2000) {
            for top in [3, 4, 0x80, 0x81, 175, 255] {
                assert_eq!(
                    finish_words::<1>(&words, top),
                    finish_by_cell::<1>(&words, top),
                    "top {top}"
                );
            }
        }
    }

    #[test]
    fn a_short_group_is_read_as_if_unused_cells_followed() {
        let group: Vec<AtomicU64> = [0x0102_0304_0506_0702u64, 0x02]
            .into_iter()
            .map(AtomicU64::new)
            .collect();
        let mut seen = Vec::new();
        scan_group::<1>(&group, 2, |k| seen.push(k));
        assert_eq!(seen, [0, 6, 8]);
        // Cells from 6 up become draws (1); 0 stays unused.
        assert_eq!(finish_group::<1>(&group, 6), 9);
        assert_eq!(group[0].load(Relaxed), 0x0102_0304_0501_0102);
        assert_eq!(group[1].load(Relaxed), 0x02);
    }
}
