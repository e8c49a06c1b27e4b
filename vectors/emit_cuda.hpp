#pragma once
// Turning a vector file into one self-checking CUDA program whose output is a results file.
#include <string>
#include <vector>

#include "vectors/format.hpp"
#include "vectors/vector.hpp"

namespace warpspec::vectors {

/// What the emitted program covers.
struct EmitStats {
  std::size_t vectors = 0;
  std::size_t skipped_ub = 0;  ///< UB vectors: listed as skipped, never run (they may hang)
  std::size_t kernels = 0;     ///< one per distinct instruction
};

/// The `.cu` source: one kernel per instruction (inline PTX for the exact form; the intrinsics
/// for the block barriers), the states as data, and a main that prints results in the format
/// `warpspec check` reads.
std::string emit_cuda(const std::vector<Vector>& vectors, const VectorsHeader& header,
                      EmitStats& stats);

}  // namespace warpspec::vectors
