#pragma once
// The catalog: every instruction form and every semantic and undefined-behaviour clause, as data.
// The CLI listing, the parser, the tests and the vector generator read these tables; adding a form
// is one row here plus one semantics function.
#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "spec/target.hpp"

namespace warpspec::spec {

// ---------------------------------------------------------------- clauses

/// Stable clause identifiers. The string key (`clause_info(id).key`) is the public, stable name.
enum class ClauseId : uint8_t {
  MatchParticipants,
  MatchAnyResult,
  MatchAllResult,
  MatchAllPred,
  MatchCompareBits,
  MatchUbSelfNotInMask,
  MatchUbPeerAbsent,
  MatchUbMaskMismatch,
  VoteParticipants,
  VoteNegate,
  VoteAll,
  VoteAny,
  VoteUni,
  VoteBallot,
  VoteUbSelfNotInMask,
  VoteUbPeerAbsent,
  VoteUbMaskMismatch,
  VoteUbSm6xConvergence,
  ReduxParticipants,
  ReduxAdd,
  ReduxMinMaxInt,
  ReduxBitwise,
  ReduxF32ZeroOrder,
  ReduxF32Abs,
  ReduxF32NanSkip,
  ReduxF32NanPropagate,
  ReduxUbSelfNotInMask,
  ReduxUbPeerAbsent,
  ReduxUbMaskMismatch,
  SyncwarpExitedOk,
  SyncwarpUbSelfNotInMask,
  SyncwarpUbPeerAbsent,
  SyncwarpUbMaskMismatch,
  SyncwarpUbSm6xConvergence,
  CtaParticipants,
  CtaCount,
  CtaAnd,
  CtaOr,
  CtaUbNotReached,
  CtaNamed,
  CtaArrive,
  CtaUbBarrierRange,
  CtaUbCountNotWarpMultiple,
  CtaUbCountZero,
  CtaUbCountUnreachable,
  CtaUbCountMixed,
  CtaUbRedMixed,
  CtaUbRedPhases,
  CtaUbNotAligned,
  ActivemaskParticipants,
  ActivemaskResult,
  ShflParticipants,
  ShflSourceLane,
  ShflBound,
  ShflInRange,
  ShflCopy,
  ShflSourceUndefined,
  ShflUbSelfNotInMask,
  ShflUbPeerAbsent,
  ShflUbMaskMismatch,
  ShflUbSm6xConvergence,
  ElectParticipants,
  ElectLeader,
  ElectPred,
  ElectDeterministic,
  ElectUbSelfNotInMask,
  ElectUbPeerAbsent,
  ElectUbMaskMismatch,
  Count_
};
inline constexpr int kClauseCount = static_cast<int>(ClauseId::Count_);

/// Whether a clause states a defined result, a condition under which behaviour is undefined, or
/// a condition under which one result value is left undefined while the instruction stays
/// defined (the other results, and every other lane, are still pinned down).
enum class ClauseKind : uint8_t { Semantic, Undefined, UndefinedValue };

/// One clause: stable key, kind, a one-line paraphrase in our words, and the manual section.
struct ClauseInfo {
  ClauseId id;
  std::string_view key;
  ClauseKind kind;
  std::string_view text;
  std::string_view source;
};

inline constexpr std::string_view kSrcMatch = "PTX ISA 9.7.13.10 (match.sync)";
inline constexpr std::string_view kSrcVote = "PTX ISA 9.7.13.9 (vote.sync)";
inline constexpr std::string_view kSrcRedux = "PTX ISA 9.7.13.12 (redux.sync)";
inline constexpr std::string_view kSrcSync =
    "CUDA C++ Programming Guide 10.6 (Synchronization Functions)";
inline constexpr std::string_view kSrcBar = "PTX ISA 9.7.13.1 (bar, barrier)";
inline constexpr std::string_view kSrcActivemask = "PTX ISA 9.7.13.11 (activemask)";
inline constexpr std::string_view kSrcShfl = "PTX ISA 9.7.9.6 (shfl.sync)";
inline constexpr std::string_view kSrcElect = "PTX ISA 9.7.13 (elect.sync)";
inline constexpr std::string_view kSrcMatchFn =
    "CUDA C++ Programming Guide, Warp Match Functions (types and worked example)";

inline constexpr std::array<ClauseInfo, kClauseCount> kClauses{{
    {ClauseId::MatchParticipants, "match.participants", ClauseKind::Semantic,
     "Only non-exited lanes named in the membermask take part; exited lanes are ignored.",
     kSrcMatch},
    {ClauseId::MatchAnyResult, "match.any.result", ClauseKind::Semantic,
     "d is the set of taking-part lanes whose operand equals this lane's operand.", kSrcMatch},
    {ClauseId::MatchAllResult, "match.all.result", ClauseKind::Semantic,
     "d is the set of taking-part lanes when they all hold one value, and 0 otherwise.", kSrcMatch},
    {ClauseId::MatchAllPred, "match.all.pred", ClauseKind::Semantic,
     "The optional p is true exactly when every taking-part lane holds the same value.", kSrcMatch},
    {ClauseId::MatchCompareBits, "match.compare.bits", ClauseKind::Semantic,
     "Operands are compared as whole bit patterns of the operand width: .b64 compares all 64 bits, "
     "and float/double intrinsics compare representations (+0.0 != -0.0, equal NaN bits match).",
     kSrcMatchFn},
    {ClauseId::MatchUbSelfNotInMask, "match.ub.self_not_in_mask", ClauseKind::Undefined,
     "UB when an executing lane's own bit is clear in its membermask.", kSrcMatch},
    {ClauseId::MatchUbPeerAbsent, "match.ub.peer_absent", ClauseKind::Undefined,
     "UB when a non-exited lane named in an executing lane's membermask does not execute the "
     "instruction.",
     kSrcMatch},
    {ClauseId::MatchUbMaskMismatch, "match.ub.mask_mismatch", ClauseKind::Undefined,
     "UB when a lane named in an executing lane's membermask executes it with another membermask.",
     kSrcMatch},

    {ClauseId::VoteParticipants, "vote.participants", ClauseKind::Semantic,
     "Only non-exited lanes named in the membermask take part; exited lanes are ignored.",
     kSrcVote},
    {ClauseId::VoteNegate, "vote.negate", ClauseKind::Semantic,
     "With !a each lane's predicate is inverted before the vote (so .all of !a means 'none').",
     kSrcVote},
    {ClauseId::VoteAll, "vote.all", ClauseKind::Semantic,
     "vote.all is true when the predicate holds on every taking-part lane.", kSrcVote},
    {ClauseId::VoteAny, "vote.any", ClauseKind::Semantic,
     "vote.any is true when the predicate holds on at least one taking-part lane.", kSrcVote},
    {ClauseId::VoteUni, "vote.uni", ClauseKind::Semantic,
     "vote.uni is true when the predicate has one value across all taking-part lanes.", kSrcVote},
    {ClauseId::VoteBallot, "vote.ballot", ClauseKind::Semantic,
     "Ballot bit j is lane j's predicate when j takes part, and 0 for every other lane.", kSrcVote},
    {ClauseId::VoteUbSelfNotInMask, "vote.ub.self_not_in_mask", ClauseKind::Undefined,
     "UB when an executing lane's own bit is clear in its membermask.", kSrcVote},
    {ClauseId::VoteUbPeerAbsent, "vote.ub.peer_absent", ClauseKind::Undefined,
     "UB when a non-exited lane named in an executing lane's membermask does not execute the "
     "instruction.",
     kSrcVote},
    {ClauseId::VoteUbMaskMismatch, "vote.ub.mask_mismatch", ClauseKind::Undefined,
     "UB when a lane named in an executing lane's membermask executes it with another membermask.",
     kSrcVote},
    {ClauseId::VoteUbSm6xConvergence, "vote.ub.sm6x_convergence", ClauseKind::Undefined,
     "On sm_6x and older targets, UB unless the named lanes execute the same vote converged (one "
     "call site) and every executing lane is named by some membermask.",
     kSrcVote},

    {ClauseId::ReduxParticipants, "redux.participants", ClauseKind::Semantic,
     "Only non-exited lanes named in the membermask take part; exited lanes are ignored.",
     kSrcRedux},
    {ClauseId::ReduxAdd, "redux.add", ClauseKind::Semantic,
     ".add sums the taking-part values and keeps the low 32 bits.", kSrcRedux},
    {ClauseId::ReduxMinMaxInt, "redux.minmax.int", ClauseKind::Semantic,
     ".min/.max order values as unsigned for .u32 and as two's complement for .s32.", kSrcRedux},
    {ClauseId::ReduxBitwise, "redux.bitwise", ClauseKind::Semantic,
     ".and/.or/.xor combine the taking-part values bit by bit.", kSrcRedux},
    {ClauseId::ReduxF32ZeroOrder, "redux.f32.zero_order", ClauseKind::Semantic,
     "For .f32, -0.0 orders below +0.0 (max prefers +0.0, min prefers -0.0).", kSrcRedux},
    {ClauseId::ReduxF32Abs, "redux.f32.abs", ClauseKind::Semantic,
     "With .abs each value's sign is cleared before it enters the reduction.", kSrcRedux},
    {ClauseId::ReduxF32NanSkip, "redux.f32.nan_skip", ClauseKind::Semantic,
     "Without .NaN, NaN inputs are left out; if every input is NaN the result is the canonical "
     "NaN.",
     kSrcRedux},
    {ClauseId::ReduxF32NanPropagate, "redux.f32.nan_propagate", ClauseKind::Semantic,
     "With .NaN, any NaN input makes the result the canonical NaN.", kSrcRedux},
    {ClauseId::ReduxUbSelfNotInMask, "redux.ub.self_not_in_mask", ClauseKind::Undefined,
     "UB when an executing lane's own bit is clear in its membermask.", kSrcRedux},
    {ClauseId::ReduxUbPeerAbsent, "redux.ub.peer_absent", ClauseKind::Undefined,
     "UB when a non-exited lane named in an executing lane's membermask does not execute the "
     "instruction.",
     kSrcRedux},
    {ClauseId::ReduxUbMaskMismatch, "redux.ub.mask_mismatch", ClauseKind::Undefined,
     "UB when a lane named in an executing lane's membermask executes it with another membermask.",
     kSrcRedux},

    {ClauseId::SyncwarpExitedOk, "syncwarp.exited_ok", ClauseKind::Semantic,
     "Exited lanes named in the mask need not arrive; the barrier completes without them.",
     kSrcSync},
    {ClauseId::SyncwarpUbSelfNotInMask, "syncwarp.ub.self_not_in_mask", ClauseKind::Undefined,
     "UB when a calling lane's own bit is clear in its mask.", kSrcSync},
    {ClauseId::SyncwarpUbPeerAbsent, "syncwarp.ub.peer_absent", ClauseKind::Undefined,
     "UB when a non-exited lane named in a caller's mask does not call __syncwarp.", kSrcSync},
    {ClauseId::SyncwarpUbMaskMismatch, "syncwarp.ub.mask_mismatch", ClauseKind::Undefined,
     "UB when a lane named in a caller's mask calls __syncwarp with another mask.", kSrcSync},
    {ClauseId::SyncwarpUbSm6xConvergence, "syncwarp.ub.sm6x_convergence", ClauseKind::Undefined,
     "On sm_6x and older targets, UB unless the callers are converged (one call site) and the "
     "union of their masks equals the set of lanes executing it.",
     kSrcSync},

    {ClauseId::CtaParticipants, "cta.participants", ClauseKind::Semantic,
     "A block barrier's reduction ranges over the threads that reach the same barrier number; "
     "exited threads count for nothing.",
     kSrcSync},
    {ClauseId::CtaCount, "cta.count", ClauseKind::Semantic,
     "__syncthreads_count returns how many taking-part threads passed a non-zero predicate.",
     kSrcSync},
    {ClauseId::CtaAnd, "cta.and", ClauseKind::Semantic,
     "__syncthreads_and is non-zero exactly when every taking-part thread passed a non-zero "
     "predicate.",
     kSrcSync},
    {ClauseId::CtaOr, "cta.or", ClauseKind::Semantic,
     "__syncthreads_or is non-zero exactly when some taking-part thread passed a non-zero "
     "predicate.",
     kSrcSync},
    {ClauseId::CtaUbNotReached, "cta.ub.not_reached", ClauseKind::Undefined,
     "UB (a hang, in practice) when a waiting thread's barrier never completes: a non-exited "
     "thread of its warp is elsewhere, or the warps that arrive do not fill the thread count "
     "(without a count: some non-exited thread of the block is elsewhere).",
     kSrcBar},
    {ClauseId::CtaNamed, "cta.named", ClauseKind::Semantic,
     "Each block has barriers 0-15; a warp arrives at barrier a once all its non-exited threads "
     "have; with a thread count b the barrier completes each time b/32 warps have arrived, "
     "without one once every warp with a non-exited thread has; threads elsewhere take no part.",
     kSrcBar},
    {ClauseId::CtaArrive, "cta.arrive", ClauseKind::Semantic,
     "bar.arrive marks its warp's arrival and goes on: it waits for no other warp and receives "
     "no value; its arrival counts towards the barrier's thread count.",
     kSrcBar},
    {ClauseId::CtaUbBarrierRange, "cta.ub.barrier_range", ClauseKind::Undefined,
     "UB when the barrier number a is above 15.", kSrcBar},
    {ClauseId::CtaUbCountNotWarpMultiple, "cta.ub.count_not_warp_multiple", ClauseKind::Undefined,
     "UB when a thread count b is not a multiple of the warp size (32).", kSrcBar},
    {ClauseId::CtaUbCountZero, "cta.ub.count_zero", ClauseKind::Undefined,
     "UB when bar.arrive gives a thread count of zero (stated), or bar.sync/bar.red does (our "
     "reading: a count of no threads, while the caller itself takes part).",
     kSrcBar},
    {ClauseId::CtaUbCountUnreachable, "cta.ub.count_unreachable", ClauseKind::Undefined,
     "UB when a thread count is larger than the block's warps can ever supply (32 per warp).",
     kSrcBar},
    {ClauseId::CtaUbCountMixed, "cta.ub.count_mixed", ClauseKind::Undefined,
     "UB when threads at one barrier give different thread counts (the text allows mixing "
     "forms only with the same barrier number and count).",
     kSrcBar},
    {ClauseId::CtaUbRedMixed, "cta.ub.red_mixed", ClauseKind::Undefined,
     "UB when bar.red and bar.sync or bar.arrive meet at the same barrier.", kSrcBar},
    {ClauseId::CtaUbRedPhases, "cta.ub.red_phases", ClauseKind::Undefined,
     "UB (our reading) when more warps reach a bar.red than its thread count admits: which warps "
     "reduce together is then the scheduler's choice, so no value is pinned down.",
     kSrcBar},
    {ClauseId::CtaUbNotAligned, "cta.ub.not_aligned", ClauseKind::Undefined,
     "UB when threads of one warp reach the barrier through different instructions (bar.sync "
     "and bar.arrive): the bar spellings are .aligned, so a warp runs one of them (our reading "
     "for barrier without .aligned too, which one step cannot tell apart).",
     kSrcBar},

    {ClauseId::ActivemaskParticipants, "activemask.participants", ClauseKind::Semantic,
     "Only lanes executing this instance of the instruction (the same call site) are set; exited "
     "lanes and lanes elsewhere in the program are clear.",
     kSrcActivemask},
    {ClauseId::ActivemaskResult, "activemask.result", ClauseKind::Semantic,
     "Every lane executing it from one call site gets the same word, its own bit included; "
     "there is no membermask and no undefined case.",
     kSrcActivemask},

    {ClauseId::ShflParticipants, "shfl.participants", ClauseKind::Semantic,
     "The lanes named in the membermask meet (exited ones are not waited for); each executing "
     "lane then reads one source lane chosen by its own b and c.",
     kSrcShfl},
    {ClauseId::ShflSourceLane, "shfl.source_lane", ClauseKind::Semantic,
     "The source lane comes from b's low five bits: lane - b (.up), lane + b (.down), lane xor b "
     "(.bfly), or the segment's first lane with b's bits outside the segment mask (.idx).",
     kSrcShfl},
    {ClauseId::ShflBound, "shfl.bound", ClauseKind::Semantic,
     "c[12:8] is a segment mask and c[4:0] a clamp: a segment starts at lane & segmask, and its "
     "bound is that start with the clamp's bits outside the segment mask added.",
     kSrcShfl},
    {ClauseId::ShflInRange, "shfl.in_range", ClauseKind::Semantic,
     "The source lane is in range when it is at or above the bound (.up) or at or below it "
     "(others); p says whether it was, and out of range the lane reads its own a.",
     kSrcShfl},
    {ClauseId::ShflCopy, "shfl.copy", ClauseKind::Semantic,
     "d is the a of the lane read, bit for bit: its 32 bits, or for CUDA's 64-bit overloads "
     "both words, each moved by a b32 shuffle with the same b and c.",
     kSrcShfl},
    {ClauseId::ShflSourceUndefined, "shfl.source_undefined", ClauseKind::UndefinedValue,
     "d is undefined (p is not) when the lane read does not execute the instruction or is not "
     "named in the reader's membermask.",
     kSrcShfl},
    {ClauseId::ShflUbSelfNotInMask, "shfl.ub.self_not_in_mask", ClauseKind::Undefined,
     "UB when an executing lane's own bit is clear in its membermask.", kSrcShfl},
    {ClauseId::ShflUbPeerAbsent, "shfl.ub.peer_absent", ClauseKind::Undefined,
     "UB when a non-exited lane named in an executing lane's membermask does not execute the "
     "instruction.",
     kSrcShfl},
    {ClauseId::ShflUbMaskMismatch, "shfl.ub.mask_mismatch", ClauseKind::Undefined,
     "UB when a lane named in an executing lane's membermask executes it with another membermask.",
     kSrcShfl},
    {ClauseId::ShflUbSm6xConvergence, "shfl.ub.sm6x_convergence", ClauseKind::Undefined,
     "On sm_6x and older targets, UB unless the named lanes execute the same shuffle converged "
     "(one call site) and every executing lane is named by some membermask.",
     kSrcShfl},
    {ClauseId::ElectParticipants, "elect.participants", ClauseKind::Semantic,
     "Lanes that pass the same membermask hold one election among the lanes it names.",
     kSrcElect},
    {ClauseId::ElectLeader, "elect.leader", ClauseKind::Semantic,
     "d is the lane number of one lane of the membermask, the same on every lane of the election; "
     "which lane is left to the implementation.",
     kSrcElect},
    {ClauseId::ElectPred, "elect.pred", ClauseKind::Semantic,
     "p is true on the elected lane and false on every other lane of the election.", kSrcElect},
    {ClauseId::ElectDeterministic, "elect.deterministic", ClauseKind::Semantic,
     "The same membermask elects the same lane every time.", kSrcElect},
    {ClauseId::ElectUbSelfNotInMask, "elect.ub.self_not_in_mask", ClauseKind::Undefined,
     "UB when an executing lane's own bit is clear in its membermask.", kSrcElect},
    {ClauseId::ElectUbPeerAbsent, "elect.ub.peer_absent", ClauseKind::Undefined,
     "UB when a lane named in an executing lane's membermask does not execute the instruction; "
     "unlike the other warp forms, an exited lane is not excused.",
     kSrcElect},
    {ClauseId::ElectUbMaskMismatch, "elect.ub.mask_mismatch", ClauseKind::Undefined,
     "UB when a lane named in an executing lane's membermask executes it with another "
     "membermask (the text is silent; read as for the other warp forms).",
     kSrcElect},
}};

constexpr bool clauses_in_order() {
  for (int i = 0; i < kClauseCount; ++i)
    if (static_cast<int>(kClauses[i].id) != i) return false;
  return true;
}
static_assert(clauses_in_order(), "every ClauseId has exactly one row, in enum order");

/// The catalog row of a clause.
constexpr const ClauseInfo& clause_info(ClauseId id) {
  return kClauses[static_cast<int>(id)];
}

// ---------------------------------------------------------------- forms

/// Every instruction form in the catalog.
enum class FormId : uint8_t {
  MatchAnyB32,
  MatchAnyB64,
  MatchAllB32,
  MatchAllB64,
  VoteAll,
  VoteAny,
  VoteUni,
  VoteBallot,
  ReduxAddU32,
  ReduxAddS32,
  ReduxMinU32,
  ReduxMinS32,
  ReduxMaxU32,
  ReduxMaxS32,
  ReduxAnd,
  ReduxOr,
  ReduxXor,
  ReduxMinF32,
  ReduxMinAbsF32,
  ReduxMinNanF32,
  ReduxMinAbsNanF32,
  ReduxMaxF32,
  ReduxMaxAbsF32,
  ReduxMaxNanF32,
  ReduxMaxAbsNanF32,
  BarWarpSync,
  BarSync,
  BarRedPopc,
  BarRedAnd,
  BarRedOr,
  Activemask,
  ShflUp,
  ShflDown,
  ShflBfly,
  ShflIdx,
  ElectSync,
  BarArrive,  // last, so that the forms before it keep their numbers (generator seeds use them)
  Count_
};
inline constexpr int kFormCount = static_cast<int>(FormId::Count_);

/// Instruction families; each has one semantics header.
enum class Family : uint8_t {
  Match, Vote, Redux, WarpBarrier, CtaBarrier, Activemask, Shfl, Elect
};

/// What the source operand `a` holds.
enum class OperandType : uint8_t { None, B32, B64, Pred, U32, S32, F32 };

/// What the destination `d` holds.
enum class ResultType : uint8_t { None, Mask32, Pred, B32, U32, S32, F32 };

/// Mode of a form within its family (match any/all, vote modes, redux operators, bar.red modes,
/// shuffle modes).
enum class Mode : uint8_t {
  None, Any, All, Uni, Ballot, Add, Min, Max, And, Or, Xor, Popc, Up, Down, Bfly, Idx
};

/// One instruction form.
struct FormInfo {
  FormId id;
  std::string_view name;    ///< canonical opcode with qualifiers, e.g. "match.all.sync.b64"
  std::string_view syntax;  ///< operands as written in PTX
  Family family;
  Mode mode;
  OperandType a_type;
  ResultType d_type;
  bool negatable = false;   ///< accepts `{!}a`
  bool optional_p = false;  ///< `d|p` with `_` allowed for one of them
  bool abs = false;         ///< .abs (f32 redux)
  bool nan = false;         ///< .NaN (f32 redux)
  Availability avail{};
  std::span<const ClauseId> clauses{};
};

/// The UB clauses of each warp family, in the order its semantics report them: a lane outside
/// its own membermask, a named lane absent, membermasks that disagree, and (vote,
/// bar.warp.sync) the sm_6x convergence rule. The forms' clause lists, the semantics and the fast
/// implementation all read them from here.
inline constexpr ClauseId kMatchUb[] = {ClauseId::MatchUbSelfNotInMask, ClauseId::MatchUbPeerAbsent,
                                        ClauseId::MatchUbMaskMismatch};
inline constexpr ClauseId kVoteUb[] = {ClauseId::VoteUbSelfNotInMask, ClauseId::VoteUbPeerAbsent,
                                       ClauseId::VoteUbMaskMismatch,
                                       ClauseId::VoteUbSm6xConvergence};
inline constexpr ClauseId kReduxUb[] = {ClauseId::ReduxUbSelfNotInMask, ClauseId::ReduxUbPeerAbsent,
                                        ClauseId::ReduxUbMaskMismatch};
inline constexpr ClauseId kShflUb[] = {ClauseId::ShflUbSelfNotInMask, ClauseId::ShflUbPeerAbsent,
                                       ClauseId::ShflUbMaskMismatch,
                                       ClauseId::ShflUbSm6xConvergence};
inline constexpr ClauseId kElectUb[] = {ClauseId::ElectUbSelfNotInMask, ClauseId::ElectUbPeerAbsent,
                                        ClauseId::ElectUbMaskMismatch};
inline constexpr ClauseId kSyncwarpUb[] = {
    ClauseId::SyncwarpUbSelfNotInMask, ClauseId::SyncwarpUbPeerAbsent,
    ClauseId::SyncwarpUbMaskMismatch, ClauseId::SyncwarpUbSm6xConvergence};

/// The block barriers' UB clauses, in the order spec::eval_cta reports them; each form lists the
/// ones that can fire for it, in this order.
inline constexpr ClauseId kCtaUb[] = {
    ClauseId::CtaUbNotReached,       ClauseId::CtaUbBarrierRange,    ClauseId::CtaUbCountNotWarpMultiple,
    ClauseId::CtaUbCountZero,        ClauseId::CtaUbCountUnreachable, ClauseId::CtaUbCountMixed,
    ClauseId::CtaUbRedMixed,         ClauseId::CtaUbRedPhases,         ClauseId::CtaUbNotAligned};

namespace detail {
using C = ClauseId;
// A form's clause list: its own clauses, then its family's UB clauses.
template <std::size_t N, std::size_t M>
constexpr std::array<C, N + M> with_ub(const C (&own)[N], const C (&ub)[M]) {
  std::array<C, N + M> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = own[i];
  for (std::size_t i = 0; i < M; ++i) out[N + i] = ub[i];
  return out;
}
inline constexpr auto kMatchAny =
    with_ub({C::MatchParticipants, C::MatchAnyResult, C::MatchCompareBits}, kMatchUb);
inline constexpr auto kMatchAll = with_ub(
    {C::MatchParticipants, C::MatchAllResult, C::MatchAllPred, C::MatchCompareBits}, kMatchUb);
inline constexpr auto kVoteAll = with_ub({C::VoteParticipants, C::VoteNegate, C::VoteAll}, kVoteUb);
inline constexpr auto kVoteAny = with_ub({C::VoteParticipants, C::VoteNegate, C::VoteAny}, kVoteUb);
inline constexpr auto kVoteUni = with_ub({C::VoteParticipants, C::VoteNegate, C::VoteUni}, kVoteUb);
inline constexpr auto kVoteBallot =
    with_ub({C::VoteParticipants, C::VoteNegate, C::VoteBallot}, kVoteUb);
inline constexpr auto kReduxAdd = with_ub({C::ReduxParticipants, C::ReduxAdd}, kReduxUb);
inline constexpr auto kReduxMinMax = with_ub({C::ReduxParticipants, C::ReduxMinMaxInt}, kReduxUb);
inline constexpr auto kReduxBitwise = with_ub({C::ReduxParticipants, C::ReduxBitwise}, kReduxUb);
inline constexpr auto kReduxF32 =
    with_ub({C::ReduxParticipants, C::ReduxF32ZeroOrder, C::ReduxF32NanSkip}, kReduxUb);
// With .abs no -0.0 reaches the reduction, so the zero-order rule has nothing to decide there.
inline constexpr auto kReduxF32Abs =
    with_ub({C::ReduxParticipants, C::ReduxF32Abs, C::ReduxF32NanSkip}, kReduxUb);
inline constexpr auto kReduxF32Nan =
    with_ub({C::ReduxParticipants, C::ReduxF32ZeroOrder, C::ReduxF32NanPropagate}, kReduxUb);
inline constexpr auto kReduxF32AbsNan =
    with_ub({C::ReduxParticipants, C::ReduxF32Abs, C::ReduxF32NanPropagate}, kReduxUb);
inline constexpr auto kSyncwarp = with_ub({C::SyncwarpExitedOk}, kSyncwarpUb);
inline constexpr C kCtaWaitUb[] = {C::CtaUbNotReached,       C::CtaUbBarrierRange,
                                   C::CtaUbCountNotWarpMultiple, C::CtaUbCountZero,
                                   C::CtaUbCountUnreachable, C::CtaUbCountMixed,
                                   C::CtaUbNotAligned};
inline constexpr C kCtaRedUb[] = {C::CtaUbNotReached,       C::CtaUbBarrierRange,
                                  C::CtaUbCountNotWarpMultiple, C::CtaUbCountZero,
                                  C::CtaUbCountUnreachable, C::CtaUbCountMixed,
                                  C::CtaUbRedMixed,         C::CtaUbRedPhases,
                                  C::CtaUbNotAligned};
inline constexpr auto kBarSync = with_ub({C::CtaParticipants, C::CtaNamed, C::CtaArrive}, kCtaWaitUb);
inline constexpr auto kBarArrive = with_ub({C::CtaParticipants, C::CtaNamed, C::CtaArrive}, kCtaWaitUb);
inline constexpr auto kBarPopc = with_ub({C::CtaParticipants, C::CtaCount, C::CtaNamed}, kCtaRedUb);
inline constexpr auto kBarAnd = with_ub({C::CtaParticipants, C::CtaAnd, C::CtaNamed}, kCtaRedUb);
inline constexpr auto kBarOr = with_ub({C::CtaParticipants, C::CtaOr, C::CtaNamed}, kCtaRedUb);
inline constexpr C kActivemask[] = {C::ActivemaskParticipants, C::ActivemaskResult};
inline constexpr auto kShfl = with_ub({C::ShflParticipants, C::ShflSourceLane, C::ShflBound,
                                       C::ShflInRange, C::ShflCopy, C::ShflSourceUndefined},
                                      kShflUb);
inline constexpr auto kElect = with_ub(
    {C::ElectParticipants, C::ElectLeader, C::ElectPred, C::ElectDeterministic}, kElectUb);

inline constexpr Availability kAvMatch{{6, 0}, 70, ArchRule::AtLeast};
inline constexpr Availability kAvVote{{6, 0}, 30, ArchRule::AtLeast};
inline constexpr Availability kAvRedux{{7, 0}, 80, ArchRule::AtLeast};
inline constexpr Availability kAvReduxF32{{8, 6}, 100, ArchRule::Sm100aOrSm100f};
inline constexpr Availability kAvReduxF32Q{{8, 6}, 100, ArchRule::Sm100aOrFamily100f};
inline constexpr Availability kAvBarWarp{{6, 0}, 30, ArchRule::AtLeast};
inline constexpr Availability kAvBarSync{{1, 0}, 10, ArchRule::AtLeast};
inline constexpr Availability kAvBarRed{{2, 0}, 20, ArchRule::AtLeast};
inline constexpr Availability kAvActivemask{{6, 2}, 30, ArchRule::AtLeast};
inline constexpr Availability kAvShfl{{6, 0}, 30, ArchRule::AtLeast};
inline constexpr Availability kAvElect{{8, 0}, 90, ArchRule::AtLeast};
}  // namespace detail

// clang-format off
namespace detail {
using F = FormId; using Fa = Family; using M = Mode; using O = OperandType; using R = ResultType;
}  // namespace detail

inline constexpr std::array<FormInfo, kFormCount> kForms = [] {
  using namespace detail;
  return std::array<FormInfo, kFormCount>{{
    {F::MatchAnyB32, "match.any.sync.b32", "d, a, membermask", Fa::Match, M::Any, O::B32, R::Mask32, false, false, false, false, kAvMatch, kMatchAny},
    {F::MatchAnyB64, "match.any.sync.b64", "d, a, membermask", Fa::Match, M::Any, O::B64, R::Mask32, false, false, false, false, kAvMatch, kMatchAny},
    {F::MatchAllB32, "match.all.sync.b32", "d[|p], a, membermask", Fa::Match, M::All, O::B32, R::Mask32, false, true, false, false, kAvMatch, kMatchAll},
    {F::MatchAllB64, "match.all.sync.b64", "d[|p], a, membermask", Fa::Match, M::All, O::B64, R::Mask32, false, true, false, false, kAvMatch, kMatchAll},
    {F::VoteAll, "vote.sync.all.pred", "d, {!}a, membermask", Fa::Vote, M::All, O::Pred, R::Pred, true, false, false, false, kAvVote, kVoteAll},
    {F::VoteAny, "vote.sync.any.pred", "d, {!}a, membermask", Fa::Vote, M::Any, O::Pred, R::Pred, true, false, false, false, kAvVote, kVoteAny},
    {F::VoteUni, "vote.sync.uni.pred", "d, {!}a, membermask", Fa::Vote, M::Uni, O::Pred, R::Pred, true, false, false, false, kAvVote, kVoteUni},
    {F::VoteBallot, "vote.sync.ballot.b32", "d, {!}a, membermask", Fa::Vote, M::Ballot, O::Pred, R::Mask32, true, false, false, false, kAvVote, kVoteBallot},
    {F::ReduxAddU32, "redux.sync.add.u32", "d, a, membermask", Fa::Redux, M::Add, O::U32, R::U32, false, false, false, false, kAvRedux, kReduxAdd},
    {F::ReduxAddS32, "redux.sync.add.s32", "d, a, membermask", Fa::Redux, M::Add, O::S32, R::S32, false, false, false, false, kAvRedux, kReduxAdd},
    {F::ReduxMinU32, "redux.sync.min.u32", "d, a, membermask", Fa::Redux, M::Min, O::U32, R::U32, false, false, false, false, kAvRedux, kReduxMinMax},
    {F::ReduxMinS32, "redux.sync.min.s32", "d, a, membermask", Fa::Redux, M::Min, O::S32, R::S32, false, false, false, false, kAvRedux, kReduxMinMax},
    {F::ReduxMaxU32, "redux.sync.max.u32", "d, a, membermask", Fa::Redux, M::Max, O::U32, R::U32, false, false, false, false, kAvRedux, kReduxMinMax},
    {F::ReduxMaxS32, "redux.sync.max.s32", "d, a, membermask", Fa::Redux, M::Max, O::S32, R::S32, false, false, false, false, kAvRedux, kReduxMinMax},
    {F::ReduxAnd, "redux.sync.and.b32", "d, a, membermask", Fa::Redux, M::And, O::B32, R::B32, false, false, false, false, kAvRedux, kReduxBitwise},
    {F::ReduxOr, "redux.sync.or.b32", "d, a, membermask", Fa::Redux, M::Or, O::B32, R::B32, false, false, false, false, kAvRedux, kReduxBitwise},
    {F::ReduxXor, "redux.sync.xor.b32", "d, a, membermask", Fa::Redux, M::Xor, O::B32, R::B32, false, false, false, false, kAvRedux, kReduxBitwise},
    {F::ReduxMinF32, "redux.sync.min.f32", "d, a, membermask", Fa::Redux, M::Min, O::F32, R::F32, false, false, false, false, kAvReduxF32, kReduxF32},
    {F::ReduxMinAbsF32, "redux.sync.min.abs.f32", "d, a, membermask", Fa::Redux, M::Min, O::F32, R::F32, false, false, true, false, kAvReduxF32Q, kReduxF32Abs},
    {F::ReduxMinNanF32, "redux.sync.min.NaN.f32", "d, a, membermask", Fa::Redux, M::Min, O::F32, R::F32, false, false, false, true, kAvReduxF32Q, kReduxF32Nan},
    {F::ReduxMinAbsNanF32, "redux.sync.min.abs.NaN.f32", "d, a, membermask", Fa::Redux, M::Min, O::F32, R::F32, false, false, true, true, kAvReduxF32Q, kReduxF32AbsNan},
    {F::ReduxMaxF32, "redux.sync.max.f32", "d, a, membermask", Fa::Redux, M::Max, O::F32, R::F32, false, false, false, false, kAvReduxF32, kReduxF32},
    {F::ReduxMaxAbsF32, "redux.sync.max.abs.f32", "d, a, membermask", Fa::Redux, M::Max, O::F32, R::F32, false, false, true, false, kAvReduxF32Q, kReduxF32Abs},
    {F::ReduxMaxNanF32, "redux.sync.max.NaN.f32", "d, a, membermask", Fa::Redux, M::Max, O::F32, R::F32, false, false, false, true, kAvReduxF32Q, kReduxF32Nan},
    {F::ReduxMaxAbsNanF32, "redux.sync.max.abs.NaN.f32", "d, a, membermask", Fa::Redux, M::Max, O::F32, R::F32, false, false, true, true, kAvReduxF32Q, kReduxF32AbsNan},
    {F::BarWarpSync, "bar.warp.sync", "membermask", Fa::WarpBarrier, M::None, O::None, R::None, false, false, false, false, kAvBarWarp, kSyncwarp},
    {F::BarSync, "bar.sync", "a{, b}", Fa::CtaBarrier, M::None, O::None, R::None, false, false, false, false, kAvBarSync, kBarSync},
    {F::BarRedPopc, "bar.red.popc.u32", "d, a{, b}, {!}c", Fa::CtaBarrier, M::Popc, O::Pred, R::U32, true, false, false, false, kAvBarRed, kBarPopc},
    {F::BarRedAnd, "bar.red.and.pred", "d, a{, b}, {!}c", Fa::CtaBarrier, M::And, O::Pred, R::Pred, true, false, false, false, kAvBarRed, kBarAnd},
    {F::BarRedOr, "bar.red.or.pred", "d, a{, b}, {!}c", Fa::CtaBarrier, M::Or, O::Pred, R::Pred, true, false, false, false, kAvBarRed, kBarOr},
    {F::Activemask, "activemask.b32", "d", Fa::Activemask, M::None, O::None, R::Mask32, false, false, false, false, kAvActivemask, kActivemask},
    {F::ShflUp, "shfl.sync.up.b32", "d[|p], a, b, c, membermask", Fa::Shfl, M::Up, O::B32, R::B32, false, true, false, false, kAvShfl, kShfl},
    {F::ShflDown, "shfl.sync.down.b32", "d[|p], a, b, c, membermask", Fa::Shfl, M::Down, O::B32, R::B32, false, true, false, false, kAvShfl, kShfl},
    {F::ShflBfly, "shfl.sync.bfly.b32", "d[|p], a, b, c, membermask", Fa::Shfl, M::Bfly, O::B32, R::B32, false, true, false, false, kAvShfl, kShfl},
    {F::ShflIdx, "shfl.sync.idx.b32", "d[|p], a, b, c, membermask", Fa::Shfl, M::Idx, O::B32, R::B32, false, true, false, false, kAvShfl, kShfl},
    {F::ElectSync, "elect.sync", "d|p, membermask", Fa::Elect, M::None, O::None, R::U32, false, true, false, false, kAvElect, kElect},
    {F::BarArrive, "bar.arrive", "a, b", Fa::CtaBarrier, M::None, O::None, R::None, false, false, false, false, kAvBarRed, kBarArrive},
  }};
}();
// clang-format on

constexpr bool forms_in_order() {
  for (int i = 0; i < kFormCount; ++i)
    if (static_cast<int>(kForms[i].id) != i || kForms[i].clauses.empty()) return false;
  return true;
}
static_assert(forms_in_order(), "every FormId has exactly one row, in enum order, with clauses");

/// The catalog row of a form.
constexpr const FormInfo& form_info(FormId id) {
  return kForms[static_cast<int>(id)];
}

/// The clause that says which lanes (threads) a form combines or waits for: the first of its
/// clauses (checked below).
constexpr ClauseId participants_clause(FormId id) {
  return form_info(id).clauses.front();
}

constexpr bool participants_first() {
  for (const auto& f : kForms) {
    const auto key = clause_info(f.clauses.front()).key;
    if (!key.ends_with(".participants") && f.clauses.front() != ClauseId::SyncwarpExitedOk)
      return false;
  }
  return true;
}
static_assert(participants_first(), "every form lists its participants clause first");

/// The UB clauses of a warp form's family in the order its semantics report them (empty for the
/// block barriers).
constexpr std::span<const ClauseId> warp_ub_clauses(FormId id) {
  switch (form_info(id).family) {
    case Family::Match:
      return kMatchUb;
    case Family::Vote:
      return kVoteUb;
    case Family::Redux:
      return kReduxUb;
    case Family::WarpBarrier:
      return kSyncwarpUb;
    case Family::Shfl:
      return kShflUb;
    case Family::Elect:
      return kElectUb;
    case Family::CtaBarrier:
    case Family::Activemask:
      break;
  }
  return {};
}

/// The most UB clauses one warp form has.
inline constexpr std::size_t kMaxWarpUb = std::max(
    {std::size(kMatchUb), std::size(kVoteUb), std::size(kReduxUb), std::size(kSyncwarpUb),
     std::size(kShflUb), std::size(kElectUb)});

// Every warp form's clause list ends with its family's UB clauses, and those are UB clauses:
// the semantics report them in that order, and the fast implementation reads them from there.
constexpr bool ub_lists_agree() {
  for (const auto& f : kForms) {
    const auto ub = warp_ub_clauses(f.id);
    if (f.clauses.size() < ub.size()) return false;
    for (std::size_t i = 0; i < ub.size(); ++i) {
      if (f.clauses[f.clauses.size() - ub.size() + i] != ub[i]) return false;
      if (clause_info(ub[i]).kind != ClauseKind::Undefined) return false;
    }
  }
  return true;
}
static_assert(ub_lists_agree(), "each warp form's clauses end with its family's UB clauses");

/// True for forms evaluated over a warp (everything but the block-wide barriers).
constexpr bool is_warp_form(FormId id) {
  return form_info(id).family != Family::CtaBarrier;
}

/// The form a block barrier's partner threads use (CtaState::partner): bar.arrive beside bar.sync,
/// bar.sync beside bar.arrive and beside bar.red (which must not meet it: cta.ub.red_mixed).
constexpr std::string_view partner_name(FormId id) {
  return id == FormId::BarSync ? "bar.arrive" : "bar.sync";
}

/// True for forms whose lanes pass a membermask (all warp forms but activemask); the catalog's
/// operand syntax says it.
constexpr bool has_membermask(FormId id) {
  return form_info(id).syntax.find("membermask") != std::string_view::npos;
}

/// True for forms whose lanes pass the per-lane operands `b` and `c` (the shuffles); the
/// catalog's operand syntax says it.
constexpr bool has_operands_bc(FormId id) {
  return form_info(id).syntax.find(", b, c,") != std::string_view::npos;
}

/// True for forms whose `d` the specification constrains without determining it: elect.sync's
/// leader is some lane of the membermask, the same one every time for the same membermask. The
/// model reports one admissible answer (the lowest lane, as sm_90 elects: observed); `check`
/// accepts every admissible one.
constexpr bool has_chosen_leader(FormId id) {
  return form_info(id).family == Family::Elect;
}

/// True for forms with a clause that can leave `d` alone undefined (kind UndefinedValue).
constexpr bool has_loose_d(FormId id) {
  for (auto c : form_info(id).clauses)
    if (kClauses[static_cast<int>(c)].kind == ClauseKind::UndefinedValue) return true;
  return false;
}

/// Looks a form up by its canonical name (e.g. "vote.sync.ballot.b32").
std::optional<FormId> find_form(std::string_view name);

/// Looks a clause up by its stable key (e.g. "match.ub.peer_absent").
std::optional<ClauseId> find_clause(std::string_view key);

// ---------------------------------------------------------------- CUDA intrinsics

/// How a C++ argument is carried in the PTX operand.
enum class CType : uint8_t {
  Void,
  Int,
  Unsigned,
  Long,
  UnsignedLong,
  LongLong,
  UnsignedLongLong,
  Float,
  Double
};

/// One CUDA intrinsic overload and the form it lowers to.
struct IntrinsicInfo {
  std::string_view name;  ///< e.g. "__match_any_sync"
  CType value_type;       ///< type of the value argument (Void for __syncwarp/__syncthreads)
  std::string_view signature;
  FormId form;
  bool has_mask;          ///< takes a membermask first argument
  bool pred_out = false;  ///< writes a predicate through its last pointer argument (match_all)
};

// clang-format off
inline constexpr IntrinsicInfo kIntrinsics[] = {
  {"__match_any_sync", CType::Int, "unsigned __match_any_sync(unsigned mask, int value)", FormId::MatchAnyB32, true},
  {"__match_any_sync", CType::Unsigned, "unsigned __match_any_sync(unsigned mask, unsigned value)", FormId::MatchAnyB32, true},
  {"__match_any_sync", CType::Long, "unsigned __match_any_sync(unsigned mask, long value)", FormId::MatchAnyB64, true},
  {"__match_any_sync", CType::UnsignedLong, "unsigned __match_any_sync(unsigned mask, unsigned long value)", FormId::MatchAnyB64, true},
  {"__match_any_sync", CType::LongLong, "unsigned __match_any_sync(unsigned mask, long long value)", FormId::MatchAnyB64, true},
  {"__match_any_sync", CType::UnsignedLongLong, "unsigned __match_any_sync(unsigned mask, unsigned long long value)", FormId::MatchAnyB64, true},
  {"__match_any_sync", CType::Float, "unsigned __match_any_sync(unsigned mask, float value)", FormId::MatchAnyB32, true},
  {"__match_any_sync", CType::Double, "unsigned __match_any_sync(unsigned mask, double value)", FormId::MatchAnyB64, true},
  {"__match_all_sync", CType::Int, "unsigned __match_all_sync(unsigned mask, int value, int* pred)", FormId::MatchAllB32, true, true},
  {"__match_all_sync", CType::Unsigned, "unsigned __match_all_sync(unsigned mask, unsigned value, int* pred)", FormId::MatchAllB32, true, true},
  {"__match_all_sync", CType::Long, "unsigned __match_all_sync(unsigned mask, long value, int* pred)", FormId::MatchAllB64, true, true},
  {"__match_all_sync", CType::UnsignedLong, "unsigned __match_all_sync(unsigned mask, unsigned long value, int* pred)", FormId::MatchAllB64, true, true},
  {"__match_all_sync", CType::LongLong, "unsigned __match_all_sync(unsigned mask, long long value, int* pred)", FormId::MatchAllB64, true, true},
  {"__match_all_sync", CType::UnsignedLongLong, "unsigned __match_all_sync(unsigned mask, unsigned long long value, int* pred)", FormId::MatchAllB64, true, true},
  {"__match_all_sync", CType::Float, "unsigned __match_all_sync(unsigned mask, float value, int* pred)", FormId::MatchAllB32, true, true},
  {"__match_all_sync", CType::Double, "unsigned __match_all_sync(unsigned mask, double value, int* pred)", FormId::MatchAllB64, true, true},
  {"__all_sync", CType::Int, "int __all_sync(unsigned mask, int predicate)", FormId::VoteAll, true},
  {"__any_sync", CType::Int, "int __any_sync(unsigned mask, int predicate)", FormId::VoteAny, true},
  {"__uni_sync", CType::Int, "int __uni_sync(unsigned mask, int predicate)", FormId::VoteUni, true},
  {"__ballot_sync", CType::Int, "unsigned __ballot_sync(unsigned mask, int predicate)", FormId::VoteBallot, true},
  {"__reduce_add_sync", CType::Int, "int __reduce_add_sync(unsigned mask, int value)", FormId::ReduxAddS32, true},
  {"__reduce_add_sync", CType::Unsigned, "unsigned __reduce_add_sync(unsigned mask, unsigned value)", FormId::ReduxAddU32, true},
  {"__reduce_min_sync", CType::Int, "int __reduce_min_sync(unsigned mask, int value)", FormId::ReduxMinS32, true},
  {"__reduce_min_sync", CType::Unsigned, "unsigned __reduce_min_sync(unsigned mask, unsigned value)", FormId::ReduxMinU32, true},
  {"__reduce_max_sync", CType::Int, "int __reduce_max_sync(unsigned mask, int value)", FormId::ReduxMaxS32, true},
  {"__reduce_max_sync", CType::Unsigned, "unsigned __reduce_max_sync(unsigned mask, unsigned value)", FormId::ReduxMaxU32, true},
  {"__reduce_and_sync", CType::Unsigned, "unsigned __reduce_and_sync(unsigned mask, unsigned value)", FormId::ReduxAnd, true},
  {"__reduce_or_sync", CType::Unsigned, "unsigned __reduce_or_sync(unsigned mask, unsigned value)", FormId::ReduxOr, true},
  {"__reduce_xor_sync", CType::Unsigned, "unsigned __reduce_xor_sync(unsigned mask, unsigned value)", FormId::ReduxXor, true},
  {"__syncwarp", CType::Void, "void __syncwarp(unsigned mask = 0xffffffff)", FormId::BarWarpSync, true},
  {"__syncthreads", CType::Void, "void __syncthreads()", FormId::BarSync, false},
  {"__syncthreads_count", CType::Int, "int __syncthreads_count(int predicate)", FormId::BarRedPopc, false},
  {"__syncthreads_and", CType::Int, "int __syncthreads_and(int predicate)", FormId::BarRedAnd, false},
  {"__syncthreads_or", CType::Int, "int __syncthreads_or(int predicate)", FormId::BarRedOr, false},
  {"__activemask", CType::Void, "unsigned __activemask()", FormId::Activemask, false},
  {"__shfl_sync", CType::Int, "int __shfl_sync(unsigned mask, int var, int srcLane, int width = warpSize)", FormId::ShflIdx, true},
  {"__shfl_sync", CType::Unsigned, "unsigned __shfl_sync(unsigned mask, unsigned var, int srcLane, int width = warpSize)", FormId::ShflIdx, true},
  {"__shfl_sync", CType::Float, "float __shfl_sync(unsigned mask, float var, int srcLane, int width = warpSize)", FormId::ShflIdx, true},
  {"__shfl_up_sync", CType::Int, "int __shfl_up_sync(unsigned mask, int var, unsigned delta, int width = warpSize)", FormId::ShflUp, true},
  {"__shfl_up_sync", CType::Unsigned, "unsigned __shfl_up_sync(unsigned mask, unsigned var, unsigned delta, int width = warpSize)", FormId::ShflUp, true},
  {"__shfl_up_sync", CType::Float, "float __shfl_up_sync(unsigned mask, float var, unsigned delta, int width = warpSize)", FormId::ShflUp, true},
  {"__shfl_down_sync", CType::Int, "int __shfl_down_sync(unsigned mask, int var, unsigned delta, int width = warpSize)", FormId::ShflDown, true},
  {"__shfl_down_sync", CType::Unsigned, "unsigned __shfl_down_sync(unsigned mask, unsigned var, unsigned delta, int width = warpSize)", FormId::ShflDown, true},
  {"__shfl_down_sync", CType::Float, "float __shfl_down_sync(unsigned mask, float var, unsigned delta, int width = warpSize)", FormId::ShflDown, true},
  {"__shfl_xor_sync", CType::Int, "int __shfl_xor_sync(unsigned mask, int var, int laneMask, int width = warpSize)", FormId::ShflBfly, true},
  {"__shfl_xor_sync", CType::Unsigned, "unsigned __shfl_xor_sync(unsigned mask, unsigned var, int laneMask, int width = warpSize)", FormId::ShflBfly, true},
  {"__shfl_xor_sync", CType::Float, "float __shfl_xor_sync(unsigned mask, float var, int laneMask, int width = warpSize)", FormId::ShflBfly, true},
  // The 64-bit overloads: two shuffles of the form, one per 32-bit word (is_wide_shuffle).
  {"__shfl_sync", CType::Long, "long __shfl_sync(unsigned mask, long var, int srcLane, int width = warpSize)", FormId::ShflIdx, true},
  {"__shfl_sync", CType::UnsignedLong, "unsigned long __shfl_sync(unsigned mask, unsigned long var, int srcLane, int width = warpSize)", FormId::ShflIdx, true},
  {"__shfl_sync", CType::LongLong, "long long __shfl_sync(unsigned mask, long long var, int srcLane, int width = warpSize)", FormId::ShflIdx, true},
  {"__shfl_sync", CType::UnsignedLongLong, "unsigned long long __shfl_sync(unsigned mask, unsigned long long var, int srcLane, int width = warpSize)", FormId::ShflIdx, true},
  {"__shfl_sync", CType::Double, "double __shfl_sync(unsigned mask, double var, int srcLane, int width = warpSize)", FormId::ShflIdx, true},
  {"__shfl_up_sync", CType::Long, "long __shfl_up_sync(unsigned mask, long var, unsigned delta, int width = warpSize)", FormId::ShflUp, true},
  {"__shfl_up_sync", CType::UnsignedLong, "unsigned long __shfl_up_sync(unsigned mask, unsigned long var, unsigned delta, int width = warpSize)", FormId::ShflUp, true},
  {"__shfl_up_sync", CType::LongLong, "long long __shfl_up_sync(unsigned mask, long long var, unsigned delta, int width = warpSize)", FormId::ShflUp, true},
  {"__shfl_up_sync", CType::UnsignedLongLong, "unsigned long long __shfl_up_sync(unsigned mask, unsigned long long var, unsigned delta, int width = warpSize)", FormId::ShflUp, true},
  {"__shfl_up_sync", CType::Double, "double __shfl_up_sync(unsigned mask, double var, unsigned delta, int width = warpSize)", FormId::ShflUp, true},
  {"__shfl_down_sync", CType::Long, "long __shfl_down_sync(unsigned mask, long var, unsigned delta, int width = warpSize)", FormId::ShflDown, true},
  {"__shfl_down_sync", CType::UnsignedLong, "unsigned long __shfl_down_sync(unsigned mask, unsigned long var, unsigned delta, int width = warpSize)", FormId::ShflDown, true},
  {"__shfl_down_sync", CType::LongLong, "long long __shfl_down_sync(unsigned mask, long long var, unsigned delta, int width = warpSize)", FormId::ShflDown, true},
  {"__shfl_down_sync", CType::UnsignedLongLong, "unsigned long long __shfl_down_sync(unsigned mask, unsigned long long var, unsigned delta, int width = warpSize)", FormId::ShflDown, true},
  {"__shfl_down_sync", CType::Double, "double __shfl_down_sync(unsigned mask, double var, unsigned delta, int width = warpSize)", FormId::ShflDown, true},
  {"__shfl_xor_sync", CType::Long, "long __shfl_xor_sync(unsigned mask, long var, int laneMask, int width = warpSize)", FormId::ShflBfly, true},
  {"__shfl_xor_sync", CType::UnsignedLong, "unsigned long __shfl_xor_sync(unsigned mask, unsigned long var, int laneMask, int width = warpSize)", FormId::ShflBfly, true},
  {"__shfl_xor_sync", CType::LongLong, "long long __shfl_xor_sync(unsigned mask, long long var, int laneMask, int width = warpSize)", FormId::ShflBfly, true},
  {"__shfl_xor_sync", CType::UnsignedLongLong, "unsigned long long __shfl_xor_sync(unsigned mask, unsigned long long var, int laneMask, int width = warpSize)", FormId::ShflBfly, true},
  {"__shfl_xor_sync", CType::Double, "double __shfl_xor_sync(unsigned mask, double var, int laneMask, int width = warpSize)", FormId::ShflBfly, true},
};
// clang-format on

/// Spelling of a C type as CUDA code writes it.
std::string_view ctype_name(CType t);
/// Width in bits of a C type's value on the LP64 targets CUDA supports (long is 64-bit there).
constexpr int ctype_bits(CType t) {
  switch (t) {
    case CType::Void:
      return 0;
    case CType::Int:
    case CType::Unsigned:
    case CType::Float:
      return 32;
    default:
      return 64;
  }
}
/// True for float and double.
constexpr bool ctype_is_float(CType t) {
  return t == CType::Float || t == CType::Double;
}
/// True for the signed integer types.
constexpr bool ctype_is_signed(CType t) {
  return t == CType::Int || t == CType::Long || t == CType::LongLong;
}

/// True for CUDA's 64-bit shuffle overloads (long, long long, double and the unsigned ones): the
/// CUDA headers run the 32-bit form twice, on the value's low word and on its high word with the
/// same b and c, and join the two results (Instr::wide, spec::eval_shfl_pair).
constexpr bool is_wide_shuffle(const IntrinsicInfo& i) {
  return form_info(i.form).family == Family::Shfl && ctype_bits(i.value_type) == 64;
}

// Every shuffle overload has a 32-bit sibling of the same name: the wide one is that form run
// on each word, never a form of its own.
static_assert([] {
  for (const auto& w : kIntrinsics) {
    if (!is_wide_shuffle(w)) continue;
    bool sibling = false;
    for (const auto& n : kIntrinsics)
      sibling = sibling || (n.name == w.name && n.form == w.form && ctype_bits(n.value_type) == 32);
    if (!sibling) return false;
  }
  return true;
}());

/// The c operand the shuffle intrinsics pass for a `width` (a power of two from 1 to 32): the
/// segment mask 32 - width in bits 12:8, and the clamp 31, or 0 for __shfl_up_sync (CUDA
/// Programming Guide, Warp Shuffle Functions, and the CUDA headers' lowering).
constexpr uint32_t shfl_c_of_width(uint32_t width, Mode mode) {
  return ((32u - width) << 8) | (mode == Mode::Up ? 0u : 0x1fu);
}

/// Every intrinsic overload that lowers to `form`.
std::span<const IntrinsicInfo> all_intrinsics();

/// Names used for enums in output.
std::string_view family_name(Family f);
std::string_view operand_type_name(OperandType t);
std::string_view result_type_name(ResultType t);
std::string_view clause_kind_name(ClauseKind k);

}  // namespace warpspec::spec
