// Unknown inputs (checker/program_inputs.hpp): the two readings of the thread-local arithmetic
// agree, the classes of inputs predict what the plain explorer does on inputs the search never
// ran, and what a class reports is what its input does.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>

#include "checker/program_inputs.hpp"
#include "programs/alu.hpp"
#include "programs/explore.hpp"
#include "programs/kernel_files.hpp"
#include "programs/ptx_reader.hpp"

namespace warpspec::programs {
namespace {

using testing_support::slurp;

Program read_or_fail(const std::string& text, const std::string& entry = "") {
  auto r = read_ptx(text, entry);
  if (auto* e = std::get_if<ReadError>(&r)) {
    ADD_FAILURE() << e->loc.line << ": " << e->message;
    return {};
  }
  return std::get<Program>(r);
}

Program example(const std::string& name) {
  return read_or_fail(
      slurp(std::string(WARPSPEC_SOURCE_DIR) + "/examples/programs/" + name + ".ptx"));
}

ParamValue words(std::vector<uint32_t> w) {
  ParamValue v;
  v.is_buffer = true;
  v.words = std::move(w);
  return v;
}
ParamValue scalar(uint64_t x) {
  ParamValue v;
  v.value = x;
  return v;
}
std::vector<uint32_t> iota(std::size_t n, uint32_t from = 1) {
  std::vector<uint32_t> w(n);
  for (std::size_t i = 0; i < n; ++i) w[i] = from + static_cast<uint32_t>(i);
  return w;
}

using checker::ends_of;

// The kinds and final memories of the outcomes, terms aside.
std::set<std::pair<int, std::vector<std::vector<uint32_t>>>> memories(const Exploration& x) {
  std::set<std::pair<int, std::vector<std::vector<uint32_t>>>> out;
  for (const auto& o : x.outcomes) out.insert({static_cast<int>(o.kind), o.words});
  return out;
}

// Every value-computing instruction of the subset at each width it takes.
constexpr const char* kArithmetic = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry arith()
{
  .reg .pred %p<4>;
  .reg .b16 %h<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  add.s32 %r1, %r2, %r3;      sub.s32 %r1, %r2, %r3;      add.s64 %rd1, %rd2, %rd3;
  sub.u16 %h1, %h2, %h3;      mul.lo.s32 %r1, %r2, %r3;   mul.hi.s32 %r1, %r2, %r3;
  mul.hi.u32 %r1, %r2, %r3;   mul.wide.s32 %rd1, %r2, %r3; mul.wide.u32 %rd1, %r2, %r3;
  mul.hi.u64 %rd1, %rd2, %rd3; mul.hi.s64 %rd1, %rd2, %rd3; mul.lo.u64 %rd1, %rd2, %rd3;
  mad.lo.s32 %r1, %r2, %r3, %r4; mad.wide.u32 %rd1, %r2, %r3, %rd4; mad.hi.s32 %r1, %r2, %r3, %r4;
  mul.wide.s16 %r1, %h2, %h3;
  div.s32 %r1, %r2, %r3;      div.u32 %r1, %r2, %r3;      rem.s32 %r1, %r2, %r3;
  rem.u32 %r1, %r2, %r3;      div.s64 %rd1, %rd2, %rd3;   rem.u64 %rd1, %rd2, %rd3;
  rem.s64 %rd1, %rd2, %rd3;   div.s16 %h1, %h2, %h3;
  min.s32 %r1, %r2, %r3;      min.u32 %r1, %r2, %r3;      max.s32 %r1, %r2, %r3;
  max.u64 %rd1, %rd2, %rd3;   max.s16 %h1, %h2, %h3;      neg.s32 %r1, %r2;
  abs.s32 %r1, %r2;           abs.s64 %rd1, %rd2;         neg.s16 %h1, %h2;
  and.b32 %r1, %r2, %r3;      or.b64 %rd1, %rd2, %rd3;    xor.b32 %r1, %r2, %r3;
  not.b32 %r1, %r2;           not.b16 %h1, %h2;           not.pred %p1, %p2;
  and.pred %p1, %p2, %p3;     xor.pred %p1, %p2, %p3;
  shl.b32 %r1, %r2, %r3;      shl.b64 %rd1, %rd2, %r3;    shr.u32 %r1, %r2, %r3;
  shr.s32 %r1, %r2, %r3;      shr.s64 %rd1, %rd2, %r3;    shr.u16 %h1, %h2, %r3;
  shr.s16 %h1, %h2, %r3;
  bfe.u32 %r1, %r2, %r3, %r4; bfe.s32 %r1, %r2, %r3, %r4; bfe.u64 %rd1, %rd2, %r3, %r4;
  bfe.s64 %rd1, %rd2, %r3, %r4;
  bfi.b32 %r1, %r2, %r3, %r4, %r5; bfi.b64 %rd1, %rd2, %rd3, %r4, %r5;
  cvt.u32.u16 %r1, %h2;       cvt.s32.s16 %r1, %h2;       cvt.u16.u32 %h1, %r2;
  cvt.s64.s32 %rd1, %r2;      cvt.u64.u32 %rd1, %r2;      cvt.s16.s32 %h1, %r2;
  cvt.u32.u64 %r1, %rd2;      cvt.s32.s8 %r1, %r2;
  setp.lt.s32 %p1, %r2, %r3;  setp.le.s32 %p1, %r2, %r3;  setp.gt.u32 %p1, %r2, %r3;
  setp.ge.u32 %p1, %r2, %r3;  setp.eq.s64 %p1, %rd2, %rd3; setp.ne.b32 %p1, %r2, %r3;
  setp.lo.u32 %p1, %r2, %r3;  setp.ls.u64 %p1, %rd2, %rd3; setp.hi.u16 %p1, %h2, %h3;
  setp.hs.u32 %p1, %r2, %r3;  setp.lt.s16 %p1, %h2, %h3;  setp.ge.s64 %p1, %rd2, %rd3;
  selp.b32 %r1, %r2, %r3, %p1; selp.b64 %rd1, %rd2, %rd3, %p1;
  mov.b32 %r1, %r2;           mov.b64 %rd1, %rd2;
  ret;
}
)";

// A value of `bits` bits that leans towards the corners: 0, 1, all ones, the sign bit and its
// neighbours, small shift amounts and field positions.
uint64_t corner(std::mt19937_64& rng, unsigned bits) {
  const uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const uint64_t sign = uint64_t{1} << (bits - 1);
  switch (rng() % 8) {
    case 0:
      return 0;
    case 1:
      return 1;
    case 2:
      return mask;
    case 3:
      return sign;
    case 4:
      return (sign - 1) & mask;
    case 5:
      return rng() % 80;
    default:
      return rng() & mask;
  }
}

TEST(Inputs, TheArithmeticReadsTheSameConcretelyAndInZ3) {
  const Program p = read_or_fail(kArithmetic);
  std::mt19937_64 rng(20261127);
  unsigned checked = 0;
  for (const auto& in : p.code) {
    if (in.op == Op::Ret) continue;
    std::vector<std::array<uint64_t, 4>> sources;
    for (int n = 0; n < 300; ++n) {
      std::array<uint64_t, 4> s{};
      for (std::size_t k = 0; k < in.src.size(); ++k) s[k] = corner(rng, alu::source_bits(in, k));
      if (alu::divides(in) && s[1] == 0) s[1] = 3;  // a zero divisor has no defined value
      sources.push_back(s);
    }
    const auto z3 = checker::symbolic_values(in, sources);
    for (std::size_t n = 0; n < sources.size(); ++n) {
      const uint64_t concrete = alu::value(alu::ConcreteInt{}, in, sources[n]);
      ASSERT_EQ(concrete, z3[n]) << in.text << " on " << sources[n][0] << ", " << sources[n][1]
                                 << ", " << sources[n][2] << ", " << sources[n][3];
      ++checked;
    }
  }
  EXPECT_GE(checked, 78u * 300u);
}

// The worked example's kernel: threads t < n reach one __syncthreads, the others another. By
// hand: n = 0 sends every thread the same way and n >= 64 too, as long as the reads of s[n-1-t]
// stay inside the 64-word array; 0 < n < 64 splits the block.
TEST(Inputs, APartialBlockIsExactlyWhereSyncthreadsDiverges) {
  const Program p = example("syncthreads_nonuniform");
  Launch l;
  l.threads = 64;
  l.params = {words(iota(64)), words(std::vector<uint32_t>(64, 0)), scalar(64)};
  checker::InputQuery q;
  q.unknown = {2};
  const auto a = checker::explore_inputs(p, l, q);
  ASSERT_TRUE(a.complete) << a.why_not;
  const std::string divergent = "undefined: program.barrier_divergent";
  bool found = false;
  for (const auto& g : a.groups)
    if (g.ends == std::vector<std::string>{divergent}) {
      found = true;
      EXPECT_EQ(g.values, (std::vector<std::pair<uint64_t, uint64_t>>{{1, 63}}));
      EXPECT_TRUE(g.bad);
    }
  EXPECT_TRUE(found);
  // Inputs the search never ran: the plain explorer ends as the group holding the value says.
  std::vector<uint64_t> ns;
  for (uint64_t n = 0; n <= 70; ++n) ns.push_back(n);
  std::mt19937_64 rng(7);
  for (int k = 0; k < 24; ++k) ns.push_back(rng() & 0xffffffffu);
  for (uint64_t n : {uint64_t{1} << 30, (uint64_t{1} << 30) + 64, (uint64_t{1} << 31) + 63,
                     uint64_t{0xffffffff}})
    ns.push_back(n);
  for (uint64_t n : ns) {
    Launch run = l;
    run.params[2] = scalar(n);
    const auto ends = ends_of(explore(p, run));
    const checker::InputGroup* holder = nullptr;
    for (const auto& g : a.groups)
      for (const auto& [lo, hi] : g.values)
        if (n >= lo && n <= hi) holder = &g;
    ASSERT_NE(holder, nullptr) << "n = " << n << " is in no group";
    ASSERT_FALSE(holder->more);
    EXPECT_EQ(ends, holder->ends) << "n = " << n;
  }
}

// The same kernel on the GPU (examples/programs/every_n.json, recorded on an H200 with
// capture/run_kernels.sh, three launches per n): an n of each group, the three values past 2^30
// where the 32-bit index wraps back into the array among them. Every n the search puts in a
// completed class completed there with the memory the walk predicts; the others' behaviour is
// undefined and only recorded (docs/programs.md: a read outside every buffer trapped).
TEST(Inputs, TheGpuEndsTheCompletedClassesAsPredicted) {
  using testing_support::manifest_kernels;
  const Program p = example("syncthreads_nonuniform");
  std::map<std::string, nlohmann::json> launches;
  for (const auto& k :
       manifest_kernels(std::string(WARPSPEC_SOURCE_DIR) + "/examples/programs/every_n.json"))
    launches[k["name"].get<std::string>()] = k;
  std::istringstream runs(slurp(std::string(WARPSPEC_TEST_DATA) +
                                "/programs/inputs/syncthreads_nonuniform_every_n.h200.jsonl"));
  unsigned completed = 0, trapped = 0;
  for (std::string line; std::getline(runs, line);) {
    const auto run = nlohmann::json::parse(line);
    const auto& k = launches.at(run["kernel"].get<std::string>());
    const Launch l = testing_support::kernel_launch(k);
    const auto x = explore(p, l);
    ASSERT_TRUE(x.complete);
    if (x.outcomes.size() == 1 && x.outcomes[0].kind == PathEnd::Kind::Completed) {
      ASSERT_EQ(run["status"], "completed") << line;
      EXPECT_EQ(run["buffers"][1].get<std::vector<uint32_t>>(), x.outcomes[0].words[1])
          << k["name"];
      ++completed;
    } else {
      EXPECT_TRUE(x.any_undefined()) << k["name"];
      trapped += run["status"] == "error";
    }
  }
  EXPECT_EQ(completed, 15u);  // five values of n, three launches each
  EXPECT_EQ(trapped, 6u);     // n = 65 and 2^30 + 65: outside `s`
}

// A warp reduction decides nothing on the data: one class holds every input.
TEST(Inputs, AWarpReductionIsOneClassForEveryInput) {
  const Program p = example("warp_reduce");
  Launch l;
  l.threads = 64;
  l.params = {words(iota(64)), words({0, 0})};
  checker::InputQuery q;
  q.unknown = {0};
  const auto a = checker::explore_inputs(p, l, q);
  EXPECT_TRUE(a.complete) << a.why_not;
  ASSERT_EQ(a.classes.size(), 1u);
  EXPECT_EQ(a.classes[0].pins, 0u);
  ASSERT_EQ(a.groups.size(), 1u);
  EXPECT_EQ(a.groups[0].ends, std::vector<std::string>{"completed"});
  EXPECT_EQ(a.names.size(), 64u);
  // Every schedule of every input sums the same way.
  EXPECT_EQ(a.classes[0].schedules, checker::InputClass::Schedules::One);
  EXPECT_EQ(a.schedules, checker::InputClass::Schedules::Proved);
}

// __activemask() after a divergent branch: which lanes read it together is the scheduler's
// choice, and the shuffle that follows hands on values by it, so the memory depends on the
// schedule for some input; the input shown ends in more than one way when walked on its own.
TEST(Inputs, MemoryThatDependsOnTheScheduleIsShownWithAnInput) {
  const Program p = example("activemask_after_branch");
  Launch l;
  l.threads = 4;
  l.params = {words({7, 7, 7, 7}), words({0, 0, 0, 0})};
  checker::InputQuery q;
  q.unknown = {0};
  const auto a = checker::explore_inputs(p, l, q);
  EXPECT_TRUE(a.complete);
  EXPECT_EQ(a.schedules, checker::InputClass::Schedules::Differs);
  const checker::InputClass* shown = nullptr;
  for (const auto& c : a.classes)
    if (c.differs_on) shown = &c;
  ASSERT_NE(shown, nullptr);
  const auto x = explore(p, *shown->differs_on);
  EXPECT_TRUE(x.complete);
  EXPECT_GT(x.outcomes.size(), 1u);
}

// The explorer's reduction (only the first warp's choices, a lone ready group at once) against
// every choice of every warp, for every input: the two searches cover every input and group it
// the same way, with the same ends and, for the one scalar, the same values.
TEST(Inputs, TheReductionLosesNoOutcomeForAnyInput) {
  struct Case {
    std::string name;
    Launch launch;
    std::vector<unsigned> unknown;
  };
  std::vector<Case> cases;
  {
    Launch l;
    l.threads = 8;
    l.params = {words(iota(8)), words(std::vector<uint32_t>(8, 0)), scalar(8)};
    cases.push_back({"syncthreads_nonuniform", l, {2}});
  }
  {
    Launch l;
    l.threads = 4;
    l.params = {words({1, 2, 3, 4}), words({0, 0, 0, 0})};
    cases.push_back({"activemask_after_branch", l, {0}});
  }
  for (const auto& c : cases) {
    const Program p = example(c.name);
    std::vector<std::vector<
        std::pair<std::vector<std::string>, std::vector<std::pair<uint64_t, uint64_t>>>>>
        answers;
    std::vector<checker::InputClass::Schedules> schedules;
    for (bool reduce : {true, false}) {
      checker::InputQuery q;
      q.unknown = c.unknown;
      q.explore.reduce = reduce;
      const auto a = checker::explore_inputs(p, c.launch, q);
      ASSERT_TRUE(a.complete) << c.name << ": " << a.why_not;
      std::vector<std::pair<std::vector<std::string>, std::vector<std::pair<uint64_t, uint64_t>>>>
          groups;
      for (const auto& g : a.groups) groups.push_back({g.ends, g.values});
      std::sort(groups.begin(), groups.end());
      answers.push_back(groups);
      schedules.push_back(a.schedules);
    }
    EXPECT_EQ(answers[0], answers[1]) << c.name;
    EXPECT_EQ(schedules[0], schedules[1]) << c.name;
  }
}

// Lanes holding one key call __syncwarp() with the whole warp named; the others go past it to a
// ballot of the whole warp. Any input with the key on some lanes but not all deadlocks (each side
// waits for the other at a different collective); the seed has it on none.
constexpr const char* kKeyedSyncwarp = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry keyed(.param .u64 keyed_in, .param .u64 keyed_out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [keyed_in];
  ld.param.u64 %rd2, [keyed_out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r2, [%rd4];
  setp.ne.u32 %p1, %r2, 12345;
  @%p1 bra DONE;
  bar.warp.sync -1;
DONE:
  vote.sync.ballot.b32 %r3, %p1, -1;
  add.s64 %rd5, %rd2, %rd3;
  st.global.u32 [%rd5], %r3;
  ret;
}
)";

TEST(Inputs, ADeadlockOnSomeDataIsFoundWithAnInputThatShowsIt) {
  const Program p = read_or_fail(kKeyedSyncwarp);
  Launch l;
  l.threads = 32;
  l.params = {words(iota(32)), words(std::vector<uint32_t>(32, 0))};
  checker::InputQuery q;
  q.unknown = {0};
  q.max_classes = 4;
  const auto a = checker::explore_inputs(p, l, q);
  // Each lane's key decides on its own: far more classes than four, and the answer says so.
  EXPECT_FALSE(a.complete);
  EXPECT_FALSE(a.why_not.empty());
  EXPECT_EQ(a.classes.size(), 4u);
  EXPECT_EQ(a.classes[0].launch.params[0].words, iota(32));
  bool deadlock = false;
  for (const auto& c : a.classes) {
    if (!c.exploration.any(PathEnd::Kind::Deadlock)) continue;
    deadlock = true;
    const auto& w = c.launch.params[0].words;
    const auto keyed = std::count(w.begin(), w.end(), 12345u);
    EXPECT_GT(keyed, 0);
    EXPECT_LT(keyed, 32);
    // Replayed without terms, the input deadlocks as reported.
    EXPECT_TRUE(explore(p, c.launch).any(PathEnd::Kind::Deadlock));
  }
  EXPECT_TRUE(deadlock);
}

// Every kernel of the corpus, the idioms and the bug reductions with every parameter unknown, on
// its own input: the walk's pins hold at that input (explore_inputs throws otherwise), and what the
// walk with terms finds is what the plain explorer finds.
TEST(Inputs, EveryCorpusKernelWalksTheSameWithAndWithoutTerms) {
  using namespace testing_support;
  unsigned kernels = 0;
  for (const std::string folder : {"corpus", "idioms", "bugs"}) {
    const std::string dir = std::string(WARPSPEC_TEST_DATA) + "/programs/" + folder + "/";
    for (const auto& k : manifest_kernels(dir + "expect.json")) {
      const Program p = kernel_program(dir, k);
      const Launch l = kernel_launch(k);
      checker::InputQuery q;
      for (unsigned i = 0; i < l.params.size(); ++i) q.unknown.push_back(i);
      q.max_classes = 1;
      q.shown_pins = 0;
      q.explore.max_states = 500;
      const auto a = checker::explore_inputs(p, l, q);
      for (const auto& c : a.classes) {
        ExploreOptions o;
        o.max_states = 500;
        const auto plain = explore(p, c.launch, o);
        if (!plain.complete || !c.exploration.complete) continue;
        EXPECT_EQ(ends_of(plain), ends_of(c.exploration)) << k["name"];
        // The same memories (terms may split one memory into several outcomes).
        EXPECT_EQ(memories(plain), memories(c.exploration)) << k["name"];
      }
      ++kernels;
    }
  }
  EXPECT_GE(kernels, 90u);
}

}  // namespace
}  // namespace warpspec::programs
