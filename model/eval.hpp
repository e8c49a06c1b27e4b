#pragma once
// The executable reference model: concrete warp and block states, and evaluation of any form.
#include <cstdint>
#include <string>
#include <vector>

#include "model/concrete.hpp"
#include "spec/outcome.hpp"
#include "spec/target.hpp"
#include "spec/warp_state.hpp"

namespace warpspec::model {

/// A concrete 32-lane warp state.
using Warp = spec::WarpState<Concrete>;
/// A concrete block state (up to 1024 threads).
using Cta = spec::CtaState<Concrete>;

/// The maximum number of threads in a block.
inline constexpr std::size_t kMaxCtaThreads = 1024;

/// What a lane (or thread) is doing when the instruction executes.
enum class LaneStatus : uint8_t { Executes, Exited, Inactive };

/// "executes", "exited" or "inactive".
std::string_view status_name(LaneStatus s);
/// The status of one lane of a warp.
LaneStatus status(const Warp& w, unsigned lane);
/// Sets the status of one lane of a warp.
void set_status(Warp& w, unsigned lane, LaneStatus s);
/// A warp whose 32 lanes all execute with membermask `mask`, operand 0, call site 0.
Warp make_warp(uint32_t mask = 0xffffffffu);
/// A block of `n` threads that all reach the barrier with predicate 0.
Cta make_cta(std::size_t n);

/// Grows or shrinks `c` to `n` threads; new threads arrive at barrier 0 through the instruction
/// itself, with predicate `pred` and count 0.
void resize_cta(Cta& c, std::size_t n, uint32_t pred = 0);

/// A UB clause that fires, with the lanes it fires on (never zero).
struct UbFinding {
  spec::ClauseId clause;
  uint32_t lanes;
};

/// The model's answer for one warp instruction.
struct WarpResult {
  spec::Instr instr;
  spec::Outcome<Concrete> outcome;
  std::vector<UbFinding> ub;  ///< only the clauses that fire
  spec::AvailabilityVerdict availability;
  /// True when the lane executes and no UB clause fires on it.
  bool defined(unsigned lane) const { return outcome.defined(Concrete{}, lane); }
  /// True when the lane is defined and no clause leaves its `d` undefined (shuffles).
  bool d_defined(unsigned lane) const { return outcome.d_defined(Concrete{}, lane); }
  /// The lane's whole d: for the 64-bit shuffle overloads (Instr::wide) the high word joined to
  /// the low one, else the 32-bit d.
  uint64_t d_value(unsigned lane) const {
    return outcome.d_hi.empty() ? outcome.d[lane]
                                : (uint64_t{outcome.d_hi[lane]} << 32) | outcome.d[lane];
  }
};

/// A UB clause that fires on a block barrier, with the threads it fires on.
struct CtaFinding {
  spec::ClauseId clause;
  std::vector<unsigned> threads;
};

/// The model's answer for one block-wide barrier.
struct CtaResult {
  spec::Instr instr;
  spec::CtaOutcome<Concrete> outcome;
  std::vector<CtaFinding> ub;
  spec::AvailabilityVerdict availability;
};

/// Evaluates a warp form (any family but the block barriers) on `w` for a target and PTX version.
WarpResult evaluate(const spec::Instr& in, const Warp& w,
                    spec::Target target = spec::kDefaultTarget,
                    spec::PtxVersion ptx = spec::kLatestPtx);

/// Throws std::invalid_argument unless `c` holds 1 to 1024 threads with every field filled.
void check_cta_shape(const Cta& c);

/// The UB findings of a block barrier's outcome: each clause that fires, with its threads.
std::vector<CtaFinding> cta_findings(const spec::CtaOutcome<Concrete>& o);

/// Evaluates a block-wide barrier form (bar.sync, bar.red.*) on `c`.
CtaResult evaluate_cta(const spec::Instr& in, const Cta& c,
                       spec::Target target = spec::kDefaultTarget,
                       spec::PtxVersion ptx = spec::kLatestPtx);

}  // namespace warpspec::model
