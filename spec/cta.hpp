#pragma once
// The block barriers: bar.sync / barrier.cta.sync, bar.red / barrier.cta.red, bar.arrive /
// barrier.cta.arrive, with a barrier number and an optional thread count (__syncthreads and its
// _count/_and/_or variants are barrier 0 without a count).
#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "spec/domain.hpp"
#include "spec/outcome.hpp"
#include "spec/warp_state.hpp"

namespace warpspec::spec {

/// The number of barriers a block has (numbered 0-15).
inline constexpr uint32_t kCtaBarriers = 16;

/// Thread t's barrier number as the instruction reads it: the immediate, else its register.
template <Domain D>
typename D::W32 operand_bar(const D& d, const Instr& in, const CtaState<D>& s, std::size_t t) {
  return in.imm_bar ? d.w32(*in.imm_bar) : s.bar[t];
}
/// Thread t's thread count, likewise (meaningful only when the instruction writes one).
template <Domain D>
typename D::W32 operand_count(const D& d, const Instr& in, const CtaState<D>& s, std::size_t t) {
  return in.imm_count ? d.w32(*in.imm_count) : s.count[t];
}

/// Whether `arrivals` threads make a whole, positive number of phases of a barrier with thread
/// count `count`, in a block of `warps` warps: count is 32c for some c from 1 to `warps`, and
/// arrivals is q times count for some q >= 1. Written with constants only, so that a symbolic
/// count needs no multiplication.
template <Domain D>
typename D::B fills_phases(const D& d, const typename D::W32& count,
                           const typename D::W32& arrivals, std::size_t warps) {
  auto any = d.lit(false);
  for (std::size_t c = 1; c <= warps; ++c) {
    auto whole = d.lit(false);
    for (std::size_t q = 1; c * q <= warps; ++q)
      whole = whole || arrivals == d.w32(static_cast<uint32_t>(32 * c * q));
    any = any || (count == d.w32(static_cast<uint32_t>(32 * c)) && whole);
  }
  return any;
}

/// A thread's view of a per-barrier fact: `per_k[j]` where its barrier number `id` is `ks[j]`,
/// else `none`. The model and the fast text both select this way, so that a thread's answer is
/// the same term in both and their equivalence needs no search.
template <Domain D, class PerK, class T>
T select_barrier(const D& d, const typename D::W32& id, const std::vector<uint32_t>& ks,
                 const PerK& per_k, T none) {
  T v = none;
  for (std::size_t j = ks.size(); j-- > 0;) v = d.ite(id == d.w32(ks[j]), T(per_k[j]), v);
  return v;
}

/// PTX ISA 9.7.13.1 (bar, barrier) and CUDA Programming Guide 10.6 (__syncthreads*). The state
/// is one phase of the block's barriers. A warp arrives at barrier k once every non-exited thread
/// of it stands at k; bar.arrive then goes on, bar.sync and bar.red wait until k completes. With
/// a thread count b, k completes each time b/32 warps have arrived (so the arrivals must fill
/// whole phases); without one, it completes when every warp with a non-exited thread has
/// arrived. bar.red gives each waiting thread the count, AND or OR of the (optionally negated)
/// predicates of the threads at its barrier. UB anywhere leaves every thread's result undefined.
template <Domain D>
CtaOutcome<D> eval_cta(const D& d, const Instr& in, const CtaState<D>& s) {
  using B = typename D::B;
  using W = typename D::W32;
  const FormInfo& f = form_info(in.form);
  const bool red = f.mode != Mode::None;
  const bool arrive_form = in.form == FormId::BarArrive;
  const std::size_t n = s.arrive.size(), warps = (n + 31) / 32;

  // The barriers the step can name: the immediate alone, or all sixteen. Where the domain's
  // booleans are plain bools the numbers are known, and only those an arriving thread names can
  // matter: every other barrier touches only threads elsewhere, whose answers no rule reads.
  std::vector<uint32_t> ks;
  if (in.imm_bar) {
    ks.push_back(*in.imm_bar);
  } else if constexpr (std::is_same_v<B, bool>) {
    for (std::size_t t = 0; t < n; ++t)
      if (s.arrive[t] && !s.exited[t] && s.bar[t] < kCtaBarriers) ks.push_back(s.bar[t]);
    std::sort(ks.begin(), ks.end());
    ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
  } else {
    for (uint32_t k = 0; k < kCtaBarriers; ++k) ks.push_back(k);
  }

  std::vector<B> here, mine, arrive_kind, at;  // `at`: flattened [t * ks.size() + j]
  std::vector<W> id, cnt;
  for (std::size_t t = 0; t < n; ++t) {
    here.push_back(s.arrive[t] && !s.exited[t]);
    mine.push_back(here[t] && !s.partner[t]);
    // bar.arrive's partner is bar.sync; bar.sync's is bar.arrive; bar.red's is bar.sync.
    arrive_kind.push_back(arrive_form ? !s.partner[t] : (red ? d.lit(false) : s.partner[t]));
    id.push_back(operand_bar(d, in, s, t));
    cnt.push_back(in.has_count ? operand_count(d, in, s, t) : d.w32(0));
    for (uint32_t k : ks) at.push_back(here[t] && id[t] == d.w32(k));
  }
  auto at_k = [&](std::size_t t, std::size_t j) -> B { return at[t * ks.size() + j]; };

  // Per barrier: the count its first thread gives, whether bar.red and its partner meet there,
  // the threads the block must bring (no count), the warps that arrive, and the reductions.
  std::vector<W> ref, arrivals, popc;
  std::vector<B> everyone, red_there, partner_there, all_true, any_true;
  std::vector<std::vector<B>> gathered(warps);  // [w][j]: every live thread of warp w is at k
  for (std::size_t j = 0; j < ks.size(); ++j) {
    W r = d.w32(0);
    for (std::size_t t = n; t-- > 0;) r = d.ite(at_k(t, j), cnt[t], r);
    ref.push_back(r);
    B ev = d.lit(true), rt = d.lit(false), pt = d.lit(false), all = d.lit(true), any = d.lit(false);
    W c = d.w32(0);
    for (std::size_t t = 0; t < n; ++t) {
      ev = ev && (s.exited[t] || at_k(t, j));
      rt = rt || (at_k(t, j) && !s.partner[t]);
      pt = pt || (at_k(t, j) && s.partner[t]);
      B p = s.pred[t] != d.w32(0);
      if (in.negate) p = !p;
      c = c + d.ite(at_k(t, j) && p, d.w32(1), d.w32(0));
      all = all && (!at_k(t, j) || p);
      any = any || (at_k(t, j) && p);
    }
    W a = d.w32(0);
    for (std::size_t w = 0; w < warps; ++w) {
      B whole = d.lit(true), some = d.lit(false);
      for (std::size_t t = w * 32; t < n && t < w * 32 + 32; ++t) {
        whole = whole && (s.exited[t] || at_k(t, j));
        some = some || at_k(t, j);
      }
      gathered[w].push_back(whole);
      a = a + d.ite(whole && some, d.w32(32), d.w32(0));
    }
    everyone.push_back(ev);
    red_there.push_back(red && rt);
    partner_there.push_back(pt);
    arrivals.push_back(a);
    popc.push_back(c);
    all_true.push_back(all);
    any_true.push_back(any);
  }

  // The barrier completes: without a count, the whole block is there; with one, the arrivals
  // are a positive whole number of phases of b threads (b a multiple of 32 the block can fill).
  std::vector<B> completes;
  for (std::size_t j = 0; j < ks.size(); ++j) {
    if (!in.has_count) {
      completes.push_back(everyone[j]);
      continue;
    }
    completes.push_back(fills_phases(d, ref[j], arrivals[j], warps));
  }
  // Thread t's view of its own barrier: a choice among the barriers it can name.
  auto of_mine = [&](std::size_t t, const auto& per_k, auto none) {
    return select_barrier(d, id[t], ks, per_k, none);
  };

  CtaOutcome<D> out{{}, {}, {}, d.lit(false)};
  std::vector<std::vector<B>> fires(std::size(kCtaUb));
  const W block = d.w32(static_cast<uint32_t>(32 * warps));
  for (std::size_t t = 0; t < n; ++t) {
    const std::size_t w = t / 32;
    const B warp_whole = of_mine(t, gathered[w], d.lit(false));
    const B waits = here[t] && !arrive_kind[t];
    const B done = of_mine(t, completes, d.lit(false));
    const B counted = d.lit(in.has_count);
    // A thread at a barrier number the block does not have never gets through either.
    const B no_such = d.ult(d.w32(kCtaBarriers - 1), id[t]);
    fires[0].push_back((here[t] && (!warp_whole || no_such)) || (waits && !done));
    fires[1].push_back(here[t] && no_such);
    fires[2].push_back(here[t] && counted && (cnt[t] & d.w32(31)) != d.w32(0));
    fires[3].push_back(here[t] && (arrive_kind[t] || counted) && cnt[t] == d.w32(0));
    fires[4].push_back(here[t] && counted && d.ult(block, cnt[t]));
    fires[5].push_back(here[t] && counted && cnt[t] != of_mine(t, ref, cnt[t]));
    fires[6].push_back(here[t] && of_mine(t, red_there, d.lit(false)) &&
                       of_mine(t, partner_there, d.lit(false)));
    fires[7].push_back(mine[t] && d.lit(red) && counted &&
                       d.ult(of_mine(t, ref, d.w32(0)), of_mine(t, arrivals, d.w32(0))));
    B own_in_warp = d.lit(false), partner_in_warp = d.lit(false);
    for (std::size_t u = w * 32; u < n && u < w * 32 + 32; ++u) {
      own_in_warp = own_in_warp || (here[u] && !s.partner[u]);
      partner_in_warp = partner_in_warp || (here[u] && s.partner[u]);
    }
    fires[8].push_back(here[t] && own_in_warp && partner_in_warp);
    W value = d.w32(0);
    if (f.mode == Mode::Popc) value = of_mine(t, popc, d.w32(0));
    if (f.mode == Mode::And) value = d.ite(of_mine(t, all_true, d.lit(false)), d.w32(1), d.w32(0));
    if (f.mode == Mode::Or) value = d.ite(of_mine(t, any_true, d.lit(false)), d.w32(1), d.w32(0));
    out.d.push_back(d.ite(mine[t], value, d.w32(0)));
    out.executes.push_back(mine[t]);
  }
  for (std::size_t c = 0; c < std::size(kCtaUb); ++c) {
    if (std::find(f.clauses.begin(), f.clauses.end(), kCtaUb[c]) == f.clauses.end()) continue;
    for (const auto& b : fires[c]) out.any_ub = out.any_ub || b;
    out.ub.push_back({kCtaUb[c], std::move(fires[c])});
  }
  return out;
}

}  // namespace warpspec::spec
