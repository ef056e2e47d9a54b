//! What an open tablebase covers, opening its tables ahead of time, and a
//! batch probe.

use crate::abi::{JtbPosition, JtbTablebase, JTB_ERR_ARGUMENT, JTB_OK};
use crate::args::{base, fail, guard, tablebase_and, text, wdl_code, At};
use jungletb_indexer::Material;
use jungletb_rules::{Color, NoMoveRule};
use jungletb_tablebase::Tablebase;
use std::ffi::{c_char, c_int};

/// 1 if the table of `material` (e.g. "ELvR", either colour order) is
/// present, 0 if not (or on a bad argument: see `jtb_last_error`).
///
/// # Safety
/// `tb` is NULL or from `jtb_open`; `material` is NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn jtb_has_table(tb: *const JtbTablebase, material: *const c_char) -> c_int {
    let mut present = 0;
    guard(|| {
        // SAFETY: forwarded contract.
        let (tb, name) = match unsafe { (base(tb), text(material)) } {
            (Ok(t), Ok(n)) => (t, n),
            (Err(c), _) | (_, Err(c)) => return c,
        };
        let m = match name.parse::<Material>() {
            Ok(m) => m.canonical().0,
            Err(e) => return fail(JTB_ERR_ARGUMENT, e.to_string()),
        };
        present = covered(tb, m) as c_int;
        JTB_OK
    });
    present
}

/// The largest N such that every table of up to N pieces is present (0 if
/// not even every 2-piece table is).
///
/// # Safety
/// `tb` is NULL or from `jtb_open`.
#[no_mangle]
pub unsafe extern "C" fn jtb_max_pieces(tb: *const JtbTablebase) -> c_int {
    let mut n = 0;
    guard(|| {
        // SAFETY: forwarded contract.
        let tb = match unsafe { base(tb) } {
            Ok(t) => t,
            Err(c) => return c,
        };
        n = tb.coverage().complete as c_int;
        JTB_OK
    });
    n
}

/// True if a (plain or compressed) table file of canonical `m` exists.
fn covered(tb: &Tablebase, m: Material) -> bool {
    jungletb_tablebase::table_path(tb.dir(), m).exists()
        || jungletb_tablebase::compressed_table_path(tb.dir(), m).exists()
}

/// 1 if the table a probe of `position` (position text) reads is present,
/// 0 if not (a finished game, which needs no table, is 1; 0 too on a bad
/// argument: see `jtb_last_error`).
///
/// # Safety
/// `tb` is NULL or from `jtb_open`; `position` is NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn jtb_has_table_for(
    tb: *const JtbTablebase,
    position: *const c_char,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { has_table_for(tb, At::Text(position)) }
}

/// [`jtb_has_table_for`] of a position given as plain data (no text to
/// format at an engine's root).
///
/// # Safety
/// `tb` is NULL or from `jtb_open`; `pos` is NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn jtb_has_table_for_position(
    tb: *const JtbTablebase,
    pos: *const JtbPosition,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { has_table_for(tb, At::Struct(pos)) }
}

/// The body of [`jtb_has_table_for`] and [`jtb_has_table_for_position`].
///
/// # Safety
/// As theirs.
unsafe fn has_table_for(tb: *const JtbTablebase, at: At) -> c_int {
    let mut present = 0;
    guard(|| {
        // SAFETY: forwarded contract.
        let (tb, pos) = match unsafe { (base(tb), at.position()) } {
            (Ok(t), Ok(p)) => (t, p),
            (Err(c), _) | (_, Err(c)) => return c,
        };
        present = match Material::of_position(&pos) {
            None => 1,
            Some(m) => covered(tb, m.canonical().0) as c_int,
        };
        JTB_OK
    });
    present
}

/// Opens (and checksums) every table present of up to `max_pieces` pieces
/// now, so that no probe pays for opening a table in the middle of a
/// search. Returns the number of tables open (≥ 0), or a negative error
/// code (−JTB_ERR_TABLE for a damaged table, −JTB_ERR_ARGUMENT …).
///
/// # Safety
/// `tb` is NULL or from `jtb_open`.
#[no_mangle]
pub unsafe extern "C" fn jtb_preload(tb: *const JtbTablebase, max_pieces: c_int) -> c_int {
    let mut opened = 0;
    let code = guard(|| {
        // SAFETY: forwarded contract.
        let tb = match unsafe { base(tb) } {
            Ok(t) => t,
            Err(c) => return c,
        };
        if !(2..=16).contains(&max_pieces) {
            return fail(
                JTB_ERR_ARGUMENT,
                format!("max_pieces {max_pieces}: 2 to 16"),
            );
        }
        match tb.preload(max_pieces as u32) {
            Ok(n) => {
                opened = n as c_int;
                JTB_OK
            }
            Err(e) => crate::args::probe_error(e),
        }
    });
    if code == JTB_OK {
        opened
    } else {
        -code
    }
}

/// Probes win, draw or loss of `n` positions given as plain data, one call
/// for the batch: `wdl[i]` gets position i's value (as `jtb_probe_wdl`'s)
/// where `codes[i]` (if `codes` is not NULL) gets its return code; the
/// call returns JTB_OK if every position was answered, else the first
/// failing position's code (`jtb_last_error` says why).
///
/// # Safety
/// `positions` points to `n` positions, `wdl` (and `codes`, unless NULL) to
/// room for `n` ints.
#[no_mangle]
pub unsafe extern "C" fn jtb_probe_wdl_many(
    tb: *const JtbTablebase,
    positions: *const JtbPosition,
    n: usize,
    wdl: *mut c_int,
    codes: *mut c_int,
) -> c_int {
    guard(|| {
        if n > 0 && (positions.is_null() || wdl.is_null()) {
            return fail(JTB_ERR_ARGUMENT, "NULL positions or wdl");
        }
        let mut first = JTB_OK;
        for i in 0..n {
            // SAFETY: i < n, within the arrays by contract.
            let code = match unsafe { tablebase_and(tb, At::Struct(positions.add(i))) } {
                Err(c) => c,
                Ok((tb, pos)) => match tb.probe_wdl(&pos) {
                    Ok(w) => {
                        // SAFETY: i < n by contract.
                        unsafe { *wdl.add(i) = wdl_code(w) };
                        JTB_OK
                    }
                    Err(e) => crate::args::probe_error(e),
                },
            };
            if !codes.is_null() {
                // SAFETY: i < n by contract.
                unsafe { *codes.add(i) = code };
            }
            if first == JTB_OK {
                first = code;
            }
        }
        first
    })
}

/// Whether the game of `position` (position text) is over, and why:
/// `*reason` 0 (not over), 1 (a piece stands on the enemy den), 2 (a side
/// has no pieces), 3 (the side to move has no legal move); `*winner`
/// JTB_WHITE, JTB_BLACK, or -1 (not over, or a draw under `no_move=draw`).
/// No table is read. JTB_OK, or JTB_ERR_POSITION for an impossible or
/// unreachable position.
///
/// # Safety
/// Pointers are NULL or valid; `position` is NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn jtb_game_over(
    tb: *const JtbTablebase,
    position: *const c_char,
    reason: *mut c_int,
    winner: *mut c_int,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { game_over(tb, At::Text(position), reason, winner) }
}

/// [`jtb_game_over`] of a position given as plain data.
///
/// # Safety
/// Pointers are NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn jtb_game_over_position(
    tb: *const JtbTablebase,
    pos: *const JtbPosition,
    reason: *mut c_int,
    winner: *mut c_int,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { game_over(tb, At::Struct(pos), reason, winner) }
}

/// The body of [`jtb_game_over`] and [`jtb_game_over_position`]: writes
/// why the game is over and who won.
///
/// # Safety
/// `reason` and `winner` are NULL or valid.
unsafe fn game_over(
    tb: *const JtbTablebase,
    at: At,
    reason: *mut c_int,
    winner: *mut c_int,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        let (tb, pos) = match unsafe { (base(tb), at.position()) } {
            (Ok(t), Ok(p)) => (t, p),
            (Err(c), _) | (_, Err(c)) => return c,
        };
        if reason.is_null() || winner.is_null() {
            return fail(JTB_ERR_ARGUMENT, "NULL reason or winner");
        }
        let rules = tb.rules();
        if let Err(e) = pos.validate_reachable(rules) {
            return fail(crate::abi::JTB_ERR_POSITION, e.to_string());
        }
        let board = rules.board();
        let mover = pos.side_to_move();
        let colour = |c: Color| c.index() as c_int;
        let (r, w) = if let Some((p, _)) = pos
            .pieces()
            .find(|&(p, s)| board.is_den_of(s, p.color.opponent()))
        {
            (1, colour(p.color))
        } else if pos.count(mover) == 0 {
            (2, colour(mover.opponent()))
        } else if pos.legal_moves(rules).is_empty() {
            match rules.no_move {
                NoMoveRule::Loss => (3, colour(mover.opponent())),
                NoMoveRule::Draw => (3, -1),
            }
        } else {
            (0, -1)
        };
        // SAFETY: non-NULL, valid by contract.
        unsafe {
            *reason = r;
            *winner = w;
        }
        JTB_OK
    })
}
