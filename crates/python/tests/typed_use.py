"""Not a test to run: code as a user writes it, checked by
`mypy --strict` against the package's stubs (tests/python/run.sh)."""

import jungletb
import numpy as np


def best_reply(tb: jungletb.Tablebase, p: jungletb.Position) -> jungletb.Move | None:
    moves = tb.root_moves(p)
    return moves[0][0] if moves else None


def expand(p: jungletb.Position, table: dict[jungletb.Position, int], tb: jungletb.Tablebase) -> None:
    for m, child in zip(p.legal_moves(), p.children()):
        if child not in table:
            table[child] = tb.probe_wdl(child)
        p.push(m)
        p.pop()
    outcome = p.outcome()
    if outcome is not None:
        winner: str | None = outcome.winner
        print(winner, outcome.reason)


def label(tb: jungletb.Tablebase) -> np.ndarray:
    rows, wdl, plies = tb.sample("ERvT", 10, seed=1)
    both = tb.probe_many(rows)
    marked: np.ndarray = tb.probe_plies_many(["start"], on_error="mark")
    return np.concatenate([both[0] - wdl, marked])


def make(out: str) -> dict[str, object]:
    return jungletb.generate(out, "popular", ["wolf_outranks_dog=true"], max_pieces=2, progress=False)
