// The fast implementation as the checker reads it: its domain-generic text (model/fast/
// generic.hpp) over Z3 for the proofs, and its portable path through its public entry points for
// the replay of a counterexample.
#include "checker/implementation.hpp"
#include "model/fast/fast.hpp"

namespace warpspec::checker {

namespace {

/// The lean fast result as the model's outcome: words of lanes become per-lane flags, and the
/// UB words are labelled with the form's clauses in the model's order.
template <class D>
spec::Outcome<D> outcome_of(const D& d, const spec::Instr& in,
                            const fast::Lanes<D, spec::kWarpSize>& l) {
  spec::Outcome<D> o{
      l.d,
      spec::lanes_of<spec::kWarpSize>([&](unsigned i) { return d.bit(l.p, i); }),
      spec::lanes_of<spec::kWarpSize>([&](unsigned i) { return d.bit(l.executes, i); }),
      {}};
  const auto clauses = fast::ub_clauses(in.form);
  for (std::size_t c = 0; c < clauses.size(); ++c) o.ub.push_back({clauses[c], l.ub[c]});
  return o;
}

}  // namespace

std::shared_ptr<const Implementation> fast_implementation() {
  static const auto impl = [] {
    auto f = std::make_shared<Implementation>();
    f->name = "fast";
    f->warp_symbolic = [](const Z3Domain& d, const spec::Instr& in,
                          const spec::WarpState<Z3Domain>& s, bool pre_volta) {
      return outcome_of(d, in, fast::evaluate_lanes(d, in, s, pre_volta));
    };
    f->cta_symbolic = [](const Z3Domain& d, const spec::Instr& in,
                         const spec::CtaState<Z3Domain>& s) {
      auto l = fast::evaluate_cta_words(d, in, s);
      spec::CtaOutcome<Z3Domain> o{l.d, {}, {}, l.any_ub};
      for (std::size_t t = 0; t < s.arrive.size(); ++t) {
        o.executes.push_back(d.bit(l.executes[t / 32], static_cast<unsigned>(t % 32)));
        o.ub_not_reached.push_back(o.executes.back() && l.any_ub);
      }
      return o;
    };
    // The replay runs the portable path (the same text, concretely), so that a counterexample
    // speaks about the code that was proved, whatever vector unit this machine has.
    f->warp_concrete = [](const model::Concrete&, const spec::Instr& in, const model::Warp& w,
                          bool pre_volta) {
      fast::WarpLanes lanes;
      const auto target = pre_volta ? spec::Target{60, 0} : spec::kDefaultTarget;
      auto verdict = fast::evaluate_batch(in, std::span(&w, 1), std::span(&lanes, 1), target,
                                          spec::kLatestPtx, fast::Isa::Portable);
      return fast::to_result(in, lanes, std::move(verdict)).outcome;
    };
    f->cta_concrete = [](const model::Concrete&, const spec::Instr& in, const model::Cta& c) {
      return fast::evaluate_cta(in, c).outcome;
    };
    return std::shared_ptr<const Implementation>(std::move(f));
  }();
  return impl;
}

}  // namespace warpspec::checker
