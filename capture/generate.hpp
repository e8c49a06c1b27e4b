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

/// The sets of block states. `Main` holds only states the spec defines: every arriving thread
/// comes back, with the value the model gives. For the __syncthreads family it is the one set
/// (barrier 0, every thread arriving or exited). For the named barriers it leans to the corners:
/// counts equal to the arrivals and smaller than the block, several phases of one count, two
/// barriers side by side, whole warps elsewhere or exited, exited threads inside arriving warps,
/// partial last warps, and partner warps arriving through the other form. `Leftover` is
/// bar.arrive alone leaving its barrier part-filled (defined: no one waits). Each probe breaks
/// one rule and may hang: the harness runs it under a deadline and records who came back.
enum class CtaSet : uint8_t {
  Main,
  Leftover,                   ///< bar.arrive alone; the arrivals are no whole number of phases
  ProbeCountNotWarpMultiple,  ///< a thread count that is not a multiple of 32
  ProbeCountZero,             ///< a thread count of 0
  ProbeBarrierRange,          ///< a barrier number above 15, from a register
  ProbeCountUnreachable,      ///< a thread count above 32 per warp of the block
  ProbeCountMixed,            ///< warps at one barrier with different thread counts
  ProbeNotGathered,           ///< a warp whose threads are not all at its barrier
  ProbeTooFew,                ///< waiting threads whose barrier gets fewer arrivals than b
  ProbeRedPhases,             ///< bar.red with twice or three times its count arriving
  ProbeRedMixed,              ///< bar.red and bar.sync at one barrier
};

/// "main", "leftover", and "probe-" plus the rule a probe breaks: "probe-count-not-warp-multiple",
/// "probe-count-zero", "probe-barrier-range", "probe-count-unreachable", "probe-count-mixed",
/// "probe-not-gathered", "probe-too-few", "probe-red-phases", "probe-red-mixed".
std::string_view cta_set_name(CtaSet s);
/// Inverse of cta_set_name.
std::optional<CtaSet> find_cta_set(std::string_view name);
/// The sets a block variant is captured in: main for every one; leftover for bar.arrive with
/// registers; the probes for one variant per form (registers, the bar spelling, c not negated),
/// the bar.red ones for the bar.red forms, the others for bar.sync, bar.arrive and bar.red.popc.
std::vector<CtaSet> cta_sets(const Variant& v);
/// True for a probe set.
bool is_cta_probe(CtaSet s);
/// The UB clause a probe set is about (nullopt for main and leftover).
std::optional<spec::ClauseId> cta_probe_clause(CtaSet s);
/// True when a state of `set` may fire `clause`: never for main and leftover; for a probe, its
/// own clause, and cta.ub.not_reached, which most of them bring with them (and on bar.red a
/// count of 0 or below the arrivals brings cta.ub.red_phases).
bool cta_probe_fires(CtaSet set, spec::ClauseId clause);

/// `n` block states of a block-barrier variant in its main set, deterministic in `seed`.
std::vector<CtaRecord> generate_cta_states(const Variant& v, uint64_t seed, std::size_t n);
/// `n` block states of a block-barrier variant in `set`, deterministic in `seed`. An immediate
/// variant's text gets the state's immediates (`bar.sync 3, 128;`).
std::vector<CtaRecord> generate_cta_states(const Variant& v, CtaSet set, uint64_t seed,
                                           std::size_t n);

/// Checks the rule that keeps a capture from hanging: every non-exited lane named in an
/// executing lane's membermask executes with that same membermask, and no executing lane is
/// outside its own membermask unless `set` is a probe. The probes that name an idle lane, or
/// lanes with different masks, are excused from the part they are about. Returns the violation,
/// if any.
std::optional<std::string> hang_risk(const WarpRecord& r, StateSet set);

/// Checks a block state's shape: a size of 1 to 1024, every per-thread field of that size, and
/// at least one thread arriving. Whether the state can hang is the model's verdict
/// (cta.ub.not_reached), which the harness asks as well.
std::optional<std::string> hang_risk(const CtaRecord& r);

}  // namespace warpspec::capture
