#!/usr/bin/env bash
# Runs every cargo fuzz target for a while (default 30 s each): the check a
# developer runs before a release. Corpora live in fuzz/corpus/<target>
# (kept in the repository, small); crashes land in fuzz/artifacts/<target>.
#
#   fuzz/run.sh [seconds per target] [target…]
#
# The machine's toolchain is stable Rust; cargo fuzz needs nightly flags
# (-Zsanitizer=address), which RUSTC_BOOTSTRAP=1 unlocks on stable.
# Installs cargo-fuzz from crates.io if missing.
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-30}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(position_notation material_name rule_options plain_table compressed_table wdl_decoder capi)
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
export RUSTC_BOOTSTRAP=1
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t"
  echo "fuzz: $t for ${secs}s"
  cargo fuzz run "$t" "corpus/$t" -- -max_total_time="$secs" -max_len=4096 -print_final_stats=1 2>&1 \
    | grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ *DONE)|cov:|ERROR|panicked|SUMMARY" | tail -4
  # cargo fuzz exits non-zero on a crash, which set -e turns into a failure.
done
echo "fuzz: every target ran without a crash"
