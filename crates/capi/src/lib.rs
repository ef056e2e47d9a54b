//! The C ABI of the jungletb probe library; see `include/jungletb.h`.
//!
//! Every function checks its pointers, never unwinds across the boundary
//! (panics become `JTB_ERR_ARGUMENT`), and reports failures by return code
//! with the message available from `jtb_last_error` on the same thread.

#![warn(missing_docs)]

mod abi;
mod args;
mod coverage;
mod probe;
mod replies;

pub use abi::{
    JtbOptions, JtbPosition, JtbRootMove, JtbTablebase, JTB_ERR_ARGUMENT, JTB_ERR_BUFFER,
    JTB_ERR_GAME_OVER, JTB_ERR_INTERNAL, JTB_ERR_LIMIT, JTB_ERR_MISSING, JTB_ERR_POSITION,
    JTB_ERR_RULESET, JTB_ERR_TABLE, JTB_MAX_MOVES, JTB_OK, JTB_PREFER_COMPRESSED,
};
pub use coverage::{
    jtb_game_over, jtb_game_over_position, jtb_has_table, jtb_has_table_for,
    jtb_has_table_for_position, jtb_max_pieces, jtb_preload, jtb_probe_wdl_many,
};
pub use probe::{
    jtb_position_from_text, jtb_probe, jtb_probe_line, jtb_probe_line_position, jtb_probe_position,
    jtb_probe_root, jtb_probe_root_position, jtb_probe_wdl, jtb_probe_wdl_position,
};
pub use replies::{jtb_probe_replies, JtbReplies};

use abi::KNOWN_FLAGS;
use args::{fail, guard, probe_error, text, LAST_ERROR};
use jungletb_rules::Ruleset;
use jungletb_tablebase::{find_table_dir, table_files, Backend, Tablebase, TablebaseOptions};
use std::ffi::{c_char, c_int, c_uint};

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
