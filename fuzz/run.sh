#!/usr/bin/env bash
# Builds the libFuzzer targets (clang with AddressSanitizer and UndefinedBehaviorSanitizer) in
# build-fuzz and runs one for a set time, starting from its seeds in fuzz/corpus/TARGET.
#   bash fuzz/run.sh TARGET [SECONDS]   e.g. bash fuzz/run.sh vectors 600 (default 60 s)
#   bash fuzz/run.sh all [SECONDS]      every target in turn
#   bash fuzz/run.sh list               the targets
# Inputs that reach new code collect in build-fuzz/corpus/TARGET; an input that crashes, hangs
# (10 s), leaks or trips a sanitizer is saved in build-fuzz/findings/TARGET/TIME/ with the log,
# and the run exits non-zero. Copy such a file to tests/data/regressions/TARGET/, where the test
# suite replays it.
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(instr state_flags state_json vectors results capture)
target=${1:-}
seconds=${2:-60}
case "$target" in
  list) printf '%s\n' "${targets[@]}"; exit 0 ;;
  all) ;;
  "" | -h | --help) sed -n "2,11p" "$0"; exit 64 ;;
  *) [[ " ${targets[*]} " == *" $target "* ]] ||
       { echo "run.sh: unknown target '$target' (bash fuzz/run.sh list)" >&2; exit 64; } ;;
esac

build=${WARPSPEC_FUZZ_BUILD_DIR:-build-fuzz}
if [ ! -f "$build/CMakeCache.txt" ]; then
  CXX=${CXX:-clang++} cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DWARPSPEC_FUZZ=ON -DWARPSPEC_BUILD_TESTS=OFF -DWARPSPEC_BUILD_BENCH=OFF \
    -DWARPSPEC_WITH_Z3=OFF -DWARPSPEC_BUILD_CAPTURE=OFF >/dev/null
fi
cmake --build "$build" --target fuzzers -j "${WARPSPEC_FUZZ_JOBS:-2}"

run_one() {
  local t=$1 work
  work="$build/findings/$1/$(date +%Y%m%d-%H%M%S)"
  mkdir -p "$build/corpus/$t" "$work"
  local exe corpus seeds
  exe=$(realpath "$build/fuzz/fuzz_$t")
  corpus=$(realpath "$build/corpus/$t")
  seeds=$(realpath "fuzz/corpus/$t")
  echo "fuzz_$t: $seconds s; log in $work/fuzz-0.log"
  # One job in one worker process: its log is fuzz-0.log in the working folder.
  (cd "$work" && "$exe" -jobs=1 -workers=1 -max_total_time="$seconds" -rss_limit_mb=2048 \
     -timeout=10 -print_final_stats=1 -artifact_prefix="$PWD/" "$corpus" "$seeds" >/dev/null 2>&1) ||
    true
  local log="$work/fuzz-0.log"
  grep -E '^#[0-9]+[[:space:]]+DONE|^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)|^Done ' \
    "$log" || true
  echo "corpus: $(find "$corpus" -type f | wc -l) files"
  if grep -qE 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer)|runtime error:|reader contract broken|uncaught exception|deadly signal' "$log" ||
     ls "$work" | grep -qE '^(crash|leak|timeout|oom|slow-unit)-'; then
    echo "fuzz_$t: FOUND A PROBLEM; see $log and the inputs in $work" >&2
    return 1
  fi
}

status=0
if [ "$target" = all ]; then
  for t in "${targets[@]}"; do run_one "$t" || status=1; done
else
  run_one "$target" || status=1
fi
exit $status
