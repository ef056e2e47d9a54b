#!/usr/bin/env bash
# End-to-end test of `jungletb plan --slurm` on a real single-node Slurm
# cluster started here, then stopped by the PIDs it started.
#
#   tests/slurm/run.sh [path/to/jungletb]
#
# 1. Installs Debian's slurm-wlm and munge if missing (needs root and apt).
# 2. Starts munged, slurmctld and slurmd with private sockets, ports, state
#    and log directories under a temporary directory (nothing system-wide
#    is configured or left running).
# 3. Plans every table up to 3 pieces plus four 4-piece materials, one
#    material per array task, submits it with the generated submit.sh, and
#    SIGKILLs one 4-piece task while it is solving.
# 4. Plans again: exactly the killed material is listed; submits, waits.
# 5. Compares every table with a local `jungletb generate` of the same
#    request: byte-identical, nothing left behind.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin=${1:-$repo/target/release/jungletb}
bin=$(readlink -f "$bin")
[ -x "$bin" ] || { echo "slurm test: no jungletb binary at $bin (build with cargo build --release)" >&2; exit 1; }

say() { echo "slurm test: $*"; }
fail() { echo "slurm test: FAILED: $*" >&2; exit 1; }

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
  say "installing slurm-wlm and munge"
  [ "$(id -u)" = 0 ] || fail "slurm-wlm/munge missing and not root to install them"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q slurm-wlm munge >/dev/null 2>&1 || {
    apt-get update -q >/dev/null 2>&1
    apt-get install -y -q slurm-wlm munge >/dev/null
  }
fi

work=$(mktemp -d /tmp/jungletb-slurm.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
  local status=$?
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null || true
  done
  if [ $status -ne 0 ]; then
    for f in "$work"/slurmctld.log "$work"/slurmd.log "$work"/slurm/logs/*; do
      [ -f "$f" ] && { echo "--- $f"; tail -n 20 "$f"; }
    done
  fi
  rm -rf "$work"
}
trap cleanup EXIT

host=$(hostname -s)
cpus=$(nproc)
mem_mb=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 1024 ))

# munge: a private key, socket and state.
mkdir -p "$work/munge"
head -c 1024 /dev/urandom > "$work/munge/munge.key"
chmod 400 "$work/munge/munge.key"
socket="$work/munge/munge.socket"
munged --force --key-file="$work/munge/munge.key" --socket="$socket" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" \
  --seed-file="$work/munge/munged.seed"
for _ in $(seq 50); do [ -f "$work/munge/munged.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$work/munge/munged.pid")")

# Slurm: private ports, state and logs.
port=$(( 20000 + RANDOM % 20000 ))
mkdir -p "$work/state" "$work/spool"
export SLURM_CONF="$work/slurm.conf"
cat > "$SLURM_CONF" <<EOF
ClusterName=jungletbtest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
MinJobAge=600
NodeName=$host CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -i -f "$SLURM_CONF" >/dev/null 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  sinfo -h -o %T 2>/dev/null | grep idle >/dev/null && break
  sleep 0.2
done
sinfo -h -o %T | grep idle >/dev/null || fail "the node did not come up: $(sinfo 2>&1)"
say "cluster up: $(sinfo -h -o '%N %c CPUs %m MB %T')"

wait_jobs() { # waits until none of the given jobs is queued or running
  for _ in $(seq 900); do
    [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
    sleep 0.2
  done
  fail "jobs $1 still queued after 180 s: $(squeue)"
}

four=(--material ELvTR --material TRvTR --material LTvRP --material WDvCP)
tables="$work/tables"
plan=("$bin" plan --max-pieces 3 "${four[@]}" --tables "$tables" --threads 1)

# The reference, generated locally.
"$bin" generate --out "$work/local" --max-pieces 3 --threads 2 --quiet
"$bin" generate --out "$work/local" "${four[@]}" --threads 2 --quiet

# First submission: one 4-piece material per task (each is estimated at
# more than the 0.3 s target), the small ones packed into a few tasks;
# kill one 4-piece task mid-solve.
"${plan[@]}" --slurm "$work/slurm" --task-minutes 0.005 --max-running 2 > "$work/plan1.txt"
[ "$(wc -l < "$work/slurm/tasks-4.txt")" = 4 ] || fail "4-piece tasks: $(cat "$work/slurm/tasks-4.txt")"
grep -q "^to do: 264 material" "$work/plan1.txt" || fail "first plan: $(tail -n 3 "$work/plan1.txt")"
jobs=$(bash "$work/slurm/submit.sh" | awk '{print $4}' | paste -sd,)
say "submitted jobs $jobs"
victim=""
four_piece_task() { # pid and material of a running generator of a 4-piece material
  pgrep -af "$bin generate" | while read -r pid rest; do
    m=$(echo "$rest" | grep -oE -- '--material [A-Za-z]+' | awk '{print $2}')
    [ "${#m}" = 5 ] && { echo "$pid $m"; break; }
  done
}
for _ in $(seq 1500); do
  read -r victim killed < <(four_piece_task; echo) || true
  [ -n "$victim" ] && break
  sleep 0.05
done
[ -n "$victim" ] || fail "no 4-piece task seen running"
sleep 0.3
kill -9 "$victim"
say "killed the task solving $killed (pid $victim)"
wait_jobs "$jobs"

# Second plan: only what the killed task left undone.
"${plan[@]}" --slurm "$work/slurm2" --max-running 2 > "$work/plan2.txt"
grep -q "^to do: 1 material" "$work/plan2.txt" || fail "second plan: $(cat "$work/plan2.txt")"
grep -q "^$killed " "$work/plan2.txt" || fail "second plan does not list $killed: $(cat "$work/plan2.txt")"
jobs=$(bash "$work/slurm2/submit.sh" | awk '{print $4}' | paste -sd,)
wait_jobs "$jobs"
"${plan[@]}" | grep "^nothing to do" >/dev/null || fail "tables still missing after resubmission"

# Byte-identical to the local run, nothing left behind.
n=0
for f in "$work/local/standard"/*.jtb; do
  cmp -s "$f" "$tables/standard/$(basename "$f")" || fail "$(basename "$f") differs from the local run"
  n=$((n + 1))
done
[ "$n" = "$(ls "$tables/standard"/*.jtb | wc -l)" ] || fail "table counts differ"
left=$(find "$tables/standard" -maxdepth 1 \( -name '.work-*' -o -name '*.tmp' \) | wc -l)
[ "$left" = 0 ] || fail "$left leftovers in $tables/standard"
say "ok: $n tables byte-identical to a local run after a killed and resubmitted task"
