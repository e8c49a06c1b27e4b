// The symbolic domain against the concrete one: every operation the semantics use, on words
// chosen to reach the corners, must agree once Z3 evaluates it.
#include <gtest/gtest.h>

#include <bit>
#include <random>

#include "checker/solver.hpp"
#include "checker/z3_domain.hpp"
#include "model/concrete.hpp"

namespace warpspec::checker {
namespace {

uint64_t value_of(const z3::expr& e) {
  auto s = e.simplify();
  if (s.is_bool()) return s.is_true() ? 1 : 0;
  return s.get_numeral_uint64();
}

// The semantics build every fold as `acc = acc | x`. Under the prover's ReleaseMovedOverTerms the
// term `acc` held before must be released when the new one is moved in, or each property's
// context keeps every intermediate term until it is deleted (and deleting it then takes seconds).
// Z3 hands a released term's number to the next new term, so that number shows whether the old
// term went.
TEST(Z3Domain, ATermMovedOverIsReleasedWhereTheProverAsks) {
  const ReleaseMovedOverTerms release;
  z3::context ctx;
  const auto x = ctx.bv_const("x", 32), y = ctx.bv_const("y", 32);
  z3::expr held = x + y;
  const unsigned id = Z3_get_ast_id(ctx, held);
  z3::expr other = x - y;
  held = std::move(other);
  const auto fresh = ctx.bv_const("z", 32);
  EXPECT_EQ(Z3_get_ast_id(ctx, fresh), id) << "x + y is still held after x - y was moved over it";
}

TEST(Z3Domain, FoldedAndSymbolicOperationsAgreeWithTheConcreteDomain) {
  z3::context ctx;
  Z3Domain d(ctx);
  model::Concrete k;
  std::mt19937 rng(7);
  const uint32_t corners[] = {0,           1,           0x80000000u, 0x7fffffffu,
                              0xffffffffu, 0x7f800001u, 0x55555555u};
  for (int n = 0; n < 200; ++n) {
    const uint32_t a = n < 7 ? corners[n] : static_cast<uint32_t>(rng());
    const uint32_t b = static_cast<uint32_t>(rng());
    // Through a variable pinned by substitution, so the symbolic path (not only the folds) runs.
    auto x = ctx.bv_const("x", 32);
    auto pin = [&](const z3::expr& e) {
      z3::expr_vector from(ctx), to(ctx);
      from.push_back(x);
      to.push_back(d.w32(a));
      return value_of(z3::expr(e).substitute(from, to));
    };
    EXPECT_EQ(pin(d.popcount(x)), k.popcount(a)) << std::hex << a;
    EXPECT_EQ(value_of(d.popcount(d.w32(a))), k.popcount(a));
    for (unsigned i : {0u, 5u, 31u}) {
      EXPECT_EQ(pin(d.bit(x, i)), k.bit(a, i));
      EXPECT_EQ(pin(d.bit((x & d.w32(b)) | ~x, i)), k.bit((a & b) | ~a, i));
    }
    EXPECT_EQ(pin(d.ult(x, d.w32(b))), k.ult(a, b));
    EXPECT_EQ(pin(d.slt(x, d.w32(b))), k.slt(a, b));
    auto c = ctx.bool_const("c");
    auto acc = d.w32(b);
    EXPECT_EQ(value_of(d.ite(d.lit(true), d.w32(a) + acc, acc)), a + b);
    EXPECT_EQ(value_of(d.ite(d.lit(false), d.w32(a) + acc, acc)), b);
    // The fold ite(c, acc + v, acc) == acc + ite(c, v, 0) for both values of c.
    auto folded = d.ite(c, acc + x, acc);
    for (bool cv : {false, true}) {
      z3::expr_vector from(ctx), to(ctx);
      from.push_back(c);
      from.push_back(x);
      to.push_back(ctx.bool_val(cv));
      to.push_back(d.w32(a));
      EXPECT_EQ(value_of(folded.substitute(from, to)), cv ? a + b : b);
    }
    EXPECT_EQ(value_of(d.lo32(d.w64((uint64_t{b} << 32) | a))), a);
    // The high word, folded and through a variable (the second word a 64-bit shuffle moves).
    const uint64_t ab = (uint64_t{b} << 32) | a;
    EXPECT_EQ(value_of(d.shr32(d.w64(ab))), k.shr32(ab));
    auto y = ctx.bv_const("y", 64);
    z3::expr_vector from(ctx), to(ctx);
    from.push_back(y);
    to.push_back(d.w64(ab));
    EXPECT_EQ(value_of(d.lo32(d.shr32(y)).substitute(from, to)), b);
  }
}

}  // namespace
}  // namespace warpspec::checker
