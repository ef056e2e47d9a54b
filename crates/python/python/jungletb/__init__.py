"""Jungle (Dou Shou Qi) endgame tablebases made by jungletb.

Shaped like python-chess's ``chess.syzygy``::

    import jungletb
    with jungletb.open_tablebase("tables") as tb:
        tb.probe_wdl("7/7/7/7/7/7/2E4/7/6r b")    # 1: the side to move wins
        tb.probe_plies("7/7/7/7/7/7/2E4/7/6r b")  # 5 plies to the end

Values are for the side to move: 1 win, 0 draw, -1 loss. Positions are
the text every jungletb tool reads (ranks 9 to 1, upper case White, then
``w`` or ``b``; ``start`` is the start position), or a :class:`Position`,
which carries its rule set: a tablebase refuses a Position of other rules
with :class:`RulesetMismatch` (a ``ValueError``) and never answers it under
its own. A missing table raises :class:`MissingTableError` (a
``KeyError``); a malformed or impossible position raises ``ValueError``.
A finished game (a piece on the enemy den, a side without pieces) is won or
lost in 0 plies, as the command line, C and HTTP answer it.

Tables are made by :func:`generate` (or the ``jungletb`` command line the
package installs). See docs/python.md.
"""


import os as _os
import sys as _sys
import typing as _typing

import numpy as _np

from ._jungletb import (
    MISSING,
    BadTableError,
    MissingTableError,
    Move,
    Outcome,
    Position,
    RulesetMismatch,
    __version__,
)
from ._jungletb import Tablebase as _Native
from ._jungletb import generate as _generate

__all__ = [
    "open_tablebase",
    "generate",
    "Tablebase",
    "Replies",
    "Position",
    "Move",
    "Outcome",
    "MissingTableError",
    "BadTableError",
    "RulesetMismatch",
    "MISSING",
    "position_text",
    "__version__",
]

if _typing.TYPE_CHECKING:
    PositionLike = _typing.Union[str, Position]

_ERRORS = {"missing": MissingTableError, "bad_table": BadTableError, "mismatch": RulesetMismatch}


def _rows(positions: "_np.ndarray") -> bytes:
    """The bytes of an ``(n, 17)`` array of rows, checked: an integer dtype,
    squares 0..62 or 255, the side 0 or 1; a ``ValueError`` names the first
    bad row."""
    if positions.ndim != 2 or positions.shape[1] != 17:
        raise ValueError(f"an array of shape (n, 17): 16 squares and the side to move, not {positions.shape}")
    if not _np.issubdtype(positions.dtype, _np.integer):
        raise TypeError(f"rows are integers (uint8 as Position.to_array gives), not {positions.dtype}")
    if positions.dtype != _np.uint8:
        squares, side = positions[:, :16], positions[:, 16]
        bad = ((squares < 0) | ((squares > 62) & (squares != 255))).any(axis=1) | ((side != 0) & (side != 1))
        if bad.any():
            i = int(_np.argmax(bad))
            raise ValueError(
                f"position {i}: row {positions[i].tolist()}: squares are 0..62 or 255 (absent), the side 0 or 1"
            )
    return _np.ascontiguousarray(positions, dtype=_np.uint8).tobytes()


class Replies(_typing.NamedTuple):
    """A move's replies counted by their value for the side replying."""

    win: int
    """Replies that win for the replying side."""
    draw: int
    """Replies that draw."""
    loss: int
    """Replies that lose for the replying side."""


class Tablebase:
    """Open tables of one rule set; use :func:`open_tablebase`."""

    def __init__(self, directory: "str | _os.PathLike[str]", ruleset: str = "standard", rules: "_typing.Sequence[str] | None" = None):
        self._tb = _Native(_os.fspath(directory), ruleset, rules)
        # The single probes go straight to the native methods: no Python
        # frame between a caller and the table.
        self.probe_wdl = self._tb.probe_wdl
        self.probe_plies = self._tb.probe_plies
        self.root_moves = self._tb.root_moves
        self.line = self._tb.line

    def __enter__(self) -> "Tablebase":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Frees the tables; later probes raise ``ValueError``."""
        self._tb.close()

    @property
    def ruleset(self) -> str:
        """The named rule set the tables' rules start from."""
        return self._tb.ruleset

    @property
    def rules(self) -> "list[str]":
        """The options in which the tables' rules differ from :attr:`ruleset`'s."""
        return self._tb.rules

    @property
    def ruleset_label(self) -> str:
        """The rule set's label, as its table directory is named."""
        return self._tb.ruleset_label

    def position(self, text: str = "start") -> Position:
        """``text`` as a :class:`Position` under the tables' rules."""
        return self._tb.position(text)

    # Documented here; bound to the native methods in __init__.
    def probe_wdl(self, position: "PositionLike") -> int:
        """1 win, 0 draw, -1 loss for the side to move."""
        return self._tb.probe_wdl(position)

    def probe_plies(self, position: "PositionLike") -> "int | None":
        """Plies to the end with best play, ``None`` for a draw."""
        return self._tb.probe_plies(position)

    def root_moves(self, position: "PositionLike") -> "list[tuple[Move, int, int | None]]":
        """Every legal move, best first, as ``(move, wdl, plies)`` for the
        side playing it (plies counted from ``position``); none when the
        game is over. A :class:`Move` compares equal to its text."""
        return self._tb.root_moves(position)

    def replies(self, position: "PositionLike", move: "Move | str") -> "Replies":
        """How hard ``move`` is to answer: the opponent's replies to it,
        counted by their value for the opponent (``Replies(win, draw,
        loss)``; all 0 when the move ends the game). Among moves of equal
        value, the one that leaves fewest winning replies is the practical
        choice::

            best = [m for m, wdl, plies in tb.root_moves(p) if wdl == 1]
            hardest = min(best, key=lambda m: tb.replies(p, m).win)
        """
        return Replies(*self._tb.replies(position, move))

    def line(self, position: "PositionLike") -> "list[Move]":
        """An optimal line of moves to the end (empty for a draw)."""
        return self._tb.line(position)

    def get_wdl(self, position: "PositionLike", default: "int | None" = None) -> "int | None":
        """:meth:`probe_wdl`, or ``default`` when the table is missing."""
        try:
            return self._tb.probe_wdl(position)
        except MissingTableError:
            return default

    def _batch(self, kind: str, positions: object, on_error: str) -> "tuple[_np.ndarray, _np.ndarray]":
        if on_error not in ("raise", "mark"):
            raise ValueError(f"on_error is 'raise' or 'mark', not {on_error!r}")
        if isinstance(positions, _np.ndarray) and positions.dtype != object:
            wdl, plies, errors = self._tb._many_rows(kind, _rows(positions))
        elif isinstance(positions, (str, Position)):
            raise TypeError("a batch is a sequence of positions; probe one with probe_wdl")
        else:
            wdl, plies, errors = self._tb._many(kind, list(positions))  # type: ignore[call-overload]
        if errors and on_error == "raise":
            index, error_kind, message = errors[0]
            raise _ERRORS.get(error_kind, ValueError)(f"position {index}: {message}")
        return _np.frombuffer(wdl, dtype=_np.int8).copy(), _np.frombuffer(plies, dtype="<i2").astype(_np.int16)

    def probe_wdl_many(self, positions: "_typing.Iterable[PositionLike] | _np.ndarray", on_error: str = "raise") -> "_np.ndarray":
        """WDL of many positions at once (all cores, the GIL released) as an
        ``int8`` array. ``positions`` is a sequence (a list, or a NumPy
        array of objects) of texts and :class:`Position` objects, or an
        integer array of shape ``(n, 17)``
        (the rows :meth:`Position.to_array` gives: per row the square of
        each piece, White Rat ... White Elephant, Black Rat ... Black
        Elephant, 0 = a1 ... 62 = g9, 255 absent; then the side to move, 0
        White, 1 Black). ``on_error="raise"`` raises the first failure
        (its message names the position's index); ``"mark"`` puts
        :data:`MISSING` there."""
        return self._batch("wdl", positions, on_error)[0]

    def probe_plies_many(self, positions: "_typing.Iterable[PositionLike] | _np.ndarray", on_error: str = "raise") -> "_np.ndarray":
        """Plies to the end of many positions, as :meth:`probe_wdl_many`:
        an ``int16`` array, -1 for a draw (:data:`MISSING` with ``"mark"``)."""
        return self._batch("both", positions, on_error)[1]

    def probe_many(self, positions: "_typing.Iterable[PositionLike] | _np.ndarray", on_error: str = "raise") -> "tuple[_np.ndarray, _np.ndarray]":
        """Both at once: ``(wdl, plies)`` as :meth:`probe_wdl_many` and
        :meth:`probe_plies_many` give them, for one pass over the tables."""
        return self._batch("both", positions, on_error)

    def root_moves_many(self, positions: "_typing.Iterable[PositionLike]") -> "list[list[tuple[Move, int, int | None]]]":
        """:meth:`root_moves` of many positions, on all cores."""
        return self._tb.root_moves_many(list(positions))

    def sample(self, material: str, n: int, seed: int = 0) -> "tuple[_np.ndarray, _np.ndarray, _np.ndarray]":
        """``n`` positions of ``material``'s table drawn at random (uniform
        over its positions, both sides to move; the same ``seed``, the same
        draw) with their values, for labelled data sets: ``(positions, wdl,
        plies)`` as NumPy arrays of shapes ``(n, 17)`` (``uint8``, the rows
        :meth:`probe_wdl_many` reads), ``(n,)`` (``int8``: 1, 0, -1 for the
        side to move) and ``(n,)`` (``int16``, -1 for a draw)."""
        if int(n) < 0:
            raise ValueError(f"n is how many positions to draw, 0 or more, not {n}")
        rows, wdl, plies = self._tb._sample(material, int(n), int(seed))
        return (
            _np.frombuffer(rows, dtype=_np.uint8).reshape(-1, 17).copy(),
            _np.frombuffer(wdl, dtype=_np.int8).copy(),
            _np.frombuffer(plies, dtype="<i2").astype(_np.int16),
        )


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


def open_tablebase(directory: "str | _os.PathLike[str]", ruleset: str = "standard", rules: "_typing.Sequence[str] | None" = None) -> Tablebase:
    """Opens the tables of ``ruleset`` (``standard``, ``leiden``,
    ``popular``, or the label of a custom rule set's directory; ``rules``
    adds options as a list, such as ``["wolf_outranks_dog=true"]``) under
    ``directory``, the root :func:`generate` wrote (or one rule set's
    directory in it)."""
    return Tablebase(directory, ruleset, rules)


def generate(
    out: "str | _os.PathLike[str]",
    ruleset: str = "standard",
    rules: "_typing.Sequence[str] | None" = None,
    *,
    max_pieces: "int | None" = None,
    materials: "_typing.Sequence[str] | None" = None,
    threads: "int | None" = None,
    progress: bool = True,
    mem: "int | None" = None,
    one_byte: bool = False,
) -> "dict[str, object]":
    """Generates tables under the root ``out`` (into ``out/<rule set>/``):
    every material of 2 to ``max_pieces`` pieces, or ``materials`` and what
    they depend on, as ``jungletb generate`` does. Tables already there are
    kept, and Ctrl-C stops the solve under way within its level (within a
    second below 6 pieces) with its state saved in
    ``<material>.checkpoint``, then raises ``KeyboardInterrupt``: a second
    call resumes from there. Progress is shown as the command line shows it:
    bars on stderr when it is a terminal, else a line per table
    (``progress=False``: nothing); ``threads`` defaults to every
    core; ``mem`` (bytes) caps the working memory as ``--mem`` does.
    Every solve is in one byte a slot; ``one_byte`` is accepted for one
    release and does nothing (a ``DeprecationWarning`` says so).
    Returns a summary: ``dir``, ``tables``, ``solved`` (the materials
    solved now), ``positions``, ``bytes``, ``seconds``."""
    if one_byte:
        import warnings as _warnings

        _warnings.warn(
            "one_byte=True is the default now (every solve is in one byte a slot); "
            "the argument will be removed in a later release",
            DeprecationWarning,
            stacklevel=2,
        )
    return _generate(_os.fspath(out), ruleset, rules, max_pieces, materials, threads, progress, mem)


def _main() -> None:
    """The ``jungletb`` console script: the command line, in this process."""
    from ._jungletb import run_cli

    _sys.exit(run_cli(["jungletb", *_sys.argv[1:]]))
