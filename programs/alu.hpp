#pragma once
// The thread-local arithmetic of the PTX subset, written once over an integer domain: the machine
// reads it with 64-bit integers (ConcreteInt below), the input queries (checker/program_inputs.hpp)
// with Z3 bit-vectors, so that a symbolic input flows through the very text that runs. Every value
// is a 64-bit word holding a w-bit quantity in its low bits; the text branches only through
// `d.ite`. What is undefined (a quotient by zero) is the caller's to flag: these functions only
// say what the defined bits are.
#include <array>
#include <concepts>
#include <cstdint>

#include "programs/program.hpp"

namespace warpspec::programs::alu {

/// An integer domain: 64-bit words `X` with `+ - * & | ^ ~` and booleans `P` with `&& || !`;
/// shifts by 64 or more give 0 (`ashr`: the sign), and the divisions are total (the text never
/// relies on their value for a zero divisor, nor on sdiv's for INT64_MIN / -1).
template <class D>
concept IntDomain = requires(const D& d, typename D::X x, typename D::P b, uint64_t k) {
  { d.k(k) } -> std::same_as<typename D::X>;
  { d.ite(b, x, x) } -> std::same_as<typename D::X>;
  { d.eq(x, x) } -> std::same_as<typename D::P>;
  { d.ult(x, x) } -> std::same_as<typename D::P>;
  { d.slt(x, x) } -> std::same_as<typename D::P>;
  { d.shl(x, x) } -> std::same_as<typename D::X>;
  { d.lshr(x, x) } -> std::same_as<typename D::X>;
  { d.ashr(x, x) } -> std::same_as<typename D::X>;
  { d.udiv(x, x) } -> std::same_as<typename D::X>;
  { d.urem(x, x) } -> std::same_as<typename D::X>;
  { d.sdiv(x, x) } -> std::same_as<typename D::X>;
  { d.srem(x, x) } -> std::same_as<typename D::X>;
  { d.mulhi(x, x, true) } -> std::same_as<typename D::X>;  ///< high word of the 128-bit product
};

/// The domain the machine runs: plain 64-bit integers.
struct ConcreteInt {
  using X = uint64_t;
  using P = bool;
  X k(uint64_t v) const { return v; }
  X ite(P c, X a, X b) const { return c ? a : b; }
  P eq(X a, X b) const { return a == b; }
  P ult(X a, X b) const { return a < b; }
  P slt(X a, X b) const { return static_cast<int64_t>(a) < static_cast<int64_t>(b); }
  X shl(X a, X n) const { return n >= 64 ? 0 : a << n; }
  X lshr(X a, X n) const { return n >= 64 ? 0 : a >> n; }
  X ashr(X a, X n) const {
    return static_cast<uint64_t>(static_cast<int64_t>(a) >> (n >= 64 ? 63 : n));
  }
  X udiv(X a, X b) const { return b == 0 ? ~uint64_t{0} : a / b; }
  X urem(X a, X b) const { return b == 0 ? a : a % b; }
  X sdiv(X a, X b) const {
    if (b == 0) return ~uint64_t{0};
    if (static_cast<int64_t>(b) == -1) return 0 - a;
    return static_cast<uint64_t>(static_cast<int64_t>(a) / static_cast<int64_t>(b));
  }
  X srem(X a, X b) const {
    if (b == 0) return a;
    if (static_cast<int64_t>(b) == -1) return 0;
    return static_cast<uint64_t>(static_cast<int64_t>(a) % static_cast<int64_t>(b));
  }
  X mulhi(X a, X b, bool is_signed) const {
    using S = __int128;
    using U = unsigned __int128;
    if (is_signed)
      return static_cast<uint64_t>(
          static_cast<U>(S{static_cast<int64_t>(a)} * S{static_cast<int64_t>(b)}) >> 64);
    return static_cast<uint64_t>((U{a} * U{b}) >> 64);
  }
};
static_assert(IntDomain<ConcreteInt>);

/// All ones in the low `w` bits.
constexpr uint64_t ones(unsigned w) {
  return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
}

/// `x` cut to `w` bits.
template <IntDomain D>
typename D::X trunc(const D& d, const typename D::X& x, unsigned w) {
  return w >= 64 ? x : x & d.k(ones(w));
}

/// `x`'s low `w` bits, sign-extended to 64.
template <IntDomain D>
typename D::X sext(const D& d, const typename D::X& x, unsigned w) {
  if (w >= 64) return x;
  const auto sign = d.k(uint64_t{1} << (w - 1));
  return (trunc(d, x, w) ^ sign) - sign;
}

/// `x`'s low `w` bits extended to 64 as the type says.
template <IntDomain D>
typename D::X extend(const D& d, const typename D::X& x, Type t) {
  return is_signed(t) ? sext(d, x, bits(t)) : trunc(d, x, bits(t));
}

/// The width at which source `k` of `in` is read: a shift amount and bfe/bfi's position and
/// length are 32-bit; mad's addend is as wide as its product.
inline unsigned source_bits(const Instruction& in, std::size_t k) {
  const unsigned w = bits(in.type);
  switch (in.op) {
    case Op::Shl:
    case Op::Shr:
      return k == 0 ? w : 32;
    case Op::Bfe:
      return k == 0 ? w : 32;
    case Op::Bfi:
      return k < 2 ? w : 32;
    case Op::Mad:
      return k == 2 && in.mul == MulMode::Wide ? 2 * w : w;
    case Op::Setp:
      return bits(in.src_type);
    case Op::Selp:
      return k == 2 ? 1 : w;
    case Op::Cvt:
      return bits(in.src_type);
    default:
      return w;
  }
}

/// The width of the result of an arithmetic instruction (mul and mad `.wide`: twice the type's).
inline unsigned result_bits(const Instruction& in) {
  const unsigned w = bits(in.type);
  return (in.op == Op::Mul || in.op == Op::Mad) && in.mul == MulMode::Wide ? 2 * w : w;
}

/// True when `in` divides by its second source (div, rem): a zero divisor gives no defined value.
inline bool divides(const Instruction& in) {
  return in.op == Op::Div || in.op == Op::Rem;
}

/// PTX's `setp` comparison of a and b (read at the operand type's width).
template <IntDomain D>
typename D::P compare(const D& d, const Instruction& in, const typename D::X& a,
                      const typename D::X& b) {
  const unsigned w = bits(in.src_type);
  const auto sa = sext(d, a, w), sb = sext(d, b, w);
  const bool s = is_signed(in.src_type);
  switch (in.cmp) {
    case Cmp::Eq:
      return d.eq(a, b);
    case Cmp::Ne:
      return !d.eq(a, b);
    case Cmp::Lt:
      return s ? d.slt(sa, sb) : d.ult(a, b);
    case Cmp::Le:
      return s ? !d.slt(sb, sa) : !d.ult(b, a);
    case Cmp::Gt:
      return s ? d.slt(sb, sa) : d.ult(b, a);
    case Cmp::Ge:
      return s ? !d.slt(sa, sb) : !d.ult(a, b);
    case Cmp::Lo:
      return d.ult(a, b);
    case Cmp::Ls:
      return !d.ult(b, a);
    case Cmp::Hi:
      return d.ult(b, a);
    case Cmp::Hs:
      return !d.ult(a, b);
  }
  return d.eq(a, a);
}

/// The value `in` writes, from its sources `s` (each read at `source_bits` and cut to it) for
/// every arithmetic, logic and shift operation, cvt, setp (0 or 1) and selp.
template <IntDomain D>
typename D::X value(const D& d, const Instruction& in, const std::array<typename D::X, 4>& s) {
  using X = typename D::X;
  const unsigned w = bits(in.type);
  const bool sg = is_signed(in.type);
  const X zero = d.k(0), one = d.k(1);
  const X& a = s[0];
  const X& b = s[1];
  // Sign-extended on demand: most operations never look at them.
  auto sa = [&] { return sext(d, a, w); };
  auto sb = [&] { return sext(d, b, w); };
  auto bit01 = [&](const typename D::P& c) { return d.ite(c, one, zero); };
  switch (in.op) {
    case Op::Mov:
      return a;
    case Op::Cvt:
      // Extend the source as its type says, cut to the destination type, extend that again.
      return extend(d, extend(d, a, in.src_type), in.type);
    case Op::Setp:
      return bit01(compare(d, in, a, b));
    case Op::Selp:
      return d.ite(d.eq(s[2], zero), b, a);
    case Op::Add:
      return trunc(d, a + b, w);
    case Op::Sub:
      return trunc(d, a - b, w);
    case Op::Mul:
    case Op::Mad: {
      // The product of the operands extended as their type says: its low 64 bits are the same
      // for signed and unsigned, and hold the whole product below 64 bits.
      const X x = sg ? sa() : a, y = sg ? sb() : b;
      X r = x * y;
      if (in.mul == MulMode::Hi) r = w >= 64 ? d.mulhi(x, y, sg) : d.lshr(r, d.k(w));
      if (in.op == Op::Mad) r = r + s[2];
      return trunc(d, r, result_bits(in));
    }
    case Op::Div:
      return trunc(
          d, sg ? d.ite(d.eq(sb(), d.k(~uint64_t{0})), zero - a, d.sdiv(sa(), sb())) : d.udiv(a, b),
          w);
    case Op::Rem:
      return trunc(
          d, sg ? d.ite(d.eq(sb(), d.k(~uint64_t{0})), zero, d.srem(sa(), sb())) : d.urem(a, b), w);
    case Op::Min:
      return d.ite(sg ? d.slt(sa(), sb()) : d.ult(a, b), a, b);
    case Op::Max:
      return d.ite(sg ? d.slt(sb(), sa()) : d.ult(b, a), a, b);
    case Op::Neg:
      return trunc(d, zero - a, w);
    case Op::Abs:
      return trunc(d, d.ite(d.slt(sa(), zero), zero - a, a), w);
    case Op::And:
      return a & b;
    case Op::Or:
      return a | b;
    case Op::Xor:
      return a ^ b;
    case Op::Not:
      return in.type == Type::Pred ? bit01(d.eq(a, zero)) : trunc(d, ~a, w);
    case Op::Bfe: {
      // `len` bits of a from `pos`; the bits past the field, or past a's top, read the field's
      // top bit (a's top bit where the field runs past it) for the signed types, else 0.
      const X p = b & d.k(0xff), n = s[2] & d.k(0xff), wk = d.k(w);
      const X from_a = d.ite(d.ult(p, wk), d.ite(d.ult(n, wk - p), n, wk - p), zero);
      const X low = d.shl(one, from_a) - one;
      const X top = d.ite(d.ult(p + n - one, wk), p + n - one, wk - one);
      const auto sbit = sg ? !d.eq(n, zero) && d.eq(d.lshr(a, top) & one, one) : d.eq(one, zero);
      return trunc(d, (d.lshr(a, p) & low) | d.ite(sbit, ~low, zero), w);
    }
    case Op::Bfi: {
      // b with `len` bits from `pos` replaced by a's low bits.
      const X p = s[2] & d.k(0xff), n = s[3] & d.k(0xff);
      const X field = d.shl(d.shl(one, n) - one, p);
      return trunc(d, (b & ~field) | (d.shl(a, p) & field), w);
    }
    case Op::Shl:
      return trunc(d, d.ite(d.ult(b, d.k(w)), d.shl(a, b), zero), w);
    case Op::Shr:
      return trunc(d, sg ? d.ashr(sa(), d.ite(d.ult(b, d.k(w)), b, d.k(w))) : d.lshr(a, b), w);
    default:
      return zero;
  }
}

}  // namespace warpspec::programs::alu
