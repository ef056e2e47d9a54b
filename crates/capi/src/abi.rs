//! The C types and codes, as `include/jungletb.h` declares them (the
//! header's layout is checked against these by `tests/c_example.rs`).

use jungletb_tablebase::{Backend, Tablebase, TablebaseOptions};
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
pub(crate) const KNOWN_FLAGS: c_uint = JTB_PREFER_COMPRESSED;
/// Most legal moves a position can have (8 pieces, 4 directions each).
pub const JTB_MAX_MOVES: usize = 32;

/// An opened tablebase (opaque to C), with its rule-set label as C text.
pub struct JtbTablebase(pub(crate) Tablebase, pub(crate) std::ffi::CString);

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
