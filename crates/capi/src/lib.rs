//! The C ABI of the jungletb probe library; see `include/jungletb.h`.
//!
//! Every function checks its pointers, never unwinds across the boundary
//! (panics become `JTB_ERR_ARGUMENT`), and reports failures by return code
//! with the message available from `jtb_last_error` on the same thread.

#![warn(missing_docs)]

mod args;
mod coverage;
mod probe;
mod replies;

pub use coverage::{
    jtb_game_over, jtb_game_over_position, jtb_has_table, jtb_has_table_for,
    jtb_has_table_for_position, jtb_max_pieces, jtb_preload, jtb_probe_wdl_many,
};
pub use probe::{
    jtb_position_from_text, jtb_probe, jtb_probe_line, jtb_probe_line_position, jtb_probe_position,
    jtb_probe_root, jtb_probe_root_position, jtb_probe_wdl, jtb_probe_wdl_position,
};
pub use replies::{jtb_probe_replies, JtbReplies};

use args::{fail, guard, probe_error, text, LAST_ERROR};
use jungletb_rules::Ruleset;
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
