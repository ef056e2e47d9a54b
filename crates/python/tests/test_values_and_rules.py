"""Positions as values, answers only under a position's own rules, tables
made from Python, and the edges a researcher meets (pytest).

Each property is checked by a helper that a named planted fault must fail:
a tablebase that ignores a position's rules, a pickle that drops them.
"""

import importlib.metadata
import copy
import multiprocessing
import os
import pickle
import signal
import subprocess
import sys
import threading

import numpy as np
import pytest

import jungletb

WOLF = ["wolf_outranks_dog=true"]
# The White Wolf on a1, the Black Dog on a2: under popular with the Wolf
# outranking the Dog, White takes it and wins; under standard the Dog
# outranks the Wolf and White loses.
WOLF_DOG = "7/7/7/7/7/7/7/d6/W6 w"


@pytest.fixture(scope="session")
def roots(tmp_path_factory):
    """Two rule sets' 2-piece tables, made by jungletb.generate."""
    root = tmp_path_factory.mktemp("rules")
    std = jungletb.generate(root, max_pieces=2, progress=False)
    wolf = jungletb.generate(root, "popular", WOLF, max_pieces=2, progress=False)
    assert std["tables"] == len(std["solved"]) > 20
    assert wolf["dir"].endswith("popular-custom-96041d7177d2e47e")
    return root


def refuses_other_rules(tb, position):
    """Every call refuses `position` (of other rules than `tb`'s) with a
    RulesetMismatch naming both rule sets."""
    calls = [
        lambda: tb.probe_wdl(position),
        lambda: tb.probe_plies(position),
        lambda: tb.root_moves(position),
        lambda: tb.line(position),
        lambda: tb.replies(position, "a1a2"),
        lambda: tb.probe_wdl_many([position]),
        lambda: tb.probe_plies_many([WOLF_DOG, position]),
        lambda: tb.probe_many([position]),
        lambda: tb.root_moves_many([position]),
        lambda: tb.probe_wdl_many([position], on_error="mark"),
    ]
    for call in calls:
        with pytest.raises(jungletb.RulesetMismatch) as e:
            call()
        assert isinstance(e.value, ValueError)
        assert position.ruleset_label in str(e.value) and tb.ruleset_label in str(e.value)


class IgnoresRules:
    """Planted fault: a tablebase that turns Positions into text (the old
    behaviour), so their rules are lost."""

    def __init__(self, tb):
        self.tb, self.ruleset_label = tb, tb.ruleset_label

    def __getattr__(self, name):
        method = getattr(self.tb, name)
        def call(arg, *rest, **kw):
            if isinstance(arg, list):
                return method([str(p) for p in arg], *rest, **kw)
            return method(str(arg), *rest, **kw)
        return call


def test_no_answer_is_given_under_other_rules(roots):
    p = jungletb.Position(WOLF_DOG, "popular", WOLF)
    with jungletb.open_tablebase(roots) as std, jungletb.open_tablebase(roots, "popular", WOLF) as wolf:
        # Under its own rules White wins; the standard tables' answer for
        # the text differs, which is why it must never be given for p.
        assert wolf.probe_wdl(p) == 1 and std.probe_wdl(WOLF_DOG) == -1
        assert [str(m) for m, _, _ in wolf.root_moves(p)] == ["a1a2", "a1b1"]
        refuses_other_rules(std, p)
        refuses_other_rules(wolf, jungletb.Position(WOLF_DOG))
        # The planted fault fails the check.
        with pytest.raises(BaseException) as e:
            refuses_other_rules(IgnoresRules(std), p)
        assert e.type in (AssertionError, pytest.fail.Exception)


def round_trips(p, through):
    """`through(p)` is p as a value: equal, same hash, same rules, same
    moves played (it can pop them)."""
    q = through(p)
    assert q == p and hash(q) == hash(p)
    assert (q.ruleset, q.rules, q.ruleset_label) == (p.ruleset, p.rules, p.ruleset_label)
    assert q.move_stack == p.move_stack
    assert [str(m) for m in q.legal_moves()] == [str(m) for m in p.legal_moves()]


def _probe_in_child(args):
    root, p = args
    with jungletb.open_tablebase(root, p.ruleset, p.rules) as tb:
        return tb.probe_wdl(p), p.ruleset_label


def test_positions_are_values_that_keep_their_rules(roots):
    p = jungletb.Position(WOLF_DOG, "popular", WOLF)
    p.push("a1b1")
    for through in [copy.copy, copy.deepcopy, lambda x: pickle.loads(pickle.dumps(x))]:
        round_trips(p, through)
    # Planted fault: a copy rebuilt from its text drops the rules.
    with pytest.raises(AssertionError):
        round_trips(p, lambda x: jungletb.Position(str(x)))
    # Equal positions under equal rules are equal and hash alike; other
    # rules make another position.
    a, b = jungletb.Position(WOLF_DOG), jungletb.Position(WOLF_DOG, "standard", [])
    assert a == b and hash(a) == hash(b) and len({a, b, p}) == 2
    assert a != jungletb.Position(WOLF_DOG, "popular", WOLF)
    seen = {jungletb.Position(WOLF_DOG): 1}
    assert seen[jungletb.Position("7/7/7/7/7/7/7/d6/W6 w")] == 1
    # Spawned processes receive them, rules and all.
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(1) as pool:
        q = jungletb.Position(WOLF_DOG, "popular", WOLF)
        assert pool.map(_probe_in_child, [(str(roots), q)]) == [(1, q.ruleset_label)]


def test_moves_push_pop_children_and_outcomes():
    p = jungletb.Position(WOLF_DOG, "popular", WOLF)
    moves = p.legal_moves()
    assert moves == ["a1a2", "a1b1"] and "a1a2" in moves
    take, step = moves
    assert (take.is_capture, take.captured, take.enters_den) == (True, "dog", False)
    assert (step.is_capture, step.from_square, step.to_square) == (False, "a1", "b1")
    children = p.children()
    assert [c.ruleset_label for c in children] == [p.ruleset_label] * 2
    before = copy.copy(p)
    for m, child in zip(moves, children):
        p.push(m)
        assert p == child
        assert p.pop() == m and p == before
    with pytest.raises(IndexError):
        p.pop()
    p.push("a1a2")
    assert p.outcome().winner == "w" and p.outcome().reason == "no_pieces" and p.is_game_over()
    with pytest.raises(ValueError):
        p.push("a2a3")
    den = jungletb.Position("7/7/7/7/7/7/7/3e3/E6 b")
    den.push("d2d1")
    assert (den.outcome().winner, den.outcome().reason) == ("b", "den")
    assert jungletb.Position().outcome() is None
    assert den.legal_moves() == [] and den.children() == []


def test_rows_and_positions_round_trip():
    for text in [WOLF_DOG, "start", "7/7/7/7/7/7/2E4/7/6r b"]:
        p = jungletb.Position(text, "popular", WOLF)
        row = p.to_array()
        assert row.dtype == np.uint8 and row.shape == (17,)
        assert jungletb.Position.from_array(row, "popular", WOLF) == p
        assert jungletb.Position.from_array(list(row), "popular", WOLF) == p
    with pytest.raises(ValueError, match="column 0"):
        jungletb.Position.from_array([272] + [255] * 15 + [0])
    with pytest.raises(TypeError):
        jungletb.Position.from_array(np.zeros(17, dtype=float))
    with pytest.raises(ValueError, match="17"):
        jungletb.Position.from_array([255] * 16)


def test_batches_take_texts_positions_rows_and_start(roots):
    with jungletb.open_tablebase(roots) as tb:
        texts = [jungletb.position_text({"a1": "W", sq: "d"}, side)
                 for sq in ["a2", "d5", "g9", "b1"] for side in "wb"]
        positions = [tb.position(t) for t in texts]
        rows = np.array([p.to_array() for p in positions])
        wdl = [tb.probe_wdl(t) for t in texts]
        plies = [-1 if tb.probe_plies(t) is None else tb.probe_plies(t) for t in texts]
        for given in [texts, positions, rows, rows.astype(np.int64), tuple(texts)]:
            assert list(tb.probe_wdl_many(given)) == wdl
            assert list(tb.probe_plies_many(given)) == plies
            w, pl = tb.probe_many(given)
            assert (list(w), list(pl)) == (wdl, plies)
        assert [[str(m) for m, _, _ in r] for r in tb.root_moves_many(texts)] == \
            [[str(m) for m, _, _ in tb.root_moves(t)] for t in texts]
        # "start" is a position everywhere (its table, 16 pieces, is missing).
        assert list(tb.probe_wdl_many(["start"], on_error="mark")) == [jungletb.MISSING]
        with pytest.raises(jungletb.MissingTableError, match="position 0"):
            tb.probe_wdl_many(["start"])
        # Bad rows and dtypes are named with their index.
        bad = rows.astype(np.int64)
        bad[3, 2] = 272
        with pytest.raises(ValueError, match="position 3"):
            tb.probe_wdl_many(bad)
        with pytest.raises(TypeError, match="float"):
            tb.probe_wdl_many(rows.astype(float))
        with pytest.raises(ValueError, match=r"\(n, 17\)"):
            tb.probe_wdl_many(rows[:, :16])
        with pytest.raises(ValueError, match="position 1"):
            tb.probe_wdl_many([texts[0], "garbage"])
        with pytest.raises(TypeError, match="position 1"):
            tb.probe_wdl_many([texts[0], 42])
        with pytest.raises(TypeError):
            tb.probe_wdl_many(texts[0])


def test_a_finished_game_is_won_or_lost_in_zero(roots):
    with jungletb.open_tablebase(roots) as tb:
        # White's Elephant stands on Black's den, Black to move: Black lost.
        den = "3E3/7/7/7/7/7/7/7/6r b"
        assert (tb.probe_wdl(den), tb.probe_plies(den)) == (-1, 0)
        assert tb.root_moves(den) == [] and tb.line(den) == []
        assert list(tb.probe_many([den])[0]) == [-1]
        # White to move there cannot happen: White just moved.
        with pytest.raises(ValueError):
            tb.probe_wdl("3E3/7/7/7/7/7/7/7/6r w")


def test_replies_equal_the_positions_after_each_move(roots):
    """Each move's replies, by value for the replier, equal the tally of
    the root moves of the position after it."""
    with jungletb.open_tablebase(roots) as tb:
        mixed = 0
        for text in ["7/7/7/7/7/7/7/d6/W6 w", "7/7/3l3/7/7/7/7/7/E6 w", "7/7/7/7/7/7/3t3/7/R6 b"]:
            for move, _, _ in tb.root_moves(text):
                r = tb.replies(text, move)
                assert r == tb.replies(text, str(move))
                child = tb.position(text)
                child.push(move)
                after = tb.root_moves(child) if r != (0, 0, 0) else []
                tally = tuple(sum(1 for _, w, _ in after if w == v) for v in (1, 0, -1))
                assert (r.win, r.draw, r.loss) == tally, (text, str(move))
                mixed += r.win != r.loss  # a swap of the two would show
        assert mixed > 0
        with pytest.raises(ValueError, match="not a legal move"):
            tb.replies("7/7/7/7/7/7/7/d6/W6 w", "g1g2")
        with pytest.raises(ValueError, match="not a move"):
            tb.replies("7/7/7/7/7/7/7/d6/W6 w", "zz")
        with pytest.raises(ValueError, match="game over"):
            tb.replies("3E3/7/7/7/7/7/7/7/6r b", "g1g2")


def test_small_edges(roots):
    with pytest.raises(TypeError, match="list"):
        jungletb.Position("start", "popular", "wolf_outranks_dog=true")
    with pytest.raises(TypeError, match="list"):
        jungletb.open_tablebase(roots, "popular", "wolf_outranks_dog=true")
    with pytest.raises(ValueError, match="unknown"):
        jungletb.Position("start", "popular", ["nosuch=1"])
    # The custom label opens the tables that record its options.
    with jungletb.open_tablebase(roots, "popular-custom-96041d7177d2e47e") as tb:
        assert (tb.ruleset, tb.rules) == ("popular", WOLF)
        assert tb.probe_wdl(jungletb.Position(WOLF_DOG, "popular", WOLF)) == 1
    with pytest.raises(ValueError, match="custom"):
        jungletb.Position("start", "popular-custom-96041d7177d2e47e")
    # PEP 440, as pip and the wheel's metadata spell it.
    assert jungletb.__version__ == importlib.metadata.version("jungletb")
    public = [n for n in dir(jungletb) if not n.startswith("_")]
    assert sorted(public) == sorted(n for n in jungletb.__all__ if not n.startswith("_"))
    with pytest.raises(jungletb.MissingTableError, match="nowhere"):
        jungletb.open_tablebase(os.path.join(str(roots), "nowhere"))


def test_one_byte_is_accepted_for_a_release_and_changes_nothing(tmp_path):
    plain = jungletb.generate(tmp_path / "plain", materials=["LTvR"], progress=False)
    with pytest.warns(DeprecationWarning, match="default now"):
        flagged = jungletb.generate(tmp_path / "flag", materials=["LTvR"], progress=False, one_byte=True)
    assert plain["tables"] == flagged["tables"] == 3
    for name in ("LTvR", "LvR", "TvR"):
        a = (tmp_path / "plain" / "standard" / f"{name}.jtb").read_bytes()
        b = (tmp_path / "flag" / "standard" / f"{name}.jtb").read_bytes()
        assert a == b, name


def test_generate_stops_on_ctrl_c_and_resumes(tmp_path):
    # Three 4-piece materials and what they need: about 4 s of solving on
    # one thread here, stopped after 0.5 s.
    request = dict(materials=["ELvTR", "ELTvR", "ETvLR"], progress=False, threads=1)
    # Python raises KeyboardInterrupt on SIGINT only if SIGINT was not
    # ignored when it started, and a background job of a script (as CI may
    # run this) starts with it ignored: install Python's own handler here.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            jungletb.generate(tmp_path, **request)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    kept = sorted(f for f in os.listdir(tmp_path / "standard") if f.endswith(".jtb"))
    assert not any(d for d in os.listdir(tmp_path / "standard")
                   if (tmp_path / "standard" / d).is_dir() and not d.startswith(".locks"))
    again = jungletb.generate(tmp_path, **request)
    kept = {f[:-4] for f in kept}
    # The second call solves exactly what the first did not finish.
    assert again["tables"] == 18 and kept and not set(again["solved"]) & kept
    assert len(kept) + len(again["solved"]) == 18
    with pytest.raises(ValueError, match="max_pieces"):
        jungletb.generate(tmp_path)
    with pytest.raises(ValueError, match="one of"):
        jungletb.generate(tmp_path, max_pieces=2, materials=["ELvR"])
    with pytest.raises(ValueError):
        jungletb.generate(tmp_path, materials=["XvY"])
    with pytest.raises(TypeError, match="list"):
        jungletb.generate(tmp_path, materials="ELvR")


def test_the_command_line_is_installed_with_the_package(tmp_path):
    script = os.path.join(os.path.dirname(sys.executable), "jungletb")
    out = subprocess.run([script, "--version"], capture_output=True, text=True, check=True)
    # The command prints the Rust version (0.3.0-dev); the package, the
    # same version as PEP 440 spells it (0.3.0.dev0).
    name, version = out.stdout.split()
    assert name == "jungletb" and version.replace("-dev", ".dev0") == jungletb.__version__
    subprocess.run([script, "generate", "--out", str(tmp_path), "--material", "ERvT", "-q"], check=True)
    probe = subprocess.run([script, "probe", "--tables", str(tmp_path), "7/7/7/7/7/7/7/7/ER4t w"],
                           capture_output=True, text=True, check=True)
    assert "win" in probe.stdout or "loss" in probe.stdout or "draw" in probe.stdout
    bad = subprocess.run([script, "probe", "--tables", str(tmp_path), "garbage"], capture_output=True, text=True)
    assert bad.returncode == 1 and "error" in bad.stderr
    assert subprocess.run([sys.executable, "-m", "jungletb", "--version"], capture_output=True).returncode == 0


def move_and_text_are_one_key(moves):
    """Every move equals its text and hashes as it does, so sets and dicts
    of moves are looked up by text (Python requires equal objects to hash
    alike)."""
    assert moves
    for m in moves:
        assert m == str(m) and hash(m) == hash(str(m))
        assert str(m) in set(moves) and m in {str(x): x for x in moves}
    by_move = {m: i for i, m in enumerate(moves)}
    assert [by_move[str(m)] for m in moves] == list(range(len(moves)))


class HashedApart:
    """Planted fault: a move that equals its text but hashes by its own
    identity (the old behaviour, a hash unrelated to the text's)."""

    def __init__(self, m):
        self.m = m

    def __eq__(self, other):
        return str(self) == str(other)

    def __hash__(self):
        return id(self)

    def __str__(self):
        return str(self.m)


def test_a_move_and_its_text_are_one_key():
    moves = jungletb.Position("start").legal_moves()
    move_and_text_are_one_key(moves)
    with pytest.raises(AssertionError):
        move_and_text_are_one_key([HashedApart(m) for m in moves])


def test_tables_of_other_rules_under_a_rule_sets_name_are_refused(roots, tmp_path):
    """The popular + wolf tables copied where standard's belong: opening
    under standard names both rule sets, or every probe does; the text
    answer under the wolf tables' own label names it."""
    import shutil

    shutil.copytree(roots / "popular-custom-96041d7177d2e47e", tmp_path / "standard")
    try:
        tb = jungletb.open_tablebase(tmp_path, "standard")
    except (jungletb.BadTableError, jungletb.RulesetMismatch) as e:
        assert "custom-96041d7177d2e47e" in str(e)
        return
    with tb:
        assert tb.ruleset_label == "standard"
        for text in (WOLF_DOG, "w6/D6/7/7/7/7/7/7/7 b"):
            for call in (tb.probe_wdl, tb.probe_plies, tb.root_moves, tb.line):
                with pytest.raises((jungletb.BadTableError, jungletb.RulesetMismatch)) as e:
                    call(text)
                assert "custom-96041d7177d2e47e" in str(e.value) and "standard" in str(e.value)
    with jungletb.open_tablebase(roots, "popular-custom-96041d7177d2e47e") as wolf:
        assert wolf.ruleset_label == "popular-custom-96041d7177d2e47e"
        assert wolf.probe_plies(WOLF_DOG) == 1


def docs_expand(tb, p, seen):
    """docs/python.md's MCTS expansion, as printed there."""
    for child in p.children():
        if child not in seen:
            seen[child] = (tb.probe_wdl(child), tb.probe_plies(child) or 0)
    def for_the_mover(child):
        wdl, plies = seen[child]
        return (-wdl, plies if wdl > 0 else -plies)
    moves, children = p.legal_moves(), p.children()
    best = max(range(len(moves)), key=lambda i: for_the_mover(children[i]))
    p.push(moves[best])


def test_the_docs_expansion_plays_a_win_to_its_end_in_its_distance(roots):
    with jungletb.open_tablebase(roots) as tb:
        p = jungletb.Position("7/7/7/7/7/7/7/7/E5r w")
        p.push("a1a2")
        assert tb.probe_wdl(p) == 1
        plies = tb.probe_plies(p)
        seen = {}
        walked = 0
        while not p.is_game_over():
            docs_expand(tb, p, seen)
            walked += 1
            assert walked <= plies, "the walk outlasted the win"
        assert walked == plies and p.outcome().winner == "b"
