#include "programs/cfg.hpp"

#include <algorithm>

namespace warpspec::programs {
namespace {

bool ends_block(const Instruction& in) {
  return in.op == Op::Bra || in.op == Op::Ret || in.op == Op::Exit;
}

// The basic blocks: their first instructions in order, and each instruction's block.
struct Blocks {
  std::vector<uint32_t> start;
  std::vector<uint32_t> of;  // per instruction
};

Blocks blocks_of(const Program& p) {
  const auto n = static_cast<uint32_t>(p.code.size());
  std::vector<uint8_t> leader(n + 1, 0);
  leader[0] = 1;
  for (uint32_t i = 0; i < n; ++i) {
    if (p.code[i].op == Op::Bra) leader[p.code[i].target] = 1;
    if (ends_block(p.code[i])) leader[i + 1] = 1;
  }
  Blocks b;
  for (uint32_t i = 0; i < n; ++i) {
    if (leader[i]) b.start.push_back(i);
    b.of.push_back(static_cast<uint32_t>(b.start.size() - 1));
  }
  return b;
}

}  // namespace

std::vector<uint32_t> reconvergence_points(const Program& p) {
  const auto n = static_cast<uint32_t>(p.code.size());
  std::vector<uint32_t> out(n, n);
  if (n == 0) return out;
  const Blocks b = blocks_of(p);
  const auto count = static_cast<uint32_t>(b.start.size());
  const uint32_t exit = count;  // a virtual block after the end
  auto block_at = [&](uint32_t pc) { return pc >= n ? exit : b.of[pc]; };
  // Successors of each block, from its last instruction.
  std::vector<std::vector<uint32_t>> succ(count);
  for (uint32_t k = 0; k < count; ++k) {
    const uint32_t last = (k + 1 < count ? b.start[k + 1] : n) - 1;
    const auto& in = p.code[last];
    const bool guarded = in.guard.has_value();
    if (in.op == Op::Bra) succ[k].push_back(block_at(in.target));
    if (in.op == Op::Ret || in.op == Op::Exit) succ[k].push_back(exit);
    if (!ends_block(in) || guarded) succ[k].push_back(block_at(last + 1));
  }
  // Post-dominator sets as bit rows, by iteration to the greatest fixed point.
  const uint32_t words = (count + 1 + 63) / 64;
  std::vector<std::vector<uint64_t>> pdom(count + 1, std::vector<uint64_t>(words, ~uint64_t{0}));
  pdom[exit].assign(words, 0);
  pdom[exit][exit / 64] |= uint64_t{1} << (exit % 64);
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t k = count; k-- > 0;) {
      std::vector<uint64_t> next(words, ~uint64_t{0});
      for (uint32_t s : succ[k])
        for (uint32_t w = 0; w < words; ++w) next[w] &= pdom[s][w];
      next[k / 64] |= uint64_t{1} << (k % 64);
      if (next != pdom[k]) {
        pdom[k] = std::move(next);
        changed = true;
      }
    }
  }
  auto has = [&](uint32_t k, uint32_t d) { return (pdom[k][d / 64] >> (d % 64)) & 1; };
  auto size = [&](uint32_t k) {
    uint32_t c = 0;
    for (auto w : pdom[k]) c += static_cast<uint32_t>(__builtin_popcountll(w));
    return c;
  };
  // The immediate post-dominator: the strict post-dominator with the most post-dominators of
  // its own (the nearest one). A block that never reaches the end meets nothing: the end.
  for (uint32_t i = 0; i < n; ++i) {
    if (p.code[i].op != Op::Bra) continue;
    const uint32_t k = b.of[i];
    if (!has(k, exit)) continue;
    uint32_t best = exit, best_size = 0;
    for (uint32_t d = 0; d < count; ++d)
      if (d != k && has(k, d) && size(d) > best_size) {
        best = d;
        best_size = size(d);
      }
    out[i] = best == exit ? n : b.start[best];
  }
  return out;
}

}  // namespace warpspec::programs
