#pragma once
// The control-flow graph of a kernel: where the lanes of a warp that a branch splits meet again,
// for the lockstep (sm_6x) reading (pre-Volta warps reconverge at the branch's immediate
// post-dominator: the first instruction every path from the branch to the kernel's end passes),
// and which registers a thread may still read, so that states differing only in values no
// later step reads are one state to the explorer, and which `activemask` instructions a thread
// may still come to, so that threads that can no longer meet are not grouped in every order.
#include <cstdint>
#include <functional>
#include <vector>

#include "programs/program.hpp"

namespace warpspec::programs {

/// Per instruction: for a branch, the index of the instruction where the lanes it splits meet
/// again (Program::code.size() when they meet only at the end); for anything else, the same
/// value is returned but unused.
std::vector<uint32_t> reconvergence_points(const Program& p);

/// Per instruction, the registers that some path from it reads before writing them again (live
/// before it), ascending; one entry more, after the last instruction, for a thread that has
/// exited. The registers in `always` are live everywhere. A write under a guard, which may not
/// happen, does not end a register's life.
std::vector<std::vector<uint32_t>> live_registers(const Program& p,
                                                  const std::vector<uint32_t>& always);

/// Per instruction, the instructions for which `which` holds (their indices, ascending) that
/// some path from it comes to, itself included.
std::vector<std::vector<uint32_t>> instructions_ahead(
    const Program& p, const std::function<bool(const Instruction&)>& which);

/// The first instructions for which `which` holds that the paths from instruction `start` come
/// to (their indices, ascending; a path that ends without one gives the number of instructions).
std::vector<uint32_t> first_reached(const Program& p, uint32_t start,
                                    const std::function<bool(const Instruction&)>& which);

}  // namespace warpspec::programs
