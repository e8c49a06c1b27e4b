#pragma once
// The control-flow graph of a kernel, for the lockstep (sm_6x) reading: where the lanes of a
// warp that a branch splits meet again. Pre-Volta warps reconverge at the branch's immediate
// post-dominator: the first instruction every path from the branch to the kernel's end passes.
#include <cstdint>
#include <vector>

#include "programs/program.hpp"

namespace warpspec::programs {

/// Per instruction: for a branch, the index of the instruction where the lanes it splits meet
/// again (Program::code.size() when they meet only at the end); for anything else, the same
/// value is returned but unused.
std::vector<uint32_t> reconvergence_points(const Program& p);

}  // namespace warpspec::programs
