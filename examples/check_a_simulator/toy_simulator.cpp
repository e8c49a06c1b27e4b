// A deliberately wrong little warp simulator, checked end to end the way a simulator author would:
//   warpspec vectors -o suite.jsonl
//   toy_simulator suite.jsonl > results.jsonl
//   warpspec check --vectors suite.jsonl --results results.jsonl
// It implements a few forms the way naive simulators do, with two classic bugs:
//   - vote.sync.ballot ORs the predicates of every executing lane, ignoring the membermask;
//   - redux.sync.min/max compare as signed integers whatever the type says.
// Forms it does not implement are reported as skipped.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include "vectors/format.hpp"

using namespace warpspec;

namespace {

// One round of the toy: fills d (and present) for the lanes that execute.
bool run_round(const spec::FormInfo& f, bool negate, const model::Warp& w, vectors::Observed& o) {
  o.d.assign(32, 0);
  o.p.assign(32, 0);
  o.present.assign(32, 0);
  uint32_t exited = 0, executing = 0;
  for (unsigned i = 0; i < 32; ++i) {
    exited |= uint32_t{w.exited[i]} << i;
    executing |= uint32_t{w.exec[i] && !w.exited[i]} << i;
  }
  for (unsigned i = 0; i < 32; ++i) {
    if (!((executing >> i) & 1u)) continue;
    const uint32_t part = w.mask[i] & ~exited;
    uint32_t d = 0;
    if (f.id == spec::FormId::MatchAnyB32 || f.id == spec::FormId::MatchAnyB64) {
      const uint64_t keep = f.a_type == spec::OperandType::B64 ? ~0ull : 0xffffffffull;
      for (unsigned j = 0; j < 32; ++j)
        if (((part >> j) & 1u) && (w.a[j] & keep) == (w.a[i] & keep)) d |= 1u << j;
    } else if (f.id == spec::FormId::VoteBallot) {
      for (unsigned j = 0; j < 32; ++j)  // BUG: every executing lane, not the membermask's
        if (((executing >> j) & 1u) && ((w.a[j] != 0) != negate)) d |= 1u << j;
    } else if (f.family == spec::Family::Redux &&
               (f.mode == spec::Mode::Min || f.mode == spec::Mode::Max ||
                f.mode == spec::Mode::Add) &&
               f.a_type != spec::OperandType::F32) {
      bool first = true;
      for (unsigned j = 0; j < 32; ++j) {
        if (!((part >> j) & 1u)) continue;
        const auto x = static_cast<uint32_t>(w.a[j]);
        if (first)
          d = x;
        else if (f.mode == spec::Mode::Add)
          d += x;
        // BUG: signed comparison for .u32 too.
        else if (f.mode == spec::Mode::Min)
          d = static_cast<int32_t>(x) < static_cast<int32_t>(d) ? x : d;
        else
          d = static_cast<int32_t>(x) > static_cast<int32_t>(d) ? x : d;
        first = false;
      }
    } else {
      return false;  // not implemented by the toy
    }
    o.d[i] = d;
    o.present[i] = 1;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: toy_simulator VECTORS.jsonl > RESULTS.jsonl\n");
    return 64;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "toy_simulator: cannot open %s\n", argv[1]);
    return 66;
  }
  vectors::VectorReader reader(argv[1]);
  std::string line;
  std::size_t no = 0;
  std::cout << "{\"schema\":\"warpspec-results/1\"}\n";
  while (std::getline(in, line)) {
    if (++no == 1 || line.empty()) continue;  // the header
    const auto v = reader.full(line, no);
    const auto& f = spec::form_info(v.instr.instr.form);
    std::vector<vectors::Observed> rounds(v.rounds.size());
    bool ran = !v.is_cta();
    for (std::size_t k = 0; ran && k < v.rounds.size(); ++k)
      ran = run_round(f, v.instr.instr.negate, v.rounds[k].warp, rounds[k]);
    if (!ran) {
      std::cout << "{\"id\":" << v.id << ",\"skipped\":true}\n";
      continue;
    }
    std::cout << vectors::result_line(v.id, rounds, false, false) << "\n";
  }
  return 0;
}
