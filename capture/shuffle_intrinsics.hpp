#pragma once
// The CUDA shuffle intrinsics on `int`, as the harness calls them. Each takes a width besides the
// PTX operands and turns it into c; a capture record keeps both, and the model reads c. The
// catalog's intrinsic table does not list these overloads, so the capture format names them here.
#include <cstdint>
#include <string_view>

#include "spec/catalog.hpp"

namespace warpspec::capture {

/// A shuffle intrinsic on `int` and the form it lowers to.
struct ShuffleIntrinsic {
  std::string_view name;
  spec::FormId form;
};

/// The four the harness runs: `__shfl_sync` (idx), `__shfl_up_sync`, `__shfl_down_sync` and
/// `__shfl_xor_sync` (bfly).
inline constexpr ShuffleIntrinsic kShuffleIntrinsics[] = {
    {"__shfl_sync", spec::FormId::ShflIdx},
    {"__shfl_up_sync", spec::FormId::ShflUp},
    {"__shfl_down_sync", spec::FormId::ShflDown},
    {"__shfl_xor_sync", spec::FormId::ShflBfly},
};

/// True when `name` with a value argument of type `t` is one of them and lowers to `form`.
constexpr bool is_shuffle_intrinsic(std::string_view name, spec::CType t, spec::FormId form) {
  for (const auto& s : kShuffleIntrinsics)
    if (s.name == name && s.form == form && t == spec::CType::Int) return true;
  return false;
}

/// The c an intrinsic passes for `width` (1 to 32): 32 - width as the segment mask in bits 8 and
/// up, so that a segment is `width` lanes long when width is a power of two, and the clamp 31
/// (the segment's last lane), except for .up, whose clamp is 0 (the segment's first lane).
constexpr uint32_t shuffle_c_of_width(spec::FormId form, uint32_t width) {
  const uint32_t seg = (32u - width) << 8;
  return form == spec::FormId::ShflUp ? seg : seg | 0x1fu;
}

static_assert(shuffle_c_of_width(spec::FormId::ShflIdx, 32) == 0x1f);
static_assert(shuffle_c_of_width(spec::FormId::ShflDown, 8) == 0x181f);
static_assert(shuffle_c_of_width(spec::FormId::ShflUp, 16) == 0x1000);

}  // namespace warpspec::capture
