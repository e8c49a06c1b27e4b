// The catalogued mutants, read as implementations, come back refuted, with a counterexample that
// replays through the concrete reading and shows the violation as a lane table.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "checker/library.hpp"
#include "checker/prover.hpp"
#include "mutants.hpp"
#include "spec/instr_parse.hpp"
#include "vectors/generate.hpp"
#include "vectors/intrinsics.hpp"

namespace warpspec::checker {
namespace {

Verdict prove_named(const std::vector<Property>& lib, const std::string& name) {
  const auto* p = find_property(lib, name);
  EXPECT_NE(p, nullptr) << name;
  if (!p) return {};
  ProveOptions opt;
  opt.timeout_ms = 60000;
  return prove(*p, opt);
}

void expect_refuted_with_replay(const Verdict& v) {
  EXPECT_EQ(v.status, Status::Refuted) << v.name << ": " << v.reason << " " << v.error;
  EXPECT_TRUE(v.error.empty()) << v.error;
  const bool table = v.counterexample.find("warp state 1:\nlane ") != std::string::npos ||
                     v.counterexample.find("threads):\nthread ") != std::string::npos;
  EXPECT_TRUE(table) << v.counterexample;
}

using vectors::MutantId;

TEST(Mutants, IgnoringTheMembermaskBreaksBallotWithinTheLiveMask) {
  auto m = mutants::implementation(MutantId::MembermaskIgnored);
  expect_refuted_with_replay(prove_named(law_library(m), "vote.ballot_within_live_mask"));
}

TEST(Mutants, InvertedUniBreaksUniAsAllOrNone) {
  auto m = mutants::implementation(MutantId::VoteUniInverted);
  const auto v = prove_named(law_library(m), "vote.uni_is_all_or_none");
  expect_refuted_with_replay(v);
  // The JSON counterexample spells values as eval --json does: a predicate operand or result is
  // a boolean (it was sixteen hex digits, and d a bare number), a 32-bit result a hex string.
  ASSERT_FALSE(v.counterexample_json["warps"].empty());
  const auto& w = v.counterexample_json["warps"][0];
  EXPECT_TRUE(w["lanes"][0]["a"].is_boolean()) << w.dump();
  for (const auto& e : w["evaluations"]) {
    const bool pred = e["instr"].get<std::string>().find(".pred") != std::string::npos;
    EXPECT_EQ(e["d"][0].is_boolean(), pred) << e.dump();
    EXPECT_EQ(e["d"][0].is_string(), !pred) << e.dump();
  }
}

TEST(Mutants, FloatMatchByValueBreaksBitPatternComparison) {
  auto m = mutants::implementation(MutantId::FloatMatchByValue);
  auto v = prove_named(law_library(m), "match.any_compares_bit_patterns");
  expect_refuted_with_replay(v);
}

TEST(Mutants, AShufflePredicateAlwaysTrueBreaksPFalseMeansReadingItself) {
  auto m = mutants::implementation(MutantId::ShflPredAlwaysTrue);
  expect_refuted_with_replay(prove_named(law_library(m), "shfl.p_false_means_reading_itself"));
}

TEST(Mutants, IdxWithoutWrapBreaksReadingLaneBOfEachSegment) {
  auto m = mutants::implementation(MutantId::ShflIdxNoWrap);
  expect_refuted_with_replay(prove_named(law_library(m), "shfl.idx_reads_lane_b_of_each_segment"));
}

// The elect.sync laws admit any leader the text allows, but not these bugs.
TEST(Mutants, EachLaneElectingItselfBreaksOneLeaderPerMembermask) {
  auto m = mutants::implementation(MutantId::ElectEachLaneAlone);
  expect_refuted_with_replay(prove_named(law_library(m), "elect.one_leader_per_membermask"));
}

TEST(Mutants, POnEveryLaneBreaksTheLeaderBeingALaneOfTheMask) {
  auto m = mutants::implementation(MutantId::ElectPredOnEveryLane);
  expect_refuted_with_replay(
      prove_named(law_library(m), "elect.leader_is_a_lane_of_the_membermask"));
}

TEST(Mutants, UsingAllOfBBreaksIgnoringItsHighBits) {
  auto m = mutants::implementation(MutantId::ShflBNotMasked);
  expect_refuted_with_replay(
      prove_named(law_library(m), "shfl.ignores_b_above_bit_4_and_c_outside_its_fields"));
}

// One claim: on the instruction `in`, the subject's values agree with the model's wherever the
// model defines them.
Property agrees_with_model(std::shared_ptr<const Implementation> subject, const spec::Instr& in,
                           const std::string& name) {
  const bool cta = !spec::is_warp_form(in.form);
  return make_property(
      name, "agrees with the model on every defined value", cta ? kUsesCta : kUsesWarp,
      [in, cta](auto& e) {
        const auto& d = e.d;
        if (cta) {
          const auto ref = e.reference_cta(in, e.cta);
          const auto got = e.eval_cta(in, e.cta);
          auto same = d.lit(true);
          for (std::size_t t = 0; t < ref.d.size(); ++t)
            same = same && (!ref.defined(t) || got.d[t] == ref.d[t]);
          e.claim("value", same);
          return;
        }
        const auto ref = e.reference(in, e.w0);
        const auto got = e.eval(in, e.w0);
        e.claim_lanes("value", [&](unsigned i) {
          // Both words of a 64-bit shuffle overload's d.
          const auto high = ref.d_hi.empty() || got.d_hi.size() != ref.d_hi.size()
                                ? d.lit(ref.d_hi.size() == got.d_hi.size())
                                : got.d_hi[i] == ref.d_hi[i];
          return !ref.defined(d, i) || (got.d[i] == ref.d[i] && high && got.p[i] == ref.p[i]);
        });
      },
      std::move(subject));
}

// The instructions of a form a mutant may be shown on: its PTX spellings, then (for the
// shuffles) a 64-bit overload, which only an intrinsic call spells.
std::vector<spec::ParsedInstr> candidates(spec::FormId form) {
  auto out = vectors::instructions_for(form);
  for (const auto& i : spec::all_intrinsics())
    if (i.form == form && spec::is_wide_shuffle(i)) {
      out.push_back(
          std::get<spec::ParsedInstr>(spec::parse_instruction(vectors::intrinsic_call(i))));
      break;
    }
  return out;
}

// The mutant text read over Z3 and read concretely are one text: wherever the concrete reading
// changes a defined value on one instruction, the prover finds that instruction disagreeing
// with the model, and its counterexample replays through the concrete reading.
TEST(Mutants, EveryMutantThatChangesAValueIsRefutedOverZ3) {
  std::mt19937_64 rng(5);
  const auto t = *spec::parse_target("sm_100a");  // every form, the .f32 ones included
  std::size_t refuted = 0;
  for (const auto& info : vectors::mutants()) {
    std::optional<spec::ParsedInstr> shown;  // an instruction on which one round changes a value
    for (const auto& f : spec::kForms)
      for (const auto& in : candidates(f.id)) {
        if (shown || !vectors::applies(info.id, in)) continue;
        for (int k = 0; k < 300 && !shown; ++k) {
          vectors::Vector v;
          v.instr = in;
          v.rounds.push_back(vectors::random_round(in, rng, false));
          const auto e = vectors::expected(v, t, spec::kLatestPtx);
          const auto got = vectors::run_mutant(info.id, v, t, spec::kLatestPtx);
          if (vectors::compare(v, e, got).kind == vectors::Mismatch::Kind::Value) shown = in;
        }
      }
    if (!shown) continue;  // a UB report, or state kept over several instructions
    SCOPED_TRACE(std::string(info.key) + " on " + shown->text);
    ProveOptions opt;
    opt.timeout_ms = 60000;
    auto p =
        agrees_with_model(mutants::implementation(info.id), shown->instr, std::string(info.key));
    // Each lane's claim alone: a mutant's first lane usually shows it within a second, where the
    // query over every lane at once ran out its budget first (58 s for the catalog, now 20 s).
    p.claims_alone = true;
    expect_refuted_with_replay(prove(p, opt));
    ++refuted;
  }
  // Of the catalog, only the seven UB reporters (waiting for exited lanes at a warp or a block
  // barrier, a shuffle refusing a membermask other than the executing lanes, a named barrier
  // that ignores its count, a bar.arrive that waits, arrivals counted per thread, bar.arrive
  // partners not counted), the block accumulator that is never reset and the election that
  // rotates its leader need more than a value on one instruction.
  EXPECT_EQ(refuted, vectors::mutants().size() - 9);
}

// A block counterexample shows what each thread passed: with the barrier number in a register,
// the table has a bar column, so the two barriers the mutant merges can be read off it.
TEST(Mutants, ABlockCounterexampleShowsEachThreadsBarrierNumber) {
  const auto in =
      std::get<spec::ParsedInstr>(spec::parse_instruction("bar.red.popc.u32 d, b, 32, p;"));
  ASSERT_FALSE(in.instr.imm_bar);
  auto p = agrees_with_model(mutants::implementation(MutantId::CtaBarrierNumberIgnored), in.instr,
                             "cta_barrier_number_ignored");
  const auto v = prove(p, ProveOptions{});
  expect_refuted_with_replay(v);
  EXPECT_NE(v.counterexample.find("threads):\nthread  status    pred  bar "), std::string::npos)
      << v.counterexample;
  // Two threads at different barriers, both executing: what the mutant gets wrong. The JSON
  // names a thread's status in eval's words, as the table above it does.
  std::set<uint32_t> bars;
  for (const auto& t : v.counterexample_json["blocks"][0]["threads"])
    if (t["status"] == "executes") bars.insert(t["bar"].get<uint32_t>());
  EXPECT_GE(bars.size(), 2u) << v.counterexample;
}

TEST(Mutants, TheModelItselfIsEquivalentToTheModel) {
  auto v = prove_named(equivalence_library(model_implementation()),
                       "model_eq_model.vote.sync.ballot.b32");
  EXPECT_EQ(v.status, Status::Proved) << v.reason;
}

// A counterexample that does not replay is a bug in the checker, reported as an error (the CLI
// exits 70): here the symbolic reading is the mutant but the concrete one is the model.
TEST(Mutants, ACounterexampleThatDoesNotReplayIsAnError) {
  auto base = mutants::implementation(MutantId::VoteUniInverted);
  auto split = std::make_shared<Implementation>(*base);
  split->warp_concrete = model_implementation()->warp_concrete;
  auto v = prove_named(law_library(split), "vote.uni_is_all_or_none");
  EXPECT_EQ(v.status, Status::Refuted);
  EXPECT_NE(v.error.find("does not reproduce"), std::string::npos) << v.error;
}

}  // namespace
}  // namespace warpspec::checker
