#!/usr/bin/env bash
# Installs libjungletb_c (static and shared), jungletb.h and a pkg-config
# file under PREFIX (default /usr/local):
#
#   crates/capi/install.sh [PREFIX]
#   cc $(pkg-config --cflags jungletb) engine.c $(pkg-config --libs jungletb)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
prefix=${1:-/usr/local}
cd "$repo"
cargo build --release -p jungletb-capi
version=$(sed -n 's/^#define JTB_VERSION "\(.*\)"/\1/p' crates/capi/include/jungletb.h)
install -d "$prefix/lib/pkgconfig" "$prefix/include"
install -m 644 target/release/libjungletb_c.a "$prefix/lib/"
install -m 755 target/release/libjungletb_c.so "$prefix/lib/"
install -m 644 crates/capi/include/jungletb.h "$prefix/include/"
cat > "$prefix/lib/pkgconfig/jungletb.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: jungletb
Description: Jungle (Dou Shou Qi) endgame tablebase probing
Version: $version
Cflags: -I\${includedir}
Libs: -L\${libdir} -ljungletb_c
Libs.private: -lpthread -ldl -lm
PC
echo "installed jungletb $version under $prefix"
