#!/usr/bin/env bash
# Captures the named block barriers (bar.sync / bar.red / bar.arrive with a barrier number and a
# thread count) on a machine with the GPU: every named variant's main set, bar.arrive's leftover
# set, then the UB probes, each run in processes of its own under a time limit.
#
#   capture/run_named.sh [--harness PATH] [--only REGEX] [--budget SECONDS] OUTDIR
#
# The harness is PATH, else build/capture/warpspec-capture when it is there and runs, else it is
# built into build-named/ (cmake, ninja and nvcc needed). OUTDIR receives sm_90/<set>/<variant>.jsonl.gz
# (main sets under cta/, beside the __syncthreads family; leftover/ and probe-*/ for the others),
# the same packed as capture-named.tar.gz, the harness's machine code (sass-named.txt.gz, when
# cuobjdump is there) and log-named.txt. --only runs the variants whose names match the extended
# regular expression; seeds depend on a variant's place in the full list, never on the selection.
# --budget bounds the seconds spent on captures (200 by default): the probes, last, stop there.
#
# Every launch of the harness runs under a deadline of 3 s; a batch that hangs is still read
# (its kernels write their marks to host memory), its hung blocks are recorded with a "hang"
# fault, the process leaves (the driver ends the kernel with it) and the next process goes on
# after them. A batch that traps is run again state by state, so that the trap is the
# observation of the one state that caused it.
set -u
harness=
only=
budget=200
while [ $# -gt 0 ]; do
  case $1 in
    --harness) harness=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --budget) budget=$2; shift 2 ;;
    *) break ;;
  esac
done
if [ $# -ne 1 ]; then
  echo "usage: $0 [--harness PATH] [--only REGEX] [--budget SECONDS] OUTDIR" >&2
  exit 64
fi
out=$1
mkdir -p "$out"
out=$(cd "$out" && pwd)
[ -z "$harness" ] || harness=$(cd "$(dirname "$harness")" && pwd)/$(basename "$harness")
log=$out/log-named.txt
exec > >(tee -a "$log") 2>&1
cd "$(dirname "$0")/.."

echo "== harness"
if [ -z "$harness" ] && [ -x build/capture/warpspec-capture ] &&
   build/capture/warpspec-capture list >/dev/null 2>&1; then
  harness=build/capture/warpspec-capture
fi
if [ -z "$harness" ]; then
  echo "building the harness into build-named/"
  cmake -S . -B build-named -G Ninja -DCMAKE_BUILD_TYPE=Release -DWARPSPEC_BUILD_TESTS=OFF \
        -DWARPSPEC_BUILD_BENCH=OFF -DWARPSPEC_WITH_Z3=OFF >/dev/null &&
    cmake --build build-named --target warpspec_capture -j "$(nproc)" || { echo "build failed"; exit 1; }
  harness=build-named/capture/warpspec-capture
fi
case $harness in /*) ;; *) harness=$(pwd)/$harness ;; esac
echo "harness: $harness"

work=$(mktemp -d)
data=$work/sm_90
mkdir -p "$data"
seed0=20251201

step() {  # step SECONDS LABEL COMMAND...: runs it; its standard output is also in $work/step.out
  local limit=$1 label=$2
  shift 2
  local t0=$SECONDS
  timeout -k 5 "$limit" "$@" >"$work/step.out"
  local rc=$?
  cat "$work/step.out"
  echo "[$label] rc=$rc in $((SECONDS - t0))s"
  return $rc
}

echo "== device"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv || true
step 30 info "$harness" info || { echo "harness cannot run here; stopping"; exit 1; }
if command -v cuobjdump >/dev/null; then
  cuobjdump -sass "$harness" | gzip -9 > "$out/sass-named.txt.gz"
  echo "sass: $(zcat "$out/sass-named.txt.gz" | grep -cE 'BAR\.') BAR instructions"
fi

mapfile -t named < <("$harness" list | awk '$1=="named"{print $2}')
mapfile -t named_sets < <("$harness" list | awk '$1=="named"{print $3}')

count_of() {  # main-set states per variant: 2,000 per form over its spellings
  case $1 in
    bar.sync-named) echo 700 ;;
    bar.sync-named-imm) echo 500 ;;
    bar.sync-named-nocount | bar.sync-barrier.cta.aligned) echo 400 ;;
    bar.arrive) echo 900 ;;
    bar.arrive-imm) echo 600 ;;
    bar.arrive-barrier.cta.aligned) echo 500 ;;
    bar.red.popc.u32-named) echo 600 ;;
    bar.red.popc.u32-named-neg | bar.red.popc.u32-named-imm) echo 400 ;;
    bar.red.popc.u32-named-nocount | bar.red.popc.u32-barrier.cta.aligned) echo 300 ;;
    bar.red.*-named) echo 800 ;;
    bar.red.*-named-neg | bar.red.*-named-imm) echo 600 ;;
    *) echo 400 ;;
  esac
}

t_start=$SECONDS
over_budget() { [ $((SECONDS - t_start)) -ge "$budget" ]; }

# run_set VARIANT SET COUNT SEED FILE: all COUNT states into FILE, in as many processes as hangs
# and traps ask for. After a trap the state at fault runs alone; a probe set then stays one
# state per process (its states tend to trap alike), a defined set goes back to whole batches.
# A hang that kept some blocks from starting (the harness goes on from the first of them) makes
# the next processes take an eighth as many states, down to one, so that each one gets further.
run_set() {
  local v=$1 set=$2 count=$3 seed=$4 file=$5
  local first=0 k=0 alone=0 rc next last part probe=0 span=$3
  local parts=()
  case $set in probe-*) probe=1 ;; esac
  while [ "$first" -lt "$count" ]; do
    if over_budget; then echo "[$set $v] stopped at state $first: time budget used up"; break; fi
    k=$((k + 1))
    last=$((first + span))
    [ "$last" -le "$count" ] || last=$count
    [ $alone = 1 ] && last=$((first + 1))
    part=$file.part$k.jsonl.gz
    rm -f "$work/step.out"
    step 60 "$set $v $first-$((last - 1))" "$harness" named "$v" "$set" "$count" "$seed" "$part" "$first" "$last"
    rc=$?
    next=$(awk '$1=="next"{print $2}' "$work/step.out" 2>/dev/null | tail -n 1)
    [ -f "$part" ] && parts+=("$part")
    case $rc in
      0)
        first=$last
        [ $probe = 1 ] || alone=0
        ;;
      75)
        # A hang: the blocks before `next` are recorded; before `last`, some never started.
        [ -n "$next" ] || break
        if [ "$next" -lt "$last" ]; then
          span=$(((last - first) / 8))
          [ "$span" -ge 1 ] || span=1
        fi
        first=$next
        ;;
      69)
        # A trap takes its whole batch: from here on, one state per process.
        if [ $alone = 1 ]; then echo "[$set $v] state $first failed alone; giving up the set"; break; fi
        [ -n "$next" ] || break
        first=$next
        alone=1
        ;;
      *) echo "[$set $v] stopped (rc=$rc)"; break ;;
    esac
  done
  if [ ${#parts[@]} -eq 1 ]; then
    mv "${parts[0]}" "$file"
  elif [ ${#parts[@]} -gt 1 ]; then
    "$harness" merge "$file" "${parts[@]}" && rm -f "${parts[@]}"
  fi
}

selected() {  # selected VARIANT: true when --only lets it run
  [ -z "$only" ] || [[ $1 =~ $only ]]
}

echo "== main sets (defined: every arriving thread comes back)"
mkdir -p "$data/cta"
k=0
for v in "${named[@]}"; do
  k=$((k + 1))
  selected "$v" || continue
  run_set "$v" main "$(count_of "$v")" $((seed0 + 10 * k)) "$data/cta/$v.jsonl.gz"
done

echo "== leftover (bar.arrive alone, the barrier left part-filled)"
k=0
for v in "${named[@]}"; do
  k=$((k + 1))
  sets=${named_sets[$((k - 1))]}
  selected "$v" || continue
  case ",$sets," in *,leftover,*) ;; *) continue ;; esac
  mkdir -p "$data/leftover"
  run_set "$v" leftover 150 $((seed0 + 10 * k + 1)) "$data/leftover/$v.jsonl.gz"
done

echo "== probes (UB: what came back, and who was still waiting at the deadline)"
k=0
for v in "${named[@]}"; do
  k=$((k + 1))
  sets=${named_sets[$((k - 1))]}
  selected "$v" || continue
  j=0
  for set in ${sets//,/ }; do
    j=$((j + 1))
    case $set in probe-*) ;; *) continue ;; esac
    mkdir -p "$data/$set"
    run_set "$v" "$set" 8 $((seed0 + 1000 + 100 * k + j)) "$data/$set/$v.jsonl.gz"
  done
done

echo "== the GPU after the runs (no process of ours may be left)"
nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv,noheader || true

echo "== packing"
find "$data" -name '*.tmp' -delete
find "$data" -name '*.part*.jsonl.gz' -print -delete
rm -rf "$out/sm_90"
cp -r "$data" "$out/sm_90"
(cd "$work" && tar czf "$out/capture-named.tar.gz" sm_90)
find "$out/sm_90" -type f | sort | while read -r f; do
  printf '%8d  %s\n' "$(($(zcat "$f" | wc -l) - 1))" "${f#"$out"/}"
done
echo "captures took $((SECONDS - t_start))s"
du -sh "$out/sm_90"
rm -rf "$work"
