#pragma once
// Pieces every warp-synchronous family shares: who takes part, and the three UB conditions that
// the match, vote, redux and __syncwarp texts each state for their own instruction.
#include "spec/domain.hpp"
#include "spec/outcome.hpp"
#include "spec/warp_state.hpp"

namespace warpspec::spec {

/// Masks derived once from a warp state.
template <Domain D, int W>
struct WarpView {
  typename D::W32 exited;  ///< lanes that have exited
  typename D::W32 execs;   ///< lanes that execute the instruction (and have not exited)
  std::array<typename D::B, W> executes;
  std::array<typename D::W32, W> mask;  ///< each lane's membermask limited to the warp's lanes
};

template <Domain D, int W>
WarpView<D, W> view_of(const D& d, const WarpState<D, W>& s, const Instr& in) {
  auto executes = lanes_of<W>([&](unsigned i) { return s.exec[i] && !s.exited[i]; });
  auto mask = lanes_of<W>([&](unsigned i) {
    auto m = in.imm_mask ? d.w32(*in.imm_mask) : s.mask[i];
    return m & d.w32(full_mask<W>());
  });
  auto exited = d.w32(0), execs = d.w32(0);
  for (unsigned i = 0; i < W; ++i) {
    exited = exited | bit_if(d, s.exited[i], i);
    execs = execs | bit_if(d, executes[i], i);
  }
  return {exited, execs, executes, mask};
}

/// The lanes whose values lane `i`'s instruction combines: non-exited lanes of its membermask.
template <Domain D, int W>
typename D::W32 participants(const D&, const WarpView<D, W>& v, unsigned i) {
  return v.mask[i] & ~v.exited;
}

/// Word with bit i set on each executing lane i for which `cond(i)` holds.
template <Domain D, int W, class F>
typename D::W32 executing_lanes_where(const D& d, const WarpView<D, W>& v, F&& cond) {
  auto acc = d.w32(0);
  for (unsigned i = 0; i < W; ++i) acc = acc | bit_if(d, v.executes[i] && cond(i), i);
  return acc;
}

/// UB: the executing lane's own bit is clear in its membermask.
template <Domain D, int W>
typename D::W32 ub_self_not_in_mask(const D& d, const WarpView<D, W>& v) {
  return executing_lanes_where(d, v, [&](unsigned i) { return !d.bit(v.mask[i], i); });
}

/// UB: some non-exited lane named in the executing lane's membermask does not execute.
template <Domain D, int W>
typename D::W32 ub_peer_absent(const D& d, const WarpView<D, W>& v) {
  return executing_lanes_where(
      d, v, [&](unsigned i) { return !is_zero(d, v.mask[i] & ~v.exited & ~v.execs); });
}

/// UB: some lane named in the executing lane's membermask executes with another membermask.
template <Domain D, int W>
typename D::W32 ub_mask_mismatch(const D& d, const WarpView<D, W>& v) {
  return executing_lanes_where(d, v, [&](unsigned i) {
    auto any = d.lit(false);
    for (unsigned j = 0; j < W; ++j)
      if (j != i) any = any || (d.bit(v.mask[i], j) && v.executes[j] && v.mask[j] != v.mask[i]);
    return any;
  });
}

/// sm_6x convergence: some non-exited lane named in the executing lane's membermask is not
/// executing this instruction from the same call site.
template <Domain D, int W>
typename D::W32 ub_not_converged(const D& d, const WarpView<D, W>& v, const WarpState<D, W>& s) {
  return executing_lanes_where(d, v, [&](unsigned i) {
    auto any = d.lit(false);
    for (unsigned j = 0; j < W; ++j)
      if (j != i)
        any = any || (d.bit(v.mask[i], j) && !d.bit(v.exited, j) &&
                      !(v.executes[j] && s.site[j] == s.site[i]));
    return any;
  });
}

/// Union of the membermasks of all executing lanes.
template <Domain D, int W>
typename D::W32 union_of_masks(const D& d, const WarpView<D, W>& v) {
  auto acc = d.w32(0);
  for (unsigned i = 0; i < W; ++i) acc = acc | d.ite(v.executes[i], v.mask[i], d.w32(0));
  return acc;
}

/// The sm_6x rule vote.sync and shfl.sync state: the named lanes execute converged (one call
/// site), and every executing lane is named by some membermask. Zero on later targets.
template <Domain D, int W>
typename D::W32 ub_sm6x_named_converged(const D& d, const WarpView<D, W>& v,
                                        const WarpState<D, W>& s, bool pre_volta) {
  if (!pre_volta) return d.w32(0);
  return ub_not_converged(d, v, s) | (v.execs & ~union_of_masks(d, v));
}

/// The three UB terms every warp-synchronous form carries, under its family's clause ids.
template <Domain D, int W>
void add_common_ub(const D& d, const WarpView<D, W>& v, Outcome<D, W>& out,
                   std::span<const ClauseId> family_ub) {
  out.ub.push_back({family_ub[0], ub_self_not_in_mask(d, v)});
  out.ub.push_back({family_ub[1], ub_peer_absent(d, v)});
  out.ub.push_back({family_ub[2], ub_mask_mismatch(d, v)});
}

}  // namespace warpspec::spec
