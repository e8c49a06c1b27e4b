#include "checker/z3_domain.hpp"

#include <bit>
#include <unordered_map>

namespace warpspec::checker {

bool literal_value(const z3::expr& e, uint64_t& value) {
  if (e.is_bool()) {
    if (e.is_true()) return value = 1, true;
    if (e.is_false()) return value = 0, true;
    return false;
  }
  return e.is_numeral() && e.is_numeral_u64(value);
}

struct Z3Domain::BitCache {
  // Keyed by AST id, which Z3 reuses once a term is freed: each entry keeps its term alive so
  // that the id keeps naming it.
  std::unordered_map<uint64_t, std::pair<z3::expr, z3::expr>> map;
};

Z3Domain::Z3Domain(z3::context& ctx) : ctx_(&ctx), bits_(std::make_shared<BitCache>()) {}

namespace {

bool is_op(const z3::expr& e, Z3_decl_kind k) {
  return e.is_app() && e.decl().decl_kind() == k;
}

// Bit `i` of `x`, pushed through the bitwise operators and `ite`s the semantics build masks from,
// so that "bit j of the ballot" is lane j's predicate rather than an extract of a 32-deep `or`.
// `budget` bounds the walk: past it the bit stays an extract. Pushing bits deep into word-level
// folds (a redux accumulator, say) would build a second, Boolean copy of that circuit, which the
// SAT solver must then reconcile with the word-level one.
z3::expr bit_of(const Z3Domain& d, const z3::expr& x, unsigned i, int& budget) {
  uint64_t k = 0;
  if (literal_value(x, k)) return d.lit(((k >> i) & 1u) != 0);
  if (--budget > 0 && x.is_app()) {
    switch (x.decl().decl_kind()) {
      case Z3_OP_BNOT:
        return !bit_of(d, x.arg(0), i, budget);
      case Z3_OP_BAND:
      case Z3_OP_BOR: {
        const bool is_and = x.decl().decl_kind() == Z3_OP_BAND;
        z3::expr acc = d.lit(is_and);
        for (unsigned a = 0; a < x.num_args(); ++a) {
          auto b = bit_of(d, x.arg(a), i, budget);
          if (b.is_true() || b.is_false()) {
            if (b.is_true() != is_and) return b;  // absorbing element
            continue;                             // neutral element
          }
          acc = (acc.is_true() || acc.is_false()) ? b : (is_and ? acc && b : acc || b);
        }
        return acc;
      }
      case Z3_OP_ITE:
        return d.ite(x.arg(0), bit_of(d, x.arg(1), i, budget), bit_of(d, x.arg(2), i, budget));
      default:
        break;
    }
  }
  return x.extract(i, i) == x.ctx().bv_val(1, 1);
}

}  // namespace

z3::expr Z3Domain::ite(const z3::expr& c, const z3::expr& x, const z3::expr& y) const {
  if (c.is_true()) return x;
  if (c.is_false()) return y;
  if (z3::eq(x, y)) return x;
  if (x.is_bool()) {
    if (x.is_true() && y.is_false()) return c;
    if (x.is_false() && y.is_true()) return !c;
    if (y.is_false()) return c && x;
    if (x.is_true()) return c || y;
  }
  // ite(c, ite(c2, t, e), e) is ite(c && c2, t, e): nested selections of one default collapse.
  if (is_op(x, Z3_OP_ITE) && z3::eq(x.arg(2), y)) return ite(c && x.arg(0), x.arg(1), y);
  // ite(c, a op v, a) is a op ite(c, v, e) for e the identity of op: a masked fold becomes a
  // plain n-ary sum (conjunction, ...) of masked terms, which Z3 flattens and orders, so that two
  // folds of one set in different orders or shapes become one term.
  if (x.is_bv() && x.is_app() && x.num_args() == 2 && z3::eq(x.arg(0), y)) {
    const unsigned n = x.get_sort().bv_size();
    switch (x.decl().decl_kind()) {
      case Z3_OP_BADD:
        return y + ite(c, x.arg(1), ctx_->bv_val(0, n));
      case Z3_OP_BOR:
        return y | ite(c, x.arg(1), ctx_->bv_val(0, n));
      case Z3_OP_BXOR:
        return y ^ ite(c, x.arg(1), ctx_->bv_val(0, n));
      case Z3_OP_BAND:
        return y & ite(c, x.arg(1), ~ctx_->bv_val(0, n));
      default:
        break;
    }
  }
  return z3::ite(c, x, y);
}

z3::expr Z3Domain::lo32(const z3::expr& y) const {
  uint64_t k = 0;
  if (literal_value(y, k)) return w32(static_cast<uint32_t>(k));
  // Selections between literals narrow branch by branch (a 0/1 operand stays a 0/1 word).
  if (is_op(y, Z3_OP_ITE)) {
    uint64_t t = 0, e = 0;
    if (literal_value(y.arg(1), t) && literal_value(y.arg(2), e))
      return ite(y.arg(0), w32(static_cast<uint32_t>(t)), w32(static_cast<uint32_t>(e)));
  }
  return y.extract(31, 0);
}

z3::expr Z3Domain::shr32(const z3::expr& y) const {
  uint64_t k = 0;
  if (literal_value(y, k)) return w64(k >> 32);
  return z3::zext(y.extract(63, 32), 32);
}

z3::expr Z3Domain::bit(const z3::expr& x, unsigned i) const {
  const uint64_t key = (static_cast<uint64_t>(Z3_get_ast_id(*ctx_, x)) << 6) | i;
  if (auto it = bits_->map.find(key); it != bits_->map.end()) return it->second.second;
  int budget = 256;
  auto b = bit_of(*this, x, i, budget);
  bits_->map.emplace(key, std::make_pair(x, b));
  return b;
}

z3::expr Z3Domain::popcount(const z3::expr& x) const {
  uint64_t k = 0;
  if (literal_value(x, k)) return w32(static_cast<uint32_t>(std::popcount(k)));
  // A balanced adder tree over the 32 one-bit counts.
  std::vector<z3::expr> level;
  for (unsigned j = 0; j < 32; ++j) level.push_back(ite(bit(x, j), w32(1), w32(0)));
  while (level.size() > 1) {
    std::vector<z3::expr> next;
    for (std::size_t j = 0; j + 1 < level.size(); j += 2) next.push_back(level[j] + level[j + 1]);
    if (level.size() % 2) next.push_back(level.back());
    level = std::move(next);
  }
  return level.front();
}

}  // namespace warpspec::checker
