#pragma once
// The symbolic value domain: the semantics templates read with z3::expr, so every proof speaks
// about the very text the concrete model runs. Only checker/ includes z3++.h.
#include <z3++.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "spec/domain.hpp"

namespace warpspec::checker {

/// Symbolic domain: booleans are Z3 Bool terms, words are 32- and 64-bit bit-vector terms.
/// A few constant folds keep the terms small where the semantics mix literals in (an immediate
/// membermask, the fixed lane bits); Z3's own simplifier does the rest.
class Z3Domain {
 public:
  using B = z3::expr;
  using W32 = z3::expr;
  using W64 = z3::expr;

  /// A domain building terms in `ctx`, which must outlive it and every term it makes.
  explicit Z3Domain(z3::context& ctx);

  /// The context every term of this domain lives in.
  z3::context& ctx() const { return *ctx_; }

  B lit(bool b) const { return ctx_->bool_val(b); }
  W32 w32(uint32_t k) const { return ctx_->bv_val(static_cast<uint64_t>(k), 32); }
  W64 w64(uint64_t k) const { return ctx_->bv_val(k, 64); }
  /// `c ? x : y` for booleans and words alike; folds a literal condition and equal branches.
  z3::expr ite(const z3::expr& c, const z3::expr& x, const z3::expr& y) const;
  B ult(const W32& x, const W32& y) const { return z3::ult(x, y); }
  B slt(const W32& x, const W32& y) const { return z3::slt(x, y); }
  /// The low 32 bits of `y`; folds literals and selections between literals.
  W32 lo32(const W64& y) const;
  /// `y` shifted right by 32 bits (its high word, zero-extended); folds literals.
  W64 shr32(const W64& y) const;
  /// Bit `i` of `x` as a boolean, pushed (a bounded way) through bitwise operators and
  /// selections; folds literals.
  B bit(const W32& x, unsigned i) const;
  /// Number of set bits: a balanced adder tree over the 32 one-bit counts.
  W32 popcount(const W32& x) const;

 private:
  struct BitCache;
  z3::context* ctx_;
  // Bits already pushed through a term: the semantics ask for the same bits of the same masks
  // many times, and each walk would otherwise rebuild the same Boolean terms. Copies share it.
  std::shared_ptr<BitCache> bits_;
};
static_assert(spec::Domain<Z3Domain>);

/// True when `e` is a bit-vector or Boolean literal; its value is then in `value`.
bool literal_value(const z3::expr& e, uint64_t& value);

}  // namespace warpspec::checker
