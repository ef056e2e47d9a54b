#!/usr/bin/env bash
# Generation on a disk too small for its tables (refused before solving),
# on one that fills up and on a directory that turns read-only: each ends
# in a clear error (exit 1, no panic), no file carrying
# a table's name is ever incomplete, and a later run on a healthy disk ends
# byte-identical to an undisturbed run. Then a table deleted and another
# corrupted between runs (verify names the damage; generate keeps the
# damaged file aside and makes both again), a 5-piece solve stopped by
# SIGTERM and resumed from its checkpoints, and a solve inside a cgroup
# whose memory limit is below the material's working set.
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

# 1. A disk too small: 8 MB for 27 MB of tables. Refused before solving,
#    with the space needed and available, and nothing created.
mount -t tmpfs -o size=8m tmpfs "$mnt"
set +e
"$bin" generate --out "$mnt" --max-pieces 3 --threads 2 --quiet 2> "$work/small.err"
code=$?
set -e
[ "$code" = 1 ] || fail "small disk: exit code $code (expected 1): $(cat "$work/small.err")"
grep -q "bytes available, but the 260 tables still to solve need at least" "$work/small.err" \
  || fail "small disk: unclear error: $(cat "$work/small.err")"
grep -q -- "--no-space-check" "$work/small.err" || fail "small disk: no advice: $(cat "$work/small.err")"
grep -qi "panick" "$work/small.err" && fail "small disk: panic: $(cat "$work/small.err")"
[ -z "$(ls -A "$mnt")" ] || fail "small disk: the refused request created $(ls -A "$mnt")"
say "small disk: refused before solving ($(head -1 "$work/small.err")), nothing created"

#    The same disk without the check (as on a compressing file system): it
#    fills up during the run and the write that does not fit fails.
set +e
"$bin" generate --out "$mnt" --max-pieces 3 --threads 2 --quiet --no-space-check 2> "$work/full.err"
code=$?
set -e
[ "$code" = 1 ] || fail "full disk: exit code $code (expected 1): $(cat "$work/full.err")"
grep -qi "no space left" "$work/full.err" || fail "full disk: unclear error: $(cat "$work/full.err")"
grep -qi "panick" "$work/full.err" && fail "full disk: panic: $(cat "$work/full.err")"
n=$(check_tables "$mnt/standard" "a full disk")
say "full disk: clear error ($(head -1 "$work/full.err")), $n complete tables kept"

# 2. The directory turns read-only (with room enough, so that the space
#    check passes and the first write meets the read-only disk).
mount -o remount,ro,size=64m "$mnt"
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
mount -o remount,rw "$mnt"
"$bin" generate --out "$mnt" --max-pieces 3 --threads 2 --quiet
for f in "$work/ref/standard"/*.jtb; do
  cmp -s "$f" "$mnt/standard/$(basename "$f")" || fail "$(basename "$f") differs after recovering"
done
[ "$(ls "$mnt/standard"/*.jtb | wc -l)" = "$(ls "$work/ref/standard"/*.jtb | wc -l)" ] || fail "table counts differ"
left=$(find "$mnt/standard" -maxdepth 1 \( -name '.work-*' -o -name '*.tmp' \) | wc -l)
[ "$left" = 0 ] || fail "$left leftovers"
say "ok: recovered to $(ls "$mnt/standard"/*.jtb | wc -l) tables byte-identical to an undisturbed run"

# 4. Between runs a table is deleted and another corrupted: verify names the
#    damage; generate keeps the damaged file aside (never deletes it) and
#    makes both again, byte-identical.
rm "$mnt/standard/ERvD.jtb"
printf '\xff' | dd of="$mnt/standard/LvR.jtb" bs=1 seek=5000 conv=notrunc status=none
set +e
"$bin" verify --tables "$mnt" --quiet > "$work/verify.out" 2>&1
code=$?
set -e
[ "$code" != 0 ] || fail "verify passed a corrupted table"
grep -q "LvR" "$work/verify.out" || fail "verify did not name LvR: $(cat "$work/verify.out")"
"$bin" generate --out "$mnt" --max-pieces 3 --threads 2 --quiet
for f in "$work/ref/standard"/*.jtb; do
  cmp -s "$f" "$mnt/standard/$(basename "$f")" || fail "$(basename "$f") differs after regenerating"
done
ls "$mnt/standard"/LvR.jtb.invalid-* >/dev/null 2>&1 || fail "the corrupted LvR was not kept aside"
say "deleted + corrupted table: verify named it, generate kept it as $(basename "$(ls "$mnt/standard"/LvR.jtb.invalid-* | head -1)") and regenerated both byte-identical"

# 6. SIGTERM (what Slurm sends before a time limit) during a 5-piece
#    solve, twice: each time generate saves a checkpoint and exits with 75,
#    nothing carries the table's name, and the last run resumes to the
#    table the solver wrote before checkpoints existed (payload CRC in
#    tests/data/table-crcs-d5cb911.txt). A signal in the forward sweep
#    lets it run to its end and saves there; one before the sweep starts
#    has nothing to save and exits 75 too.
term="$work/term"
"$bin" generate --out "$term" --material ELTvE --material ELTvT --material ETvET \
  --material ELvET --material LTvET --threads 2 --quiet
stops=0
# ELTvET solves in about 11 s here (sweep 3.4 s): the first signal comes
# in or just after the sweep, the next ones in the propagation of the
# resumed runs.
for delay in 3 5 2 4 1; do
  [ "$stops" -lt 2 ] || break
  "$bin" generate --out "$term" --material ELTvET --threads 2 --quiet 2>"$work/term.err" &
  pid=$!
  sleep "$delay"
  kill -TERM "$pid" 2>/dev/null || true
  status=0
  wait "$pid" || status=$?
  [ ! -e "$term/standard/ELTvET.jtb" ] || break # finished before the signal
  [ ! -e "$term/standard/ELTvET.checkpoint.tmp" ] || fail "a half-written checkpoint was left"
  if [ "$status" = 75 ] && [ -s "$term/standard/ELTvET.checkpoint" ]; then
    grep -q "saved in" "$work/term.err" || fail "no word of the checkpoint: $(cat "$work/term.err")"
    stops=$((stops + 1))
  elif [ "$status" != 75 ]; then
    fail "SIGTERM: exit $status ($(cat "$work/term.err"))"
  fi
done
[ "$stops" -ge 1 ] || fail "no SIGTERM landed in the solve"
"$bin" generate --out "$term" --material ELTvET --threads 2 --quiet
[ ! -e "$term/standard/ELTvET.checkpoint" ] || fail "the checkpoint outlived its table"
want=$(awk '$1 == "ELTvET" {print $2}' "$here/../data/table-crcs-d5cb911.txt")
got=$("$bin" info "$term/standard/ELTvET.jtb" | awk '/payload crc32/ {print $3}')
[ "$got" = "$want" ] || fail "ELTvET resumed from $stops checkpoint(s): payload CRC $got, want $want"
say "SIGTERM: ELTvET stopped with a checkpoint $stops time(s), resumed byte-identical ($got)"

#    A stop within a level (between chunks of 2^16 slots): SIGTERM in the
#    propagation, a checkpoint of the bytes and of the chunks run, and a
#    resumed run that writes the same table. The signal waits for the log
#    line that says the propagation has started (not for a guessed time:
#    the sweep's length differs from machine to machine), then a little
#    more, so that it lands within a level.
wait_for_propagation() { # until generate's log says ELTvET's propagation started
  for _ in $(seq 600); do
    grep -q "ELTvET: propagating" "$work/term.err" && return
    kill -0 "$1" 2>/dev/null || break
    sleep 0.1
  done
  fail "no word of the propagation: $(cat "$work/term.err")"
}
rm -f "$term/standard/ELTvET.jtb"
stopped=""
for delay in 1 0.3 2; do
  "$bin" generate --out "$term" --material ELTvET --threads 2 2>"$work/term.err" &
  pid=$!
  wait_for_propagation "$pid"
  sleep "$delay"
  t0=$(date +%s%N)
  kill -TERM "$pid" 2>/dev/null || true
  status=0
  wait "$pid" || status=$?
  ms=$((($(date +%s%N) - t0) / 1000000))
  [ ! -e "$term/standard/ELTvET.jtb" ] || break # finished before the signal
  [ "$status" = 75 ] || fail "SIGTERM in a level: exit $status ($(cat "$work/term.err"))"
  [ -s "$term/standard/ELTvET.checkpoint" ] || fail "in a level: exit 75 without a checkpoint"
  grep -q "saved in" "$work/term.err" || fail "in a level: no word of the checkpoint: $(cat "$work/term.err")"
  stopped="$stopped ${ms} ms,"
done
[ -n "$stopped" ] || fail "no SIGTERM landed in a level"
"$bin" generate --out "$term" --material ELTvET --threads 2 --quiet
[ ! -e "$term/standard/ELTvET.checkpoint" ] || fail "the checkpoint outlived its table"
got=$("$bin" info "$term/standard/ELTvET.jtb" | awk '/payload crc32/ {print $3}')
[ "$got" = "$want" ] || fail "ELTvET stopped in a level, resumed: payload CRC $got, want $want"
say "SIGTERM in a level: stopped (signal to exit:$stopped checkpoint written), resumed byte-identical ($got)"

#    A disk that fills up while the solve runs (its cells are in memory),
#    once the propagation has started, so that the checkpoint's write
#    finds no room: a clear error (exit 1),
#    neither a checkpoint nor its .tmp nor a table left, and the same
#    command, once the disk has room again, solves it from the start,
#    byte-identical.
umount "$mnt" 2>/dev/null || true
mount -t tmpfs -o size=600m tmpfs "$mnt"
mkdir -p "$mnt/standard"
for f in "$term"/standard/*.jtb; do
  [ "$(basename "$f")" = ELTvET.jtb ] || cp "$f" "$mnt/standard/"
done
rm -rf "$term"
"$bin" generate --out "$mnt" --material ELTvET --threads 2 2>"$work/term.err" &
pid=$!
wait_for_propagation "$pid"
dd if=/dev/zero of="$mnt/filler" bs=1M 2>/dev/null || true
kill -TERM "$pid" 2>/dev/null || true
status=0
wait "$pid" || status=$?
rm -f "$mnt/filler"
[ ! -e "$mnt/standard/ELTvET.jtb" ] || fail "full disk: ELTvET was finished before the signal"
ls "$mnt/standard" | grep -q checkpoint && fail "a checkpoint file was left on the full disk"
[ "$status" = 1 ] || fail "checkpoint on a full disk: exit $status ($(cat "$work/term.err"))"
grep -q "writing the checkpoint failed: No space" "$work/term.err" ||
  fail "no clear error: $(cat "$work/term.err")"
"$bin" generate --out "$mnt" --material ELTvET --threads 2 --quiet
got=$("$bin" info "$mnt/standard/ELTvET.jtb" | awk '/payload crc32/ {print $3}')
[ "$got" = "$want" ] || fail "ELTvET after a failed checkpoint: payload CRC $got, want $want"
say "SIGTERM on a full disk: $(grep -m1 error "$work/term.err" | cut -c1-220); then solved byte-identical ($got)"
umount "$mnt"

# 5. A memory limit below the working set (cgroup v1 or v2): ELvTR with
#    --mem at its minimum (70M) in a cgroup limited to 48 MB, below what the
#    solve touches (its arrays, its sub-tables' maps): the kernel reclaims
#    and pages, the run completes, and the table is byte-identical to an
#    unconstrained solve.
"$bin" generate --out "$work/ref" --material ELvTR --threads 2 --quiet
cp -r "$work/ref/standard" "$work/cg-standard"
rm "$work/cg-standard/ELvTR.jtb"
mkdir -p "$work/cg" && mv "$work/cg-standard" "$work/cg/standard"
limit=$((48 << 20))
if [ -d /sys/fs/cgroup/memory ]; then
  cg=/sys/fs/cgroup/memory/jungletb-faults-$$
  mkdir "$cg"
  echo "$limit" > "$cg/memory.limit_in_bytes"
  peak_file=$cg/memory.max_usage_in_bytes
elif [ -f /sys/fs/cgroup/cgroup.controllers ] && grep -qw memory /sys/fs/cgroup/cgroup.controllers; then
  cg=/sys/fs/cgroup/jungletb-faults-$$
  mkdir "$cg"
  echo "$limit" > "$cg/memory.max"
  peak_file=$cg/memory.peak
else
  say "memory limit: no cgroup memory controller here: skipped"
  exit 0
fi
sh -c "echo \$\$ > $cg/cgroup.procs && exec $bin generate --out $work/cg --material ELvTR --threads 2 --mem 70M --quiet"
peak=$(cat "$peak_file" 2>/dev/null || echo 0)
rmdir "$cg" 2>/dev/null || true
cmp -s "$work/ref/standard/ELvTR.jtb" "$work/cg/standard/ELvTR.jtb" || fail "ELvTR differs under the memory limit"
[ "$peak" -le "$limit" ] || fail "peak memory $peak above the $limit limit"
say "memory limit: ELvTR solved in a cgroup of $((limit >> 20)) MB (peak $((peak >> 20)) MB), byte-identical"
