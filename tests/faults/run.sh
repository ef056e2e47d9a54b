#!/usr/bin/env bash
# Generation on a disk that fills up and on a directory that turns
# read-only: each ends in a clear error (exit 1, no panic), no file carrying
# a table's name is ever incomplete, and a later run on a healthy disk ends
# byte-identical to an undisturbed run.
#
#   tests/faults/run.sh [path/to/jungletb]
#
# Needs root (it mounts a small tmpfs); CI runs as root.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=$(readlink -f "${1:-$here/../../target/release/jungletb}")
say() { echo "faults test: $*"; }
fail() { echo "faults test: FAILED: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "needs root to mount a small tmpfs"

work=$(mktemp -d /tmp/jungletb-faults.XXXXXX)
mnt="$work/disk"
mkdir -p "$mnt"
cleanup() { umount "$mnt" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

# The undisturbed reference: every table up to 3 pieces (~27 MB).
"$bin" generate --out "$work/ref" --max-pieces 3 --threads 2 --quiet

check_tables() { # every file with a table's name is a complete, valid table
  local dir=$1 n=0
  for f in "$dir"/*.jtb; do
    [ -e "$f" ] || continue
    "$bin" info "$f" >/dev/null 2>&1 || fail "$(basename "$f") is not a valid table after $2"
    n=$((n + 1))
  done
  echo "$n"
}

# 1. The disk fills up: 8 MB for 27 MB of tables.
mount -t tmpfs -o size=8m tmpfs "$mnt"
set +e
"$bin" generate --out "$mnt" --max-pieces 3 --threads 2 --quiet 2> "$work/full.err"
code=$?
set -e
[ "$code" = 1 ] || fail "full disk: exit code $code (expected 1): $(cat "$work/full.err")"
grep -qi "no space left" "$work/full.err" || fail "full disk: unclear error: $(cat "$work/full.err")"
grep -qi "panick" "$work/full.err" && fail "full disk: panic: $(cat "$work/full.err")"
n=$(check_tables "$mnt/standard" "a full disk")
say "full disk: clear error ($(head -1 "$work/full.err")), $n complete tables kept"

# 2. The directory turns read-only.
mount -o remount,ro "$mnt"
set +e
"$bin" generate --out "$mnt" --max-pieces 3 --threads 2 --quiet 2> "$work/ro.err"
code=$?
set -e
[ "$code" = 1 ] || fail "read-only: exit code $code (expected 1): $(cat "$work/ro.err")"
grep -qi "read-only" "$work/ro.err" || fail "read-only: unclear error: $(cat "$work/ro.err")"
m=$(check_tables "$mnt/standard" "a read-only directory")
[ "$m" = "$n" ] || fail "read-only: $n tables before, $m after"
say "read-only: clear error ($(head -1 "$work/ro.err")), tables untouched"

# 3. Room again: the run completes, byte-identical, nothing left behind.
mount -o remount,rw,size=64m "$mnt"
"$bin" generate --out "$mnt" --max-pieces 3 --threads 2 --quiet
for f in "$work/ref/standard"/*.jtb; do
  cmp -s "$f" "$mnt/standard/$(basename "$f")" || fail "$(basename "$f") differs after recovering"
done
[ "$(ls "$mnt/standard"/*.jtb | wc -l)" = "$(ls "$work/ref/standard"/*.jtb | wc -l)" ] || fail "table counts differ"
left=$(find "$mnt/standard" -maxdepth 1 \( -name '.work-*' -o -name '*.tmp' \) | wc -l)
[ "$left" = 0 ] || fail "$left leftovers"
say "ok: recovered to $(ls "$mnt/standard"/*.jtb | wc -l) tables byte-identical to an undisturbed run"
