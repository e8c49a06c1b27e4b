// Coverpoints over whole suites: the default suites (without Z3, and the kept sm_90 file, which
// has Z3's witnesses) hit every reachable coverpoint of every form; every coverpoint a form lists
// but cannot reach carries its reason, and no seeded random state or design reaches it; UB
// coverpoints are hit only by UB vectors. (The predicates on hand-made states:
// coverpoints_test.cpp.)
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <random>

#include "vectors/coverpoints.hpp"
#include "vectors/designs.hpp"
#include "vectors/format.hpp"
#include "vectors/generate.hpp"

namespace warpspec::vectors {
namespace {

constexpr spec::Target kSm90 = spec::kDefaultTarget, kSm100a{100, 'a'}, kSm60{60, 0};

Vector vector_of(const spec::ParsedInstr& in, std::vector<Round> rounds) {
  Vector v;
  v.instr = in;
  v.rounds = std::move(rounds);
  return v;
}

// ---------------------------------------------------------------- suites

struct TargetCase {
  spec::Target target;
  spec::PtxVersion ptx;
};
const TargetCase kTargets[] = {
    {kSm90, spec::kLatestPtx}, {kSm100a, spec::kLatestPtx}, {kSm60, {6, 0}}};

void expect_every_reachable_hit(const std::map<spec::FormId, FormCoverage>& cov,
                                const std::string& what) {
  ASSERT_FALSE(cov.empty()) << what;
  for (const auto& [form, c] : cov) {
    EXPECT_FALSE(c.coverpoints.empty()) << what << " " << spec::form_info(form).name;
    for (auto id : c.coverpoints)
      EXPECT_TRUE(std::find(c.hit.begin(), c.hit.end(), id) != c.hit.end())
          << what << " " << spec::form_info(form).name << ": " << coverpoint_info(id).key;
  }
}

TEST(Coverpoints, TheDefaultSuitesWithoutZ3HitEveryReachableCoverpoint) {
  for (const auto& t : kTargets) {
    GenOptions o;
    o.target = t.target;
    o.ptx = t.ptx;
    const auto s = generate(o);
    expect_every_reachable_hit(s.coverage, spec::to_string(t.target));
    // The report's numbers are those of the file: recomputing from the vectors agrees.
    const auto again = coverage_of(s.vectors, s.target, s.ptx);
    for (const auto& [form, c] : s.coverage) EXPECT_EQ(again.at(form).hit, c.hit);
  }
}

TEST(Coverpoints, TheKeptSm90SuiteHitsEveryReachableCoverpoint) {
  const std::string path = std::string(WARPSPEC_TEST_DATA) + "/vectors/sm_90-default.jsonl";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  const auto header = parse_header(line, path);
  VectorReader reader(path, header);
  std::vector<Vector> vs;
  for (std::size_t no = 2; std::getline(in, line); ++no) vs.push_back(reader.full(line, no));
  // The kept suite is the one `warpspec vectors` writes today, with Z3's witnesses
  // (Witness.TheKeptSuitesAreWhatTheGeneratorWritesAndTheirWitnessesShowEveryTarget).
  expect_every_reachable_hit(coverage_of(vs, header.target, header.ptx), "the kept sm_90 suite");
  // Each mutant adds one large state it alone explains beside its smallest one (the large one
  // tells a near bug from it); check shows the smallest failing vector whatever the size.
  EXPECT_LE(vs.size(), 460u) << "the default suite should stay readable";
}

// ---------------------------------------------------------------- reachability

TEST(Coverpoints, EveryUnreachableCoverpointSaysWhy) {
  std::size_t unreachable = 0;
  for (const auto& t : kTargets)
    for (const auto& f : spec::kForms) {
      if (!spec::check_availability(f.avail, t.target, t.ptx).available) continue;
      for (const auto& c : coverpoints_of(f.id, t.target)) {
        EXPECT_TRUE(in_scope(coverpoint_info(c.id).scope, f.id));
        if (c.unreachable.empty()) continue;
        ++unreachable;
        EXPECT_GT(c.unreachable.size(), 20u) << f.name << " " << coverpoint_info(c.id).key;
      }
    }
  EXPECT_GT(unreachable, 0u);
  // Nothing else is unreachable on sm_90: every listed coverpoint counts there, but for the
  // shuffles' call-site split (keeping call sites apart leaves a shuffle's d open, changing
  // nothing a check compares) and, for elect.sync, the three that need an exited lane named in
  // a defined round (elect.sync does not excuse exited lanes).
  const auto elect_exited = [](CoverpointId id) {
    return id == CoverpointId::StatusExitedInMask || id == CoverpointId::StatusSoleSurvivor ||
           id == CoverpointId::SeqExitedStillNamed;
  };
  for (const auto& f : spec::kForms) {
    if (f.a_type == spec::OperandType::F32) continue;
    for (const auto& c : coverpoints_of(f.id, kSm90))
      EXPECT_EQ(c.unreachable.empty(),
                !(f.family == spec::Family::Shfl && c.id == CoverpointId::SeqCallSiteSplit) &&
                    !(f.family == spec::Family::Elect && elect_exited(c.id)))
          << f.name << " " << coverpoint_info(c.id).key;
  }
}

// Seeded random states and the coverpoint designs never hit a coverpoint that is said to be
// unreachable; UB coverpoints are hit only by UB vectors and the others only by defined ones.
TEST(Coverpoints, NoStateHitsAnUnreachableCoverpointAndUbOnesNeedUb) {
  std::mt19937_64 rng(17);
  std::size_t checked = 0;
  for (const auto& t : kTargets)
    for (const auto& f : spec::kForms) {
      if (!spec::check_availability(f.avail, t.target, t.ptx).available) continue;
      const auto listed = coverpoints_of(f.id, t.target);
      auto check = [&](const Vector& v) {
        const auto e = expected(v, t.target, t.ptx);
        for (auto id : coverpoints_hit(v, e, t.target, t.ptx)) {
          ++checked;
          EXPECT_EQ(coverpoint_info(id).ub, has_ub(e)) << coverpoint_info(id).key;
          for (const auto& c : listed) {
            EXPECT_TRUE(c.id != id || c.unreachable.empty())
                << f.name << " " << coverpoint_info(id).key << " on " << spec::to_string(t.target)
                << " was said to be unreachable";
          }
        }
      };
      for (const auto& in : cover_instructions(f.id)) {
        for (auto& rounds : cover_designs(in)) check(vector_of(in, std::move(rounds)));
        for (int k = 0; k < 150; ++k) check(vector_of(in, {random_round(in, rng, true)}));
      }
    }
  EXPECT_GT(checked, 10000u);
}

}  // namespace
}  // namespace warpspec::vectors
