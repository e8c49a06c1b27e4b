#pragma once
// A property is written once, as a generic body over the value domain, and read twice: over Z3
// to prove it, and over the concrete domain to replay a counterexample through the model. The
// body states its claims through an `Env`, which evaluates instructions with the implementation
// under test and records what it evaluated so that a counterexample can be shown as lane tables.
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "checker/implementation.hpp"
#include "checker/symbolic_state.hpp"

namespace warpspec::checker {

/// Which states a property ranges over (bit set); only those appear in a counterexample.
enum Uses : unsigned { kUsesWarp = 1, kUsesTwoWarps = 2, kUsesCta = 4 };

/// One warp evaluation a concrete replay performed: what, on which state, with what result.
struct WarpRecord {
  std::string label;  ///< the implementation that evaluated it ("model", "fast", ...)
  spec::Instr instr;
  bool pre_volta;
  model::Warp state;
  spec::Outcome<model::Concrete> outcome;
};

/// One block-barrier evaluation a concrete replay performed.
struct CtaRecord {
  std::string label;
  spec::Instr instr;
  model::Cta state;
  spec::CtaOutcome<model::Concrete> outcome;
};

/// What a property body sees: the domain, the states it ranges over, evaluators, and the place
/// to put its claims.
template <class D>
class Env {
 public:
  using B = typename D::B;
  using W32 = typename D::W32;
  using Warp = spec::WarpState<D>;
  using Cta = spec::CtaState<D>;

  const D& d;
  const Warp& w0;  ///< the warp state every warp property ranges over
  const Warp& w1;  ///< a second, independent warp state (values to swap in, a second warp)
  const Cta& cta;  ///< the block state of the block-barrier properties

  /// An environment evaluating with `subject` and comparing against `reference`.
  Env(const D& dom, const Implementation& subject, const Implementation& reference, const Warp& a,
      const Warp& b, const Cta& c)
      : d(dom), w0(a), w1(b), cta(c), subject_(subject), reference_(reference) {}

  /// The implementation under test evaluates `in` on `s`.
  spec::Outcome<D> eval(const spec::Instr& in, const Warp& s, bool pre_volta = false) {
    return run(subject_, in, s, pre_volta);
  }
  /// The reference model evaluates `in` on `s`.
  spec::Outcome<D> reference(const spec::Instr& in, const Warp& s, bool pre_volta = false) {
    return run(reference_, in, s, pre_volta);
  }
  /// The implementation under test evaluates a block barrier.
  spec::CtaOutcome<D> eval_cta(const spec::Instr& in, const Cta& s) {
    return run_cta(subject_, in, s);
  }
  /// The reference model evaluates a block barrier.
  spec::CtaOutcome<D> reference_cta(const spec::Instr& in, const Cta& s) {
    return run_cta(reference_, in, s);
  }

  /// States that `b` holds (one proof obligation).
  void claim(std::string label, B b) {
    labels.push_back(std::move(label));
    claims.push_back(std::move(b));
  }
  /// States `f(lane)` for every lane, one obligation per lane.
  template <class F>
  void claim_lanes(const std::string& label, F&& f) {
    for (unsigned i = 0; i < spec::kWarpSize; ++i)
      claim(label + " (lane " + std::to_string(i) + ")", f(i));
  }
  /// States `f(thread)` for each of `threads` threads of a block, one obligation per thread.
  template <class F>
  void claim_threads(const std::string& label, std::size_t threads, F&& f) {
    for (std::size_t t = 0; t < threads; ++t)
      claim(label + " (thread " + std::to_string(t) + ")", f(t));
  }
  /// Restricts the states the property ranges over (part of its statement, not a claim).
  void assume(B b) { assumptions.push_back(std::move(b)); }

  /// `term` (a word or a Boolean) with `from` replaced by `to` (words of either width): the same
  /// value wherever `from == to`. Lets a property compare two lanes' results under equal masks
  /// or operands as one term (substitution of equals); the concrete reading returns `term`
  /// unchanged.
  template <class T, class U>
  T rewrite(const T& term, const U& from, const U& to) const {
    if constexpr (std::is_same_v<D, Z3Domain>) {
      z3::expr_vector src(d.ctx()), dst(d.ctx());
      src.push_back(from);
      dst.push_back(to);
      return T(term).substitute(src, dst);
    } else {
      (void)from, (void)to;
      return term;
    }
  }

  std::vector<std::string> labels;  ///< one per claim
  std::vector<B> claims;
  std::vector<B> assumptions;
  std::vector<WarpRecord> warp_records;  ///< filled by the concrete reading only
  std::vector<CtaRecord> cta_records;    ///< filled by the concrete reading only

 private:
  spec::Outcome<D> run(const Implementation& impl, const spec::Instr& in, const Warp& s,
                       bool pre_volta) {
    auto out = impl.warp<D>()(d, in, s, pre_volta);
    if constexpr (!std::is_same_v<D, Z3Domain>)
      warp_records.push_back({impl.name, in, pre_volta, s, out});
    return out;
  }
  spec::CtaOutcome<D> run_cta(const Implementation& impl, const spec::Instr& in, const Cta& s) {
    auto out = impl.cta<D>()(d, in, s);
    if constexpr (!std::is_same_v<D, Z3Domain>) cta_records.push_back({impl.name, in, s, out});
    return out;
  }

  const Implementation& subject_;
  const Implementation& reference_;
};

/// A property another one builds on: its claims, instantiated on the same states, join the
/// dependent's hypotheses. A dependent counts as proved only when its lemmas are proved too.
struct Lemma {
  std::string name;
  std::function<void(Env<Z3Domain>&)> symbolic;
};

/// A named property: a one-line statement and its body read both ways.
struct Property {
  std::string name;  ///< stable name, e.g. "vote.any_is_ballot_nonzero"
  std::string doc;   ///< one line saying what is proved
  unsigned uses = kUsesWarp;
  std::shared_ptr<const Implementation> subject;  ///< implementation the body evaluates
  std::function<void(Env<Z3Domain>&)> symbolic;
  std::function<void(Env<model::Concrete>&)> concrete;
  std::vector<Lemma> lemmas{};  ///< properties whose claims this one may assume
  /// Prove each claim in its own query from the start, without first trying each group of
  /// claims as one query: for laws whose claims share little, where the group query only
  /// spends its budget and fails.
  bool claims_alone = false;
  /// Try the claims of a group one after another on one incremental solver before giving each a
  /// solver of its own: for many claims over the same large terms (a block's threads with
  /// register operands), where bit-blasting those terms again per claim dominates. Elsewhere the
  /// incremental core is slower, so it is asked for.
  bool claims_incremental = false;
};

/// Builds a property from a generic body `body(env)`, evaluated with `subject`.
template <class F>
Property make_property(std::string name, std::string doc, unsigned uses, F body,
                       std::shared_ptr<const Implementation> subject) {
  return Property{std::move(name),
                  std::move(doc),
                  uses,
                  std::move(subject),
                  [body](Env<Z3Domain>& e) { body(e); },
                  [body](Env<model::Concrete>& e) { body(e); }};
}

/// `p` as a lemma other properties can assume.
inline Lemma as_lemma(const Property& p) {
  return Lemma{p.name, p.symbolic};
}

}  // namespace warpspec::checker
