#pragma once
// An independent bug set: a small warp/block simulator written from the manuals (PTX ISA
// match.sync, vote.sync, redux.sync; CUDA guide synchronization functions), and realistic wrong
// variants of it, the way simulator and emulator authors go wrong. It measures the conformance
// suite against bugs that were not taken from the project's own mutant catalog.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "vectors/vector.hpp"

namespace warpspec::bugs {

/// One wrong implementation (None: the correct one).
enum class Bug : uint8_t {
  None,  ///< the correct implementation
  // match.sync
  Match64HighHalfOnly,     ///< .b64 compares only the high 32 bits
  MatchAnyLoopTo30,        ///< match.any never puts lane 31 in d
  MatchAllRefLane0,        ///< match.all compares with lane 0's register
  MatchAllActiveMask,      ///< match.all returns the executing lanes
  MatchMaskOfFirstLane,    ///< the lowest executing lane's membermask serves all lanes
  MatchAllSingletonFalse,  ///< match.all fails for a lone participant
  // vote.sync
  VoteAnyAtLeastTwo,         ///< .any needs two true lanes
  VoteAllAgainstMembermask,  ///< .all compares the ballot with the raw membermask
  VoteUniAgainstMembermask,  ///< .uni compares the ballot with the raw membermask
  VoteBallotMsbFirst,        ///< .ballot writes lane j to bit 31 - j
  VoteNegateAfterVote,       ///< !a negates the result instead of each predicate
  VoteBallotMaskOfLane0,     ///< .ballot filters with lane 0's membermask
  VoteBallotOrAccumulates,   ///< .ballot ORs into the old destination
  // redux.sync
  ReduxLane0Skipped,             ///< lane 0's value is left out
  ReduxAndStartsZero,            ///< .and starts from 0
  ReduxMinS32StartsAllOnes,      ///< min.s32 starts from -1
  ReduxMaxS32StartsNegMax,       ///< max.s32 starts from -INT_MAX
  ReduxMinU32StartsIntMax,       ///< min.u32 starts from INT_MAX
  ReduxXorStartsAllOnes,         ///< .xor starts from all ones
  ReduxS32CompareBySubtraction,  ///< .s32 order by the sign of a wrapped difference
  ReduxMaskMsbFirst,             ///< membermask bit 31 - j names lane j
  ReduxCount5Bit,                ///< 32 participants wrap a 5-bit count to 0
  // bar.warp.sync
  SyncwarpWholeWarp,      ///< waits for every non-exited lane of the warp
  SyncwarpMaskMsbFirst,   ///< waits for the mirrored lanes
  SyncwarpSelfCheckTo30,  ///< reports lane 31 outside its mask
  SyncwarpSharedCounter,  ///< one arrival counter for every mask
  SyncwarpCounter5Bit,    ///< 32 arrivals wrap a 5-bit counter
  // bar.sync / bar.red
  CtaPopc8Bit,               ///< the count wraps at 256
  CtaPopcCountsWarps,        ///< counts warps with a true predicate
  CtaPartialWarpDropped,     ///< the partly filled last warp is skipped
  CtaPredLowBit,             ///< a predicate is true when its low bit is set
  CtaPopcAsPredicate,        ///< the count is returned as 0/1
  CtaRoundsUpToWarps,        ///< waits for a whole number of warps
  CtaPartlyExitedWarpWaits,  ///< exited threads count unless their whole warp exited
  CtaWarpLocalReduction,     ///< each thread gets its own warp's reduction
  CtaLastThreadDropped,      ///< the last thread's predicate is left out
  CtaExpectedCountCached,    ///< the arrival count of the first barrier is reused
};

/// What a bug is, which forms it changes and which clauses (keys of spec/catalog.hpp) it breaks.
struct BugInfo {
  Bug id;
  std::string_view key;
  std::string_view description;
  std::vector<std::string_view> forms;    ///< form names it affects
  std::vector<std::string_view> clauses;  ///< clause keys it violates, the primary first
};

/// Every bug (not Bug::None), in enum order.
const std::vector<BugInfo>& bug_table();

/// The table row of a bug.
const BugInfo& bug_info(Bug b);

/// Runs every round of `v`, in order, on one instance of the implementation with bug `b`.
std::vector<vectors::Observed> run(const vectors::Vector& v, Bug b);

/// One results line (warpspec-results/1) for `v` with the observed `rounds` (hangs included).
std::string result_text(const vectors::Vector& v, const std::vector<vectors::Observed>& rounds);

/// The whole results file of implementation `b` for a vector file's text.
std::string results_for(const std::string& vectors_jsonl_text, Bug b);

/// What `vectors::check` made of one bug on a suite.
struct BugOutcome {
  Bug id = Bug::None;
  std::string_view key;
  bool killed = false;               ///< some vector mismatched
  uint64_t mismatches = 0;           ///< mismatching vectors
  std::vector<std::string> clauses;  ///< clause keys check charged (its diagnosis per form)
  std::vector<std::string> mutants;  ///< catalog mutants check named (its diagnosis per form)
  std::vector<std::string> forms;    ///< forms with a mismatching vector
  std::vector<std::string> kinds;    ///< how they mismatch: "d", "p", "hang", "result", "ub"
};

/// Runs every bug of the table through `vectors::check` on a vector file's text.
std::vector<BugOutcome> measure(const std::string& vectors_jsonl_text);

}  // namespace warpspec::bugs
