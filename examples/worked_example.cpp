// The worked example that accompanies the CUDA warp match functions, evaluated with the library:
// lanes 0-1 hold 5, the rest 6, full mask. Prints one line per thread in the format the original
// CUDA program printed, so the two outputs can be compared line by line.
#include <cstdio>

#include "model/eval.hpp"

int main() {
  using namespace warpspec;
  model::Warp w = model::make_warp(0xffffffffu);
  for (unsigned lane = 0; lane < 32; ++lane) w.a[lane] = lane > 1 ? 6 : 5;

  spec::Instr match_all;
  match_all.form = spec::FormId::MatchAllB32;  // __match_all_sync(0xffffffff, a, &pred)
  match_all.write_p = true;
  spec::Instr match_any;
  match_any.form = spec::FormId::MatchAnyB32;  // __match_any_sync(0xffffffff, a)

  const auto all = model::evaluate(match_all, w);
  const auto any = model::evaluate(match_any, w);
  for (unsigned lane = 0; lane < 32; ++lane)
    std::printf("threadId: %u  match_all: %x  match_any: %x  pred: %d\n", lane, all.outcome.d[lane],
                any.outcome.d[lane], static_cast<int>(all.outcome.p[lane]));
  return all.ub.empty() && any.ub.empty() ? 0 : 1;
}
