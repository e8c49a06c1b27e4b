// Kernels that once got a wrong answer (tests/data/programs/regressions/README.md), each held to
// what the PTX ISA says of it.
#include <gtest/gtest.h>

#include "programs/kernel_files.hpp"

namespace warpspec::programs {
namespace {

using namespace testing_support;

Exploration run(const std::string& name, const std::string& launch_json,
                spec::Target target = spec::kDefaultTarget) {
  const std::string dir = std::string(WARPSPEC_TEST_DATA) + "/programs/regressions/";
  auto k = nlohmann::json::parse(launch_json);
  k["name"] = name;
  k["ptx"] = name + ".ptx";
  if (!k.contains("entry")) k["entry"] = "k";
  Launch l = kernel_launch(k);
  l.target = target;
  return explore(kernel_program(dir, k), l);
}

TEST(Regressions, ACountOfOneWarpCompletesAPhasePerWarp) {
  const auto x = run("b1", R"({"threads": 64, "params": [{"zeros": 2}]})");
  EXPECT_TRUE(x.any(PathEnd::Kind::Race));
}

TEST(Regressions, AProducerArrivingTwiceRacesWithTheConsumer) {
  const auto x = run("pc2", R"({"entry": "pc2", "threads": 64, "params": [{"zeros": 64}]})");
  EXPECT_TRUE(x.any(PathEnd::Kind::Race) || x.any(PathEnd::Kind::Deadlock));
  EXPECT_FALSE(x.any(PathEnd::Kind::Completed));
}

TEST(Regressions, BarArriveWaitsForItsOwnWarp) {
  const auto x = run("arr", R"({"threads": 32, "params": [{"zeros": 1}]})");
  EXPECT_TRUE(x.any(PathEnd::Kind::Deadlock));
  EXPECT_FALSE(x.any(PathEnd::Kind::Completed));
}

TEST(Regressions, AnOpenPhaseIsJudgedByTheModel) {
  EXPECT_TRUE(run("bar_arrive_1_0", R"({"threads": 32})").any_finding("cta.ub.count_zero"));
  EXPECT_TRUE(
      run("bar_arrive_1_48", R"({"threads": 32})").any_finding("cta.ub.count_not_warp_multiple"));
  EXPECT_TRUE(run("bar_arrive_1_64", R"({"threads": 32})").any_finding("cta.ub.count_unreachable"));
  const auto x = run("bar_sync_1_48", R"({"threads": 32})");
  EXPECT_TRUE(x.any(PathEnd::Kind::Deadlock));
  EXPECT_TRUE(x.any_finding("cta.ub.count_not_warp_multiple"));
}

TEST(Regressions, ArrivalsWithOtherOperandsAreOtherStates) {
  EXPECT_TRUE(run("dg", R"({"threads": 96})").any_finding("cta.ub.count_mixed"));
}

TEST(Regressions, AFindingInOneWarpDoesNotHideARaceInAnother) {
  const auto x = run("red1", R"({"threads": 64, "params": [{"zeros": 1}]})");
  EXPECT_TRUE(x.any(PathEnd::Kind::Undefined));
  EXPECT_TRUE(x.any(PathEnd::Kind::Race));
}

TEST(Regressions, ASpinOnAVolatileFlagEndsAndIsNoRace) {
  const auto x = run("spin", R"({"entry": "_Z4spinPViPi", "threads": 64,
                                 "params": [{"zeros": 1}, {"zeros": 1}]})");
  ASSERT_EQ(x.outcomes.size(), 1u);
  EXPECT_EQ(x.outcomes[0].kind, PathEnd::Kind::Completed);
  EXPECT_EQ(x.outcomes[0].words[1], std::vector<uint32_t>{1});
  // The volatile accesses were taken in one order, and the verdict says so.
  EXPECT_FALSE(x.complete);
}

TEST(Regressions, SignedNarrowParametersAreSignExtended) {
  const auto x = run("p1", R"({"entry": "_Z1kPias", "threads": 1,
                               "params": [{"zeros": 2}, {"value": -1}, {"value": -2}]})");
  ASSERT_EQ(x.outcomes.size(), 1u);
  EXPECT_EQ(x.outcomes[0].words[0], (std::vector<uint32_t>{0xffffffffu, 0xfffffffeu}));
}

TEST(Regressions, AGuardedUniformBranchTakenByNoLaneFallsThroughBeforeVolta) {
  // Every lane's guard is false: all of them store 5 (the same word, which races).
  const auto x = run("bu", R"({"threads": 32, "params": [{"zeros": 1}]})", spec::Target{60, 0});
  EXPECT_FALSE(x.any(PathEnd::Kind::Completed));
  EXPECT_TRUE(x.any(PathEnd::Kind::Race));
}

TEST(Regressions, AShuffleIsUndefinedOnlyWhereItReadsAnUndefinedLane) {
  std::string words;
  for (int i = 0; i < 16; ++i) words += (i ? "," : "") + std::to_string(i);
  const auto x = run("shu", R"({"entry": "_Z3shuPiS_", "threads": 32,
                               "params": [{"words": [)" +
                                words + R"(]}, {"zeros": 32}]})");
  EXPECT_FALSE(x.any_finding("program.undefined_control"));
}

TEST(Regressions, CvtToANarrowerSignedTypeSignExtends) {
  const auto x = run("ar", R"({"threads": 1, "params": [{"zeros": 32}, {"value": 2147483648}]})");
  ASSERT_EQ(x.outcomes.size(), 1u);
  const auto& w = x.outcomes[0].words[0];
  EXPECT_EQ(w[0], 0xffffff80u);  // cvt.s8.s32 into a 32-bit register
  EXPECT_EQ(w[1], 0xffff8000u);  // cvt.s16.s32 into a 32-bit register
  EXPECT_EQ(w[2], 0xff80u);      // cvt.s8.s32 into a 16-bit register, stored as 32 bits
}

TEST(Regressions, AMisalignedLoadIsUndefined) {
  const auto x = run("misaligned", R"({"threads": 1, "params": [{"words": [1, 2, 0]}]})");
  EXPECT_TRUE(x.any_finding("program.bad_address"));
}

TEST(Regressions, ParameterLoadsFollowTheLayoutAndStopAtItsEnd) {
  // [k_param_0+8] is k_param_1 (7); [k_param_1+4] is past the parameter space.
  const auto x = run("paramoff", R"({"threads": 1, "params": [{"zeros": 2}, {"value": 7}]})");
  ASSERT_EQ(x.outcomes.size(), 1u);
  EXPECT_TRUE(x.any_finding("program.bad_address"));
  EXPECT_NE(x.outcomes[0].findings[0].text.find("outside the parameters"), std::string::npos);
}

TEST(Regressions, UnorderedVolatileAccessesAreTakenInOneOrderAndSaySo) {
  const auto x = run("vol", R"({"entry": "_Z3volPViPi", "threads": 64,
                               "params": [{"zeros": 1}, {"zeros": 1}]})");
  EXPECT_FALSE(x.any(PathEnd::Kind::Race));
  EXPECT_FALSE(x.complete);
  ASSERT_FALSE(x.limits.empty());
  EXPECT_NE(x.limits.front().find("volatile"), std::string::npos);
}

}  // namespace
}  // namespace warpspec::programs
