// Planted wrong semantics come back refuted, with a counterexample that replays through the
// concrete reading and shows the violation as a lane table.
#include <gtest/gtest.h>

#include "checker/library.hpp"
#include "checker/prover.hpp"
#include "mutants.hpp"

namespace warpspec::checker {
namespace {

Verdict prove_named(const std::vector<Property>& lib, const std::string& name) {
  const auto* p = find_property(lib, name);
  EXPECT_NE(p, nullptr) << name;
  if (!p) return {};
  ProveOptions opt;
  opt.timeout_ms = 60000;
  return prove(*p, opt);
}

void expect_refuted_with_replay(const Verdict& v) {
  EXPECT_EQ(v.status, Status::Refuted) << v.name << ": " << v.reason << " " << v.error;
  EXPECT_TRUE(v.error.empty()) << v.error;
  EXPECT_NE(v.counterexample.find("lane status"), std::string::npos) << v.counterexample;
}

TEST(Mutants, BallotIgnoringTheMaskBreaksAnyAgainstBallot) {
  auto m = mutants::implementation<mutants::BallotIgnoresMask>("ballot-ignores-mask");
  expect_refuted_with_replay(prove_named(law_library(m), "vote.ballot_within_live_mask"));
}

TEST(Mutants, BallotIgnoringTheMaskIsNotEquivalentToTheModel) {
  auto m = mutants::implementation<mutants::BallotIgnoresMask>("ballot-ignores-mask");
  auto v = prove_named(equivalence_library(m), "ballot-ignores-mask_eq_model.vote.sync.ballot.b32");
  expect_refuted_with_replay(v);
  EXPECT_NE(v.counterexample.find("ballot-ignores-mask: vote.sync.ballot.b32"), std::string::npos);
}

TEST(Mutants, InvertedUniBreaksUniAsAllOrNone) {
  auto m = mutants::implementation<mutants::UniInverted>("uni-inverted");
  expect_refuted_with_replay(prove_named(law_library(m), "vote.uni_is_all_or_none"));
}

TEST(Mutants, FloatMatchByValueBreaksBitPatternComparison) {
  auto m = mutants::implementation<mutants::FloatMatchByValue>("float-match-by-value");
  auto v = prove_named(law_library(m), "match.any_compares_bit_patterns");
  expect_refuted_with_replay(v);
}

TEST(Mutants, TheModelItselfIsEquivalentToTheModel) {
  auto v = prove_named(equivalence_library(model_implementation()),
                       "model_eq_model.vote.sync.ballot.b32");
  EXPECT_EQ(v.status, Status::Proved) << v.reason;
}

// A counterexample that does not replay is a bug in the checker, reported as an error (the CLI
// exits 70): here the symbolic reading is the mutant but the concrete one is the model.
TEST(Mutants, ACounterexampleThatDoesNotReplayIsAnError) {
  auto base = mutants::implementation<mutants::UniInverted>("split");
  auto split = std::make_shared<Implementation>(*base);
  split->warp_concrete = model_implementation()->warp_concrete;
  auto v = prove_named(law_library(split), "vote.uni_is_all_or_none");
  EXPECT_EQ(v.status, Status::Refuted);
  EXPECT_NE(v.error.find("does not reproduce"), std::string::npos) << v.error;
}

}  // namespace
}  // namespace warpspec::checker
