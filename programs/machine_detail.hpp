#pragma once
// What the machine's files share: values with their defined flag, operand reads of
// collectives, clocks, and how findings name places. Not part of the public interface.
#include <algorithm>
#include <bit>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "programs/machine.hpp"

namespace warpspec::programs::detail {

inline constexpr unsigned kWarp = 32;
/// Generic addresses: a buffer's number in bits 40-47 (shared memory: 0xFF), the offset below.
inline constexpr uint64_t kSharedTag = 0xFF;
inline constexpr unsigned kTagShift = 40;
inline constexpr uint64_t kOffsetMask = (uint64_t{1} << kTagShift) - 1;

/// A value with its defined flag.
struct Val {
  uint64_t v = 0;
  bool undef = false;
  uint32_t term = 0;  ///< how v follows from the unknown inputs (terms.hpp); 0: it does not
};

/// Register `reg` of `th` now holds a value that follows from no unknown input.
inline void forget_term(Thread& th, uint32_t reg) {
  if (!th.terms.empty()) th.terms[reg] = 0;
}

inline const spec::FormInfo& form_of(const Instruction& in) {
  return spec::form_info(in.collective->parsed.instr.form);
}
inline bool is_block_barrier(const Instruction& in) {
  return in.op == Op::Collective && form_of(in).family == spec::Family::CtaBarrier;
}
/// A block barrier that a warp must reach together (every `bar` spelling, `barrier.sync.aligned`):
/// warp-mates that run a collective while others wait at it come to owe it.
inline bool is_aligned_barrier(const Instruction& in) {
  return is_block_barrier(in) && in.collective->parsed.aligned;
}
inline bool is_activemask(const Instruction& in) {
  return in.op == Op::Collective && form_of(in).family == spec::Family::Activemask;
}

/// Runs a trace keeps per thread; a longer trace is cut there (machine.hpp, Machine::trace).
inline constexpr std::size_t kTraceRuns = 4096;

/// Some arrival of the phase is at an .aligned barrier instruction (every bar spelling and
/// __syncthreads; barrier without .aligned is not).
inline bool any_aligned(const Program& p, const std::vector<Arrival>& ph) {
  return std::any_of(ph.begin(), ph.end(),
                     [&](const Arrival& a) { return p.code[a.pc].collective->parsed.aligned; });
}

/// Thread t executes the instruction at `pc`: extends its trace where one is kept. Once the trace
/// is full it ends with an empty run (first > last), and nothing more is added, so no later
/// instruction can extend a run it does not belong to.
inline void trace_step(Machine& m, unsigned t, uint32_t pc) {
  if (!m.trace) return;
  auto& runs = (*m.trace)[t];
  if (runs.size() > kTraceRuns) return;
  if (!runs.empty() && runs.back().second + 1 == pc)
    runs.back().second = pc;
  else if (runs.size() < kTraceRuns)
    runs.push_back({pc, pc});
  else
    runs.push_back({1, 0});
}

/// "line 12 (bar.sync 0)", and the CUDA line where the PTX has line information:
/// "line 12 (bar.sync 0; k.cu:7)".
inline std::string where(const Program& p, uint32_t pc) {
  if (pc >= p.code.size()) return "the end of the kernel";
  const auto& in = p.code[pc];
  const std::string file = in.source.line ? source_file_name(p, in.source.file) : "";
  const std::string cu = file.empty() ? "" : "; " + file + ":" + std::to_string(in.source.line);
  return "line " + std::to_string(in.loc.line) + " (" + in.text + cu + ")";
}

inline Finding finding(std::string key, std::string text, std::vector<unsigned> threads,
                       std::vector<SourceLoc> locs) {
  return {std::move(key), std::move(text), std::move(threads), std::move(locs)};
}

/// A collective's operand: the register when written as one, else the immediate, else `dflt`.
inline Val reg_or(const Thread& th, std::optional<uint32_t> reg, std::optional<uint32_t> imm,
                  uint64_t dflt) {
  if (reg) return {th.regs[*reg], th.undef[*reg] != 0};
  if (imm) return {*imm};
  return {dflt};
}

/// The threads that exist in warp w: [first, last).
inline std::pair<unsigned, unsigned> warp_threads(unsigned block, unsigned w) {
  return {w * kWarp, std::min(block, (w + 1) * kWarp)};
}

/// The threads of warp w that `lanes` names, in order.
inline std::vector<unsigned> threads_of(unsigned w, uint32_t lanes) {
  std::vector<unsigned> out;
  for (; lanes; lanes &= lanes - 1)
    out.push_back(w * kWarp + static_cast<unsigned>(std::countr_zero(lanes)));
  return out;
}

/// The lanes of warp w that exist and have not exited.
inline uint32_t live_lanes(const Machine& m, unsigned w) {
  uint32_t live = 0;
  const auto [lo, hi] = warp_threads(static_cast<unsigned>(m.threads.size()), w);
  for (unsigned t = lo; t < hi; ++t)
    if (m.threads[t]->status != Status::Exited) live |= uint32_t{1} << (t - lo);
  return live;
}

/// Everything the threads of `from` did happens before what the threads of `to` do next.
inline void join_clocks(Machine& m, const std::vector<unsigned>& from,
                        const std::vector<unsigned>& to) {
  std::vector<uint32_t> joined(m.threads.size(), 0);
  for (unsigned t : from)
    for (std::size_t k = 0; k < joined.size(); ++k)
      joined[k] = std::max(joined[k], (*m.threads[t]->clock)[k]);
  for (unsigned t : to) {
    auto& c = m.threads[t].mut().clock.mut();
    for (std::size_t k = 0; k < joined.size(); ++k) c[k] = std::max(c[k], joined[k]);
    c[t]++;
  }
}

/// Whether the guard of thread t's next instruction holds (true without one); nullopt, with the
/// path stopped, when the guard is an undefined value.
std::optional<bool> guard_holds(const Program& p, const Launch& l, Machine& m, unsigned t);
/// Thread t stands at a collective it executes (its guard holds): every register operand it
/// passes decides what the collective does, so each one's term is pinned (terms.hpp).
void pin_collective_operands(const Program& p, const Launch& l, Machine& m, unsigned t);
/// Runs thread t's next instruction, which is not a collective, its guard already true. False
/// when the path stopped.
bool execute_local(const Program& p, const Launch& l, Machine& m, unsigned t);
/// Counts thread t in the open phase of the block barrier it stands at; it waits (at bar.arrive,
/// for its warp only). False when the path stopped.
bool arrive_at_barrier(const Program& p, Machine& m, unsigned t);
/// `group` executes a warp collective: where others of its warp wait at an .aligned barrier,
/// each of the group owes that barrier (Thread::owes) and must come to it.
void owe_split_barrier(const Program& p, Machine& m, const std::vector<unsigned>& group);
/// Thread t has exited: where it owed an .aligned barrier (Thread::owes), the path stops on the
/// divergent barrier.
void exit_owing(const Program& p, Machine& m, unsigned t);
/// Sorts the open phases of counted barriers by thread (independent scheduling: their order
/// decides nothing, see barriers.cpp).
void canonical_phases(Machine& m);
/// Lets threads at bar.arrive whose warp has arrived go on, and completes every barrier phase
/// that can complete; true when anything moved.
bool complete_barriers(const Program& p, const Launch& l, Machine& m);
/// What the model says of each barrier phase left open: its UB findings (a count of zero, one
/// the block cannot reach, ...).
std::vector<Finding> open_phase_findings(const Program& p, const Launch& l, const Machine& m);
/// Executes a warp collective for the threads of `group`, all at it, through the model.
void execute_group(const Program& p, const Launch& l, Machine& m,
                   const std::vector<unsigned>& group);

/// The lockstep reading (sm_6x): each warp's stack of paths set up at the start...
void start_lockstep(const Program& p, const Launch& l, Machine& m);
/// ... and every warp run until it waits at a block barrier or a choice, or has finished.
void settle_lockstep(const Program& p, const Launch& l, Machine& m);
/// The lockstep choices: which side of the first warp's split branch runs first.
std::vector<Choice> lockstep_choices(const Machine& m);
/// Applies a PathOrder choice.
void order_paths(Machine& m, const Choice& c);

}  // namespace warpspec::programs::detail
