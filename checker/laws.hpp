#pragma once
// Helpers the property bodies share, written over the value domain like the semantics, and the
// per-family law builders the library assembles.
#include <memory>
#include <vector>

#include "checker/property.hpp"

namespace warpspec::checker::laws {

using spec::FormId;
using Subject = std::shared_ptr<const Implementation>;

/// The instruction `form`, with `!a` when `negate`.
inline spec::Instr instr(FormId form, bool negate = false) {
  spec::Instr in{form};
  in.negate = negate;
  if (!spec::is_warp_form(form)) in.imm_bar = 0;  // __syncthreads' spelling: barrier 0, no count
  return in;
}

/// `a` implies `b`.
template <class D>
typename D::B implies(const D& d, const typename D::B& a, const typename D::B& b) {
  (void)d;
  return !a || b;
}

/// A word as a predicate: non-zero is true.
template <class D>
typename D::B truthy(const D& d, const typename D::W32& x) {
  return x != d.w32(0);
}

/// 1 when `b`, else 0.
template <class D>
typename D::W32 as_word(const D& d, const typename D::B& b) {
  return d.ite(b, d.w32(1), d.w32(0));
}

/// The lanes of `s` that have exited.
template <class D>
typename D::W32 exited_lanes(const D& d, const spec::WarpState<D>& s) {
  auto acc = d.w32(0);
  for (unsigned j = 0; j < spec::kWarpSize; ++j) acc = acc | spec::bit_if(d, s.exited[j], j);
  return acc;
}

/// The lanes of `s` that execute the instruction (and have not exited).
template <class D>
typename D::W32 executing_lanes(const D& d, const spec::WarpState<D>& s) {
  auto acc = d.w32(0);
  for (unsigned j = 0; j < spec::kWarpSize; ++j)
    acc = acc | spec::bit_if(d, s.exec[j] && !s.exited[j], j);
  return acc;
}

/// Lane `i`'s live set: the non-exited lanes of its membermask.
template <class D>
typename D::W32 live(const D& d, const spec::WarpState<D>& s, unsigned i) {
  return s.mask[i] & ~exited_lanes(d, s);
}

/// Lane `j`'s predicate (the operand is non-zero).
template <class D>
typename D::B pred(const D& d, const spec::WarpState<D>& s, unsigned j) {
  return s.a[j] != d.w64(0);
}

/// `s` with each operand replaced by `f(j)`.
template <class D, class F>
spec::WarpState<D> with_values(const spec::WarpState<D>& s, F&& f) {
  auto t = s;
  for (unsigned j = 0; j < spec::kWarpSize; ++j) t.a[j] = f(j);
  return t;
}

/// `s` with each lane's operand replaced by 1 when its predicate holds and 0 otherwise.
template <class D>
spec::WarpState<D> predicates_as_bits(const D& d, const spec::WarpState<D>& s) {
  return with_values(s, [&](unsigned j) { return d.ite(pred(d, s, j), d.w64(1), d.w64(0)); });
}

/// The lanes a UB clause fires on in `o` (0 when the form does not have that clause).
template <class D>
typename D::W32 ub_of(const D& d, const spec::Outcome<D>& o, spec::ClauseId c) {
  for (const auto& t : o.ub)
    if (t.clause == c) return t.lanes;
  return d.w32(0);
}

/// True when no UB clause fires anywhere.
template <class D>
typename D::B no_ub(const D& d, const spec::Outcome<D>& o) {
  return spec::is_zero(d, o.ub_lanes(d));
}

/// Lane i executes and names itself, so its own value takes part in its instruction. The laws
/// that relate one lane's results to each other need no more than this (they hold on lanes the
/// spec leaves undefined, too), and it keeps the UB circuits out of their queries.
template <class D>
typename D::B takes_part(const D& d, const spec::WarpState<D>& s, unsigned i) {
  return s.exec[i] && !s.exited[i] && d.bit(s.mask[i], i);
}

/// Both lanes' results are pinned down by the spec.
template <class D>
typename D::B both_defined(const D& d, const spec::Outcome<D>& o, unsigned i, unsigned j) {
  return o.defined(d, i) && o.defined(d, j);
}

/// Every form of a family, in catalog order.
std::vector<FormId> forms_of(spec::Family f);
/// Every warp form (all families but the block barriers), in catalog order.
std::vector<FormId> warp_forms();

void add_vote_laws(std::vector<Property>& out, const Subject& subject);
void add_redux_laws(std::vector<Property>& out, const Subject& subject);
void add_match_laws(std::vector<Property>& out, const Subject& subject);
void add_ub_laws(std::vector<Property>& out, const Subject& subject);
void add_cta_laws(std::vector<Property>& out, const Subject& subject);
void add_activemask_laws(std::vector<Property>& out, const Subject& subject);
void add_elect_laws(std::vector<Property>& out, const Subject& subject);
void add_shfl_laws(std::vector<Property>& out, const Subject& subject);

}  // namespace warpspec::checker::laws

namespace warpspec::checker::laws {

/// Claims, lane by lane, that two defined lanes passing equal membermasks get equal results.
/// Lane j's result is compared after rewriting its mask to lane i's (equal under the
/// hypothesis), so results that are one function of the mask coincide as terms.
template <class E>
void claim_uniform(E& e, const std::string& label,
                   const spec::Outcome<std::decay_t<decltype(e.d)>>& o, const typename E::Warp& s) {
  const auto& d = e.d;
  e.claim_lanes(label, [&](unsigned i) {
    auto ok = d.lit(true);
    for (unsigned j = i + 1; j < spec::kWarpSize; ++j)
      ok = ok && implies(d, both_defined(d, o, i, j) && s.mask[i] == s.mask[j],
                         o.d[i] == e.rewrite(o.d[j], s.mask[j], s.mask[i]));
    return ok;
  });
}

}  // namespace warpspec::checker::laws
