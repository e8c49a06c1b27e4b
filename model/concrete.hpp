#pragma once
// The concrete value domain: the executable reference model reads the semantics with machine
// words and booleans.
#include <bit>
#include <cstdint>

#include "spec/domain.hpp"

namespace warpspec::model {

/// Concrete domain: B = bool, W32 = uint32_t, W64 = uint64_t.
struct Concrete {
  using B = bool;
  using W32 = uint32_t;
  using W64 = uint64_t;
  B lit(bool b) const { return b; }
  W32 w32(uint32_t k) const { return k; }
  W64 w64(uint64_t k) const { return k; }
  template <class T>
  T ite(B c, T x, T y) const {
    return c ? x : y;
  }
  B ult(W32 x, W32 y) const { return x < y; }
  B slt(W32 x, W32 y) const { return static_cast<int32_t>(x) < static_cast<int32_t>(y); }
  W32 lo32(W64 y) const { return static_cast<W32>(y); }
  W64 shr32(W64 y) const { return y >> 32; }
  B bit(W32 x, unsigned i) const { return ((x >> i) & 1u) != 0; }
  W32 popcount(W32 x) const { return static_cast<W32>(std::popcount(x)); }
};
static_assert(spec::Domain<Concrete>);

}  // namespace warpspec::model
