// The whole property library, as `warpspec prove --all` runs it: nothing may be refuted or fail
// to replay, unknown is reported and never counted as proved, and the run must stay well inside
// CI's time on two cores.
#include "checker/library.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string_view>

#include "checker/prover.hpp"

namespace warpspec::checker {
namespace {

TEST(PropertyLibrary, HasAtLeastFortyLawsWithUniqueNamesAndDocs) {
  const auto laws = law_library();
  EXPECT_GE(laws.size(), 40u);
  for (std::size_t i = 0; i < laws.size(); ++i) {
    EXPECT_FALSE(laws[i].doc.empty()) << laws[i].name;
    for (std::size_t j = i + 1; j < laws.size(); ++j) EXPECT_NE(laws[i].name, laws[j].name);
  }
}

TEST(PropertyLibrary, EveryLawMarkedClaimsAloneExistsAndIsMarked) {
  const auto laws = law_library();
  for (auto name : claims_alone_laws()) {
    const auto* p = find_property(laws, name);
    ASSERT_NE(p, nullptr) << name << " is listed in kClaimsAlone but is not a law";
    EXPECT_TRUE(p->claims_alone) << name;
  }
  std::size_t marked = 0;
  for (const auto& p : laws) marked += p.claims_alone;
  EXPECT_EQ(marked, claims_alone_laws().size());
}

// The runner accounts for its time by kind of query, and the parts fit in the whole.
// A law with 64 claims in two groups of one label each, proved in a fraction of a second.
Verdict prove_ballot_law(const ProveOptions& opt) {
  const auto laws = law_library();
  const auto* p = find_property(laws, "vote.any_is_ballot_nonzero");
  if (!p) throw std::logic_error("vote.any_is_ballot_nonzero is not in the library");
  return prove(*p, opt);
}

TEST(Prover, TellsWhereAPropertysTimeWent) {
  const auto v = prove_ballot_law({});
  ASSERT_EQ(v.status, Status::Proved) << v.reason;
  const auto& w = v.work;
  EXPECT_GT(w.build_seconds, 0.0);
  EXPECT_GE(w.grouped.queries, 1u);  // its claims are one group per label, which settles
  EXPECT_EQ(w.abandoned.queries, 0u);
  EXPECT_LE(w.build_seconds + w.grouped.seconds + w.abandoned.seconds + w.single.seconds,
            v.seconds);
}

// With no budget at all, the first group query gives up, then its first slice (which ends the
// slicing), then the first claim asked alone, which ends the property as unknown.
TEST(Prover, CountsTheGroupQueriesThatGaveUp) {
  ProveOptions opt;
  opt.rlimit = 1;
  const auto v = prove_ballot_law(opt);
  EXPECT_EQ(v.status, Status::Unknown);
  EXPECT_EQ(v.work.abandoned.queries, 2u);
  EXPECT_EQ(v.work.grouped.queries, 0u);
  EXPECT_EQ(v.work.single.queries, 1u);
}

TEST(PropertyLibrary, EquivalenceIsGeneratedForEveryCatalogForm) {
  const auto eq = equivalence_library(model_implementation());
  for (const auto& f : spec::kForms)
    EXPECT_NE(find_property(eq, "model_eq_model." + std::string(f.name)), nullptr) << f.name;
  if (fast_implementation()) {
    const auto lib = property_library();
    for (const auto& f : spec::kForms)
      EXPECT_NE(find_property(lib, "fast_eq_model." + std::string(f.name)), nullptr) << f.name;
  }
}

/// The block barriers' fast == model with register operands: about five seconds each on a quiet
/// machine, several times that under load, so proved by a test of their own that demands all
/// five proved, with a limit to match.
bool is_register_operand_equivalence(const Property& p) {
  const std::string_view suffix = ".register_operands";
  return p.name.size() > suffix.size() &&
         p.name.compare(p.name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

TEST(PropertyLibrary, FastEqualsModelOnBlockBarriersWithRegisterOperands) {
  const auto lib = property_library();
  std::vector<const Property*> chosen;
  for (const auto& p : lib)
    if (is_register_operand_equivalence(p)) chosen.push_back(&p);
  if (!fast_implementation()) GTEST_SKIP() << "no fast implementation in this build";
  ASSERT_EQ(chosen.size(), 5u);  // bar.sync, the three bar.red, bar.arrive
  ProveOptions opt;
  opt.jobs = 2;
  opt.timeout_ms = 300000;
  for (const auto& v : prove_all(chosen, opt))
    EXPECT_EQ(v.status, Status::Proved) << v.name << ": " << v.reason << "\n" << v.counterexample;
}

TEST(PropertyLibrary, WholeLibraryHasNoRefutationAndNoReplayFailure) {
  const auto lib = property_library();
  std::vector<const Property*> all;
  for (const auto& p : lib)
    if (!is_register_operand_equivalence(p)) all.push_back(&p);
  ProveOptions opt;
  opt.jobs = 2;
  opt.timeout_ms = 10000;
  const auto t0 = std::chrono::steady_clock::now();
  const auto verdicts = prove_all(all, opt);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::size_t proved = 0, unknown = 0;
  for (const auto& v : verdicts) {
    EXPECT_NE(v.status, Status::Refuted) << v.name << ": " << v.reason << "\n" << v.counterexample;
    EXPECT_TRUE(v.error.empty()) << v.name << ": " << v.error;
    if (v.status == Status::Proved) ++proved;
    if (v.status == Status::Unknown) {
      ++unknown;
      std::printf("unknown: %s (%s)\n", v.name.c_str(), v.reason.c_str());
    }
  }
  std::printf("%zu properties: %zu proved, %zu unknown; wall time %.1f s on 2 workers\n",
              verdicts.size(), proved, unknown, wall);
  EXPECT_GE(proved, 40u);
}

}  // namespace
}  // namespace warpspec::checker
