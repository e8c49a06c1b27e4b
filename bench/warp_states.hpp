#pragma once
// Warp and block states for the benchmarks, drawn from a fixed seed so every run measures the
// same work. The mix imitates programs rather than corner cases (docs/benchmarks.md lists it):
// half the warps fully converged, a fifth converged after some lanes exited, a fifth diverged
// into 2-4 groups that each pass their own mask, and a tenth arbitrary (mostly undefined); the
// shuffles' b and c as programs pass them.
#include <bit>
#include <cstdint>
#include <random>
#include <vector>

#include "model/eval.hpp"

namespace warpspec::bench {

/// How the operands of a warp are spread.
enum class Values : uint8_t {
  Few,       ///< drawn from a pool of four values (for .b64, pairs equal in the low half)
  Distinct,  ///< each lane its own random value
};

/// `n` warp states with operands of type `t`, from seed `seed`.
inline std::vector<model::Warp> warps(spec::OperandType t, Values values, std::size_t n,
                                      uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto coin = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };
  std::vector<model::Warp> out;
  for (std::size_t k = 0; k < n; ++k) {
    model::Warp w = model::make_warp();
    const double layout = std::uniform_real_distribution<double>(0, 1)(rng);
    if (layout < 0.5) {
      // converged, full warp: make_warp already is
    } else if (layout < 0.7) {
      const unsigned live = 1 + static_cast<unsigned>(rng() % 32);  // lanes >= live exited
      for (unsigned i = live; i < 32; ++i) model::set_status(w, i, model::LaneStatus::Exited);
      const uint32_t m = live == 32 ? 0xffffffffu : (uint32_t{1} << live) - 1;
      w.mask.fill(coin(0.5) ? 0xffffffffu : m);
    } else if (layout < 0.9) {
      const unsigned groups = 2 + static_cast<unsigned>(rng() % 3);
      std::array<uint32_t, 4> group_mask{};
      std::array<unsigned, 32> group{};
      for (unsigned i = 0; i < 32; ++i) {
        group[i] = static_cast<unsigned>(rng() % groups);
        group_mask[group[i]] |= uint32_t{1} << i;
      }
      for (unsigned i = 0; i < 32; ++i) w.mask[i] = group_mask[group[i]];
    } else {
      for (unsigned i = 0; i < 32; ++i) {
        const auto s = rng() % 8;
        model::set_status(w, i,
                          s < 6   ? model::LaneStatus::Executes
                          : s < 7 ? model::LaneStatus::Exited
                                  : model::LaneStatus::Inactive);
        w.mask[i] = coin(0.5) ? 0xffffffffu : static_cast<uint32_t>(rng());
      }
    }
    std::array<uint64_t, 4> pool{};
    for (auto& v : pool) v = rng();
    pool[1] = (pool[0] & 0xffffffffull) | (pool[1] << 32);  // same low half as pool[0]
    for (unsigned i = 0; i < 32; ++i) {
      uint64_t v = values == Values::Few ? pool[rng() % 4] : rng();
      if (t == spec::OperandType::Pred) v = rng() & 1;
      w.a[i] = v;
    }
    out.push_back(w);
  }
  return out;
}

/// Gives every warp of `ws` the b and c of a shuffle in mode `mode` as programs pass them: a
/// width of 32 lanes in most warps, else 16, 8 or 4 (c as the CUDA intrinsics set it: segment
/// mask 32 - width, clamp 31, or 0 for .up); for .up, .down and .bfly one offset for the warp,
/// a step of a reduction or a scan (1, 2, 4, 8 or 16, below the width); for .idx one source lane
/// for the warp (a broadcast) in half the warps, and in the others a lane of its segment for
/// each lane (a gather).
inline void add_shfl_operands(std::vector<model::Warp>& ws, spec::Mode mode, uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (auto& w : ws) {
    const auto pick = rng() % 8;
    const uint32_t width = pick < 5 ? 32 : pick == 5 ? 16 : pick == 6 ? 8 : 4;
    w.c.fill((32 - width) << 8 | (mode == spec::Mode::Up ? 0u : 0x1fu));
    if (mode != spec::Mode::Idx) {
      w.b.fill(uint32_t{1} << rng() % std::bit_width(width - 1));
    } else if (rng() % 2 == 0) {
      w.b.fill(static_cast<uint32_t>(rng() % width));
    } else {
      for (auto& b : w.b) b = static_cast<uint32_t>(rng() % width);
    }
  }
}

/// `n` blocks of 256 threads: mostly all arriving, some with an exited tail, a few with a
/// thread that never arrives; random predicates.
inline std::vector<model::Cta> blocks(std::size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<model::Cta> out;
  for (std::size_t k = 0; k < n; ++k) {
    model::Cta c = model::make_cta(256);
    for (auto& p : c.pred) p = static_cast<uint32_t>(rng() & 1);
    const auto kind = rng() % 10;
    if (kind >= 7) {
      for (std::size_t t = 128 + rng() % 128; t < 256; ++t) c.exited[t] = true;
    }
    if (kind == 9) c.arrive[rng() % 256] = false;
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace warpspec::bench
