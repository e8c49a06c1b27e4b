// Built when the fast implementation is not part of the build: there is nothing to compare.
#include "checker/implementation.hpp"

namespace warpspec::checker {

std::shared_ptr<const Implementation> fast_implementation() {
  return nullptr;
}

}  // namespace warpspec::checker
