// The fast implementation as the checker reads it: its domain-generic text (model/fast/
// generic.hpp) over Z3 for the proofs, and its portable path through its public entry points for
// the replay of a counterexample.
#include "checker/implementation.hpp"
#include "checker/laws.hpp"
#include "checker/library.hpp"
#include "model/fast/fast.hpp"

namespace warpspec::checker {

namespace {

/// The lean fast result as the model's outcome: words of lanes become per-lane flags, the UB
/// words are labelled with the form's clauses in the model's order, and the loose-d word with
/// the form's clause that leaves d undefined.
template <class D>
spec::Outcome<D> outcome_of(const D& d, const spec::Instr& in,
                            const fast::Lanes<D, spec::kWarpSize>& l) {
  spec::Outcome<D> o{
      l.d,
      spec::lanes_of<spec::kWarpSize>([&](unsigned i) { return d.bit(l.p, i); }),
      spec::lanes_of<spec::kWarpSize>([&](unsigned i) { return d.bit(l.executes, i); }),
      {},
      {}};
  const auto clauses = fast::ub_clauses(in.form);
  for (std::size_t c = 0; c < clauses.size(); ++c) o.ub.push_back({clauses[c], l.ub[c]});
  if (const auto loose = fast::loose_d_clause(in.form)) o.loose_d.push_back({*loose, l.loose_d});
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
      auto bit = [&](const std::vector<z3::expr>& words, std::size_t t) {
        return d.bit(words[t / 32], static_cast<unsigned>(t % 32));
      };
      for (std::size_t t = 0; t < s.arrive.size(); ++t) o.executes.push_back(bit(l.executes, t));
      for (const auto& [clause, words] : l.ub) {
        spec::CtaUbTerm<Z3Domain> term{clause, {}};
        for (std::size_t t = 0; t < s.arrive.size(); ++t) term.threads.push_back(bit(words, t));
        o.ub.push_back(std::move(term));
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

namespace {

/// The walk's invariant at lane i: unless the walk went bad, a visited lane (executing, no
/// longer left) names only visited lanes, all passing its own mask word.
template <class D>
typename D::B walk_invariant_at(const D& d, const fast::LaneWords<D, spec::kWarpSize>& v,
                                const fast::MismatchWalk<D>& walk, unsigned i) {
  const auto visited = v.execs & ~walk.left;
  const auto named = v.mask[i] & v.execs;
  auto ok = spec::is_zero(d, named & ~visited);
  for (unsigned j = 0; j < spec::kWarpSize; ++j)
    ok = ok && laws::implies(d, d.bit(named, j), v.mask[j] == v.mask[i]);
  return laws::implies(d, spec::is_zero(d, walk.bad) && d.bit(visited, i), ok);
}

template <class D>
typename D::B walk_invariant(const D& d, const fast::LaneWords<D, spec::kWarpSize>& v,
                             const fast::MismatchWalk<D>& walk) {
  auto all = d.lit(true);
  for (unsigned i = 0; i < spec::kWarpSize; ++i) all = all && walk_invariant_at(d, v, walk, i);
  return all;
}

}  // namespace

std::vector<Property> fast_internal_library() {
  std::vector<Property> lib;
  // Soundness by induction over the walk's steps; `left` and `bad` before a step, and the leader
  // of a visit, are free words of the second state. The converse (a well-synchronised warp never
  // walks bad, which only costs speed) is tested, not proved.
  lib.push_back(make_property(
      "fast.mismatch_walk_is_sound",
      "When every executing lane is in its own mask, a group walk of the vector kernels that ends "
      "clean leaves no lane with a mask mismatch (by induction over its steps).",
      kUsesWarp | kUsesTwoWarps,
      [](auto& e) {
        using Dom = std::decay_t<decltype(e.d)>;
        using Walk = fast::MismatchWalk<Dom>;
        const auto& d = e.d;
        const auto in = laws::instr(spec::FormId::ReduxAddU32);
        const auto ref = e.reference(in, e.w0);
        const auto v = fast::lane_words(d, e.w0, in);
        const auto self_ok =
            spec::is_zero(d, fast::ub_self_not_in_mask<Dom, spec::kWarpSize>(d, v));
        const Walk walk{e.w1.mask[0], e.w1.mask[1]};
        const auto inside = spec::is_zero(d, walk.left & ~v.execs);
        const auto leader = fast::mismatch_walk_leader<Dom, spec::kWarpSize>(d, v, walk.left);
        const auto step = fast::mismatch_walk_step<Dom, spec::kWarpSize>(d, v, walk);
        const auto lowest = walk.left & (~walk.left + d.w32(1));

        e.claim("the walk starts inside the invariant",
                walk_invariant(d, v, Walk{v.execs, d.w32(0)}));
        e.claim("a step keeps left among the executing lanes, without the lowest lane left",
                laws::implies(d, inside, spec::is_zero(d, step.left & (lowest | ~walk.left))));
        e.claim("the leader is in its group",
                laws::implies(d, self_ok && inside, spec::is_zero(d, leader.lead & ~leader.group)));
        // Any leader inside its group will do, which spares the solver the choice of the lowest
        // lane; the step's leader is one (the claim above).
        const fast::WalkLeader<Dom> any{e.w1.mask[2], e.w1.mask[3], e.w1.mask[3] & v.execs};
        const auto visited = fast::mismatch_walk_visit<Dom, spec::kWarpSize>(d, v, walk, any);
        const auto clean_after = spec::is_zero(d, visited.bad);
        const auto lead_in_group = spec::is_zero(d, any.lead & ~any.group);
        e.claim("a visit adds the group's lanes left to the visited ones",
                laws::implies(d, lead_in_group, visited.left == (walk.left & ~any.group)));
        e.claim_lanes("a clean visit keeps the invariant on lanes visited before", [&](unsigned i) {
          return laws::implies(
              d, inside && walk_invariant_at(d, v, walk, i) && clean_after && !d.bit(walk.left, i),
              walk_invariant_at(d, v, visited, i));
        });
        // Lane i passes the leader's mask word, so the invariant at i may speak of that word
        // instead (substitution of equals); the claim states the equality it rests on as well.
        e.claim_lanes("a clean visit keeps the invariant on the lanes it visits", [&](unsigned i) {
          return laws::implies(d, clean_after && d.bit(any.group, i),
                               v.mask[i] == any.m && e.rewrite(walk_invariant_at(d, v, visited, i),
                                                               v.mask[i], any.m));
        });
        e.claim("a walk that ends clean leaves no mismatch",
                laws::implies(
                    d, walk_invariant(d, v, Walk{d.w32(0), d.w32(0)}),
                    spec::is_zero(d, laws::ub_of(d, ref, spec::ClauseId::ReduxUbMaskMismatch))));
      },
      fast_implementation()));
  return lib;
}

}  // namespace warpspec::checker
