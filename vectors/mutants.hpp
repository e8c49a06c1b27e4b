#pragma once
// The mutant catalog: semantic bugs drawn from how real implementations get these primitives
// wrong. Each mutant is one row here and one case of vectors/mutant_semantics.hpp, which says
// what it answers over the value domain. Each mutant names the clause it violates. A vector kills a
// mutant when the mutant's answer departs from the specification on a defined lane (or it reports
// UB on a defined round).
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "vectors/vector.hpp"

namespace warpspec::vectors {

/// Every mutant in the catalog.
enum class MutantId : uint8_t {
  MembermaskIgnored,
  ExitedCounted,
  StaleBallotBits,
  FloatMatchByValue,
  Match64LowHalf,
  MatchAnyWithoutSelf,
  MatchAllAsAny,
  MatchAllPredInverted,
  MatchAllGivesMembermask,
  NegationIgnored,
  VoteAllAnySwapped,
  VoteUniInverted,
  MinMaxSignSwapped,
  ReduxIdentityZero,
  ReduxAddSaturates,
  ReduxBitwiseOnLogical,
  F32ZeroOrderIgnored,
  F32AbsIgnored,
  F32NanQualifierSwapped,
  F32NanNotCanonical,
  SyncwarpWaitsForExited,
  CtaNotReset,
  CtaExitedCounted,
  CtaCountSumsValues,
  CtaAndBitwise,
  CtaWaitsForExited,
  CtaCountIgnored,
  CtaArriveWaits,
  CtaArrivalsPerThread,
  CtaBarrierNumberIgnored,
  CtaPartnerNotCounted,
  ActivemaskAllOnes,
  ActivemaskAliveLanes,
  ActivemaskExitedCounted,
  ActivemaskIgnoresSite,
  ActivemaskSelfOnly,
  ShflSegmentIgnored,
  ShflClampIgnored,
  ShflIdxNoWrap,
  ShflUpPredOffByOne,
  ShflUpUnsigned,
  ShflBflyWithinSegment,
  ShflDownWraps,
  ShflOutOfRangeZero,
  ShflBNotMasked,
  ShflPredAlwaysTrue,
  ShflMaskMustEqualActive,
  ShflCopyThroughFloat,
  ShflLowWordOnly,
  ElectPredOnEveryLane,
  ElectEachLaneAlone,
  ElectRankForLane,
  ElectRotates,
  Count_
};
inline constexpr int kMutantCount = static_cast<int>(MutantId::Count_);

/// A catalog row.
struct MutantInfo {
  MutantId id;
  std::string_view key;          ///< stable name, e.g. "membermask_ignored"
  std::string_view description;  ///< the bug, in one line
  spec::ClauseId clause;         ///< the clause it violates (on match forms; see violated_clause)
  bool carries_state = false;    ///< its answer depends on earlier instructions (a register or
                                 ///< accumulator kept between them)
};

/// The catalog, in MutantId order.
std::span<const MutantInfo> mutants();
/// The row of one mutant.
const MutantInfo& mutant_info(MutantId id);
/// Looks a mutant up by key.
std::optional<MutantId> find_mutant(std::string_view key);

/// The clause the mutant violates on this form (a family's own participants clause, the
/// reduction's own clause).
spec::ClauseId violated_clause(MutantId m, spec::FormId form);

/// True when the mutant changes the behaviour of this instruction at all (e.g. the .f32 mutants
/// apply only to the .f32 redux forms, NegationIgnored only to a negated source).
bool applies(MutantId m, const spec::Instr& in);
/// Same, for a parsed instruction.
inline bool applies(MutantId m, const spec::ParsedInstr& in) {
  return applies(m, in.instr);
}

/// For a mutant that runs the specification on another instruction (a swapped form, a dropped
/// qualifier or negation), that instruction; nullopt for the others. (Of match_all_as_any only
/// `d` comes from it.)
std::optional<spec::Instr> changed_instr(MutantId m, const spec::Instr& in);

/// What an implementation with this bug would report for every round of `v`: the concrete
/// reading of vectors/mutant_semantics.hpp.
std::vector<Observed> run_mutant(MutantId m, const Vector& v, spec::Target target,
                                 spec::PtxVersion ptx);

/// True when the mutant's answer departs from the specification on `v`.
bool kills(MutantId m, const Vector& v, const std::vector<Expected>& e, spec::Target target,
           spec::PtxVersion ptx);

}  // namespace warpspec::vectors
