// UB queries: can / must / cannot per clause, smallest witnesses that replay, and a checked
// condition for UB-free calls.
#include "checker/ub_query.hpp"

#include <gtest/gtest.h>

namespace warpspec::checker {
namespace {

const ClauseAnswer& answer(const UbReport& r, spec::ClauseId c) {
  for (const auto& a : r.clauses)
    if (a.clause == c) return a;
  throw std::runtime_error("clause missing");
}

TEST(UbQuery, UnconstrainedBallotCanHitEveryVoltaClauseWithSmallWitnesses) {
  spec::Instr in{spec::FormId::VoteBallot};
  auto r = analyse_ub(in, false, {});
  using C = spec::ClauseId;
  EXPECT_EQ(answer(r, C::VoteUbSelfNotInMask).verdict, Possibility::Can);
  EXPECT_EQ(answer(r, C::VoteUbSelfNotInMask).witness_executing, 1u);
  EXPECT_EQ(answer(r, C::VoteUbPeerAbsent).witness_executing, 1u);
  EXPECT_EQ(answer(r, C::VoteUbMaskMismatch).witness_executing, 2u);
  EXPECT_TRUE(answer(r, C::VoteUbMaskMismatch).smallest);
  EXPECT_EQ(answer(r, C::VoteUbSm6xConvergence).verdict, Possibility::Cannot);
  EXPECT_EQ(r.any_ub, Possibility::Can);
  EXPECT_TRUE(r.condition_checked);
  EXPECT_TRUE(r.free_example.has_value());
}

// A witness is as plain as its story allows: no set bit of a free mask or operand, and no lane
// left inactive rather than exited, can go without changing what the model finds; and what the
// constraints fix is kept.
TEST(UbQuery, WitnessesAreAsPlainAsTheirStoryAllows) {
  spec::Instr in{spec::FormId::VoteBallot};
  UbConstraints c;
  c.lanes[5].a = 0x1234;
  c.lanes[5].mask = 0xffffffffu;
  auto r = analyse_ub(in, false, c);
  auto ub_of = [&](const model::Warp& w) {
    std::vector<std::pair<spec::ClauseId, uint32_t>> v;
    for (const auto& f : model::evaluate(in, w).ub) v.emplace_back(f.clause, f.lanes);
    return v;
  };
  unsigned witnesses = 0;
  for (const auto& a : r.clauses) {
    if (!a.witness) continue;
    ++witnesses;
    const auto& w = *a.witness;
    const auto seen = ub_of(w);
    EXPECT_EQ(w.a[5], 0x1234u);
    EXPECT_EQ(w.mask[5], 0xffffffffu);
    for (unsigned i = 0; i < spec::kWarpSize; ++i) {
      if (!w.exec[i] && !w.exited[i]) {
        auto x = w;
        model::set_status(x, i, model::LaneStatus::Exited);
        EXPECT_NE(ub_of(x), seen) << "lane " << i << " could exit";
      }
      for (unsigned j = 0; j < spec::kWarpSize; ++j) {
        if (i == 5) continue;
        auto x = w;
        if (x.mask[i] >> j & 1u) {
          x.mask[i] &= ~(1u << j);
          EXPECT_NE(ub_of(x), seen) << "lane " << i << " needs no mask bit " << j;
        }
      }
      if (i != 5) {
        EXPECT_EQ(w.a[i], 0u);  // UB does not read the operand
      }
    }
  }
  EXPECT_EQ(witnesses, 3u);
}

TEST(UbQuery, AFullyFixedCleanWarpCannotHaveUb) {
  spec::Instr in{spec::FormId::MatchAllB64};
  UbConstraints c;
  for (auto& l : c.lanes) l = {model::LaneStatus::Executes, 0xffffffffu, 7, 0, {}, {}};
  auto r = analyse_ub(in, false, c);
  for (const auto& a : r.clauses) EXPECT_EQ(a.verdict, Possibility::Cannot);
  EXPECT_EQ(r.any_ub, Possibility::Cannot);
}

TEST(UbQuery, AnInactiveNamedLaneMustFirePeerAbsent) {
  spec::Instr in{spec::FormId::ReduxAddU32};
  UbConstraints c;
  for (auto& l : c.lanes) l.mask = 0xffffffffu;
  c.lanes[0].status = model::LaneStatus::Executes;
  c.lanes[3].status = model::LaneStatus::Inactive;
  auto r = analyse_ub(in, false, c);
  EXPECT_EQ(answer(r, spec::ClauseId::ReduxUbPeerAbsent).verdict, Possibility::Must);
  EXPECT_EQ(r.any_ub, Possibility::Must);
  EXPECT_FALSE(r.free_example.has_value());
}

TEST(UbQuery, FixedStatusesSuggestTheExecutingSetAsMask) {
  spec::Instr in{spec::FormId::BarWarpSync};
  UbConstraints c;
  for (unsigned i = 0; i < spec::kWarpSize; ++i)
    c.lanes[i].status = i < 8 ? model::LaneStatus::Executes : model::LaneStatus::Inactive;
  auto r = analyse_ub(in, false, c);
  bool suggested = false;
  for (const auto& line : r.free_condition)
    suggested = suggested || line.find("0x000000ff") != std::string::npos;
  EXPECT_TRUE(suggested);
}

TEST(UbQuery, BlockBarrierWitnessNeedsOnlyAMissingThread) {
  spec::Instr in{spec::FormId::BarRedPopc};
  in.imm_bar = 0;  // __syncthreads_count: barrier 0, no count
  auto r = analyse_ub(in, false, {});
  ASSERT_EQ(r.clauses.size(), std::size(spec::kCtaUb));
  const auto& a = answer(r, spec::ClauseId::CtaUbNotReached);
  EXPECT_EQ(a.verdict, Possibility::Can);
  // The barrier is undefined once one thread waits for a live thread that never comes: one
  // arriving thread is the fewest.
  EXPECT_EQ(a.witness_executing, 1u);
  EXPECT_TRUE(a.smallest);
  // Without a count, none of the count rules can fire.
  EXPECT_EQ(answer(r, spec::ClauseId::CtaUbCountZero).verdict, Possibility::Cannot);
  EXPECT_EQ(answer(r, spec::ClauseId::CtaUbRedMixed).verdict, Possibility::Can);  // a bar.sync
  EXPECT_EQ(answer(r, spec::ClauseId::CtaUbCountMixed).verdict, Possibility::Cannot);
  EXPECT_EQ(answer(r, spec::ClauseId::CtaUbBarrierRange).verdict, Possibility::Cannot);
  // bar.red is also free of UB when the whole block reaches the barrier through bar.sync.
  EXPECT_NE(r.free_condition.front().find("all through bar.sync"), std::string::npos);
  EXPECT_TRUE(r.condition_checked);
}

// bar.sync without a count: a bar.arrive beside it has no count to give, so the condition names
// the instruction itself only; Z3 shows it equal to "no UB".
TEST(UbQuery, PlainBlockBarrierConditionIsChecked) {
  spec::Instr in{spec::FormId::BarSync};
  in.imm_bar = 0;
  auto r = analyse_ub(in, false, {});
  ASSERT_EQ(r.free_condition.size(), 1u);
  EXPECT_EQ(r.free_condition.front().find("all through bar.sync"), std::string::npos);
  EXPECT_TRUE(r.condition_checked);
}

TEST(UbQuery, Sm6xConvergenceCanFireOnOldTargets) {
  spec::Instr in{spec::FormId::VoteAll};
  auto r = analyse_ub(in, true, {});
  EXPECT_EQ(answer(r, spec::ClauseId::VoteUbSm6xConvergence).verdict, Possibility::Can);
  EXPECT_TRUE(r.condition_checked);
}

// A shuffle reading a lane outside its mask leaves d alone undefined: that is answered apart from
// the UB clauses, over UB-free states, with a witness on which no UB fires.
TEST(UbQuery, ShuffleSourceUndefinedIsAnsweredApartFromUb) {
  spec::Instr in{spec::FormId::ShflIdx};
  auto r = analyse_ub(in, false, {});
  for (const auto& a : r.clauses)
    EXPECT_EQ(spec::clause_info(a.clause).kind, spec::ClauseKind::Undefined);
  ASSERT_EQ(r.undefined_values.size(), 1u);
  const auto& u = r.undefined_values[0];
  EXPECT_EQ(u.clause, spec::ClauseId::ShflSourceUndefined);
  EXPECT_EQ(u.verdict, Possibility::Can);
  EXPECT_EQ(u.witness_executing, 1u);
  EXPECT_TRUE(u.smallest);
  ASSERT_TRUE(u.witness.has_value());
  const auto w = model::evaluate(in, *u.witness);
  EXPECT_TRUE(w.ub.empty());
  for (unsigned i = 0; i < spec::kWarpSize; ++i)
    EXPECT_EQ(w.defined(i) && !w.d_defined(i), ((u.fires_on >> i) & 1u) != 0) << "lane " << i;
}

// Every lane executing with the full mask and b, c fixed: neither UB nor an undefined d.
TEST(UbQuery, AFullWarpShuffleLeavesNoDUndefined) {
  spec::Instr in{spec::FormId::ShflDown};
  UbConstraints c;
  for (auto& l : c.lanes) l = {model::LaneStatus::Executes, 0xffffffffu, 7, 0, 1, 0x1f};
  auto r = analyse_ub(in, false, c);
  EXPECT_EQ(r.any_ub, Possibility::Cannot);
  ASSERT_EQ(r.undefined_values.size(), 1u);
  EXPECT_EQ(r.undefined_values[0].verdict, Possibility::Cannot);
}

// b and c are part of the fixed state: lane 15 of a half-warp reads lane 16, outside its mask.
TEST(UbQuery, FixedOffsetsCanForceAnUndefinedD) {
  spec::Instr in{spec::FormId::ShflDown};
  UbConstraints c;
  for (unsigned i = 0; i < spec::kWarpSize; ++i)
    c.lanes[i] = {i < 16 ? model::LaneStatus::Executes : model::LaneStatus::Inactive,
                  0x0000ffffu,
                  std::nullopt,
                  std::nullopt,
                  1,
                  0x1f};
  auto r = analyse_ub(in, false, c);
  EXPECT_EQ(r.any_ub, Possibility::Cannot);
  ASSERT_EQ(r.undefined_values.size(), 1u);
  EXPECT_EQ(r.undefined_values[0].verdict, Possibility::Must);
  EXPECT_EQ(r.undefined_values[0].fires_on, 1u << 15);
}

// The shuffle has vote's sm_6x rule, and the stated condition covers it.
TEST(UbQuery, ShuffleSm6xConditionIsChecked) {
  spec::Instr in{spec::FormId::ShflBfly};
  auto r = analyse_ub(in, true, {});
  EXPECT_EQ(answer(r, spec::ClauseId::ShflUbSm6xConvergence).verdict, Possibility::Can);
  EXPECT_TRUE(r.condition_checked);
}

}  // namespace
}  // namespace warpspec::checker
