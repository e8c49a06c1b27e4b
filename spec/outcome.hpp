#pragma once
// What an evaluation produces: per-lane results, which lanes produced one, and for each
// undefined-behaviour clause of the form the lanes on which it fires. "Defined" is derived:
// a lane's result is defined when the lane executes and no UB clause fires on any lane. UB is a
// property of the whole instruction, not of the lane that triggers it: on sm_90 a lane running
// match, vote or redux outside its own membermask either traps the kernel or joins the other
// lanes' group and changes their results (docs/observed-behaviour.md).
#include <array>
#include <vector>

#include "spec/catalog.hpp"
#include "spec/domain.hpp"
#include "spec/warp_state.hpp"

namespace warpspec::spec {

/// One UB clause and the lanes (a word of lane bits) on which it fires; zero when it does not.
template <Domain D>
struct UbTerm {
  ClauseId clause;
  typename D::W32 lanes;
};

/// The outcome of one warp instruction.
template <Domain D, int W = kWarpSize>
struct Outcome {
  std::array<typename D::W32, W> d;       ///< destination (0 or 1 for predicates)
  std::array<typename D::B, W> p;         ///< second destination of match.all
  std::array<typename D::B, W> executes;  ///< lanes that produce results
  std::vector<UbTerm<D>> ub;              ///< one term per UB clause of the form
  /// One term per clause that leaves `d` alone undefined on some lanes (kind UndefinedValue):
  /// there `p` is still pinned down and no other lane is affected.
  std::vector<UbTerm<D>> loose_d;
  /// CUDA's 64-bit shuffle overloads (Instr::wide): the high word of each lane's d, whose low
  /// word is `d`. Empty for every other instruction.
  std::vector<typename D::W32> d_hi{};

  /// Lanes on which any UB clause fires.
  typename D::W32 ub_lanes(const D& d) const {
    auto acc = d.w32(0);
    for (const auto& t : ub) acc = acc | t.lanes;
    return acc;
  }
  /// The spec pins this lane's result down: it executes and no UB clause fires on any lane.
  typename D::B defined(const D& d, unsigned lane) const {
    return executes[lane] && is_zero(d, ub_lanes(d));
  }
  /// Lanes whose `d` some UndefinedValue clause leaves undefined.
  typename D::W32 loose_d_lanes(const D& d) const {
    auto acc = d.w32(0);
    for (const auto& t : loose_d) acc = acc | t.lanes;
    return acc;
  }
  /// The spec pins this lane's `d` down: the lane is defined and no clause leaves its `d` open.
  typename D::B d_defined(const D& d, unsigned lane) const {
    return defined(d, lane) && !d.bit(loose_d_lanes(d), lane);
  }
};

/// One UB clause of a block barrier and the threads on which it fires.
template <Domain D>
struct CtaUbTerm {
  ClauseId clause;
  std::vector<typename D::B> threads;
};

/// The outcome of one block-wide barrier step. UB anywhere makes every thread's result undefined.
template <Domain D>
struct CtaOutcome {
  std::vector<typename D::W32> d;       ///< per thread: the value its barrier gives (0 if none)
  std::vector<typename D::B> executes;  ///< threads that execute this instruction
  std::vector<CtaUbTerm<D>> ub;         ///< one term per UB clause of the form, catalog order
  typename D::B any_ub;                 ///< some UB clause fires on some thread

  /// The spec pins thread t's result down: it executes and no UB clause fires on any thread.
  typename D::B defined(std::size_t t) const { return executes[t] && !any_ub; }
};

}  // namespace warpspec::spec
