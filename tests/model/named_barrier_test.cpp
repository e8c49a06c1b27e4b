// The named block barriers, clause by clause: bar.sync / bar.red with a barrier number and a
// thread count, and bar.arrive. Each expected value is worked out by hand from PTX ISA 9.7.13.1:
// a warp arrives once its live threads stand at the barrier, a count of b completes the barrier
// each time b/32 warps have arrived, bar.arrive does not wait.
#include <gtest/gtest.h>

#include <string>

#include "model/clause_test.hpp"
#include "model/eval.hpp"
#include "spec/instr_parse.hpp"

namespace warpspec {
namespace {

using spec::ClauseId;

spec::Instr parsed(const std::string& text) {
  auto r = spec::parse_instruction(text);
  EXPECT_TRUE(std::holds_alternative<spec::ParsedInstr>(r)) << text;
  return std::get<spec::ParsedInstr>(r).instr;
}

/// A block of `n` threads; warps whose bit is clear in `arriving` are alive but elsewhere.
model::Cta warps_at(std::size_t n, uint32_t arriving) {
  auto c = model::make_cta(n);
  for (std::size_t t = 0; t < n; ++t) c.arrive[t] = (arriving >> (t / 32)) & 1u;
  return c;
}

bool fires(const model::CtaResult& r, ClauseId c) {
  for (const auto& f : r.ub)
    if (f.clause == c) return true;
  return false;
}

CLAUSE_TEST("cta.named", ACountOfTwoWarpsCompletesWithoutTheRestOfTheBlock) {
  const auto r = model::evaluate_cta(parsed("bar.sync 1, 64;"), warps_at(128, 0b0011));
  EXPECT_TRUE(r.ub.empty());
  for (std::size_t t = 0; t < 128; ++t) EXPECT_EQ(r.outcome.defined(t), t < 64) << t;
  // One warp of the two the count asks for: the barrier never completes.
  EXPECT_TRUE(fires(model::evaluate_cta(parsed("bar.sync 1, 64;"), warps_at(128, 0b0001)),
                    ClauseId::CtaUbNotReached));
}

CLAUSE_TEST("cta.named", AWarpWithExitedThreadsArrivesAsAWholeWarp) {
  auto c = warps_at(128, 0b0011);
  for (std::size_t t = 40; t < 46; ++t) c.exited[t] = true, c.arrive[t] = false;
  EXPECT_TRUE(model::evaluate_cta(parsed("bar.sync 1, 64;"), c).ub.empty());
}

CLAUSE_TEST("cta.named", FourWarpsFillTwoPhasesOfTwoAndThreeDoNot) {
  EXPECT_TRUE(model::evaluate_cta(parsed("bar.sync 1, 64;"), warps_at(128, 0b1111)).ub.empty());
  EXPECT_TRUE(fires(model::evaluate_cta(parsed("bar.sync 1, 64;"), warps_at(128, 0b0111)),
                    ClauseId::CtaUbNotReached));
}

CLAUSE_TEST("cta.named", ARegisterBarrierNumberSplitsTheBlockIntoTwoReductions) {
  auto c = warps_at(128, 0b1111);
  for (std::size_t t = 0; t < 128; ++t) {
    c.bar[t] = t < 64 ? 1 : 2;
    c.pred[t] = t < 10 || (t >= 64 && t < 69);  // 10 true at barrier 1, 5 at barrier 2
  }
  const auto r = model::evaluate_cta(parsed("bar.red.popc.u32 d, %b, 64, p;"), c);
  ASSERT_TRUE(r.ub.empty());
  EXPECT_EQ(r.outcome.d[0], 10u);
  EXPECT_EQ(r.outcome.d[63], 10u);
  EXPECT_EQ(r.outcome.d[64], 5u);
  EXPECT_EQ(r.outcome.d[127], 5u);
}

CLAUSE_TEST("cta.arrive", BarArriveGoesOnAloneAndCountsForBarSync) {
  const auto alone = model::evaluate_cta(parsed("bar.arrive 1, 64;"), warps_at(128, 0b0001));
  EXPECT_TRUE(alone.ub.empty());
  EXPECT_TRUE(alone.outcome.defined(0));
  // Warp 0 arrives with bar.arrive, warp 1 waits with bar.sync: two warps, the count is met.
  auto c = warps_at(128, 0b0011);
  for (std::size_t t = 0; t < 32; ++t) c.partner[t] = true;
  const auto r = model::evaluate_cta(parsed("bar.sync 1, 64;"), c);
  EXPECT_TRUE(r.ub.empty());
  EXPECT_FALSE(r.outcome.executes[0]);  // it ran bar.arrive, not this instruction
  EXPECT_TRUE(r.outcome.defined(32));
}

CLAUSE_TEST("cta.ub.barrier_range", BarrierSixteenDoesNotExist) {
  auto c = warps_at(64, 0b11);
  for (auto& b : c.bar) b = 16;
  EXPECT_TRUE(fires(model::evaluate_cta(parsed("bar.sync %b;"), c), ClauseId::CtaUbBarrierRange));
  for (auto& b : c.bar) b = 15;
  EXPECT_TRUE(model::evaluate_cta(parsed("bar.sync %b;"), c).ub.empty());
}

CLAUSE_TEST("cta.ub.count_not_warp_multiple", ACountOf48) {
  auto c = warps_at(64, 0b11);
  for (auto& n : c.count) n = 48;
  EXPECT_TRUE(fires(model::evaluate_cta(parsed("bar.sync 1, %n;"), c),
                    ClauseId::CtaUbCountNotWarpMultiple));
}

CLAUSE_TEST("cta.ub.count_zero", BarArriveWithACountOfZero) {
  auto c = warps_at(64, 0b01);
  for (auto& n : c.count) n = 0;
  EXPECT_TRUE(fires(model::evaluate_cta(parsed("bar.arrive 1, %n;"), c), ClauseId::CtaUbCountZero));
}

CLAUSE_TEST("cta.ub.count_unreachable", ACountLargerThanTheBlock) {
  EXPECT_TRUE(fires(model::evaluate_cta(parsed("bar.sync 1, 256;"), warps_at(128, 0b1111)),
                    ClauseId::CtaUbCountUnreachable));
  // A partial last warp still supplies 32: 48 threads reach a count of 64.
  EXPECT_TRUE(model::evaluate_cta(parsed("bar.sync 1, 64;"), warps_at(48, 0b11)).ub.empty());
}

CLAUSE_TEST("cta.ub.count_mixed", TwoWarpsGiveDifferentCounts) {
  auto c = warps_at(128, 0b0011);
  for (std::size_t t = 0; t < 128; ++t) c.count[t] = t < 32 ? 64 : 96;
  EXPECT_TRUE(fires(model::evaluate_cta(parsed("bar.sync 1, %n;"), c), ClauseId::CtaUbCountMixed));
}

CLAUSE_TEST("cta.ub.red_mixed", BarRedBesideBarSync) {
  auto c = warps_at(128, 0b0011);
  for (std::size_t t = 32; t < 64; ++t) c.partner[t] = true;
  EXPECT_TRUE(fires(model::evaluate_cta(parsed("bar.red.popc.u32 d, 1, 64, p;"), c),
                    ClauseId::CtaUbRedMixed));
}

CLAUSE_TEST("cta.ub.red_phases", TwoWarpsAtAReductionForOne) {
  EXPECT_TRUE(fires(model::evaluate_cta(parsed("bar.red.or.pred d, 1, 32, p;"), warps_at(64, 0b11)),
                    ClauseId::CtaUbRedPhases));
  // bar.sync may take the two phases: nothing depends on which warp goes first.
  EXPECT_TRUE(model::evaluate_cta(parsed("bar.sync 1, 32;"), warps_at(64, 0b11)).ub.empty());
}

CLAUSE_TEST("cta.ub.not_aligned", OneThreadOfAWarpArrivesWithTheOtherForm) {
  auto c = warps_at(64, 0b11);
  c.partner[28] = true;  // bar.arrive in a warp whose other threads run bar.sync
  EXPECT_TRUE(fires(model::evaluate_cta(parsed("bar.sync 1, 64;"), c), ClauseId::CtaUbNotAligned));
}

TEST(NamedBarrierParse, TheBarrierCtaSpellingsAreAliases) {
  EXPECT_EQ(parsed("barrier.cta.sync.aligned 1, 64;").form, spec::FormId::BarSync);
  EXPECT_EQ(parsed("barrier.sync 2;").form, spec::FormId::BarSync);
  EXPECT_EQ(parsed("bar.cta.arrive 3, 96;").form, spec::FormId::BarArrive);
  EXPECT_EQ(parsed("barrier.cta.red.popc.aligned.u32 d, 1, 64, !p;").form,
            spec::FormId::BarRedPopc);
  const auto in = parsed("bar.red.and.pred d, %a, %b, p;");
  EXPECT_FALSE(in.imm_bar.has_value());
  EXPECT_TRUE(in.has_count);
  EXPECT_FALSE(in.imm_count.has_value());
  EXPECT_FALSE(parsed("bar.red.and.pred d, 1, p;").has_count);
  EXPECT_FALSE(std::holds_alternative<spec::ParsedInstr>(spec::parse_instruction("bar.arrive 1;")));
  EXPECT_FALSE(std::holds_alternative<spec::ParsedInstr>(spec::parse_instruction("bar.sync 16;")));
}

}  // namespace
}  // namespace warpspec
