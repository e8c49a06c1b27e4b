// Warp-aggregated atomics: instead of every lane incrementing counter[key], the lanes holding the
// same key elect one leader (the lowest lane of their __match_any_sync group) and the leader adds
// the group's size once. This program runs the idiom on the reference model for a warp in which
// some lanes have exited and others sit outside the mask, and checks it against plain counting.
#include <bit>
#include <cstdio>
#include <map>

#include "model/eval.hpp"

int main() {
  using namespace warpspec;
  const uint32_t mask = 0x00ffffffu;  // lanes 0-23 take part; 24-31 are busy elsewhere
  model::Warp w = model::make_warp(mask);
  const unsigned keys[32] = {3, 7, 3, 3, 9, 7, 1, 3, 9, 9, 9, 1, 3, 7, 7, 7,
                             1, 1, 3, 9, 3, 3, 7, 1, 5, 5, 5, 5, 5, 5, 5, 5};
  for (unsigned lane = 0; lane < 32; ++lane) {
    w.a[lane] = keys[lane];
    if (lane >= 24) model::set_status(w, lane, model::LaneStatus::Inactive);
  }
  for (unsigned lane : {5u, 17u}) model::set_status(w, lane, model::LaneStatus::Exited);

  spec::Instr peers_of;
  peers_of.form = spec::FormId::MatchAnyB32;
  const auto r = model::evaluate(peers_of, w);
  if (!r.ub.empty()) return std::puts("unexpected undefined behaviour"), 1;

  std::map<unsigned, unsigned> aggregated, direct;
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (model::status(w, lane) != model::LaneStatus::Executes) continue;
    ++direct[keys[lane]];
    const uint32_t peers = r.outcome.d[lane];
    const unsigned leader = std::countr_zero(peers);
    if (lane == leader) {
      aggregated[keys[lane]] += std::popcount(peers);  // one atomicAdd per group
      std::printf("key %u: leader lane %u adds %d for lanes 0x%08x\n", keys[lane], leader,
                  std::popcount(peers), peers);
    }
  }
  const bool same = aggregated == direct;
  std::printf("%zu atomics instead of %u; totals %s\n", aggregated.size(), std::popcount(mask) - 2u,
              same ? "match plain counting" : "DIFFER from plain counting");
  return same ? 0 : 1;
}
