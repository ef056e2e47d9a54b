"""Jungle (Dou Shou Qi) endgame tablebases made by jungletb.

Shaped like python-chess's ``chess.syzygy``::

    import jungletb
    with jungletb.open_tablebase("tables") as tb:
        tb.probe_wdl("7/7/7/7/7/7/2E4/7/6r b")    # 1: the side to move wins
        tb.probe_plies("7/7/7/7/7/7/2E4/7/6r b")  # 5 plies to the end

Values are for the side to move: 1 win, 0 draw, -1 loss. Positions are
the text every jungletb tool reads (ranks 9 to 1, upper case White, then
``w`` or ``b``; ``start`` is the start position), or a :class:`Position`.
A missing table raises :class:`MissingTableError` (a ``KeyError``); a
malformed or impossible position raises ``ValueError``.
"""

from __future__ import annotations

from typing import Any, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from ._jungletb import BadTableError, MissingTableError, Position
from ._jungletb import Tablebase as _Native

__all__ = [
    "open_tablebase",
    "Tablebase",
    "Position",
    "MissingTableError",
    "BadTableError",
    "MISSING",
    "position_text",
]

#: The value ``probe_wdl_many`` gives a position it could not probe with
#: ``on_error="mark"``.
MISSING = -128

PositionLike = Union[str, Position]


class Tablebase:
    """Open tables of one rule set; use :func:`open_tablebase`."""

    def __init__(self, directory: str, ruleset: str = "standard", rules: Optional[Sequence[str]] = None):
        self._tb = _Native(str(directory), ruleset, list(rules) if rules else None)

    def __enter__(self) -> "Tablebase":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        """Frees the tables; later probes raise ``ValueError``."""
        self._tb.close()

    def probe_wdl(self, position: PositionLike) -> int:
        """1 win, 0 draw, -1 loss for the side to move."""
        return self._tb.probe_wdl(position)

    def probe_plies(self, position: PositionLike) -> Optional[int]:
        """Plies to the end with best play, ``None`` for a draw."""
        return self._tb.probe_plies(position)

    def get_wdl(self, position: PositionLike, default: Optional[int] = None) -> Optional[int]:
        """:meth:`probe_wdl`, or ``default`` when the table is missing."""
        try:
            return self.probe_wdl(position)
        except MissingTableError:
            return default

    def root_moves(self, position: PositionLike) -> List[Tuple[str, int, Optional[int]]]:
        """Every legal move, best first, as ``(move, wdl, plies)`` for the
        side playing it (plies counted from ``position``)."""
        return self._tb.root_moves(position)

    def line(self, position: PositionLike) -> List[str]:
        """An optimal line of moves to the end (empty for a draw)."""
        return self._tb.line(position)

    def probe_wdl_many(self, positions: Union[Iterable[str], "np.ndarray"], on_error: str = "raise") -> "np.ndarray":
        """WDL of many positions at once (all cores, the GIL released) as an
        ``int8`` array. ``positions`` is a sequence of position texts, or a
        ``uint8`` array of shape ``(n, 17)``: per row the square of each
        piece (White Rat ... White Elephant, Black Rat ... Black Elephant;
        0 = a1 ... 62 = g9, 255 absent) and the side to move (0 White, 1
        Black), as :meth:`Position.squares` gives. ``on_error="raise"``
        raises the first failure; ``"mark"`` puts :data:`MISSING` there."""
        if isinstance(positions, np.ndarray):
            rows = np.ascontiguousarray(positions, dtype=np.uint8)
            if rows.ndim != 2 or rows.shape[1] != 17:
                raise ValueError("an array of shape (n, 17): 16 squares and the side to move")
            values, errors = self._tb.probe_wdl_many_squares(rows.tobytes())
        else:
            values, errors = self._tb.probe_wdl_many_texts([str(p) for p in positions])
        if errors and on_error == "raise":
            index, kind, message = errors[0]
            error = {"missing": MissingTableError, "bad_table": BadTableError}.get(kind, ValueError)
            raise error(f"position {index}: {message}")
        return np.frombuffer(values, dtype=np.int8).copy()


def _sample(self, material: str, n: int, seed: int = 0):
    """``n`` positions of ``material``'s table drawn at random (uniform over
    its positions, both sides to move; the same ``seed``, the same draw)
    with their values, for labelled data sets: ``(positions, wdl, plies)``
    as NumPy arrays of shapes ``(n, 17)`` (``uint8``, the rows
    :meth:`probe_wdl_many` reads), ``(n,)`` (``int8``: 1, 0, -1 for the
    side to move) and ``(n,)`` (``int16``, -1 for a draw)."""
    rows, wdl, plies = self._tb.sample(material, int(n), int(seed))
    return (
        np.frombuffer(rows, dtype=np.uint8).reshape(-1, 17).copy(),
        np.frombuffer(wdl, dtype=np.int8).copy(),
        np.frombuffer(plies, dtype="<i2").astype(np.int16),
    )


Tablebase.sample = _sample


def position_text(pieces: "dict[str, str]", side: str = "w") -> str:
    """The notation of a position from ``{square: letter}`` (``{"a1": "E",
    "g1": "r"}``: upper case White, lower case Black) and the side to move
    (``"w"`` or ``"b"``): ``"7/7/7/7/7/7/7/7/E5r w"``."""
    ranks = []
    for r in range(9, 0, -1):
        row, empty = "", 0
        for f in "abcdefg":
            p = pieces.get(f + str(r))
            if p is None:
                empty += 1
            else:
                row += (str(empty) if empty else "") + p
                empty = 0
        ranks.append(row + (str(empty) if empty else ""))
    return "/".join(ranks) + " " + side


def open_tablebase(directory: str, ruleset: str = "standard", rules: Optional[Sequence[str]] = None) -> Tablebase:
    """Opens the tables of ``ruleset`` (``standard``, ``leiden``,
    ``popular``; ``rules`` adds options such as ``"wolf_outranks_dog=true"``)
    under ``directory``, the root ``jungletb generate`` wrote."""
    return Tablebase(directory, ruleset, rules)
