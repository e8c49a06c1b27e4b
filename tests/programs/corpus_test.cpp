// The kernel corpus (tests/data/programs/corpus): real nvcc output of small kernels, each with
// what every schedule of it must give, derived from the manuals (corpus/README.md). Every kernel
// is explored completely and held to its expectation.
#include <gtest/gtest.h>

#include <set>

#include "programs/kernel_files.hpp"

namespace warpspec::programs {
namespace {

using namespace testing_support;

class Corpus : public ::testing::TestWithParam<nlohmann::json> {
 protected:
  Program program() const { return kernel_program(kCorpus, GetParam()); }
  Launch launch() const { return kernel_launch(GetParam()); }
};

TEST_P(Corpus, EveryScheduleGivesWhatTheManualsSay) {
  const auto& k = GetParam();
  const auto& x = explored(kCorpus, k);
  std::string seen;
  for (const auto& o : x.outcomes) {
    seen += std::string(kind_name(o.kind)) + "\n";
    for (const auto& f : o.findings) seen += "  " + f.key + ": " + f.text + "\n";
  }
  const auto& e = k["expect"];
  // Bounded explorations are expected where the manifest says so, and must say why.
  EXPECT_EQ(x.complete, e.value("complete", true));
  EXPECT_EQ(x.limits.empty(), x.complete);
  EXPECT_EQ(x.any(PathEnd::Kind::Deadlock), e["deadlock"].get<bool>()) << seen;
  EXPECT_EQ(x.any(PathEnd::Kind::Race), e["race"].get<bool>()) << seen;
  EXPECT_EQ(x.any_undefined(), e["ub"].get<bool>()) << seen;
  if (e["final"].is_null()) return;
  ASSERT_EQ(x.outcomes.size(), 1u) << seen;
  const auto& o = x.outcomes[0];
  ASSERT_EQ(o.kind, PathEnd::Kind::Completed) << seen;
  for (std::size_t i = 0; i < e["final"].size(); ++i) {
    if (e["final"][i].is_null()) continue;
    EXPECT_EQ(o.words[i], e["final"][i].get<std::vector<uint32_t>>()) << "parameter " << i;
    for (std::size_t w = 0; w < o.undefined[i].size(); ++w)
      EXPECT_FALSE(o.undefined[i][w]) << "parameter " << i << " word " << w << " is undefined";
  }
}

// The reduction (only the first warp's choices; a ready group that overlaps no other executes
// at once) against the plain walk over every choice of every warp: the same completed outcomes
// and the same verdicts. Kernels whose plain walk does not finish within its limit are left to
// the test above, and at least half of them must be compared.
TEST_P(Corpus, TheReductionLosesNoOutcome) {
  ExploreOptions plain;
  plain.reduce = false;
  plain.max_states = 20000;
  const auto p = program();
  const auto l = launch();
  const auto& reduced = explored(kCorpus, GetParam());
  if (!reduced.complete) GTEST_SKIP() << "bounded even when reduced: " << reduced.limits.front();
  const auto full = explore(p, l, plain);
  if (!full.complete) GTEST_SKIP() << "the plain walk stopped: " << full.limits.front();
  auto completed = [](const Exploration& x) {
    std::set<std::vector<std::vector<uint32_t>>> words;
    for (const auto& o : x.outcomes)
      if (o.kind == PathEnd::Kind::Completed) words.insert(o.words);
    return words;
  };
  EXPECT_EQ(completed(reduced), completed(full));
  EXPECT_EQ(reduced.any(PathEnd::Kind::Deadlock), full.any(PathEnd::Kind::Deadlock));
  EXPECT_EQ(reduced.any(PathEnd::Kind::Race), full.any(PathEnd::Kind::Race));
  EXPECT_EQ(reduced.any_undefined(), full.any_undefined());
  EXPECT_LE(reduced.states, full.states);
}

std::vector<nlohmann::json> kernels() {
  return manifest_kernels(kCorpus + "expect.json");
}

INSTANTIATE_TEST_SUITE_P(Kernels, Corpus, ::testing::ValuesIn(kernels()), [](const auto& info) {
  return info.param["name"].template get<std::string>();
});

TEST(CorpusManifest, HoldsTheKernelsItNames) {
  EXPECT_GE(kernels().size(), 16u);
}

}  // namespace
}  // namespace warpspec::programs
