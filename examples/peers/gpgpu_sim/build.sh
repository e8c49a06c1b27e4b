#!/usr/bin/env bash
# build.sh GPGPU_SIM_CHECKOUT [OUT_DIR]: builds gpgpu_sim_adapter against a GPGPU-Sim checkout
# (github:gpgpu-sim/gpgpu-sim_distribution; README.md names the commit used) and warpspec's C
# library.
#
# Nothing of GPGPU-Sim is stored in this repository. At build time this script cuts, from the
# checkout the user names, the functions that implement the instructions under test and the
# pieces of machinery they need (see README.md, "What is hooked"), writes them to
# OUT_DIR/gen/, and compiles them together with gpgpu_sim_stubs.h (minimal stand-ins for
# ptx_thread_info, ptx_instruction, core_t, shader_core_ctx, exposing only the members those
# functions touch) and gpgpu_sim_adapter.cpp (the driver).
#   WARPSPEC_ROOT  warpspec's source tree (default: three levels up from this script)
#   WARPSPEC_LIB   the folder holding libwarpspec-c.so (default: $WARPSPEC_ROOT/build/capi)
#   CXX            a C++ compiler (default: g++)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
gs="${1:?usage: build.sh GPGPU_SIM_CHECKOUT [OUT_DIR]}"
gs="$(cd "$gs" && pwd)"
out="${2:-$here/build}"
root="${WARPSPEC_ROOT:-$(cd "$here/../../.." && pwd)}"
lib="${WARPSPEC_LIB:-$root/build/capi}"
cxx="${CXX:-g++}"
cs="$gs/src/cuda-sim"
for f in "$cs/instructions.cc" "$cs/ptx_ir.cc" "$cs/ptx_sim.h" "$cs/ptx.l" "$cs/ptx.y" \
         "$cs/opcodes.h" "$cs/opcodes.def" "$cs/cuda-sim.cc" "$gs/src/abstract_hardware_model.h" \
         "$gs/src/abstract_hardware_model.cc" "$gs/src/gpgpu-sim/shader.cc" "$gs/src/gpgpu-sim/shader.h"; do
  [ -f "$f" ] || { echo "build.sh: $f not found (is $gs a GPGPU-Sim checkout?)" >&2; exit 66; }
done
[ -f "$lib/libwarpspec-c.so" ] || { echo "build.sh: $lib/libwarpspec-c.so not found" >&2; exit 66; }
gen="$out/gen"
mkdir -p "$gen"

# fn FILE REGEX: a function definition that starts at column 0 with REGEX and ends at the first
# line that is exactly "}" (GPGPU-Sim's sources are clang-formatted).
fn() {
  local text
  text="$(awk -v re="$2" '!f && $0 ~ re {f=1} f {print} f && /^}[ \t]*$/ {exit}' "$1")"
  [ -n "$text" ] || { echo "build.sh: no match for /$2/ in $1" >&2; exit 65; }
  printf '// cut from %s\n#line %s "%s"\n%s\n\n' "${1#$gs/}" \
    "$(grep -n -m1 -E "$2" "$1" | cut -d: -f1)" "$1" "$text"
}
# block FILE START_REGEX END_REGEX: from the first START line to the next END line.
block() {
  local text
  text="$(awk -v s="$2" -v e="$3" '!f && $0 ~ s {f=1} f {print} f && $0 ~ e {exit}' "$1")"
  [ -n "$text" ] || { echo "build.sh: no match for /$2/ in $1" >&2; exit 65; }
  printf '// cut from %s\n#line %s "%s"\n%s\n' "${1#$gs/}" \
    "$(grep -n -m1 -E "$2" "$1" | cut -d: -f1)" "$1" "$text"
}

# 1. Parser tokens (ptx.y %token names; the values need only be distinct, as bison makes them).
awk '/^%token/ { gsub(/;/, " "); for (i = 2; i <= NF; ++i) if ($i ~ /^[A-Z_][A-Z0-9_]*$/) print $i }' "$cs/ptx.y" |
  awk 'BEGIN { print "// token names from src/cuda-sim/ptx.y"; print "enum yytokentype {" }
       { printf "  %s = %d,\n", $1, 258 + n++ } END { print "};" }' > "$gen/tokens.h"

# 2. The lexer's rules for opcodes and dotted options/types (ptx.l), as lookup tables.
awk '/^[a-z][a-z0-9.]*[ \t]+TC;[ \t]*yylval->int_value = [A-Z0-9_]+; return OPCODE;/ {
       v = $0; sub(/.*int_value = /, "", v); sub(/;.*/, "", v); printf "{\"%s\", %s},\n", $1, v }' \
  "$cs/ptx.l" > "$gen/opcode_table.inc"
awk '/^\\\.[a-z0-9_]+[ \t]+TC;[ \t]*(BEGIN\([A-Z_]+\);[ \t]*)?return [A-Z0-9_]+;/ {
       n = $1; sub(/^\\/, "", n); v = $0; sub(/.*return /, "", v); sub(/;.*/, "", v)
       printf "{\"%s\", %s, \"%s\"},\n", n, v, v }' "$cs/ptx.l" > "$gen/option_table.inc"

# 3. Data types and limits.
{
  grep -E '^#define (MAX_CTA_PER_SHADER|MAX_BARRIERS_PER_CTA) ' "$gs/src/abstract_hardware_model.h"
  grep -E '^const unsigned MAX_WARP_SIZE = ' "$gs/src/abstract_hardware_model.h"
  grep -E '^typedef std::bitset<MAX_WARP_SIZE> active_mask_t;' "$gs/src/abstract_hardware_model.h"
  grep -E '^enum uarch_(bar|red)_t |^typedef enum uarch_(bar|red)_t ' "$gs/src/abstract_hardware_model.h"
  grep -E '^const unsigned WARP_PER_CTA_MAX = |^typedef std::bitset<WARP_PER_CTA_MAX> warp_set_t;' "$gs/src/gpgpu-sim/shader.h"
} > "$gen/defines.inc"
[ "$(wc -l < "$gen/defines.inc")" -ge 9 ] || { echo "build.sh: limits/enums not all found" >&2; exit 65; }
block "$cs/ptx_sim.h" '^union ptx_reg_t \{' '^\};' > "$gen/ptx_reg_t.inc"

# 4. Class bodies and fragments.
block "$gs/src/abstract_hardware_model.h" '^  void and_reduction\(' '^  unsigned get_reduction_value' > "$gen/core_reduction.inc"
awk '/^  unsigned get_reduction_value/ {f=1; next} f {print; if ($0 ~ /^  }$/) exit}' \
  "$gs/src/abstract_hardware_model.h" >> "$gen/core_reduction.inc"
block "$gs/src/gpgpu-sim/shader.h" '^class barrier_set_t \{' '^\};' > "$gen/barrier_set_class.inc"
# The option decoding loop of ptx_instruction::ptx_instruction (ptx_ir.cc).
block "$cs/ptx_ir.cc" '^  for \(i = options.begin\(\); i != options.end\(\); i\+\+, n\+\+\) \{' '^  }$' > "$gen/options_loop.inc"

# 5. Function definitions.
{
  fn "$cs/instructions.cc" '^void bar_callback\('
  fn "$cs/instructions.cc" '^void bar_impl\('
  fn "$cs/instructions.cc" '^void nop_impl\('
  fn "$cs/instructions.cc" '^void vote_impl\('
  fn "$cs/instructions.cc" '^void activemask_impl\('
  fn "$cs/cuda-sim.cc" '^void ptx_instruction::set_bar_type\('
  fn "$gs/src/abstract_hardware_model.cc" '^void warp_inst_t::broadcast_barrier_reduction\('
  fn "$gs/src/gpgpu-sim/shader.cc" '^barrier_set_t::barrier_set_t\('
  fn "$gs/src/gpgpu-sim/shader.cc" '^void barrier_set_t::allocate_barrier\('
  fn "$gs/src/gpgpu-sim/shader.cc" '^void barrier_set_t::warp_reaches_barrier\('
  fn "$gs/src/gpgpu-sim/shader.cc" '^void barrier_set_t::warp_exit\('
  fn "$gs/src/gpgpu-sim/shader.cc" '^bool barrier_set_t::warp_waiting_at_barrier\('
  fn "$gs/src/gpgpu-sim/shader.cc" '^void barrier_set_t::dump\('
  fn "$gs/src/gpgpu-sim/shader.cc" '^void shader_core_ctx::broadcast_barrier_reduction\('
} > "$gen/functions.inc"

# 6. The commit, for the report.
if [ "$(git -C "$gs" rev-parse --show-toplevel 2>/dev/null)" = "$gs" ]; then
  commit="$(git -C "$gs" rev-parse HEAD)"
else  # an extracted archive (git archive): a .commit file beside src/, if the user wrote one
  commit="$(cat "$gs/.commit" 2>/dev/null || echo unknown)"
fi
echo "#define GPGPU_SIM_COMMIT \"$commit\"" > "$gen/commit.h"

# GPGPU-Sim builds without -DNDEBUG (src/Makefile): its assertions stay on here too.
"$cxx" -std=c++14 -O1 -g -w -UNDEBUG -I "$gen" -I "$cs" -I "$here" -I "$root/capi" \
  "$here/gpgpu_sim_adapter.cpp" -o "$out/gpgpu_sim_adapter" \
  -L "$lib" -lwarpspec-c -Wl,-rpath,"$lib"
echo "$out/gpgpu_sim_adapter"
