#pragma once
// What the warp and block generators share: the seeded random helpers and the predicate values.
// Internal to capture/generate*.cpp.
#include <bit>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "capture/variants.hpp"
#include "spec/warp_state.hpp"

namespace warpspec::capture::detail {

/// Small helpers over one random engine; the engine is seeded per state set, so a file can be
/// regenerated from its header's seed.
struct Rng {
  std::mt19937_64 eng;
  uint64_t u64() { return eng(); }
  uint32_t u32() { return static_cast<uint32_t>(eng() >> 32); }
  unsigned below(unsigned n) { return static_cast<unsigned>(eng() % n); }
  bool chance(unsigned percent) { return below(100) < percent; }
  template <class T, std::size_t N>
  T pick(const T (&arr)[N]) {
    return arr[below(N)];
  }
  /// A random subset of `from` where each bit is kept with the given probability.
  uint32_t subset(uint32_t from, unsigned percent) {
    uint32_t out = 0;
    for (unsigned i = 0; i < spec::kWarpSize; ++i)
      if (((from >> i) & 1u) && chance(percent)) out |= 1u << i;
    return out;
  }
  /// One set bit of `from` (which must be non-zero).
  unsigned lane_in(uint32_t from) {
    unsigned k = below(static_cast<unsigned>(std::popcount(from)));
    for (unsigned i = 0; i < spec::kWarpSize; ++i)
      if ((from >> i) & 1u) {
        if (k == 0) return i;
        --k;
      }
    return 0;
  }
};

// Predicates: mostly 0 and 1, plus non-zero values that are false in their low half or only
// true in one bit, which must still count as true.
inline constexpr uint64_t kPredTrue[] = {1ull,          1ull,          1ull,           2ull,
                                         0x80000000ull, 0xffffffffull, 0x100000000ull, ~0ull};

/// A block's predicates in one of several styles (all false, all true, one true, one false,
/// mixed), true ones drawn from kPredTrue's low words; returns the style's name.
inline std::string fill_block_preds(Rng& g, std::vector<uint32_t>& pred) {
  const unsigned n = static_cast<unsigned>(pred.size());
  auto truthy = [&] { return static_cast<uint32_t>(g.pick(kPredTrue)) | (g.chance(90) ? 0u : 1u); };
  switch (g.below(6)) {
    case 0:
      return "all-false";
    case 1:
      for (auto& p : pred) p = truthy();
      return "all-true";
    case 2:
      pred[g.below(n)] = truthy();
      return "one-true";
    case 3:
      for (auto& p : pred) p = truthy();
      pred[g.below(n)] = 0;
      return "one-false";
    default:
      for (auto& p : pred) p = g.chance(50) ? truthy() : 0;
      return "mixed";
  }
}

/// Writes how the variant runs its instruction into a record (warp or block).
template <class R>
void set_invocation(R& r, const Variant& v) {
  r.form = v.form;
  r.via = v.via;
  if (v.via == Via::Ptx)
    r.instr = v.text;
  else
    r.call = v.text;
  r.ctype = v.ctype;
  r.negate = v.negate;
}

}  // namespace warpspec::capture::detail
