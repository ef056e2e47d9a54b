#!/usr/bin/env bash
# Installs libjungletb_c (shared and static), jungletb.h and two pkg-config
# files under PREFIX (default /usr/local):
#
#   crates/capi/install.sh [PREFIX]
#   cc $(pkg-config --cflags jungletb) engine.c $(pkg-config --libs jungletb)          # shared
#   cc $(pkg-config --cflags jungletb-static) engine.c $(pkg-config --libs jungletb-static)  # static
#
# The shared library is libjungletb_c.so.VERSION with its SONAME
# libjungletb_c.so.ABI (ABI: 0.MINOR before 1.0) and the links .so.ABI and
# .so beside it. For a prefix the dynamic linker searches (/usr, /usr/local)
# it runs ldconfig; for any other prefix jungletb.pc adds an rpath, so that
# the program starts without LD_LIBRARY_PATH.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
prefix=${1:-/usr/local}
cd "$repo"
cargo build --release -p jungletb-capi
version=$(sed -n 's/^#define JTB_VERSION "\(.*\)"/\1/p' crates/capi/include/jungletb.h)
major=${version%%.*}
minor=${version#*.}; minor=${minor%%.*}
if [ "$major" = 0 ]; then abi="0.$minor"; else abi=$major; fi
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
libdir="$prefix/lib"
install -d "$libdir/pkgconfig" "$prefix/include"
install -m 644 target/release/libjungletb_c.a "$libdir/"
install -m 755 target/release/libjungletb_c.so "$libdir/libjungletb_c.so.$version"
ln -sf "libjungletb_c.so.$version" "$libdir/libjungletb_c.so.$abi"
ln -sf "libjungletb_c.so.$abi" "$libdir/libjungletb_c.so"
install -m 644 crates/capi/include/jungletb.h "$prefix/include/"
case "$prefix" in
  /usr|/usr/local) rpath=""; system=1 ;;
  *) rpath=" -Wl,-rpath,\${libdir}"; system=0 ;;
esac
cat > "$libdir/pkgconfig/jungletb.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: jungletb
Description: Jungle (Dou Shou Qi) endgame tablebase probing (shared library)
Version: $version
Cflags: -I\${includedir}
Libs: -L\${libdir}$rpath -ljungletb_c
Libs.private: -lpthread -ldl -lm
PC
# A static link by name: -ljungletb_c would pick the .so beside the .a.
cat > "$libdir/pkgconfig/jungletb-static.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: jungletb-static
Description: Jungle (Dou Shou Qi) endgame tablebase probing (static library)
Version: $version
Cflags: -I\${includedir}
Libs: \${libdir}/libjungletb_c.a -lpthread -ldl -lm
PC
if [ "$system" = 1 ]; then
  if command -v ldconfig >/dev/null && [ "$(id -u)" = 0 ]; then
    ldconfig
  else
    echo "run 'ldconfig' as root so that programs find libjungletb_c.so.$abi"
  fi
fi
echo "installed jungletb $version under $prefix (libjungletb_c.so.$abi)"
