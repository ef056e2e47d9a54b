//! The probes: value, WDL, every move and the line, each of a position
//! given as text and, in its `_position` twin, as a `jtb_position`; each
//! pair runs one body.

use crate::abi::{
    JtbPosition, JtbRootMove, JtbTablebase, JTB_ERR_ARGUMENT, JTB_ERR_BUFFER, JTB_OK,
};
use crate::args::{self, fail, guard, probe_error, wdl_code, wdl_of, with_position, At};
use jungletb_rules::Position;
use jungletb_tablebase::Tablebase;
use std::ffi::{c_char, c_int};

/// Probes the value of a position.
///
/// # Safety
/// Pointers are NULL or valid; `position` is NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn jtb_probe_wdl(
    tb: *const JtbTablebase,
    position: *const c_char,
    wdl: *mut c_int,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { probe_wdl(tb, At::Text(position), wdl) }
}

/// Probes value and distance.
///
/// # Safety
/// Pointers are NULL or valid; `position` is NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn jtb_probe(
    tb: *const JtbTablebase,
    position: *const c_char,
    wdl: *mut c_int,
    plies: *mut c_int,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { probe(tb, At::Text(position), wdl, plies) }
}

/// Fills `*out` with the position written as `text` (the notation of
/// every other call): the way to build a `jtb_position` without numbering
/// pieces by hand.
///
/// # Safety
/// Pointers are NULL or valid; `text` is NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn jtb_position_from_text(
    text: *const c_char,
    out: *mut JtbPosition,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        let text = match unsafe { args::text(text) } {
            Ok(t) => t,
            Err(c) => return c,
        };
        if out.is_null() {
            return fail(JTB_ERR_ARGUMENT, "NULL out");
        }
        let pos = match args::parse_position(text) {
            Ok(p) => p,
            Err(c) => return c,
        };
        let position = JtbPosition {
            squares: pos.raw_squares(),
            side_to_move: pos.side_to_move().index() as u8,
        };
        // SAFETY: non-NULL, valid by contract.
        unsafe { out.write(position) };
        JTB_OK
    })
}

/// Probes a position given as plain data.
///
/// # Safety
/// Pointers are NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn jtb_probe_position(
    tb: *const JtbTablebase,
    pos: *const JtbPosition,
    wdl: *mut c_int,
    plies: *mut c_int,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { probe(tb, At::Struct(pos), wdl, plies) }
}

/// Win, draw or loss of a position given as plain data (search's fast path).
///
/// # Safety
/// Pointers are NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn jtb_probe_wdl_position(
    tb: *const JtbTablebase,
    pos: *const JtbPosition,
    wdl: *mut c_int,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { probe_wdl(tb, At::Struct(pos), wdl) }
}

/// Every legal move with its value, best first.
///
/// # Safety
/// Pointers are NULL or valid; `moves` has room for `capacity` entries.
#[no_mangle]
pub unsafe extern "C" fn jtb_probe_root(
    tb: *const JtbTablebase,
    position: *const c_char,
    moves: *mut JtbRootMove,
    capacity: usize,
    count: *mut usize,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { root(tb, At::Text(position), moves, capacity, count) }
}

/// [`jtb_probe_root`] for a position given as plain data.
///
/// # Safety
/// Pointers are NULL or valid; `moves` has room for `capacity` entries.
#[no_mangle]
pub unsafe extern "C" fn jtb_probe_root_position(
    tb: *const JtbTablebase,
    pos: *const JtbPosition,
    moves: *mut JtbRootMove,
    capacity: usize,
    count: *mut usize,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { root(tb, At::Struct(pos), moves, capacity, count) }
}

/// The body of [`jtb_probe_root`] and [`jtb_probe_root_position`]: writes
/// the root moves; `*count` is the number of legal moves even when the
/// buffer is smaller (then `JTB_ERR_BUFFER`).
///
/// # Safety
/// `moves` has room for `capacity` entries (or is NULL with capacity 0);
/// `count` is NULL or valid.
unsafe fn root(
    tb: *const JtbTablebase,
    at: At,
    moves: *mut JtbRootMove,
    capacity: usize,
    count: *mut usize,
) -> c_int {
    let body = |tb: &Tablebase, pos: Position| {
        if count.is_null() || (moves.is_null() && capacity > 0) {
            return fail(JTB_ERR_ARGUMENT, "NULL buffer");
        }
        let root = match tb.probe_root(&pos) {
            Ok(r) => r,
            Err(e) => return probe_error(e),
        };
        for (i, rm) in root.iter().take(capacity).enumerate() {
            let (w, n) = wdl_of(rm.value);
            let mut t = [0 as c_char; 5];
            for (k, b) in rm.mv.to_string().bytes().take(4).enumerate() {
                t[k] = b as c_char;
            }
            // SAFETY: i < capacity, the caller's buffer size.
            unsafe {
                *moves.add(i) = JtbRootMove {
                    from: rm.mv.from.index() as u8,
                    to: rm.mv.to.index() as u8,
                    wdl: w as i8,
                    plies: n as u16,
                    text: t,
                    capture: rm.mv.captured.is_some() as u8,
                    den: tb.rules().board().is_den(rm.mv.to) as u8,
                };
            }
        }
        // SAFETY: checked non-NULL.
        unsafe { *count = root.len() };
        if root.len() > capacity {
            return fail(
                JTB_ERR_BUFFER,
                format!("{} legal moves, room for {capacity}", root.len()),
            );
        }
        JTB_OK
    };
    // SAFETY: forwarded contract.
    unsafe { with_position(tb, at, body) }
}

/// An optimal line to the end of the game as text.
///
/// # Safety
/// Pointers are NULL or valid; `buffer` has room for `capacity` bytes.
#[no_mangle]
pub unsafe extern "C" fn jtb_probe_line(
    tb: *const JtbTablebase,
    position: *const c_char,
    buffer: *mut c_char,
    capacity: usize,
    needed: *mut usize,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { line(tb, At::Text(position), buffer, capacity, needed) }
}

/// [`jtb_probe_line`] for a position given as plain data.
///
/// # Safety
/// Pointers are NULL or valid; `buffer` has room for `capacity` bytes.
#[no_mangle]
pub unsafe extern "C" fn jtb_probe_line_position(
    tb: *const JtbTablebase,
    pos: *const JtbPosition,
    buffer: *mut c_char,
    capacity: usize,
    needed: *mut usize,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { line(tb, At::Struct(pos), buffer, capacity, needed) }
}

/// The body of [`jtb_probe_line`] and [`jtb_probe_line_position`]: writes
/// the line; `*needed` (if not NULL) is the size it takes, NUL included,
/// also when the buffer is too small (then `JTB_ERR_BUFFER`).
///
/// # Safety
/// `buffer` has room for `capacity` bytes; `needed` is NULL or valid.
unsafe fn line(
    tb: *const JtbTablebase,
    at: At,
    buffer: *mut c_char,
    capacity: usize,
    needed: *mut usize,
) -> c_int {
    let body = |tb: &Tablebase, pos: Position| {
        if buffer.is_null() && capacity > 0 {
            return fail(JTB_ERR_ARGUMENT, "NULL buffer");
        }
        let line = match tb.line(&pos) {
            Ok(l) => l,
            Err(e) => return probe_error(e),
        };
        let joined = line
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ");
        if !needed.is_null() {
            // SAFETY: checked non-NULL.
            unsafe { *needed = joined.len() + 1 };
        }
        if joined.len() + 1 > capacity {
            return fail(
                JTB_ERR_BUFFER,
                format!("buffer of {capacity} bytes; {} needed", joined.len() + 1),
            );
        }
        // SAFETY: joined.len() + 1 <= capacity.
        unsafe {
            std::ptr::copy_nonoverlapping(joined.as_ptr() as *const c_char, buffer, joined.len());
            *buffer.add(joined.len()) = 0;
        }
        JTB_OK
    };
    // SAFETY: forwarded contract.
    unsafe { with_position(tb, at, body) }
}

/// The body of [`jtb_probe`] and [`jtb_probe_position`].
///
/// # Safety
/// As theirs.
unsafe fn probe(tb: *const JtbTablebase, at: At, wdl: *mut c_int, plies: *mut c_int) -> c_int {
    let body = |tb: &Tablebase, pos: Position| {
        if wdl.is_null() {
            return fail(JTB_ERR_ARGUMENT, "NULL wdl");
        }
        match tb.probe(&pos) {
            Ok(v) => {
                let (w, n) = wdl_of(v);
                // SAFETY: checked non-NULL (plies may be NULL).
                unsafe {
                    *wdl = w;
                    if !plies.is_null() {
                        *plies = n;
                    }
                }
                JTB_OK
            }
            Err(e) => probe_error(e),
        }
    };
    // SAFETY: forwarded contract.
    unsafe { with_position(tb, at, body) }
}

/// The body of [`jtb_probe_wdl`] and [`jtb_probe_wdl_position`]: the
/// table's WDL alone, no distance read.
///
/// # Safety
/// As theirs.
unsafe fn probe_wdl(tb: *const JtbTablebase, at: At, wdl: *mut c_int) -> c_int {
    let body = |tb: &Tablebase, pos: Position| {
        if wdl.is_null() {
            return fail(JTB_ERR_ARGUMENT, "NULL wdl");
        }
        match tb.probe_wdl(&pos) {
            Ok(w) => {
                // SAFETY: checked non-NULL.
                unsafe { *wdl = wdl_code(w) };
                JTB_OK
            }
            Err(e) => probe_error(e),
        }
    };
    // SAFETY: forwarded contract.
    unsafe { with_position(tb, at, body) }
}
