#!/usr/bin/env bash
# The C library as an engine links it: installed by crates/capi/install.sh
# into a private prefix, a C program compiled with the documented
# pkg-config lines, shared and static, run without LD_LIBRARY_PATH, its
# answers compared with the CLI's.
#
#   tests/capi/run.sh [path/to/jungletb]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin=$(readlink -f "${1:-$repo/target/release/jungletb}")
say() { echo "capi test: $*"; }
fail() { echo "capi test: FAILED: $*" >&2; exit 1; }
command -v pkg-config >/dev/null || {
  [ "$(id -u)" = 0 ] || fail "pkg-config missing and not root to install it"
  apt-get install -y -q pkg-config >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q pkg-config >/dev/null; }
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$repo/crates/capi/install.sh" "$work/prefix" >/dev/null
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
unset LD_LIBRARY_PATH
lib=$(readlink -f "$work/prefix/lib/libjungletb_c.so")
soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ -n "$soname" ] || fail "the shared library has no SONAME"
[ -e "$work/prefix/lib/$soname" ] || fail "no $soname beside the library"
say "libjungletb_c: SONAME $soname, links .so -> $soname -> $(basename "$lib")"
src="$repo/crates/capi/examples/best_move.c"
# shellcheck disable=SC2046
cc $(pkg-config --cflags jungletb) "$src" $(pkg-config --libs jungletb) -o "$work/shared"
# shellcheck disable=SC2046
cc $(pkg-config --cflags jungletb-static) "$src" $(pkg-config --libs jungletb-static) -o "$work/static"
ldd "$work/shared" | grep "$soname" >/dev/null || fail "the shared build does not load $soname: $(ldd "$work/shared")"
ldd "$work/static" | grep libjungletb_c >/dev/null && fail "the static build loads the shared library"
"$bin" generate --out "$work/tables" --max-pieces 2 -q
pos="7/7/7/7/7/7/7/7/E5r w"
# The position's own category and plies (serde writes the fields in a
# fixed order: input, position, side_to_move, category, plies, ...).
want=$("$bin" probe --json --tables "$work/tables" "$pos" | sed -n 's/.*"side_to_move":"[wb]","category":"\([a-z]*\)","plies":\([0-9]*\).*/\1 \2/p')
for b in shared static; do
  out=$("$work/$b" "$work/tables" standard "$pos") || fail "$b: the program failed: $out"
  value=$(echo "$out" | sed -n 's/^value: //p')
  plies=$(echo "$out" | sed -n 's/^plies: //p')
  [ "$value $plies" = "$want" ] || fail "$b: '$value $plies', the CLI says '$want'"
  say "$b build: $value in $plies plies, as the CLI says (no LD_LIBRARY_PATH)"
done
say "passed"
