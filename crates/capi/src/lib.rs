//! The C ABI of the jungletb probe library; see `include/jungletb.h`.
//!
//! Every function checks its pointers, never unwinds across the boundary
//! (panics become `JTB_ERR_ARGUMENT`), and reports failures by return code
//! with the message available from `jtb_last_error` on the same thread.

#![warn(missing_docs)]

mod args;
mod coverage;
mod replies;

pub use coverage::{
    jtb_game_over, jtb_game_over_position, jtb_has_table, jtb_has_table_for,
    jtb_has_table_for_position, jtb_max_pieces, jtb_preload, jtb_probe_wdl_many,
};
pub use replies::{jtb_probe_replies, JtbReplies};

use args::{
    fail, guard, probe_error, tablebase_and_position, tablebase_and_struct, text, wdl_code, wdl_of,
    LAST_ERROR,
};
use jungletb_rules::{Position, Ruleset};
use jungletb_tablebase::{find_table_dir, table_files, Backend, Tablebase, TablebaseOptions};
use std::ffi::{c_char, c_int, c_uint};

/// Success.
pub const JTB_OK: c_int = 0;
/// A NULL pointer or bad buffer.
pub const JTB_ERR_ARGUMENT: c_int = 1;
/// A malformed or impossible position.
pub const JTB_ERR_POSITION: c_int = 2;
/// The game is over (a piece on the enemy den, or a side without pieces).
pub const JTB_ERR_GAME_OVER: c_int = 3;
/// A table is corrupt, truncated or of another rule set: warn the user.
pub const JTB_ERR_TABLE: c_int = 4;
/// An unknown rule set or option, or options that conflict.
pub const JTB_ERR_RULESET: c_int = 5;
/// The table the position needs is not there: not covered, search instead.
pub const JTB_ERR_MISSING: c_int = 6;
/// The output buffer is too small (the size needed is reported).
pub const JTB_ERR_BUFFER: c_int = 7;
/// The tablebase's caps on open files and mapped bytes do not let the table
/// open (raise them, or close other tablebases).
pub const JTB_ERR_LIMIT: c_int = 8;
/// A failure inside the library (a bug: please report it).
pub const JTB_ERR_INTERNAL: c_int = 9;
/// Flag of [`jtb_open_with_flags`]: where a material has both a plain and
/// a compressed table, read the compressed one (`prefer_compressed` in
/// Rust).
pub const JTB_PREFER_COMPRESSED: c_uint = 1;
/// Every flag [`jtb_open_with_flags`] knows.
const KNOWN_FLAGS: c_uint = JTB_PREFER_COMPRESSED;
/// Most legal moves a position can have (8 pieces, 4 directions each).
pub const JTB_MAX_MOVES: usize = 32;

/// An opened tablebase (opaque to C), with its rule-set label as C text.
pub struct JtbTablebase(Tablebase, std::ffi::CString);

/// A position as plain data (see the header).
#[repr(C)]
pub struct JtbPosition {
    /// Square of each piece by `color * 8 + animal`, or 255.
    pub squares: [u8; 16],
    /// 0 White, 1 Black.
    pub side_to_move: u8,
}

/// A legal move and its value (see the header).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct JtbRootMove {
    /// From-square.
    pub from: u8,
    /// To-square.
    pub to: u8,
    /// 1 win, 0 draw, -1 loss.
    pub wdl: i8,
    /// Distance in plies (0 for a draw).
    pub plies: u16,
    /// The move as text, NUL-terminated.
    pub text: [c_char; 5],
    /// 1 if the move captures, else 0.
    pub capture: u8,
    /// 1 if the move enters the opponent's den (and so wins), else 0.
    pub den: u8,
}

/// How a tablebase reads its tables and how much it may hold (see the
/// header; mirrors `TablebaseOptions`).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct JtbOptions {
    /// 0 memory maps, 1 positional reads.
    pub backend: c_int,
    /// Most bytes of table files mapped at once.
    pub max_mapped_bytes: u64,
    /// Most table files held open for positional reads.
    pub max_open_files: u64,
    /// Most bytes of decoded distance blocks kept in memory.
    pub max_decoded_bytes: u64,
}

impl From<TablebaseOptions> for JtbOptions {
    fn from(o: TablebaseOptions) -> Self {
        JtbOptions {
            backend: match o.backend {
                Backend::Mmap => 0,
                Backend::Pread => 1,
            },
            max_mapped_bytes: o.max_mapped_bytes,
            max_open_files: o.max_open_files,
            max_decoded_bytes: o.max_decoded_bytes,
        }
    }
}

/// Fills `out` with the default options.
///
/// # Safety
/// `out` is NULL or points to a `jtb_options`.
#[no_mangle]
pub unsafe extern "C" fn jtb_default_options(out: *mut JtbOptions) -> c_int {
    guard(|| {
        if out.is_null() {
            return fail(JTB_ERR_ARGUMENT, "NULL options pointer");
        }
        // SAFETY: non-NULL and, per this function's contract, valid.
        unsafe { out.write(TablebaseOptions::default().into()) };
        JTB_OK
    })
}

/// Opens a tablebase; NULL on error.
///
/// # Safety
/// `dir` and `ruleset` are NULL or NUL-terminated strings.
#[no_mangle]
pub unsafe extern "C" fn jtb_open(dir: *const c_char, ruleset: *const c_char) -> *mut JtbTablebase {
    // SAFETY: per this function's contract.
    unsafe { jtb_open_with(dir, ruleset, std::ptr::null()) }
}

/// Opens a tablebase with options (NULL: the defaults); NULL on error.
///
/// # Safety
/// `dir` and `ruleset` are NULL or NUL-terminated strings; `options` is
/// NULL or points to a `jtb_options`.
#[no_mangle]
pub unsafe extern "C" fn jtb_open_with(
    dir: *const c_char,
    ruleset: *const c_char,
    options: *const JtbOptions,
) -> *mut JtbTablebase {
    // SAFETY: per this function's contract.
    unsafe { jtb_open_with_flags(dir, ruleset, options, 0) }
}

/// [`jtb_open_with`] with flags ([`JTB_PREFER_COMPRESSED`]; 0 for none);
/// NULL on error, an unknown flag included. Options that are not numbers
/// or caps come as flags so that `jtb_options`, whose layout is the ABI,
/// never changes.
///
/// # Safety
/// As [`jtb_open_with`].
#[no_mangle]
pub unsafe extern "C" fn jtb_open_with_flags(
    dir: *const c_char,
    ruleset: *const c_char,
    options: *const JtbOptions,
    flags: c_uint,
) -> *mut JtbTablebase {
    let mut out = std::ptr::null_mut();
    guard(|| {
        if flags & !KNOWN_FLAGS != 0 {
            return fail(
                JTB_ERR_ARGUMENT,
                format!("unknown flags {:#x}", flags & !KNOWN_FLAGS),
            );
        }
        let prefer_compressed = flags & JTB_PREFER_COMPRESSED != 0;
        // SAFETY: per this function's contract.
        let (dir, spec) = match unsafe { (text(dir), text(ruleset)) } {
            (Ok(d), Ok(r)) => (d, r),
            (Err(c), _) | (_, Err(c)) => return c,
        };
        let options = if options.is_null() {
            TablebaseOptions {
                prefer_compressed,
                ..TablebaseOptions::default()
            }
        } else {
            // SAFETY: non-NULL and, per this function's contract, valid.
            let o = unsafe { options.read() };
            let backend = match o.backend {
                0 => Backend::Mmap,
                1 => Backend::Pread,
                b => {
                    return fail(
                        JTB_ERR_ARGUMENT,
                        format!("backend {b}: 0 (memory maps) or 1 (positional reads)"),
                    )
                }
            };
            TablebaseOptions {
                backend,
                max_mapped_bytes: o.max_mapped_bytes,
                max_open_files: o.max_open_files,
                max_decoded_bytes: o.max_decoded_bytes,
                prefer_compressed,
                // C callers only probe; scans are not in the C API.
                ..TablebaseOptions::default()
            }
        };
        let mut parts = spec.split(';');
        let name = parts.next().unwrap_or("").trim();
        let mut rules = match Ruleset::by_name(name) {
            Ok(r) => r,
            // A custom rule set's label, as its directory is named
            // (`popular-custom-96041d…`): its options from a table there.
            Err(e) => match jungletb_tablebase::ruleset_of_label(std::path::Path::new(dir), name) {
                Some(r) => r,
                None => return fail(JTB_ERR_RULESET, e.to_string()),
            },
        };
        for kv in parts.filter(|p| !p.trim().is_empty()) {
            if let Err(e) = rules.apply_override(kv) {
                return fail(JTB_ERR_RULESET, e.to_string());
            }
        }
        if let Err(e) = rules.check_supported() {
            return fail(JTB_ERR_RULESET, e.to_string());
        }
        // A directory without a single table of this rule set covers
        // nothing: say so now rather than at every probe.
        let tables = find_table_dir(std::path::Path::new(dir), &rules);
        if table_files(&tables).map_or(true, |f| f.is_empty()) {
            let found = jungletb_tablebase::ruleset_dirs(std::path::Path::new(dir));
            let listed = if found.is_empty() {
                String::new()
            } else {
                format!("; tables found for: {}", found.join(", "))
            };
            return fail(
                JTB_ERR_MISSING,
                format!(
                    "no tables of rule set '{}' in '{}'{listed}",
                    rules.label(),
                    tables.display()
                ),
            );
        }
        // A directory found under this rule set's name whose tables record
        // other rules: every probe would fail; say why now.
        if let Some(found) = jungletb_tablebase::ruleset_of_dir(&tables) {
            if found.id() != rules.id() {
                return fail(
                    JTB_ERR_RULESET,
                    format!(
                        "the tables in '{}' are of rule set '{}', not '{}'",
                        tables.display(),
                        found.label(),
                        rules.label()
                    ),
                );
            }
        }
        match Tablebase::open_with(dir, rules, options) {
            Ok(tb) => {
                let label = std::ffi::CString::new(tb.rules().label()).unwrap_or_default();
                out = Box::into_raw(Box::new(JtbTablebase(tb, label)));
                JTB_OK
            }
            Err(e) => probe_error(e),
        }
    });
    out
}

/// Frees a tablebase.
///
/// # Safety
/// `tb` is NULL or a pointer from `jtb_open` not closed before.
#[no_mangle]
pub unsafe extern "C" fn jtb_close(tb: *mut JtbTablebase) {
    if !tb.is_null() {
        // SAFETY: allocated by `jtb_open` with `Box::into_raw`.
        drop(unsafe { Box::from_raw(tb) });
    }
}

/// The tables' rule-set label (`standard`, `popular-custom-96041d…`), as
/// their directory is named; NULL for a NULL tablebase. Valid while `tb` is
/// open.
///
/// # Safety
/// `tb` is NULL or a pointer from `jtb_open` not closed before.
#[no_mangle]
pub unsafe extern "C" fn jtb_ruleset_label(tb: *const JtbTablebase) -> *const c_char {
    if tb.is_null() {
        fail(JTB_ERR_ARGUMENT, "NULL tablebase");
        return std::ptr::null();
    }
    // SAFETY: non-NULL and from `jtb_open` by the caller's contract.
    unsafe { (*tb).1.as_ptr() }
}

/// The last error message of this thread.
#[no_mangle]
pub extern "C" fn jtb_last_error() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

fn probe_into(tb: &Tablebase, pos: &Position, wdl: *mut c_int, plies: *mut c_int) -> c_int {
    match tb.probe(pos) {
        Ok(v) => {
            let (w, n) = wdl_of(v);
            // SAFETY: checked non-NULL by the callers (plies may be NULL).
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
}

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
    unsafe { jtb_probe(tb, position, wdl, std::ptr::null_mut()) }
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
    guard(|| {
        // SAFETY: forwarded contract.
        let (tb, pos) = match unsafe { tablebase_and_position(tb, position) } {
            Ok(x) => x,
            Err(c) => return c,
        };
        if wdl.is_null() {
            return fail(JTB_ERR_ARGUMENT, "NULL wdl");
        }
        probe_into(tb, &pos, wdl, plies)
    })
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
    guard(|| {
        // SAFETY: forwarded contract.
        let (tb, pos) = match unsafe { tablebase_and_struct(tb, pos) } {
            Ok(x) => x,
            Err(c) => return c,
        };
        if wdl.is_null() {
            return fail(JTB_ERR_ARGUMENT, "NULL wdl");
        }
        probe_into(tb, &pos, wdl, plies)
    })
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
    guard(|| {
        // SAFETY: forwarded contract.
        let (tb, pos) = match unsafe { tablebase_and_struct(tb, pos) } {
            Ok(x) => x,
            Err(c) => return c,
        };
        if wdl.is_null() {
            return fail(JTB_ERR_ARGUMENT, "NULL wdl");
        }
        match tb.probe_wdl(&pos) {
            Ok(w) => {
                // SAFETY: checked non-NULL.
                unsafe {
                    *wdl = wdl_code(w);
                };
                JTB_OK
            }
            Err(e) => probe_error(e),
        }
    })
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
    guard(|| {
        // SAFETY: forwarded contract.
        match unsafe { tablebase_and_position(tb, position) } {
            // SAFETY: forwarded contract.
            Ok((tb, pos)) => unsafe { root_into(tb, &pos, moves, capacity, count) },
            Err(c) => c,
        }
    })
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
    guard(|| {
        // SAFETY: forwarded contract.
        match unsafe { tablebase_and_struct(tb, pos) } {
            // SAFETY: forwarded contract.
            Ok((tb, pos)) => unsafe { root_into(tb, &pos, moves, capacity, count) },
            Err(c) => c,
        }
    })
}

/// Writes the root moves of `pos`; `*count` is the number of legal moves
/// even when the buffer is smaller (then `JTB_ERR_BUFFER`).
///
/// # Safety
/// `moves` has room for `capacity` entries (or is NULL with capacity 0);
/// `count` is NULL or valid.
unsafe fn root_into(
    tb: &Tablebase,
    pos: &Position,
    moves: *mut JtbRootMove,
    capacity: usize,
    count: *mut usize,
) -> c_int {
    if count.is_null() || (moves.is_null() && capacity > 0) {
        return fail(JTB_ERR_ARGUMENT, "NULL buffer");
    }
    let root = match tb.probe_root(pos) {
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
    guard(|| {
        // SAFETY: forwarded contract.
        match unsafe { tablebase_and_position(tb, position) } {
            // SAFETY: forwarded contract.
            Ok((tb, pos)) => unsafe { line_into(tb, &pos, buffer, capacity, needed) },
            Err(c) => c,
        }
    })
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
    guard(|| {
        // SAFETY: forwarded contract.
        match unsafe { tablebase_and_struct(tb, pos) } {
            // SAFETY: forwarded contract.
            Ok((tb, pos)) => unsafe { line_into(tb, &pos, buffer, capacity, needed) },
            Err(c) => c,
        }
    })
}

/// Writes the line of `pos`; `*needed` (if not NULL) is the size it takes,
/// NUL included, also when the buffer is too small (then `JTB_ERR_BUFFER`).
///
/// # Safety
/// `buffer` has room for `capacity` bytes; `needed` is NULL or valid.
unsafe fn line_into(
    tb: &Tablebase,
    pos: &Position,
    buffer: *mut c_char,
    capacity: usize,
    needed: *mut usize,
) -> c_int {
    if buffer.is_null() && capacity > 0 {
        return fail(JTB_ERR_ARGUMENT, "NULL buffer");
    }
    let line = match tb.line(pos) {
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
}

/// The library's version, e.g. "0.3.0-dev" (a development version, whose
/// tables may change before the release).
#[no_mangle]
pub extern "C" fn jtb_version() -> *const c_char {
    static VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");
    VERSION.as_ptr() as *const c_char
}

/// The library's version as a number: major × 10000 + minor × 100 + patch
/// (0.3.0 and 0.3.0-dev are 300), for `#if`-free checks at run time.
#[no_mangle]
pub extern "C" fn jtb_version_number() -> c_int {
    let part = |s: &str| s.parse::<c_int>().unwrap_or(0);
    part(env!("CARGO_PKG_VERSION_MAJOR")) * 10000
        + part(env!("CARGO_PKG_VERSION_MINOR")) * 100
        + part(env!("CARGO_PKG_VERSION_PATCH"))
}
