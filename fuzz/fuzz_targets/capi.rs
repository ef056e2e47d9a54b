//! The C API's text entry points with arbitrary bytes as C strings
//! (positions, moves, materials, rule-set names): errors are reported
//! through return codes and `jtb_last_error`, never a crash.
#![no_main]
use jungletb_c::*;
use libfuzzer_sys::fuzz_target;
use std::ffi::CString;
use std::sync::OnceLock;

struct Handle(*mut JtbTablebase);
// SAFETY: the C API's tablebase handle is documented as thread-safe.
unsafe impl Send for Handle {}
unsafe impl Sync for Handle {}

fn handle() -> &'static Handle {
    static TB: OnceLock<Handle> = OnceLock::new();
    TB.get_or_init(|| {
        let dir = CString::new(jungletb_fuzz::fixture().to_str().unwrap()).unwrap();
        let name = CString::new("standard").unwrap();
        // SAFETY: both arguments are valid C strings.
        Handle(unsafe { jtb_open(dir.as_ptr(), name.as_ptr()) })
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, bytes)) = data.split_first() else {
        return;
    };
    let tb = handle().0;
    assert!(!tb.is_null());
    // The plain-data form: the first 17 bytes as squares and side.
    let mut raw = JtbPosition {
        squares: [255; 16],
        side_to_move: 0,
    };
    for (k, b) in bytes.iter().take(16).enumerate() {
        raw.squares[k] = *b;
    }
    raw.side_to_move = bytes.get(16).copied().unwrap_or(0);
    let Ok(c) = CString::new(bytes) else {
        return;
    };
    let (mut wdl, mut plies, mut count, mut needed) = (0, 0, 0usize, 0usize);
    let mut moves: Vec<JtbRootMove> = Vec::with_capacity(32);
    let mut line = vec![0 as std::ffi::c_char; 256];
    // SAFETY: `tb` is a live handle, `c` a valid C string, out-pointers
    // point to live locals with the capacities passed.
    unsafe {
        match pick % 8 {
            0 => drop(jtb_probe(tb, c.as_ptr(), &mut wdl, &mut plies)),
            1 => drop(jtb_probe_wdl(tb, c.as_ptr(), &mut wdl)),
            2 => drop(jtb_probe_root(
                tb,
                c.as_ptr(),
                moves.as_mut_ptr(),
                32,
                &mut count,
            )),
            3 => drop(jtb_probe_line(
                tb,
                c.as_ptr(),
                line.as_mut_ptr(),
                line.len(),
                &mut needed,
            )),
            4 => drop(jtb_has_table(tb, c.as_ptr())),
            5 => {
                let other = jtb_open(c.as_ptr(), c.as_ptr());
                if !other.is_null() {
                    jtb_close(other);
                }
            }
            6 => drop(jtb_probe_position(tb, &raw, &mut wdl, &mut plies)),
            _ => drop(jtb_probe_root_position(
                tb,
                &raw,
                moves.as_mut_ptr(),
                32,
                &mut count,
            )),
        }
        let _ = jtb_last_error();
    }
});
