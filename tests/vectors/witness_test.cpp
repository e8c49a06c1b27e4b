// Z3 witnesses: every target of every form gets one that replays through the concrete model and
// mutants; the kept suites built with them are what the generator writes, byte for byte, so the
// generator is also the same file run to run.
#include "checker/witness.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "vectors/format.hpp"
#include "vectors/intrinsics.hpp"

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

// Together the witnesses of `form` among `vs` show every target of the form (semantic clauses
// through the mutants that violate them), and each shows at least one.
void expect_witnesses_show_every_target(spec::FormId form, spec::Target t, spec::PtxVersion p,
                                        const std::vector<vectors::Vector>& vs) {
  const auto name = std::string(spec::form_info(form).name);
  std::set<vectors::CoverTarget> shown;
  for (const auto& v : vs) {
    if (v.instr.instr.form != form || v.source != "witness") continue;
    const auto c = vectors::covers_of(v, t, p);
    EXPECT_FALSE(c.empty()) << name << ": witness " << v.id << " shows nothing";
    shown.insert(c.begin(), c.end());
  }
  std::set<vectors::CoverTarget> missing;
  for (const auto& x : vectors::targets_of(form, t))
    if (!shown.count(x)) missing.insert(x);
  EXPECT_TRUE(missing.empty()) << name << ": " << names(missing);
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
    for (const auto& v : ws) EXPECT_EQ(v.source, "witness") << name;
    expect_witnesses_show_every_target(form, t, p, ws);
  }
}

std::vector<spec::FormId> forms_on(spec::Target t, spec::PtxVersion p) {
  std::vector<spec::FormId> out;
  for (const auto& f : spec::kForms)
    if (spec::check_availability(f.avail, t, p).available) out.push_back(f.id);
  return out;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << path;
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

// What `warpspec vectors` and `warpspec vectors --intrinsics` write today with Z3: one search
// serves both kept files (each an H100's and an H200's results are kept against) and the check
// that the witnesses show every target of every sm_90 form.
TEST(Witness, TheKeptSuitesAreWhatTheGeneratorWritesAndTheirWitnessesShowEveryTarget) {
  vectors::GenOptions o;  // the CLI's defaults
  o.witnesses = z3_witness_source();
  const auto suite = vectors::generate(o);
  const vectors::VectorsHeader header{o.target, o.ptx, o.seed};
  std::ostringstream plain, intrinsics;
  vectors::write_vectors(plain, header, suite.vectors);
  vectors::write_vectors(intrinsics, header, vectors::intrinsic_suite(suite));
  const std::string data = WARPSPEC_TEST_DATA;
  // Not EXPECT_EQ on the texts: a difference would print two files of hundreds of kilobytes.
  EXPECT_TRUE(plain.str() == read_file(data + "/vectors/sm_90-default.jsonl"))
      << "the default suite changed: run `warpspec vectors -o tests/data/vectors/sm_90-default.jsonl`"
         " and run it on the hardware again";
  EXPECT_TRUE(intrinsics.str() == read_file(data + "/vectors/sm_90-intrinsics.jsonl"))
      << "the intrinsic suite changed: run `warpspec vectors --intrinsics -o "
         "tests/data/vectors/sm_90-intrinsics.jsonl` and run it on the hardware again";
  const auto forms = forms_on(o.target, o.ptx);
  EXPECT_EQ(suite.coverage.size(), forms.size());
  for (auto form : forms) expect_witnesses_show_every_target(form, o.target, o.ptx, suite.vectors);
  // The whole suite covers every clause and kills every mutant of every form.
  for (const auto& [form, c] : suite.coverage) {
    EXPECT_EQ(c.covered.size(), c.clauses.size()) << spec::form_info(form).name;
    EXPECT_EQ(c.killed.size(), c.mutants.size()) << spec::form_info(form).name;
  }
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

}  // namespace
}  // namespace warpspec::checker
