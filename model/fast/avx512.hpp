#pragma once
// AVX-512 kernels of the fast implementation (32 lanes, concrete words). Internal to
// warpspec_fast; the tests reach the bit-matrix kernels and the group walk through the hooks
// below to check them against their domain-generic twins in words.hpp and warp_words.hpp.
#include <cstddef>
#include <cstdint>

#include "model/fast/fast.hpp"

namespace warpspec::fast::avx512 {

/// True when the CPU and the OS run these kernels (AVX-512 F/BW/VL/CD/VBMI, GFNI, BMI1/2).
bool supported();

/// Evaluates warp form `in` on `n` warps; requires `supported()`.
void evaluate(const spec::Instr& in, bool pre_volta, const model::Warp* warps, std::size_t n,
              WarpLanes* out);

/// The 32x32 bit-matrix transpose as the kernels compute it (row i is `rows[i]`).
void transpose32(const uint32_t rows[32], uint32_t out[32]);
/// Equal sets of 32 words (row i: lanes holding lane i's word), as the kernels compute them.
void equal_sets32(const uint32_t values[32], uint32_t out[32]);
/// Equal sets of 32 doublewords.
void equal_sets64(const uint64_t values[32], uint32_t out[32]);
/// The kernels' group walk over `w` (its executing lanes and membermasks): true when it ends
/// clean; `groups` gets the groups in the order visited, and the result's count.
bool walk_groups32(const model::Warp& w, uint32_t groups[32], unsigned* count);

}  // namespace warpspec::fast::avx512
