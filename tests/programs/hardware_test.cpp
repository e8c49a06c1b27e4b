// The H100 against the predictions: every launch of the corpus recorded in
// tests/data/programs/h100/corpus.jsonl must be an outcome `warpspec run` predicts for its
// kernel (a hang, a predicted deadlock or undefined behaviour).
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "programs/explore.hpp"
#include "programs/launch.hpp"
#include "programs/ptx_reader.hpp"

namespace warpspec::programs {
namespace {

const std::string kData = std::string(WARPSPEC_TEST_DATA) + "/programs/";

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(Hardware, EveryRecordedLaunchIsAPredictedOutcome) {
  const auto manifest = nlohmann::json::parse(slurp(kData + "corpus/expect.json"));
  std::map<std::string, nlohmann::json> kernels;
  for (const auto& k : manifest["kernels"]) kernels[k["name"]] = k;
  std::map<std::string, Exploration> predicted;
  std::ifstream in(kData + "h100/corpus.jsonl");
  unsigned launches = 0, matched = 0, hangs = 0, racy = 0;
  for (std::string line; std::getline(in, line);) {
    const auto r = nlohmann::json::parse(line);
    const std::string name = r["kernel"];
    ASSERT_TRUE(kernels.count(name)) << name;
    const auto& k = kernels[name];
    if (!predicted.count(name)) {
      auto read = read_ptx(slurp(kData + "corpus/" + k["ptx"].get<std::string>()),
                           k["entry"].get<std::string>());
      ASSERT_TRUE(std::holds_alternative<Program>(read)) << name;
      predicted[name] = explore(std::get<Program>(read), launch_from_json(k, name).launch);
    }
    const auto& x = predicted[name];
    ++launches;
    const std::string status = r["status"];
    ASSERT_NE(status, "error") << name << ": " << r.value("error", "");
    if (status == "hang") {
      ++hangs;
      EXPECT_TRUE(x.any(PathEnd::Kind::Deadlock) || x.any_undefined())
          << name << " hung on the GPU; warpspec run predicts neither a deadlock nor UB";
      continue;
    }
    if (x.any(PathEnd::Kind::Race) || x.any(PathEnd::Kind::Undefined)) {
      ++racy;  // no memory is predicted where a race or UB ends the path
      continue;
    }
    bool found = false;
    for (const auto& o : x.outcomes) {
      if (o.kind != PathEnd::Kind::Completed) continue;
      bool same = true;
      for (std::size_t i = 0; i < o.words.size(); ++i) {
        if (r["buffers"][i].is_null()) continue;
        const auto got = r["buffers"][i].get<std::vector<uint32_t>>();
        for (std::size_t w = 0; w < got.size() && same; ++w)
          same = o.undefined[i][w] || got[w] == o.words[i][w];
      }
      found = found || same;
    }
    EXPECT_TRUE(found) << name << " run " << r["run"] << ": the GPU's buffers are no outcome "
                       << "warpspec run predicts";
    matched += found;
  }
  // Five launches of each of the 19 kernels: two of them hang, two race.
  EXPECT_EQ(launches, 95u);
  EXPECT_EQ(hangs, 10u);
  EXPECT_EQ(racy, 10u);
  EXPECT_EQ(matched, 75u);
}

}  // namespace
}  // namespace warpspec::programs
