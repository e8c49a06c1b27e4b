// The kernel corpus (tests/data/programs/corpus): real nvcc output of small kernels, each with
// what every schedule of it must give, derived from the manuals (corpus/README.md). Every kernel
// is explored completely and held to its expectation.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "programs/explore.hpp"
#include "programs/launch.hpp"
#include "programs/ptx_reader.hpp"

namespace warpspec::programs {
namespace {

const std::string kCorpus = std::string(WARPSPEC_TEST_DATA) + "/programs/corpus/";

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class Corpus : public testing::TestWithParam<nlohmann::json> {};

TEST_P(Corpus, EveryScheduleGivesWhatTheManualsSay) {
  const auto& k = GetParam();
  auto read = read_ptx(slurp(kCorpus + k["ptx"].get<std::string>()), k["entry"].get<std::string>());
  ASSERT_TRUE(std::holds_alternative<Program>(read))
      << std::get<ReadError>(read).loc.line << ": " << std::get<ReadError>(read).message;
  const auto& p = std::get<Program>(read);
  const Launch l = launch_from_json(k, k["name"].get<std::string>()).launch;
  const auto x = explore(p, l);
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

std::vector<nlohmann::json> kernels() {
  const auto j = nlohmann::json::parse(slurp(kCorpus + "expect.json"));
  return {j["kernels"].begin(), j["kernels"].end()};
}

INSTANTIATE_TEST_SUITE_P(Kernels, Corpus, testing::ValuesIn(kernels()), [](const auto& info) {
  return info.param["name"].template get<std::string>();
});

TEST(CorpusManifest, HoldsTheKernelsItNames) {
  EXPECT_GE(kernels().size(), 16u);
}

}  // namespace
}  // namespace warpspec::programs
