#!/usr/bin/env bash
# The Python package as users install it: an abi3 wheel built by maturin
# (the documented command), installed in a fresh virtual environment whose
# PATH has no cargo or rustc (so nothing can be built from source), then
# its pytest tests (which compare it with the CLI), the stubs under
# mypy --strict, the console script, the speed example and the labelling
# example.
#
#   tests/python/run.sh [path/to/jungletb]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin=$(readlink -f "${1:-$repo/target/release/jungletb}")
say() { echo "python test: $*"; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

say "building the wheel (maturin build --release, as docs/python.md says)"
python3 -m venv "$work/build"
"$work/build/bin/pip" install -q --upgrade pip "maturin>=1.5,<2"
(cd "$repo/crates/python" && "$work/build/bin/maturin" build --release -q -o "$work/wheels")
wheel=$(ls "$work"/wheels/jungletb-*-abi3-*.whl)
say "built $(basename "$wheel")"
case "$wheel" in
  *manylinux*) ;;
  *) echo "python test: the wheel is not tagged manylinux: $wheel" >&2; exit 1 ;;
esac

# A PATH with the system's tools and the venv only: no ~/.cargo/bin.
python=$(readlink -f "$(command -v python3)")
nopath="$work/venv/bin:/usr/local/bin:/usr/bin:/bin"
"$python" -m venv "$work/venv"
if PATH="$nopath" command -v cargo >/dev/null || PATH="$nopath" command -v rustc >/dev/null; then
  echo "python test: cargo or rustc is still on the test PATH ($nopath)" >&2; exit 1
fi
say "installing the wheel where there is no Rust toolchain"
PATH="$nopath" "$work/venv/bin/pip" install -q --upgrade pip
PATH="$nopath" "$work/venv/bin/pip" install -q --only-binary :all: "$wheel" pytest "mypy>=1.8"
cd "$work"
PATH="$nopath" JUNGLETB_BIN="$bin" "$work/venv/bin/python" -m pytest -q -p no:cacheprovider "$repo/crates/python/tests"
say "the stubs under mypy --strict"
PATH="$nopath" "$work/venv/bin/mypy" --strict --no-incremental "$repo/crates/python/tests/typed_use.py"
# ... and the stubs refuse rules= as a lone string (run time raises TypeError).
printf 'import jungletb\njungletb.Position("start", "popular", "wolf_outranks_dog=true")\n' > "$work/lone_string.py"
if PATH="$nopath" "$work/venv/bin/mypy" --strict --no-incremental "$work/lone_string.py" >/dev/null; then
  echo "python test: the stubs accept rules= as a string" >&2; exit 1
fi
PATH="$nopath" JUNGLETB_BIN="$bin" "$work/venv/bin/python" "$repo/crates/python/examples/probe_speed.py" "$work/venv/bin/jungletb"
# The labelling example on a 3-piece table made by the wheel's own
# generate(): 100,000 positions into a .npz.
PATH="$nopath" "$work/venv/bin/python" -c "import jungletb; jungletb.generate('$work/tables', materials=['ERvT'], progress=False)"
PATH="$nopath" "$work/venv/bin/python" "$repo/crates/python/examples/label_positions.py" "$work/tables" ERvT "$work/ervt.npz" --n 100000 --ruleset standard
PATH="$nopath" "$work/venv/bin/python" -c "import numpy as np; d = np.load('$work/ervt.npz'); assert d['positions'].shape == (100000, 17) and d['wdl'].shape == (100000,)"
say "passed"
