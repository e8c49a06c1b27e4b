#include "vectors/mutants.hpp"

#include <algorithm>

#include "model/concrete.hpp"
#include "vectors/mutant_semantics.hpp"

namespace warpspec::vectors {

namespace {

using spec::ClauseId;
using spec::FormId;
using M = MutantId;

// clang-format off
constexpr MutantInfo kMutants[] = {
  {M::MembermaskIgnored, "membermask_ignored", "combines every lane executing the instruction, whatever the membermask says", ClauseId::MatchParticipants},
  {M::ExitedCounted, "exited_counted", "lets exited lanes of the membermask take part with stale operands", ClauseId::MatchParticipants},
  {M::StaleBallotBits, "stale_ballot_bits", "keeps ballot bits of lanes outside the membermask from an earlier ballot", ClauseId::VoteBallot, true},
  {M::FloatMatchByValue, "float_match_by_value", "compares match operands as floating-point values (+0.0 == -0.0, NaN != NaN)", ClauseId::MatchCompareBits},
  {M::Match64LowHalf, "match64_low_half", "compares only the low 32 bits of a 64-bit match operand", ClauseId::MatchCompareBits},
  {M::MatchAnyWithoutSelf, "match_any_without_self", "leaves the executing lane out of its own match.any result", ClauseId::MatchAnyResult},
  {M::MatchAllAsAny, "match_all_as_any", "returns the lanes equal to this lane's value from match.all even when values differ", ClauseId::MatchAllResult},
  {M::MatchAllPredInverted, "match_all_pred_inverted", "sets match.all's predicate when the values differ", ClauseId::MatchAllPred},
  {M::MatchAllGivesMembermask, "match_all_gives_membermask", "returns the whole membermask from match.all, exited lanes included", ClauseId::MatchParticipants},
  {M::NegationIgnored, "negation_ignored", "drops the ! on a vote source predicate", ClauseId::VoteNegate},
  {M::VoteAllAnySwapped, "vote_all_any_swapped", "computes vote.all as vote.any and vice versa", ClauseId::VoteAll},
  {M::VoteUniInverted, "vote_uni_inverted", "returns the negation of vote.uni", ClauseId::VoteUni},
  {M::MinMaxSignSwapped, "minmax_sign_swapped", "orders .u32 min/max as signed and .s32 as unsigned", ClauseId::ReduxMinMaxInt},
  {M::ReduxIdentityZero, "redux_identity_zero", "starts min/max from 0 instead of the operator's identity", ClauseId::ReduxMinMaxInt},
  {M::ReduxAddSaturates, "redux_add_saturates", "saturates redux.add instead of wrapping modulo 2^32", ClauseId::ReduxAdd},
  {M::ReduxBitwiseOnLogical, "redux_bitwise_on_logical", "applies .and/.or/.xor to logical (non-zero) values instead of bits", ClauseId::ReduxBitwise},
  {M::F32ZeroOrderIgnored, "f32_zero_order_ignored", "treats -0.0 and +0.0 as equal in .f32 min/max", ClauseId::ReduxF32ZeroOrder},
  {M::F32AbsIgnored, "f32_abs_ignored", "ignores the .abs qualifier", ClauseId::ReduxF32Abs},
  {M::F32NanQualifierSwapped, "f32_nan_qualifier_swapped", "propagates NaN without .NaN and skips it with .NaN", ClauseId::ReduxF32NanSkip},
  {M::F32NanNotCanonical, "f32_nan_not_canonical", "returns an input NaN's payload instead of the canonical NaN", ClauseId::ReduxF32NanPropagate},
  {M::SyncwarpWaitsForExited, "syncwarp_waits_for_exited", "treats an exited lane named in the mask as missing (hang or UB report)", ClauseId::SyncwarpExitedOk},
  {M::CtaNotReset, "cta_not_reset", "carries the block reduction over from the previous barrier", ClauseId::CtaCount, true},
  {M::CtaExitedCounted, "cta_exited_counted", "counts exited threads' last predicates in the block reduction", ClauseId::CtaParticipants},
  {M::CtaCountSumsValues, "cta_count_sums_values", "adds the predicate values instead of counting the non-zero ones", ClauseId::CtaCount},
  {M::CtaAndBitwise, "cta_and_bitwise", "ANDs the predicate bits instead of their truth values", ClauseId::CtaAnd},
  {M::CtaWaitsForExited, "cta_waits_for_exited", "waits for exited threads at the barrier (hang or UB report)", ClauseId::CtaParticipants},
  {M::CtaCountIgnored, "cta_count_ignored", "waits for the whole block at a barrier with a thread count, as if none were given", ClauseId::CtaNamed},
  {M::CtaArriveWaits, "cta_arrive_waits", "makes bar.arrive wait for the barrier to complete, as bar.sync does", ClauseId::CtaArrive},
  {M::CtaArrivalsPerThread, "cta_arrivals_per_thread", "counts arriving threads towards the thread count instead of 32 per arrived warp, so a warp with exited threads falls short", ClauseId::CtaNamed},
  {M::CtaBarrierNumberIgnored, "cta_barrier_number_ignored", "puts every thread at one barrier with the first arriving thread's count, whatever barrier number and count each passes", ClauseId::CtaNamed},
  {M::CtaPartnerNotCounted, "cta_partner_not_counted", "does not count the warps that reached bar.sync's barrier through bar.arrive", ClauseId::CtaArrive},
  {M::ActivemaskAllOnes, "activemask_all_ones", "returns 0xffffffff from activemask, as an emulator that runs whole warps in lockstep does", ClauseId::ActivemaskParticipants},
  {M::ActivemaskAliveLanes, "activemask_alive_lanes", "returns every lane that has not exited, diverged lanes elsewhere in the program included", ClauseId::ActivemaskParticipants},
  {M::ActivemaskExitedCounted, "activemask_exited_counted", "keeps exited lanes' bits in activemask", ClauseId::ActivemaskParticipants},
  {M::ActivemaskIgnoresSite, "activemask_ignores_site", "returns every lane executing activemask, whichever call site it runs from", ClauseId::ActivemaskParticipants},
  {M::ActivemaskSelfOnly, "activemask_self_only", "returns the calling lane alone, as an emulator that runs one thread at a time does", ClauseId::ActivemaskResult},
  {M::ShflSegmentIgnored, "shfl_segment_ignored", "ignores c's segment mask (the intrinsics' width): the whole warp is one segment", ClauseId::ShflBound},
  {M::ShflClampIgnored, "shfl_clamp_ignored", "ignores c's clamp: the bound is the segment's first lane for .up and its last lane otherwise", ClauseId::ShflBound},
  {M::ShflIdxNoWrap, "shfl_idx_no_wrap", "adds b to the segment's first lane for .idx instead of keeping b's bits within the segment", ClauseId::ShflSourceLane},
  {M::ShflUpPredOffByOne, "shfl_up_pred_off_by_one", "takes .up in range only strictly above the bound", ClauseId::ShflInRange},
  {M::ShflUpUnsigned, "shfl_up_unsigned", "compares .up's source lane unsigned, so lane - b below 0 wraps to a high lane", ClauseId::ShflInRange},
  {M::ShflBflyWithinSegment, "shfl_bfly_within_segment", "keeps the .bfly partner within the reader's segment instead of letting it reach a lower one", ClauseId::ShflSourceLane},
  {M::ShflDownWraps, "shfl_down_wraps", "wraps .down around the segment instead of reading the lane's own value", ClauseId::ShflInRange},
  {M::ShflOutOfRangeZero, "shfl_out_of_range_zero", "returns 0 instead of the lane's own a when the source is out of range", ClauseId::ShflInRange},
  {M::ShflBNotMasked, "shfl_b_not_masked", "uses all of b instead of its low five bits", ClauseId::ShflSourceLane},
  {M::ShflPredAlwaysTrue, "shfl_pred_always_true", "sets p on every executing lane, in range or not", ClauseId::ShflInRange},
  {M::ShflMaskMustEqualActive, "shfl_mask_must_equal_active", "refuses a membermask that differs from the lanes executing the shuffle (exited lanes named, or part of the warp)", ClauseId::ShflParticipants},
  {M::ShflCopyThroughFloat, "shfl_copy_through_float", "moves the value as a float: a NaN comes out canonical and -0.0 as +0.0", ClauseId::ShflCopy},
  {M::ShflLowWordOnly, "shfl_low_word_only", "moves only the low word of a 64-bit value (a 64-bit overload shuffling one 32-bit register): the high word is the reading lane's own", ClauseId::ShflCopy},
  {M::ElectPredOnEveryLane, "elect_pred_on_every_lane", "sets p on every lane of the election, not on the leader alone", ClauseId::ElectPred},
  {M::ElectEachLaneAlone, "elect_each_lane_alone", "elects each lane itself, as an emulator that runs one thread at a time does: every lane gets its own number and p", ClauseId::ElectLeader},
  {M::ElectRankForLane, "elect_rank_for_lane", "returns the leader's rank within the membermask (0) instead of its lane number", ClauseId::ElectLeader},
  {M::ElectRotates, "elect_rotates", "spreads the work: elects the lowest lane at or above a counter that advances with every election, so one membermask elects different lanes", ClauseId::ElectDeterministic, true},
};
// clang-format on
static_assert(std::size(kMutants) == static_cast<std::size_t>(kMutantCount),
              "every MutantId has one catalog row");

std::vector<Observed> silent(const std::vector<Expected>& e) {
  auto o = as_observed(e);
  for (auto& r : o) r.ub_reported = false;
  return o;
}

FormId with_sign_swapped(FormId f) {
  switch (f) {
    case FormId::ReduxMinU32:
      return FormId::ReduxMinS32;
    case FormId::ReduxMinS32:
      return FormId::ReduxMinU32;
    case FormId::ReduxMaxU32:
      return FormId::ReduxMaxS32;
    case FormId::ReduxMaxS32:
      return FormId::ReduxMaxU32;
    default:
      return f;
  }
}

// The .f32 form with .abs/.NaN set as asked.
FormId f32_form(spec::Mode mode, bool abs, bool nan) {
  for (const auto& f : spec::kForms)
    if (f.a_type == spec::OperandType::F32 && f.mode == mode && f.abs == abs && f.nan == nan)
      return f.id;
  return FormId::ReduxMinF32;
}

}  // namespace

std::span<const MutantInfo> mutants() {
  return kMutants;
}

const MutantInfo& mutant_info(MutantId id) {
  return kMutants[static_cast<int>(id)];
}

std::optional<MutantId> find_mutant(std::string_view key) {
  for (const auto& m : kMutants)
    if (m.key == key) return m.id;
  return std::nullopt;
}

spec::ClauseId violated_clause(MutantId m, spec::FormId form) {
  const auto& f = spec::form_info(form);
  switch (m) {
    case M::MembermaskIgnored:
    case M::ExitedCounted:
      return spec::participants_clause(form);
    case M::VoteAllAnySwapped:
      return f.mode == spec::Mode::Any ? ClauseId::VoteAny : ClauseId::VoteAll;
    case M::F32NanQualifierSwapped:
    case M::F32NanNotCanonical:
      return f.nan ? ClauseId::ReduxF32NanPropagate : ClauseId::ReduxF32NanSkip;
    case M::CtaNotReset:
      if (f.mode == spec::Mode::And) return ClauseId::CtaAnd;
      if (f.mode == spec::Mode::Or) return ClauseId::CtaOr;
      return ClauseId::CtaCount;
    default:
      return mutant_info(m).clause;
  }
}

bool applies(MutantId m, const spec::Instr& in) {
  const auto& f = spec::form_info(in.form);
  const bool warp_valued = f.family == spec::Family::Match || f.family == spec::Family::Vote ||
                           f.family == spec::Family::Redux;
  const bool elect = f.family == spec::Family::Elect;
  const bool is_f32 = f.a_type == spec::OperandType::F32;
  const bool cta_valued = f.family == spec::Family::CtaBarrier && f.mode != spec::Mode::None;
  switch (m) {
    // elect.sync excuses no named lane, so a defined round never names an exited one: counting
    // exited lanes changes nothing there.
    case M::MembermaskIgnored:
      return warp_valued || elect;
    case M::ExitedCounted:
      return warp_valued;
    case M::ElectPredOnEveryLane:
    case M::ElectRotates:
      return elect;
    // Where d is the sink only p is seen, and these two differ from the model in d alone.
    case M::ElectEachLaneAlone:
      return elect;
    case M::ElectRankForLane:
      return elect && in.write_d;
    case M::StaleBallotBits:
      return f.mode == spec::Mode::Ballot;
    case M::FloatMatchByValue:
      return f.family == spec::Family::Match;
    case M::Match64LowHalf:
      return f.family == spec::Family::Match && f.a_type == spec::OperandType::B64;
    case M::MatchAnyWithoutSelf:
      return f.family == spec::Family::Match && f.mode == spec::Mode::Any;
    case M::MatchAllAsAny:
    case M::MatchAllGivesMembermask:
      return f.family == spec::Family::Match && f.mode == spec::Mode::All && in.write_d;
    case M::MatchAllPredInverted:
      return f.family == spec::Family::Match && in.write_p;
    // Negating every predicate leaves .uni unchanged, so that form cannot tell.
    case M::NegationIgnored:
      return f.family == spec::Family::Vote && in.negate && f.mode != spec::Mode::Uni;
    case M::VoteAllAnySwapped:
      return f.family == spec::Family::Vote &&
             (f.mode == spec::Mode::All || f.mode == spec::Mode::Any);
    case M::VoteUniInverted:
      return f.family == spec::Family::Vote && f.mode == spec::Mode::Uni;
    case M::MinMaxSignSwapped:
      return f.family == spec::Family::Redux && !is_f32 &&
             (f.mode == spec::Mode::Min || f.mode == spec::Mode::Max);
    // 0 is the identity of .max.u32, so starting there changes nothing for that form.
    case M::ReduxIdentityZero:
      return f.family == spec::Family::Redux && !is_f32 &&
             (f.mode == spec::Mode::Min || f.id == FormId::ReduxMaxS32);
    case M::ReduxAddSaturates:
      return f.family == spec::Family::Redux && f.mode == spec::Mode::Add;
    case M::ReduxBitwiseOnLogical:
      return f.family == spec::Family::Redux &&
             (f.mode == spec::Mode::And || f.mode == spec::Mode::Or || f.mode == spec::Mode::Xor);
    // After .abs no -0.0 is left to order.
    case M::F32ZeroOrderIgnored:
      return is_f32 && !f.abs;
    case M::F32NanQualifierSwapped:
    case M::F32NanNotCanonical:
      return is_f32;
    case M::F32AbsIgnored:
      return is_f32 && f.abs;
    case M::SyncwarpWaitsForExited:
      return f.family == spec::Family::WarpBarrier;
    case M::CtaNotReset:
    case M::CtaExitedCounted:
      return cta_valued;
    // These two reduce over the whole block, so they apply where one barrier is named.
    case M::CtaCountSumsValues:
      return f.mode == spec::Mode::Popc && in.imm_bar;
    case M::CtaAndBitwise:
      return f.family == spec::Family::CtaBarrier && f.mode == spec::Mode::And && in.imm_bar;
    case M::CtaWaitsForExited:
      return f.family == spec::Family::CtaBarrier;
    // bar.arrive without its count would be bar.arrive with a count of zero, which is UB.
    case M::CtaCountIgnored:
      return f.family == spec::Family::CtaBarrier && in.form != FormId::BarArrive && in.has_count;
    case M::CtaArrivalsPerThread:
      return f.family == spec::Family::CtaBarrier && in.has_count;
    case M::CtaArriveWaits:
      return in.form == FormId::BarArrive;
    // bar.arrive waits for nobody: merged barriers show only through a partner that then
    // waits at a third warp's barrier, a state too large for the Z3 witness search.
    case M::CtaBarrierNumberIgnored:
      return f.family == spec::Family::CtaBarrier && !in.imm_bar && in.form != FormId::BarArrive;
    case M::CtaPartnerNotCounted:
      return in.form == FormId::BarSync && in.has_count;
    case M::ActivemaskAllOnes:
    case M::ActivemaskAliveLanes:
    case M::ActivemaskExitedCounted:
    case M::ActivemaskIgnoresSite:
    case M::ActivemaskSelfOnly:
      return f.family == spec::Family::Activemask;
    case M::ShflSegmentIgnored:
    case M::ShflClampIgnored:
    case M::ShflOutOfRangeZero:
    case M::ShflBNotMasked:
    case M::ShflMaskMustEqualActive:
      return f.family == spec::Family::Shfl;
    // A float's bits through a float register; a 64-bit value has other ways to go wrong.
    case M::ShflCopyThroughFloat:
      return f.family == spec::Family::Shfl && !in.wide;
    case M::ShflLowWordOnly:
      return f.family == spec::Family::Shfl && in.wide;
    case M::ShflPredAlwaysTrue:
      return f.family == spec::Family::Shfl && in.write_p;
    case M::ShflIdxNoWrap:
      return f.family == spec::Family::Shfl && f.mode == spec::Mode::Idx;
    case M::ShflUpPredOffByOne:
    case M::ShflUpUnsigned:
      return f.family == spec::Family::Shfl && f.mode == spec::Mode::Up;
    case M::ShflBflyWithinSegment:
      return f.family == spec::Family::Shfl && f.mode == spec::Mode::Bfly;
    case M::ShflDownWraps:
      return f.family == spec::Family::Shfl && f.mode == spec::Mode::Down;
    case M::Count_:
      break;
  }
  return false;
}

std::optional<spec::Instr> changed_instr(MutantId m, const spec::Instr& in) {
  const auto& f = spec::form_info(in.form);
  spec::Instr c = in;
  switch (m) {
    case M::MatchAllAsAny:
      c.form = f.a_type == spec::OperandType::B64 ? FormId::MatchAnyB64 : FormId::MatchAnyB32;
      return c;
    case M::NegationIgnored:
      c.negate = false;
      return c;
    case M::VoteAllAnySwapped:
      c.form = f.mode == spec::Mode::All ? FormId::VoteAny : FormId::VoteAll;
      return c;
    case M::MinMaxSignSwapped:
      c.form = with_sign_swapped(f.id);
      return c;
    case M::F32AbsIgnored:
      c.form = f32_form(f.mode, false, f.nan);
      return c;
    case M::F32NanQualifierSwapped:
      c.form = f32_form(f.mode, f.abs, !f.nan);
      return c;
    default:
      return std::nullopt;
  }
}

namespace {
// The mutant's answers, given the specification's for the same vector.
std::vector<Observed> run_mutant_given(MutantId m, const Vector& v, const std::vector<Expected>& e,
                                       spec::Target t) {
  auto o = silent(e);
  if (!applies(m, v.instr)) return o;
  const model::Concrete d;
  const bool pv = spec::is_pre_volta(t);
  auto carry = initial_carry(d, m, v.instr.instr.form);
  for (std::size_t k = 0; k < v.rounds.size(); ++k) {
    if (v.is_cta()) {
      const auto& c = v.rounds[k].cta;
      const auto a = cta_mutant(d, m, v.instr.instr, c, spec::eval_cta(d, v.instr.instr, c), carry);
      o[k].d.assign(a.d.begin(), a.d.end());
      o[k].ub_reported = a.ub;
    } else {
      const auto& w = v.rounds[k].warp;
      const auto ref = spec::evaluate_warp(d, v.instr.instr, w, pv);
      const auto a = warp_mutant(d, m, v.instr.instr, w, ref, pv, carry);
      o[k].d.assign(a.d.begin(), a.d.end());
      o[k].d_hi = a.d_hi;
      o[k].p.assign(a.p.begin(), a.p.end());
      o[k].ub_reported = a.ub;
    }
  }
  return o;
}
}  // namespace

std::vector<Observed> run_mutant(MutantId m, const Vector& v, spec::Target t, spec::PtxVersion p) {
  return run_mutant_given(m, v, expected(v, t, p), t);
}

bool kills(MutantId m, const Vector& v, const std::vector<Expected>& e, spec::Target t,
           spec::PtxVersion p) {
  if (!applies(m, v.instr)) return false;
  (void)p;  // e already holds what the target and PTX version give
  return compare(v, e, run_mutant_given(m, v, e, t)).kind != Mismatch::Kind::None;
}

}  // namespace warpspec::vectors
