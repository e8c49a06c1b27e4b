#!/usr/bin/env bash
# verify_vector.sh ADAPTER VECTOR_LINE_FILE [ADAPTER OPTIONS...]: wraps one warpspec-vectors/1 line
# in a one-vector file (the sm_90 / PTX 8.8 header), runs the adapter on it and `warpspec check`
# on the adapter's results. Exit 1 (a mismatch) is what shows a bug.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="${WARPSPEC_ROOT:-$(cd "$here/../../.." && pwd)}"
adapter="${1:?usage: verify_vector.sh ADAPTER VECTOR_LINE_FILE [OPTIONS...]}"; line="${2:?}"; shift 2
tmp="$(mktemp -d)"
{ echo '{"schema":"warpspec-vectors/1","target":"sm_90","ptx":"8.8","seed":1,"vectors":1}'; cat "$line"; } > "$tmp/v.jsonl"
"$adapter" "$@" --results "$tmp/r.jsonl" "$tmp/v.jsonl" > /dev/null
"$root/build/warpspec" check --vectors "$tmp/v.jsonl" --results "$tmp/r.jsonl"
rc=$?
rm -rf "$tmp"
exit $rc
