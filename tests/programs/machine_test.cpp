// The step semantics and the explorer on small hand-written kernels. Each expectation follows
// from the rules of independent thread scheduling and the per-instruction semantics: what a
// schedule may choose (who meets at a collective, who reads __activemask together), when a
// barrier phase completes, and which accesses no barrier orders.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

#include "programs/cfg.hpp"
#include "programs/explore.hpp"
#include "programs/ptx_reader.hpp"

namespace warpspec::programs {
namespace {

constexpr const char* kHead = ".version 9.0\n.target sm_90\n.address_size 64\n";

Program read_or_fail(const std::string& body) {
  auto r = read_ptx(std::string(kHead) + body);
  if (auto* e = std::get_if<ReadError>(&r))
    ADD_FAILURE() << "line " << e->loc.line << ":" << e->loc.column << ": " << e->message;
  return std::holds_alternative<Program>(r) ? std::get<Program>(r) : Program{};
}

ParamValue zeros(std::size_t n) {
  ParamValue v;
  v.is_buffer = true;
  v.words.assign(n, 0);
  return v;
}

Exploration run(const std::string& body, unsigned threads, std::vector<ParamValue> params,
                spec::Target target = spec::kDefaultTarget, const ExploreOptions& o = {}) {
  const Program p = read_or_fail(body);
  Launch l;
  l.threads = threads;
  l.params = std::move(params);
  l.target = target;
  return explore(p, l, o);
}

/// The walk without its reduction: every choice of every warp.
ExploreOptions unreduced() {
  ExploreOptions o;
  o.reduce = false;
  return o;
}

constexpr spec::Target kPascal{60, 0};

// out[tid] = value of %r9 at the end; the store every kernel below ends with.
const std::string kStoreR9 = R"(
  mov.u32 %r20, %tid.x;
  ld.param.u64 %rd1, [k_param_0];
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r20, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r9;
  ret;
}
)";

const std::string kEntry = R"(
.visible .entry k(.param .u64 k_param_0)
{
  .reg .pred %p<4>;
  .reg .b32 %r<24>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b8 s[256];
)";

TEST(Programs, ButterflyReductionGivesEveryLaneTheWarpSum) {
  // Five butterfly steps over a full warp: each lane ends with 0 + 1 + ... + 31 = 496.
  const auto x = run(kEntry + R"(
  mov.u32 %r9, %tid.x;
  shfl.sync.bfly.b32 %r1, %r9, 16, 31, -1;
  add.s32 %r9, %r9, %r1;
  shfl.sync.bfly.b32 %r1, %r9, 8, 31, -1;
  add.s32 %r9, %r9, %r1;
  shfl.sync.bfly.b32 %r1, %r9, 4, 31, -1;
  add.s32 %r9, %r9, %r1;
  shfl.sync.bfly.b32 %r1, %r9, 2, 31, -1;
  add.s32 %r9, %r9, %r1;
  shfl.sync.bfly.b32 %r1, %r9, 1, 31, -1;
  add.s32 %r9, %r9, %r1;
)" + kStoreR9,
                     32, {zeros(32)});
  ASSERT_TRUE(x.complete);
  ASSERT_EQ(x.outcomes.size(), 1u);
  EXPECT_EQ(x.outcomes[0].kind, PathEnd::Kind::Completed);
  EXPECT_EQ(x.outcomes[0].words[0], std::vector<uint32_t>(32, 496));
}

TEST(Programs, SharedMemoryWithoutABarrierRaces) {
  // Each thread writes its own word and reads its neighbour's: nothing orders the two.
  const std::string body = R"(
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, s;
  add.s32 %r4, %r3, %r2;
  st.shared.u32 [%r4], %r1;
  BARRIER
  add.s32 %r5, %r1, 1;
  and.b32 %r5, %r5, 31;
  shl.b32 %r6, %r5, 2;
  add.s32 %r7, %r3, %r6;
  ld.shared.u32 %r9, [%r7];
)";
  auto with = [&](const std::string& barrier) {
    std::string b = body;
    b.replace(b.find("BARRIER"), 7, barrier);
    return run(kEntry + b + kStoreR9, 32, {zeros(32)});
  };
  const auto racy = with("");
  EXPECT_TRUE(racy.any_finding("program.data_race"));
  EXPECT_TRUE(racy.any(PathEnd::Kind::Race));
  EXPECT_FALSE(racy.any(PathEnd::Kind::Undefined));

  // With __syncthreads between them every thread reads its neighbour's number.
  const auto fixed = with("bar.sync 0;");
  ASSERT_TRUE(fixed.complete);
  ASSERT_EQ(fixed.outcomes.size(), 1u);
  std::vector<uint32_t> want(32);
  for (uint32_t t = 0; t < 32; ++t) want[t] = (t + 1) % 32;
  EXPECT_EQ(fixed.outcomes[0].words[0], want);

  // __syncwarp orders shared memory within the warp too.
  const auto warp = with("bar.warp.sync -1;");
  ASSERT_EQ(warp.outcomes.size(), 1u);
  EXPECT_EQ(warp.outcomes[0].kind, PathEnd::Kind::Completed);
  EXPECT_EQ(warp.outcomes[0].words[0], want);
}

// Warp 0 waits at `bar.sync 0`, warp 1 at the barrier instruction `second`.
Exploration split_at_barriers(const std::string& second) {
  return run(kEntry + R"(
  mov.u32 %r1, %tid.x;
  mov.u32 %r9, 7;
  setp.ge.u32 %p1, %r1, 32;
  @%p1 bra $L_other;
  bar.sync 0;
  bra.uni $L_done;
$L_other:
  )" + second + R"(
$L_done:
)" + kStoreR9,
             64, {zeros(64)});
}

TEST(Programs, TwoWarpsAtDifferentBarriersDeadlock) {
  // Neither barrier gets the whole block. Both are __syncthreads-style barriers (no count)
  // under a condition the block does not share.
  const auto x = split_at_barriers("bar.sync 1;");
  ASSERT_EQ(x.outcomes.size(), 1u);
  const auto& o = x.outcomes[0];
  EXPECT_EQ(o.kind, PathEnd::Kind::Deadlock);
  ASSERT_EQ(o.findings.size(), 2u);
  EXPECT_EQ(o.findings[0].key, "program.barrier_divergent");
  EXPECT_EQ(o.findings[1].key, "program.barrier_divergent");
  EXPECT_NE(o.findings[0].text.find("threads 0-31"), std::string::npos) << o.findings[0].text;
  EXPECT_NE(o.findings[0].text.find("threads 32-63"), std::string::npos) << o.findings[0].text;
}

TEST(Programs, AFindingComesWithEachThreadsTraceAlongItsSchedule) {
  // The deadlock above: each warp's threads ran the same instructions and wait at their own
  // barrier; every thread is in exactly one group.
  const auto x = split_at_barriers("bar.sync 1;");
  ASSERT_EQ(x.outcomes.size(), 1u);
  const auto& trace = x.outcomes[0].trace;
  ASSERT_EQ(trace.size(), 2u);
  EXPECT_EQ(trace[0].threads.size(), 32u);
  EXPECT_EQ(trace[0].threads.front(), 0u);
  EXPECT_EQ(trace[1].threads.front(), 32u);
  EXPECT_NE(trace[0].end.find("waits at"), std::string::npos) << trace[0].end;
  EXPECT_NE(trace[0].end.find("(bar.sync 0)"), std::string::npos) << trace[0].end;
  EXPECT_NE(trace[1].end.find("(bar.sync 1)"), std::string::npos) << trace[1].end;
  // Warp 0 ran straight to its barrier; warp 1 branched over it.
  EXPECT_EQ(trace[0].runs.size(), 1u);
  EXPECT_EQ(trace[1].runs.size(), 2u);
}

TEST(Programs, ALongTraceIsCutAndSaysSo) {
  // 5,000 turns of a loop, then a bar.warp.sync whose mask leaves its caller out: the trace has
  // a run per turn, kept up to its limit, and then says it was cut.
  const auto x = run(kEntry + R"(
  mov.u32 %r9, 0;
$L_loop:
  add.u32 %r9, %r9, 1;
  setp.lt.u32 %p1, %r9, 5000;
  @%p1 bra $L_loop;
  bar.warp.sync 0;
)" + kStoreR9,
                     1, {zeros(1)});
  ASSERT_EQ(x.outcomes.size(), 1u);
  ASSERT_EQ(x.outcomes[0].trace.size(), 1u);
  const auto& t = x.outcomes[0].trace[0];
  EXPECT_EQ(t.runs.size(), 4096u);
  for (const auto& r : t.runs) EXPECT_LE(r.first, r.second);
  EXPECT_EQ(t.end.rfind("(trace cut after 4096 runs) ", 0), 0u) << t.end;
}

TEST(Programs, SyncthreadsReachedThroughTwoInstructionsIsDivergent) {
  // Both warps use barrier 0, from different instructions: the hardware counts them together,
  // but the condition that split them is not uniform across the block.
  const auto x = split_at_barriers("bar.sync 0;");
  EXPECT_TRUE(x.any_finding("program.barrier_divergent"));
  EXPECT_FALSE(x.any(PathEnd::Kind::Deadlock));
}

TEST(Programs, BarrierWithoutAlignedMayBeReachedFromTwoInstructions) {
  // The same split through barrier.sync without .aligned: the PTX ISA lets threads reach it from
  // different instructions, so the phase completes without a finding.
  const std::string second = "barrier.sync 0;";
  auto x = run(kEntry + R"(
  mov.u32 %r1, %tid.x;
  mov.u32 %r9, 7;
  setp.ge.u32 %p1, %r1, 32;
  @%p1 bra $L_other;
  barrier.sync 0;
  bra.uni $L_done;
$L_other:
  )" + second + R"(
$L_done:
)" + kStoreR9,
               64, {zeros(64)});
  ASSERT_EQ(x.outcomes.size(), 1u);
  EXPECT_EQ(x.outcomes[0].kind, PathEnd::Kind::Completed);
  EXPECT_TRUE(x.outcomes[0].findings.empty());
  // Where the other warp waits at barrier 1 instead, it is a deadlock but not a divergent
  // aligned barrier.
  x = run(kEntry + R"(
  mov.u32 %r1, %tid.x;
  mov.u32 %r9, 7;
  setp.ge.u32 %p1, %r1, 32;
  @%p1 bra $L_other;
  barrier.sync 0;
  bra.uni $L_done;
$L_other:
  barrier.sync 1;
$L_done:
)" + kStoreR9,
          64, {zeros(64)});
  EXPECT_TRUE(x.any(PathEnd::Kind::Deadlock));
  EXPECT_TRUE(x.any_finding("program.barrier_never_completes"));
  EXPECT_FALSE(x.any_finding("program.barrier_divergent"));
}

// Lanes 0-8 branch to `target`; lanes 9-31 of their warp run a ballot over themselves and then
// `after` (what follows the branch target is `tail`).
std::string split_warp(const std::string& target, const std::string& after,
                       const std::string& tail) {
  return kEntry + R"(
  mov.u32 %r1, %tid.x;
  mov.u32 %r9, 7;
  setp.lt.u32 %p1, %r1, 9;
  @%p1 bra )" +
         target + R"(;
  mov.u32 %r2, 0xfffffe00;
  vote.sync.ballot.b32 %r9, %p1, %r2;
)" + after +
         tail + kStoreR9;
}

// Lanes 0-8 wait at __syncthreads inside a branch; lanes 9-31 take the other side, run a
// ballot and exit, never reaching the barrier. A warp must reach an .aligned barrier together,
// so the split is undefined: the H100 let lanes 0-8 through before the others came
// (docs/observed-behaviour.md, g12_97).
const std::string kSplitWarp =
    split_warp("$L_wait", "  bra.uni $L_done;\n", "$L_wait:\n  bar.sync 0;\n$L_done:\n");

TEST(Programs, LanesThatRunACollectiveWhileTheirWarpWaitsAtABarrierAndExitAreDivergent) {
  const auto x = run(kSplitWarp, 32, {zeros(32)});
  EXPECT_TRUE(x.any_finding("program.barrier_divergent"));
  EXPECT_TRUE(x.any_undefined());
}

TEST(Programs, AWalkAskedForOneKindOfOutcomeStopsAtTheFirstAndSaysItIsIncomplete) {
  ExploreOptions o;
  unsigned asked = 0;
  o.enough = [&](const PathEnd& e) {
    ++asked;
    return e.kind == PathEnd::Kind::Undefined;
  };
  const auto x = run(kSplitWarp, 32, {zeros(32)}, spec::kDefaultTarget, o);
  EXPECT_GE(asked, 1u);
  ASSERT_FALSE(x.outcomes.empty());
  EXPECT_EQ(x.outcomes.back().kind, PathEnd::Kind::Undefined);
  EXPECT_FALSE(x.complete);
  ASSERT_FALSE(x.limits.empty());
  EXPECT_NE(x.limits.back().find("first outcome"), std::string::npos) << x.limits.back();
}

TEST(Programs, AFrontierPastItsMemoryBudgetStopsTheWalkAndSaysSo) {
  // Two threads read __activemask: three groupings to follow from the first state, more than
  // a budget of one state's size holds even depth first.
  const std::string body = kEntry + R"(
  activemask.b32 %r9;
)" + kStoreR9;
  ExploreOptions o;
  o.max_frontier_bytes = 1;
  const auto x = run(body, 2, {zeros(2)}, spec::kDefaultTarget, o);
  EXPECT_FALSE(x.complete);
  ASSERT_FALSE(x.limits.empty());
  EXPECT_NE(x.limits.front().find("even depth first"), std::string::npos) << x.limits.front();
  EXPECT_TRUE(run(body, 2, {zeros(2)}).complete);
}

TEST(Programs, LanesThatRunACollectiveAndThenReachTheSameBarrierAreNotDivergent) {
  // The two sides meet again before __syncthreads, as a reduction whose first lanes run
  // __syncwarp(mask) does: no finding.
  const auto x = run(split_warp("$L_join", "", "$L_join:\n  bar.sync 0;\n"), 32, {zeros(32)});
  EXPECT_FALSE(x.any_finding("program.barrier_divergent"));
  EXPECT_FALSE(x.any_undefined());
  ASSERT_EQ(x.outcomes.size(), 1u);
  EXPECT_EQ(x.outcomes[0].kind, PathEnd::Kind::Completed);
}

TEST(Programs, LanesThatRunACollectiveAndThenReachAnotherBarrierAreDivergent) {
  const auto x = run(split_warp("$L_wait", "  bar.sync 0;\n  bra.uni $L_done;\n",
                                "$L_wait:\n  bar.sync 0;\n$L_done:\n"),
                     32, {zeros(32)});
  EXPECT_TRUE(x.any_finding("program.barrier_divergent"));
}

TEST(Programs, BarRedMeetingBarSyncIsRedMixed) {
  // Warp 0 at __syncthreads_or (bar.red.or), warp 1 at __syncthreads (bar.sync 0): the model's
  // clause for the two meeting, whichever warp came first.
  const auto x = split_at_barriers("setp.ne.u32 %p2, %r1, 0;\n  bar.red.or.pred %p3, 0, %p2;");
  EXPECT_TRUE(x.any_finding("cta.ub.red_mixed"));
  EXPECT_FALSE(x.any_finding("cta.ub.count_zero"));
}

TEST(Programs, TheOrderOfArrivalsAtACountedBarrierIsAChoice) {
  // Warp 0 arrives twice at `bar.arrive 1, 64` and exits; warp 1 waits twice at `bar.sync 1, 64`.
  // If both of warp 0's arrivals come first they fill a phase on their own and warp 1 waits for
  // ever; in the other orders each phase holds one arrival of each warp and all complete.
  const auto x = run(kEntry + R"(
  mov.u32 %r1, %tid.x;
  mov.u32 %r9, 3;
  setp.ge.u32 %p1, %r1, 32;
  @%p1 bra $L_other;
  bar.arrive 1, 64;
  bar.arrive 1, 64;
  bra.uni $L_done;
$L_other:
  bar.sync 1, 64;
  bar.sync 1, 64;
$L_done:
)" + kStoreR9,
                     64, {zeros(64)});
  EXPECT_TRUE(x.complete);
  EXPECT_TRUE(x.any(PathEnd::Kind::Deadlock));
  EXPECT_TRUE(x.any(PathEnd::Kind::Completed));
}

// Every outcome (kind and memory) of the reduced walk and of the plain one.
std::set<std::pair<int, std::vector<std::vector<uint32_t>>>> outcome_set(const Exploration& x) {
  std::set<std::pair<int, std::vector<std::vector<uint32_t>>>> out;
  for (const auto& o : x.outcomes) out.insert({static_cast<int>(o.kind), o.words});
  return out;
}

TEST(Programs, ArrivalsAtOneBarrierAreOrderedWhateverAnotherBarrierReleases) {
  // Warps 0 and 3 wait at `bar.sync 1, 64`; warps 1 and 2 at `bar.sync 2, 64`, after which
  // warp 2 goes to barrier 1 too. Any two of warps 0, 2 and 3 may fill barrier 1's phase, and
  // the third waits for ever: three deadlocks, each leaving another warp's words unwritten.
  const std::string body = kEntry + R"(
  mov.u32 %r1, %tid.x;
  shr.u32 %r3, %r1, 5;
  mov.u32 %r9, 1;
  setp.eq.u32 %p1, %r3, 1;
  @%p1 bra $L_w1;
  setp.eq.u32 %p2, %r3, 2;
  @%p2 bra $L_w2;
  bar.sync 1, 64;
  bra.uni $L_done;
$L_w1:
  bar.sync 2, 64;
  bra.uni $L_done;
$L_w2:
  bar.sync 2, 64;
  bar.sync 1, 64;
$L_done:
)" + kStoreR9;
  const auto reduced = run(body, 128, {zeros(128)});
  const auto full = run(body, 128, {zeros(128)}, spec::kDefaultTarget, unreduced());
  EXPECT_TRUE(reduced.complete);
  EXPECT_EQ(reduced.outcomes.size(), 3u);
  EXPECT_EQ(outcome_set(reduced), outcome_set(full));
}

// Warp 0 spins on a flag (word 96) by `spin`; warps 1 and 2 set it after `bar.sync 1, 64`.
Exploration spin_on_flag(const std::string& spin) {
  return run(kEntry + R"(
  mov.u32 %r1, %tid.x;
  ld.param.u64 %rd5, [k_param_0];
  cvta.to.global.u64 %rd6, %rd5;
  mov.u32 %r9, 1;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 bra $L_wait;
  bar.sync 1, 64;
  st.volatile.global.u32 [%rd6+384], 1;
  bra.uni $L_done;
$L_wait:
  ld.volatile.global.u32 %r2, [%rd6+384];
  )" + spin + R"(
$L_done:
)" + kStoreR9,
             96, {zeros(97)});
}

TEST(Programs, AWarpSpinningThroughACollectiveDoesNotStarveCountedArrivals) {
  // Warp 0 spins on a flag through a full-mask vote; warps 1 and 2 set the flag after
  // `bar.sync 1, 64`. The spin repeats a state, so the arrivals must be offered beside it.
  const auto x = spin_on_flag(
      "setp.ne.u32 %p2, %r2, 0;\n  vote.sync.any.pred %p3, %p2, -1;\n  @!%p3 bra $L_wait;");
  EXPECT_TRUE(x.any(PathEnd::Kind::Completed));
  EXPECT_FALSE(x.outcomes.empty());
}

TEST(Programs, AThreadSpinningOnMemoryLetsCountedArrivalsThrough) {
  // The same with a plain spin on the flag: the spinning warp never waits, so the warps before
  // the barrier arrive (in one order, which the walk reports).
  const auto x = spin_on_flag("setp.eq.u32 %p2, %r2, 0;\n  @%p2 bra $L_wait;");
  EXPECT_TRUE(x.any(PathEnd::Kind::Completed));
  EXPECT_FALSE(x.any(PathEnd::Kind::GaveUp));
  EXPECT_FALSE(x.complete);
}

TEST(Programs, NestedMasksAtOneInstructionMeetAndMismatch) {
  // Lane 0 runs `bar.warp.sync 3`, lane 1 `bar.warp.sync 2` at the same instruction: they meet
  // and the model calls the masks mismatched (the H100 hangs on this shape).
  const auto x = run(kEntry + R"(
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  selp.b32 %r2, 3, 2, %p1;
  bar.warp.sync %r2;
  mov.u32 %r9, 0;
)" + kStoreR9,
                     2, {zeros(2)});
  EXPECT_TRUE(x.any_finding("syncwarp.ub.mask_mismatch"));
}

TEST(Programs, ArrivalsInAnyOrderAreOneStateOnceThePhaseHoldsThem) {
  // Eight warps before one `bar.sync 1, 256`: the order they arrive in makes no difference to
  // the phase, so the walk sees the sets of warps arrived, not their orders.
  Launch l;
  l.threads = 256;
  l.params = {zeros(256)};
  const auto x =
      explore(read_or_fail(kEntry + "  mov.u32 %r9, 2;\n  bar.sync 1, 256;\n" + kStoreR9), l);
  ASSERT_EQ(x.outcomes.size(), 1u);
  EXPECT_EQ(x.outcomes[0].kind, PathEnd::Kind::Completed);
  EXPECT_LE(x.states, 300u);
}

TEST(Programs, ARaceOnOnePathDoesNotHideACountMismatchBehindTheArrivals) {
  // Warp 0 shuffles and stores; warp 1 stores the same word and waits at `bar.sync 1, 64`;
  // warp 2 at `bar.sync 1, 96`. The stores race, and the two counts at barrier 1 differ: both
  // findings must be reported, though the race ends the path the first warp's choice starts.
  const auto body = kEntry + R"(
  mov.u32 %r1, %tid.x;
  shr.u32 %r3, %r1, 5;
  ld.param.u64 %rd5, [k_param_0];
  cvta.to.global.u64 %rd6, %rd5;
  and.b32 %r5, %r1, 31;
  mul.wide.u32 %rd7, %r5, 4;
  add.s64 %rd6, %rd6, %rd7;
  mov.u32 %r9, 4;
  setp.eq.u32 %p1, %r3, 1;
  @%p1 bra $L_w1;
  setp.eq.u32 %p2, %r3, 2;
  @%p2 bra $L_w2;
  shfl.sync.idx.b32 %r4, %r1, 0, 31, -1;
  st.global.u32 [%rd6+384], %r4;
  bra.uni $L_done;
$L_w1:
  st.global.u32 [%rd6+384], %r1;
  bar.sync 1, 64;
  bra.uni $L_done;
$L_w2:
  bar.sync 1, 96;
$L_done:
)" + kStoreR9;
  const auto x = run(body, 96, {zeros(128)});
  const auto full = run(body, 96, {zeros(128)}, spec::kDefaultTarget, unreduced());
  EXPECT_TRUE(x.any(PathEnd::Kind::Race));
  EXPECT_EQ(x.any_undefined(), full.any_undefined());
  EXPECT_EQ(x.any(PathEnd::Kind::Race), full.any(PathEnd::Kind::Race));
  EXPECT_TRUE(full.any_undefined());
}

TEST(Programs, AWalkThatEndsNowhereIsNotComplete) {
  // A warp spins through a full-mask vote that never turns true: every path returns to a state
  // already seen, so no outcome is found, and the walk says so rather than calling it complete.
  const auto x = run(kEntry + R"(
  mov.u32 %r9, 0;
$L_spin:
  setp.ne.u32 %p2, %r9, 0;
  vote.sync.any.pred %p3, %p2, -1;
  @!%p3 bra $L_spin;
)" + kStoreR9,
                     32, {zeros(32)});
  EXPECT_TRUE(x.outcomes.empty());
  EXPECT_FALSE(x.complete);
  ASSERT_FALSE(x.limits.empty());
  EXPECT_NE(x.limits.back().find("no path reached an end"), std::string::npos);
}

TEST(Programs, ExitedWarpsDoNotHoldUpSyncthreads) {
  // Warp 1 returns before the barrier; barrier 0 completes with warp 0 alone (a warp with no
  // live thread is not waited for).
  const auto x = run(kEntry + R"(
  mov.u32 %r1, %tid.x;
  mov.u32 %r9, 5;
  setp.ge.u32 %p1, %r1, 32;
  @%p1 bra $L_end;
  bar.sync 0;
)" + kStoreR9.substr(0, kStoreR9.find("ret;")) +
                         "$L_end:\n  ret;\n}\n",
                     64, {zeros(64)});
  ASSERT_EQ(x.outcomes.size(), 1u);
  EXPECT_EQ(x.outcomes[0].kind, PathEnd::Kind::Completed);
  std::vector<uint32_t> want(64, 0);
  for (unsigned t = 0; t < 32; ++t) want[t] = 5;
  EXPECT_EQ(x.outcomes[0].words[0], want);
}

TEST(Programs, FullMaskShuffleInHalfAWarpWaitsForTheOtherHalf) {
  // Lanes 0-15 shuffle with a full mask while lanes 16-31 wait at another shuffle form: the
  // first shuffle names lanes that never come, which the model calls a named lane absent.
  const auto x = run(kEntry + R"(
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 16;
  @%p1 bra $L_other;
  shfl.sync.idx.b32 %r9, %r1, 0, 31, -1;
  bra.uni $L_done;
$L_other:
  shfl.sync.up.b32 %r9, %r1, 1, 0, -1;
$L_done:
)" + kStoreR9,
                     32, {zeros(32)});
  ASSERT_EQ(x.outcomes.size(), 1u);
  EXPECT_EQ(x.outcomes[0].kind, PathEnd::Kind::Deadlock);
  EXPECT_TRUE(x.any_finding("shfl.ub.peer_absent"));
}

TEST(Programs, ActivemaskSeesWhoeverExecutesItTogether) {
  // Two threads at one __activemask: together they both read 0b11; apart, each reads its own
  // bit. Independent thread scheduling allows both.
  const auto x = run(kEntry + R"(
  activemask.b32 %r9;
)" + kStoreR9,
                     2, {zeros(2)});
  ASSERT_TRUE(x.complete);
  ASSERT_EQ(x.outcomes.size(), 2u);
  std::vector<std::vector<uint32_t>> seen;
  for (const auto& o : x.outcomes) {
    EXPECT_EQ(o.kind, PathEnd::Kind::Completed);
    seen.push_back(o.words[0]);
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen[0], (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(seen[1], (std::vector<uint32_t>{3, 3}));
}

TEST(Programs, ALaneOutsideItsOwnMembermaskIsUndefined) {
  // Lane 0 votes with a mask that leaves out lane 0.
  const auto x = run(kEntry + R"(
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  vote.sync.ballot.b32 %r9, %p1, 0xfffffffe;
)" + kStoreR9,
                     32, {zeros(32)});
  EXPECT_TRUE(x.any_finding("vote.ub.self_not_in_mask"));
}

TEST(Programs, SyncthreadsCountCountsTheWholeBlock) {
  // __syncthreads_count(tid & 1) over 64 threads: 32 odd threads.
  const auto x = run(kEntry + R"(
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  setp.ne.u32 %p1, %r2, 0;
  bar.red.popc.u32 %r9, 0, %p1;
)" + kStoreR9,
                     64, {zeros(64)});
  ASSERT_EQ(x.outcomes.size(), 1u);
  EXPECT_EQ(x.outcomes[0].words[0], std::vector<uint32_t>(64, 32));
}

TEST(Programs, NamedBarrierHandsDataFromProducerToConsumer) {
  // Warp 0 writes shared memory and arrives at barrier 1 (count 64); warp 1 waits there and
  // reads what warp 0 wrote. bar.arrive orders the writes before the consumer's reads.
  const std::string body = R"(
  mov.u32 %r1, %tid.x;
  mov.u32 %r3, s;
  setp.ge.u32 %p1, %r1, 32;
  @%p1 bra $L_consume;
  shl.b32 %r2, %r1, 2;
  add.s32 %r4, %r3, %r2;
  mul.lo.u32 %r5, %r1, 10;
  st.shared.u32 [%r4], %r5;
  ARRIVE
  mov.u32 %r9, 0;
  bra.uni $L_done;
$L_consume:
  bar.sync 1, 64;
  sub.u32 %r6, %r1, 32;
  shl.b32 %r2, %r6, 2;
  add.s32 %r4, %r3, %r2;
  ld.shared.u32 %r9, [%r4];
$L_done:
)";
  auto with = [&](const std::string& arrive) {
    std::string b = body;
    b.replace(b.find("ARRIVE"), 6, arrive);
    return run(kEntry + b + kStoreR9, 64, {zeros(64)});
  };
  const auto x = with("bar.arrive 1, 64;");
  ASSERT_EQ(x.outcomes.size(), 1u);
  EXPECT_EQ(x.outcomes[0].kind, PathEnd::Kind::Completed);
  std::vector<uint32_t> want(64, 0);
  for (unsigned t = 32; t < 64; ++t) want[t] = (t - 32) * 10;
  EXPECT_EQ(x.outcomes[0].words[0], want);

  // Without the producer's arrival the consumer waits for a second warp that never comes.
  const auto y = with("");
  EXPECT_TRUE(y.any(PathEnd::Kind::Deadlock));
  EXPECT_TRUE(y.any_finding("program.barrier_never_completes"));
}

TEST(Programs, ACollectiveWithAnUndefinedMaskIsReported) {
  // %r5 is never written: its value is undefined, and so is the membermask read from it.
  const auto x = run(kEntry + R"(
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  vote.sync.ballot.b32 %r9, %p1, %r5;
)" + kStoreR9,
                     32, {zeros(32)});
  EXPECT_TRUE(x.any_finding("program.undefined_control"));
}

TEST(Programs, LaunchesThatDoNotFitTheKernelAreRejected) {
  const Program p = read_or_fail(kEntry + "  ret;\n}\n");
  Launch l;
  l.threads = 32;
  EXPECT_THROW(explore(p, l), std::invalid_argument);  // one parameter, none given
  l.params = {zeros(1)};
  l.threads = 0;
  EXPECT_THROW(explore(p, l), std::invalid_argument);
}

}  // namespace
}  // namespace warpspec::programs

namespace warpspec::programs {
namespace {

// Lanes 0 and 1 of each warp read __activemask() and shuffle lane 0's number with it; the other
// lanes exit at once. Together, both read their warp's lane 0; apart, lane 1's mask leaves out
// its source lane, so its copy is undefined. Two warps: four outcomes.
const std::string kPairs = kEntry + R"(
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  setp.ge.u32 %p1, %r2, 2;
  @%p1 bra $L_end;
  activemask.b32 %r3;
  shfl.sync.idx.b32 %r9, %r1, 0, 31, %r3;
)" + kStoreR9.substr(0, kStoreR9.find("ret;")) +
                           "$L_end:\n  ret;\n}\n";

TEST(Reduction, ActivemaskPairsInTwoWarpsGiveFourOutcomes) {
  const auto x = run(kPairs, 34, {zeros(34)});
  ASSERT_TRUE(x.complete);
  ASSERT_EQ(x.outcomes.size(), 4u);
  for (const auto& o : x.outcomes) {
    EXPECT_EQ(o.kind, PathEnd::Kind::Completed);
    EXPECT_EQ(o.words[0][0], 0u);  // lane 0 always reads itself
    EXPECT_EQ(o.words[0][32], 32u);
    EXPECT_FALSE(o.undefined[0][0]);
  }
  std::set<std::pair<bool, bool>> lane1;  // is thread 1's, thread 33's copy undefined?
  for (const auto& o : x.outcomes) {
    if (!o.undefined[0][1]) {
      EXPECT_EQ(o.words[0][1], 0u);
    }
    if (!o.undefined[0][33]) {
      EXPECT_EQ(o.words[0][33], 32u);
    }
    lane1.insert({o.undefined[0][1] != 0, o.undefined[0][33] != 0});
  }
  EXPECT_EQ(lane1.size(), 4u);
}

// The ends of a walk, told apart by kind and by final memory (values and undefined bits).
using MemoryEnd = std::tuple<PathEnd::Kind, std::vector<std::vector<uint32_t>>,
                             std::vector<std::vector<uint8_t>>>;
std::set<MemoryEnd> memory_ends(const Exploration& x) {
  std::set<MemoryEnd> s;
  for (const auto& o : x.outcomes) s.insert({o.kind, o.words, o.undefined});
  return s;
}

TEST(Reduction, LosesNoOutcomeAgainstThePlainWalk) {
  // The plain walk interleaves both warps' groupings and every order of ready groups. The
  // second kernel is the worked example of __activemask after a branch, on four threads.
  std::ifstream in(std::string(WARPSPEC_SOURCE_DIR) +
                   "/examples/programs/activemask_after_branch.ptx");
  std::stringstream example;
  example << in.rdbuf();
  ParamValue inputs;
  inputs.is_buffer = true;
  inputs.words = {1, 2, 3, 4};
  struct Case {
    std::string ptx;
    unsigned threads;
    std::vector<ParamValue> params;
  };
  for (const auto& c : {Case{std::string(kHead) + kPairs, 34, {zeros(34)}},
                        Case{example.str(), 4, {inputs, zeros(4)}}}) {
    auto read = read_ptx(c.ptx);
    ASSERT_TRUE(std::holds_alternative<Program>(read));
    Launch l;
    l.threads = c.threads;
    l.params = c.params;
    const auto& p = std::get<Program>(read);
    const auto full = explore(p, l, unreduced()), reduced = explore(p, l);
    ASSERT_TRUE(full.complete);
    EXPECT_LT(reduced.states, full.states);
    EXPECT_GT(full.outcomes.size(), 1u);
    EXPECT_EQ(memory_ends(reduced), memory_ends(full));
  }
}

TEST(Reduction, LoneGroupsRunOneAfterAnotherAsSeparateChoicesWould) {
  // The two halves of a warp each run __syncwarp with their own half's mask: two lone groups,
  // executed in one step. The low half then waits at __syncthreads; the high half exits. Run
  // on after each group, as separate choices are, the high half executes its __syncwarp while
  // the low half waits at the barrier, and then exits owing it (program.barrier_divergent),
  // as on the plain walk. Were both groups executed before either ran on, nothing would be owed.
  const std::string body = kEntry + R"(
  mov.u32 %r1, %tid.x;
  mov.u32 %r9, 1;
  setp.lt.u32 %p1, %r1, 16;
  @%p1 bra $L_low;
  bar.warp.sync 0xffff0000;
  bra.uni $L_end;
$L_low:
  bar.warp.sync 0x0000ffff;
  bar.sync 0;
$L_end:
)" + kStoreR9;
  const auto full = run(body, 32, {zeros(32)}, spec::kDefaultTarget, unreduced());
  const auto reduced = run(body, 32, {zeros(32)});
  ASSERT_TRUE(full.complete);
  ASSERT_TRUE(reduced.complete);
  EXPECT_TRUE(full.any_finding("program.barrier_divergent"));
  EXPECT_TRUE(reduced.any_finding("program.barrier_divergent"));
  EXPECT_LE(reduced.states, full.states);
}

// Four kernels on which the reductions that concern __activemask do their work: threads that
// meet at one __activemask after another (each grouping of the first, then of the second: read
// as whole partitions), a loop around one __activemask (a thread on its second round may read
// it with one on its first, so it is not read as a partition), two branches, each with its own
// __activemask, that no thread of the other can reach (only one branch's groupings are offered
// at a time), and an __activemask before a barrier that one thread skips (the groups' order
// decides a finding). Each against the plain walk: the same ends, in no more states.
TEST(Reduction, ActivemaskLayersLoopsAndBranchesLoseNoOutcome) {
  const std::string layers = kEntry + R"(
  mov.u32 %r1, %tid.x;
  activemask.b32 %r3;
  redux.sync.add.u32 %r4, %r1, %r3;
  activemask.b32 %r5;
  shl.b32 %r6, %r3, 4;
  or.b32 %r6, %r6, %r5;
  shl.b32 %r6, %r6, 8;
  or.b32 %r9, %r6, %r4;
)" + kStoreR9;
  const std::string loop = kEntry + R"(
  mov.u32 %r9, 0;
  mov.u32 %r2, 0;
$L_loop:
  activemask.b32 %r3;
  shl.b32 %r9, %r9, 4;
  or.b32 %r9, %r9, %r3;
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, 2;
  @%p1 bra $L_loop;
)" + kStoreR9;
  const std::string branches = kEntry + R"(
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 2;
  @%p1 bra $L_low;
  activemask.b32 %r3;
  activemask.b32 %r4;
  shl.b32 %r4, %r4, 4;
  or.b32 %r9, %r3, %r4;
  bra.uni $L_end;
$L_low:
  activemask.b32 %r3;
  redux.sync.add.u32 %r9, %r1, %r3;
$L_end:
)" + kStoreR9;
  // Thread 1 goes on to __syncthreads, thread 0 exits: if thread 1 reads __activemask first
  // and waits at the barrier while thread 0 reads it, thread 0 owes the barrier and exits
  // (program.barrier_divergent); in the other order nothing is owed. The groups' order matters
  // here, so they are not read as one partition.
  const std::string barrier = kEntry + R"(
  mov.u32 %r1, %tid.x;
  activemask.b32 %r9;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra $L_end;
  bar.sync 0;
$L_end:
)" + kStoreR9;
  struct Case {
    const std::string* body;
    unsigned threads;
    std::size_t outcomes;  // every pair of groupings, every per-round grouping, ...
    bool fewer;            // the reduced walk visits fewer states
  };
  // 4 threads: 15 partitions at each of two layers. 3 threads over two rounds: each round's
  // groupings, where a thread may meet one on another round (no partition is read at once
  // there, and the walk may be no smaller). 2 + 3 threads: 2 groupings of the low pair times
  // 5 * 5 of the others.
  for (const auto& c : {Case{&layers, 4, 15 * 15, true}, Case{&loop, 3, 0, false},
                        Case{&branches, 5, 50, true}, Case{&barrier, 2, 0, false}}) {
    SCOPED_TRACE(*c.body);
    const auto full =
        run(*c.body, c.threads, {zeros(c.threads)}, spec::kDefaultTarget, unreduced());
    const auto reduced = run(*c.body, c.threads, {zeros(c.threads)});
    ASSERT_TRUE(full.complete) << full.limits.front();
    ASSERT_TRUE(reduced.complete) << reduced.limits.front();
    EXPECT_LE(reduced.states, full.states);
    if (c.fewer) {
      EXPECT_LT(reduced.states, full.states);
    }
    if (c.outcomes) {
      EXPECT_EQ(full.outcomes.size(), c.outcomes);
    }
    if (c.outcomes) {
      for (const auto& o : full.outcomes) EXPECT_EQ(o.kind, PathEnd::Kind::Completed);
    }
    EXPECT_EQ(memory_ends(reduced), memory_ends(full));
    EXPECT_EQ(reduced.outcomes.size(), full.outcomes.size());
  }
  const auto owed = run(barrier, 2, {zeros(2)});
  EXPECT_TRUE(owed.any_finding("program.barrier_divergent"));
}

}  // namespace
}  // namespace warpspec::programs

// ---------------------------------------------------------------- lockstep (sm_6x)

namespace warpspec::programs {
namespace {

TEST(Lockstep, ButterflyReductionIsTheSameBeforeVolta) {
  std::string body = kEntry + "  mov.u32 %r9, %tid.x;\n";
  for (int step : {16, 8, 4, 2, 1})
    body += "  shfl.sync.bfly.b32 %r1, %r9, " + std::to_string(step) +
            ", 31, -1;\n  add.s32 %r9, %r9, %r1;\n";
  const auto x = run(body + kStoreR9, 32, {zeros(32)}, kPascal);
  ASSERT_TRUE(x.complete);
  ASSERT_EQ(x.outcomes.size(), 1u);
  EXPECT_EQ(x.outcomes[0].words[0], std::vector<uint32_t>(32, 496));
}

// Lanes 0-15 run a full-mask shuffle inside `if (lane < 16)`; lanes 16-31 skip it.
const std::string kHalfShuffle = kEntry + R"(
  mov.u32 %r1, %tid.x;
  mov.u32 %r9, %r1;
  setp.ge.u32 %p1, %r1, 16;
  @%p1 bra $L_join;
  shfl.sync.bfly.b32 %r9, %r1, 1, 31, -1;
$L_join:
)" + kStoreR9;

TEST(Lockstep, AShuffleOnOneSideOfABranchMissesTheLanesWaitingToReconverge) {
  // Before Volta the skipping lanes wait alive at the branch's reconvergence point, whichever
  // side runs first: the shuffle names lanes that do not execute it.
  const auto pascal = run(kHalfShuffle, 32, {zeros(32)}, kPascal);
  ASSERT_TRUE(pascal.complete);
  EXPECT_TRUE(pascal.any_finding("shfl.ub.peer_absent"));
  for (const auto& o : pascal.outcomes) EXPECT_EQ(o.kind, PathEnd::Kind::Undefined);
  // From Volta on the skipping lanes go on and exit, which releases the shuffle.
  const auto hopper = run(kHalfShuffle, 32, {zeros(32)});
  ASSERT_EQ(hopper.outcomes.size(), 1u);
  EXPECT_EQ(hopper.outcomes[0].kind, PathEnd::Kind::Completed);
}

// Two __syncwarp sites, one on each side of a branch, each naming the whole warp.
const std::string kTwoSyncwarps = kEntry + R"(
  mov.u32 %r1, %tid.x;
  mov.u32 %r9, 1;
  setp.ge.u32 %p1, %r1, 16;
  @%p1 bra $L_other;
  bar.warp.sync -1;
  bra.uni $L_join;
$L_other:
  bar.warp.sync -1;
$L_join:
)" + kStoreR9;

TEST(Lockstep, SyncwarpSitesMeetFromVoltaOnButMustBeConvergedBefore) {
  const auto hopper = run(kTwoSyncwarps, 32, {zeros(32)});
  ASSERT_EQ(hopper.outcomes.size(), 1u);
  EXPECT_EQ(hopper.outcomes[0].kind, PathEnd::Kind::Completed);
  const auto pascal = run(kTwoSyncwarps, 32, {zeros(32)}, kPascal);
  EXPECT_TRUE(pascal.any_undefined());
  EXPECT_FALSE(pascal.any(PathEnd::Kind::Completed));
}

TEST(Lockstep, ABarrierReachedByPartOfAWarpIsDivergentBeforeVolta) {
  // `if (lane < 16) __syncthreads();`: from Volta on the other lanes exit and the barrier
  // completes; before, the warp meets the barrier split.
  const std::string body = kEntry + R"(
  mov.u32 %r1, %tid.x;
  mov.u32 %r9, 3;
  setp.ge.u32 %p1, %r1, 16;
  @%p1 bra $L_join;
  bar.sync 0;
$L_join:
)" + kStoreR9;
  const auto hopper = run(body, 32, {zeros(32)});
  ASSERT_EQ(hopper.outcomes.size(), 1u);
  EXPECT_EQ(hopper.outcomes[0].words[0], std::vector<uint32_t>(32, 3));
  const auto pascal = run(body, 32, {zeros(32)}, kPascal);
  EXPECT_TRUE(pascal.any_finding("program.barrier_divergent"));
}

TEST(Lockstep, ActivemaskIsThePathsLanes) {
  // __activemask right after `if (lane & 1) {...}`, four threads. From Volta on each lane reads
  // the group it happens to run with: every partition of the four lanes, 15 outcomes. Before,
  // the sides meet again at the branch's immediate post-dominator, which is the __activemask
  // itself: every lane reads 0xf.
  const std::string body = kEntry + R"(
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 bra $L_join;
  add.u32 %r3, %r1, 1;
$L_join:
  activemask.b32 %r9;
)" + kStoreR9;
  EXPECT_EQ(run(body, 4, {zeros(4)}).outcomes.size(), 15u);
  const auto x = run(body, 4, {zeros(4)}, kPascal);
  ASSERT_TRUE(x.complete);
  ASSERT_EQ(x.outcomes.size(), 1u);
  EXPECT_EQ(x.outcomes[0].words[0], std::vector<uint32_t>(4, 0xf));
}

}  // namespace
}  // namespace warpspec::programs

namespace warpspec::programs {
namespace {

TEST(Programs, BitFieldExtractAndInsertFollowThePtxRules) {
  // Worked from the PTX ISA's bfe/bfi pseudocode: bits 4-11 of 0xf0f0f0f0; the 4-bit field
  // 0xf at bit 8, sign-extended; a field running past bit 31 filled with a's top bit; 0b1010
  // put into bits 4-7 of all ones; a field of length 0.
  const auto x = run(kEntry + R"(
  ld.param.u64 %rd1, [k_param_0];
  cvta.to.global.u64 %rd2, %rd1;
  bfe.u32 %r1, 0xf0f0f0f0, 4, 8;
  bfe.s32 %r2, 0x00000f00, 8, 4;
  bfe.s32 %r3, 0x80000000, 28, 8;
  bfi.b32 %r4, 0xa, 0xffffffff, 4, 4;
  bfe.u32 %r5, 0xffffffff, 3, 0;
  st.global.u32 [%rd2], %r1;
  st.global.u32 [%rd2+4], %r2;
  st.global.u32 [%rd2+8], %r3;
  st.global.u32 [%rd2+12], %r4;
  st.global.u32 [%rd2+16], %r5;
  ret;
}
)",
                     1, {zeros(5)});
  ASSERT_EQ(x.outcomes.size(), 1u);
  EXPECT_EQ(x.outcomes[0].words[0],
            (std::vector<uint32_t>{0x0f, 0xffffffffu, 0xfffffff8u, 0xffffffafu, 0}));
}

}  // namespace
}  // namespace warpspec::programs

namespace warpspec::programs {
namespace {

TEST(Programs, TheDigestTellsApartWhatSameStateTellsApart) {
  // The explorer keeps digests only: two states that differ in a register, a barrier arrival's
  // operands or a volatile-order flag must get different digests, and equal states equal ones.
  // One warp waits at a barrier that counts two: its phase stays open.
  const Program p = read_or_fail(kEntry + "  bar.sync 1, 64;\n  ret;\n}\n");
  Launch l;
  l.threads = 32;
  l.params = {zeros(1)};
  Machine a = start(p, l);
  settle(p, l, a);
  // The warp stands before the counted barrier: arriving is the one choice.
  bool bounded = false;
  const auto arrive = choices(p, a, 5, bounded, true);
  ASSERT_EQ(arrive.size(), 1u);
  EXPECT_EQ(arrive[0].kind, Choice::Kind::Arrive);
  apply(p, l, a, arrive[0]);
  ASSERT_FALSE(a.phase[1]->empty());
  Machine b = a;
  EXPECT_TRUE(same_state(a, b));
  EXPECT_EQ(digest(a), digest(b));
  // The same state built again, sharing nothing with a.
  Machine apart = start(p, l);
  settle(p, l, apart);
  apply(p, l, apart, arrive[0]);
  ASSERT_TRUE(same_state(a, apart));
  const uint64_t before = digest(a);
  auto differs = [&](auto change) {
    Machine c = a;
    change(c);
    EXPECT_FALSE(same_state(a, c));
    EXPECT_NE(digest(a), digest(c));
    // The change went to c's own copy of the part: a and b, which shared it, are as they were.
    EXPECT_TRUE(same_state(a, apart));
    EXPECT_TRUE(same_state(b, apart));
    EXPECT_EQ(digest(a), before);
    EXPECT_EQ(digest(b), before);
  };
  // The copies share a's threads and buffers, whose digests a's were taken from: a change
  // clones the part it changes and takes its digest again.
  differs([](Machine& c) { c.threads[3].mut().regs[0] ^= 1; });
  differs([](Machine& c) { c.threads[0].mut().clock.mut()[1]++; });
  differs([](Machine& c) { c.buffers.back().mut().bytes[0] ^= 1; });
  differs([](Machine& c) { c.phase[1].mut().front().count = 96; });
  differs([](Machine& c) { c.strong_order = true; });
  differs([](Machine& c) { c.one_order = true; });
}

TEST(Programs, ARegisterNoLaterStepReadsDoesNotTellStatesApart) {
  // Every thread waits at the __syncwarp: %r1 is read after it, %r2 never again. With the
  // kernel's liveness, states that differ in %r2 only are one state; in %r1, two. A register
  // asked for in each outcome stays live everywhere.
  const Program p = read_or_fail(kEntry + R"(
  mov.u32 %r1, %tid.x;
  add.u32 %r2, %r1, 1;
  bar.warp.sync -1;
  mov.u32 %r9, %r1;
)" + kStoreR9);
  auto reg = [&](std::string_view name) {
    for (uint32_t i = 0; i < p.regs.size(); ++i)
      if (p.regs[i].name == name) return i;
    ADD_FAILURE() << "no register " << name;
    return uint32_t{0};
  };
  const uint32_t r1 = reg("%r1"), r2 = reg("%r2");
  Launch l;
  l.threads = 32;
  l.params = {zeros(32)};
  for (const bool asked : {false, true}) {
    Machine a = start(p, l);
    KernelFacts f;
    f.live = live_registers(p, asked ? std::vector<uint32_t>{r2} : std::vector<uint32_t>{});
    a.facts = std::make_shared<const KernelFacts>(std::move(f));
    settle(p, l, a);
    ASSERT_EQ(a.threads[3]->status, Status::Waits);
    Machine dead = a, live = a;
    dead.threads[3].mut().regs[r2] ^= 0x10;
    live.threads[3].mut().regs[r1] ^= 0x10;
    EXPECT_EQ(same_state(a, dead), !asked);
    EXPECT_EQ(digest(a) == digest(dead), !asked);
    EXPECT_FALSE(same_state(a, live));
    EXPECT_NE(digest(a), digest(live));
  }
}

}  // namespace
}  // namespace warpspec::programs
