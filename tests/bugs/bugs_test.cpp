// The independent bug set: its correct implementation agrees with the conformance suites, every
// bug is observable, and the kept default suite kills at least the measured number of them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "bugs/independent.hpp"
#include "vectors/check.hpp"
#include "vectors/format.hpp"
#include "vectors/generate.hpp"

namespace warpspec::bugs {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string file_of(const vectors::Suite& s) {
  std::ostringstream os;
  vectors::write_vectors(os, {s.target, s.ptx, s.seed}, s.vectors);
  return os.str();
}

const std::string& default_suite() {
  static const std::string text = read_text(WARPSPEC_TEST_DATA "/vectors/sm_90-default.jsonl");
  return text;
}

std::string random_suite(std::size_t count, uint64_t seed) {
  vectors::GenOptions o;
  o.random_count = count;
  o.seed = seed;
  return file_of(vectors::generate(o));
}

vectors::CheckReport check_correct(const std::string& suite) {
  std::istringstream vin(suite), rin(results_for(suite, Bug::None));
  return vectors::check(vin, "vectors.jsonl", rin, "results.jsonl");
}

std::string family_of(const BugInfo& b) {
  const auto f = b.forms.front();
  if (f.starts_with("match.")) return "match";
  if (f.starts_with("vote.")) return "vote";
  if (f.starts_with("redux.")) return "redux";
  if (f == "bar.warp.sync") return "syncwarp";
  return "cta";
}

// Prints one line per bug (killed or not, mismatching vectors, kinds of mismatch, the clauses
// and catalog mutants check named) and returns how many were killed.
std::size_t print_table(const std::vector<BugOutcome>& outcomes, const std::string& suite) {
  auto join = [](const std::vector<std::string>& xs) {
    std::string s;
    for (const auto& x : xs) s += (s.empty() ? "" : ",") + x;
    return s.empty() ? std::string("-") : s;
  };
  std::size_t killed = 0;
  std::ostringstream table;
  for (const auto& o : outcomes) {
    killed += o.killed;
    char head[96];
    std::snprintf(head, sizeof head, "%-34s %-8s %4llu  ", std::string(o.key).c_str(),
                  o.killed ? "killed" : "SURVIVES", static_cast<unsigned long long>(o.mismatches));
    table << head << "kinds=" << join(o.kinds) << "  clauses=" << join(o.clauses)
          << "  mutants=" << join(o.mutants) << "\n";
  }
  std::cout << table.str() << "killed " << killed << " of " << outcomes.size()
            << " independent bugs on " << suite << "\n";
  return killed;
}

TEST(bugs, TableNamesRealFormsAndClauses) {
  const auto& table = bug_table();
  ASSERT_GE(table.size(), 36u);
  std::set<std::string_view> keys;
  std::map<std::string, int> per_family;
  for (std::size_t k = 0; k < table.size(); ++k)
    EXPECT_EQ(static_cast<std::size_t>(table[k].id), k + 1) << "the table follows the enum";
  for (const auto& b : table) {
    EXPECT_TRUE(keys.insert(b.key).second) << b.key;
    ASSERT_FALSE(b.forms.empty()) << b.key;
    ASSERT_FALSE(b.clauses.empty()) << b.key;
    std::set<spec::ClauseId> form_clauses;
    for (auto f : b.forms) {
      const auto form = spec::find_form(f);
      ASSERT_TRUE(form) << b.key << ": " << f;
      for (auto c : spec::form_info(*form).clauses) form_clauses.insert(c);
      EXPECT_EQ(family_of(b), family_of({b.id, b.key, b.description, {f}, {}})) << b.key;
    }
    for (auto c : b.clauses) {
      const auto clause = spec::find_clause(c);
      ASSERT_TRUE(clause) << b.key << ": " << c;
      EXPECT_TRUE(form_clauses.count(*clause))
          << b.key << ": " << c << " is not a clause of its forms";
    }
    ++per_family[family_of(b)];
  }
  EXPECT_GE(per_family["match"], 6);
  EXPECT_GE(per_family["vote"], 6);
  EXPECT_GE(per_family["redux"], 6);
  EXPECT_GE(per_family["syncwarp"], 4);
  EXPECT_GE(per_family["cta"], 8);
}

TEST(bugs, CorrectImplementationAgreesWithTheDefaultSuite) {
  ASSERT_FALSE(default_suite().empty());
  const auto rep = check_correct(default_suite());
  EXPECT_EQ(rep.vectors, rep.header.count);
  EXPECT_GT(rep.compared, 0u);
  EXPECT_EQ(rep.mismatches, 0u) << vectors::render(rep, 4);
}

TEST(bugs, CorrectImplementationAgreesWithASeededRandomSuite) {
  const auto rep = check_correct(random_suite(40, 7));
  EXPECT_GT(rep.vectors, 500u);
  EXPECT_EQ(rep.mismatches, 0u) << vectors::render(rep, 4);
}

TEST(bugs, EveryBugIsKilledByALargeRandomSuiteOnlyOnItsForms) {
  const auto suite = random_suite(300, 11);
  const auto correct = check_correct(suite);
  ASSERT_EQ(correct.mismatches, 0u) << vectors::render(correct, 4);
  const auto outcomes = measure(suite);
  ASSERT_EQ(outcomes.size(), bug_table().size());
  print_table(outcomes, "a random suite (300 per form, seed 11)");
  for (const auto& o : outcomes) {
    EXPECT_TRUE(o.killed) << o.key << " is not observable on the random suite";
    const auto& forms = bug_info(o.id).forms;
    for (const auto& f : o.forms)
      EXPECT_NE(std::find(forms.begin(), forms.end(), f), forms.end())
          << o.key << " fails on " << f << ", which its row does not list";
  }
}

TEST(bugs, TheDefaultSuiteKillsAtLeastTheMeasuredFloor) {
  const auto outcomes = measure(default_suite());
  const auto killed = print_table(outcomes, "the default sm_90 suite");
  // The measured floor: 27 of 37 on the 72-vector suite the set was written against, 34 of 37
  // on the first suite with coverpoints, 37 of 37 once interleaved groups, exits between rounds,
  // results that lose bits between rounds and whole exited warps were coverpoints too. It should
  // only rise as the suite improves.
  constexpr std::size_t kMeasuredFloor = 37;
  EXPECT_GE(killed, kMeasuredFloor);
}

// How check explains the bugs the default suite kills: it names no catalog mutant for any of
// them (none is one) and charges a clause the bug breaks for at least the measured share.
TEST(bugs, TheDefaultSuiteChargesTheRightClauseAndNamesNoMutant) {
  const auto outcomes = measure(default_suite());
  std::size_t killed = 0, right = 0;
  for (const auto& o : outcomes) {
    if (!o.killed) continue;
    ++killed;
    EXPECT_TRUE(o.mutants.empty())
        << o.key << " is not a catalog mutant, yet check named " << o.mutants.front();
    const auto& want = bug_info(o.id).clauses;
    const bool hit = std::any_of(o.clauses.begin(), o.clauses.end(), [&](const std::string& c) {
      return std::find(want.begin(), want.end(), c) != want.end();
    });
    right += hit;
    if (!hit) std::cout << "wrong clause: " << o.key << "\n";
  }
  std::cout << "right clause for " << right << " of " << killed << " killed bugs\n";
  // The goal is 90 %; the floor is what was measured, so that it cannot silently fall.
  constexpr std::size_t kRightFloor = 37;
  EXPECT_GE(right, kRightFloor);
  EXPECT_GE(right * 10, killed * 9) << "fewer than 90 % of the killed bugs charged rightly";
}

}  // namespace
}  // namespace warpspec::bugs
