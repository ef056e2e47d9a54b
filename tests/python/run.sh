#!/usr/bin/env bash
# The Python package: built and installed by pip from crates/python (maturin
# as the build backend, from PyPI) into a private virtual environment, then
# its pytest tests, which compare it with the CLI.
#
#   tests/python/run.sh [path/to/jungletb]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin=$(readlink -f "${1:-$repo/target/release/jungletb}")
say() { echo "python test: $*"; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q --upgrade pip
say "building and installing crates/python with pip (maturin)"
"$work/venv/bin/pip" install -q "$repo/crates/python[test]"
JUNGLETB_BIN="$bin" "$work/venv/bin/python" -m pytest -q "$repo/crates/python/tests"
JUNGLETB_BIN="$bin" "$work/venv/bin/python" "$repo/crates/python/examples/probe_speed.py" "$bin"
# The labelling example on a 3-piece table: 100,000 positions into a .npz.
"$bin" generate --out "$work/tables" --material ERvT -q
"$work/venv/bin/python" "$repo/crates/python/examples/label_positions.py" "$work/tables" ERvT "$work/ervt.npz" 100000
"$work/venv/bin/python" -c "import numpy as np; d = np.load('$work/ervt.npz'); assert d['positions'].shape == (100000, 17) and d['wdl'].shape == (100000,)"
say "passed"
