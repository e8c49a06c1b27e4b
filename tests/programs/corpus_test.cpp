// The kernel corpus (tests/data/programs/corpus): real nvcc output of small kernels, each with
// what every schedule of it must give, derived from the manuals (corpus/README.md). Every kernel
// is explored completely and held to its expectation.
#include <gtest/gtest.h>

#include <set>

#include "programs/kernel_files.hpp"

namespace warpspec::programs {
namespace {

using namespace testing_support;

// A kernel of one of the hand-written collections: the corpus, the idioms and the reductions of
// public bug reports, each a folder with its manifest (expect.json) and README.
struct Kernel {
  std::string dir;
  nlohmann::json k;
};

void PrintTo(const Kernel& k, std::ostream* os) {
  *os << k.k["name"].get<std::string>();
}

class Corpus : public ::testing::TestWithParam<Kernel> {
 protected:
  const std::string& dir() const { return GetParam().dir; }
  const nlohmann::json& kernel() const { return GetParam().k; }
  Program program() const { return kernel_program(dir(), kernel()); }
  Launch launch() const { return kernel_launch(kernel()); }
};

TEST_P(Corpus, EveryScheduleGivesWhatTheManualsSay) {
  const auto& k = kernel();
  const auto& x = explored(dir(), k);
  std::string seen;
  for (const auto& o : x.outcomes) {
    seen += std::string(kind_name(o.kind)) + "\n";
    for (const auto& f : o.findings) seen += "  " + f.key + ": " + f.text + "\n";
  }
  const auto& e = k["expect"];
  // Bounded explorations are expected where the manifest says so, and must say why.
  EXPECT_EQ(x.complete, e.value("complete", true));
  EXPECT_EQ(x.limits.empty(), x.complete);
  // A deadlock that only follows undefined behaviour is left open (null): the walk ends a path
  // at its first finding.
  if (!e["deadlock"].is_null()) {
    EXPECT_EQ(x.any(PathEnd::Kind::Deadlock), e["deadlock"].get<bool>()) << seen;
  }
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

// Two walks of one kernel find the same completed memories and the same verdicts.
void expect_same_outcomes(const Exploration& a, const Exploration& b) {
  auto completed = [](const Exploration& x) {
    std::set<std::vector<std::vector<uint32_t>>> words;
    for (const auto& o : x.outcomes)
      if (o.kind == PathEnd::Kind::Completed) words.insert(o.words);
    return words;
  };
  EXPECT_EQ(completed(a), completed(b));
  EXPECT_EQ(a.any(PathEnd::Kind::Deadlock), b.any(PathEnd::Kind::Deadlock));
  EXPECT_EQ(a.any(PathEnd::Kind::Race), b.any(PathEnd::Kind::Race));
  EXPECT_EQ(a.any_undefined(), b.any_undefined());
}

// The reduction (only the first warp's choices; a ready group that overlaps no other executes
// at once) against the plain walk over every choice of every warp: the same completed outcomes
// and the same verdicts. Kernels whose plain walk does not finish within its budget are skipped,
// and say so; CorpusManifest.TheReductionIsComparedOnMostKernels holds how many may be.
TEST_P(Corpus, TheReductionLosesNoOutcome) {
  ExploreOptions plain;
  plain.reduce = false;
  const auto p = program();
  const auto l = launch();
  // A state of a 128-thread block costs about 2 ms: the plain walk gets a budget by block size.
  plain.max_states = l.threads > 64 ? 300 : 3000;
  const auto& reduced = explored(dir(), kernel());
  if (!reduced.complete) GTEST_SKIP() << "bounded even when reduced: " << reduced.limits.front();
  const auto full = explore(p, l, plain);
  if (!full.complete) GTEST_SKIP() << "the plain walk stopped: " << full.limits.front();
  expect_same_outcomes(reduced, full);
  EXPECT_LE(reduced.states, full.states);
}

// Depth first (the order the walk takes once its frontier outgrows half its memory budget)
// against breadth first: the same completed outcomes and verdicts, only the schedules shown may
// be longer.
TEST_P(Corpus, TheDepthFirstWalkFindsTheSameOutcomes) {
  const auto& breadth = explored(dir(), kernel());
  if (!breadth.complete) GTEST_SKIP() << "bounded: " << breadth.limits.front();
  ExploreOptions o;
  o.depth_first = true;
  const auto deep = explore(program(), launch(), o);
  ASSERT_TRUE(deep.complete) << deep.limits.front();
  expect_same_outcomes(deep, breadth);
  EXPECT_TRUE(breadth.shortest);
}

std::vector<Kernel> kernels(const std::string& folder) {
  const std::string dir = std::string(WARPSPEC_TEST_DATA) + "/programs/" + folder + "/";
  std::vector<Kernel> out;
  for (auto& k : manifest_kernels(dir + "expect.json")) out.push_back({dir, std::move(k)});
  return out;
}

std::string name_of(const ::testing::TestParamInfo<Kernel>& info) {
  return info.param.k["name"].get<std::string>();
}

INSTANTIATE_TEST_SUITE_P(Kernels, Corpus, ::testing::ValuesIn(kernels("corpus")), name_of);
INSTANTIATE_TEST_SUITE_P(Idioms, Corpus, ::testing::ValuesIn(kernels("idioms")), name_of);
INSTANTIATE_TEST_SUITE_P(Bugs, Corpus, ::testing::ValuesIn(kernels("bugs")), name_of);

TEST(CorpusManifest, TheReductionIsComparedOnMostKernels) {
  // The plain walk of every kernel of 64 threads or fewer, with its budget: at least four in
  // five must finish, so that the comparison above is not skipped wholesale.
  unsigned small = 0, finished = 0;
  for (const auto& folder : {"corpus", "idioms", "bugs"})
    for (const auto& k : kernels(folder)) {
      const Launch l = kernel_launch(k.k);
      if (l.threads > 64) continue;
      ExploreOptions plain;
      plain.reduce = false;
      plain.max_states = 3000;
      ++small;
      finished += explore(kernel_program(k.dir, k.k), l, plain).complete;
    }
  EXPECT_GE(small, 60u);
  EXPECT_GE(finished * 5, small * 4) << finished << " of " << small;
}

TEST(CorpusManifest, HoldsTheKernelsItNames) {
  EXPECT_GE(kernels("corpus").size(), 16u);
  EXPECT_GE(kernels("idioms").size(), 40u);
  EXPECT_GE(kernels("bugs").size(), 20u);
}

}  // namespace
}  // namespace warpspec::programs
