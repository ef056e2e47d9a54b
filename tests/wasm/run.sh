#!/usr/bin/env bash
# The probe library builds for WebAssembly (wasm32-unknown-unknown): the
# rules, the index, the table format (distance blocks decoded by ruzstd,
# the pure-Rust zstd decoder) and the tablebase, so that a browser build
# (issue 41) starts from the same code as the native probe. Adds the
# target with rustup if missing; builds into its own target directory.
set -euo pipefail
cd "$(dirname "$0")/../.."
say() { echo "wasm test: $*"; }
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}/wasm"
cargo build --release --target wasm32-unknown-unknown \
  -p jungletb-rules -p jungletb-indexer -p jungletb-format -p jungletb-tablebase
say "passed: rules, indexer, format and tablebase build for wasm32-unknown-unknown"
