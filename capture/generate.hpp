#pragma once
// Warp and block states for the harness. Every state is safe to run: no lane can wait for a lane
// that never arrives, so the capture cannot hang.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "capture/format.hpp"
#include "capture/variants.hpp"

namespace warpspec::capture {

/// The sets of states the harness captures. `Main` and `TwoSite` hold only states whose every
/// executing lane has a defined result on sm_70 and later; each probe adds one lane the spec
/// leaves undefined, in a way that cannot hang (no other lane's membermask names it). Each set
/// runs in a process of its own, so a surprise in one cannot cost the others.
enum class StateSet : uint8_t {
  Main,              ///< every lane of a mask reaches the instruction from one call site
  TwoSite,           ///< lanes of one mask reach it from two different branches
  ProbeSelfOutside,  ///< an extra lane executes with another group's mask, its own bit clear
  ProbeEmptyMask,    ///< an extra lane executes with membermask 0
  ProbeExitedOnly,   ///< an extra lane executes with a membermask naming only exited lanes
};

/// "main", "two-site", "probe-self-outside", "probe-empty-mask", "probe-exited-only".
std::string_view state_set_name(StateSet s);
/// Inverse of state_set_name.
std::optional<StateSet> find_state_set(std::string_view name);

/// `n` warp states for a warp variant, deterministic in `seed`; observed results left empty.
std::vector<WarpRecord> generate_warp_states(const Variant& v, StateSet set, uint64_t seed,
                                             std::size_t n);

/// `n` block states for a block-barrier variant, deterministic in `seed`.
std::vector<CtaRecord> generate_cta_states(const Variant& v, uint64_t seed, std::size_t n);

/// Checks the rule that keeps a capture from hanging: every non-exited lane named in an
/// executing lane's membermask executes with that same membermask, and no executing lane is
/// outside its own membermask unless `set` is a probe. Returns the violation, if any.
std::optional<std::string> hang_risk(const WarpRecord& r, StateSet set);

/// Checks a block state: at least one thread arrives and no thread is merely absent.
std::optional<std::string> hang_risk(const CtaRecord& r);

}  // namespace warpspec::capture
