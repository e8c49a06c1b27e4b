#pragma once
// __syncwarp (bar.warp.sync) and the __syncthreads family (bar.sync, bar.red).
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

/// CUDA Programming Guide 10.6, __syncthreads{,_count,_and,_or} / PTX bar.sync, bar.red. Every
/// arriving thread gets the count, AND or OR of the (optionally negated) predicates of the
/// threads that arrive; exited threads count for nothing. A non-exited thread that does not
/// arrive makes every arriving thread's barrier undefined.
template <Domain D>
CtaOutcome<D> eval_cta(const D& d, const Instr& in, const CtaState<D>& s) {
  const FormInfo& f = form_info(in.form);
  const std::size_t n = s.arrive.size();
  auto count = d.w32(0);
  auto all = d.lit(true), any = d.lit(false), missing = d.lit(false);
  std::vector<typename D::B> executes;
  for (std::size_t t = 0; t < n; ++t) {
    auto here = s.arrive[t] && !s.exited[t];
    auto p = s.pred[t] != d.w32(0);
    if (in.negate) p = !p;
    count = count + d.ite(here && p, d.w32(1), d.w32(0));
    all = all && (!here || p);
    any = any || (here && p);
    missing = missing || (!s.arrive[t] && !s.exited[t]);
    executes.push_back(here);
  }
  auto as_word = [&](const typename D::B& b) { return d.ite(b, d.w32(1), d.w32(0)); };
  typename D::W32 value = d.w32(0);
  if (f.mode == Mode::Popc) value = count;
  if (f.mode == Mode::And) value = as_word(all);
  if (f.mode == Mode::Or) value = as_word(any);
  std::vector<typename D::B> ub;
  for (std::size_t t = 0; t < n; ++t) ub.push_back(executes[t] && missing);
  return {value, std::move(executes), std::move(ub), missing};
}

}  // namespace warpspec::spec
