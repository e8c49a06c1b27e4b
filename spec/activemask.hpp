#pragma once
// activemask semantics.
#include "spec/warp_common.hpp"

namespace warpspec::spec {

/// PTX ISA 9.7.13.11, activemask. A query, not a rendezvous: each executing lane learns which
/// lanes execute this instance of the instruction with it, as a word of lane bits. Lanes that
/// have exited, that are elsewhere in the program, or that reach it from another call site (not
/// converged with it) contribute 0. No membermask, no waiting and no undefined case.
template <Domain D, int W>
Outcome<D, W> eval_activemask(const D& d, const Instr& in, const WarpState<D, W>& s) {
  const auto v = view_of(d, s, in);
  auto result = [&](unsigned i) {
    auto together = d.w32(0);
    for (unsigned j = 0; j < W; ++j) together = together | bit_if(d, s.site[j] == s.site[i], j);
    return v.execs & together;
  };
  return {lanes_of<W>(result), lanes_of<W>([&](unsigned) { return d.lit(false); }), v.executes, {},
          {}};
}

}  // namespace warpspec::spec
