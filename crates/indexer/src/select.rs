//! The square of the `r`-th set bit of a mask: how decoding places each
//! piece after the leading pair (the digit-th square its set leaves free).
//!
//! Decoding a 6-piece slot selects four times, and each select waits for
//! the one before (a piece's free squares depend on where the earlier
//! pieces stand). The portable select below takes three population counts
//! and a table read in a row, so the four of them were most of a decode's
//! latency: 32 ns a 6-piece position. Where the processor has a fast PDEP
//! (BMI2 on Intel since Haswell, AMD since Zen 3) one deposit and one
//! trailing-zero count do it, and a decode takes 17 ns (`expand_cost`,
//! ELTvELT, 2026-12-05; `docs/lab/2026-12-05-cheaper-decoding.md`).
//!
//! The choice is made once, at run time, so one binary runs everywhere:
//! builds stay at x86-64-v2 (`.cargo/config.toml`). AMD processors before
//! Zen 3 report BMI2 but run PDEP in microcode, hundreds of cycles for the
//! masks of decoding, and take the portable path, as does every processor
//! that is neither Intel nor AMD. `JUNGLETB_SELECT=portable` forces the
//! portable path (to compare the two in one binary).

/// The square of the `r`-th set bit (from the least significant) of
/// `mask`, which must have more than `r` bits set.
#[inline]
pub(crate) fn select_bit(mask: u64, r: u32) -> u8 {
    debug_assert!(mask.count_ones() > r);
    #[cfg(target_arch = "x86_64")]
    if pdep_is_fast() {
        // SAFETY: `pdep_is_fast` is true only where the processor has BMI2.
        #[allow(unsafe_code)]
        return unsafe { select_by_pdep(mask, r) };
    }
    select_portable(mask, r)
}

/// True if this processor runs PDEP fast, and the portable path is not
/// asked for; found once.
#[cfg(target_arch = "x86_64")]
#[inline]
fn pdep_is_fast() -> bool {
    static FAST: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FAST.get_or_init(|| {
        let asked_portable = std::env::var_os("JUNGLETB_SELECT").is_some_and(|v| v == "portable");
        !asked_portable && std::arch::is_x86_feature_detected!("bmi2") && fast_pdep_vendor()
    })
}

/// True for the processors whose PDEP takes a few cycles whatever the
/// mask: Intel's, and AMD's from family 0x19 (Zen 3) on.
#[cfg(target_arch = "x86_64")]
fn fast_pdep_vendor() -> bool {
    use std::arch::x86_64::__cpuid;
    let leaf0 = __cpuid(0);
    let mut vendor = [0u8; 12];
    vendor[..4].copy_from_slice(&leaf0.ebx.to_le_bytes());
    vendor[4..8].copy_from_slice(&leaf0.edx.to_le_bytes());
    vendor[8..].copy_from_slice(&leaf0.ecx.to_le_bytes());
    let eax = __cpuid(1).eax;
    let base = (eax >> 8) & 0xF;
    let family = if base == 0xF {
        base + ((eax >> 20) & 0xFF)
    } else {
        base
    };
    match &vendor {
        b"GenuineIntel" => true,
        b"AuthenticAMD" => family >= 0x19,
        _ => false,
    }
}

/// [`select_bit`] by PDEP: the one bit `1 << r` deposited at the `r`-th
/// set bit of `mask`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn select_by_pdep(mask: u64, r: u32) -> u8 {
    std::arch::x86_64::_pdep_u64(1u64 << r, mask).trailing_zeros() as u8
}

/// [`select_bit`] on any processor: halving steps down to a byte, then a
/// table; a handful of operations, no loop over bits. (Branch-free
/// halving, by masks instead of branches, measured slower: 34.2 against
/// 32.3 ns a decode.)
#[inline]
fn select_portable(mask: u64, r: u32) -> u8 {
    let (mut m, mut r, mut base) = (mask, r, 0u32);
    let low = (m as u32).count_ones();
    if r >= low {
        r -= low;
        m >>= 32;
        base += 32;
    }
    let low = (m as u16).count_ones();
    if r >= low {
        r -= low;
        m >>= 16;
        base += 16;
    }
    let low = (m as u8).count_ones();
    if r >= low {
        r -= low;
        m >>= 8;
        base += 8;
    }
    base as u8 + SELECT_IN_BYTE[(m & 0xFF) as usize][r as usize]
}

/// `SELECT_IN_BYTE[b][r]`: the position of the `r`-th set bit of byte `b`.
static SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut bit, mut r) = (0, 0);
        while bit < 8 {
            if b & (1 << bit) != 0 {
                t[b][r] = bit as u8;
                r += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    /// Masks with few and many bits, at both ends, and pseudo-random ones.
    fn masks() -> Vec<u64> {
        let mut masks = vec![
            1u64,
            0x8000_0000_0000_0000,
            0x7FFF_FFFF_FFFF_FFFF,
            u64::MAX,
            0x0123_4567_89AB_CDEF,
            0x0000_0001_0000_0000,
        ];
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Sparse and dense masks alike.
            masks.push(x & x.rotate_left(29));
            masks.push(x | x.rotate_left(11));
        }
        masks.retain(|&m| m != 0);
        masks
    }

    #[test]
    fn the_portable_select_finds_every_set_bit_in_order() {
        for mask in masks() {
            let bits = (0..64u8).filter(|&b| mask & (1 << b) != 0);
            for (r, b) in bits.enumerate() {
                assert_eq!(select_portable(mask, r as u32), b, "{mask:#x} r={r}");
                assert_eq!(select_bit(mask, r as u32), b, "{mask:#x} r={r}");
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_pdep_select_agrees_with_the_portable_one_where_the_processor_has_bmi2() {
        if !std::arch::is_x86_feature_detected!("bmi2") {
            eprintln!("no BMI2 here: the PDEP select is not tried");
            return;
        }
        for mask in masks() {
            for r in 0..mask.count_ones() {
                // SAFETY: BMI2 was detected above.
                #[allow(unsafe_code)]
                let by_pdep = unsafe { select_by_pdep(mask, r) };
                assert_eq!(by_pdep, select_portable(mask, r), "{mask:#x} r={r}");
            }
        }
    }
}
