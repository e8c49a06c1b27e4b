#!/usr/bin/env bash
# Every property of the library, exported as SMT-LIB by warpspec and read by cvc5 as well as by
# Z3 (through `warpspec prove`). Prints one line per property and a summary; exits 1 when the two
# solvers disagree on any property both decide, 0 otherwise (a property cvc5 cannot decide within
# the limit is counted as undecided, never as agreement).
#   scripts/cross_check.sh [BUILD_DIR] [CVC5_LIMIT_SECONDS]   (defaults: build, 60)
set -uo pipefail
build=${1:-build}
limit=${2:-60}
command -v cvc5 >/dev/null || { echo "cross_check.sh: cvc5 is not installed" >&2; exit 66; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$build/warpspec" prove --all --smt2 "$dir" > "$dir/z3.txt" || true
agree=0 disagree=0 undecided=0
while IFS=$'\t' read -r name verdict; do
  file="$dir/$name.smt2"
  want=unknown
  [ "$verdict" = proved ] && want=unsat
  [ "$verdict" = refuted ] && want=sat
  got=$(cvc5 --lang smt2 --tlimit=$((limit * 1000)) "$file" 2>&1 | tail -1)
  case "$got" in
    sat|unsat)
      if [ "$want" = unknown ]; then
        undecided=$((undecided + 1)); note="Z3 undecided"
      elif [ "$got" = "$want" ]; then
        agree=$((agree + 1)); note=agree
      else
        disagree=$((disagree + 1)); note=DISAGREE
      fi ;;
    *) undecided=$((undecided + 1)); got=unknown; note="cvc5 undecided in ${limit} s" ;;
  esac
  printf '%-55s z3 %-7s cvc5 %-7s %s\n' "$name" "$want" "$got" "$note"
done < <(awk '$2 == "proved" || $2 == "refuted" || $2 == "unknown" { print $1 "\t" $2 }' "$dir/z3.txt")
echo "cvc5 and Z3 agree on $agree properties, disagree on $disagree; $undecided undecided by one of them"
[ "$disagree" -eq 0 ]
