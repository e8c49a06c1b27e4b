// The generated kernels on the H100 (tests/data/programs/generated): 3,000 kernels from
// capture/generate_kernels.py (seeds 1-15, 200 each), launched once each by the kernel runner.
// Every completed launch of a kernel whose exploration finishes without a race or UB must be one
// of its predicted outcomes, every hang a kernel predicted to deadlock or reach UB (or one whose
// exploration did not finish), and every failed launch a kernel predicted to reach UB. The suite
// replays every tenth launch; WARPSPEC_REPLAY_ALL=1 replays them all (about two minutes).
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdlib>
#include <map>

#include "programs/kernel_files.hpp"

namespace warpspec::programs {
namespace {

using namespace testing_support;

const std::string kDir = std::string(WARPSPEC_TEST_DATA) + "/programs/generated/";

std::string gunzip(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) {
    ADD_FAILURE() << path << ": cannot open";
    return {};
  }
  std::string out;
  char buf[1 << 16];
  for (int n; (n = gzread(f, buf, sizeof buf)) > 0;) out.append(buf, static_cast<std::size_t>(n));
  gzclose(f);
  return out;
}

// What a launch shows against its kernel's exploration.
enum class Verdict {
  Predicted,
  PredictedBounded,
  NotAmongBounded,
  NotPredicted,
  HangPredicted,
  HangUnfinished,
  HangNotPredicted,
  TrapPredicted,
  MemoryUnpredicted,
  Outside,
  Error
};

Verdict judge(const nlohmann::json& r, const Exploration& x) {
  const std::string status = r["status"];
  // A launch that failed (the GPU trapped) is what undefined behaviour may do.
  if (status == "error") return x.any_undefined() ? Verdict::TrapPredicted : Verdict::Error;
  if (status == "hang") {
    if (x.any(PathEnd::Kind::Deadlock) || x.any_undefined()) return Verdict::HangPredicted;
    return x.complete ? Verdict::HangNotPredicted : Verdict::HangUnfinished;
  }
  // A race or undefined behaviour (a deadlock may be undefined too) predicts no memory.
  if (x.any(PathEnd::Kind::Race) || x.any_undefined() || x.any(PathEnd::Kind::GaveUp))
    return Verdict::MemoryUnpredicted;
  for (const auto& o : x.outcomes) {
    if (o.kind != PathEnd::Kind::Completed) continue;
    bool same = true;
    for (std::size_t i = 0; i < o.words.size() && same; ++i) {
      if (r["buffers"][i].is_null()) continue;
      const auto got = r["buffers"][i].get<std::vector<uint32_t>>();
      for (std::size_t w = 0; w < got.size() && same; ++w)
        same = o.undefined[i][w] || got[w] == o.words[i][w];
    }
    if (same) return x.complete ? Verdict::Predicted : Verdict::PredictedBounded;
  }
  return x.complete ? Verdict::NotPredicted : Verdict::NotAmongBounded;
}

TEST(GeneratedKernels, EveryH100LaunchIsAPredictedOutcome) {
  const bool all = std::getenv("WARPSPEC_REPLAY_ALL") != nullptr;
  std::map<std::string, std::pair<nlohmann::json, int>> kernels;  // name -> (kernel, seed)
  std::map<int, std::string> ptx;
  for (int seed = 1; seed <= 15; ++seed) {
    const auto m = nlohmann::json::parse(gunzip(kDir + "gen_" + std::to_string(seed) + ".json.gz"));
    for (const auto& k : m["kernels"]) kernels[k["name"]] = {k, seed};
  }
  std::map<Verdict, unsigned> n;
  std::size_t line_no = 0;
  std::stringstream records(gunzip(kDir + "h100.jsonl.gz"));
  for (std::string line; std::getline(records, line); ++line_no) {
    if (!all && line_no % 10 != 0) continue;
    const auto r = nlohmann::json::parse(line);
    const auto& [k, seed] = kernels.at(r["kernel"].get<std::string>());
    if (!ptx.count(seed)) ptx[seed] = gunzip(kDir + "gen_" + std::to_string(seed) + ".ptx.gz");
    auto read = read_ptx(ptx[seed], k["entry"].get<std::string>());
    if (!std::holds_alternative<Program>(read)) {
      ++n[Verdict::Outside];  // the kernel uses an instruction outside the subset
      continue;
    }
    ExploreOptions o;
    o.max_states = 20000;
    const auto x = explore(std::get<Program>(read), kernel_launch(k), o);
    const auto v = judge(r, x);
    ++n[v];
    EXPECT_NE(v, Verdict::NotPredicted) << r["kernel"] << ": the H100's memory is no outcome";
    EXPECT_NE(v, Verdict::HangNotPredicted)
        << r["kernel"] << ": it hung, and every schedule completes without a finding";
    EXPECT_NE(v, Verdict::Error) << r["kernel"] << ": " << r.value("error", "");
  }
  std::cout << "replayed " << (all ? "every" : "every tenth")
            << " launch: " << n[Verdict::Predicted] << " predicted, "
            << n[Verdict::PredictedBounded] << " predicted by a bounded walk, "
            << n[Verdict::NotAmongBounded] << " not among a bounded walk's outcomes, "
            << n[Verdict::HangPredicted] << " predicted hangs, " << n[Verdict::HangUnfinished]
            << " hangs of unfinished walks, " << n[Verdict::TrapPredicted]
            << " traps of kernels predicted undefined, " << n[Verdict::MemoryUnpredicted]
            << " with a race or UB (memory not predicted), " << n[Verdict::Outside]
            << " outside the subset, " << n[Verdict::Error] << " errors\n";
  if (!all) {
    EXPECT_EQ(line_no, 3000u);
    EXPECT_GE(n[Verdict::Predicted], 150u);
    EXPECT_GE(n[Verdict::HangPredicted], 10u);
  }
}

}  // namespace
}  // namespace warpspec::programs
