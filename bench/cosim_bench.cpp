// The cost of per-step co-simulation through the C interface (capi/warpspec.h): a simulator hands
// in what it computed for one warp instruction and gets the verdict. Measured on the states of
// warp_states.hpp with the right answers (the common case: agreement), one thread, per form.
#include <benchmark/benchmark.h>

#include <vector>

#include "bench/warp_states.hpp"
#include "capi/warpspec.h"
#include "model/eval.hpp"

namespace {

using namespace warpspec;

struct Step {
  ws_warp_state state;
  uint32_t d[32];
  uint8_t p[32];
  uint8_t present[32];
};

void cosim_step(benchmark::State& st, const char* text, spec::OperandType type) {
  ws_instr* in = nullptr;
  if (ws_instr_parse(text, nullptr, nullptr, &in) != WS_OK) {
    st.SkipWithError(ws_last_error());
    return;
  }
  std::vector<Step> steps;
  for (const auto& w : bench::warps(type, bench::Values::Few, 512, 20240601)) {
    Step s{};
    for (unsigned i = 0; i < 32; ++i) {
      s.state.status[i] = static_cast<uint8_t>(model::status(w, i));
      s.state.mask[i] = w.mask[i];
      s.state.a[i] = w.a[i];
      s.state.site[i] = w.site[i];
    }
    ws_warp_answer e;
    ws_eval_warp(in, &s.state, &e);
    for (unsigned i = 0; i < 32; ++i) s.d[i] = e.d[i], s.p[i] = e.p[i], s.present[i] = e.executes[i];
    steps.push_back(s);
  }
  std::size_t k = 0, disagree = 0;
  for (auto _ : st) {
    const auto& s = steps[k++ % steps.size()];
    ws_verdict v;
    ws_step_warp(in, &s.state, s.d, s.p, s.present, 0, &v);
    disagree += !v.agree;
    benchmark::DoNotOptimize(v);
  }
  if (disagree) st.SkipWithError("the model's own answers disagree");
  st.SetItemsProcessed(static_cast<int64_t>(st.iterations()));
  ws_instr_free(in);
}

BENCHMARK_CAPTURE(cosim_step, vote_ballot, "vote.sync.ballot.b32 d, a, m;", spec::OperandType::Pred);
BENCHMARK_CAPTURE(cosim_step, match_any_b32, "match.any.sync.b32 d, a, m;", spec::OperandType::B32);
BENCHMARK_CAPTURE(cosim_step, match_all_b64, "match.all.sync.b64 d|p, a, m;", spec::OperandType::B64);
BENCHMARK_CAPTURE(cosim_step, redux_add_u32, "redux.sync.add.u32 d, a, m;", spec::OperandType::U32);
BENCHMARK_CAPTURE(cosim_step, bar_warp_sync, "bar.warp.sync m;", spec::OperandType::None);

}  // namespace

BENCHMARK_MAIN();
