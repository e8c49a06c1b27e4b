// check's diagnosis on implementations whose bugs are not in the mutant catalog: it must say that
// the failures match no catalogued bug, and charge the clause whose rule the values break.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <sstream>

#include "vectors/check.hpp"
#include "vectors/designs.hpp"
#include "vectors/format.hpp"
#include "vectors/generate.hpp"

namespace warpspec::vectors {
namespace {

using Impl = std::function<std::vector<Observed>(const Vector&)>;

// The kept default suite: what `warpspec vectors` writes, with Z3's witnesses, and what the
// H100 and H200 ran (Witness.TheKeptSuitesAreWhatTheGeneratorWrites keeps it current).
constexpr const char* kSuitePath = WARPSPEC_TEST_DATA "/vectors/sm_90-default.jsonl";
const Suite& suite() {
  static const Suite s = [] {
    std::ifstream in(kSuitePath);
    if (!in) throw std::runtime_error(std::string("no suite at ") + kSuitePath);
    Suite out;
    std::string line;
    std::size_t line_no = 0;
    std::optional<VectorReader> reader;
    while (std::getline(in, line)) {
      ++line_no;
      if (!reader) {
        const auto header = parse_header(line, kSuitePath);
        out.target = header.target;
        out.ptx = header.ptx;
        out.seed = header.seed;
        reader.emplace(kSuitePath, header);
        continue;
      }
      out.vectors.push_back(reader->full(line, line_no));
    }
    return out;
  }();
  return s;
}

// Runs `impl` on every vector of the suite and checks its results.
CheckReport check_impl(const Impl& impl) {
  const auto& s = suite();
  std::ostringstream v, r;
  v << header_line({s.target, s.ptx, s.seed, s.vectors.size()}) << "\n";
  for (const auto& x : s.vectors) {
    v << vector_line(x, expected(x, s.target, s.ptx)) << "\n";
    const auto& f = spec::form_info(x.instr.instr.form);
    r << result_line(x.id, impl(x), f.d_type == spec::ResultType::Pred, x.instr.instr.write_p)
      << "\n";
  }
  std::istringstream vi(v.str()), ri(r.str());
  return check(vi, "v.jsonl", ri, "r.jsonl");
}

// What a correct implementation answers: the specification's results, no UB report.
std::vector<Observed> spec_answer(const Vector& v) {
  auto o = as_observed(expected(v, suite().target, suite().ptx));
  for (auto& r : o) r.ub_reported = false;
  return o;
}

// The specification's answer, with `change` applied to the state of vectors of `form` first.
Impl changed_state(spec::FormId form, const std::function<void(Vector&)>& change) {
  return [=](const Vector& v) {
    auto o = spec_answer(v);
    if (v.instr.instr.form != form) return o;
    Vector c = v;
    change(c);
    auto x = as_observed(expected(c, suite().target, suite().ptx));
    for (std::size_t k = 0; k < o.size(); ++k) o[k].d = x[k].d, o[k].p = x[k].p;
    return o;
  };
}

const FormFailures& failures_of(const CheckReport& rep, spec::FormId form) {
  for (const auto& f : rep.failures)
    if (f.form == form) return f;
  static const FormFailures none{};
  ADD_FAILURE() << "no failure for " << spec::form_info(form).name;
  return none;
}

std::vector<std::string> clause_keys(const FormFailures& f) {
  std::vector<std::string> out;
  for (const auto& c : f.diagnosis.clauses) out.emplace_back(spec::clause_info(c.clause).key);
  return out;
}

TEST(Diagnose, LaneThirtyOneLeftOutOfABallotIsAParticipantsBugNotInTheCatalog) {
  auto rep = check_impl(changed_state(spec::FormId::VoteBallot, [](Vector& v) {
    own_masks(v);
    for (auto& r : v.rounds)
      for (auto& m : r.warp.mask) m &= 0x7fffffffu;
  }));
  const auto& f = failures_of(rep, spec::FormId::VoteBallot);
  EXPECT_TRUE(f.diagnosis.mutants.empty());
  EXPECT_EQ(clause_keys(f), std::vector<std::string>{"vote.participants"});
  EXPECT_NE(render(rep, 50).find("the failures match no catalogued bug"), std::string::npos);
}

TEST(Diagnose, AnInvertedBlockAndIsChargedToCtaAndNotToParticipants) {
  auto rep = check_impl([&](const Vector& v) {
    auto o = spec_answer(v);
    if (v.instr.instr.form == spec::FormId::BarRedAnd)
      for (auto& r : o)
        for (auto& d : r.d) d = !d;
    return o;
  });
  const auto& f = failures_of(rep, spec::FormId::BarRedAnd);
  EXPECT_TRUE(f.diagnosis.mutants.empty());
  EXPECT_EQ(clause_keys(f), std::vector<std::string>{"cta.and"});
}

TEST(Diagnose, LanesKeptApartByCallSiteAreAParticipantsBug) {
  auto rep = check_impl(changed_state(spec::FormId::VoteAny, [](Vector& v) {
    keep_call_sites_apart(v);
  }));
  const auto& f = failures_of(rep, spec::FormId::VoteAny);
  EXPECT_TRUE(f.diagnosis.mutants.empty());
  EXPECT_EQ(clause_keys(f), std::vector<std::string>{"vote.participants"});
}

// A match.all whose p is never cleared between instructions (d right, p sticky): the wrong
// values are all in p, so the predicate's own rule is charged, not the rule for d.
TEST(Diagnose, AStickyMatchAllPredicateIsChargedToThePredicateRule) {
  auto rep = check_impl([&](const Vector& v) {
    auto o = spec_answer(v);
    if (v.instr.instr.form == spec::FormId::MatchAllB32 && v.instr.instr.write_p)
      for (std::size_t k = 1; k < o.size(); ++k)
        for (std::size_t i = 0; i < o[k].p.size(); ++i) o[k].p[i] = o[k].p[i] || o[k - 1].p[i];
    return o;
  });
  const auto& f = failures_of(rep, spec::FormId::MatchAllB32);
  EXPECT_TRUE(f.diagnosis.mutants.empty());
  EXPECT_EQ(clause_keys(f), std::vector<std::string>{"match.all.pred"});
  EXPECT_NE(render(rep, 50).find("charged to the rule that computes p"), std::string::npos);
}

TEST(Diagnose, AnAddOffByOneIsChargedToTheAddRuleByElimination) {
  auto rep = check_impl([&](const Vector& v) {
    auto o = spec_answer(v);
    if (v.instr.instr.form == spec::FormId::ReduxAddU32)
      for (auto& r : o)
        for (auto& d : r.d) d += 1;
    return o;
  });
  const auto& f = failures_of(rep, spec::FormId::ReduxAddU32);
  EXPECT_TRUE(f.diagnosis.mutants.empty());
  EXPECT_EQ(clause_keys(f), std::vector<std::string>{"redux.add"});
}

TEST(Diagnose, TwoBugsInOneFormAreReportedAsCombined) {
  // match.any: lane 0 never takes part, and only the low 16 bits of each operand are compared.
  auto rep = check_impl(changed_state(spec::FormId::MatchAnyB32, [](Vector& v) {
    own_masks(v);
    for (auto& r : v.rounds) {
      for (auto& m : r.warp.mask) m &= ~1u;
      for (auto& a : r.warp.a) a &= 0xffffu;
    }
  }));
  const auto& f = failures_of(rep, spec::FormId::MatchAnyB32);
  EXPECT_TRUE(f.diagnosis.mutants.empty());
  const auto keys = clause_keys(f);
  ASSERT_GE(keys.size(), 2u) << render(rep, 50);
  EXPECT_EQ(keys.front(), "match.participants") << render(rep, 50);
  EXPECT_NE(render(rep, 50).find("two or more bugs combine"), std::string::npos);
}

TEST(Diagnose, ACatalogMutantIsNamedOnlyWhenItAloneExplainsEveryVector) {
  const auto& s = suite();
  // vote.all computed as vote.any everywhere: the catalogued vote_all_any_swapped.
  auto rep = check_impl([&](const Vector& v) {
    auto o = spec_answer(v);
    if (v.instr.instr.form != spec::FormId::VoteAll) return o;
    Vector c = v;
    c.instr.instr.form = spec::FormId::VoteAny;
    auto x = as_observed(expected(c, s.target, s.ptx));
    for (std::size_t k = 0; k < o.size(); ++k) o[k].d = x[k].d;
    return o;
  });
  const auto& f = failures_of(rep, spec::FormId::VoteAll);
  ASSERT_EQ(f.diagnosis.mutants.size(), 1u);
  EXPECT_EQ(mutant_info(f.diagnosis.mutants[0]).key, "vote_all_any_swapped");
  // The same bug on only some vectors is no longer that mutant.
  bool flip = false;
  auto partial = check_impl([&](const Vector& v) {
    auto o = spec_answer(v);
    if (v.instr.instr.form != spec::FormId::VoteAll || (flip = !flip)) return o;
    Vector c = v;
    c.instr.instr.form = spec::FormId::VoteAny;
    auto x = as_observed(expected(c, s.target, s.ptx));
    for (std::size_t k = 0; k < o.size(); ++k) o[k].d = x[k].d;
    return o;
  });
  const auto& g = failures_of(partial, spec::FormId::VoteAll);
  EXPECT_TRUE(g.diagnosis.mutants.empty()) << render(partial, 50);
}

TEST(Diagnose, AHangOnADefinedRoundIsAMismatchAndOnAUbRoundIsNot) {
  const auto& s = suite();
  auto rep = check_impl([&](const Vector& v) {
    auto e = expected(v, s.target, s.ptx);
    auto o = as_observed(e);
    for (std::size_t k = 0; k < o.size(); ++k) {
      o[k].ub_reported = false;
      if (v.instr.instr.form == spec::FormId::BarSync && !e[k].ub.empty()) o[k].hang = true;
    }
    return o;
  });
  EXPECT_EQ(rep.mismatches, 0u) << render(rep, 50);
  auto hangs = check_impl([&](const Vector& v) {
    auto o = as_observed(expected(v, s.target, s.ptx));
    for (auto& r : o) {
      r.ub_reported = false;
      if (v.instr.instr.form == spec::FormId::BarWarpSync) r.hang = true, r.present.assign(32, 0);
    }
    return o;
  });
  EXPECT_GT(hangs.forms.at(spec::FormId::BarWarpSync).mismatch, 0u);
  const auto& f = failures_of(hangs, spec::FormId::BarWarpSync);
  ASSERT_FALSE(f.smallest.empty());
  EXPECT_EQ(f.smallest.front().mismatch.kind, Mismatch::Kind::Hang);
}

// Runs `impl` on the kept default suite, where a bug often fails a single vector per form.
CheckReport check_on_kept_suite(const Impl& impl) {
  std::ifstream in(std::string(WARPSPEC_TEST_DATA) + "/vectors/sm_90-default.jsonl");
  std::stringstream all;
  all << in.rdbuf();
  const std::string text = all.str();
  std::istringstream lines(text);
  std::string line;
  std::getline(lines, line);
  const auto header = parse_header(line, "kept");
  VectorReader reader("kept", header);
  std::ostringstream r;
  for (std::size_t no = 2; std::getline(lines, line); ++no) {
    const auto v = reader.full(line, no);
    const auto& f = spec::form_info(v.instr.instr.form);
    r << result_line(v.id, impl(v), f.d_type == spec::ResultType::Pred, v.instr.instr.write_p)
      << "\n";
  }
  std::istringstream vi(text), ri(r.str());
  return check(vi, "kept.jsonl", ri, "r.jsonl");
}

TEST(Diagnose, EvidenceFromTheOtherFormsOfAFamilyCounts) {
  // Lane 31 never takes part in vote.all, .any or .uni: on the kept suite each form fails on one
  // vector, too few alone for a reading that names a lane, enough across the family.
  const auto lane31_out = [](Vector& v) {
    own_masks(v);
    for (auto& r : v.rounds)
      for (auto& m : r.warp.mask) m &= 0x7fffffffu;
  };
  const auto& s = suite();
  auto rep = check_on_kept_suite([&](const Vector& v) {
    auto o = spec_answer(v);
    const auto form = v.instr.instr.form;
    if (form != spec::FormId::VoteAll && form != spec::FormId::VoteAny &&
        form != spec::FormId::VoteUni)
      return o;
    Vector c = v;
    lane31_out(c);
    auto x = as_observed(expected(c, s.target, s.ptx));
    for (std::size_t k = 0; k < o.size(); ++k) o[k].d = x[k].d;
    return o;
  });
  std::size_t forms = 0;
  for (const auto& f : rep.failures) {
    ++forms;
    EXPECT_EQ(clause_keys(f), std::vector<std::string>{"vote.participants"}) << render(rep, 50);
  }
  EXPECT_GE(forms, 2u) << render(rep, 50);
}

TEST(Diagnose, AReadingOfTheWholeRuleComesBeforeOneThatNamesALane) {
  // vote.any drops the ! of its source. On the kept suite "lane k always takes part" reproduces
  // its answers too, for any one of many lanes; the negation's reading is the likelier one.
  const auto& s = suite();
  auto rep = check_on_kept_suite([&](const Vector& v) {
    auto o = spec_answer(v);
    if (v.instr.instr.form != spec::FormId::VoteAny || !v.instr.instr.negate) return o;
    Vector c = v;
    c.instr.instr.negate = false;
    auto x = as_observed(expected(c, s.target, s.ptx));
    for (std::size_t k = 0; k < o.size(); ++k) o[k].d = x[k].d;
    return o;
  });
  const auto& f = failures_of(rep, spec::FormId::VoteAny);
  ASSERT_EQ(clause_keys(f), std::vector<std::string>{"vote.negate"}) << render(rep, 50);
  EXPECT_FALSE(f.diagnosis.named()) << render(rep, 50);
}

TEST(Diagnose, WhereTheFamilyFailsOnlyWhenNegatedTheNegationsReadingComesFirst) {
  // Every vote reads !a as ~a != 0 (a bitwise complement). On the kept suite vote.uni fails on
  // one vector, where reading each predicate as its bit 0 reproduces it as well; the family
  // fails only on negated vectors, which points at the negation.
  const auto& s = suite();
  auto rep = check_on_kept_suite([&](const Vector& v) {
    auto o = spec_answer(v);
    if (spec::form_info(v.instr.instr.form).family != spec::Family::Vote ||
        !v.instr.instr.negate)
      return o;
    Vector c = v;
    c.instr.instr.negate = false;
    for (auto& r : c.rounds)
      for (auto& a : r.warp.a) a = ~static_cast<uint32_t>(a) != 0;
    auto x = as_observed(expected(c, s.target, s.ptx));
    for (std::size_t k = 0; k < o.size(); ++k) o[k].d = x[k].d;
    return o;
  });
  for (const auto& f : rep.failures)
    EXPECT_EQ(clause_keys(f), std::vector<std::string>{"vote.negate"}) << render(rep, 50);
  EXPECT_GE(rep.failures.size(), 2u) << render(rep, 50);
}

TEST(Diagnose, ABlockBarrierThatNegatesItsAnswerIsChargedToTheValueRule) {
  // bar.red with !a reduces a and then negates the answer: .and and .or invert it, .popc
  // subtracts the count from the block's size (exited threads included), which on the kept
  // suite's one negated count reads as well as exited threads passing 0.
  const auto& s = suite();
  auto rep = check_on_kept_suite([&](const Vector& v) {
    auto o = spec_answer(v);
    const auto& f = spec::form_info(v.instr.instr.form);
    if (f.family != spec::Family::CtaBarrier || !v.instr.instr.negate) return o;
    Vector c = v;
    c.instr.instr.negate = false;
    auto x = as_observed(expected(c, s.target, s.ptx));
    for (std::size_t k = 0; k < o.size(); ++k)
      for (std::size_t t = 0; t < o[k].d.size(); ++t)
        o[k].d[t] = f.mode == spec::Mode::Popc ? static_cast<uint32_t>(o[k].d.size()) - x[k].d[t]
                                               : uint32_t{x[k].d[t] == 0};
    return o;
  });
  for (const auto& f : rep.failures) {
    const auto mode = spec::form_info(f.form).mode;
    const std::string want = mode == spec::Mode::Popc ? "cta.count"
                             : mode == spec::Mode::And ? "cta.and"
                                                       : "cta.or";
    EXPECT_EQ(clause_keys(f), std::vector<std::string>{want}) << render(rep, 50);
  }
  EXPECT_EQ(rep.failures.size(), 3u) << render(rep, 50);
}

TEST(Diagnose, ExitedLanesReadAsZeroAreAParticipantsBugNotTheStaleOperandMutant) {
  // The catalogued exited_counted lets exited lanes take part with their stale operands; this
  // implementation zeroes their registers first.
  auto rep = check_impl(changed_state(spec::FormId::ReduxMinU32, [](Vector& v) {
    for (auto& r : v.rounds)
      for (unsigned i = 0; i < 32; ++i)
        if (r.warp.exited[i]) {
          model::set_status(r.warp, i, model::LaneStatus::Executes);
          r.warp.a[i] = 0;
        }
  }));
  const auto& f = failures_of(rep, spec::FormId::ReduxMinU32);
  EXPECT_TRUE(f.diagnosis.mutants.empty()) << render(rep, 50);
  EXPECT_EQ(clause_keys(f), std::vector<std::string>{"redux.participants"}) << render(rep, 50);
}

TEST(Diagnose, NansMadeCanonicalBeforeAMatchBreakTheBitComparison) {
  auto rep = check_impl(changed_state(spec::FormId::MatchAnyB32, [](Vector& v) {
    for (auto& r : v.rounds)
      for (auto& a : r.warp.a)
        if ((a & 0x7f800000u) == 0x7f800000u && (a & 0x007fffffu) != 0) a = 0x7fc00000u;
  }));
  const auto& f = failures_of(rep, spec::FormId::MatchAnyB32);
  EXPECT_TRUE(f.diagnosis.mutants.empty());
  EXPECT_EQ(clause_keys(f), std::vector<std::string>{"match.compare.bits"}) << render(rep, 50);
}

TEST(Diagnose, ANegationAppliedToTheVoteInsteadOfEachPredicateIsChargedToNegation) {
  // vote.all with !a answers !(all of a) (that is, any of !a) instead of all of !a.
  const auto& s = suite();
  auto rep = check_impl([&](const Vector& v) {
    auto o = spec_answer(v);
    if (v.instr.instr.form != spec::FormId::VoteAll || !v.instr.instr.negate) return o;
    Vector c = v;
    c.instr.instr.negate = false;
    auto x = as_observed(expected(c, s.target, s.ptx));
    for (std::size_t k = 0; k < o.size(); ++k)
      for (std::size_t i = 0; i < o[k].d.size(); ++i) o[k].d[i] = x[k].d[i] == 0;
    return o;
  });
  const auto& f = failures_of(rep, spec::FormId::VoteAll);
  EXPECT_TRUE(f.diagnosis.mutants.empty());
  ASSERT_EQ(clause_keys(f), std::vector<std::string>{"vote.negate"}) << render(rep, 50);
  EXPECT_NE(render(rep, 50).find("the ! applied to the answer instead of to each predicate"),
            std::string::npos);
}

TEST(Diagnose, FailuresOnlyWhereTheSourceIsNegatedAreChargedToNegationWhenNoReadingShowsThem) {
  // vote.all with !a gives its lowest executing lane the opposite answer: no reading reproduces
  // that, but the failures fall only on negated vectors while plain ones pass.
  auto rep = check_impl([&](const Vector& v) {
    auto o = spec_answer(v);
    if (v.instr.instr.form != spec::FormId::VoteAll || !v.instr.instr.negate) return o;
    for (auto& r : o)
      for (std::size_t i = 0; i < r.d.size(); ++i)
        if (r.present[i]) {
          r.d[i] = !r.d[i];
          break;
        }
    return o;
  });
  const auto& f = failures_of(rep, spec::FormId::VoteAll);
  EXPECT_TRUE(f.diagnosis.mutants.empty());
  ASSERT_EQ(clause_keys(f), std::vector<std::string>{"vote.negate"}) << render(rep, 50);
  EXPECT_FALSE(f.diagnosis.clauses.front().because.empty()) << render(rep, 50);
  EXPECT_NE(render(rep, 50).find("charged because the form fails only where the source is negated"),
            std::string::npos);
}

TEST(Diagnose, ACollectiveThatHangsOnADefinedRoundBreaksWhoTakesPart) {
  // redux.add waits for every lane its mask names, exited ones included: where one is named the
  // round never completes.
  const auto& s = suite();
  auto rep = check_impl([&](const Vector& v) {
    auto e = expected(v, s.target, s.ptx);
    auto o = spec_answer(v);
    if (v.instr.instr.form != spec::FormId::ReduxAddU32) return o;
    for (std::size_t k = 0; k < o.size(); ++k) {
      const auto& w = v.rounds[k].warp;
      bool waits = false;
      for (unsigned i = 0; i < 32; ++i)
        if (e[k].executes[i]) {
          const uint32_t m = v.instr.instr.imm_mask.value_or(w.mask[i]);
          for (unsigned j = 0; j < 32; ++j) waits = waits || (((m >> j) & 1u) && w.exited[j]);
        }
      if (waits && e[k].ub.empty()) {
        o[k].hang = true;
        o[k].present.assign(o[k].present.size(), 0);
        for (auto r = k + 1; r < o.size(); ++r) o[r].present.assign(o[r].present.size(), 0);
        break;
      }
    }
    return o;
  });
  const auto& f = failures_of(rep, spec::FormId::ReduxAddU32);
  EXPECT_TRUE(f.diagnosis.mutants.empty()) << render(rep, 50);
  EXPECT_EQ(clause_keys(f), std::vector<std::string>{"redux.participants"}) << render(rep, 50);
  EXPECT_NE(render(rep, 50).find("as if waiting for a lane it must not wait for"),
            std::string::npos);
}

TEST(Diagnose, AMatchThatHangsOnlyWhereANanTakesPartBreaksTheBitComparison) {
  // A float __match_any_sync that removes the lanes equal to a chosen value until none is left:
  // with a NaN among the lanes that take part it never ends.
  auto rep = check_impl([&](const Vector& v) {
    auto o = spec_answer(v);
    if (v.instr.instr.form != spec::FormId::MatchAnyB32) return o;
    const auto e = expected(v, suite().target, suite().ptx);
    for (std::size_t k = 0; k < o.size(); ++k)
      if (e[k].ub.empty() && nan_takes_part(v, k, e[k])) {
        o[k].hang = true;
        o[k].present.assign(o[k].present.size(), 0);
        for (auto r = k + 1; r < o.size(); ++r) o[r].present.assign(o[r].present.size(), 0);
        break;
      }
    return o;
  });
  const auto& f = failures_of(rep, spec::FormId::MatchAnyB32);
  EXPECT_EQ(clause_keys(f), std::vector<std::string>{"match.compare.bits"}) << render(rep, 50);
  EXPECT_NE(render(rep, 50).find("a NaN never equals itself"), std::string::npos);
}

TEST(Diagnose, APredicateReadAsItsBitZeroIsChargedToTheValueRuleNotToWhoTakesPart) {
  auto rep = check_impl(changed_state(spec::FormId::VoteBallot, [](Vector& v) {
    for (auto& r : v.rounds)
      for (auto& a : r.warp.a) a &= 1u;
  }));
  const auto& f = failures_of(rep, spec::FormId::VoteBallot);
  EXPECT_TRUE(f.diagnosis.mutants.empty()) << render(rep, 50);
  EXPECT_EQ(clause_keys(f), std::vector<std::string>{"vote.ballot"}) << render(rep, 50);
  EXPECT_NE(render(rep, 50).find("each predicate read as its bit 0"), std::string::npos);
}

TEST(Diagnose, APartialLastWarpLeftOutOfTheCountIsAParticipantsBug) {
  auto rep = check_impl(changed_state(spec::FormId::BarRedPopc, [](Vector& v) {
    for (auto& r : v.rounds) {
      const std::size_t n = r.cta.arrive.size();
      for (std::size_t t = n / 32 * 32; t < n; ++t) r.cta.exited[t] = true, r.cta.arrive[t] = false;
    }
  }));
  const auto& f = failures_of(rep, spec::FormId::BarRedPopc);
  EXPECT_TRUE(f.diagnosis.mutants.empty()) << render(rep, 50);
  EXPECT_EQ(clause_keys(f), std::vector<std::string>{"cta.participants"}) << render(rep, 50);
  EXPECT_NE(render(rep, 50).find("the threads of a partial last warp not counted"),
            std::string::npos);
}

TEST(Diagnose, ExitedLanesReadFromASlotNeverClearedAreAParticipantsBug) {
  // A lane that has exited still takes part with the operand it passed in an earlier round of
  // the vector, or with 0 (a slot never written) before that.
  auto rep = check_impl(changed_state(spec::FormId::ReduxMaxS32, [](Vector& v) {
    std::array<uint64_t, 32> slot{};
    for (auto& r : v.rounds) {
      auto& w = r.warp;
      std::array<uint8_t, 32> took{};
      for (unsigned j = 0; j < 32; ++j) took[j] = w.exec[j] && !w.exited[j];
      const uint32_t m = v.instr.instr.imm_mask.value_or(0);
      for (unsigned j = 0; j < 32; ++j) {
        if (!w.exited[j]) continue;
        for (unsigned i = 0; i < 32; ++i)
          if (took[i] && (((m ? m : w.mask[i]) >> j) & 1u)) {
            w.exited[j] = false, w.exec[j] = true, w.a[j] = slot[j];
            w.mask[j] = m ? m : w.mask[i], w.site[j] = w.site[i];
            break;
          }
      }
      for (unsigned j = 0; j < 32; ++j)
        if (took[j]) slot[j] = w.a[j];
    }
  }));
  const auto& f = failures_of(rep, spec::FormId::ReduxMaxS32);
  EXPECT_TRUE(f.diagnosis.mutants.empty()) << render(rep, 50);
  EXPECT_EQ(clause_keys(f), std::vector<std::string>{"redux.participants"}) << render(rep, 50);
}

TEST(Diagnose, WrongSetsThatOtherLanesWouldGiveAreChargedToWhoTakesPart) {
  // match.any leaves the highest taking-part lane out of every other lane's set: which lane that
  // is changes from state to state, so no one reading reproduces it, but every wrong set is one
  // that some set of lanes holding the value gives.
  auto rep = check_impl([&](const Vector& v) {
    auto o = spec_answer(v);
    if (v.instr.instr.form != spec::FormId::MatchAnyB32) return o;
    for (auto& r : o) {
      uint32_t all = 0;
      for (std::size_t i = 0; i < r.d.size(); ++i)
        if (r.present[i]) all |= r.d[i];
      if (!all) continue;
      const uint32_t top = 1u << (31 - std::countl_zero(all));
      for (std::size_t i = 0; i < r.d.size(); ++i)
        if (r.present[i] && (1u << i) != top) r.d[i] &= ~top;
    }
    return o;
  });
  const auto& f = failures_of(rep, spec::FormId::MatchAnyB32);
  EXPECT_TRUE(f.diagnosis.mutants.empty()) << render(rep, 50);
  EXPECT_EQ(clause_keys(f), std::vector<std::string>{"match.participants"}) << render(rep, 50);
  EXPECT_NE(render(rep, 50).find("values that other sets of lanes give"), std::string::npos);
}

TEST(Diagnose, AnImplementationThatGivesNoResultIsNoCataloguedBug) {
  // Every defined lane of every vector without a result: each form fails by missing results,
  // and no catalogued bug, all of which answer, is said to be consistent with that.
  const auto rep = check_impl([](const Vector& v) {
    auto o = as_observed(expected(v, suite().target, suite().ptx));
    for (auto& r : o) {
      std::fill(r.present.begin(), r.present.end(), 0);
      r.ub_reported = false;
    }
    return o;
  });
  EXPECT_GT(rep.mismatches, 0u);
  ASSERT_FALSE(rep.failures.empty());
  for (const auto& ff : rep.failures)
    EXPECT_TRUE(ff.diagnosis.mutants.empty()) << spec::form_info(ff.form).name << " is said to "
                                               << "match " << ff.diagnosis.mutants.size()
                                               << " catalogued bugs";
}

TEST(Diagnose, ACataloguedBugIsNotNamedWhenAnotherBugAnswersEveryVectorAlike) {
  // Two groups side by side; the low group holds the smallest value. Every lane using the lowest
  // lane's membermask answers here as a reduction that ignores the membermask does: both give
  // every lane the minimum of the low group. The file cannot tell the two bugs apart, so neither
  // is named, though only one of them is in the catalog.
  Vector v;
  v.instr = std::get<spec::ParsedInstr>(spec::parse_instruction("redux.sync.min.u32 d, a, m;"));
  model::Warp w = model::make_warp(0);
  for (unsigned i = 0; i < 32; ++i) {
    w.mask[i] = i < 16 ? 0x0000ffffu : 0xffff0000u;
    w.a[i] = i + 1;
  }
  v.rounds = {Round{w, {}}};
  const auto t = spec::kDefaultTarget;
  const auto p = spec::kLatestPtx;
  Answered a{v, expected(v, t, p), {}};
  a.observed = as_observed(a.expect);
  for (auto& r : a.observed) {
    r.ub_reported = false;
    for (auto& d : r.d) d = 1;  // the low group's minimum, on every lane
  }
  const auto dg = diagnose({a}, t, p);
  ASSERT_EQ(dg.mutants.size(), 1u);
  EXPECT_EQ(dg.mutants.front(), MutantId::MembermaskIgnored);
  EXPECT_FALSE(dg.named());
  ASSERT_FALSE(dg.also_explained_by.empty());
  EXPECT_NE(std::find(dg.also_explained_by.begin(), dg.also_explained_by.end(),
                      "the lowest executing lane's membermask used by every lane"),
            dg.also_explained_by.end());
  // Where the two bugs answer otherwise, the catalogued one is named again.
  Vector apart = v;
  apart.rounds[0].warp.a[20] = 0;  // the high group now holds the smallest value
  Answered b{apart, expected(apart, t, p), {}};
  b.observed = as_observed(b.expect);
  for (auto& r : b.observed) {
    r.ub_reported = false;
    for (auto& d : r.d) d = 0;  // every lane: the minimum of all 32, as membermask_ignored says
  }
  const auto both = diagnose({a, b}, t, p);
  EXPECT_TRUE(both.named());
  EXPECT_TRUE(both.also_explained_by.empty());
}

TEST(Diagnose, EveryReadingChangesSomeAnswerOfItsForm) {
  // A reading that never departs from the specification could never explain a failure: each one
  // must change some defined answer on some vector of its form, plain or negated (a form's
  // answers are all read with one list of readings, as diagnose does), in a suite with many
  // seeded random states.
  static const Suite s = [] {
    GenOptions o;
    o.random_count = 300;
    o.seed = 5;
    return generate(o);
  }();
  // The random suite, and every coverpoint design for every instruction of every form (the
  // designs of a block barrier with `!a` too).
  static const std::vector<Vector> designed = [] {
    std::vector<Vector> out;
    for (const auto& f : spec::kForms)
      for (const auto& in : cover_instructions(f.id))
        for (auto& rounds : cover_designs(in)) {
          Vector v;
          v.instr = in;
          v.rounds = std::move(rounds);
          out.push_back(std::move(v));
        }
    return out;
  }();
  std::map<spec::FormId, std::vector<const Vector*>> by_form;
  for (const auto& v : s.vectors) by_form[v.instr.instr.form].push_back(&v);
  for (const auto& v : designed) by_form[v.instr.instr.form].push_back(&v);
  std::size_t readings = 0, unseen = 0;
  for (const auto& [form, vs] : by_form) {
    const auto& in = vs.front()->instr;
    const auto text = spec::form_info(form).name;
    const auto rs = readings_for(in);
    // The same readings, in the same order, for every instruction of the form.
    for (const auto* v : vs) {
      const auto other = readings_for(v->instr);
      ASSERT_EQ(other.size(), rs.size()) << v->instr.text;
      for (std::size_t r = 0; r < rs.size(); ++r) ASSERT_EQ(other[r].text, rs[r].text);
    }
    for (std::size_t r = 0; r < rs.size(); ++r) {
      // Readings that name one lane need that lane to hold the deciding value; random states
      // reach most, not all, of the 64 per form. The others must all show.
      if (rs[r].text.starts_with("lane ")) continue;
      ++readings;
      bool changes = false;
      for (const auto* v : vs) {
        if (changes) break;
        const auto e = expected(*v, s.target, s.ptx);
        const auto x = read_with(r, *v, e, s.target, s.ptx);
        for (std::size_t k = 0; k < e.size() && !changes; ++k) {
          if (!e[k].ub.empty()) continue;
          for (std::size_t i = 0; i < e[k].defined.size(); ++i)
            if (e[k].defined[i] && (x[k].d[i] != e[k].d[i] || x[k].p[i] != e[k].p[i])) {
              changes = true;
              break;
            }
        }
      }
      if (!changes) {
        ++unseen;
        std::cout << text << ": '" << rs[r].text << "' changes nothing on this suite\n";
      }
    }
  }
  EXPECT_GT(readings, 200u);
  // One that is no change by construction (a reduction started from its own identity, .add of the
  // other signedness, exited lanes joining with an operand the operation ignores) shows here.
  EXPECT_EQ(unseen, 0u) << unseen << " of " << readings << " readings change nothing";
}

}  // namespace
}  // namespace warpspec::vectors
