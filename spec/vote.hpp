#pragma once
// vote.sync semantics.
#include "spec/warp_common.hpp"

namespace warpspec::spec {

/// PTX ISA 9.7.13.9, vote.sync. Each lane's predicate (inverted with `!a`) is voted over the
/// non-exited lanes of the lane's membermask: `.all` needs every one true, `.any` at least one,
/// `.uni` all alike; `.ballot` returns their predicates as bits, with 0 for every other lane.
/// On sm_6x and older the named lanes must also be converged, and every executing lane must be
/// named by some membermask.
template <Domain D, int W>
Outcome<D, W> eval_vote(const D& d, const Instr& in, const WarpState<D, W>& s, bool pre_volta) {
  const FormInfo& f = form_info(in.form);
  const auto v = view_of(d, s, in);
  auto preds = d.w32(0);
  for (unsigned j = 0; j < W; ++j) {
    auto p = s.a[j] != d.w64(0);
    preds = preds | bit_if(d, in.negate ? !p : p, j);
  }
  auto result = [&](unsigned i) {
    auto part = participants(d, v, i);
    auto none_false = is_zero(d, part & ~preds);
    auto none_true = is_zero(d, part & preds);
    auto as_word = [&](const typename D::B& b) { return d.ite(b, d.w32(1), d.w32(0)); };
    switch (f.mode) {
      case Mode::All:
        return as_word(none_false);
      case Mode::Any:
        return as_word(!none_true);
      case Mode::Uni:
        return as_word(none_false || none_true);
      default:
        return part & preds;  // ballot
    }
  };
  Outcome<D, W> out{lanes_of<W>(result), lanes_of<W>([&](unsigned) { return d.lit(false); }),
                    v.executes, {}, {}};
  add_common_ub(d, v, out, kVoteUb);
  out.ub.push_back({kVoteUb[3], ub_sm6x_named_converged(d, v, s, pre_volta)});
  return out;
}

}  // namespace warpspec::spec
