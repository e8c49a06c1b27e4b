// The H100 against the predictions: every launch of the corpus recorded in
// tests/data/programs/h100/corpus.jsonl must be an outcome `warpspec run` predicts for its
// kernel (a hang, a predicted deadlock or undefined behaviour).
#include <gtest/gtest.h>

#include <map>

#include "programs/kernel_files.hpp"

namespace warpspec::programs {
namespace {

using namespace testing_support;

const std::string kData = std::string(WARPSPEC_TEST_DATA) + "/programs/";

// What replaying one record file found.
struct Tally {
  unsigned launches = 0, matched = 0, hangs = 0, unpredicted_memory = 0;
};

// Replays `records` (one launch a line) against the kernels of `manifest`, whose PTX files lie
// beside it.
Tally replay(const std::string& manifest_path, const std::string& records) {
  const std::string dir = manifest_path.substr(0, manifest_path.find_last_of('/') + 1);
  std::map<std::string, nlohmann::json> kernels;
  for (const auto& k : manifest_kernels(manifest_path)) kernels[k["name"]] = k;
  std::ifstream in(records);
  Tally n;
  for (std::string line; std::getline(in, line);) {
    const auto r = nlohmann::json::parse(line);
    const std::string name = r["kernel"];
    if (!kernels.count(name)) {
      ADD_FAILURE() << name << " is not in " << manifest_path;
      continue;
    }
    const auto& x = explored(dir, kernels[name]);
    ++n.launches;
    const std::string status = r["status"];
    EXPECT_NE(status, "error") << name << ": " << r.value("error", "");
    if (status == "hang") {
      ++n.hangs;
      EXPECT_TRUE(x.any(PathEnd::Kind::Deadlock) || x.any_undefined())
          << name << " hung on the GPU; warpspec run predicts neither a deadlock nor UB";
      continue;
    }
    if (x.any(PathEnd::Kind::Race) || x.any_undefined()) {
      ++n.unpredicted_memory;  // a race or UB ends the path: no memory is predicted
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
    EXPECT_TRUE(found) << name << " run " << r["run"]
                       << ": the GPU's buffers are no outcome warpspec run predicts";
    n.matched += found;
  }
  return n;
}

TEST(Hardware, EveryCorpusLaunchIsAPredictedOutcome) {
  // Five launches of each of the 19 kernels: two of them hang, two race.
  const auto n = replay(kData + "corpus/expect.json", kData + "h100/corpus.jsonl");
  EXPECT_EQ(n.launches, 95u);
  EXPECT_EQ(n.hangs, 10u);
  EXPECT_EQ(n.unpredicted_memory, 10u);
  EXPECT_EQ(n.matched, 75u);
}

TEST(Hardware, EveryWorkedExampleLaunchIsAPredictedOutcome) {
  // Ten launches of each of the six worked examples: two hang, one is undefined.
  const auto n = replay(std::string(WARPSPEC_SOURCE_DIR) + "/examples/programs/launches.json",
                        kData + "h100/examples.jsonl");
  EXPECT_EQ(n.launches, 60u);
  EXPECT_EQ(n.hangs, 20u);
  EXPECT_EQ(n.unpredicted_memory, 10u);
  EXPECT_EQ(n.matched, 30u);
}

}  // namespace
}  // namespace warpspec::programs
