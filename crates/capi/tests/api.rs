//! Every entry point of the C API, called as C would call it: answers,
//! codes, NULL arguments, small buffers, finished games, missing against
//! corrupt tables, and the last-error message.

use jungletb_c::*;
use std::ffi::{c_char, c_int, CStr, CString};
use std::str::FromStr;

fn tables() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    generate_into(dir.path(), jungletb_rules::Ruleset::standard());
    dir
}

fn c(s: &str) -> CString {
    CString::new(s).unwrap()
}

fn last_error() -> String {
    unsafe { CStr::from_ptr(jtb_last_error()) }
        .to_string_lossy()
        .into_owned()
}

/// White Elephant a3... as plain data: "7/7/7/7/7/7/2E4/7/6r b" is White
/// Elephant c3, Black Rat g1, Black to move (a win in 5 for Black).
fn struct_position() -> JtbPosition {
    let mut squares = [255u8; 16];
    squares[7] = 2 * 7 + 2; // White Elephant (animal 7) on c3
    squares[8] = 6; // Black Rat (8 + 0) on g1
    JtbPosition {
        squares,
        side_to_move: 1,
    }
}

#[test]
fn every_entry_point_answers_and_fails_cleanly() {
    let dir = tables();
    let root = c(dir.path().to_str().unwrap());
    let tb = unsafe { jtb_open(root.as_ptr(), c("standard").as_ptr()) };
    assert!(!tb.is_null(), "{}", last_error());
    let version = unsafe { CStr::from_ptr(jtb_version()) }.to_str().unwrap();
    assert_eq!(version, env!("CARGO_PKG_VERSION"));

    let text = c("7/7/7/7/7/7/2E4/7/6r b");
    let pos = struct_position();
    let (mut wdl, mut plies) = (9 as c_int, 9 as c_int);
    unsafe {
        // Text and struct forms agree.
        assert_eq!(jtb_probe(tb, text.as_ptr(), &mut wdl, &mut plies), JTB_OK);
        assert_eq!((wdl, plies), (1, 5));
        assert_eq!(last_error(), "");
        let (mut w2, mut p2) = (9, 9);
        assert_eq!(jtb_probe_position(tb, &pos, &mut w2, &mut p2), JTB_OK);
        assert_eq!((w2, p2), (1, 5));
        let mut w3 = 9;
        assert_eq!(jtb_probe_wdl(tb, text.as_ptr(), &mut w3), JTB_OK);
        assert_eq!(w3, 1);
        let mut w4 = 9;
        assert_eq!(jtb_probe_wdl_position(tb, &pos, &mut w4), JTB_OK);
        assert_eq!(w4, 1);

        // Root moves: all of them, or JTB_ERR_BUFFER with the total.
        let mut moves = move_buffer();
        let mut count = 0usize;
        assert_eq!(
            jtb_probe_root(
                tb,
                text.as_ptr(),
                moves.as_mut_ptr(),
                JTB_MAX_MOVES,
                &mut count
            ),
            JTB_OK
        );
        assert_eq!(count, 2);
        assert_eq!(
            CStr::from_ptr(moves[0].text.as_ptr()).to_str().unwrap(),
            "g1f1"
        );
        assert_eq!((moves[0].wdl, moves[0].plies), (1, 5));
        let mut count2 = 0usize;
        assert_eq!(
            jtb_probe_root_position(tb, &pos, moves.as_mut_ptr(), 1, &mut count2),
            JTB_ERR_BUFFER
        );
        assert_eq!(count2, 2, "the total, not the capacity");
        assert_eq!(
            jtb_probe_root(tb, text.as_ptr(), std::ptr::null_mut(), 0, &mut count2),
            JTB_ERR_BUFFER
        );

        // The line: the size needed, then the line.
        let mut needed = 0usize;
        assert_eq!(
            jtb_probe_line(tb, text.as_ptr(), std::ptr::null_mut(), 0, &mut needed),
            JTB_ERR_BUFFER
        );
        assert_eq!(needed, "g1f1 c3c2 f1e1 c2c3 e1d1".len() + 1);
        assert!(last_error().contains("needed"));
        let mut buf = vec![0 as c_char; needed];
        assert_eq!(
            jtb_probe_line_position(tb, &pos, buf.as_mut_ptr(), needed, std::ptr::null_mut()),
            JTB_OK
        );
        assert_eq!(
            CStr::from_ptr(buf.as_ptr()).to_str().unwrap(),
            "g1f1 c3c2 f1e1 c2c3 e1d1"
        );
        assert_eq!(last_error(), "", "a success clears the last error");

        // Replies by value: each root move's equal the tally of the
        // position after it, valued by its own root moves.
        let mut total = 0usize;
        for m in &moves[..2] {
            let mv_text = CStr::from_ptr(m.text.as_ptr()).to_owned();
            let mut r = JtbReplies::default();
            assert_eq!(
                jtb_probe_replies(tb, text.as_ptr(), mv_text.as_ptr(), &mut r),
                JTB_OK
            );
            let root = jungletb_rules::Position::from_str("7/7/7/7/7/7/2E4/7/6r b").unwrap();
            let mv = root
                .parse_move(
                    &jungletb_rules::Ruleset::standard(),
                    mv_text.to_str().unwrap(),
                )
                .unwrap();
            let child = root.play(&mv);
            let child_text = c(&child.to_string());
            let mut after = move_buffer();
            let mut n = 0usize;
            assert_eq!(
                jtb_probe_root(
                    tb,
                    child_text.as_ptr(),
                    after.as_mut_ptr(),
                    JTB_MAX_MOVES,
                    &mut n
                ),
                JTB_OK
            );
            let tally = |w: i8| after[..n].iter().filter(|a| a.wdl == w).count() as u32;
            assert_eq!(
                (r.win, r.draw, r.loss),
                (tally(1), tally(0), tally(-1)),
                "{mv_text:?}"
            );
            total += n;
        }
        assert!(total > 0);
        // A move not legal there, a move that is not one, NULLs.
        let mut r = JtbReplies::default();
        assert_eq!(
            jtb_probe_replies(tb, text.as_ptr(), c("a1a2").as_ptr(), &mut r),
            JTB_ERR_ARGUMENT
        );
        assert!(
            last_error().contains("not a legal move"),
            "{}",
            last_error()
        );
        assert_eq!(
            jtb_probe_replies(tb, text.as_ptr(), c("zz").as_ptr(), &mut r),
            JTB_ERR_ARGUMENT
        );
        assert_eq!(
            jtb_probe_replies(tb, text.as_ptr(), c("g1f1").as_ptr(), std::ptr::null_mut()),
            JTB_ERR_ARGUMENT
        );
        assert_eq!(
            jtb_probe_replies(tb, text.as_ptr(), std::ptr::null(), &mut r),
            JTB_ERR_ARGUMENT
        );
        jtb_close(tb);
    }
}

/// Root-move buffers of the largest size a position needs.
fn move_buffer() -> Vec<JtbRootMove> {
    (0..JTB_MAX_MOVES)
        .map(|_| JtbRootMove {
            from: 0,
            to: 0,
            wdl: 0,
            plies: 0,
            text: [0; 5],
            capture: 0,
            den: 0,
        })
        .collect()
}

#[test]
fn null_arguments_and_bad_positions_get_their_codes_never_a_crash() {
    let dir = tables();
    let root = c(dir.path().to_str().unwrap());
    let tb = unsafe { jtb_open(root.as_ptr(), c("standard").as_ptr()) };
    assert!(!tb.is_null(), "{}", last_error());
    let text = c("7/7/7/7/7/7/2E4/7/6r b");
    let (mut wdl, mut plies) = (9 as c_int, 9 as c_int);
    let mut moves = move_buffer();
    unsafe {
        // NULL arguments: JTB_ERR_ARGUMENT, never a crash.
        assert_eq!(
            jtb_probe(std::ptr::null(), text.as_ptr(), &mut wdl, &mut plies),
            JTB_ERR_ARGUMENT
        );
        assert_eq!(
            jtb_probe(tb, std::ptr::null(), &mut wdl, &mut plies),
            JTB_ERR_ARGUMENT
        );
        assert_eq!(
            jtb_probe(tb, text.as_ptr(), std::ptr::null_mut(), &mut plies),
            JTB_ERR_ARGUMENT
        );
        assert_eq!(
            jtb_probe_wdl_position(tb, std::ptr::null(), &mut wdl),
            JTB_ERR_ARGUMENT
        );
        assert_eq!(
            jtb_probe_root(
                tb,
                text.as_ptr(),
                moves.as_mut_ptr(),
                4,
                std::ptr::null_mut()
            ),
            JTB_ERR_ARGUMENT
        );
        assert_eq!(jtb_has_table(std::ptr::null(), c("EvR").as_ptr()), 0);
        assert_eq!(jtb_max_pieces(std::ptr::null()), 0);
        assert!(last_error().contains("NULL"));

        // Bad and impossible positions; finished games, one code for both.
        assert_eq!(
            jtb_probe(tb, c("nonsense").as_ptr(), &mut wdl, &mut plies),
            JTB_ERR_POSITION
        );
        assert_eq!(
            jtb_probe(
                tb,
                c("7/7/7/7/7/1E5/7/7/6r w").as_ptr(),
                &mut wdl,
                &mut plies
            ),
            JTB_ERR_POSITION
        );
        assert_eq!(
            jtb_probe(
                tb,
                c("3E3/7/7/7/7/7/7/7/6r b").as_ptr(),
                &mut wdl,
                &mut plies
            ),
            JTB_ERR_GAME_OVER
        );
        assert_eq!(
            jtb_probe(tb, c("7/7/7/7/7/7/7/7/E6 b").as_ptr(), &mut wdl, &mut plies),
            JTB_ERR_GAME_OVER
        );
        let mut bad = struct_position();
        bad.side_to_move = 7;
        assert_eq!(
            jtb_probe_position(tb, &bad, &mut wdl, &mut plies),
            JTB_ERR_POSITION
        );
        bad = struct_position();
        bad.squares[3] = 200;
        assert_eq!(
            jtb_probe_position(tb, &bad, &mut wdl, &mut plies),
            JTB_ERR_POSITION
        );

        // Coverage: every 2-piece table, no 3-piece one.
        assert_eq!(jtb_max_pieces(tb), 2);
        assert_eq!(jtb_has_table(tb, c("EvR").as_ptr()), 1);
        assert_eq!(jtb_has_table(tb, c("RvE").as_ptr()), 1);
        assert_eq!(jtb_has_table(tb, c("ELvR").as_ptr()), 0);
        // A missing table is "not covered"...
        let three = c("7/7/7/7/7/7/2E4/7/5tr b");
        assert_eq!(
            jtb_probe(tb, three.as_ptr(), &mut wdl, &mut plies),
            JTB_ERR_MISSING
        );
        jtb_close(tb);
    }
}

/// A missing table is "not covered" (above); a damaged one is "broken": a
/// different code.
#[test]
fn a_damaged_table_is_broken_not_missing() {
    let dir = tables();
    let root = c(dir.path().to_str().unwrap());
    let (mut wdl, mut plies) = (9 as c_int, 9 as c_int);
    let path = dir.path().join("standard/EvR.jtb");
    let mut bytes = std::fs::read(&path).unwrap();
    let n = bytes.len();
    bytes[n - 10] ^= 0x40;
    std::fs::write(&path, bytes).unwrap();
    let tb = unsafe { jtb_open(root.as_ptr(), c("standard").as_ptr()) };
    assert!(!tb.is_null());
    let pos = c("7/7/7/7/7/7/7/7/Er5 w");
    unsafe {
        assert_eq!(
            jtb_probe(tb, pos.as_ptr(), &mut wdl, &mut plies),
            JTB_ERR_TABLE
        );
        jtb_close(tb);
    }
}

/// Opening: unknown and conflicting options are rule-set errors; a
/// directory with no table of the rule set fails at once.
#[test]
fn opening_with_bad_rules_or_without_tables_fails_at_once() {
    let dir = tables();
    let root = c(dir.path().to_str().unwrap());
    unsafe {
        assert!(jtb_open(root.as_ptr(), c("nosuch").as_ptr()).is_null());
        assert!(jtb_open(root.as_ptr(), c("standard;dog_swims").as_ptr()).is_null());
        assert!(last_error().contains("needs a value"), "{}", last_error());
        let empty = tempfile::tempdir().unwrap();
        let e = c(empty.path().to_str().unwrap());
        assert!(jtb_open(e.as_ptr(), c("standard").as_ptr()).is_null());
        assert!(last_error().contains("no tables"), "{}", last_error());
        assert!(jtb_open(root.as_ptr(), c("leiden").as_ptr()).is_null());
    }
}

#[test]
fn options_choose_the_backend_and_limits() {
    let dir = tables();
    let root = c(dir.path().to_str().unwrap());
    let mut o = JtbOptions {
        backend: 9,
        max_mapped_bytes: 0,
        max_open_files: 0,
        max_decoded_bytes: 9,
    };
    unsafe {
        assert_eq!(jtb_default_options(std::ptr::null_mut()), JTB_ERR_ARGUMENT);
        assert_eq!(jtb_default_options(&mut o), JTB_OK);
    }
    assert_eq!((o.backend, o.max_open_files), (0, 512));
    let text = c("7/7/7/7/7/7/2E4/7/6r b");
    // Positional reads, nothing kept: the same answer as the defaults.
    o.backend = 1;
    o.max_decoded_bytes = 0;
    let (mut wdl, mut plies) = (9 as c_int, 9 as c_int);
    unsafe {
        let tb = jtb_open_with(root.as_ptr(), c("standard").as_ptr(), &o);
        assert!(!tb.is_null(), "{}", last_error());
        assert_eq!(jtb_probe(tb, text.as_ptr(), &mut wdl, &mut plies), JTB_OK);
        assert_eq!((wdl, plies), (1, 5));
        jtb_close(tb);
        // No file may be opened and nothing mapped: a probe is refused.
        o.max_open_files = 0;
        o.max_mapped_bytes = 0;
        let tb = jtb_open_with(root.as_ptr(), c("standard").as_ptr(), &o);
        assert!(!tb.is_null());
        // The caps, not a damaged table: their own code (was JTB_ERR_TABLE).
        assert_eq!(
            jtb_probe(tb, text.as_ptr(), &mut wdl, &mut plies),
            JTB_ERR_LIMIT
        );
        assert!(last_error().contains("limit"), "{}", last_error());
        jtb_close(tb);
        o.backend = 2;
        assert!(jtb_open_with(root.as_ptr(), c("standard").as_ptr(), &o).is_null());
        assert!(last_error().contains("backend"), "{}", last_error());
    }
}

/// `JTB_PREFER_COMPRESSED` reads the `.jtbz` of a pair: a damaged one
/// beside an intact `.jtb` goes unnoticed without the flag and fails with
/// it; unknown flags are refused.
#[test]
fn flags_choose_the_compressed_form() {
    let dir = tables();
    let root = c(dir.path().to_str().unwrap());
    let standard = dir.path().join("standard");
    assert!(standard.join("EvR.jtb").exists());
    std::fs::write(standard.join("EvR.jtbz"), b"not a table").unwrap();
    let text = c("7/7/7/7/7/7/2E4/7/6r b");
    let (mut wdl, mut plies) = (9 as c_int, 9 as c_int);
    unsafe {
        for options in [std::ptr::null(), &{
            let mut o = std::mem::zeroed::<JtbOptions>();
            assert_eq!(jtb_default_options(&mut o), JTB_OK);
            o
        } as *const JtbOptions]
        {
            let tb = jtb_open_with_flags(root.as_ptr(), c("standard").as_ptr(), options, 0);
            assert!(!tb.is_null(), "{}", last_error());
            assert_eq!(jtb_probe(tb, text.as_ptr(), &mut wdl, &mut plies), JTB_OK);
            assert_eq!((wdl, plies), (1, 5));
            jtb_close(tb);
            let tb = jtb_open_with_flags(
                root.as_ptr(),
                c("standard").as_ptr(),
                options,
                JTB_PREFER_COMPRESSED,
            );
            assert!(!tb.is_null(), "{}", last_error());
            assert_eq!(
                jtb_probe(tb, text.as_ptr(), &mut wdl, &mut plies),
                JTB_ERR_TABLE
            );
            assert!(last_error().contains("EvR.jtbz"), "{}", last_error());
            jtb_close(tb);
        }
        let tb = jtb_open_with_flags(root.as_ptr(), c("standard").as_ptr(), std::ptr::null(), 6);
        assert!(tb.is_null());
        assert!(
            last_error().contains("unknown flags 0x6"),
            "{}",
            last_error()
        );
    }
}

#[test]
fn positions_from_text_number_pieces_by_animal_under_every_rule_set() {
    // The header's test vector.
    let mut pos = JtbPosition {
        squares: [0; 16],
        side_to_move: 9,
    };
    unsafe {
        assert_eq!(
            jtb_position_from_text(c("7/7/7/7/7/7/2E4/7/6r b").as_ptr(), &mut pos),
            JTB_OK
        );
    }
    let mut expected = [255u8; 16];
    expected[7] = 16; // JTB_PIECE(JTB_WHITE, JTB_ELEPHANT): c3
    expected[8] = 6; // JTB_PIECE(JTB_BLACK, JTB_RAT): g1
    assert_eq!(pos.squares, expected);
    assert_eq!(pos.side_to_move, 1);
    unsafe {
        assert_eq!(
            jtb_position_from_text(c("garbage").as_ptr(), &mut pos),
            JTB_ERR_POSITION
        );
        assert_eq!(
            jtb_position_from_text(std::ptr::null(), &mut pos),
            JTB_ERR_ARGUMENT
        );
    }
    // Under popular + wolf_outranks_dog the Wolf outranks the Dog, but the
    // numbers stay JTB_WOLF = 2, JTB_DOG = 3: a struct from text answers as
    // the text does, one numbered by rank would swap the two animals.
    let dir = tempfile::tempdir().unwrap();
    let mut rules = jungletb_rules::Ruleset::popular();
    rules.apply_override("wolf_outranks_dog=true").unwrap();
    generate_into(dir.path(), rules.clone());
    let root = c(dir.path().to_str().unwrap());
    let tb = unsafe { jtb_open(root.as_ptr(), c("popular;wolf_outranks_dog=true").as_ptr()) };
    assert!(!tb.is_null(), "{}", last_error());
    let mut differ = 0;
    for text in [
        "7/7/7/7/7/7/7/7/W5d w",
        "7/7/7/7/3d3/7/3W3/7/7 w",
        "7/7/7/7/7/3w3/7/3D3/7 b",
    ] {
        let (mut a, mut b, mut pa, mut pb) = (0, 0, 0, 0);
        unsafe {
            assert_eq!(
                jtb_probe(tb, c(text).as_ptr(), &mut a, &mut pa),
                JTB_OK,
                "{}",
                last_error()
            );
            assert_eq!(jtb_position_from_text(c(text).as_ptr(), &mut pos), JTB_OK);
            assert_eq!(jtb_probe_position(tb, &pos, &mut b, &mut pb), JTB_OK);
        }
        assert_eq!((a, pa), (b, pb), "{text}");
        // The same position numbered by rank (Wolf 3, Dog 2): other pieces.
        let mut by_rank = JtbPosition {
            squares: pos.squares,
            side_to_move: pos.side_to_move,
        };
        for color in [0usize, 8] {
            by_rank.squares.swap(color + 2, color + 3);
        }
        let (mut r, mut pr) = (0, 0);
        unsafe { jtb_probe_position(tb, &by_rank, &mut r, &mut pr) };
        differ += usize::from((r, pr) != (a, pa));
    }
    assert!(
        differ > 0,
        "numbering by rank changes answers (the fault the header warns of)"
    );
    unsafe { jtb_close(tb) };
}

#[test]
fn coverage_preload_batches_labels_and_the_version_number() {
    let dir = tables();
    let root = c(dir.path().to_str().unwrap());
    let tb = unsafe { jtb_open(root.as_ptr(), c("standard").as_ptr()) };
    assert!(!tb.is_null(), "{}", last_error());
    unsafe {
        // Coverage per position: a 2-piece position yes, 3 pieces no, a
        // finished game needs no table.
        assert_eq!(
            jtb_has_table_for(tb, c("7/7/7/7/7/7/7/7/E5r w").as_ptr()),
            1
        );
        assert_eq!(
            jtb_has_table_for(tb, c("7/7/7/7/7/7/7/7/EL4r w").as_ptr()),
            0
        );
        assert_eq!(
            jtb_has_table_for(tb, c("3E3/7/7/7/7/7/7/7/6r b").as_ptr()),
            1
        );
        // Preload opens every table there (36 of 2 pieces).
        assert_eq!(jtb_preload(tb, 2), 36);
        assert_eq!(jtb_preload(tb, 1), -JTB_ERR_ARGUMENT);
        // A batch answers as single probes do; a bad position gets its
        // own code and the call returns the first failure.
        let texts = [
            "7/7/7/7/7/7/7/7/E5r w",
            "7/7/7/7/7/7/7/7/EL4r w",
            "7/7/7/7/7/l6/7/7/L6 w",
        ];
        let mut batch = Vec::new();
        for t in texts {
            let mut p = JtbPosition {
                squares: [0; 16],
                side_to_move: 0,
            };
            assert_eq!(jtb_position_from_text(c(t).as_ptr(), &mut p), JTB_OK);
            batch.push(p);
        }
        let (mut wdl, mut codes) = ([9; 3], [9; 3]);
        let r = jtb_probe_wdl_many(tb, batch.as_ptr(), 3, wdl.as_mut_ptr(), codes.as_mut_ptr());
        assert_eq!(r, JTB_ERR_MISSING);
        assert_eq!(codes, [JTB_OK, JTB_ERR_MISSING, JTB_OK]);
        for (i, t) in texts.iter().enumerate().filter(|(i, _)| *i != 1) {
            let mut single = 9;
            assert_eq!(jtb_probe_wdl(tb, c(t).as_ptr(), &mut single), JTB_OK);
            assert_eq!(wdl[i], single, "{t}");
        }
        assert_eq!(
            jtb_probe_wdl_many(
                tb,
                std::ptr::null(),
                0,
                std::ptr::null_mut(),
                std::ptr::null_mut()
            ),
            JTB_OK
        );
        jtb_close(tb);
        // No tables of popular here: the message lists what there is.
        assert!(jtb_open(root.as_ptr(), c("popular").as_ptr()).is_null());
        assert!(
            last_error().contains("tables found for: standard"),
            "{}",
            last_error()
        );
    }
    // A custom rule set by its directory's label.
    let custom = tempfile::tempdir().unwrap();
    let mut rules = jungletb_rules::Ruleset::popular();
    rules.apply_override("wolf_outranks_dog=true").unwrap();
    generate_into(custom.path(), rules.clone());
    let croot = c(custom.path().to_str().unwrap());
    let label = c(&rules.label());
    unsafe {
        let by_label = jtb_open(croot.as_ptr(), label.as_ptr());
        assert!(!by_label.is_null(), "{}", last_error());
        jtb_close(by_label);
    }
    assert_eq!(jtb_version_number(), 300);
}

#[test]
fn a_finished_game_says_why_and_who_won() {
    let dir = tables();
    let root = c(dir.path().to_str().unwrap());
    let tb = unsafe { jtb_open(root.as_ptr(), c("standard").as_ptr()) };
    assert!(!tb.is_null(), "{}", last_error());
    for (pos, reason, winner) in [
        ("7/7/7/7/7/7/7/7/E5r w", 0, -1),
        ("3E3/7/7/7/7/7/7/7/6r b", 1, 0), // White on Black's den
        ("7/7/7/7/7/7/7/7/E6 b", 2, 0),   // Black has no pieces
    ] {
        let (mut r, mut w) = (9, 9);
        unsafe {
            assert_eq!(
                jtb_game_over(tb, c(pos).as_ptr(), &mut r, &mut w),
                JTB_OK,
                "{}",
                last_error()
            );
        }
        assert_eq!((r, w), (reason, winner), "{pos}");
    }
    let (mut r, mut w) = (9, 9);
    unsafe {
        // Unreachable: White on Black's den with White to move.
        assert_eq!(
            jtb_game_over(tb, c("3E3/7/7/7/7/7/7/7/6r w").as_ptr(), &mut r, &mut w),
            JTB_ERR_POSITION
        );
        jtb_close(tb);
    }
}

#[test]
fn a_position_no_game_reaches_is_a_bad_position_in_every_call() {
    let dir = tables();
    let root = c(dir.path().to_str().unwrap());
    let tb = unsafe { jtb_open(root.as_ptr(), c("standard").as_ptr()) };
    assert!(!tb.is_null(), "{}", last_error());
    // White on Black's den with White to move: no game gets there.
    let text = c("3E3/7/7/7/7/7/7/7/6r w");
    let mut pos = struct_position();
    unsafe {
        assert_eq!(jtb_position_from_text(text.as_ptr(), &mut pos), JTB_OK);
        let (mut wdl, mut plies, mut r, mut w) = (9, 9, 9, 9);
        assert_eq!(
            jtb_probe(tb, text.as_ptr(), &mut wdl, &mut plies),
            JTB_ERR_POSITION
        );
        assert!(last_error().contains("den"), "{}", last_error());
        assert_eq!(jtb_probe_wdl_position(tb, &pos, &mut wdl), JTB_ERR_POSITION);
        assert_eq!(
            jtb_game_over(tb, text.as_ptr(), &mut r, &mut w),
            JTB_ERR_POSITION
        );
        assert_eq!(
            jtb_game_over_position(tb, &pos, &mut r, &mut w),
            JTB_ERR_POSITION
        );
        // The same with Black to move is a finished game everywhere.
        let text = c("3E3/7/7/7/7/7/7/7/6r b");
        assert_eq!(jtb_position_from_text(text.as_ptr(), &mut pos), JTB_OK);
        assert_eq!(
            jtb_probe(tb, text.as_ptr(), &mut wdl, &mut plies),
            JTB_ERR_GAME_OVER
        );
        assert_eq!(
            jtb_probe_wdl_position(tb, &pos, &mut wdl),
            JTB_ERR_GAME_OVER
        );
        assert_eq!(jtb_game_over_position(tb, &pos, &mut r, &mut w), JTB_OK);
        assert_eq!((r, w), (1, 0)); // White won
        jtb_close(tb);
    }
}

#[test]
fn struct_forms_answer_as_the_text_forms() {
    let dir = tables();
    let root = c(dir.path().to_str().unwrap());
    let tb = unsafe { jtb_open(root.as_ptr(), c("standard").as_ptr()) };
    assert!(!tb.is_null(), "{}", last_error());
    for text in [
        "7/7/7/7/7/7/2E4/7/6r b",  // 2 pieces: present
        "7/7/7/7/7/7/2E4/7/5Lr b", // 3 pieces: absent
        "3E3/7/7/7/7/7/7/7/6r b",  // over: needs no table
        "7/7/7/7/7/7/7/7/E6 b",    // Black has no pieces
    ] {
        let t = c(text);
        let mut pos = struct_position();
        let (mut r1, mut w1, mut r2, mut w2) = (9, 9, 8, 8);
        unsafe {
            assert_eq!(jtb_position_from_text(t.as_ptr(), &mut pos), JTB_OK);
            assert_eq!(
                jtb_has_table_for(tb, t.as_ptr()),
                jtb_has_table_for_position(tb, &pos),
                "{text}"
            );
            assert_eq!(jtb_game_over(tb, t.as_ptr(), &mut r1, &mut w1), JTB_OK);
            assert_eq!(jtb_game_over_position(tb, &pos, &mut r2, &mut w2), JTB_OK);
        }
        assert_eq!((r1, w1), (r2, w2), "{text}");
    }
    unsafe {
        let t = c("7/7/7/7/7/7/2E4/7/5Lr b");
        let mut pos = struct_position();
        assert_eq!(jtb_position_from_text(t.as_ptr(), &mut pos), JTB_OK);
        assert_eq!(jtb_has_table_for_position(tb, &pos), 0);
        pos.side_to_move = 7;
        assert_eq!(jtb_has_table_for_position(tb, &pos), 0);
        assert!(last_error().contains("side_to_move"), "{}", last_error());
        let (mut r, mut w) = (0, 0);
        assert_eq!(
            jtb_game_over_position(tb, &pos, &mut r, &mut w),
            JTB_ERR_POSITION
        );
        assert_eq!(
            jtb_game_over_position(tb, std::ptr::null(), &mut r, &mut w),
            JTB_ERR_ARGUMENT
        );
        jtb_close(tb);
    }
}

#[test]
fn root_moves_say_which_capture_and_which_enter_the_den() {
    let dir = tables();
    let root = c(dir.path().to_str().unwrap());
    let tb = unsafe { jtb_open(root.as_ptr(), c("standard").as_ptr()) };
    assert!(!tb.is_null(), "{}", last_error());
    // White Lion d8 beside Black's den d9, Black Rat e8 beside it.
    let text = c("7/3Lr2/7/7/7/7/7/7/7 w");
    let mut moves = vec![
        JtbRootMove {
            from: 0,
            to: 0,
            wdl: 0,
            plies: 0,
            text: [0; 5],
            capture: 9,
            den: 9,
        };
        JTB_MAX_MOVES
    ];
    let mut count = 0;
    unsafe {
        assert_eq!(
            jtb_probe_root(
                tb,
                text.as_ptr(),
                moves.as_mut_ptr(),
                JTB_MAX_MOVES,
                &mut count
            ),
            JTB_OK,
            "{}",
            last_error()
        );
        jtb_close(tb);
    }
    let flags: Vec<(String, u8, u8)> = moves[..count]
        .iter()
        .map(|m| {
            let t = unsafe { CStr::from_ptr(m.text.as_ptr()) };
            (t.to_str().unwrap().to_string(), m.capture, m.den)
        })
        .collect();
    for (mv, capture, den) in &flags {
        let want = match mv.as_str() {
            "d8d9" => (0, 1),
            "d8e8" => (1, 0),
            _ => (0, 0),
        };
        assert_eq!((*capture, *den), want, "{mv}: {flags:?}");
    }
    assert!(flags.iter().any(|f| f.0 == "d8d9") && flags.iter().any(|f| f.0 == "d8e8"));
}

/// Copies the table files of `from` into `to`.
fn copy_tables(from: &std::path::Path, to: &std::path::Path) {
    for f in std::fs::read_dir(from).unwrap() {
        let f = f.unwrap().path();
        if f.is_file() {
            std::fs::copy(&f, to.join(f.file_name().unwrap())).unwrap();
        }
    }
}

/// Generates the 2-piece tables of `rules` under `root`.
fn generate_into(root: &std::path::Path, rules: jungletb_rules::Ruleset) {
    jungletb_solver::generate(&jungletb_solver::GenerateOptions {
        root: root.to_path_buf(),
        rules,
        max_pieces: 2,
        materials: vec![],
        mem: None,
        check_space: true,
    })
    .unwrap();
}

/// What every call taking a position answers for `text`: the value by
/// text and by struct, the root moves, the line.
fn c_answers(tb: *const JtbTablebase, text: &str) -> Result<(c_int, c_int, usize, String), String> {
    let t = c(text);
    let (mut wdl, mut plies, mut wdl_only) = (9, 9, 9);
    let mut pos = JtbPosition {
        squares: [0; 16],
        side_to_move: 0,
    };
    let mut moves = move_buffer();
    let (mut count, mut needed) = (0usize, 0usize);
    let mut line = vec![0 as c_char; 512];
    unsafe {
        // The parse first: each call clears the last error.
        let codes = [
            jtb_position_from_text(t.as_ptr(), &mut pos),
            jtb_probe(tb, t.as_ptr(), &mut wdl, &mut plies),
            jtb_probe_wdl(tb, t.as_ptr(), &mut wdl_only),
            jtb_probe_root(tb, t.as_ptr(), moves.as_mut_ptr(), moves.len(), &mut count),
            jtb_probe_line(tb, t.as_ptr(), line.as_mut_ptr(), line.len(), &mut needed),
        ];
        if codes.iter().any(|&c| c != JTB_OK) {
            return Err(format!("{codes:?}: {}", last_error()));
        }
        let (mut by_struct, mut by_struct_plies) = (9, 9);
        assert_eq!(
            jtb_probe_position(tb, &pos, &mut by_struct, &mut by_struct_plies),
            JTB_OK
        );
        assert_eq!((by_struct, by_struct_plies), (wdl, plies), "{text}");
        assert_eq!(wdl_only, wdl, "{text}");
        let line = CStr::from_ptr(line.as_ptr()).to_string_lossy().into_owned();
        Ok((wdl, plies, count, line))
    }
}

#[test]
fn tables_answer_only_under_their_own_rules_and_say_which() {
    // The White Wolf on a1, the Black Dog on a2: under popular with the
    // Wolf outranking the Dog White takes it (a win in 1); under standard
    // the Dog outranks the Wolf (a loss in 8). And its colour swap.
    const WD: &str = "7/7/7/7/7/7/7/d6/W6 w";
    const SWAPPED: &str = "w6/D6/7/7/7/7/7/7/7 b";
    let root = tempfile::tempdir().unwrap();
    let mut wolf = jungletb_rules::Ruleset::popular();
    wolf.apply_override("wolf_outranks_dog=true").unwrap();
    generate_into(root.path(), jungletb_rules::Ruleset::standard());
    generate_into(root.path(), jungletb_rules::Ruleset::leiden());
    generate_into(root.path(), wolf.clone());
    let croot = c(root.path().to_str().unwrap());
    let open = |spec: &str| unsafe { jtb_open(croot.as_ptr(), c(spec).as_ptr()) };
    let std_tb = open("standard");
    let wolf_tb = open("popular;wolf_outranks_dog=true");
    let by_label = open(&wolf.label());
    assert!(!std_tb.is_null() && !wolf_tb.is_null() && !by_label.is_null());
    let label = |tb| {
        unsafe { CStr::from_ptr(jtb_ruleset_label(tb)) }
            .to_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(label(std_tb), "standard");
    assert_eq!(label(wolf_tb), "popular-custom-96041d7177d2e47e");
    assert_eq!(label(by_label), wolf.label());
    assert!(unsafe { jtb_ruleset_label(std::ptr::null()) }.is_null());
    for text in [WD, SWAPPED] {
        let s = c_answers(std_tb, text).unwrap();
        let w = c_answers(wolf_tb, text).unwrap();
        assert_eq!((s.0, s.1), (-1, 8), "{text} under standard");
        assert_eq!(
            (w.0, w.1),
            (1, 1),
            "{text} under popular + wolf_outranks_dog"
        );
        assert_eq!(c_answers(by_label, text).unwrap(), w, "{text} by label");
    }

    // Tables of one rule set in another's directory (copied whole, or one
    // table edited in): open refuses the first, probes refuse the second.
    let swapped = tempfile::tempdir().unwrap();
    let std_dir = swapped.path().join("standard");
    std::fs::create_dir(&std_dir).unwrap();
    copy_tables(&root.path().join(wolf.label()), &std_dir);
    let sroot = c(swapped.path().to_str().unwrap());
    for spec in ["standard", "leiden"] {
        let tb = unsafe { jtb_open(sroot.as_ptr(), c(spec).as_ptr()) };
        assert!(tb.is_null(), "{spec} opened over tables of other rules");
        let e = last_error();
        assert!(e.contains(spec), "{e}");
    }
    let e = {
        let tb = unsafe {
            jtb_open(
                c(std_dir.to_str().unwrap()).as_ptr(),
                c("standard").as_ptr(),
            )
        };
        assert!(tb.is_null());
        last_error()
    };
    assert!(
        e.contains("custom-96041d7177d2e47e") && e.contains("'standard'"),
        "{e}"
    );
    let mixed = tempfile::tempdir().unwrap();
    let mixed_std = mixed.path().join("standard");
    std::fs::create_dir(&mixed_std).unwrap();
    copy_tables(&root.path().join("standard"), &mixed_std);
    // DvW is the table WD needs: the wolf rule set's, under standard's name.
    std::fs::copy(
        root.path().join(wolf.label()).join("DvW.jtb"),
        mixed_std.join("DvW.jtb"),
    )
    .unwrap();
    let mroot = c(mixed.path().to_str().unwrap());
    let tb = unsafe { jtb_open(mroot.as_ptr(), c("standard").as_ptr()) };
    assert!(!tb.is_null(), "{}", last_error());
    for text in [WD, SWAPPED] {
        let e = c_answers(tb, text).unwrap_err();
        assert!(
            e.contains("[0, 4, 4, 4, 4]") && e.contains("rule set"),
            "{text}: {e}"
        );
    }
    unsafe {
        jtb_close(tb);
        jtb_close(std_tb);
        jtb_close(wolf_tb);
        jtb_close(by_label);
    }
}

#[test]
fn start_is_the_starting_position_as_in_python() {
    let mut pos = JtbPosition {
        squares: [0; 16],
        side_to_move: 9,
    };
    assert_eq!(
        unsafe { jtb_position_from_text(c("start").as_ptr(), &mut pos) },
        JTB_OK,
        "{}",
        last_error()
    );
    assert_eq!(pos.side_to_move, 0);
    assert!(pos.squares.iter().all(|&s| s != 255), "sixteen pieces");
}
