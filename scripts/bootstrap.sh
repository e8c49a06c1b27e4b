#!/usr/bin/env bash
# Installs what is missing (Debian packages), builds warpspec, then either prints the
# verification report (default) or runs the whole test suite (--test).
#   bash scripts/bootstrap.sh          install, build, verification report
#   bash scripts/bootstrap.sh --test   install, build, every test
set -euo pipefail
cd "$(dirname "$0")/.."

mode=report
case "${1:-}" in
  "") ;;
  --test) mode=test ;;
  -h|--help) sed -n '2,5p' "$0"; exit 0 ;;
  *) echo "bootstrap.sh: unknown argument '$1' (expected --test or nothing)" >&2; exit 64 ;;
esac

packages=(build-essential cmake ninja-build pkg-config libz3-dev librapidcheck-dev libcli11-dev
          libgtest-dev libbenchmark-dev nlohmann-json3-dev zlib1g-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

build=${WARPSPEC_BUILD_DIR:-build}
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j "$jobs"

if [ "$mode" = report ]; then
  exec "$build/warpspec" report
fi
cd "$build"
exec ctest --output-on-failure --no-tests=error -j "$jobs" --timeout 900
