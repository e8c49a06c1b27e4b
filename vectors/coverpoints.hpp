#pragma once
// Coverpoints: a coverage model of the vectors that does not depend on the mutant catalog. Each
// coverpoint names a situation a demanding verification engineer wants a suite to exercise (a
// membermask shape, lanes that have exited, operands on a boundary, a result that shows a
// particular rule, a block size, two rounds whose results differ) as a predicate over a vector's
// states and the model's answers. The mutants say which known bugs a suite catches; the
// coverpoints say which situations it puts an unknown bug in front of.
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "vectors/vector.hpp"

namespace warpspec::vectors {

/// Every coverpoint. The string key (`coverpoint_info(id).key`) is the public, stable name.
enum class CoverpointId : uint8_t {
  // membermask shapes (warp forms)
  MaskFull,
  MaskOneLane,
  MaskLane31Alone,
  MaskContiguousLow,
  MaskContiguousHigh,
  MaskContiguousMiddle,
  MaskHoles,
  MaskTwoGroups,
  MaskInterleavedGroups,
  MaskDiffersBetweenLanes,
  MaskSelfMissing,
  MaskNamesAbsentLane,
  // lane status (warp forms)
  StatusExitedInMask,
  StatusExitedOutsideMask,
  StatusInactive,
  StatusAllExecute,
  StatusSoleSurvivor,
  // who takes part (match, vote, redux)
  ResultExcludeLane0,
  ResultExcludeLane31,
  ResultOneParticipant,
  ResultGroupNotPowerOfTwo,
  StatusExitedOperandMatters,
  StatusExitedZeroMatters,
  StatusExitedMatterUnderFullMask,
  ResultEveryLaneMatters,
  // integer and bit-pattern operands (match, integer redux)
  AAllEqual,
  ATwoClasses,
  AMoreThan16Distinct,
  A32Distinct,
  ASignedBoundaries,
  ALowBitsAgree,
  ASignBitOnly,
  AEveryBitDecides,
  AB64EqualLowDifferHigh,
  AB64EqualHighDifferLow,
  ANanBitsEqual,
  ASignedZeros,
  // match results
  ResultAnySelfOnly,
  ResultAnyThreeClasses,
  ResultAllAgree,
  ResultAllDiffer,
  // vote
  AMixedPredicates,
  ResultTrue,
  ResultFalse,
  ResultBallotEmpty,
  ResultBallotFull,
  ResultBallotBit31,
  ResultBallotBitsInIdleGroup,
  ResultUniTrueWithExitedInMask,
  ResultTrueOverExitedInMask,
  ASingleTrue,
  ASingleTrueLane0,
  InstrNegated,
  InstrNegatedExited,
  InstrNegatedMixed,
  InstrNegationMatters,
  APredBit0Misleads,
  APredLowByteMisleads,
  APredSignBitDecides,
  // integer redux results
  ResultAddWraps,
  ResultMinMaxSignMatters,
  ResultZeroWouldChangeWholeWarp,
  ResultAtIdentity,
  ResultWinnerLastLaneOnly,
  ResultBitwiseNewValue,
  ResultAndZeroFromNonzero,
  ResultXorZeroFromNonzero,
  // .f32 redux (sm_100a)
  ANanPayload,
  ANegativeNan,
  AAllNan,
  ANanAmongNumbers,
  AInfinity,
  ASubnormal,
  ANegativeNumbers,
  ResultZeroSignDecides,
  ResultAbsChangesAnswer,
  ResultNanQualifierDecides,
  // block barriers
  BlockThreads32,
  BlockThreads33,
  BlockThreads64,
  BlockThreads96,
  BlockThreads256,
  BlockThreads1024,
  BlockPartialLastWarp,
  BlockAllArrive,
  BlockExitedInEveryWarp,
  BlockOneArrives,
  BlockNoneArrive,
  BlockThreadMissing,
  BlockWholeWarpExited,
  BlockExitedPredMatters,
  BlockAndTrueOverExited,
  BlockAndSharedBitEven,
  BlockPredNotBool,
  BlockPredEvenNonzero,
  BlockLowByteMisleads,
  BlockExitedZeroMatters,
  BlockPartialWarpMatters,
  BlockPhantomThreadsMatter,
  BlockCountAbove255,
  BlockCountAbove511,
  BlockCount1024,
  ResultCountZero,
  ResultCountAll,
  BlockCountOperandAbove511,
  BlockBarrierNumbersAlias,
  BlockBarriersDifferInCount,
  // sequences of rounds, call sites
  SeqTwoRoundsStaleWouldShow,
  SeqMaskChanges,
  SeqResultBitCleared,
  SeqResultBitSet,
  SeqExitBetweenRounds,
  SeqExitedStillNamed,
  SeqExitedLastOperandMatters,
  SeqWarpGoneLastOperandsMatter,
  SeqCallSiteSplit,
  ActivemaskExitedLane,
  ActivemaskTwoSites,
  ActivemaskLoneLane,
  ShflBBeyond31,
  ShflUpBelowZero,
  ShflSegmentBelowWarp,
  ShflOddSegmentMask,
  ShflClampCutsSegment,
  ShflOutOfRange,
  ShflFromLowerSegment,
  ShflIdxWraps,
  ShflSourceOutsideMask,
  ShflSourceNotExecuting,
  ShflBDiffersBetweenLanes,
  ShflCDiffersBetweenLanes,
  ShflCopiesNanOrNegativeZero,
  ShflDownPastLane31,
  ShflCBitBesideField,
  ShflReadsChangedLowerLane,
  ShflReadsChangedHigherLane,
  ElectLeaderNotLowestExecuting,
  ElectMaskElectsAgain,
  ElectExitedBelowLeader,
  ElectLeaderThenFollower,
  ElectMaskReturnsAfterAnother,
  Count_
};
inline constexpr int kCoverpointCount = static_cast<int>(CoverpointId::Count_);

/// The forms that list a coverpoint.
enum class CoverScope : uint8_t {
  Any,                 ///< every form
  Warp,                ///< match, vote, redux, bar.warp.sync, activemask
  Masked,              ///< the warp forms with a membermask (all but activemask)
  Syncwarp,            ///< bar.warp.sync
  Collective,          ///< match, vote, redux (the forms that combine operands)
  CollectiveInt,       ///< match, vote and the integer redux forms
  ZeroMatters,         ///< the collective forms an operand of 0 can change: all but the redux forms
                       ///< whose identity is 0 (add, or, xor, max.u32) and max.abs.NaN.f32
  Valued,              ///< every form with a result: match, vote, redux, bar.red
  ValuedOrActive,      ///< the Valued forms and activemask
  IntValues,           ///< match and the integer redux forms
  Match,               ///< match.any and match.all, both widths
  Match64,             ///< the .b64 match forms
  MatchAny,            ///< match.any
  MatchAll,            ///< match.all
  MatchOrF32,          ///< match and the .f32 redux forms (operands that may be floats)
  Vote,                ///< every vote form
  Ballot,              ///< vote.ballot
  VoteUni,             ///< vote.uni
  VoteAllUni,          ///< vote.all and vote.uni
  BoolResult,          ///< vote.all/.any/.uni, bar.red.and/.or
  Negatable,           ///< vote and bar.red (`!a`)
  NegationShows,       ///< the negatable forms whose answer a negation can change: all but vote.uni
  ReduxInt,            ///< the integer redux forms
  ReduxAdd,            ///< redux.add
  ReduxMinMaxInt,      ///< integer redux.min/.max
  ReduxMinMaxNotZero,  ///< integer redux.min/.max whose identity is not 0 (all but max.u32)
  ReduxMinMax,         ///< every redux.min/.max, integer and .f32
  ReduxBitwise,        ///< redux.and/.or/.xor
  ReduxAnd,            ///< redux.and
  ReduxXor,            ///< redux.xor
  F32,                 ///< the .f32 redux forms
  F32Abs,              ///< the .f32 redux forms with .abs
  Block,               ///< bar.sync and bar.red
  BlockRed,            ///< bar.red
  BlockPopc,           ///< bar.red.popc
  BlockAnd,            ///< bar.red.and
  Activemask,          ///< activemask
  Shfl,                ///< shfl.sync
  ShflUp,              ///< shfl.sync.up
  ShflBfly,            ///< shfl.sync.bfly
  ShflIdx,             ///< shfl.sync.idx
  ShflDown,            ///< shfl.sync.down
  ShflNotDown,         ///< shfl.sync.up, .bfly, .idx (they can read a lower lane)
  ShflNotUp,           ///< shfl.sync.down, .bfly, .idx (they can read a higher lane)
  Elect,               ///< elect.sync
};

/// A catalog row: a stable key, the forms that list it, whether only undefined states show it,
/// and what it means in one line.
struct CoverpointInfo {
  CoverpointId id;
  std::string_view key;          ///< stable name, e.g. "mask.lane31_alone"
  CoverScope scope;              ///< the forms it is listed for
  bool ub;                       ///< hit only by UB vectors: the situation is undefined
  std::string_view description;  ///< one line, our words
};

/// The catalog, in CoverpointId order.
std::span<const CoverpointInfo> coverpoints();
/// The row of one coverpoint.
const CoverpointInfo& coverpoint_info(CoverpointId id);
/// Looks a coverpoint up by key.
std::optional<CoverpointId> find_coverpoint(std::string_view key);

/// True when the scope takes in the form.
bool in_scope(CoverScope scope, spec::FormId form);

/// A coverpoint listed for a form on a target, and why no vector can hit it there (empty when
/// one can).
struct FormCoverpoint {
  CoverpointId id;
  std::string_view unreachable;
};

/// The coverpoints listed for a form on a target, in catalog order, each with its reason when
/// it cannot be hit there.
std::vector<FormCoverpoint> coverpoints_of(spec::FormId form, spec::Target target);

/// True when `v` (with the model's answers `e`) hits the coverpoint. A coverpoint that names a
/// defined situation is hit only by a vector without undefined behaviour (an implementation need
/// not match a UB vector, so one shows nothing); a UB coverpoint only by a UB vector.
bool hits(CoverpointId id, const Vector& v, const std::vector<Expected>& e, spec::Target target,
          spec::PtxVersion ptx);

/// The coverpoints listed for `v`'s form that it hits, in catalog order.
std::vector<CoverpointId> coverpoints_hit(const Vector& v, const std::vector<Expected>& e,
                                          spec::Target target, spec::PtxVersion ptx);

}  // namespace warpspec::vectors
