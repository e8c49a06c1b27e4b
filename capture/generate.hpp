#pragma once
// Warp and block states for the harness. Every state but those of the sets that run alone under
// a deadline is safe to run: no lane can wait for a lane that never arrives.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "capture/format.hpp"
#include "capture/variants.hpp"

namespace warpspec::capture {

/// The sets of states the harness captures. `Main` and `TwoSite` hold only states whose every
/// executing lane has a defined result on sm_70 and later; each probe set adds something the
/// spec leaves undefined. The first three probes add one lane outside its own membermask, in a
/// way that cannot hang (no other lane's membermask names it). The last three are elect.sync's
/// own: there an exited lane named in a membermask is UB as well, and the harness runs them
/// under a deadline (`runs_alone` sets one state per process), since a lane that waits for
/// another may wait for ever. Each set runs in a process of its own, so a surprise in one cannot
/// cost the others.
enum class StateSet : uint8_t {
  Main,               ///< every lane of a mask reaches the instruction from one call site
  TwoSite,            ///< lanes of one mask reach it from two different branches
  ProbeSelfOutside,   ///< an extra lane executes with another group's mask, its own bit clear
  ProbeEmptyMask,     ///< an extra lane executes with membermask 0
  ProbeExitedOnly,    ///< an extra lane executes with a membermask naming only exited lanes
  ProbeNamesExited,   ///< elect.sync: a group's membermask also names exited lanes
  ProbeNamesIdle,     ///< elect.sync: a group's membermask also names a lane that is alive but
                      ///< does not execute the instruction
  ProbeMaskMismatch,  ///< elect.sync: a few lanes name each other with different membermasks
};

/// "main", "two-site", "probe-self-outside", "probe-empty-mask", "probe-exited-only",
/// "probe-names-exited", "probe-names-idle", "probe-mask-mismatch".
std::string_view state_set_name(StateSet s);
/// Inverse of state_set_name.
std::optional<StateSet> find_state_set(std::string_view name);

/// The sets a warp variant is captured in: main and two-site; the first three probes where the
/// form has a membermask; elect.sync's three besides.
std::vector<StateSet> state_sets(const Variant& v);

/// True for a set whose states may hang the GPU: each runs alone in its own process, under a
/// deadline, and a state that does not return is recorded as such.
bool runs_alone(StateSet s);

/// True when a probe of `set` is meant to fire `clause` on form `form` (never for main and
/// two-site): the harness refuses a state whose model verdict holds any other clause.
bool probe_fires(StateSet set, spec::FormId form, spec::ClauseId clause);

/// `n` warp states for a warp variant, deterministic in `seed`; observed results left empty.
std::vector<WarpRecord> generate_warp_states(const Variant& v, StateSet set, uint64_t seed,
                                             std::size_t n);

/// `n` block states for a block-barrier variant, deterministic in `seed`.
std::vector<CtaRecord> generate_cta_states(const Variant& v, uint64_t seed, std::size_t n);

/// Checks the rule that keeps a capture from hanging: every non-exited lane named in an
/// executing lane's membermask executes with that same membermask, and no executing lane is
/// outside its own membermask unless `set` is a probe. The probes that name an idle lane, or
/// lanes with different masks, are excused from the part they are about. Returns the violation,
/// if any.
std::optional<std::string> hang_risk(const WarpRecord& r, StateSet set);

/// Checks a block state: at least one thread arrives and no thread is merely absent.
std::optional<std::string> hang_risk(const CtaRecord& r);

}  // namespace warpspec::capture
