"""Probes per second from Python, single and batched, beside the native
rate: the same probes in a Rust loop on one thread, timed in the same run.

    python probe_speed.py path/to/jungletb

Generates the standard tables up to 3 pieces in a temporary directory,
draws 200,000 random legal positions of them, and times
`Tablebase.probe_wdl` one by one (texts and Positions) and
`probe_wdl_many` over the same positions (texts, Positions, and the
(n, 17) array form), best of three rounds. RAYON_NUM_THREADS sets the
batch's threads; batch rates are also given per thread. The goals
(issue 39): single probes >= 0.9 M/s, array batches >= 0.8x the native
rate per thread, text batches >= 1.5 M/s per thread.
"""

import os
import random
import subprocess
import sys
import tempfile
import time

import numpy as np

import jungletb


def random_positions(n, seed=1):
    rng = random.Random(seed)
    files = "abcdefg"
    animals = "ELTPDWCR"
    out = []
    while len(out) < n:
        k = rng.choice([2, 3])
        pieces = rng.sample(animals, k)
        colours = ["w", "b"] + [rng.choice("wb") for _ in range(k - 2)]
        squares = rng.sample([f + str(r) for r in range(1, 10) for f in files], k)
        board = {}
        for a, c, s in zip(pieces, colours, squares):
            board[s] = a if c == "w" else a.lower()
        text = jungletb.position_text(board, rng.choice("wb"))
        try:
            p = jungletb.Position(text)
        except ValueError:
            continue  # in the water, on a den, or a finished game
        if not p.is_game_over():
            out.append(text)
    return out


def main():
    binary = sys.argv[1]
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([binary, "generate", "--out", d, "--max-pieces", "3", "-q"], check=True)
        texts = random_positions(200_000)
        rows = np.array([jungletb.Position(t).to_array() for t in texts])
        with jungletb.open_tablebase(d) as tb:
            positions = [tb.position(t) for t in texts]
            tb.probe_wdl_many(texts[:1000])  # open the tables
            # Each rate is the best of three rounds, the rounds alternated,
            # so that a neighbour's load on this machine hits all alike.
            best = {}
            for _ in range(3):
                for name, run in [
                    ("single", lambda: [tb.probe_wdl(t) for t in texts]),
                    ("single Position", lambda: [tb.probe_wdl(p) for p in positions]),
                    ("texts", lambda: tb.probe_wdl_many(texts)),
                    ("Positions", lambda: tb.probe_wdl_many(positions)),
                    ("array", lambda: tb.probe_wdl_many(rows)),
                    ("native", lambda: tb._tb._native_seconds(rows.tobytes())),
                ]:
                    t0 = time.perf_counter()
                    out = run()
                    seconds = out if name == "native" else time.perf_counter() - t0
                    if name == "single":
                        single = out
                    elif name != "native":
                        assert list(out) == single, name
                    best[name] = min(best.get(name, seconds), seconds)
            threads = tb._tb._batch_threads()
        n = len(texts)
        print(f"python single probes (texts):     {n / best['single']:,.0f}/s")
        print(f"python single probes (Positions): {n / best['single Position']:,.0f}/s")
        for name in ["texts", "Positions", "array"]:
            rate = n / best[name]
            print(f"python batch ({name}): {rate:,.0f}/s on {threads} thread(s), {rate / threads:,.0f}/s per thread")
        print(f"native, one thread:   {n / best['native']:,.0f}/s")
        ratio = best["native"] / (threads * best["array"])
        print(f"batch per thread / native: {ratio:.2f}")


if __name__ == "__main__":
    main()
