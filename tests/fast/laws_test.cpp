// Algebraic laws the model must obey, read as sentences. Each compares two evaluations of the
// same warp (or block) on the lanes where both results are defined; the cases lean towards
// well-formed warps (`law_case`), so most have such lanes (RapidCheck prints the share of cases
// with none).
#include "spec/cta.hpp"
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <bit>

#include "model/eval.hpp"
#include "support/generators.hpp"
#include "support/show.hpp"

namespace warpspec {
namespace {

using spec::FormId;

// The same warp and operand choices under another form (and maybe the other predicate sense).
model::WarpResult as(const test::WarpCase& c, FormId form, bool negate) {
  spec::Instr in = c.instr;
  in.form = form;
  in.negate = negate;
  in.write_d = true;
  in.write_p = spec::form_info(form).optional_p;
  return model::evaluate(in, c.warp, c.target, c.ptx);
}
model::WarpResult as(const test::WarpCase& c, FormId form) {
  return as(c, form, c.instr.negate);
}

// The non-exited lanes of lane i's membermask: the lanes its instruction combines.
uint32_t live(const test::WarpCase& c, unsigned i) {
  uint32_t exited = 0;
  for (unsigned j = 0; j < 32; ++j) exited |= c.warp.exited[j] ? uint32_t{1} << j : 0;
  return (c.instr.imm_mask ? *c.instr.imm_mask : c.warp.mask[i]) & ~exited;
}

// Lanes defined in every one of the results.
template <class... R>
uint32_t defined_in_all(const R&... r) {
  uint32_t lanes = 0;
  for (unsigned i = 0; i < 32; ++i)
    if ((r.defined(i) && ...)) lanes |= uint32_t{1} << i;
  RC_CLASSIFY(lanes == 0, "no lane defined");
  return lanes;
}

template <class F>
void for_lanes(uint32_t lanes, F&& f) {
  for (unsigned i = 0; i < 32; ++i)
    if (lanes >> i & 1u) f(i);
}

// ------------------------------------------------------------------------------- vote.sync

RC_GTEST_PROP(VoteLaws, any_is_true_exactly_when_the_ballot_is_not_zero, ()) {
  const auto c = *test::gen::law_case(FormId::VoteAny);
  const auto any = as(c, FormId::VoteAny), ballot = as(c, FormId::VoteBallot);
  for_lanes(defined_in_all(any, ballot), [&](unsigned i) {
    RC_ASSERT(any.outcome.d[i] == (ballot.outcome.d[i] != 0 ? 1u : 0u));
  });
}

RC_GTEST_PROP(VoteLaws, all_is_true_exactly_when_the_ballot_is_the_whole_live_mask, ()) {
  const auto c = *test::gen::law_case(FormId::VoteAll);
  const auto all = as(c, FormId::VoteAll), ballot = as(c, FormId::VoteBallot);
  for_lanes(defined_in_all(all, ballot), [&](unsigned i) {
    RC_ASSERT(all.outcome.d[i] == (ballot.outcome.d[i] == live(c, i) ? 1u : 0u));
  });
}

RC_GTEST_PROP(VoteLaws, uni_is_true_exactly_when_the_ballot_is_all_or_none_of_the_live_mask, ()) {
  const auto c = *test::gen::law_case(FormId::VoteUni);
  const auto uni = as(c, FormId::VoteUni), ballot = as(c, FormId::VoteBallot);
  for_lanes(defined_in_all(uni, ballot), [&](unsigned i) {
    const uint32_t b = ballot.outcome.d[i];
    RC_ASSERT(uni.outcome.d[i] == (b == 0 || b == live(c, i) ? 1u : 0u));
  });
}

RC_GTEST_PROP(VoteLaws, all_of_the_negated_predicate_means_none, ()) {
  const auto c = *test::gen::law_case(FormId::VoteAll);
  const auto none = as(c, FormId::VoteAll, true), any = as(c, FormId::VoteAny, false);
  for_lanes(defined_in_all(none, any),
            [&](unsigned i) { RC_ASSERT(none.outcome.d[i] == 1u - any.outcome.d[i]); });
}

RC_GTEST_PROP(VoteLaws, any_of_the_negated_predicate_means_not_all, ()) {
  const auto c = *test::gen::law_case(FormId::VoteAny);
  const auto not_all = as(c, FormId::VoteAny, true), all = as(c, FormId::VoteAll, false);
  for_lanes(defined_in_all(not_all, all),
            [&](unsigned i) { RC_ASSERT(not_all.outcome.d[i] == 1u - all.outcome.d[i]); });
}

RC_GTEST_PROP(VoteLaws, uni_is_the_same_for_a_predicate_and_its_negation, ()) {
  const auto c = *test::gen::law_case(FormId::VoteUni);
  const auto plain = as(c, FormId::VoteUni, false), negated = as(c, FormId::VoteUni, true);
  for_lanes(defined_in_all(plain, negated),
            [&](unsigned i) { RC_ASSERT(plain.outcome.d[i] == negated.outcome.d[i]); });
}

RC_GTEST_PROP(VoteLaws, the_negated_ballot_is_the_live_mask_without_the_ballot, ()) {
  const auto c = *test::gen::law_case(FormId::VoteBallot);
  const auto plain = as(c, FormId::VoteBallot, false), negated = as(c, FormId::VoteBallot, true);
  for_lanes(defined_in_all(plain, negated), [&](unsigned i) {
    RC_ASSERT(negated.outcome.d[i] == (live(c, i) & ~plain.outcome.d[i]));
  });
}

// ------------------------------------------------------------------------------- redux.sync

RC_GTEST_PROP(ReduxLaws, the_sum_of_zero_one_values_is_the_popcount_of_their_ballot, ()) {
  const auto c = *test::gen::zero_one_case(FormId::ReduxAddU32);
  const auto sum = as(c, FormId::ReduxAddU32), ballot = as(c, FormId::VoteBallot, false);
  for_lanes(defined_in_all(sum, ballot), [&](unsigned i) {
    RC_ASSERT(sum.outcome.d[i] == static_cast<uint32_t>(std::popcount(ballot.outcome.d[i])));
  });
}

RC_GTEST_PROP(ReduxLaws, the_or_of_zero_one_values_is_vote_any, ()) {
  const auto c = *test::gen::zero_one_case(FormId::ReduxOr);
  const auto any_bit = as(c, FormId::ReduxOr), any = as(c, FormId::VoteAny, false);
  for_lanes(defined_in_all(any_bit, any),
            [&](unsigned i) { RC_ASSERT(any_bit.outcome.d[i] == any.outcome.d[i]); });
}

RC_GTEST_PROP(ReduxLaws, the_and_of_zero_one_values_is_vote_all, ()) {
  const auto c = *test::gen::zero_one_case(FormId::ReduxAnd);
  const auto all_bits = as(c, FormId::ReduxAnd), all = as(c, FormId::VoteAll, false);
  for_lanes(defined_in_all(all_bits, all),
            [&](unsigned i) { RC_ASSERT(all_bits.outcome.d[i] == all.outcome.d[i]); });
}

RC_GTEST_PROP(ReduxLaws, the_signed_minimum_is_at_most_the_maximum_and_both_are_taken, ()) {
  const auto c = *test::gen::law_case(FormId::ReduxMinS32);
  const auto lo = as(c, FormId::ReduxMinS32), hi = as(c, FormId::ReduxMaxS32);
  for_lanes(defined_in_all(lo, hi), [&](unsigned i) {
    RC_ASSERT(static_cast<int32_t>(lo.outcome.d[i]) <= static_cast<int32_t>(hi.outcome.d[i]));
    bool lo_seen = false, hi_seen = false;
    for_lanes(live(c, i), [&](unsigned j) {
      lo_seen = lo_seen || static_cast<uint32_t>(c.warp.a[j]) == lo.outcome.d[i];
      hi_seen = hi_seen || static_cast<uint32_t>(c.warp.a[j]) == hi.outcome.d[i];
    });
    RC_ASSERT(lo_seen && hi_seen);
  });
}

// ------------------------------------------------------------------------------- match.sync

RC_GTEST_PROP(
    MatchLaws,
    all_is_nonzero_exactly_when_every_live_lane_holds_one_value_and_then_any_is_the_live_mask, ()) {
  const auto form = *rc::gen::element(FormId::MatchAllB32, FormId::MatchAllB64);
  const bool wide = form == FormId::MatchAllB64;
  const auto c = *test::gen::law_case(form);
  const auto all = as(c, form), any = as(c, wide ? FormId::MatchAnyB64 : FormId::MatchAnyB32);
  for_lanes(defined_in_all(all, any), [&](unsigned i) {
    bool one_value = true;
    for_lanes(live(c, i), [&](unsigned j) {
      one_value = one_value &&
                  (wide ? c.warp.a[j] == c.warp.a[i]
                        : static_cast<uint32_t>(c.warp.a[j]) == static_cast<uint32_t>(c.warp.a[i]));
    });
    RC_ASSERT((all.outcome.d[i] != 0) == one_value);
    RC_ASSERT(all.outcome.p[i] == one_value);
    if (one_value) RC_ASSERT(any.outcome.d[i] == live(c, i));
  });
}

RC_GTEST_PROP(MatchLaws, any_holds_the_lane_itself_and_only_lanes_with_its_value, ()) {
  const auto form = *rc::gen::element(FormId::MatchAnyB32, FormId::MatchAnyB64);
  const auto c = *test::gen::law_case(form);
  const auto any = as(c, form);
  const uint64_t width = form == FormId::MatchAnyB64 ? ~uint64_t{0} : 0xffffffffull;
  for_lanes(defined_in_all(any), [&](unsigned i) {
    RC_ASSERT((any.outcome.d[i] >> i & 1u) == 1u);
    RC_ASSERT((any.outcome.d[i] & ~live(c, i)) == 0u);
    for_lanes(live(c, i), [&](unsigned j) {
      const bool same = ((c.warp.a[j] ^ c.warp.a[i]) & width) == 0;
      RC_ASSERT((any.outcome.d[i] >> j & 1u) == (same ? 1u : 0u));
    });
  });
}

// ------------------------------------------------------------------------------- block barriers

model::CtaResult as(const test::CtaCase& c, FormId form) {
  spec::Instr in = c.instr;
  in.form = form;
  return model::evaluate_cta(in, c.cta, c.target, c.ptx);
}

RC_GTEST_PROP(CtaLaws, syncthreads_or_is_true_exactly_when_syncthreads_count_is_positive, ()) {
  const auto c = *test::gen::cta_case(FormId::BarRedOr);
  const auto any = as(c, FormId::BarRedOr), count = as(c, FormId::BarRedPopc);
  RC_CLASSIFY(any.outcome.any_ub, "undefined");
  for (std::size_t t = 0; !any.outcome.any_ub && t < any.outcome.d.size(); ++t)
    if (any.outcome.executes[t]) RC_ASSERT(any.outcome.d[t] == (count.outcome.d[t] > 0 ? 1u : 0u));
}

RC_GTEST_PROP(CtaLaws, syncthreads_and_is_true_exactly_when_every_arriving_thread_is_counted, ()) {
  const auto c = *test::gen::cta_case(FormId::BarRedAnd);
  const auto all = as(c, FormId::BarRedAnd), count = as(c, FormId::BarRedPopc);
  RC_CLASSIFY(all.outcome.any_ub, "undefined");
  const model::Concrete d;
  for (std::size_t t = 0; !all.outcome.any_ub && t < all.outcome.d.size(); ++t) {
    if (!all.outcome.executes[t]) continue;
    uint32_t arriving = 0;  // the threads at t's barrier
    for (std::size_t u = 0; u < all.outcome.d.size(); ++u)
      arriving += all.outcome.executes[u] && spec::operand_bar(d, c.instr, c.cta, u) ==
                                                 spec::operand_bar(d, c.instr, c.cta, t);
    RC_ASSERT(all.outcome.d[t] == (count.outcome.d[t] == arriving ? 1u : 0u));
  }
}

}  // namespace
}  // namespace warpspec
