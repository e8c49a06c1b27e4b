#!/usr/bin/env bash
# Runs every capture and the throughput measurement on a machine with the GPU, each step under its
# own time limit, so that a surprise (a hang, a trap) costs one step and never the others.
#
#   capture/run_capture.sh [--only REGEX] [--sets REGEX] [--singles N] [--no-bench]
#                          HARNESS OUTDIR [REFERENCE]
#
# OUTDIR receives: capture.tar.gz (the capture files, laid out as under tests/data/capture/),
# bench.json (throughput), sass.txt.gz (the harness's machine code), log.txt. With REFERENCE
# (e.g. tests/data/capture/sm_90), every new file's records are also compared with the file of
# the same name there: the generator is deterministic, so a rerun must record the same lines.
# --only runs the variants whose names match the extended regular expression (every step, the
# throughput included, for those alone); --sets runs, of the probe sets, those whose names
# match; --singles N runs N states one by one where a probe batch fails (3 by default: a
# trapping state takes its whole launch down, so each needs a process of its own); --no-bench
# leaves the throughput out. Seeds depend on a variant's place in the full list, never on the
# selection, so a selected run records the lines a full one would.
set -u
only=
sets_only=
singles=3
bench=1
while [ $# -gt 0 ]; do
  case $1 in
    --only) only=$2; shift 2 ;;
    --sets) sets_only=$2; shift 2 ;;
    --singles) singles=$2; shift 2 ;;
    --no-bench) bench=0; shift ;;
    *) break ;;
  esac
done
if [ $# -lt 2 ]; then
  echo "usage: $0 [--only REGEX] [--sets REGEX] [--singles N] [--no-bench] HARNESS OUTDIR [REFERENCE]" >&2
  exit 64
fi
harness=$1
out=$2
reference=${3:-}
mkdir -p "$out"
work=$(mktemp -d)
data=$work/sm_90
mkdir -p "$data"
log=$out/log.txt
exec > >(tee -a "$log") 2>&1
seed0=20251121

step() {  # step SECONDS LABEL COMMAND...
  local limit=$1 label=$2
  shift 2
  local t0=$SECONDS
  timeout -k 5 "$limit" "$@"
  local rc=$?
  echo "[$label] rc=$rc in $((SECONDS - t0))s"
  return $rc
}

echo "== device"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv || true
step 30 info "$harness" info || { echo "harness cannot run here; stopping"; exit 1; }

echo "== machine code"
if command -v cuobjdump >/dev/null; then
  cuobjdump -sass "$harness" | gzip -9 > "$out/sass.txt.gz"
  echo "sass: $(zcat "$out/sass.txt.gz" | grep -cE 'MATCH|VOTE|REDUX|SHFL|ELECT') match/vote/redux/shfl/elect instructions"
fi

mapfile -t warp < <("$harness" list | awk '$1=="warp"{print $2}')
mapfile -t warp_sets < <("$harness" list | awk '$1=="warp"{print $3}')  # e.g. main,two-site,...
mapfile -t cta < <("$harness" list | awk '$1=="cta"{print $2}')

selected() {  # selected VARIANT: true when --only lets it run
  [ -z "$only" ] || [[ $1 =~ $only ]]
}

counts() {  # main and two-site counts per variant
  case $1 in
    *-float|*-double) echo "600 200" ;;
    vote.*|shfl.*-*) echo "1000 300" ;;
    *) echo "2000 600" ;;
  esac
}

echo "== warp captures"
mkdir -p "$data/main" "$data/two-site" "$data/cta"
k=0
for v in "${warp[@]}"; do
  k=$((k + 1))
  selected "$v" || continue
  read -r nmain ntwo <<<"$(counts "$v")"
  step 60 "main $v" "$harness" warp "$v" main "$nmain" $((seed0 + 10 * k)) "$data/main/$v.jsonl.gz"
  step 60 "two-site $v" "$harness" warp "$v" two-site "$ntwo" $((seed0 + 10 * k + 1)) "$data/two-site/$v.jsonl.gz"
done

echo "== block captures"
# The block captures keep the seeds they were first taken with, when 26 warp variants came before
# them, so that a rerun still compares with the kept files.
k=26
for v in "${cta[@]}"; do
  k=$((k + 1))
  selected "$v" || continue
  step 90 "cta $v" "$harness" cta "$v" 400 $((seed0 + 10 * k)) "$data/cta/$v.jsonl.gz"
done

chosen=()  # the variants to measure; none named measures them all
if [ -n "$only" ]; then
  for v in "${warp[@]}" "${cta[@]}"; do selected "$v" && chosen+=("$v"); done
  [ ${#chosen[@]} -eq 0 ] && bench=0
fi
if [ $bench = 1 ]; then
  echo "== throughput"
  nvidia-smi --query-gpu=clocks.sm,clocks.max.sm --format=csv,noheader || true
  step 300 bench "$harness" bench "$out/bench.json" ${chosen[@]+"${chosen[@]}"}
  nvidia-smi --query-gpu=clocks.sm,clocks.max.sm --format=csv,noheader || true
fi

echo "== probes (undefined lanes)"
# A batch first; if its launch traps or hangs, each of its first states (--singles) alone in its
# own process, so that the trap is recorded as that state's observation. A set marked ":alone"
# (lanes that name each other with different masks, which can hang the GPU) runs state by state
# from the start; the harness records a state that does not return within its deadline as hung.
deadline=$((SECONDS + 300))
nalone=16
k=0
for v in "${warp[@]}"; do
  k=$((k + 1))
  sets=${warp_sets[$((k - 1))]}
  selected "$v" || continue
  seed=$((seed0 + 1000 + 10 * k))
  for set in ${sets//,/ }; do
    alone=0
    case $set in
      main|two-site) continue ;;
      *:alone) alone=1; set=${set%:alone} ;;
    esac
    [ -z "$sets_only" ] || [[ $set =~ $sets_only ]] || continue
    mkdir -p "$data/$set"
    if [ $SECONDS -ge $deadline ]; then echo "[$set $v] skipped: probe time used up"; continue; fi
    if [ $alone = 0 ]; then
      step 15 "$set $v" "$harness" warp "$v" "$set" 100 $seed "$data/$set/$v.jsonl.gz" && continue
      n=$singles
    else
      n=$nalone
    fi
    parts=()
    for ((i = 0; i < n; i++)); do
      step 12 "$set $v #$i" "$harness" warp "$v" "$set" 100 $seed "$data/$set/$v.part$i.jsonl.gz" $i
      rc=$?
      [ $rc = 0 ] && parts+=("$data/$set/$v.part$i.jsonl.gz")
      # Killed: the harness could not leave a hung kernel behind, so the GPU is not coming back.
      if [ $rc -ge 124 ]; then echo "[$set $v] stopped after state $i"; break; fi
    done
    [ ${#parts[@]} -gt 0 ] && step 15 "merge $set $v" "$harness" merge "$data/$set/$v.jsonl.gz" "${parts[@]}"
    rm -f "${parts[@]}"
  done
done

if [ -n "$reference" ]; then
  echo "== comparing with $reference"
  same=0 differ=0 missing=0
  for f in "$data"/*/*.jsonl.gz; do
    rel=${f#"$data"/}
    if [ ! -f "$reference/$rel" ]; then missing=$((missing + 1)); echo "only new: $rel"; continue; fi
    if cmp -s <(zcat "$f" | tail -n +2) <(zcat "$reference/$rel" | tail -n +2); then
      same=$((same + 1))
    else
      differ=$((differ + 1)); echo "records differ: $rel"
    fi
  done
  echo "compared with $reference: $same identical, $differ differ, $missing not in the reference"
fi

echo "== packing"
find "$data" -name '*.tmp' -delete
(cd "$work" && tar czf "$out/capture.tar.gz" sm_90)
ls -la "$out"
du -sh "$data"
