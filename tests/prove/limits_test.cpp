// Solver limits end in `unknown` with Z3's reason, never in `proved`.
#include <gtest/gtest.h>

#include "checker/library.hpp"
#include "checker/prover.hpp"

namespace warpspec::checker {
namespace {

TEST(Limits, TinyResourceLimitIsUnknownNeverProved) {
  const auto lib = law_library();
  const auto* p = find_property(lib, "vote.all_is_ballot_of_live_mask");
  ASSERT_NE(p, nullptr);
  ProveOptions opt;
  opt.rlimit = 1;
  auto v = prove(*p, opt);
  EXPECT_EQ(v.status, Status::Unknown);
  EXPECT_FALSE(v.reason.empty());
}

TEST(Limits, StepsCountTheSolversWorkAndRepeat) {
  const auto lib = law_library();
  const auto* p = find_property(lib, "vote.all_is_ballot_of_live_mask");
  ASSERT_NE(p, nullptr);
  const auto a = prove(*p, ProveOptions{});
  const auto b = prove(*p, ProveOptions{});
  ASSERT_EQ(a.status, Status::Proved);
  EXPECT_GT(a.steps, 0u);
  // Z3's step count is deterministic: a second proof of a quick property does the same work.
  EXPECT_EQ(a.steps, b.steps);
}

TEST(Limits, TinyTimeoutIsUnknownNeverProved) {
  const auto lib = law_library();
  const auto* p = find_property(lib, "vote.all_is_ballot_of_live_mask");
  ASSERT_NE(p, nullptr);
  ProveOptions opt;
  opt.timeout_ms = 1;
  auto v = prove(*p, opt);
  EXPECT_EQ(v.status, Status::Unknown);
  EXPECT_NE(v.reason.find("timeout"), std::string::npos) << v.reason;
}

TEST(Limits, LemmaNotProvedInTheRunLeavesTheDependentUnknown) {
  const auto lib = property_library();
  if (!fast_implementation()) GTEST_SKIP() << "the fast implementation is not built";
  const auto* p = find_property(lib, "fast_eq_model.vote.sync.ballot.b32");
  ASSERT_NE(p, nullptr);
  auto v = prove_all({p}, ProveOptions{});  // without its lemmas
  EXPECT_EQ(v[0].status, Status::Unknown);
  EXPECT_NE(v[0].reason.find("lemma"), std::string::npos) << v[0].reason;
}

}  // namespace
}  // namespace warpspec::checker
