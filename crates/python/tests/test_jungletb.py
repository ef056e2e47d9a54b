"""The Python package answers as the command line does (pytest).

Tables come from the `jungletb` binary ($JUNGLETB_BIN, default
target/release/jungletb of the repository), generated once per run.
"""

import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

import jungletb

REPO = Path(__file__).resolve().parents[3]
BIN = os.environ.get("JUNGLETB_BIN", str(REPO / "target" / "release" / "jungletb"))


@pytest.fixture(scope="session")
def tables(tmp_path_factory):
    root = tmp_path_factory.mktemp("tables")
    subprocess.run([BIN, "generate", "--out", str(root), "--max-pieces", "3", "-q"], check=True)
    return root


def sample_positions():
    """Every placement of a White Elephant and a Black Rat, both sides to
    move, and some with a third piece: positions the CLI can judge."""
    files, out = "abcdefg", []  # noqa: F841
    squares = [f + str(r) for r in range(1, 10) for f in files]
    def text(pieces, side):
        return jungletb.position_text({sq: p for p, sq in pieces}, side)
    for i, a in enumerate(squares):
        for b in squares[i + 1 :: 3]:
            for side in "wb":
                out.append(text([("E", a), ("r", b)], side))
                out.append(text([("T", a), ("r", b), ("C", "a1" if a != "a1" and b != "a1" else "b1")], side))
    return out


@pytest.fixture(scope="session")
def cli_answers(tables):
    texts = sample_positions()
    run = subprocess.run(
        [BIN, "probe", "--json", "--batch", "--tables", str(tables)],
        input="\n".join(texts), capture_output=True, text=True,
    )
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(answers) == len(texts)
    return answers


WDL = {"win": 1, "draw": 0, "loss": -1}


def test_single_probes_answer_as_the_cli(tables, cli_answers):
    with jungletb.open_tablebase(tables) as tb:
        checked = 0
        for a in cli_answers:
            text = a["input"]
            if "error" in a:
                with pytest.raises((ValueError, KeyError)):
                    tb.probe_wdl(text)
                continue
            if a["game_over"]:
                continue
            assert tb.probe_wdl(text) == WDL[a["category"]], text
            assert tb.probe_plies(text) == a["plies"], text
            checked += 1
        assert checked > 1000


def test_batches_answer_as_single_probes(tables, cli_answers):
    texts = [a["input"] for a in cli_answers if "error" not in a and not a["game_over"]]
    with jungletb.open_tablebase(tables) as tb:
        batch = tb.probe_wdl_many(texts)
        assert batch.dtype == np.int8 and batch.shape == (len(texts),)
        assert list(batch) == [tb.probe_wdl(t) for t in texts]
        rows = np.array([sum([[*jungletb.Position(t).squares()[0]], [jungletb.Position(t).squares()[1]]], []) for t in texts], dtype=np.uint8)
        assert list(tb.probe_wdl_many(rows)) == list(batch)


def test_moves_and_lines_answer_as_the_cli(tables, cli_answers):
    with jungletb.open_tablebase(tables) as tb:
        for a in cli_answers[:200]:
            if "error" in a or a["game_over"]:
                continue
            assert [m for m, _, _ in tb.root_moves(a["input"])] == [m["move"] for m in a["moves"]]
            assert tb.line(a["input"]) == a["line"]


def test_errors_are_python_errors(tables):
    with jungletb.open_tablebase(tables) as tb:
        with pytest.raises(jungletb.MissingTableError) as missing:
            tb.probe_wdl("7/7/7/7/7/7/2E4/1W5/4Ltr b")   # 5 pieces: no table here
        # The message says how to make it, as the command line's hint does.
        said = str(missing.value)
        assert 'jungletb.generate(' in said and 'ruleset="standard"' in said, said
        assert 'materials=["ELWvTR"]' in said and "jungletb generate --out" in said, said
        # A NumPy array of Position objects is a sequence of positions too.
        objects = np.array([jungletb.Position("7/7/7/7/7/7/7/7/E5r w"), "7/7/7/7/7/7/7/7/E5r b"], dtype=object)
        assert list(tb.probe_wdl_many(objects)) == [tb.probe_wdl(p) for p in objects]
        assert isinstance(jungletb.MissingTableError("x"), KeyError)
        assert tb.get_wdl("7/7/7/7/7/7/2E4/1W5/4Ltr b", default=7) == 7
        with pytest.raises(ValueError):
            tb.probe_wdl("garbage")
        with pytest.raises(ValueError):
            tb.probe_wdl("7/7/7/7/7/1E5/7/7/6r w")       # an Elephant in the river
        marked = tb.probe_wdl_many(["7/7/7/7/7/7/7/7/E5r w", "7/7/7/7/7/7/2E4/1W5/4Ltr b"], on_error="mark")
        assert list(marked) == [tb.probe_wdl("7/7/7/7/7/7/7/7/E5r w"), jungletb.MISSING]
    tb.close()
    with pytest.raises(ValueError):
        tb.probe_wdl("7/7/7/7/7/7/7/7/E5r w")
    with pytest.raises(jungletb.MissingTableError):
        jungletb.open_tablebase(tables, "popular")


def test_positions_need_no_tables():
    p = jungletb.Position()
    assert len(p.legal_moves()) == 24 and p.side_to_move == "w"
    assert p.material == "ELTPDWCRvELTPDWCR"
    p.push("a3a4")
    assert p.side_to_move == "b"
    with pytest.raises(ValueError):
        p.push("a1a9")
    won = jungletb.Position("7/7/7/7/7/7/7/7/Er5 w")
    won.push("a1b1")
    assert won.is_game_over() and won.legal_moves() == []
    with pytest.raises(ValueError):
        jungletb.Position("3E3/7/7/7/7/7/7/7/6r w")       # unreachable


def test_samples_of_a_table_are_its_positions_with_their_values(tables):
    with jungletb.open_tablebase(tables) as tb:
        for material in ["ERvT", "TvER", "EvE"]:
            rows, wdl, plies = tb.sample(material, 500, seed=7)
            assert rows.shape == (500, 17) and wdl.shape == (500,) and plies.shape == (500,)
            # Every sampled position is of the material, and its values are
            # the probes' (batch and single alike).
            assert list(tb.probe_wdl_many(rows)) == list(wdl)
            for row, w, p in list(zip(rows, wdl, plies))[:50]:
                squares, side = row[:16], int(row[16])
                white = "".join(a for a, s in zip("RCWDPTLE", squares[:8]) if s != 255)[::-1]
                black = "".join(a for a, s in zip("RCWDPTLE", squares[8:]) if s != 255)[::-1]
                assert f"{white}v{black}" == material
                assert int(p) == -1 if w == 0 else int(p) >= 0
            # Both sides to move occur, and the draw is repeatable.
            assert set(rows[:, 16]) == {0, 1}
            again = tb.sample(material, 500, seed=7)
            assert (again[0] == rows).all()
        with pytest.raises(jungletb.MissingTableError):
            tb.sample("ELTvR", 10)
        with pytest.raises(ValueError, match="0 or more, not -1"):
            tb.sample("ERvT", -1)
        assert tb.sample("ERvT", 0)[0].shape == (0, 17)
