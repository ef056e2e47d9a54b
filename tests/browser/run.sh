#!/usr/bin/env bash
# End-to-end test of `jungletb serve` and its web board in Debian's headless
# Chromium, driven by playwright-core (no browser download: the test uses
# /usr/bin/chromium).
#
#   tests/browser/run.sh [path/to/jungletb] [screenshot dir]
#
# 1. Installs Debian's chromium (and an emoji font for the animals) if
#    missing (needs root and apt), and playwright-core from npm at the
#    version package-lock.json pins.
# 2. Generates every standard table up to 3 pieces in a temporary directory.
# 3. Starts the server on a free loopback port, runs board.test.mjs, then
#    svg.test.mjs on pictures written by `jungletb render`, then stops the
#    server with SIGTERM: it must finish and exit 0.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin=$(readlink -f "${1:-$repo/target/release/jungletb}")
shots=${2:-$repo/target/browser-test}
[ -x "$bin" ] || { echo "browser test: no jungletb binary at $bin" >&2; exit 1; }
say() { echo "browser test: $*"; }
fail() { echo "browser test: FAILED: $*" >&2; exit 1; }

if ! command -v chromium >/dev/null || ! fc-list 2>/dev/null | grep -i "color emoji" >/dev/null; then
  say "installing chromium and fonts-noto-color-emoji"
  [ "$(id -u)" = 0 ] || fail "chromium missing and not root to install it"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q chromium fonts-noto-color-emoji >/dev/null \
    || { apt-get update -q >/dev/null && apt-get install -y -q chromium fonts-noto-color-emoji >/dev/null; }
fi
if [ ! -d "$here/node_modules/playwright-core" ]; then
  say "installing playwright-core"
  (cd "$here" && npm ci --no-audit --no-fund --silent)
fi

work=$(mktemp -d)
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

say "generating the standard tables up to 3 pieces"
"$bin" generate --out "$work/tables" --max-pieces 3 -q

"$bin" serve --tables "$work/tables" --bind 127.0.0.1:0 2>"$work/server.log" &
server_pid=$!
for _ in $(seq 100); do
  grep -q "listening on" "$work/server.log" && break
  sleep 0.1
done
url=$(sed -n 's|^listening on \(http://[0-9.:]*\)/.*|\1|p' "$work/server.log")
[ -n "$url" ] || { cat "$work/server.log" >&2; fail "the server did not start"; }
say "server at $url"

mkdir -p "$shots"
node "$here/board.test.mjs" "$url" "$shots" || { tail -n 20 "$work/server.log" >&2; fail "board.test.mjs"; }

# The pictures of `jungletb render`: texts inside the picture, none overlapping.
"$bin" render map "7/7/4t2/7/7/7/1E5/7/R6 w" --square b3 --tables "$work/tables" --out "$work/map-elephant.svg"
"$bin" render map "7/3l3/7/7/7/7/7/7/2T1R2 b" --square d8 --tables "$work/tables" --out "$work/map-lion.svg"
"$bin" render histogram ERvT --tables "$work/tables" --out "$work/histogram-ERvT.svg"
"$bin" render histogram CvC --tables "$work/tables" --out "$work/histogram-CvC.svg"
node "$here/svg.test.mjs" "$shots" "$work"/map-*.svg "$work"/histogram-*.svg || fail "svg.test.mjs"

kill -TERM "$server_pid"
status=0
wait "$server_pid" || status=$?
server_pid=
[ "$status" = 0 ] || fail "the server exited with $status after SIGTERM"
grep -q "^stopped" "$work/server.log" || fail "no graceful shutdown in the log"
say "server stopped gracefully; $(grep -c ' GET ' "$work/server.log") requests logged"
say "passed (screenshots in $shots)"
