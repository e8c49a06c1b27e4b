#pragma once
// An implementation of the warp primitives that the checker can read both ways: symbolically
// (to prove) and concretely (to replay a counterexample). The reference model is one; the fast
// implementation, or a deliberately wrong one in the tests, are others.
#include <functional>
#include <memory>
#include <string>

#include "checker/z3_domain.hpp"
#include "model/concrete.hpp"
#include "model/eval.hpp"
#include "spec/outcome.hpp"
#include "spec/semantics.hpp"

namespace warpspec::checker {

/// Evaluates a warp form in domain D; `pre_volta` selects the sm_6x rules.
template <class D>
using WarpFn = std::function<spec::Outcome<D>(const D&, const spec::Instr&,
                                              const spec::WarpState<D>&, bool pre_volta)>;
/// Evaluates a block-barrier form in domain D.
template <class D>
using CtaFn =
    std::function<spec::CtaOutcome<D>(const D&, const spec::Instr&, const spec::CtaState<D>&)>;

/// One implementation, read symbolically and concretely.
struct Implementation {
  std::string name;
  WarpFn<Z3Domain> warp_symbolic;
  WarpFn<model::Concrete> warp_concrete;
  CtaFn<Z3Domain> cta_symbolic;
  CtaFn<model::Concrete> cta_concrete;

  /// The reading of the warp evaluator for domain D.
  template <class D>
  const WarpFn<D>& warp() const {
    if constexpr (std::is_same_v<D, Z3Domain>)
      return warp_symbolic;
    else
      return warp_concrete;
  }
  /// The reading of the block evaluator for domain D.
  template <class D>
  const CtaFn<D>& cta() const {
    if constexpr (std::is_same_v<D, Z3Domain>)
      return cta_symbolic;
    else
      return cta_concrete;
  }
};

/// The reference: the spec templates read over Z3, and `model::evaluate` for the concrete side.
std::shared_ptr<const Implementation> model_implementation();

/// An implementation written once over the domain concept: `warp(d, in, s, pre_volta)` and
/// `cta(d, in, s)` are generic callables instantiated for both readings.
template <class WarpG, class CtaG>
std::shared_ptr<const Implementation> generic_implementation(std::string name, WarpG warp,
                                                             CtaG cta) {
  auto impl = std::make_shared<Implementation>();
  impl->name = std::move(name);
  impl->warp_symbolic = [warp](const Z3Domain& d, const spec::Instr& in,
                               const spec::WarpState<Z3Domain>& s,
                               bool pv) { return warp(d, in, s, pv); };
  impl->warp_concrete = [warp](const model::Concrete& d, const spec::Instr& in,
                               const model::Warp& s, bool pv) { return warp(d, in, s, pv); };
  impl->cta_symbolic = [cta](const Z3Domain& d, const spec::Instr& in,
                             const spec::CtaState<Z3Domain>& s) { return cta(d, in, s); };
  impl->cta_concrete = [cta](const model::Concrete& d, const spec::Instr& in, const model::Cta& s) {
    return cta(d, in, s);
  };
  return impl;
}

/// The spec's own warp evaluator as a generic callable (the base most variants start from).
struct SpecWarp {
  template <class D>
  spec::Outcome<D> operator()(const D& d, const spec::Instr& in, const spec::WarpState<D>& s,
                              bool pre_volta) const {
    return spec::evaluate_warp(d, in, s, pre_volta);
  }
};
/// The spec's own block-barrier evaluator as a generic callable.
struct SpecCta {
  template <class D>
  spec::CtaOutcome<D> operator()(const D& d, const spec::Instr& in,
                                 const spec::CtaState<D>& s) const {
    return spec::eval_cta(d, in, s);
  }
};

/// The fast implementation when it is part of the build, else null.
std::shared_ptr<const Implementation> fast_implementation();

}  // namespace warpspec::checker
