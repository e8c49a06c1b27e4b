#pragma once
// Reads a PTX module in the subset that `nvcc -ptx` emits for small kernels and returns one of
// its `.entry` kernels as a Program. Anything outside the subset is rejected with its line and
// column and the name of what is not supported; nothing is skipped silently.
#include <string>
#include <string_view>
#include <variant>

#include "programs/program.hpp"

namespace warpspec::programs {

/// Why a module was rejected, and where (1-based line and column).
struct ReadError {
  SourceLoc loc;
  std::string message;
  bool no_entry = false;  ///< the module lacks the .entry asked for (or has none)
};

/// Reads `text` and returns the `.entry` named `entry`, or the only `.entry` when `entry` is
/// empty (an error when there are several and none is named).
std::variant<Program, ReadError> read_ptx(std::string_view text, std::string_view entry = {});

}  // namespace warpspec::programs
