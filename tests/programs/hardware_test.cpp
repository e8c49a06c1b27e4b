// Whole kernels on an H100 against the predictions (tests/data/programs/hardware.json): every
// recorded launch must be an outcome `warpspec run` predicts for its kernel: completed memory
// some schedule gives, a hang where some schedule deadlocks or reaches undefined behaviour, a
// failed launch where some schedule reaches undefined behaviour. The replay is the one
// `warpspec capture-check --programs` and `warpspec report` print (capture/kernel_replay.hpp).
// The generated set is replayed one launch in ten here, and in full with WARPSPEC_REPLAY_ALL=1
// (about two minutes).
#include <gtest/gtest.h>

#include <cstdlib>

#include "capture/kernel_replay.hpp"
#include "model/input.hpp"

namespace warpspec::capture {
namespace {

const std::string kIndex = std::string(WARPSPEC_TEST_DATA) + "/programs/hardware.json";

KernelSetReplay replay(const std::string& name) {
  for (const auto& s : read_kernel_sets(kIndex))
    if (s.name == name) {
      programs::ExploreOptions o;
      o.max_states = 20000;
      const bool all = std::getenv("WARPSPEC_REPLAY_ALL") != nullptr;
      auto r = replay_kernel_set(s, all ? 1 : s.sample, o, {}, 2);
      for (const auto& c : r.contradictions)
        ADD_FAILURE() << name << ": " << c.kernel << " run " << c.run << ": "
                      << verdict_text(c.verdict) << " " << c.detail;
      std::cout << name << ":";
      for (auto v : kLaunchVerdicts)
        if (r.counts.count(v)) std::cout << " " << r.counts.at(v) << " " << verdict_text(v) << ";";
      std::cout << "\n";
      return r;
    }
  ADD_FAILURE() << kIndex << " has no set " << name;
  return {};
}

std::size_t count(const KernelSetReplay& r, LaunchVerdict v) {
  return r.counts.count(v) ? r.counts.at(v) : 0;
}

TEST(Hardware, EveryCorpusLaunchIsAPredictedOutcome) {
  // Five launches of each of the 19 kernels: two of them hang, two race.
  const auto r = replay("corpus");
  EXPECT_EQ(r.launches, 95u);
  EXPECT_EQ(count(r, LaunchVerdict::HangPredicted), 10u);
  EXPECT_EQ(count(r, LaunchVerdict::MemoryUnpredicted), 10u);
  EXPECT_EQ(count(r, LaunchVerdict::Predicted) + count(r, LaunchVerdict::PredictedBounded), 75u);
}

TEST(Hardware, ALaunchAFirstWalkLeavesUndecidedIsDecidedByASecond) {
  // The corpus with first walks cut at three states: a completed launch is then undecided
  // wherever the walk needs more, and its kernel is explored again with the larger limits,
  // which decide every launch as the full walks do.
  KernelSet corpus;
  for (const auto& s : read_kernel_sets(kIndex))
    if (s.name == "corpus") corpus = s;
  ASSERT_FALSE(corpus.records.empty());
  programs::ExploreOptions tiny;
  tiny.max_states = 3;
  const auto r = replay_kernel_set(corpus, 1, tiny, {}, 2);
  EXPECT_GT(r.explored_again, 0u);
  EXPECT_TRUE(r.undecided.empty());
  EXPECT_TRUE(r.contradictions.empty());
  EXPECT_EQ(count(r, LaunchVerdict::HangPredicted), 10u);
  EXPECT_EQ(count(r, LaunchVerdict::MemoryUnpredicted), 10u);
  EXPECT_EQ(count(r, LaunchVerdict::Predicted) + count(r, LaunchVerdict::PredictedBounded), 75u);
}

TEST(Hardware, EveryWorkedExampleLaunchIsAPredictedOutcome) {
  // Ten launches of each of the six worked examples: two hang, one is undefined.
  const auto r = replay("worked examples");
  EXPECT_EQ(r.launches, 60u);
  EXPECT_EQ(count(r, LaunchVerdict::HangPredicted), 20u);
  EXPECT_EQ(count(r, LaunchVerdict::MemoryUnpredicted), 10u);
  EXPECT_EQ(count(r, LaunchVerdict::Predicted), 30u);
}

TEST(Hardware, EveryIdiomLaunchIsAPredictedOutcome) {
  // Five launches of each of the 48 idiom kernels: two hang (a count never reached, a warp
  // synchronising with a lane that waits elsewhere), one traps, ten race or are undefined.
  const auto r = replay("idioms");
  EXPECT_EQ(r.launches, 240u);
  EXPECT_EQ(count(r, LaunchVerdict::Predicted), 175u);
  EXPECT_EQ(count(r, LaunchVerdict::HangPredicted), 10u);
  EXPECT_EQ(count(r, LaunchVerdict::TrapPredicted), 5u);
}

TEST(Hardware, EveryBugReductionLaunchIsAPredictedOutcome) {
  // Five launches of each of the 27 reductions of public bug reports.
  const auto r = replay("bug reductions");
  EXPECT_EQ(r.launches, 135u);
  EXPECT_EQ(count(r, LaunchVerdict::Predicted), 85u);
  EXPECT_EQ(count(r, LaunchVerdict::HangPredicted), 10u);
  EXPECT_EQ(count(r, LaunchVerdict::TrapPredicted), 5u);
}

TEST(Hardware, EveryLoopGeneratedKernelLaunchIsAPredictedOutcome) {
  // 1,000 kernels of the second generator (capture/generate_loop_kernels.py, seeds 1-10), one
  // launch each.
  const auto r = replay("loop-generated");
  if (std::getenv("WARPSPEC_REPLAY_ALL")) return;
  EXPECT_EQ(r.launches, 100u);
  EXPECT_GE(count(r, LaunchVerdict::Predicted), 60u);
  EXPECT_GE(count(r, LaunchVerdict::HangPredicted), 10u);
  EXPECT_EQ(count(r, LaunchVerdict::Outside), 0u);
}

TEST(Hardware, EveryGeneratedKernelLaunchIsAPredictedOutcome) {
  // 3,000 generated kernels (capture/generate_kernels.py, seeds 1-15), one launch each.
  const auto r = replay("generated");
  if (std::getenv("WARPSPEC_REPLAY_ALL")) return;
  EXPECT_EQ(r.launches, 300u);
  EXPECT_GE(count(r, LaunchVerdict::Predicted), 150u);
  EXPECT_GE(count(r, LaunchVerdict::HangPredicted), 10u);
  EXPECT_EQ(count(r, LaunchVerdict::Outside), 0u);
}

// The verdicts themselves, on a made-up exploration.
TEST(Hardware, AJudgedLaunchIsComparedWordByWordExceptWhereUndefined) {
  programs::Exploration x;
  programs::PathEnd done;
  done.kind = programs::PathEnd::Kind::Completed;
  done.words = {{1, 2, 3}, {}};
  done.undefined = {{false, true, false}, {}};
  x.outcomes.push_back(done);
  auto record = [](const std::string& line) { return parse_launch_record(line, "test", 1); };
  EXPECT_EQ(judge(record(R"({"kernel":"k","run":0,"status":"completed","buffers":[[1,9,3],null]})"), x),
            LaunchVerdict::Predicted);
  EXPECT_EQ(judge(record(R"({"kernel":"k","run":0,"status":"completed","buffers":[[1,2,4],null]})"), x),
            LaunchVerdict::NotPredicted);
  EXPECT_EQ(judge(record(R"({"kernel":"k","run":0,"status":"hang"})"), x),
            LaunchVerdict::HangNotPredicted);
  EXPECT_EQ(judge(record(R"({"kernel":"k","run":0,"status":"error","error":"trap"})"), x),
            LaunchVerdict::Error);
  // With undefined behaviour on some path: no memory is predicted, a hang and a trap are.
  programs::Exploration ub = x;
  programs::PathEnd bad;
  bad.kind = programs::PathEnd::Kind::Undefined;
  bad.findings.push_back({"shfl.ub.self_not_in_mask", "", {0}, {}});
  ub.outcomes.push_back(bad);
  EXPECT_EQ(judge(record(R"({"kernel":"k","run":0,"status":"completed","buffers":[[7,7,7],null]})"), ub),
            LaunchVerdict::MemoryUnpredicted);
  EXPECT_EQ(judge(record(R"({"kernel":"k","run":0,"status":"hang"})"), ub), LaunchVerdict::HangPredicted);
  EXPECT_EQ(judge(record(R"({"kernel":"k","run":0,"status":"error","error":"trap"})"), ub),
            LaunchVerdict::TrapPredicted);
  x.complete = false;
  EXPECT_EQ(judge(record(R"({"kernel":"k","run":0,"status":"error","error":"trap"})"), x),
            LaunchVerdict::TrapUnfinished);
  EXPECT_EQ(judge(record(R"({"kernel":"k","run":0,"status":"hang"})"), x), LaunchVerdict::HangUnfinished);
  EXPECT_EQ(judge(record(R"({"kernel":"k","run":0,"status":"completed","buffers":[[1,2,4],null]})"), x),
            LaunchVerdict::NotAmongBounded);
  EXPECT_THROW(record(R"({"kernel":"k","run":0,"status":"done"})"), model::FormatError);
  EXPECT_THROW(record("not json"), model::FormatError);
  EXPECT_THROW(record(R"({"kernel":"k","status":"hang"})"), model::FormatError);  // no run
}

}  // namespace
}  // namespace warpspec::capture
