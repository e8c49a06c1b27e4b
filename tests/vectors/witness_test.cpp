// Z3 witnesses: every target of every form gets one that replays through the concrete model and
// mutants; the mutants restated over Z3 terms agree with the catalog's concrete mutants on
// random states; a suite built with them puts them first and stays the same file run to run.
#include "checker/witness.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "vectors/format.hpp"

namespace warpspec::checker {
namespace {

std::string names(const std::set<vectors::CoverTarget>& ts) {
  std::string s;
  for (const auto& t : ts)
    s += (t.first == 0
              ? std::string(vectors::mutant_info(static_cast<vectors::MutantId>(t.second)).key)
              : std::string(spec::clause_info(static_cast<spec::ClauseId>(t.second)).key)) +
         " ";
  return s;
}

void expect_every_target_witnessed(spec::Target t, spec::PtxVersion p,
                                   const std::vector<spec::FormId>& forms) {
  for (auto form : forms) {
    WitnessStats st;
    const auto ws = z3_witnesses(form, t, p, {}, &st);
    const auto name = std::string(spec::form_info(form).name);
    EXPECT_TRUE(st.missed.empty()) << name << ": " << st.missed.front();
    EXPECT_GT(st.targets, 0u) << name;
    EXPECT_EQ(st.shown, st.targets) << name;
    // Together the witnesses show every target of the form (semantic clauses through the
    // mutants that violate them).
    std::set<vectors::CoverTarget> shown;
    for (const auto& v : ws) {
      EXPECT_EQ(v.source, "witness");
      const auto c = vectors::covers_of(v, t, p);
      EXPECT_FALSE(c.empty()) << name;
      shown.insert(c.begin(), c.end());
    }
    std::set<vectors::CoverTarget> missing;
    for (const auto& x : vectors::targets_of(form, t))
      if (!shown.count(x)) missing.insert(x);
    EXPECT_TRUE(missing.empty()) << name << ": " << names(missing);
  }
}

std::vector<spec::FormId> forms_on(spec::Target t, spec::PtxVersion p) {
  std::vector<spec::FormId> out;
  for (const auto& f : spec::kForms)
    if (spec::check_availability(f.avail, t, p).available) out.push_back(f.id);
  return out;
}

TEST(Witness, EveryTargetOfEverySm90FormHasAZ3WitnessThatReplays) {
  expect_every_target_witnessed(spec::kDefaultTarget, spec::kLatestPtx,
                                forms_on(spec::kDefaultTarget, spec::kLatestPtx));
}

TEST(Witness, TheF32FormsOnSm100aAndTheConvergenceRulesOnSm60HaveWitnessesToo) {
  const auto sm100a = *spec::parse_target("sm_100a");
  std::vector<spec::FormId> f32;
  for (const auto& f : spec::kForms)
    if (f.a_type == spec::OperandType::F32) f32.push_back(f.id);
  ASSERT_FALSE(f32.empty());
  expect_every_target_witnessed(sm100a, spec::kLatestPtx, f32);
  const auto sm60 = *spec::parse_target("sm_60");
  expect_every_target_witnessed(sm60, spec::kLatestPtx,
                                {spec::FormId::VoteAll, spec::FormId::VoteUni,
                                 spec::FormId::VoteBallot, spec::FormId::BarWarpSync});
}

// The restated mutants and clauses, read on concrete states, say exactly what the catalog's
// concrete code says: a restatement that drifts fails here, not only when a witness replays.
TEST(Witness, RestatedTargetsAgreeWithTheCatalogOnRandomStates) {
  std::size_t compared = 0, shown = 0;
  for (const auto& target :
       {spec::kDefaultTarget, *spec::parse_target("sm_100a"), *spec::parse_target("sm_60")}) {
    std::mt19937_64 rng(17);
    // Every instruction a suite uses, and the ones it does not: negated block predicates and
    // immediate membermasks (the restatement has branches for both).
    std::vector<spec::ParsedInstr> instrs;
    for (auto form : forms_on(target, spec::kLatestPtx))
      for (const auto& in : vectors::instructions_for(form)) instrs.push_back(in);
    for (const char* text :
         {"bar.red.popc.u32 d, 0, !a;", "bar.red.and.pred d, 0, !a;", "bar.red.or.pred d, 0, !a;",
          "vote.sync.ballot.b32 d, a, 0x8000ffff;", "match.all.sync.b32 d|p, a, 0xffff0001;",
          "match.any.sync.b64 d, a, 0x80008001;", "redux.sync.add.s32 d, a, 0x0000fff0;",
          "bar.warp.sync 0x0f0f0f0f;"}) {
      auto parsed = spec::parse_instruction(text);
      ASSERT_TRUE(std::holds_alternative<spec::ParsedInstr>(parsed)) << text;
      instrs.push_back(std::get<spec::ParsedInstr>(parsed));
    }
    {
      for (const auto& in : instrs) {
        std::vector<vectors::Vector> vs;
        for (int k = 0; k < 16; ++k) {
          vectors::Vector v;
          v.instr = in;
          v.rounds.push_back(vectors::random_round(in, rng, k % 4 == 0));
          if (v.is_cta() && k % 2) v.rounds.push_back(vectors::random_round(in, rng, false));
          vs.push_back(std::move(v));
        }
        const auto rs = restated_targets(vs, target);
        ASSERT_EQ(rs.size(), vs.size());
        for (std::size_t k = 0; k < vs.size(); ++k) {
          const auto c = vectors::covers_of(vs[k], target, spec::kLatestPtx);
          std::set<vectors::CoverTarget> concrete;
          for (const auto& t : rs[k].asked)
            if (c.count(t)) concrete.insert(t);
          ASSERT_EQ(names(rs[k].shown), names(concrete))
              << in.text << " on " << spec::to_string(target) << ", random state " << k;
          compared += rs[k].asked.size();
          shown += rs[k].shown.size();
        }
      }
    }
  }
  EXPECT_GT(compared, 2000u);
  EXPECT_GT(shown, compared / 10);  // the states show targets often enough to mean something
}

TEST(Witness, ASuiteWithZ3PutsWitnessesFirstAndIsTheSameFileEachTime) {
  vectors::GenOptions o;
  o.forms = {spec::FormId::MatchAllB64, spec::FormId::VoteBallot, spec::FormId::ReduxMinS32,
             spec::FormId::BarRedPopc};
  o.witnesses = z3_witness_source();
  auto text = [](const vectors::Suite& s) {
    std::ostringstream os;
    for (const auto& v : s.vectors)
      os << vectors::vector_line(v, vectors::expected(v, s.target, s.ptx)) << "\n";
    return os.str();
  };
  const auto a = vectors::generate(o);
  EXPECT_EQ(text(a), text(vectors::generate(o)));
  for (const auto& [form, c] : a.coverage) {
    EXPECT_EQ(c.covered.size(), c.clauses.size()) << spec::form_info(form).name;
    EXPECT_EQ(c.killed.size(), c.mutants.size()) << spec::form_info(form).name;
    // The witnesses alone cover the form.
    std::set<vectors::CoverTarget> by_witness;
    for (const auto& v : a.vectors)
      if (v.instr.instr.form == form && v.source == "witness") {
        const auto cv = vectors::covers_of(v, a.target, a.ptx);
        by_witness.insert(cv.begin(), cv.end());
      }
    for (const auto& t : vectors::targets_of(form, a.target))
      EXPECT_TRUE(by_witness.count(t)) << spec::form_info(form).name << ": " << names({t});
  }
}

// The default sm_90 suite kept in tests/data (and run on an H100, see vectors.h100_results_agree)
// is the one `warpspec vectors` writes today: a change to generation shows up here.
TEST(Witness, TheKeptDefaultSuiteIsTheOneGeneratedToday) {
  vectors::GenOptions o;
  o.witnesses = z3_witness_source();
  const auto s = vectors::generate(o);
  std::ostringstream now;
  now << vectors::header_line({s.target, s.ptx, s.seed, s.vectors.size()}) << "\n";
  for (const auto& v : s.vectors)
    now << vectors::vector_line(v, vectors::expected(v, s.target, s.ptx)) << "\n";
  std::ifstream in(std::string(WARPSPEC_TEST_DATA) + "/vectors/sm_90-default.jsonl");
  ASSERT_TRUE(in) << "tests/data/vectors/sm_90-default.jsonl";
  std::stringstream kept;
  kept << in.rdbuf();
  EXPECT_TRUE(kept.str() == now.str())
      << "regenerate it with: warpspec vectors -o tests/data/vectors/sm_90-default.jsonl, and "
         "run it on an H100 again (docs/vectors.md)";
}

}  // namespace
}  // namespace warpspec::checker
