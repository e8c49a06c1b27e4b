#pragma once
// Deliberately wrong semantics, written over the value domain like the real ones: each must be
// caught by the prover with a counterexample that replays through the concrete reading.
#include "checker/implementation.hpp"
#include "spec/semantics.hpp"

namespace warpspec::checker::mutants {

/// ballot that ignores the membermask: every non-exited lane's predicate lands in every result.
struct BallotIgnoresMask {
  template <class D>
  spec::Outcome<D> operator()(const D& d, const spec::Instr& in, const spec::WarpState<D>& s,
                              bool pre_volta) const {
    auto out = spec::evaluate_warp(d, in, s, pre_volta);
    if (in.form != spec::FormId::VoteBallot) return out;
    auto preds = d.w32(0);
    for (unsigned j = 0; j < spec::kWarpSize; ++j) {
      auto p = s.a[j] != d.w64(0);
      preds = preds | spec::bit_if(d, (in.negate ? !p : p) && !s.exited[j], j);
    }
    for (auto& x : out.d) x = preds;
    return out;
  }
};

/// vote.uni with its answer inverted.
struct UniInverted {
  template <class D>
  spec::Outcome<D> operator()(const D& d, const spec::Instr& in, const spec::WarpState<D>& s,
                              bool pre_volta) const {
    auto out = spec::evaluate_warp(d, in, s, pre_volta);
    if (in.form != spec::FormId::VoteUni) return out;
    for (auto& x : out.d) x = d.ite(x == d.w32(0), d.w32(1), d.w32(0));
    return out;
  }
};

/// match.any.b32 comparing float values instead of bit patterns: +0.0 matches -0.0 and a NaN
/// matches nothing.
struct FloatMatchByValue {
  template <class D>
  spec::Outcome<D> operator()(const D& d, const spec::Instr& in, const spec::WarpState<D>& s,
                              bool pre_volta) const {
    auto out = spec::evaluate_warp(d, in, s, pre_volta);
    if (in.form != spec::FormId::MatchAnyB32) return out;
    auto exited = d.w32(0);
    for (unsigned j = 0; j < spec::kWarpSize; ++j)
      exited = exited | spec::bit_if(d, s.exited[j], j);
    for (unsigned i = 0; i < spec::kWarpSize; ++i) {
      auto x = d.lo32(s.a[i]);
      auto eq = d.w32(0);
      for (unsigned j = 0; j < spec::kWarpSize; ++j) {
        auto y = d.lo32(s.a[j]);
        auto zeros = spec::is_zero(d, spec::f32_abs(d, x)) && spec::is_zero(d, spec::f32_abs(d, y));
        auto same = (x == y && !spec::f32_is_nan(d, x)) || zeros;
        eq = eq | spec::bit_if(d, same, j);
      }
      auto m = in.imm_mask ? d.w32(*in.imm_mask) : s.mask[i];
      out.d[i] = m & ~exited & eq;
    }
    return out;
  }
};

/// Wraps a mutant as an implementation read both ways.
template <class M>
std::shared_ptr<const Implementation> implementation(const char* name) {
  return generic_implementation(name, M{}, SpecCta{});
}

}  // namespace warpspec::checker::mutants
