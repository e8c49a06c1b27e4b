#!/usr/bin/env bash
# Installs what is missing (Debian packages), builds warpspec, then either prints the
# verification report (default) or runs the whole test suite (--test).
#   bash scripts/bootstrap.sh          install, build, verification report
#   bash scripts/bootstrap.sh --test   install, build, every test once: in a build with
#                                      AddressSanitizer and UndefinedBehaviorSanitizer, but for
#                                      the Z3/cvc5-bound, whole-suite and bulk tests, the bug
#                                      sets and the Python bindings, which run in the main build
set -euo pipefail
cd "$(dirname "$0")/.."

mode=report
case "${1:-}" in
  "") ;;
  --test) mode=test ;;
  -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
  *) echo "bootstrap.sh: unknown argument '$1' (expected --test or nothing)" >&2; exit 64 ;;
esac

packages=(build-essential cmake ninja-build pkg-config libz3-dev librapidcheck-dev libcli11-dev
          libgtest-dev libbenchmark-dev nlohmann-json3-dev libsimdjson-dev zlib1g-dev cvc5 python3)
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

if [ "$mode" = report ]; then
  # The report needs the tool alone (and the C interface, for "Check your implementation").
  cmake --build "$build" -j "$jobs" --target warpspec warpspec_c warpspec_c_static
  exec "$build/warpspec" report
fi

# The suite built with the sanitizers (bench and the CUDA harness left out); any report
# fails the test that triggered it. Its tests run first so the run ends with the main summary.
asan=${WARPSPEC_ASAN_BUILD_DIR:-build-asan}
cmake -S . -B "$asan" -G Ninja -DCMAKE_BUILD_TYPE=Release -DWARPSPEC_SANITIZE=ON \
  -DWARPSPEC_BUILD_BENCH=OFF -DWARPSPEC_BUILD_CAPTURE=OFF -DWARPSPEC_BUILD_BUG_SETS=OFF >/dev/null
cmake --build "$asan" -j "$jobs"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
asan_status=0
# Left to the main suite: the whole property library, the refutation of every mutant, the suites
# generated with Z3's witnesses (and every form's witness search) and the second solver's agreement (Z3's and cvc5's work, which is
# not instrumented), the measurements of
# the suite against the bug sets (hundreds of `check` runs whose code the smaller check and
# diagnosis tests run here), and the nine diagnosis tests that take longest under the sanitizers
# (over 14 s each there; the twelve others run the same code). They are the longest tests by far.
slow='PropertyLibrary\.(WholeLibrary|FastEqualsModel)|Mutants\.EveryMutantThatChangesAValueIsRefutedOverZ3|SecondSolver\.'
slow+='|Witness\.TheKeptSuitesAreWhatTheGeneratorWrites'
slow+='|Suite\.CoversTheF32FormsOnSm100a'
slow+='|bugs\.[a-z]+_set_on_the_default_suite|bugs\.EveryBugIsKilledByALargeRandomSuite'
slow+='|Diagnose\.(APartialLastWarpLeftOutOfTheCount|ExitedLanesReadFromASlotNeverCleared'
slow+='|APredicateReadAsItsBitZero|WrongSetsThatOtherLanesWouldGive|FailuresOnlyWhereTheSourceIsNegated'
slow+='|ACollectiveThatHangsOnADefinedRound|AReadingOfTheWholeRuleComesBefore|AnAddOffByOneIsCharged'
slow+='|EveryReadingChangesSomeAnswer)'
# Volume: the same code run over whole suites and the whole capture corpus, which the smaller
# tests of each reader, writer and check path already run under the sanitizers (each of these
# takes 20 s to 2 min there): the suites generated for every target, every mutant checked over
# the suite, the corpus read five times, the intrinsic driver's planted bugs (one of them stays),
# the report over the kept suites, and the tests that generate the whole default suite in their
# own process (the generator runs under the sanitizers in the smaller suite tests).
slow+='|Coverpoints\.TheDefaultSuitesWithoutZ3'
slow+='|Check\.CatchesEveryMutant|CaptureCorpus\.|bugs\.CorrectImplementationAgreesWithASeeded'
slow+='|vectors\.intrinsic_driver_[a-mo-z][a-z_]*|cli\.report$'
slow+='|capture_check_cli_corpus(_exit)?'
slow+='|Suite\.(DefaultSuiteCovers|UbVectorsComeLast)|Check\.TheModelsOwnResultsAgree'
slow+='|Format\.EveryVectorRoundTrips|Coverpoints\.NoStateHitsAnUnreachable'
# The UB queries whose solver work is largest (6-13 s each there); the other nine UB query tests
# run the same code under the sanitizers.
slow+='|UbQuery\.(ShuffleSm6xConditionIsChecked|ShuffleSourceUndefinedIsAnsweredApartFromUb'
slow+='|Sm6xConvergenceCanFireOnOldTargets)'
# The fast implementation over more states: exhaustive three-lane warps, and every shuffle
# operand on whole warps (each form's own agreement and batch tests run under the sanitizers,
# with fewer random cases there: tests/fast/CMakeLists.txt). Likewise the captured lanes
# replayed in bulk, whose readers and replay the capture tests run there.
slow+='|EveryThreeLaneWarp\.|CaptureReplay\.EveryDefinedLaneAgreesWith'
# Whole kernels replayed against the H100's launches: explorations of hundreds of kernels, whose
# step semantics the program tests run under the sanitizers.
slow+='|Hardware\.Every'
# The corpus walked again depth first: the same step semantics in another order, which the
# breadth-first corpus tests run under the sanitizers.
slow+='|[A-Za-z]+/Corpus\.TheDepthFirstWalkFindsTheSameOutcomes/.*'
# Unknown inputs over the whole kernel corpus and a 129-class search: the terms and the solver
# are Z3's, and the sanitizers run the smaller input tests.
slow+='|Inputs\.(EveryCorpusKernelWalksTheSameWithAndWithoutTerms|APartialBlockIsExactlyWhereSyncthreadsDiverges|TheReductionLosesNoOutcomeForAnyInput)'
# The searches over every class of an unknown input (63 and 129 classes) and the Z3 witness
# search for the f32 forms on sm_100a and the sm_6x convergence rules: Z3's work, 20-35 s each
# under the sanitizers; the shorter input searches and witness tests run there. Likewise the
# shuffles' agreement over every operand on whole warps (the kernels' tests run there), and the
# emitted CUDA handed to nvcc (nvcc's work; the emitter runs there).
slow+='|cli\.run_unknown$|cli\.run_unknown_from_launch_file|example\.run_syncthreads_nonuniform_every_n'
slow+='|Witness\.TheF32FormsOnSm100aAndTheConvergenceRulesOnSm60HaveWitnessesToo'
slow+='|EveryShuffleOperand\.|vectors\.emit_cuda_compiles'
# A UB query of Z3's over a shuffle's whole warp: 15 s under the sanitizers (the other ub
# queries run there).
slow+='|cli\.ub_shfl_peer_absent$'
# ctest drops a pattern it cannot compile (CMake's allow nine groups) and would then run every
# test here: refuse that.
count_tests() { (cd "$asan" && ctest -N "$@" | sed -n 's/^Total Tests: //p'); }
if [ "$(count_tests -E "^($slow)")" -ge "$(count_tests)" ]; then
  echo "bootstrap.sh: the tests left to the main build match nothing here (is the pattern valid?)" >&2
  exit 70
fi
(cd "$asan" && ctest --output-on-failure --no-tests=error -j "$jobs" --timeout 900 -E "^($slow)") \
   || asan_status=$?
if [ "$asan_status" -ne 0 ]; then
  echo "bootstrap.sh: the sanitizer build's tests failed (above); the main suite follows" >&2
fi

# The main build: everything but the test programs, and the test programs whose tests run below
# (scripts/main_targets.py reads which from both builds' test lists).
targets=$(python3 scripts/main_targets.py "$build" "$asan" "$slow")
# shellcheck disable=SC2086  # one ninja target a word
cmake --build "$build" -j "$jobs" -- $targets
# A test program left unbuilt here must have run under the sanitizers: else its tests would
# silently drop out of the run.
for program in $(cd "$build" && ctest -N | sed -n 's/^ *Test *#[0-9]*: \(.*\)_NOT_BUILT$/\1/p'); do
  if [ -z "$(find "$asan" -name "$program" -type f -perm -u+x -print -quit)" ]; then
    echo "bootstrap.sh: the main build left out $program, which the sanitizer build lacks" >&2
    exit 70
  fi
done

# Each test runs once. The main build runs the tests left out above and those the sanitizer build
# does not have (the bug sets' simulators, the Python bindings, the capture harness where nvcc is
# found); every other test has already run, under the sanitizers.
# (A program the main build left out stands in its list as NAME_NOT_BUILT.)
list_tests() { (cd "$1" && ctest -N | sed -n 's/^ *Test *#[0-9]*: //p' | grep -v '_NOT_BUILT$' | sort); }
only_main=$(comm -23 <(list_tests "$build") <(list_tests "$asan") \
  | sed 's/[][\.*^$+?(){}|]/\\&/g' | paste -sd'|')
main_tests="^($slow)"
[ -n "$only_main" ] && main_tests+="|^($only_main)\$"
cd "$build"
status=0
ctest --output-on-failure --no-tests=error -j "$jobs" --timeout 900 -R "$main_tests" || status=$?
[ "$status" -ne 0 ] && exit "$status"
exit "$asan_status"
