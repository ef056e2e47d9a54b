"""A labelled data set from a table: a million random positions of a
material with their values, saved as a NumPy .npz (for training a value
network, say).

    python label_positions.py TABLES MATERIAL OUT.npz [--n N] [--seed SEED]
        [--ruleset NAME]

TABLES is a tables root (or one rule set's directory); --ruleset chooses
the rule set (standard by default), as on the command line.

The arrays: ``positions`` (N, 17) uint8 (the square of each piece, White
Rat ... White Elephant, Black Rat ... Black Elephant, 0 = a1 ... 62 = g9,
255 absent; then the side to move, 0 White, 1 Black), ``wdl`` (N,) int8
(1, 0, -1 for the side to move) and ``plies`` (N,) int16 (-1 for a draw).
"""

import argparse
import time

import numpy as np

import jungletb


def main():
    parser = argparse.ArgumentParser(description="A labelled data set from a table.")
    parser.add_argument("tables", help="a tables root, or one rule set's directory")
    parser.add_argument("material", help="the material, e.g. ELvTR")
    parser.add_argument("out", help="the .npz file to write")
    parser.add_argument("--n", type=int, default=1_000_000, help="positions to draw")
    parser.add_argument("--seed", type=int, default=0, help="the same seed, the same draw")
    parser.add_argument("--ruleset", default="standard", help="standard, leiden or popular")
    args = parser.parse_args()
    start = time.perf_counter()
    with jungletb.open_tablebase(args.tables, ruleset=args.ruleset) as tb:
        positions, wdl, plies = tb.sample(args.material, args.n, seed=args.seed)
        ruleset = tb.ruleset
    np.savez_compressed(args.out, positions=positions, wdl=wdl, plies=plies)
    wins, draws, losses = (wdl == 1).sum(), (wdl == 0).sum(), (wdl == -1).sum()
    print(f"{args.out}: {args.n} positions of {args.material} ({ruleset}) in "
          f"{time.perf_counter() - start:.1f} s: "
          f"{wins} wins, {draws} draws, {losses} losses for the side to move")


if __name__ == "__main__":
    main()
