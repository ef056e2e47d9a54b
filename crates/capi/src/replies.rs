//! `jtb_probe_replies`: a move's replies counted by their value.

use crate::abi::{JTB_ERR_ARGUMENT, JTB_OK};
use crate::args::{fail, guard, probe_error, tablebase_and, text, At};
use std::ffi::{c_char, c_int};

/// The opponent's replies to a move, counted by their value for the
/// opponent (see the header).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct JtbReplies {
    /// Replies that win for the replying side.
    pub win: u32,
    /// Replies that draw.
    pub draw: u32,
    /// Replies that lose for the replying side.
    pub loss: u32,
}

/// The replies to `mv` (text, `"a3a4"`) in `position`, by their value for
/// the replying side.
///
/// # Safety
/// Pointers are NULL or valid; the texts NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn jtb_probe_replies(
    tb: *const crate::abi::JtbTablebase,
    position: *const c_char,
    mv: *const c_char,
    out: *mut JtbReplies,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        let (tb, pos) = match unsafe { tablebase_and(tb, At::Text(position)) } {
            Ok(v) => v,
            Err(c) => return c,
        };
        // SAFETY: forwarded contract.
        let mv_text = match unsafe { text(mv) } {
            Ok(t) => t,
            Err(c) => return c,
        };
        if out.is_null() {
            return fail(JTB_ERR_ARGUMENT, "NULL out");
        }
        let mv = match pos.parse_move(tb.rules(), mv_text) {
            Ok(m) => m,
            Err(e) => return fail(JTB_ERR_ARGUMENT, format!("{e} ({pos})")),
        };
        match tb.replies(&pos, &mv) {
            Ok(r) => {
                // SAFETY: checked non-NULL.
                unsafe {
                    *out = JtbReplies {
                        win: r.win,
                        draw: r.draw,
                        loss: r.loss,
                    };
                }
                JTB_OK
            }
            Err(e) => probe_error(e),
        }
    })
}
