#pragma once
// Bit-matrix vocabulary of the fast implementation, written once over the value domain. A warp's
// lane sets are words; a "matrix" is W words, row i being lane i's set. Everything here is
// branch-free (it branches through `d.ite` only), so the same text runs concretely and
// symbolically; the AVX-512 kernels compute the same matrices with a few vector instructions.
#include <array>
#include <cstdint>

#include "spec/domain.hpp"
#include "spec/warp_state.hpp"

namespace warpspec::fast {

using spec::Domain;

/// W words, row i describing lane i.
template <Domain D, int W>
using Rows = std::array<typename D::W32, W>;

/// Word with bit i set exactly when `flags[i]` holds.
template <Domain D, int W>
typename D::W32 pack(const D& d, const std::array<typename D::B, W>& flags) {
  auto acc = d.w32(0);
  for (unsigned i = 0; i < W; ++i) acc = acc | spec::bit_if(d, flags[i], i);
  return acc;
}

/// Word with bit i set exactly when `pred(i)` holds, for the W lanes.
template <Domain D, int W, class F>
typename D::W32 pack_where(const D& d, F&& pred) {
  auto acc = d.w32(0);
  for (unsigned i = 0; i < W; ++i) acc = acc | spec::bit_if(d, pred(i), i);
  return acc;
}

/// The bit-matrix transpose: bit j of row i becomes bit i of row j.
template <Domain D, int W>
Rows<D, W> transpose(const D& d, const Rows<D, W>& rows) {
  return spec::lanes_of<W>([&](unsigned c) {
    return pack_where<D, W>(d, [&](unsigned r) { return d.bit(rows[r], c); });
  });
}

/// Row i holds the lanes j < i with `same(i, j)`: what a conflict-detection instruction
/// returns for each element.
template <Domain D, int W, class Same>
Rows<D, W> earlier_equal(const D& d, Same&& same) {
  return spec::lanes_of<W>([&](unsigned i) {
    return pack_where<D, W>(d, [&](unsigned j) { return j < i ? same(i, j) : d.lit(false); });
  });
}

/// Equal sets from the earlier-equal matrix L of an equivalence: row i is {i} plus the earlier
/// equal lanes (L) plus the later ones (the transpose of L).
template <Domain D, int W>
Rows<D, W> equal_sets(const D& d, const Rows<D, W>& earlier) {
  const auto later = transpose<D, W>(d, earlier);
  return spec::lanes_of<W>(
      [&](unsigned i) { return earlier[i] | later[i] | spec::lane_bit(d, i); });
}

/// Row i: lanes j whose key equals lane i's (i included), computed as `equal_sets` of
/// `earlier_equal`.
template <Domain D, int W, class Same>
Rows<D, W> equal_sets_of(const D& d, Same&& same) {
  return equal_sets<D, W>(d, earlier_equal<D, W>(d, same));
}

}  // namespace warpspec::fast
