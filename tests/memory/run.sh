#!/usr/bin/env bash
# The memory bound of a 5-piece material as users run it: the solve
# (`generate`, one byte a slot) and `compress` of its
# table must each peak at most 1.25 bytes a slot of resident memory
# (ELTvET: 232,912,260 slots, so 277 MiB), measured by .ci/peak-rss (the
# largest resident set of the process). Its sub-tables are solved first,
# outside the measurement. Both run on 2 threads (compress holds a section
# of 2^23 slots a thread). About 3 minutes on 2 cores.
#
#   tests/memory/run.sh [path/to/jungletb]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin=$(readlink -f "${1:-$repo/target/release/jungletb}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
say() { echo "memory test: $*"; }
slots=232912260
limit_mib=$(( slots * 125 / 100 / 1048576 ))
for m in ETvLT ETvET ELvET ELTvT ELTvE; do
  "$bin" generate --out "$work" --material "$m" -q
done
say "sub-tables ready; ELTvET, at most $limit_mib MiB"
JUNGLETB_TEST_RSS_MB=$limit_mib "$repo/.ci/peak-rss" \
  "$bin" generate --out "$work" --material ELTvET --threads 2 -q
say "compress of ELTvET, at most $limit_mib MiB"
JUNGLETB_TEST_RSS_MB=$limit_mib "$repo/.ci/peak-rss" \
  "$bin" compress --tables "$work" --material ELTvET --threads 2 -q
test -s "$work/standard/ELTvET.jtbz"
say "passed"
