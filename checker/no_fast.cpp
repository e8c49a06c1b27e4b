// Built when the fast implementation is not part of the build: there is nothing to compare.
#include "checker/implementation.hpp"
#include "checker/library.hpp"

namespace warpspec::checker {

std::shared_ptr<const Implementation> fast_implementation() {
  return nullptr;
}

std::vector<Property> fast_internal_library() {
  return {};
}

}  // namespace warpspec::checker
