#!/usr/bin/env bash
# Load test of `jungletb serve` on loopback with wrk (Debian's package):
# cached answers (one position asked again and again) and uncached ones
# (random legal 3-piece positions, with the cache off).
# Fails if any request is refused or fails; prints requests/s and latency
# percentiles (docs/performance.md, "Server").
#
#   tests/load/run.sh [path/to/jungletb] [seconds per run, default 10]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin=$(readlink -f "${1:-$repo/target/release/jungletb}")
secs=${2:-10}
say() { echo "load test: $*"; }
fail() { echo "load test: FAILED: $*" >&2; exit 1; }
[ -x "$bin" ] || fail "no jungletb binary at $bin"
if ! command -v wrk >/dev/null; then
  say "installing wrk"
  [ "$(id -u)" = 0 ] || fail "wrk missing and not root to install it"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q wrk >/dev/null \
    || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q wrk >/dev/null; }
fi

work=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
"$bin" generate --out "$work/tables" --max-pieces 3 -q

start() {
  "$bin" serve --tables "$work/tables" --bind 127.0.0.1:0 -q "$@" 2>"$work/server.log" &
  pid=$!
  # Up to a minute: a loaded machine (a CI run beside a long job) has
  # been seen to take more than ten seconds.
  for _ in $(seq 600); do
    grep -q "listening on" "$work/server.log" && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  url=$(sed -n 's|^listening on \(http://[0-9.:]*\)/.*|\1|p' "$work/server.log")
  [ -n "$url" ] || fail "server did not start: $(cat "$work/server.log")"
}
stop() { kill -TERM "$pid"; wait "$pid" || fail "server exit status $?"; pid=; }
rss() { awk '/VmHWM/ {print $2 " kB"}' "/proc/$pid/status"; }

check() { # name, wrk output
  local out=$1 name=$2
  echo "$out" | sed -n '/Latency Distribution/,/requests in/p;/Requests\/sec/p;/Non-2xx/p' | sed "s/^/  [$name] /"
  echo "$out" | grep -q "Non-2xx" && fail "$name: $(echo "$out" | grep Non-2xx)"
  echo "$out" | grep -q "Socket errors" && fail "$name: socket errors: $(echo "$out" | grep 'Socket errors')"
  return 0
}

start
out=$(wrk -t2 -c64 -d"${secs}s" --latency "$url/api/standard?position=7/7/4t2/7/7/7/1E5/7/R6_w")
check "$out" cached
say "cached: peak RSS $(rss)"
stop

start --cache-entries 0
out=$(wrk -t2 -c64 -d"${secs}s" --latency -s "$here/positions.lua" "$url" 2>&1)
echo "$out" | grep -q "positions.lua:" && fail "the wrk script failed: $(echo "$out" | grep -m1 positions.lua:)"
check "$out" uncached
say "uncached: peak RSS $(rss)"
stop
say "passed"
