// Evaluates a ballot with the installed library: lanes 0-15 vote true, lanes 16-31 have exited.
#include <cstdio>
#include <model/eval.hpp>

int main() {
  using namespace warpspec;
  model::Warp w = model::make_warp();
  for (unsigned i = 0; i < 32; ++i) {
    w.a[i] = 1;
    if (i >= 16) model::set_status(w, i, model::LaneStatus::Exited);
  }
  spec::Instr ballot;
  ballot.form = spec::FormId::VoteBallot;
  auto r = model::evaluate(ballot, w);
  std::printf("ballot=0x%08x ub=%zu\n", r.outcome.d[0], r.ub.size());
  return r.outcome.d[0] == 0x0000ffffu && r.ub.empty() ? 0 : 1;
}
