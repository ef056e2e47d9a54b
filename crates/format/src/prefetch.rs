//! A cache hint: ask for a value's cache line before it is read, so that
//! the miss overlaps other work instead of stalling when the value is used.

/// Asks for the cache line holding `value`. Only a hint: it never faults
/// and changes no result (nothing on targets other than x86-64).
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint; it never faults, and the address
    // is a valid reference anyway.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(value as *const T as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
