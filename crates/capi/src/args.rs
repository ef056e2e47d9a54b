//! What every entry point shares: the thread-local last error, the panic
//! guard, and turning C arguments (pointers, text, `jtb_position`) into a
//! tablebase and a position, or into an error code.

use crate::abi::{
    JtbPosition, JtbTablebase, JTB_ERR_ARGUMENT, JTB_ERR_GAME_OVER, JTB_ERR_INTERNAL,
    JTB_ERR_LIMIT, JTB_ERR_MISSING, JTB_ERR_POSITION, JTB_ERR_RULESET, JTB_ERR_TABLE,
};
use jungletb_rules::{Color, Piece, Position, Square, Value, Wdl};
use jungletb_tablebase::{ProbeError, TableError, Tablebase};
use std::cell::RefCell;
use std::ffi::{c_char, c_int, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

thread_local! {
    pub(crate) static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

pub(crate) fn fail(code: c_int, message: impl Into<String>) -> c_int {
    let text = CString::new(message.into().replace('\0', " ")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = text);
    code
}

pub(crate) fn probe_error(e: ProbeError) -> c_int {
    let code = match &e {
        ProbeError::Position(_) => JTB_ERR_POSITION,
        ProbeError::IllegalMove { .. } => JTB_ERR_ARGUMENT,
        ProbeError::Rules(_) | ProbeError::RulesetMismatch { .. } => JTB_ERR_RULESET,
        ProbeError::GameOver(_) => JTB_ERR_GAME_OVER,
        ProbeError::NoTables { .. } | ProbeError::Table(TableError::Missing(_)) => JTB_ERR_MISSING,
        ProbeError::Table(TableError::Limit { .. }) => JTB_ERR_LIMIT,
        ProbeError::Table(_) => JTB_ERR_TABLE,
    };
    fail(code, e.to_string())
}

/// Runs `f`, turning a panic into an error code. Every call starts with an
/// empty last error, so `jtb_last_error` never shows an old message after a
/// success.
pub(crate) fn guard(f: impl FnOnce() -> c_int) -> c_int {
    LAST_ERROR.with(|e| *e.borrow_mut() = CString::default());
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| fail(JTB_ERR_INTERNAL, "internal error"))
}

/// A finished game is one answer whatever ended it: `JTB_ERR_GAME_OVER`;
/// one that cannot have been reached (a piece on the enemy den with its
/// own side to move, both dens entered) is `JTB_ERR_POSITION`, as in
/// `jtb_game_over`.
pub(crate) fn check_not_over(tb: &Tablebase, pos: &Position) -> Result<(), c_int> {
    let board = tb.rules().board();
    let on_den = pos
        .pieces()
        .find(|&(p, s)| board.is_den_of(s, p.color.opponent()));
    let no_pieces = pos.count(Color::White) == 0 || pos.count(Color::Black) == 0;
    if on_den.is_some() || no_pieces {
        pos.validate_reachable(tb.rules())
            .map_err(|e| fail(JTB_ERR_POSITION, e.to_string()))?;
    }
    if let Some((p, s)) = on_den {
        return Err(fail(
            JTB_ERR_GAME_OVER,
            format!(
                "game over: the {} on {s} stands on the enemy den",
                p.animal.name()
            ),
        ));
    }
    if no_pieces {
        return Err(fail(
            JTB_ERR_GAME_OVER,
            "game over: a side has no pieces left",
        ));
    }
    Ok(())
}

/// # Safety
/// `p` is NULL or a NUL-terminated string.
pub(crate) unsafe fn text<'a>(p: *const c_char) -> Result<&'a str, c_int> {
    if p.is_null() {
        return Err(fail(JTB_ERR_ARGUMENT, "NULL string"));
    }
    // SAFETY: non-NULL and NUL-terminated by the caller's contract.
    unsafe { CStr::from_ptr(p) }
        .to_str()
        .map_err(|_| fail(JTB_ERR_ARGUMENT, "string is not UTF-8"))
}

pub(crate) fn parse_position(text: &str) -> Result<Position, c_int> {
    text.parse::<Position>()
        .map_err(|e| fail(JTB_ERR_POSITION, e.to_string()))
}

/// The C code of a WDL value: 1 win, 0 draw, -1 loss.
pub(crate) fn wdl_code(w: Wdl) -> c_int {
    match w {
        Wdl::Win => 1,
        Wdl::Draw => 0,
        Wdl::Loss => -1,
    }
}

pub(crate) fn wdl_of(v: Value) -> (c_int, c_int) {
    match v {
        Value::Win(n) => (1, n as c_int),
        Value::Loss(n) => (-1, n as c_int),
        Value::Draw => (0, 0),
    }
}

/// # Safety
/// `tb` is NULL or valid.
pub(crate) unsafe fn base<'a>(tb: *const JtbTablebase) -> Result<&'a Tablebase, c_int> {
    if tb.is_null() {
        return Err(fail(JTB_ERR_ARGUMENT, "NULL tablebase"));
    }
    // SAFETY: non-NULL and from `jtb_open` by the caller's contract.
    Ok(unsafe { &(*tb).0 })
}

/// A call's position argument: text in the notation of every other call,
/// or a `jtb_position`. Each entry point taking a position has a twin
/// taking the other kind; both run one body with their `At`.
#[derive(Debug, Clone, Copy)]
pub(crate) enum At {
    Text(*const c_char),
    Struct(*const JtbPosition),
}

impl At {
    /// The position (not checked against the rules).
    ///
    /// # Safety
    /// The pointer is NULL or valid (the text NUL-terminated).
    pub(crate) unsafe fn position(self) -> Result<Position, c_int> {
        match self {
            // SAFETY: forwarded contract.
            At::Text(p) => parse_position(unsafe { text(p) }?),
            // SAFETY: forwarded contract.
            At::Struct(p) => unsafe { position_of_struct(p) },
        }
    }
}

/// The tablebase and the position behind a call's first two arguments, a
/// finished game refused ([`check_not_over`]).
///
/// # Safety
/// `tb` is NULL or from `jtb_open`; `at`'s pointer is NULL or valid.
pub(crate) unsafe fn tablebase_and<'a>(
    tb: *const JtbTablebase,
    at: At,
) -> Result<(&'a Tablebase, Position), c_int> {
    // SAFETY: forwarded contract.
    let tb = unsafe { base(tb) }?;
    // SAFETY: forwarded contract.
    let pos = unsafe { at.position() }?;
    check_not_over(tb, &pos)?;
    Ok((tb, pos))
}

/// Runs `f` on the tablebase and position of a call (see
/// [`tablebase_and`]) under [`guard`]: the body of an entry point and its
/// twin.
///
/// # Safety
/// As [`tablebase_and`].
pub(crate) unsafe fn with_position(
    tb: *const JtbTablebase,
    at: At,
    f: impl FnOnce(&Tablebase, Position) -> c_int,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        match unsafe { tablebase_and(tb, at) } {
            Ok((tb, pos)) => f(tb, pos),
            Err(c) => c,
        }
    })
}

/// The position a `jtb_position` describes (not checked against rules).
///
/// # Safety
/// `pos` is NULL or valid.
unsafe fn position_of_struct(pos: *const JtbPosition) -> Result<Position, c_int> {
    if pos.is_null() {
        return Err(fail(JTB_ERR_ARGUMENT, "NULL position"));
    }
    // SAFETY: non-NULL, valid by contract.
    let raw = unsafe { &*pos };
    let side = match raw.side_to_move {
        0 => Color::White,
        1 => Color::Black,
        s => {
            return Err(fail(
                JTB_ERR_POSITION,
                format!("side_to_move must be 0 or 1, got {s}"),
            ))
        }
    };
    let mut pieces = Vec::new();
    for (code, &s) in raw.squares.iter().enumerate() {
        if s == jungletb_rules::NO_SQUARE {
            continue;
        }
        match Square::from_index(s as usize) {
            Some(sq) => pieces.push((Piece::from_code(code), sq)),
            None => {
                return Err(fail(
                    JTB_ERR_POSITION,
                    format!("square {s} is off the board (0..62)"),
                ))
            }
        }
    }
    Position::from_pieces(&pieces, side).map_err(|e| fail(JTB_ERR_POSITION, e.to_string()))
}
