#!/bin/sh
# build.sh HIP_CLR_ROOT [OUT_DIR]
#   HIP_CLR_ROOT: a ROCm/clr checkout (the directory holding hipamd/include/hip/amd_detail/).
#   OUT_DIR:      where the binaries go (default /tmp/warpspec-hip_clr).
# Builds four variants of the adapter: wave32 and wave64, each with __hip_assert on (no NDEBUG,
# as hipcc compiles by default) and compiled out (-DNDEBUG, as a CMake Release build does).
# WARPSPEC_ROOT (default: two levels above this script's examples/ dir) gives capi/warpspec.h and
# build/capi/libwarpspec-c.so; CXX picks the compiler (default c++).
set -eu
if [ $# -lt 1 ]; then echo "usage: $0 HIP_CLR_ROOT [OUT_DIR]" >&2; exit 64; fi
CLR=$1
OUT=${2:-/tmp/warpspec-hip_clr}
HERE=$(cd "$(dirname "$0")" && pwd)
WS=${WARPSPEC_ROOT:-$(cd "$HERE/../../.." && pwd)}
CXX=${CXX:-c++}
HDR="$CLR/hipamd/include/hip/amd_detail/amd_warp_sync_functions.h"
[ -f "$HDR" ] || { echo "no $HDR: is $CLR a ROCm/clr checkout?" >&2; exit 66; }
[ -f "$WS/build/capi/libwarpspec-c.so" ] || { echo "no $WS/build/capi/libwarpspec-c.so: build warpspec first" >&2; exit 66; }
mkdir -p "$OUT"
for wave in 32 64; do
  for cfg in assert ndebug; do
    extra=""; [ $cfg = ndebug ] && extra="-DNDEBUG"
    $CXX -std=c++17 -O1 -g -pthread -Wall -Wno-unused-function -Wno-attributes \
      -DHIPEMU_WAVE=$wave $extra -I"$CLR/hipamd/include" -I"$WS/capi" \
      "$HERE/hip_clr_adapter.cpp" -o "$OUT/hip_clr_adapter-w$wave-$cfg" \
      -L"$WS/build/capi" -lwarpspec-c -Wl,-rpath,"$WS/build/capi"
    echo "$OUT/hip_clr_adapter-w$wave-$cfg"
  done
done
