#pragma once
// Intrinsic-level vectors: every CUDA intrinsic overload of the catalog (__match_any_sync on a
// float, __ballot_sync, __reduce_min_sync on an int, __syncthreads_count, ...) as vectors of its
// own, spelled as the call, with operands chosen for the overload's C type (NaN payloads, signed
// zeros, subnormals and infinities for float and double; sign boundaries for the integers;
// predicates such as 2 and 0x100 for the votes); and a header-only C++ driver that runs them
// against any function with the intrinsic's signature, so that a CUDA-on-CPU or HIP-style
// implementation needs no mapping from PTX forms.
#include <string>
#include <vector>

#include "vectors/emit_cuda.hpp"
#include "vectors/generate.hpp"

namespace warpspec::vectors {

/// The call of an overload as vector files spell it, e.g. "__match_any_sync(m, (float)a)".
std::string intrinsic_call(const spec::IntrinsicInfo& in);

/// The driver's name for an overload, e.g. "match_any_float", "ballot", "reduce_min_int".
std::string intrinsic_key(const spec::IntrinsicInfo& in);

/// A suite for every overload available on the target: the vectors of `base` (a default suite)
/// of the overload's form, spelled as the call where the call can express them (no `!`, no
/// sink `_`; an immediate membermask becomes every lane's mask), then states whose operands are
/// the corners of the overload's C type, in three layouts (a full warp; a full membermask over
/// exited lanes; two groups of 16), and for the block intrinsics blocks of 33 and 64 threads.
std::vector<Vector> intrinsic_suite(const Suite& base);

/// The header-only C++17 driver (no test framework): the vectors as data, and a Runner with one
/// std::function per overload that runs each round on one thread per lane and prints the results
/// for `warpspec check`. Vectors of overloads left unset, and UB vectors, are reported skipped.
std::string emit_cpp_driver(const std::vector<Vector>& vectors, const VectorsHeader& header,
                            EmitStats& stats);

}  // namespace warpspec::vectors
