#include "mutants.hpp"

#include "spec/semantics.hpp"
#include "vectors/mutant_semantics.hpp"

namespace warpspec::checker::mutants {

namespace {

// One catalogued mutant on a single instruction (its carried state at its first value).
struct CatalogWarp {
  vectors::MutantId m;
  template <class D>
  spec::Outcome<D> operator()(const D& d, const spec::Instr& in, const spec::WarpState<D>& s,
                              bool pre_volta) const {
    auto out = spec::evaluate_warp(d, in, s, pre_volta);
    auto carry = vectors::initial_carry(d, m, in.form);
    const auto a = vectors::warp_mutant(d, m, in, s, out, pre_volta, carry);
    out.d = a.d;
    out.d_hi = a.d_hi;
    out.p = a.p;
    return out;
  }
};

// The same for the block barriers.
struct CatalogCta {
  vectors::MutantId m;
  template <class D>
  spec::CtaOutcome<D> operator()(const D& d, const spec::Instr& in,
                                 const spec::CtaState<D>& s) const {
    auto out = spec::eval_cta(d, in, s);
    auto carry = vectors::initial_carry(d, m, in.form);
    out.d = vectors::cta_mutant(d, m, in, s, out, carry).d;
    return out;
  }
};

}  // namespace

std::shared_ptr<const Implementation> implementation(vectors::MutantId m) {
  return generic_implementation(std::string(vectors::mutant_info(m).key), CatalogWarp{m},
                                CatalogCta{m});
}

}  // namespace warpspec::checker::mutants
