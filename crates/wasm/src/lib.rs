//! The jungletb probe library as a WebAssembly module: the native probe's
//! code (rules, index, table reader, search), built for
//! `wasm32-unknown-unknown`, with a dozen plain exports that the
//! JavaScript package (`js/`) calls.
//!
//! Build: `cargo build --release --target wasm32-unknown-unknown -p
//! jungletb-wasm` (or `js/build.sh`, which also copies the module into the
//! package).
//!
//! # Why plain exports, not wasm-bindgen
//!
//! The module never waits: a probe that needs bytes not fetched yet
//! returns the ranges to fetch
//! ([`jungletb_tablebase::remote::RemoteTables`]), and JavaScript fetches
//! them (with `fetch` and `Range` in a browser, `fs` in
//! Node) and asks again. So nothing asynchronous crosses the boundary
//! (where `wasm-bindgen-futures` would earn its keep), and what does cross
//! is strings and bytes: JSON texts in the HTTP API's types out, position
//! texts and table bytes in. A dozen exports over one memory are less than
//! wasm-bindgen's generated glue, need no second tool whose version must
//! match the crate's (`wasm-bindgen-cli`), and build with cargo alone.
//!
//! # The exports
//!
//! Memory: `jtb_alloc(len) -> ptr`, `jtb_dealloc(ptr, len)`; every call
//! leaves its reply in one buffer, read with `jtb_reply_ptr()` and
//! `jtb_reply_len()` (valid until the next call).
//!
//! | export | reply |
//! |---|---|
//! | `jtb_open(spec) -> handle` (0: failed) | an error, or `{"label"}`, the rule set's directory name |
//! | `jtb_add(h, material, file, len) -> status` | declares a table |
//! | `jtb_supply(h, material, at, bytes, whole) -> status` | hands in bytes |
//! | `jtb_probe(h, what, position) -> status` | `what` 0: value and moves; 1: WDL; 2: the line to the end; 3: value and moves with their replies |
//! | `jtb_map(h, position, square) -> status` | the piece map, as `/api/{ruleset}/map` |
//! | `jtb_usage(h) -> status` | bytes kept |
//! | `jtb_moves(spec, position) -> status` | legal moves, no tables |
//! | `jtb_close(h)` | |
//!
//! Strings and byte arrays are passed as (pointer, length) pairs; offsets
//! and lengths of files as `f64` (exact below 2^53, and a plain JavaScript
//! number). Status 0: the reply is the answer; 1: `{"fetch": [{"material",
//! "file", "at", "len"}]}`, fetch those and ask again; 2: an error answer
//! `{"error", "kind"}`.

#![warn(missing_docs)]

pub mod session;

use session::{Reply, Session};
use std::cell::RefCell;

thread_local! {
    static SESSIONS: RefCell<Vec<Option<Session>>> = const { RefCell::new(Vec::new()) };
    static REPLY: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

fn set_reply(text: &str) {
    REPLY.with(|r| {
        let mut r = r.borrow_mut();
        r.clear();
        r.extend_from_slice(text.as_bytes());
    });
}

/// Leaves `reply`'s text as the reply (moved in, not copied) and returns
/// its status code.
fn answer(reply: Reply) -> u32 {
    let code = reply.code();
    let text = reply.into_text();
    REPLY.with(|r| *r.borrow_mut() = text.into_bytes());
    code
}

/// The bytes at `ptr`, `len` long (empty for a null pointer).
///
/// # Safety
/// `ptr` must point to `len` readable bytes (from [`jtb_alloc`]).
unsafe fn bytes<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if ptr.is_null() || len == 0 {
        &[]
    } else {
        // SAFETY: the caller passes memory it wrote through jtb_alloc.
        unsafe { std::slice::from_raw_parts(ptr, len) }
    }
}

/// The text at `ptr` (invalid UTF-8 replaced).
///
/// # Safety
/// As [`bytes`].
unsafe fn text(ptr: *const u8, len: usize) -> String {
    // SAFETY: as the caller's.
    String::from_utf8_lossy(unsafe { bytes(ptr, len) }).into_owned()
}

fn with_session(h: u32, f: impl FnOnce(&Session) -> Reply) -> u32 {
    SESSIONS.with(|s| {
        let sessions = s.borrow();
        match sessions
            .get(h.wrapping_sub(1) as usize)
            .and_then(Option::as_ref)
        {
            Some(session) => answer(f(session)),
            None => {
                set_reply(r#"{"error":"no such tablebase (closed?)","kind":"internal"}"#);
                2
            }
        }
    })
}

/// A file offset or length passed as a JavaScript number.
fn as_u64(x: f64) -> u64 {
    if x.is_finite() && x >= 0.0 {
        x as u64
    } else {
        u64::MAX
    }
}

/// Allocates `len` bytes for JavaScript to write into.
#[no_mangle]
pub extern "C" fn jtb_alloc(len: usize) -> *mut u8 {
    let mut v = vec![0u8; len.max(1)];
    let p = v.as_mut_ptr();
    std::mem::forget(v);
    p
}

/// Frees what [`jtb_alloc`] gave.
///
/// # Safety
/// `ptr` and `len` as [`jtb_alloc`] gave and took them, freed once.
#[no_mangle]
pub unsafe extern "C" fn jtb_dealloc(ptr: *mut u8, len: usize) {
    if !ptr.is_null() {
        // SAFETY: allocated by jtb_alloc as a Vec of this capacity.
        drop(unsafe { Vec::from_raw_parts(ptr, len.max(1), len.max(1)) });
    }
}

/// The last reply's bytes.
#[no_mangle]
pub extern "C" fn jtb_reply_ptr() -> *const u8 {
    REPLY.with(|r| r.borrow().as_ptr())
}

/// The last reply's length.
#[no_mangle]
pub extern "C" fn jtb_reply_len() -> usize {
    REPLY.with(|r| r.borrow().len())
}

/// Opens a tablebase (see [`session::Spec`]): its handle, or 0 with an
/// error reply.
///
/// # Safety
/// The text as [`bytes`] requires.
#[no_mangle]
pub unsafe extern "C" fn jtb_open(spec: *const u8, spec_len: usize) -> u32 {
    // SAFETY: as the caller's.
    let spec = unsafe { text(spec, spec_len) };
    match Session::open(&spec) {
        Ok(session) => SESSIONS.with(|s| {
            let mut s = s.borrow_mut();
            set_reply(&session.describe());
            s.push(Some(session));
            s.len() as u32
        }),
        Err(reply) => {
            answer(reply);
            0
        }
    }
}

/// Closes a tablebase.
#[no_mangle]
pub extern "C" fn jtb_close(h: u32) {
    SESSIONS.with(|s| {
        if let Some(slot) = s.borrow_mut().get_mut(h.wrapping_sub(1) as usize) {
            *slot = None;
        }
    });
}

/// Declares a table: `material` (`ELvR`) is the file `file`, `len` bytes.
///
/// # Safety
/// The texts as [`bytes`] requires.
#[no_mangle]
pub unsafe extern "C" fn jtb_add(
    h: u32,
    material: *const u8,
    material_len: usize,
    file: *const u8,
    file_len: usize,
    len: f64,
) -> u32 {
    // SAFETY: as the caller's.
    let (material, file) = unsafe { (text(material, material_len), text(file, file_len)) };
    with_session(h, |s| s.add(&material, &file, as_u64(len)))
}

/// Hands in `data` from byte `at` of `material`'s table (`whole` non-zero:
/// the whole file).
///
/// # Safety
/// The text and bytes as [`bytes`] requires.
#[no_mangle]
pub unsafe extern "C" fn jtb_supply(
    h: u32,
    material: *const u8,
    material_len: usize,
    at: f64,
    data: *const u8,
    data_len: usize,
    whole: u32,
) -> u32 {
    // SAFETY: as the caller's.
    let (material, data) = unsafe { (text(material, material_len), bytes(data, data_len)) };
    with_session(h, |s| s.supply(&material, as_u64(at), data, whole != 0))
}

/// Probes a position: `what` 0 for the value and every move, 1 for the WDL
/// value, 2 for the line to the end, 3 for the value and every move with
/// its replies counted by value.
///
/// # Safety
/// The text as [`bytes`] requires.
#[no_mangle]
pub unsafe extern "C" fn jtb_probe(h: u32, what: u32, position: *const u8, len: usize) -> u32 {
    // SAFETY: as the caller's.
    let position = unsafe { text(position, len) };
    with_session(h, |s| match what {
        0 => s.probe(&position),
        1 => s.probe_wdl(&position),
        3 => s.probe_replies(&position),
        _ => s.mainline(&position),
    })
}

/// The map of the piece on `square` in `position` (as the HTTP API's).
///
/// # Safety
/// The texts as [`bytes`] requires.
#[no_mangle]
pub unsafe extern "C" fn jtb_map(
    h: u32,
    position: *const u8,
    position_len: usize,
    square: *const u8,
    square_len: usize,
) -> u32 {
    // SAFETY: as the caller's.
    let (position, square) = unsafe { (text(position, position_len), text(square, square_len)) };
    with_session(h, |s| s.map(&position, &square))
}

/// What the tablebase keeps of the fetched tables.
#[no_mangle]
pub extern "C" fn jtb_usage(h: u32) -> u32 {
    with_session(h, Session::usage)
}

/// A position's legal moves under a spec's rules (no tables).
///
/// # Safety
/// The texts as [`bytes`] requires.
#[no_mangle]
pub unsafe extern "C" fn jtb_moves(
    spec: *const u8,
    spec_len: usize,
    position: *const u8,
    position_len: usize,
) -> u32 {
    // SAFETY: as the caller's.
    let (spec, position) = unsafe { (text(spec, spec_len), text(position, position_len)) };
    answer(session::legal_moves(&spec, &position))
}
