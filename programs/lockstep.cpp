// The lockstep reading of a kernel (sm_6x and older): the lanes of a warp run together on one
// path at a time. A branch that splits them runs one side, then the other, and the two meet
// again at the branch's immediate post-dominator (cfg.hpp); every collective executes for the
// lanes of the running path, at once, and the per-instruction model judges whether the lanes it
// names are there and converged. Warps interact only at block barriers and through memory, which
// the happens-before clocks check. The scheduler's one freedom is which side of a split branch
// runs first (a PathOrder choice): it decides, for one, whether a collective on one side meets
// the other side's lanes still alive or already exited.
#include <bit>
#include <limits>

#include "programs/cfg.hpp"
#include "programs/machine.hpp"
#include "programs/machine_detail.hpp"

namespace warpspec::programs::detail {
namespace {

constexpr uint32_t kWhole = std::numeric_limits<uint32_t>::max();

// The lanes of `lanes` whose guard holds at their instruction; nullopt when the path stopped.
std::optional<uint32_t> guarded(const Program& p, const Launch& l, Machine& m, unsigned w,
                                uint32_t lanes) {
  uint32_t on = 0;
  for (unsigned t : threads_of(w, lanes)) {
    const auto g = guard_holds(p, l, m, t);
    if (!g) return std::nullopt;
    if (*g) on |= uint32_t{1} << (t % kWarp);
  }
  return on;
}

// Block barriers: the lanes of the path arrive together; a path that is not the whole warp
// breaks the pre-Volta rule that a warp meets a barrier as one.
bool at_barrier(const Program& p, Machine& m, unsigned w, PathEntry& e, uint32_t on,
                uint32_t live) {
  const auto ts = threads_of(w, on);
  if (on != live) {
    m.stop = finding(std::string(clause_key(ProgramClause::BarrierDivergent)),
                     thread_ranges(ts) + " reach " + where(p, e.pc) + " while " +
                         thread_ranges(threads_of(w, live & ~on)) +
                         " of their warp are on another path: before sm_70 a warp meets a "
                         "barrier as a whole",
                     ts, {p.code[e.pc].loc});
    return false;
  }
  for (unsigned t : ts)
    if (!arrive_at_barrier(p, m, t)) return false;
  e.arrived = true;
  return true;
}

// Runs the instruction at the top path of warp w. False when the warp cannot go on now (it
// waits at a barrier, or the path stopped).
bool step(const Program& p, const Launch& l, Machine& m, unsigned w) {
  auto& stack = m.stacks[w];
  PathEntry& e = stack.back();
  if (e.unordered) return false;  // the scheduler picks which side runs first
  const uint32_t live = e.mask & live_lanes(m, w);
  if (live == 0 || e.pc == e.rpc || e.pc >= p.code.size()) {
    // The path is done: its lanes have exited, met the lanes split from them, or ran off the end.
    if (e.pc >= p.code.size())
      for (unsigned t : threads_of(w, live)) m.threads[t].mut().status = Status::Exited;
    stack.pop_back();
    return true;
  }
  const auto ts = threads_of(w, live);
  if (e.arrived) {
    // At a barrier: still waiting, or released by its phase's completion.
    for (unsigned t : ts)
      if (m.threads[t]->status == Status::Waits) return false;
    e.arrived = false;
    e.pc++;
    return true;
  }
  for (unsigned t : ts) {
    m.threads[t].mut().pc = e.pc;
    trace_step(m, t, e.pc);
  }
  const auto& in = p.code[e.pc];
  const auto on = guarded(p, l, m, w, live);
  if (!on) return false;
  if (in.op == Op::Bra) {
    const uint32_t taken = in.guard ? *on : live;
    const uint32_t pc = e.pc;
    if (taken == live) {
      e.pc = in.target;
    } else if (taken == 0) {
      e.pc++;
    } else {
      const uint32_t rpc = (*m.reconverge)[pc];
      e.pc = rpc;
      stack.push_back({pc + 1, rpc, live & ~taken, false, true});
      stack.push_back({in.target, rpc, taken, false, true});
    }
    m.steps += ts.size();
    return true;
  }
  if (in.op == Op::Collective)
    for (unsigned t : threads_of(w, *on)) pin_collective_operands(p, l, m, t);
  if (in.op == Op::Collective && is_block_barrier(in)) {
    if (*on == 0) {
      e.pc++;
      return true;
    }
    return at_barrier(p, m, w, e, *on, live);
  }
  if (in.op == Op::Collective && is_activemask(in)) {
    for (unsigned t : threads_of(w, *on)) {
      auto& th = m.threads[t].mut();
      if (in.collective->d) {
        th.regs[*in.collective->d] = *on;
        forget_term(th, *in.collective->d);
        th.undef[*in.collective->d] = 0;
      }
    }
    e.pc++;
    return true;
  }
  if (in.op == Op::Collective) {
    if (*on) execute_group(p, l, m, threads_of(w, *on));
    if (m.stop) return false;
    for (unsigned t : ts) m.threads[t].mut().status = Status::Runs;
    e.pc++;
    return true;
  }
  for (unsigned t : threads_of(w, *on))
    if (!execute_local(p, l, m, t)) return false;
  e.pc++;
  return true;
}

}  // namespace

std::vector<Choice> lockstep_choices(const Machine& m) {
  for (unsigned w = 0; w < m.stacks.size(); ++w) {
    const auto& stack = m.stacks[w];
    if (stack.size() < 2 || !stack.back().unordered) continue;
    return {{Choice::Kind::PathOrder, threads_of(w, stack.back().mask), {}},
            {Choice::Kind::PathOrder, threads_of(w, stack[stack.size() - 2].mask), {}}};
  }
  return {};
}

void order_paths(Machine& m, const Choice& c) {
  auto& stack = m.stacks[c.threads.front() / kWarp];
  auto& top = stack.back();
  auto& other = stack[stack.size() - 2];
  if ((other.mask >> (c.threads.front() % kWarp)) & 1) std::swap(top, other);
  top.unordered = other.unordered = false;
}

void start_lockstep(const Program& p, const Launch& l, Machine& m) {
  m.reconverge = std::make_shared<const std::vector<uint32_t>>(reconvergence_points(p));
  for (unsigned w = 0; w * kWarp < l.threads; ++w) {
    const auto [lo, hi] = warp_threads(l.threads, w);
    const uint32_t lanes = hi - lo == 32 ? 0xffffffffu : (uint32_t{1} << (hi - lo)) - 1;
    m.stacks.push_back({{0, kWhole, lanes, false, false}});
  }
}

void settle_lockstep(const Program& p, const Launch& l, Machine& m) {
  constexpr uint64_t kStepLimit = uint64_t{1} << 24;
  for (bool moved = true; moved && !m.stop;) {
    moved = false;
    for (unsigned w = 0; w < m.stacks.size() && !m.stop; ++w)
      for (uint64_t n = 0; !m.stacks[w].empty() && !m.stop && step(p, l, m, w); ++n) {
        moved = true;
        if (n == kStepLimit) {
          m.stop = finding(std::string(clause_key(ProgramClause::RunsAway)),
                           "warp " + std::to_string(w) +
                               " ran without reaching a barrier or its end (last at " +
                               where(p, m.stacks[w].back().pc) + ")",
                           threads_of(w, live_lanes(m, w)), {});
          break;
        }
      }
    moved = complete_barriers(p, l, m) || moved;
  }
}

}  // namespace warpspec::programs::detail
