#pragma once
// __syncwarp (bar.warp.sync). The block barriers are in spec/cta.hpp.
#include "spec/warp_common.hpp"

namespace warpspec::spec {

/// CUDA Programming Guide 10.6, __syncwarp / PTX bar.warp.sync. No value is produced. Each
/// caller must be in its own mask; every non-exited lane named in a caller's mask must call it
/// with the same mask (exited lanes need not arrive). On sm_6x and older the callers must be
/// converged and the union of their masks must equal the set of lanes executing it.
template <Domain D, int W>
Outcome<D, W> eval_syncwarp(const D& d, const Instr& in, const WarpState<D, W>& s, bool pre_volta) {
  const auto v = view_of(d, s, in);
  Outcome<D, W> out{lanes_of<W>([&](unsigned) { return d.w32(0); }),
                    lanes_of<W>([&](unsigned) { return d.lit(false); }),
                    v.executes,
                    {},
                    {}};
  add_common_ub(d, v, out, kSyncwarpUb);
  auto sm6x = d.w32(0);
  if (pre_volta) {
    auto union_differs = union_of_masks(d, v) != v.execs;
    sm6x = ub_not_converged(d, v, s) | d.ite(union_differs, v.execs, d.w32(0));
  }
  out.ub.push_back({kSyncwarpUb[3], sm6x});
  return out;
}

}  // namespace warpspec::spec
