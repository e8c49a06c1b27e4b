#pragma once
// The value domain: the small vocabulary every semantics function is written in. The same
// function text is read concretely (model/concrete.hpp), symbolically (checker/) and, for the
// fast implementation, both ways. Semantics branch only through `d.ite`, never on values.
#include <concepts>
#include <cstdint>

namespace warpspec::spec {

/// A value domain: booleans `B`, 32- and 64-bit words `W32`/`W64`, literals, `ite`, comparisons
/// and the word helpers below; `&`, `|`, `^`, `~`, `+`, `==`, `!=`, `&&`, `||`, `!` come from the
/// types themselves. `lo32(y)` is y's low word; `shr32(y)` is y shifted right by 32 bits (its high
/// word, moved into the low half: what CUDA's 64-bit shuffle overloads move second).
template <class D>
concept Domain = requires(const D& d, typename D::B b, typename D::W32 x, typename D::W64 y,
                          uint32_t k, uint64_t k64, bool c, unsigned i) {
  { d.lit(c) } -> std::same_as<typename D::B>;
  { d.w32(k) } -> std::same_as<typename D::W32>;
  { d.w64(k64) } -> std::same_as<typename D::W64>;
  { d.ite(b, b, b) } -> std::same_as<typename D::B>;
  { d.ite(b, x, x) } -> std::same_as<typename D::W32>;
  { d.ite(b, y, y) } -> std::same_as<typename D::W64>;
  { d.ult(x, x) } -> std::same_as<typename D::B>;
  { d.slt(x, x) } -> std::same_as<typename D::B>;
  { d.lo32(y) } -> std::same_as<typename D::W32>;
  { d.shr32(y) } -> std::same_as<typename D::W64>;
  { d.bit(x, i) } -> std::same_as<typename D::B>;
  { d.popcount(x) } -> std::same_as<typename D::W32>;
};

// ---- helpers every family shares, written once over the domain ----

/// The word with only bit `lane` set.
template <Domain D>
typename D::W32 lane_bit(const D& d, unsigned lane) {
  return d.w32(uint32_t{1} << lane);
}

/// `bit(lane)` when `flag` holds, else 0.
template <Domain D>
typename D::W32 bit_if(const D& d, const typename D::B& flag, unsigned lane) {
  return d.ite(flag, lane_bit(d, lane), d.w32(0));
}

/// True when `x` has no bit set.
template <Domain D>
typename D::B is_zero(const D& d, const typename D::W32& x) {
  return x == d.w32(0);
}

/// IEEE binary32 NaN test on a bit pattern: exponent all ones and a nonzero fraction.
template <Domain D>
typename D::B f32_is_nan(const D& d, const typename D::W32& x) {
  return d.ult(d.w32(0x7f800000u), x & d.w32(0x7fffffffu));
}

/// IEEE binary64 NaN test on a bit pattern: exponent all ones and a nonzero fraction.
template <Domain D>
typename D::B f64_is_nan(const D& d, const typename D::W64& x) {
  const auto exp = d.w64(0x7ff0000000000000ull), frac = d.w64(0x000fffffffffffffull);
  return (x & exp) == exp && (x & frac) != d.w64(0);
}

/// Clears the sign bit of a binary32 bit pattern (absolute value, NaNs included).
template <Domain D>
typename D::W32 f32_abs(const D& d, const typename D::W32& x) {
  return x & d.w32(0x7fffffffu);
}

/// Maps a non-NaN binary32 bit pattern to a word whose unsigned order is the numeric order of
/// the floats, with -0.0 ordered just below +0.0 (the order `redux.sync` uses for `.f32`).
template <Domain D>
typename D::W32 f32_order_key(const D& d, const typename D::W32& x) {
  return d.ite(d.bit(x, 31), ~x, x | d.w32(0x80000000u));
}

/// The bit pattern whose order key is `k` (the inverse of `f32_order_key`).
template <Domain D>
typename D::W32 f32_from_order_key(const D& d, const typename D::W32& k) {
  return d.ite(d.bit(k, 31), k & d.w32(0x7fffffffu), ~k);
}

/// The canonical binary32 NaN PTX produces (all exponent and fraction bits set, sign clear).
inline constexpr uint32_t kCanonicalNanF32 = 0x7fffffffu;

}  // namespace warpspec::spec
