"""A labelled data set from a table: a million random positions of a
material with their values, saved as a NumPy .npz (for training a value
network, say).

    python label_positions.py TABLES MATERIAL OUT.npz [N] [SEED]

The arrays: ``positions`` (N, 17) uint8 (the square of each piece, White
Rat ... White Elephant, Black Rat ... Black Elephant, 0 = a1 ... 62 = g9,
255 absent; then the side to move, 0 White, 1 Black), ``wdl`` (N,) int8
(1, 0, -1 for the side to move) and ``plies`` (N,) int16 (-1 for a draw).
"""

import sys
import time

import numpy as np

import jungletb


def main():
    tables, material, out = sys.argv[1:4]
    n = int(sys.argv[4]) if len(sys.argv) > 4 else 1_000_000
    seed = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    start = time.perf_counter()
    with jungletb.open_tablebase(tables) as tb:
        positions, wdl, plies = tb.sample(material, n, seed=seed)
    np.savez_compressed(out, positions=positions, wdl=wdl, plies=plies)
    wins, draws, losses = (wdl == 1).sum(), (wdl == 0).sum(), (wdl == -1).sum()
    print(f"{out}: {n} positions of {material} in {time.perf_counter() - start:.1f} s: "
          f"{wins} wins, {draws} draws, {losses} losses for the side to move")


if __name__ == "__main__":
    main()
