#!/usr/bin/env bash
# build.sh HIP_CPU_CHECKOUT [OUT_DIR]: builds hip_cpu_adapter against a HIP-CPU checkout
# (github:ROCm/HIP-CPU; README.md names the commit used) and warpspec's C library.
#   WARPSPEC_ROOT  warpspec's source tree (default: three levels up from this script)
#   WARPSPEC_LIB   the folder holding libwarpspec-c.so (default: $WARPSPEC_ROOT/build/capi)
#   CXX            a C++17 compiler whose standard library has <execution> (default: g++)
#   TBB=1          link TBB (-ltbb), for a standard library built on TBB's parallel backend
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
hipcpu="${1:?usage: build.sh HIP_CPU_CHECKOUT [OUT_DIR]}"
out="${2:-$here/build}"
root="${WARPSPEC_ROOT:-$(cd "$here/../../.." && pwd)}"
lib="${WARPSPEC_LIB:-$root/build/capi}"
cxx="${CXX:-g++}"
[ -f "$hipcpu/include/hip/hip_runtime.h" ] || { echo "build.sh: $hipcpu/include/hip/hip_runtime.h not found" >&2; exit 66; }
[ -f "$lib/libwarpspec-c.so" ] || { echo "build.sh: $lib/libwarpspec-c.so not found" >&2; exit 66; }
mkdir -p "$out"
extra=()
[ "${TBB:-0}" = 1 ] && extra+=(-ltbb)
# -O1: HIP-CPU's fibers (libco) switch stacks under the compiler; -fno-strict-aliasing for libco.
"$cxx" -std=c++17 -O1 -g -fno-strict-aliasing -pthread -Wno-deprecated-declarations \
  -isystem "$hipcpu/include" -I "$root/capi" \
  "$here/hip_cpu_adapter.cpp" -o "$out/hip_cpu_adapter" \
  -L "$lib" -lwarpspec-c -Wl,-rpath,"$lib" "${extra[@]}"
echo "$out/hip_cpu_adapter"
