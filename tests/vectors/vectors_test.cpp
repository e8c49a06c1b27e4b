// Conformance vectors: coverage of the default suite, determinism, the file format, and
// `check` catching every mutant of the catalog while naming the clause it violates.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <sstream>

#include "vectors/check.hpp"
#include "vectors/format.hpp"
#include "vectors/generate.hpp"

namespace warpspec::vectors {
namespace {

std::string file_of(const Suite& s) {
  std::ostringstream os;
  os << header_line({s.target, s.ptx, s.seed, s.vectors.size()}) << "\n";
  for (const auto& v : s.vectors) os << vector_line(v, expected(v, s.target, s.ptx)) << "\n";
  return os.str();
}

std::string results_of(const Suite& s,
                       const std::function<std::vector<Observed>(const Vector&)>& impl) {
  std::ostringstream os;
  for (const auto& v : s.vectors) {
    const auto& f = spec::form_info(v.instr.instr.form);
    os << result_line(v.id, impl(v), f.d_type == spec::ResultType::Pred, v.instr.instr.write_p)
       << "\n";
  }
  return os.str();
}

CheckReport run_check(const std::string& vfile, const std::string& rfile) {
  std::istringstream v(vfile), r(rfile);
  return check(v, "vectors.jsonl", r, "results.jsonl");
}

const Suite& default_suite() {
  static const Suite s = generate(GenOptions{});
  return s;
}

void expect_full_coverage(const Suite& s) {
  ASSERT_FALSE(s.coverage.empty());
  for (const auto& [form, c] : s.coverage) {
    EXPECT_EQ(c.covered.size(), c.clauses.size()) << spec::form_info(form).name;
    EXPECT_EQ(c.killed.size(), c.mutants.size()) << spec::form_info(form).name;
  }
}

TEST(Suite, DefaultSuiteCoversEveryClauseAndKillsEveryMutantOnSm90) {
  const auto& s = default_suite();
  expect_full_coverage(s);
  std::size_t forms = 0;
  for (const auto& f : spec::kForms)
    forms += spec::check_availability(f.avail, spec::kDefaultTarget, spec::kLatestPtx).available;
  EXPECT_EQ(s.coverage.size(), forms);
  // A few vectors per form for the mutants and clauses, and a few more for the coverpoints.
  EXPECT_LT(s.vectors.size(), 12 * forms) << "the default suite should stay small";
}

TEST(Suite, CoversTheF32FormsOnSm100aAndTheConvergenceRulesOnSm60) {
  GenOptions o;
  o.target = {100, 'a'};
  expect_full_coverage(generate(o));
  GenOptions old;
  old.target = {60, 0};
  old.ptx = {6, 0};
  auto s = generate(old);
  expect_full_coverage(s);
  bool sm6x = false;
  for (const auto& [form, c] : s.coverage)
    for (auto cl : c.covered) sm6x |= cl == spec::ClauseId::VoteUbSm6xConvergence;
  EXPECT_TRUE(sm6x);
}

TEST(Suite, SameSeedSameFileOtherSeedOtherFile) {
  GenOptions a;
  a.random_count = 5;
  a.forms = {spec::FormId::MatchAnyB32, spec::FormId::VoteBallot};
  GenOptions b = a;
  b.seed = 2;
  EXPECT_EQ(file_of(generate(a)), file_of(generate(a)));
  EXPECT_NE(file_of(generate(a)), file_of(generate(b)));
}

TEST(Suite, UbVectorsComeLastAndAreMarked) {
  const auto& s = default_suite();
  bool seen_ub = false;
  for (const auto& v : s.vectors) {
    const bool ub = has_ub(expected(v, s.target, s.ptx));
    EXPECT_FALSE(seen_ub && !ub) << "defined vector " << v.id << " after a UB vector";
    seen_ub |= ub;
  }
  EXPECT_TRUE(seen_ub);
  EXPECT_NE(file_of(s).find("\"ub\":true"), std::string::npos);
}

TEST(Format, EveryVectorRoundTrips) {
  const auto& s = default_suite();
  VectorReader reader("suite.jsonl");
  std::size_t line = 1;
  for (const auto& v : s.vectors) {
    const auto text = vector_line(v, expected(v, s.target, s.ptx));
    auto back = reader.full(text, ++line);
    EXPECT_EQ(back.id, v.id);
    EXPECT_EQ(back.instr.text, v.instr.text);
    ASSERT_EQ(back.rounds.size(), v.rounds.size());
    EXPECT_EQ(vector_line(back, expected(back, s.target, s.ptx)), text);
    const auto& ex = reader.expect(text, line);
    const auto e = expected(v, s.target, s.ptx);
    ASSERT_EQ(ex.rounds.size(), e.size());
    for (std::size_t k = 0; k < e.size(); ++k) {
      EXPECT_EQ(ex.rounds[k].defined, e[k].defined) << v.id;
      for (std::size_t i = 0; i < e[k].defined.size(); ++i)
        if (e[k].defined[i]) {
          EXPECT_EQ(ex.rounds[k].d[i], e[k].d[i]) << v.id;
        }
      EXPECT_EQ(ex.rounds[k].ub.size(), e[k].ub.size()) << v.id;
    }
  }
}

TEST(Check, TheModelsOwnResultsAgree) {
  const auto& s = default_suite();
  auto rep = run_check(file_of(s), results_of(s, [&](const Vector& v) {
                         return as_observed(expected(v, s.target, s.ptx));
                       }));
  EXPECT_EQ(rep.mismatches, 0u);
  EXPECT_EQ(rep.vectors, s.vectors.size());
}

TEST(Check, CatchesEveryMutantAndNamesItsClause) {
  const auto& s = default_suite();
  const auto vfile = file_of(s);
  for (const auto& m : mutants()) {
    bool applicable = false;
    for (const auto& v : s.vectors) applicable |= applies(m.id, v.instr);
    if (!applicable) continue;  // the .f32 mutants: no .f32 form on sm_90
    auto rep = run_check(vfile, results_of(s, [&](const Vector& v) {
                           return run_mutant(m.id, v, s.target, s.ptx);
                         }));
    EXPECT_GT(rep.mismatches, 0u) << m.key;
    bool named = false;
    for (const auto& f : rep.failures)
      for (const auto& c : f.diagnosis.clauses) named |= c.clause == violated_clause(m.id, f.form);
    EXPECT_TRUE(named) << m.key << " was not charged to its clause";
    const auto text = render(rep, 100);
    EXPECT_NE(text.find("behaves like the known bug '" + std::string(m.key) + "'"),
              std::string::npos)
        << text;
  }
}

std::string message_of(const std::string& vfile, const std::string& rfile) {
  try {
    run_check(vfile, rfile);
  } catch (const FormatError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Check, BadResultFilesGetOneClearMessage) {
  GenOptions o;
  o.forms = {spec::FormId::VoteBallot, spec::FormId::MatchAnyB32};
  const auto s = generate(o);
  const auto vfile = file_of(s);
  auto good =
      results_of(s, [&](const Vector& v) { return as_observed(expected(v, s.target, s.ptx)); });
  const auto first_nl = good.find('\n');
  const auto fewer = good.substr(0, first_nl + 1);
  EXPECT_NE(message_of(vfile, fewer).find("results.jsonl:2:1: the results end after 1 results"),
            std::string::npos)
      << message_of(vfile, fewer);
  EXPECT_NE(message_of(vfile, good + good).find("more results than vectors"), std::string::npos);
  auto swapped = good;
  swapped.replace(swapped.find("{\"id\":1,"), 8, "{\"id\":9,");
  EXPECT_NE(
      message_of(vfile, swapped).find("results.jsonl:1:1: result for vector 9, expected vector 1"),
      std::string::npos)
      << message_of(vfile, swapped);
  // Cut the first line inside its first hex string.
  const auto cut = good.find("\"0x") + 4;
  ASSERT_LT(cut, first_nl);
  auto truncated = good.substr(0, cut) + "\n" + good.substr(first_nl + 1);
  EXPECT_NE(message_of(vfile, truncated).find("results.jsonl:1:"), std::string::npos)
      << message_of(vfile, truncated);
  EXPECT_NE(message_of(vfile, truncated).find("unterminated string"), std::string::npos)
      << message_of(vfile, truncated);
  auto wide = good;
  wide.replace(wide.find("\"0x"), 3, "\"0x1");
  wide.replace(wide.find("\"0x1") + 4, 0, "0000000");
  EXPECT_NE(message_of(vfile, wide).find("32-bit value"), std::string::npos)
      << message_of(vfile, wide);
  EXPECT_NE(message_of("", good).find("vectors.jsonl:1:1: the file is empty"), std::string::npos);
  EXPECT_NE(message_of("{\"schema\":\"warpspec-vectors/9\"}\n", good).find("is not supported"),
            std::string::npos);
  EXPECT_NE(
      message_of(vfile, "{\"schema\":\"warpspec-results/2\"}\n" + good).find("is not supported"),
      std::string::npos);
  EXPECT_NE(message_of(vfile, "\xff\xfe\n" + good).find("results.jsonl:1:1"), std::string::npos);
}

TEST(Check, SkippedVectorsAreCountedNotCompared) {
  GenOptions o;
  o.forms = {spec::FormId::VoteAll};
  const auto s = generate(o);
  std::string results;
  for (const auto& v : s.vectors)
    results += "{\"id\":" + std::to_string(v.id) + ",\"skipped\":true}\n";
  auto rep = run_check(file_of(s), results);
  EXPECT_EQ(rep.mismatches, 0u);
  EXPECT_EQ(rep.forms.at(spec::FormId::VoteAll).skipped, s.vectors.size());
}

TEST(Json, PullAndDomReadersAgreeOnErrorsAndValues) {
  json::Document d;
  EXPECT_FALSE(d.parse("{\"a\":[1,2,}"));
  EXPECT_EQ(d.error_column(), 11u);
  EXPECT_FALSE(
      d.parse("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]"
              "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"));
  EXPECT_NE(d.error().find("64"), std::string::npos);
  ASSERT_TRUE(d.parse("{\"x\":\"0xffffffff\",\"y\":[true,null,-3]}"));
  EXPECT_EQ(json::as_uint(*d.get(d.root(), "x"), 32), 0xffffffffu);
  EXPECT_FALSE(json::as_uint(*d.get(d.root(), "x"), 16));
  json::Pull p("{\"x\":\"0x10\",\"y\":-1}");
  p.expect('{');
  EXPECT_EQ(p.key(), "x");
  EXPECT_EQ(p.bits(32), 16u);
  EXPECT_TRUE(p.more_members());
  EXPECT_EQ(p.key(), "y");
  EXPECT_EQ(p.bits(32), 0xffffffffu);
  EXPECT_FALSE(p.more_members());
}

// The readers' compact-layout fast paths (hex words, 0/1, true/false, null, state arrays skipped
// word by word) must read exactly what the general path reads. A space after every structural
// ',' and ':' sends each element through the general path; a damaged byte must be refused by
// both, or read the same by both.
std::string spaced(const std::string& line) {
  std::string out;
  bool in_string = false;
  for (char c : line) {
    out += c;
    if (c == '"') in_string = !in_string;
    if (!in_string && (c == ',' || c == ':')) out += ' ';
  }
  return out;
}

// What a reader makes of a vector line: read() (the file's own expectations and the whole
// vector) and expect() (held to the specification), each as text, an error as its message.
struct Reading {
  std::string read, expect;
  std::optional<Vector> vector;
};

std::string error_text(const FormatError& e) {
  return std::string("error: ") + e.what();
}

Reading reading(VectorReader& r, const std::string& line) {
  Reading out;
  try {
    const auto& e = r.read(line, 1);
    std::ostringstream os;
    os << e.id << ' ' << e.ub << ' ' << e.instr->text << " |";
    for (auto c : e.clauses) os << ' ' << static_cast<int>(c);
    for (const auto& x : e.rounds) {
      os << " |";
      for (auto v : x.defined) os << int{v};
      os << ' ';
      for (auto v : x.executes) os << int{v};
      for (auto v : x.d) os << ' ' << v;
      for (auto v : x.p) os << ' ' << int{v};
      for (const auto& [c, lanes] : x.ub) {
        os << ' ' << static_cast<int>(c) << ':';
        for (auto l : lanes) os << l << ',';
      }
    }
    out.read = os.str();
    out.vector = e.vector;
  } catch (const FormatError& e) {
    out.read = error_text(e);
  }
  try {
    const auto& e = r.expect(line, 1);
    std::ostringstream os;
    os << e.id << ' ' << e.ub << ' ' << e.clauses.size();
    for (const auto& x : e.rounds) {
      for (auto v : x.d) os << ' ' << v;
      for (auto v : x.p) os << ' ' << int{v};
      for (auto v : x.defined) os << int{v};
      for (const auto& [c, lanes] : x.ub) os << ' ' << static_cast<int>(c) << ':' << lanes.size();
    }
    out.expect = os.str();
  } catch (const FormatError& e) {
    out.expect = error_text(e);
  }
  return out;
}

// An error's message names its column, which a spaced line moves: compare only that it is one.
std::string without_message(const std::string& s) {
  return s.starts_with("error: ") ? "error" : s;
}

// Two readings of a line agree: the same expectations and vector, or the same error (with the
// same message unless `messages` is false).
void same_reading(const Reading& a, const Reading& b, const std::string& line, bool messages) {
  if (messages) {
    EXPECT_EQ(a.read, b.read) << line;
    EXPECT_EQ(a.expect, b.expect) << line;
  } else {
    EXPECT_EQ(without_message(a.read), without_message(b.read)) << line;
    EXPECT_EQ(without_message(a.expect), without_message(b.expect)) << line;
  }
  ASSERT_EQ(a.vector.has_value(), b.vector.has_value()) << line;
  if (a.vector) {
    EXPECT_EQ(vector_difference(*a.vector, *b.vector), "") << line;
  }
}

std::string result_text(ResultReader& r, const std::string& line, const ResultShape& widths) {
  try {
    const auto& res = r.parse(line, 1, widths);
    std::ostringstream os;
    os << res.id << ' ' << res.skipped;
    for (const auto& o : res.rounds) {
      os << ' ' << o.ub_reported;
      for (std::size_t i = 0; i < o.d.size(); ++i)
        os << ' ' << o.d[i] << '/' << int{o.p[i]} << '/' << int{o.present[i]};
    }
    return os.str();
  } catch (const FormatError&) {
    return "error";
  }
}

TEST(Json, CompactFastPathsReadWhatTheGeneralPathReads) {
  GenOptions o;
  o.random_count = 3;
  o.seed = 5;
  const auto s = generate(o);
  // The pull reader (on the line and on its spaced copy) against the DOM reader, the reference.
  VectorReader vr("v"), vspaced("v"), vg("v", {}, VectorReader::Path::General);
  ResultReader rr("r"), rr2("r");
  std::mt19937_64 rng(9);
  const std::string damage[] = {"g", "\"", " ", "\\", "]", ",", "0", "-", "n", "1,", "9", "f"};
  std::size_t compared = 0, refused = 0, differ = 0;
  auto compare_vector = [&](const std::string& line) {
    const auto want = reading(vg, line);
    same_reading(reading(vr, line), want, line, true);
    same_reading(reading(vspaced, spaced(line)), want, line, false);
    refused += want.read.starts_with("error");
    ++compared;
    return want;
  };
  for (const auto& v : s.vectors) {
    const auto e = expected(v, s.target, s.ptx);
    const auto vline = vector_line(v, e);
    const auto& f = spec::form_info(v.instr.instr.form);
    auto obs = as_observed(e);
    // Lanes without a result (null), and predicates written as true/false.
    const auto rline =
        result_line(v.id, obs, f.d_type == spec::ResultType::Pred, v.instr.instr.write_p);
    std::vector<std::size_t> sizes;
    for (const auto& r : e) sizes.push_back(r.d.size());
    const auto widths = result_shape(v.instr, sizes);
    // The line as written: the pull reader reads it all, into the vector it was made from.
    const auto general = vr.general_lines();
    const auto want_v = compare_vector(vline);
    ASSERT_FALSE(want_v.expect.starts_with("error")) << want_v.expect << "\n" << vline;
    EXPECT_EQ(vr.general_lines(), general) << "the pull reader gave up on\n" << vline;
    EXPECT_EQ(vector_line(*want_v.vector, e), vline);  // what the file says of the vector
    const auto want_r = result_text(rr, rline, widths);
    ASSERT_NE(want_r, "error") << rline;
    EXPECT_EQ(want_r, result_text(rr2, spaced(rline), widths)) << rline;
    for (int k = 0; k < 20; ++k) {
      auto bad_v = vline, bad_r = rline;
      const auto& d = damage[rng() % std::size(damage)];
      bad_v.replace(rng() % bad_v.size(), 1, d);
      bad_r.replace(rng() % bad_r.size(), 1, d);
      const auto got_v = compare_vector(bad_v);
      differ += !got_v.read.starts_with("error") && got_v.read != want_v.read;
      const auto got_r = result_text(rr, bad_r, widths);
      EXPECT_EQ(got_r, result_text(rr2, spaced(bad_r), widths)) << bad_r;
      refused += got_r == "error";
      ++compared;
    }
    // Edits aimed at the fast paths' own checks: leading zeros, signs, case, widths, truncated
    // literals, empty elements, spaces before a bracket, numbers out of range or not integers;
    // and at the layout: a key renamed, added, repeated or moved.
    const std::pair<std::string, std::string> edits[] = {
        {",1", ",01"},
        {",2", ",02"},
        {",-1", ",-01"},
        {",0", ",-"},
        {",0", ",00"},
        {"\"0x", "\"0X"},
        {"\"0x", "\"0y"},
        {"\",\"", "\",,\""},
        {",null", ",nul"},
        {",true", ",tru"},
        {",false", ",fals"},
        {"\"]", "\" ]"},
        {"\"0x", "\"0x0"},
        {"\"0x0", "\"0x"},
        {"\"0x0", "\"0xF"},
        {"\"0x00000000\"", "\"0x0000000000000000\""},
        {"\"0x00000000\"", "\"0x0000000100000000\""},
        {"\"0x0000000000000000\"", "\"0x00000000\""},
        {"\"0x0000000000000000\"", "\"0x000000000000000G\""},
        {"0\"", "0 \""},
        {",1", ",true"},
        {",0", ",false"},
        {"null", "0"},
        {",0", ",4294967295"},
        {",0", ",4294967296"},
        {",0", ",-2147483648"},
        {",0", ",-2147483649"},
        {",0", ",18446744073709551615"},
        {",0", ",-9223372036854775808"},
        {",0", ",0.0"},
        {",0", ",0e0"},
        {",1]", ",1,]"},
        {",1]", "]"},
        {"\"source\"", "\"sourc\""},
        {"\"form\":", "\"x\":0,\"form\":"},
        {"\"exited\":", "\"exited\":\"none\",\"exited\":"},
        {"\"ub\":false", "\"ub\":true,\"ub\":false"},
        {"\"ub\":[]", "\"ub\":[],\"ub\":[]"},
        {"\"expect\":", "\"site\":0,\"expect\":"},
        {"\"inactive\":", "\"threads\":32,\"inactive\":"},
        {"\"lanes\":", "\"x\":1,\"lanes\":"},
        {"\"defined\":", "\"d\":0,\"defined\":"},
        {",\"clauses\":[", ",\"clauses\":[1,"},
        {"{\"id\":", "{\"id\":\"0x0"},
        {"\"threads\":", "\"threads\":\"0x0"},
        {"}]}", "}],\"x\":0}"},
        {"}]}", "}]} x"}};
    for (const auto& [from, to] : edits)
      for (auto* line : {&vline, &rline}) {
        std::vector<std::size_t> at;
        for (auto q = line->find(from); q != std::string::npos; q = line->find(from, q + 1))
          at.push_back(q);
        if (at.empty()) continue;
        auto bad = *line;
        bad.replace(at[rng() % at.size()], from.size(), to);
        if (line == &vline) {
          compare_vector(bad);
        } else {
          EXPECT_EQ(result_text(rr, bad, widths), result_text(rr2, spaced(bad), widths)) << bad;
          ++compared;
        }
      }
  }
  // The damage must reach the fast paths often enough to mean something, and some damage must
  // be read (a value changed, a layout the DOM reader takes) rather than refused.
  EXPECT_GT(refused, compared / 4);
  EXPECT_LT(refused, compared);
  EXPECT_GT(differ, 0u);
  EXPECT_GT(vg.general_lines(), vr.general_lines());
}

}  // namespace
}  // namespace warpspec::vectors
