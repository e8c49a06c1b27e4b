#!/usr/bin/env bash
# Runs the kernels of a launch manifest under compute-sanitizer's synccheck, several shards at once
# (the sanitizer is slow on the host side, the GPU is not the limit). Run it on the GPU machine
# after capture/run_kernels.sh has built the runner:
#
#   capture/run_synccheck.sh MANIFEST.json OUTDIR [SHARDS] [SKIP_FILE] [DEADLINE_MS]
#
# SKIP_FILE lists kernel names, one per line, that are not launched (kernels known to hang: a
# launch killed at its deadline leaves synccheck nothing to report, and each costs the deadline).
# Each shard writes OUTDIR/shard_K.jsonl (the runner's records) and OUTDIR/shard_K.sanitizer.txt
# (the sanitizer's reports, interleaved with the runner's "NAME run R: STATUS" lines, which is
# how a report is tied to its launch).
set -eu
manifest=$1 out=$2 shards=${3:-8} skip=${4:-} deadline=${5:-8000}
here=$(cd "$(dirname "$0")/.." && pwd)
runner="$here/build-kernels/run-kernels"
sanitizer=${COMPUTE_SANITIZER:-compute-sanitizer}
mkdir -p "$out"
dir=$(dirname "$manifest")
python3 - "$manifest" "$shards" "$skip" <<'EOF'
import json, sys
manifest, shards, skip = sys.argv[1], int(sys.argv[2]), sys.argv[3]
names = set(open(skip).read().split()) if skip else set()
m = json.load(open(manifest))
ks = [k for k in m["kernels"] if k["name"] not in names]
for s in range(shards):
    with open(f"{manifest}.shard{s}.json", "w") as f:
        json.dump({"kernels": ks[s::shards]}, f)
print(f"{len(ks)} kernels in {shards} shards ({len(m['kernels']) - len(ks)} skipped)")
EOF
for ((s = 0; s < shards; s++)); do
  "$sanitizer" --tool synccheck --target-processes all --print-limit 100 \
      "$runner" "$manifest.shard$s.json" "$out/shard_$s.jsonl" --deadline-ms "$deadline" \
      > "$out/shard_$s.sanitizer.txt" 2>&1 &
done
wait
rm -f "$manifest".shard*.json
cat "$out"/shard_*.jsonl | wc -l
