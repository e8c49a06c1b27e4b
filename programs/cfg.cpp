#include "programs/cfg.hpp"

#include <algorithm>

namespace warpspec::programs {
namespace {

bool ends_block(const Instruction& in) {
  return in.op == Op::Bra || in.op == Op::Ret || in.op == Op::Exit;
}

// Calls `go` with each instruction that can follow instruction `i`; the kernel's end is
// p.code.size() (ret, exit, or running past the last instruction).
template <class F>
void for_each_successor(const Program& p, uint32_t i, F&& go) {
  const auto n = static_cast<uint32_t>(p.code.size());
  const auto& in = p.code[i];
  if (in.op == Op::Bra) go(std::min(in.target, n));
  if (in.op == Op::Ret || in.op == Op::Exit) go(n);
  if (!ends_block(in) || in.guard) go(std::min(i + 1, n));
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
    for_each_successor(p, last, [&](uint32_t s) { succ[k].push_back(block_at(s)); });
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

namespace {

// Registers an instruction reads, and those it surely writes (none under a guard).
void uses_and_writes(const Instruction& in, std::vector<uint32_t>& uses,
                     std::vector<uint32_t>& writes) {
  auto use = [&](const Operand& o) {
    if (o.kind == Operand::Kind::Reg) uses.push_back(o.reg);
  };
  if (in.guard) use(*in.guard);
  for (const auto& o : in.src) use(o);
  use(in.addr);
  if (in.collective) {
    const auto& c = *in.collective;
    for (const auto& r : {c.a, c.mask, c.b, c.c, c.bar, c.count})
      if (r) uses.push_back(*r);
  }
  if (in.guard) return;
  for (const auto& o : in.dst)
    if (o.kind == Operand::Kind::Reg) writes.push_back(o.reg);
  if (in.collective) {
    if (in.collective->d) writes.push_back(*in.collective->d);
    if (in.collective->p) writes.push_back(*in.collective->p);
  }
}

}  // namespace

std::vector<std::vector<uint32_t>> live_registers(const Program& p,
                                                  const std::vector<uint32_t>& always) {
  const auto n = static_cast<uint32_t>(p.code.size());
  const std::size_t words = (p.regs.size() + 63) / 64;
  using Row = std::vector<uint64_t>;
  auto set = [](Row& r, uint32_t reg) { r[reg / 64] |= uint64_t{1} << (reg % 64); };
  Row base(words, 0);
  for (uint32_t r : always) set(base, r);
  std::vector<Row> use(n, Row(words, 0)), kill(n, Row(words, 0));
  for (uint32_t i = 0; i < n; ++i) {
    std::vector<uint32_t> u, w;
    uses_and_writes(p.code[i], u, w);
    for (uint32_t r : u) set(use[i], r);
    for (uint32_t r : w) set(kill[i], r);
  }
  // live[n]: an exited thread. Backwards to the least fixed point.
  std::vector<Row> live(n + 1, base);
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = n; i-- > 0;) {
      Row out = base;
      for_each_successor(p, i, [&](uint32_t s) {
        for (std::size_t k = 0; k < words; ++k) out[k] |= live[s][k];
      });
      for (std::size_t k = 0; k < words; ++k) out[k] = (out[k] & ~kill[i][k]) | use[i][k] | base[k];
      if (out != live[i]) {
        live[i] = std::move(out);
        changed = true;
      }
    }
  }
  std::vector<std::vector<uint32_t>> lists(n + 1);
  for (uint32_t i = 0; i <= n; ++i)
    for (uint32_t r = 0; r < p.regs.size(); ++r)
      if (live[i][r / 64] >> (r % 64) & 1) lists[i].push_back(r);
  return lists;
}

std::vector<std::vector<uint32_t>> instructions_ahead(
    const Program& p, const std::function<bool(const Instruction&)>& which) {
  const auto n = static_cast<uint32_t>(p.code.size());
  std::vector<std::vector<uint32_t>> preds(n);
  for (uint32_t i = 0; i < n; ++i)
    for_each_successor(p, i, [&](uint32_t s) {
      if (s < n) preds[s].push_back(i);
    });
  std::vector<std::vector<uint32_t>> ahead(n);
  for (uint32_t q = 0; q < n; ++q) {
    if (!which(p.code[q])) continue;
    std::vector<uint8_t> reaches(n, 0);
    std::vector<uint32_t> todo{q};
    reaches[q] = 1;
    while (!todo.empty()) {
      const uint32_t i = todo.back();
      todo.pop_back();
      ahead[i].push_back(q);
      for (uint32_t j : preds[i])
        if (!reaches[j]) {
          reaches[j] = 1;
          todo.push_back(j);
        }
    }
  }
  return ahead;
}

std::vector<uint32_t> first_reached(const Program& p, uint32_t start,
                                    const std::function<bool(const Instruction&)>& which) {
  const auto n = static_cast<uint32_t>(p.code.size());
  std::vector<uint32_t> out;
  std::vector<uint8_t> seen(n + 1, 0);
  std::vector<uint32_t> todo{std::min(start, n)};
  seen[todo.front()] = 1;
  while (!todo.empty()) {
    const uint32_t i = todo.back();
    todo.pop_back();
    if (i == n || which(p.code[i])) {
      out.push_back(i);
      continue;
    }
    for_each_successor(p, i, [&](uint32_t j) {
      if (!seen[j]) {
        seen[j] = 1;
        todo.push_back(j);
      }
    });
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace warpspec::programs
