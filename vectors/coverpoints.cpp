#include "vectors/coverpoints.hpp"

#include "spec/redux.hpp"
#include "vectors/coverpoint_predicates.hpp"

namespace warpspec::vectors {

namespace {

using C = CoverpointId;
using S = CoverScope;
using spec::FormId;

// clang-format off
constexpr CoverpointInfo kCoverpoints[] = {
  {C::MaskFull, "mask.full", S::Masked, false, "A lane executes with the full membermask 0xffffffff."},
  {C::MaskOneLane, "mask.one_lane", S::Masked, false, "A lane's membermask names the lane itself and no other."},
  {C::MaskLane31Alone, "mask.lane31_alone", S::Masked, false, "Lane 31 executes alone: membermask 0x80000000, the sign bit of a signed word."},
  {C::MaskContiguousLow, "mask.contiguous_low", S::Masked, false, "A membermask is a run of 2 to 31 lanes that starts at lane 0."},
  {C::MaskContiguousHigh, "mask.contiguous_high", S::Masked, false, "A membermask is a run of 2 to 31 lanes that ends at lane 31."},
  {C::MaskContiguousMiddle, "mask.contiguous_middle", S::Masked, false, "A membermask is a run of two or more lanes touching neither lane 0 nor lane 31."},
  {C::MaskHoles, "mask.holes", S::Masked, false, "A membermask has a clear bit between its lowest and its highest set bit."},
  {C::MaskTwoGroups, "mask.two_groups", S::Masked, false, "Two groups of lanes execute side by side, each with its own disjoint membermask."},
  {C::MaskInterleavedGroups, "mask.interleaved_groups", S::Masked, false, "Two groups of different sizes with disjoint membermasks execute side by side and their lanes interleave: neither group lies wholly below the other."},
  {C::MaskDiffersBetweenLanes, "mask.differs_between_lanes", S::Masked, true, "A lane names an executing lane that passes another membermask."},
  {C::MaskSelfMissing, "mask.self_missing", S::Masked, true, "An executing lane's own bit is clear in its membermask."},
  {C::MaskNamesAbsentLane, "mask.names_absent_lane", S::Masked, true, "A membermask names a live lane that does not execute the instruction."},

  {C::StatusExitedInMask, "status.exited_in_mask", S::Masked, false, "A membermask names a lane that has exited."},
  {C::StatusExitedOutsideMask, "status.exited_outside_mask", S::Masked, false, "A lane has exited that no membermask names."},
  {C::StatusInactive, "status.inactive", S::Warp, false, "A live lane does not execute the instruction (and no membermask names it)."},
  {C::StatusAllExecute, "status.all_execute", S::Warp, false, "All 32 lanes execute the instruction."},
  {C::StatusSoleSurvivor, "status.sole_survivor", S::Masked, false, "One lane executes with the full membermask; every other lane has exited."},

  {C::ResultExcludeLane0, "result.participants_exclude_lane0", S::Collective, false, "A lane's result combines lanes that do not include lane 0."},
  {C::ResultExcludeLane31, "result.participants_exclude_lane31", S::Collective, false, "A lane's result combines lanes that do not include lane 31."},
  {C::ResultOneParticipant, "result.one_participant", S::Collective, false, "A lane's result combines its own operand alone."},
  {C::ResultGroupNotPowerOfTwo, "result.group_not_power_of_two", S::ReduxInt, false, "A reduction combines three or more non-zero operands, a count that is not a power of two: a pairwise tree over them has one left over."},
  {C::StatusExitedOperandMatters, "status.exited_operand_matters", S::Collective, false, "Letting the exited lanes a membermask names take part would change a result, and with their stale operands otherwise than with zeros."},
  {C::StatusExitedZeroMatters, "status.exited_zero_matters", S::ZeroMatters, false, "Letting the exited lanes a membermask names take part with an operand of 0 would change a result (a slot or register never written reads as 0)."},
  {C::StatusExitedMatterUnderFullMask, "status.exited_matter_under_full_mask", S::Collective, false, "A lane executes with the full membermask 0xffffffff while lanes have exited, and letting the exited lanes take part with their stale operands would change its result: a fast path for the full mask that reads all 32 registers would show."},
  {C::ResultEveryLaneMatters, "result.every_lane_matters", S::CollectiveInt, false, "Each of the 32 lanes, in some round, decides another lane's result: giving its operand another value (the reduction's identity, the other truth value, a value no other lane holds) would change that result. A datapath that drops or repeats one lane shows."},

  {C::AAllEqual, "a.all_equal", S::IntValues, false, "Two or more taking-part lanes all hold one value."},
  {C::ATwoClasses, "a.two_classes", S::IntValues, false, "The taking-part lanes hold exactly two values, each on two or more lanes."},
  {C::AMoreThan16Distinct, "a.more_than_16_distinct", S::IntValues, false, "The taking-part lanes hold more than 16 distinct values."},
  {C::A32Distinct, "a.32_distinct", S::IntValues, false, "All 32 lanes take part and hold 32 distinct values."},
  {C::ASignedBoundaries, "a.signed_boundaries", S::IntValues, false, "0, -1, the most negative and the most positive value of the operand width all take part."},
  {C::ALowBitsAgree, "a.low_bits_agree", S::IntValues, false, "Two taking-part values differ, but only above bit 15."},
  {C::ASignBitOnly, "a.sign_bit_only", S::IntValues, false, "Two taking-part values differ in the top bit of the operand alone."},
  {C::AEveryBitDecides, "a.every_bit_decides", S::Match, false, "For each bit of the operand width, in some round, the taking-part values of one membermask are two that differ in that bit alone: a comparison that drops or merges any one bit would show."},
  {C::AB64EqualLowDifferHigh, "a.b64_equal_low_differ_high", S::Match64, false, "Two taking-part 64-bit values share their low half and differ in the high half."},
  {C::AB64EqualHighDifferLow, "a.b64_equal_high_differ_low", S::Match64, false, "Two taking-part 64-bit values share their high half and differ in the low half."},
  {C::ANanBitsEqual, "a.nan_bits_equal", S::Match, false, "Two taking-part lanes hold the same NaN bit pattern (a float or double of the operand width)."},
  {C::ASignedZeros, "a.signed_zeros", S::MatchOrF32, false, "Both +0.0 and -0.0 (as bit patterns of the operand width) take part."},

  {C::ResultAnySelfOnly, "result.any_self_only", S::MatchAny, false, "A lane's match.any set is the lane alone although other lanes take part."},
  {C::ResultAnyThreeClasses, "result.any_three_classes", S::MatchAny, false, "The taking-part lanes fall into three or more match.any sets."},
  {C::ResultAllAgree, "result.all_agree", S::MatchAll, false, "match.all finds two or more taking-part lanes all equal (d non-zero, p true)."},
  {C::ResultAllDiffer, "result.all_differ", S::MatchAll, false, "match.all finds the taking-part values differ (d is 0, p false)."},

  {C::AMixedPredicates, "a.mixed_predicates", S::Vote, false, "The taking-part lanes hold both true and false predicates."},
  {C::ResultTrue, "result.true", S::BoolResult, false, "The vote or block reduction answers true on some lane."},
  {C::ResultFalse, "result.false", S::BoolResult, false, "The vote or block reduction answers false on some lane."},
  {C::ResultBallotEmpty, "result.ballot_empty", S::Ballot, false, "A ballot is 0: every taking-part predicate is false."},
  {C::ResultBallotFull, "result.ballot_full", S::Ballot, false, "A ballot is 0xffffffff: all 32 lanes take part with true predicates."},
  {C::ResultBallotBit31, "result.ballot_bit31", S::Ballot, false, "A ballot has bit 31 (the sign bit) set without being full."},
  {C::ResultBallotBitsInIdleGroup, "result.ballot_bits_in_idle_group", S::Ballot, false, "A ballot sets bits in an aligned group of 8 lanes; in the next round none of those 8 lanes executes, yet a membermask names some of them (they have exited): a ballot register written only for groups of lanes that execute would keep the bits."},
  {C::ResultUniTrueWithExitedInMask, "result.uni_true_with_exited_in_mask", S::VoteUni, false, "vote.uni answers true while the membermask names an exited lane whose stale predicate differs."},
  {C::ResultTrueOverExitedInMask, "result.true_over_exited_in_mask", S::VoteAllUni, false, "vote.all or vote.uni answers true over true predicates while the membermask names exited lanes whose stale predicates are all true as well: only who counts as a member decides."},
  {C::ASingleTrue, "a.single_true", S::Vote, false, "Of two or more taking-part lanes exactly one holds a true predicate."},
  {C::ASingleTrueLane0, "a.single_true_lane0", S::Vote, false, "Of two or more taking-part lanes only lane 0 holds a true predicate: the lowest lane alone decides."},
  {C::InstrNegated, "instr.negated", S::Negatable, false, "The source predicate is negated (!a)."},
  {C::InstrNegatedExited, "instr.negated_exited", S::Negatable, false, "The source predicate is negated (!a) while a membermask names an exited lane (in a block: while threads have exited)."},
  {C::InstrNegatedMixed, "instr.negated_mixed", S::Negatable, false, "The source predicate is negated (!a) and true and false predicates take part together: negating the answer instead of each predicate would show."},
  {C::InstrNegationMatters, "instr.negation_matters", S::NegationShows, false, "The source predicate is negated (!a) and dropping the ! would change a result (for a count: as many true as false predicates would hide it)."},
  {C::APredBit0Misleads, "a.pred_bit0_misleads", S::Negatable, false, "A predicate given as an integer is true when non-zero: reading only its bit 0 would change an answer."},
  {C::APredLowByteMisleads, "a.pred_low_byte_misleads", S::Vote, false, "A predicate given as an integer is true when non-zero: reading only its low byte would change an answer."},
  {C::APredSignBitDecides, "a.pred_sign_bit_decides", S::Vote, false, "A predicate given as the integer 0x80000000 (its sign bit alone) decides an answer: reading any narrower field of it, or reading it as a signed number above 0, would call it false."},

  {C::ResultAddWraps, "result.add_wraps", S::ReduxAdd, false, "The exact sum does not fit: .u32 carries out of bit 31, .s32 leaves the int32 range."},
  {C::ResultMinMaxSignMatters, "result.minmax_sign_matters", S::ReduxMinMaxInt, false, "The unsigned and the signed minimum (maximum) of the taking-part values differ."},
  {C::ResultZeroWouldChangeWholeWarp, "result.zero_would_change_whole_warp", S::ReduxMinMaxNotZero, false, "All 32 lanes take part and a 0 taking part as well would change the result (a signed maximum below 0, a minimum above 0): a reduction that starts from 0 fails here although no lane is left out."},
  {C::ResultAtIdentity, "result.at_identity", S::ReduxInt, false, "Two or more lanes take part and the result equals the operator's identity (0 for add/or/xor, all ones for and, the type's extreme for min/max)."},
  {C::ResultWinnerLastLaneOnly, "result.winner_last_lane_only", S::ReduxMinMax, false, "The winning value is held by the highest-numbered taking-part lane alone."},
  {C::ResultBitwiseNewValue, "result.bitwise_new_value", S::ReduxBitwise, false, "The result equals none of the taking-part values: bits of several lanes combine."},
  {C::ResultAndZeroFromNonzero, "result.and_zero_from_nonzero", S::ReduxAnd, false, ".and gives 0 although no taking-part value is 0."},
  {C::ResultXorZeroFromNonzero, "result.xor_zero_from_nonzero", S::ReduxXor, false, ".xor gives 0 although some taking-part value is not 0."},

  {C::ANanPayload, "a.nan_payload", S::F32, false, "A taking-part NaN has another payload than the canonical NaN 0x7fffffff."},
  {C::ANegativeNan, "a.negative_nan", S::F32, false, "A taking-part NaN has its sign bit set."},
  {C::AAllNan, "a.all_nan", S::F32, false, "Two or more lanes take part and every one holds a NaN."},
  {C::ANanAmongNumbers, "a.nan_among_numbers", S::F32, false, "NaNs and numbers take part together."},
  {C::AInfinity, "a.infinity", S::F32, false, "An infinity takes part."},
  {C::ASubnormal, "a.subnormal", S::F32, false, "A subnormal number takes part."},
  {C::ANegativeNumbers, "a.negative_numbers", S::F32, false, "A negative number (not -0.0, not NaN) takes part."},
  {C::ResultZeroSignDecides, "result.zero_sign_decides", S::F32, false, "Both zeros take part and the result is a zero: the order of -0.0 and +0.0 decides it."},
  {C::ResultAbsChangesAnswer, "result.abs_changes_answer", S::F32Abs, false, "The same reduction without .abs gives another answer."},
  {C::ResultNanQualifierDecides, "result.nan_qualifier_decides", S::F32, false, "The same reduction with .NaN added or dropped gives another answer."},

  {C::BlockThreads32, "block.threads_32", S::Block, false, "The block has 32 threads: one full warp."},
  {C::BlockThreads33, "block.threads_33", S::Block, false, "The block has 33 threads: a second warp of one thread."},
  {C::BlockThreads64, "block.threads_64", S::Block, false, "The block has 64 threads: two full warps."},
  {C::BlockThreads96, "block.threads_96", S::Block, false, "The block has 96 threads: three warps, not a power of two."},
  {C::BlockThreads256, "block.threads_256", S::Block, false, "The block has 256 threads: more than 255."},
  {C::BlockThreads1024, "block.threads_1024", S::Block, false, "The block has 1024 threads, the most a block may hold."},
  {C::BlockPartialLastWarp, "block.partial_last_warp", S::Block, false, "The thread count is not a multiple of 32: the last warp is partial."},
  {C::BlockAllArrive, "block.all_arrive", S::Block, false, "Every thread of the block reaches the barrier."},
  {C::BlockExitedInEveryWarp, "block.exited_in_every_warp", S::Block, false, "Every warp of the block has an exited thread, and the others arrive."},
  {C::BlockOneArrives, "block.one_arrives", S::Block, false, "One thread reaches the barrier; every other thread has exited."},
  {C::BlockNoneArrive, "block.none_arrive", S::Block, false, "No thread reaches the barrier although some are alive: nothing waits, so nothing is undefined."},
  {C::BlockThreadMissing, "block.thread_missing", S::Block, true, "Some threads reach the barrier while a live thread does not."},
  {C::BlockWholeWarpExited, "block.whole_warp_exited", S::Block, false, "The exited threads fill whole warps: one warp has exited entirely and every other thread arrives."},
  {C::BlockExitedPredMatters, "block.exited_pred_matters", S::BlockRed, false, "Counting the exited threads' last predicates would change the result."},
  {C::BlockAndTrueOverExited, "block.and_true_over_exited", S::BlockAnd, false, "bar.red.and answers true while threads have exited whose last predicates are all true as well: only who counts decides."},
  {C::BlockAndSharedBitEven, "block.and_shared_bit_even", S::BlockAnd, false, "bar.red.and over predicates that share a set bit, one of them even: the answer is true, as ANDing the bits would also say, while reading bit 0 alone would say false."},
  {C::BlockPredNotBool, "block.pred_not_bool", S::BlockRed, false, "An arriving thread passes a predicate other than 0 and 1."},
  {C::BlockPredEvenNonzero, "block.pred_even_nonzero", S::BlockRed, false, "An arriving thread passes a non-zero predicate whose bit 0 is clear."},
  {C::BlockLowByteMisleads, "block.low_byte_misleads", S::BlockRed, false, "Reading only the low byte of each predicate would change the answer: some truth lives in the upper bits."},
  {C::BlockExitedZeroMatters, "block.exited_zero_matters", S::BlockRed, false, "Counting the exited threads as arriving with a predicate of 0 would change the result."},
  {C::BlockPartialWarpMatters, "block.partial_warp_matters", S::BlockRed, false, "The last warp is partial, and leaving its threads out would change the result."},
  {C::BlockPhantomThreadsMatter, "block.phantom_threads_matter", S::BlockRed, false, "The last warp is partial, and filling it up to 32 threads that arrive with a predicate of 0 (or of 1) would change the result."},
  {C::BlockCountAbove255, "block.count_above_255", S::BlockPopc, false, "The count is above 255 (it does not fit a byte)."},
  {C::BlockCountAbove511, "block.count_above_511", S::BlockPopc, false, "The count is above 511: it needs ten bits."},
  {C::BlockCount1024, "block.count_1024", S::BlockPopc, false, "All 1024 threads of the largest block count: the count needs eleven bits."},
  {C::ResultCountZero, "result.count_zero", S::BlockPopc, false, "Threads arrive and the count is 0."},
  {C::ResultCountAll, "result.count_all", S::BlockPopc, false, "More than 32 threads arrive and every one passes a true predicate."},
  {C::BlockCountOperandAbove511, "block.count_operand_above_511", S::BlockRed, false, "A barrier's thread count b is 512 or more, and reading only its low nine bits would change the outcome: a count register narrower than ten or eleven bits would show."},
  {C::BlockBarrierNumbersAlias, "block.barrier_numbers_alias", S::BlockRed, false, "Threads stand at two barriers whose numbers agree in their low three bits (such as 1 and 9) and get different answers, and reading only those bits would merge them and change the outcome."},
  {C::BlockBarriersDifferInCount, "block.barriers_differ_in_count", S::BlockRed, false, "Threads stand at two barriers with different thread counts, and giving every barrier the count of the lowest arriving thread would change the outcome."},

  {C::SeqTwoRoundsStaleWouldShow, "seq.two_rounds_stale_would_show", S::ValuedOrActive, false, "In two successive rounds a lane gets different results: a result kept from the round before would show."},
  {C::SeqMaskChanges, "seq.mask_changes", S::Masked, false, "A lane executes in two successive rounds with different membermasks."},
  {C::SeqResultBitCleared, "seq.result_bit_cleared", S::Valued, false, "A lane's result has a bit (or is true) in one round and clears it in the next: a result ORed into the one before would show."},
  {C::SeqResultBitSet, "seq.result_bit_set", S::Valued, false, "A lane's result lacks a bit (or is false) in one round and sets it in the next: a result ANDed with the one before would show."},
  {C::SeqExitBetweenRounds, "seq.exit_between_rounds", S::Any, false, "A lane or thread that takes part in one round has exited by the next."},
  {C::SeqExitedStillNamed, "seq.exited_still_named", S::Masked, false, "A lane that executes in one round has exited by the next, and an executing lane's membermask still names it."},
  {C::SeqExitedLastOperandMatters, "seq.exited_last_operand_matters", S::Valued, false, "A lane (thread) that takes part in one round has exited by the next, and letting it take part there with its operand of the earlier round would change a result."},
  {C::SeqWarpGoneLastOperandsMatter, "seq.warp_gone_last_operands_matter", S::BlockRed, false, "A whole warp that took part in one barrier has exited by the next, and letting its threads take part there with their predicates of the earlier barrier would change the result: a per-warp partial kept from before would show."},
  {C::SeqCallSiteSplit, "seq.call_site_split", S::Masked, false, "Lanes that reach the instruction from different call sites combine (and, for a form with a result, keeping each call site's lanes to themselves would change one)."},
  {C::ActivemaskExitedLane, "activemask.exited_lane", S::Activemask, false, "Lanes execute activemask while a lane has exited: an answer that kept exited lanes would show."},
  {C::ActivemaskTwoSites, "activemask.two_sites", S::Activemask, false, "Lanes execute activemask from two call sites at once: an answer that joined the two sites' lanes would show."},
  {C::ActivemaskLoneLane, "activemask.lone_lane", S::Activemask, false, "One lane executes activemask while other lanes are alive elsewhere: it must see itself alone."},
  {C::ShflBBeyond31, "shfl.b_beyond_31", S::Shfl, false, "A lane's b is 32 or more, and reading all of it instead of its low five bits would change its answer."},
  {C::ShflUpBelowZero, "shfl.up_below_zero", S::ShflUp, false, "lane - b is negative on a lane of .up: an unsigned comparison would take it for a high lane."},
  {C::ShflSegmentBelowWarp, "shfl.segment_below_warp", S::Shfl, false, "A lane's segment mask splits the warp (the intrinsics' width below 32) and ignoring it would change an answer."},
  {C::ShflOddSegmentMask, "shfl.odd_segment_mask", S::Shfl, false, "A lane's segment mask is not a run of high bits, so no width gives it."},
  {C::ShflClampCutsSegment, "shfl.clamp_cuts_segment", S::Shfl, false, "A lane's clamp bits outside the segment mask are neither all 0 nor all 1, and a bound at the segment's edge would change its answer."},
  {C::ShflOutOfRange, "shfl.out_of_range", S::Shfl, false, "A lane's source is out of range: p is false and d is the lane's own a, which differs from what the wrapped source would hold."},
  {C::ShflFromLowerSegment, "shfl.from_lower_segment", S::ShflBfly, false, "A lane of .bfly reads a lane of a lower segment (in range under the specification)."},
  {C::ShflIdxWraps, "shfl.idx_wraps", S::ShflIdx, false, "A lane of .idx names a lane beyond its segment with b, and reads within the segment."},
  {C::ShflSourceOutsideMask, "shfl.source_outside_mask", S::Shfl, false, "A lane's in-range source executes the shuffle but is not named in the reader's membermask: d is left undefined, p is not."},
  {C::ShflSourceNotExecuting, "shfl.source_not_executing", S::Shfl, false, "A lane's in-range source does not execute the shuffle (inactive or exited): d is left undefined, p is not."},
  {C::ShflBDiffersBetweenLanes, "shfl.b_differs_between_lanes", S::Shfl, false, "Lanes that execute together pass different b."},
  {C::ShflCDiffersBetweenLanes, "shfl.c_differs_between_lanes", S::Shfl, false, "Lanes that execute together pass different c."},
  {C::ShflCopiesNanOrNegativeZero, "shfl.copies_nan_or_negative_zero", S::Shfl, false, "A lane's defined d is a NaN other than the canonical one, or -0.0: a copy through a float register would change it."},
  {C::ShflDownPastLane31, "shfl.down_past_lane_31", S::ShflDown, false, "A lane of .down has lane + b past lane 31 (out of range, it reads itself), and a sum kept to five bits would wrap to a lane holding another value."},
  {C::ShflCBitBesideField, "shfl.c_bit_beside_field", S::Shfl, false, "c has bit 5 or bit 13 set, just above the clamp or the segment mask, and reading that field one bit wider would change a lane's answer."},
  {C::ShflReadsChangedLowerLane, "shfl.reads_changed_lower_lane", S::ShflNotDown, false, "A lane reads a lower lane whose own d differs from its a: results written back in ascending lane order before every lane has read would show."},
  {C::ShflReadsChangedHigherLane, "shfl.reads_changed_higher_lane", S::ShflNotUp, false, "A lane reads a higher lane whose own d differs from its a: results written back in descending lane order before every lane has read would show."},
  {C::ElectLeaderNotLowestExecuting, "elect.leader_not_lowest_executing", S::Elect, false, "An election's leader is not the warp's lowest executing lane: an election that ignored the membermask would show."},
  {C::ElectMaskElectsAgain, "elect.mask_elects_again", S::Elect, false, "A membermask elects in two rounds of one vector: a leader that changed from one election to the next would show."},
  {C::ElectExitedBelowLeader, "elect.exited_below_leader", S::Elect, false, "A lane below an election's leader has exited (no membermask names it): an election that still counted exited lanes would show."},
  {C::ElectLeaderThenFollower, "elect.leader_then_follower", S::Elect, false, "A lane leads one election and, in a later round, executes without leading: a p left over from the earlier election would show."},
  {C::ElectMaskReturnsAfterAnother, "elect.mask_returns_after_another", S::Elect, false, "A membermask elects, another membermask elects in a round between, and the first elects again: a leader remembered for the last membermask only would show."},
};
// clang-format on
static_assert(std::size(kCoverpoints) == static_cast<std::size_t>(kCoverpointCount),
              "every CoverpointId has one catalog row");

constexpr bool coverpoints_in_order() {
  for (int i = 0; i < kCoverpointCount; ++i)
    if (static_cast<int>(kCoverpoints[i].id) != i) return false;
  return true;
}
static_assert(coverpoints_in_order(), "the catalog rows are in CoverpointId order");

// Coverpoints a form lists but no vector can hit there, with the reason.
struct Unreachable {
  CoverpointId id;
  CoverScope scope;     // the forms it is unreachable on
  bool pre_volta_only;  // only on sm_6x and older
  std::string_view why;
};

constexpr std::string_view kSm6xNamesExited =
    "on sm_6x the callers' masks must together name exactly the calling lanes, so a mask that "
    "names an exited lane is undefined (syncwarp.ub.sm6x_convergence)";

constexpr std::string_view kElectNamesExited =
    "elect.sync does not excuse exited lanes from its wait, so a membermask that names one is "
    "undefined (elect.ub.peer_absent)";

constexpr Unreachable kUnreachable[] = {
    {C::ResultZeroSignDecides, S::F32Abs, false,
     "with .abs every -0.0 becomes +0.0 before the reduction, so the two zeros never meet"},
    {C::SeqCallSiteSplit, S::Shfl, false,
     "keeping each call site's lanes to themselves only takes sources out of the readers' "
     "membermasks, which leaves d undefined rather than changing it, and p does not depend on "
     "the membermask"},
    {C::SeqCallSiteSplit, S::Masked, true,
     "on sm_6x the lanes named in a membermask must reach it from one call site: split call "
     "sites are undefined there (*.ub.sm6x_convergence)"},
    {C::StatusExitedInMask, S::Syncwarp, true, kSm6xNamesExited},
    {C::StatusExitedInMask, S::Elect, false, kElectNamesExited},
    {C::SeqExitedStillNamed, S::Elect, false, kElectNamesExited},
    {C::StatusSoleSurvivor, S::Elect, false, kElectNamesExited},
    {C::SeqExitedStillNamed, S::Syncwarp, true, kSm6xNamesExited},
    {C::StatusSoleSurvivor, S::Syncwarp, true,
     "on sm_6x the callers' masks must together name exactly the calling lanes, so a full mask "
     "with exited lanes is undefined (syncwarp.ub.sm6x_convergence)"},
};

}  // namespace

std::span<const CoverpointInfo> coverpoints() {
  return kCoverpoints;
}

const CoverpointInfo& coverpoint_info(CoverpointId id) {
  return kCoverpoints[static_cast<int>(id)];
}

std::optional<CoverpointId> find_coverpoint(std::string_view key) {
  for (const auto& c : kCoverpoints)
    if (c.key == key) return c.id;
  return std::nullopt;
}

bool in_scope(CoverScope scope, FormId form) {
  const auto& f = spec::form_info(form);
  const bool f32 = f.a_type == spec::OperandType::F32;
  const bool redux = f.family == spec::Family::Redux;
  const bool bar_red = f.family == spec::Family::CtaBarrier && f.mode != spec::Mode::None;
  using Fa = spec::Family;
  using M = spec::Mode;
  switch (scope) {
    case S::Any:
      return true;
    case S::Warp:
      return spec::is_warp_form(form);
    case S::Masked:
      return spec::is_warp_form(form) && spec::has_membermask(form);
    case S::Activemask:
      return f.family == Fa::Activemask;
    case S::Elect:
      return f.family == Fa::Elect;
    case S::Shfl:
      return f.family == Fa::Shfl;
    case S::ShflUp:
      return f.family == Fa::Shfl && f.mode == M::Up;
    case S::ShflBfly:
      return f.family == Fa::Shfl && f.mode == M::Bfly;
    case S::ShflIdx:
      return f.family == Fa::Shfl && f.mode == M::Idx;
    case S::ShflDown:
      return f.family == Fa::Shfl && f.mode == M::Down;
    case S::ShflNotDown:
      return f.family == Fa::Shfl && f.mode != M::Down;
    case S::ShflNotUp:
      return f.family == Fa::Shfl && f.mode != M::Up;
    case S::Syncwarp:
      return f.family == Fa::WarpBarrier;
    case S::Collective:
      return f.family == Fa::Match || f.family == Fa::Vote || redux;
    case S::CollectiveInt:
      return f.family == Fa::Match || f.family == Fa::Vote || (redux && !f32);
    case S::Valued:
      return f.family == Fa::Match || f.family == Fa::Vote || redux || bar_red;
    case S::ValuedOrActive:
      return f.family == Fa::Match || f.family == Fa::Vote || redux || bar_red ||
             f.family == Fa::Activemask;
    case S::IntValues:
      return f.family == Fa::Match || (redux && !f32);
    case S::Match:
      return f.family == Fa::Match;
    case S::Match64:
      return f.family == Fa::Match && f.a_type == spec::OperandType::B64;
    case S::MatchAny:
      return f.family == Fa::Match && f.mode == M::Any;
    case S::MatchAll:
      return f.family == Fa::Match && f.mode == M::All;
    case S::MatchOrF32:
      return f.family == Fa::Match || (redux && f32);
    case S::Vote:
      return f.family == Fa::Vote;
    case S::Ballot:
      return f.family == Fa::Vote && f.mode == M::Ballot;
    case S::VoteUni:
      return f.family == Fa::Vote && f.mode == M::Uni;
    case S::VoteAllUni:
      return f.family == Fa::Vote && (f.mode == M::All || f.mode == M::Uni);
    case S::BoolResult:
      return f.d_type == spec::ResultType::Pred;
    case S::Negatable:
      return f.negatable;
    case S::NegationShows:
      // vote.uni asks whether the predicates agree, and negating all of them keeps them agreeing.
      return f.negatable && !(f.family == Fa::Vote && f.mode == M::Uni);
    case S::ReduxInt:
      return redux && !f32;
    case S::ReduxAdd:
      return redux && f.mode == M::Add;
    case S::ZeroMatters:
      // Every magnitude is at least +0.0 and a NaN wins anyway in max.abs.NaN.f32.
      if (redux) return f32 ? !(f.mode == M::Max && f.abs && f.nan) : spec::redux_identity(f) != 0;
      return f.family == Fa::Match || f.family == Fa::Vote;
    case S::ReduxMinMaxInt:
      return redux && !f32 && (f.mode == M::Min || f.mode == M::Max);
    case S::ReduxMinMaxNotZero:
      return redux && !f32 && (f.mode == M::Min || f.mode == M::Max) &&
             spec::redux_identity(f) != 0;
    case S::ReduxMinMax:
      return redux && (f.mode == M::Min || f.mode == M::Max);
    case S::ReduxBitwise:
      return redux && (f.mode == M::And || f.mode == M::Or || f.mode == M::Xor);
    case S::ReduxAnd:
      return redux && f.mode == M::And;
    case S::ReduxXor:
      return redux && f.mode == M::Xor;
    case S::F32:
      return redux && f32;
    case S::F32Abs:
      return redux && f32 && f.abs;
    case S::Block:
      return f.family == Fa::CtaBarrier;
    case S::BlockRed:
      return bar_red;
    case S::BlockAnd:
      return f.family == Fa::CtaBarrier && f.mode == M::And;
    case S::BlockPopc:
      return f.family == Fa::CtaBarrier && f.mode == M::Popc;
  }
  return false;
}

std::vector<FormCoverpoint> coverpoints_of(FormId form, spec::Target target) {
  std::vector<FormCoverpoint> out;
  for (const auto& c : kCoverpoints) {
    if (!in_scope(c.scope, form)) continue;
    FormCoverpoint fc{c.id, {}};
    for (const auto& u : kUnreachable)
      if (u.id == c.id && in_scope(u.scope, form) &&
          (!u.pre_volta_only || spec::is_pre_volta(target)))
        fc.unreachable = u.why;
    out.push_back(fc);
  }
  return out;
}

bool hits(CoverpointId id, const Vector& v, const std::vector<Expected>& e, spec::Target target,
          spec::PtxVersion ptx) {
  if (!in_scope(coverpoint_info(id).scope, v.instr.instr.form)) return false;
  return !detail::holding(v, e, target, ptx, std::span(&id, 1)).empty();
}

std::vector<CoverpointId> coverpoints_hit(const Vector& v, const std::vector<Expected>& e,
                                          spec::Target target, spec::PtxVersion ptx) {
  std::vector<CoverpointId> listed;
  for (const auto& c : kCoverpoints)
    if (in_scope(c.scope, v.instr.instr.form)) listed.push_back(c.id);
  return detail::holding(v, e, target, ptx, listed);
}

}  // namespace warpspec::vectors
