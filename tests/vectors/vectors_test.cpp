// Conformance vectors: coverage of the default suite, determinism, the file format, and
// `check` catching every mutant of the catalog while naming the clause it violates.
#include <gtest/gtest.h>

#include <fstream>

#include <random>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "model/render.hpp"
#include "vectors/check.hpp"
#include "vectors/format.hpp"
#include "vectors/generate.hpp"

namespace warpspec::vectors {
namespace {

std::string file_of(const Suite& s) {
  std::ostringstream os;
  write_vectors(os, {s.target, s.ptx, s.seed}, s.vectors);
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
  // A few vectors per form for the mutants and clauses (for each mutant its smallest and a large
  // telling state; twice for the block barriers, plain and named), a few more for the
  // coverpoints.
  EXPECT_LT(s.vectors.size(), 18 * forms) << "the default suite should stay small";
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

// The 64-bit shuffle overloads: expectations and results carry d whole, the reader takes 64 bits
// for them alone, and a wrong high word is a d mismatch like any other, shown whole.
TEST(Check, A64BitShufflesHighWordIsComparedLikeAnyOtherD) {
  Suite s;
  Vector v;
  v.id = 1;
  v.source = "intrinsic";
  v.instr = std::get<spec::ParsedInstr>(
      spec::parse_instruction("__shfl_xor_sync(m, (unsigned long long)a, 1)"));
  ASSERT_TRUE(v.instr.instr.wide);
  v.rounds.resize(1);
  auto& w = v.rounds[0].warp;
  w = model::make_warp(0xffffffffu);
  // The low word is the same on every lane: only the high word names the lane.
  for (unsigned i = 0; i < 32; ++i) w.a[i] = uint64_t{0x5a000000u + i} << 32 | 0x0badf00du;
  s.vectors = {v};
  const auto vfile = file_of(s);
  EXPECT_NE(vfile.find("\"0x5a0000010badf00d\""), std::string::npos) << vfile;  // lane 0's d
  const auto good =
      results_of(s, [&](const Vector& x) { return as_observed(expected(x, s.target, s.ptx)); });
  EXPECT_NE(good.find("\"0x5a0000000badf00d\""), std::string::npos) << good;  // lane 1's d
  EXPECT_EQ(run_check(vfile, good).mismatches, 0u);
  // Lane 3 keeps its own high word: a d mismatch on that lane alone, both words in its table.
  const auto bad = results_of(s, [&](const Vector& x) {
    auto o = as_observed(expected(x, s.target, s.ptx));
    o[0].d_hi[3] = 0x5a000003u;
    return o;
  });
  const auto rep = run_check(vfile, bad);
  ASSERT_EQ(rep.mismatches, 1u);
  ASSERT_EQ(rep.failures.size(), 1u);
  const auto& m = rep.failures[0].smallest.at(0).mismatch;
  EXPECT_EQ(m.kind, Mismatch::Kind::Value);
  EXPECT_EQ(m.what, "d");
  EXPECT_EQ(m.lanes, std::vector<unsigned>{3});
  const auto text = render(rep, 10);
  EXPECT_NE(text.find("d differs on lanes 3"), std::string::npos) << text;
  EXPECT_NE(text.find("0x5a0000020badf00d  0x5a0000030badf00d"), std::string::npos) << text;
  // A results file may give such a d as a whole 64-bit value; every other vector's d has 32 bits.
  ResultReader reader("r.jsonl");
  ResultShape wide;
  wide.widths = {32};
  wide.d_bits = 64;
  const auto& r = reader.parse(R"({"id":1,"d":"0x123456789abcdef0"})", 2, wide);
  EXPECT_EQ(r.rounds[0].d[5], 0x9abcdef0u);
  EXPECT_EQ(r.rounds[0].d_hi[5], 0x12345678u);
  ResultShape narrow;
  narrow.widths = {32};
  try {
    reader.parse(R"({"id":1,"d":"0x123456789abcdef0"})", 2, narrow);
    ADD_FAILURE() << "a 64-bit d read for a 32-bit vector";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("expected a 32-bit value"), std::string::npos) << e.what();
  }
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

// ---------------------------------------------------------------- the one reader

using Json = nlohmann::ordered_json;

// `line` with a space after every ',' and ':' outside strings.
std::string spaced(const std::string& line) {
  std::string out;
  bool in_string = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    out += c;
    if (c == '\\' && in_string) {
      out += line[++i];
      continue;
    }
    if (c == '"') in_string = !in_string;
    if (!in_string && (c == ',' || c == ':')) out += c == ',' ? " \t" : " ";
  }
  return out;
}

// Every object of `j` with its members in the reverse order.
Json reversed(const Json& j) {
  if (j.is_array()) {
    Json out = Json::array();
    for (const auto& x : j) out.push_back(reversed(x));
    return out;
  }
  if (!j.is_object()) return j;
  Json out = Json::object();
  std::vector<std::pair<std::string, Json>> members;
  for (auto it = j.begin(); it != j.end(); ++it) members.emplace_back(it.key(), reversed(*it));
  for (auto it = members.rbegin(); it != members.rend(); ++it) out[it->first] = it->second;
  return out;
}

uint64_t word(const Json& x) {
  if (x.is_boolean()) return x.get<bool>();  // a predicate result
  if (x.is_string()) return std::stoull(x.get<std::string>().substr(2), nullptr, 16);
  if (x.is_number_unsigned()) return x.get<uint64_t>();
  return static_cast<uint32_t>(x.get<int64_t>());  // a block's 32-bit predicates, written signed
}

// Calls f(value, bits) on every lane value of a vector line (the per-lane lists, expect.d and
// expect.p), each list element by element.
void each_word(Json& line, const Vector& v, const std::function<void(Json&, int)>& f) {
  const int a_bits = v.is_cta() ? 32 : spec::value_syntax(v.instr).bits;
  for (auto& r : line["rounds"]) {
    for (const char* key : {"mask", "a", "site"}) {
      if (!r.contains(key)) continue;
      const int bits = std::string(key) == "a" ? a_bits : 32;
      if (r[key].is_array())
        for (auto& x : r[key]) f(x, bits);
      else
        f(r[key], bits);
    }
    auto& e = r["expect"];
    if (e.contains("d")) {
      if (e["d"].is_array())
        for (auto& x : e["d"]) f(x, 32);
      else
        f(e["d"], 32);
    }
    if (e.contains("p")) f(e["p"], 32);
  }
}

// Calls f(set, lanes) on every lane set of a vector line.
void each_set(Json& line, const std::function<void(Json&, std::size_t)>& f) {
  for (auto& r : line["rounds"]) {
    const std::size_t n = r.contains("threads") ? r["threads"].get<std::size_t>() : 32;
    f(r["exited"], n);
    f(r["inactive"], n);
    f(r["expect"]["defined"], n);
    if (r["expect"].contains("ub"))
      for (auto& u : r["expect"]["ub"]) f(u["lanes"], n);
  }
}

std::string reading_text(const VectorExpect& e) {
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
  return os.str();
}

TEST(Json, EveryAcceptedShapeOfAVectorLineReadsAsTheVectorWritten) {
  // The lines of the kept default suite, every sm_90 form in it, as `vectors` writes them.
  std::ifstream kept(WARPSPEC_TEST_DATA "/vectors/sm_90-default.jsonl");
  std::vector<std::string> lines;
  for (std::string l; std::getline(kept, l);)
    if (l.find("\"rounds\"") != std::string::npos) lines.push_back(l);
  ASSERT_GE(lines.size(), 300u);
  struct Shape {
    const char* name;
    std::function<void(Json&, const Vector&)> rewrite;
  };
  const Shape shapes[] = {
      {"members in another order", [](Json& j, const Vector&) { j = reversed(j); }},
      {"words as decimal numbers",
       [](Json& j, const Vector& v) { each_word(j, v, [](Json& x, int) { x = word(x); }); }},
      {"words as decimal strings",
       [](Json& j, const Vector& v) {
         each_word(j, v, [](Json& x, int) { x = std::to_string(word(x)); });
       }},
      {"words as short upper-case hex",
       [](Json& j, const Vector& v) {
         each_word(j, v, [](Json& x, int) {
           char b[24];
           std::snprintf(b, sizeof b, "0X%llX", static_cast<unsigned long long>(word(x)));
           x = b;
         });
       }},
      {"words with the top bit set as negative numbers",
       [](Json& j, const Vector& v) {
         each_word(j, v, [](Json& x, int bits) {
           const uint64_t w = word(x);
           if (bits == 32 && w >> 31) x = static_cast<int64_t>(static_cast<int32_t>(w));
           if (bits == 64 && w >> 63) x = static_cast<int64_t>(w);
         });
       }},
      {"predicates as booleans",
       [](Json& j, const Vector& v) {
         if (spec::value_syntax(v.instr).is_pred)
           for (auto& r : j["rounds"])
             if (r.contains("a") && r["a"].is_array())
               for (auto& x : r["a"])
                 if (word(x) <= 1) x = word(x) == 1;
       }},
      {"lists of one value written once, one value written for every lane",
       [](Json& j, const Vector&) {
         for (auto& r : j["rounds"]) {
           const std::size_t n = r.contains("threads") ? r["threads"].get<std::size_t>() : 32;
           for (Json* l : {r.contains("mask") ? &r["mask"] : nullptr,
                           r.contains("a") ? &r["a"] : nullptr,
                           r["expect"].contains("d") ? &r["expect"]["d"] : nullptr}) {
             if (!l) continue;
             if (!l->is_array())
               *l = Json(std::vector<Json>(n, *l));
             else if (std::all_of(l->begin(), l->end(), [&](const Json& x) { return x == (*l)[0]; }))
               *l = Json((*l)[0]);
           }
         }
       }},
      {"lane sets as ranges",
       [](Json& j, const Vector&) {
         each_set(j, [](Json& set, std::size_t) {
           const std::string t = set.get<std::string>();
           if (!t.starts_with("0x")) return;
           std::vector<unsigned> lanes;
           const uint64_t w = std::stoull(t.substr(2), nullptr, 16);
           for (unsigned i = 0; i < 32; ++i)
             if ((w >> i) & 1u) lanes.push_back(i);
           set = lanes.empty() ? std::string("none") : model::format_threads(lanes);
         });
       }},
      {"ids and block sizes as strings",
       [](Json& j, const Vector&) {
         j["id"] = "0x" + [&] {
           char b[24];
           std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(j["id"].get<uint64_t>()));
           return std::string(b);
         }();
         for (auto& r : j["rounds"])
           if (r.contains("threads")) r["threads"] = std::to_string(r["threads"].get<int>());
       }},
      {"empty findings left out",
       [](Json& j, const Vector&) {
         for (auto& r : j["rounds"])
           if (r["expect"]["ub"].empty()) r["expect"].erase("ub");
       }},
  };
  VectorReader reader("v.jsonl"), shaped("v.jsonl");
  std::size_t n = 0;
  for (const auto& line : lines) {
    const auto& want = reader.read(line, 2);
    const std::string text = reading_text(want);
    const Vector vector = want.vector;
    const Vector& v = vector;
    for (const auto& shape : shapes) {
      Json j = Json::parse(line);
      shape.rewrite(j, v);
      for (const std::string& other : {j.dump(), spaced(j.dump())}) {
        try {
          const auto& got = shaped.read(other, 2);
          EXPECT_EQ(reading_text(got), text) << shape.name << "\n" << other.substr(0, 300);
          EXPECT_EQ(vector_difference(got.vector, vector), "") << shape.name << "\n"
                                                                << other.substr(0, 300);
          ++n;
        } catch (const FormatError& e) {
          ADD_FAILURE() << shape.name << ": " << e.what() << "\n" << other.substr(0, 300);
        }
      }
    }
    // Member names and strings written with escapes; form, source and clauses left out (the
    // vector then has no source and covers no clauses).
    std::string escaped = line;
    escaped.replace(escaped.find("\"id\":"), 5, "\"\\u0069d\":");
    escaped.replace(escaped.find(' ', escaped.find("\"instruction\":")), 1, "\\u0020");
    const auto& got = shaped.read(escaped, 2);
    EXPECT_EQ(reading_text(got), text) << escaped;
    EXPECT_EQ(vector_difference(got.vector, vector), "") << escaped;
    Json bare = Json::parse(line);
    for (const char* key : {"form", "source", "clauses"}) bare.erase(key);
    const auto& less = shaped.read(bare.dump(), 2);
    Vector expect_bare = vector;
    expect_bare.source.clear();
    expect_bare.clauses.clear();
    EXPECT_EQ(vector_difference(less.vector, expect_bare), "") << bare.dump();
  }
  EXPECT_EQ(n, 2 * std::size(shapes) * lines.size());
}

// A vector line of vote.sync.ballot.b32 with an immediate membermask, and one of a block barrier.
const std::string kBallot =
    R"({"id":7,"form":"vote.sync.ballot.b32","instruction":"vote.sync.ballot.b32 d, a, 0xffffffff;",)"
    R"("ub":false,"source":"witness","clauses":["vote.ballot"],"rounds":[{"exited":"0x00000000",)"
    R"("inactive":"0x00000000","a":1,"expect":{"defined":"0xffffffff","d":"0xffffffff","ub":[]}}]})";
const std::string kBlock =
    R"({"id":8,"form":"bar.red.popc.u32","instruction":"bar.red.popc.u32 d, 0, p;","ub":false,)"
    R"("source":"witness","clauses":[],"rounds":[{"threads":40,"exited":"none","inactive":"none",)"
    R"("a":1,"expect":{"defined":"0-39","d":"0x00000028","ub":[]}}]})";

// A refusal: `line` with `from` replaced by `to`, refused at the first `at` in it (the end of the
// line when `at` is empty, its first byte when `at` is "^") with "path: message".
struct Refusal {
  const std::string& base;
  std::string from, to, at, message;
};

std::size_t characters(std::string_view s) {
  std::size_t n = 0;
  for (const char c : s) n += (static_cast<unsigned char>(c) & 0xc0u) != 0x80u;
  return n;
}

void expect_refusal(const Refusal& r, const std::function<void(const std::string&)>& read,
                    const std::string& file) {
  std::string line = r.base;
  const auto pos = line.find(r.from);
  ASSERT_NE(pos, std::string::npos) << r.from;
  line.replace(pos, r.from.size(), r.to);
  const auto at = r.at.empty() ? line.size() : r.at == "^" ? 0 : line.find(r.at);
  ASSERT_NE(at, std::string::npos) << r.at << " in " << line;
  const std::string want =
      file + ":2:" + std::to_string(characters(line.substr(0, at)) + 1) + ": " + r.message;
  try {
    read(line);
    ADD_FAILURE() << "accepted: " << line;
  } catch (const FormatError& e) {
    EXPECT_EQ(std::string(e.what()), want) << line;
    EXPECT_EQ(e.line(), 2u);
  }
}

TEST(Json, EveryRefusalOfAVectorLineNamesItsLineColumnAndPath) {
  const Refusal cases[] = {
      {kBallot, "witness", "w\xe9tness", "\xe9",
       "byte 0xe9 is not UTF-8 text (JSON Lines files are UTF-8)"},
      {kBallot, "witness", "wit\x01ness", "\x01",
       "control character 0x01 inside a string (write it escaped, as \\u0001)"},
      {kBallot, "]}}]}", std::string("]}}]}\0", 6), std::string("\0", 1),
       "unexpected byte 0x00 (NUL)"},
      {kBallot, "]}}]}", R"(]}}]},"x)", R"("x)", "unterminated string"},
      {kBallot, R"("a":1,"expect":{"defined":"0xffffffff","d":"0xffffffff","ub":[]}}]})",
       R"("a":1,)", "", "rounds[0]: expected a member name in double quotes, found the end of the line"},
      {kBallot, R"("ub":[]}}]})", R"("ub":[)", "",
       "rounds[0].expect.ub[0]: expected a value or ']', found the end of the line"},
      {kBallot, R"("ub":false)", R"("ub":"false")", R"("false")",
       "ub: expected true or false, found \"false\""},
      {kBallot, R"("instruction":"vote.sync.ballot.b32 d, a, 0xffffffff;")", R"("instruction":5)",
       "5,", "instruction: expected a string, found '5'"},
      {kBallot, R"("exited":"0x00000000")", R"("exited":[0])", "[0]",
       "rounds[0].exited: expected a lane set (\"0x...\", \"none\" or ranges), found an array"},
      {kBallot, R"("a":1)", R"("a":"0x100000000")", R"("0x1000)",
       "rounds[0].a: expected a 32-bit value (\"0x...\" or an integer), found \"0x100000000\""},
      {kBallot, R"("a":1)", R"("a":[1,4294967296])", "4294967296",
       "rounds[0].a[1]: expected a 32-bit value (\"0x...\" or an integer), found '4294967296'"},
      {kBallot, R"("a":1)", R"("a":-2147483649)", "-2147483649",
       "rounds[0].a: expected a 32-bit value (\"0x...\" or an integer), found '-2147483649'"},
      {kBallot, R"("a":1)", R"("a":01)", "01",
       "rounds[0].a: a number with a leading zero (JSON does not allow one): '01'"},
      {kBallot, R"("a":1)", R"("a":1.5)", "1.5",
       "rounds[0].a: expected a 32-bit value (\"0x...\" or an integer), found '1.5'"},
      {kBallot, R"("a":1)", R"("a":null)", "null",
       "rounds[0].a: expected a 32-bit value (\"0x...\" or an integer), found 'null'"},
      {kBallot, R"("a":1)", R"("a":[1,1,1])", "[1,", "rounds[0].a: 3 values for 32 lanes"},
      {kBallot, R"("source")", R"("sorce")", R"("sorce")",
       "sorce: unknown member (not part of this format)"},
      {kBallot, R"("ub":false,)", R"("ub":false,"ub":false,)", R"("ub":false,"source)",
       "ub: the member \"ub\" is given twice"},
      {kBallot, R"("ub":false,)", "", "^", "missing field \"ub\""},
      {kBallot, R"("defined":"0xffffffff",)", "", R"({"d")",
       "rounds[0].expect: missing field \"defined\""},
      {kBallot, "]}}]}", "]}}]} !", "!", "unexpected text after the JSON object: '!'"},
      {kBallot, R"("vote.sync.ballot.b32","instr)", R"("vote.sync.none","instr)",
       R"("vote.sync.none")", "form: 'vote.sync.none' is not a form of the catalog (warpspec list)"},
      {kBallot, R"("vote.sync.ballot.b32","instr)", R"("vote.sync.any.pred","instr)",
       R"("vote.sync.any.pred")",
       "form: the form is vote.sync.any.pred, but the instruction is a vote.sync.ballot.b32"},
      {kBallot, "d, a, 0xffffffff", "d, a, 0xfffffffff", "0xfffffffff;",
       "instruction: membermask '0xfffffffff' is not a 32-bit unsigned value"},
      {kBallot, R"("ub":[])", R"("ub":[{"clause":"vote.none","lanes":"0x1"}])", R"("vote.none")",
       "rounds[0].expect.ub[0].clause: unknown clause \"vote.none\""},
      {kBallot, R"("inactive":"0x00000000")", R"("inactive":"0x00000000","exited":"0x1")",
       R"("exited":"0x1")", "rounds[0].exited: the member \"exited\" is given twice"},
      {kBallot, R"("a":1,)", "", R"({"exited")", "rounds[0]: missing field \"a\""},
      {kBallot, R"("inactive":"0x00000000")", R"("inactive":"0x00000001","exited":"0x1")",
       R"("exited":"0x1")", "rounds[0].exited: the member \"exited\" is given twice"},
      {kBallot, R"("exited":"0x00000000","inactive":"0x00000000")",
       R"("exited":"0x00000001","inactive":"0x00000001")", R"({"exited")",
       "rounds[0]: lane 0 is both exited and inactive"},
      {kBallot, R"("inactive":"0x00000000")", R"("inactive":"0-32")", R"("0-32")",
       "rounds[0].inactive: '0-32' is not a range of lanes within 0-31"},
      {kBallot, R"("a":1)", R"("a":1,"mask":"0x1")", R"("mask")",
       "rounds[0].mask: the instruction's membermask is an immediate: no \"mask\" here"},
      {kBallot, R"("a":1)", R"("a":1,"threads":32)", R"("threads")",
       "rounds[0].threads: a warp round has no \"threads\": it has 32 lanes"},
      {kBallot, R"("d":"0xffffffff")", R"("d":"0xffffffff","p":"0x1")", R"("p")",
       "rounds[0].expect.p: the instruction writes no predicate p"},
      {kBallot, R"("rounds":[{)", R"("rounds":[],"x":[{)", "[]", "rounds: expected at least one round"},
      {kBallot, R"("rounds":[{)", R"("rounds":[5,{)", "5,", "rounds[0]: expected an object, found '5'"},
      {kBlock, R"("threads":40)", R"("threads":1025)", "1025",
       "rounds[0].threads: expected 1 to 1024 threads, found '1025'"},
      {kBlock, R"("a":1)", R"("a":1,"site":0)", R"("site")",
       "rounds[0].site: a block round has no \"site\""},
      {kBlock, R"("defined":"0-39")", R"("defined":"0-40")", R"("0-40")",
       "rounds[0].expect.defined: '0-40' is not a range of lanes within 0-39"},
  };
  VectorReader reader("v.jsonl");
  for (const auto& c : cases)
    expect_refusal(c, [&](const std::string& line) { reader.read(line, 2); }, "v.jsonl");
  // The two lines themselves are read.
  EXPECT_EQ(reader.read(kBallot, 2).id, 7u);
  EXPECT_EQ(reader.read(kBlock, 2).vector.rounds[0].cta.arrive.size(), 40u);
}

TEST(Json, AHeaderLineIsReadStrictlyWithTheSchemaFirst) {
  const std::string h =
      R"({"schema":"warpspec-vectors/1","target":"sm_80","ptx":"7.0","seed":3,"vectors":2})";
  const auto header = parse_header(h, "v.jsonl");
  EXPECT_EQ(header.target, (spec::Target{80, 0}));
  EXPECT_EQ(header.count, 2u);
  EXPECT_TRUE(header.count_given);
  EXPECT_FALSE(parse_header(R"({"schema":"warpspec-vectors/1"})", "v.jsonl").count_given);
  auto message = [](const std::string& line) {
    try {
      parse_header(line, "v.jsonl");
    } catch (const FormatError& e) {
      return std::string(e.what());
    }
    return std::string("(read)");
  };
  EXPECT_EQ(message(R"({"x":1,"schema":"warpspec-vectors/2"})"),
            "v.jsonl:1:17: schema: \"warpspec-vectors/2\" is not supported; expected "
            "\"warpspec-vectors/1\"");
  EXPECT_EQ(message(R"({"schema":"warpspec-vectors/1","x":1})"),
            "v.jsonl:1:32: x: unknown member (not part of this format)");
  EXPECT_EQ(message(R"({"schema":"warpspec-vectors/1","vectors":"2"})"),
            "v.jsonl:1:42: vectors: expected a non-negative integer, found \"2\"");
  EXPECT_EQ(message(R"({"schema":"warpspec-vectors/1","target":"gfx90"})"),
            "v.jsonl:1:41: target: expected a target such as \"sm_90\", found \"gfx90\"");
  // A name unescaped to control bytes is written with them escaped.
  EXPECT_EQ(message(R"({"schema":"warpspec-vectors/1","\u0000x":1})"),
            "v.jsonl:1:32: \\x00x: unknown member (not part of this format)");
  EXPECT_EQ(message(R"({"target":"sm_90"})"),
            "v.jsonl:1:1: expected a header line with \"schema\": \"warpspec-vectors/1\"");
}

// What a results line reads as, for comparison.
std::string result_text(const ResultLine& r) {
  std::ostringstream os;
  os << r.id << ' ' << r.skipped;
  for (const auto& o : r.rounds) {
    os << " |" << o.ub_reported << o.hang;
    for (std::size_t i = 0; i < o.d.size(); ++i)
      os << ' ' << (o.present[i] ? std::to_string(o.d[i]) + "/" + std::to_string(o.p[i]) : "-");
  }
  return os.str();
}

TEST(Json, EveryAcceptedShapeOfAResultsLineReadsAsWritten) {
  ResultReader reader("r.jsonl");
  auto read = [&](const std::string& line, const ResultShape& shape) {
    return result_text(reader.parse(line, 2, shape));
  };
  ResultShape one;  // one 32-lane round with d
  one.widths = {32};
  ResultShape two = one;  // two rounds with d and p
  two.widths = {32, 32};
  two.p = true;
  std::string lanes = "[";
  for (int i = 0; i < 32; ++i) lanes += std::string(i ? "," : "") + (i < 2 ? "null" : "\"0x00000003\"");
  lanes += "]";
  const std::string want = read(R"({"id":5,"d":)" + lanes + "}", one);
  EXPECT_EQ(want.substr(0, 12), "5 0 |00 - - ");
  // The same answer in other shapes: another member order, spaces, numbers, short hex,
  // members the format does not have (read as JSON and ignored), the rounds spelled out.
  std::string numbers = lanes, shorter = lanes;
  for (auto p = numbers.find("\"0x00000003\""); p != std::string::npos;
       p = numbers.find("\"0x00000003\"", p))
    numbers.replace(p, 12, "3");
  for (auto p = shorter.find("0x00000003"); p != std::string::npos; p = shorter.find("0x00000003", p))
    shorter.replace(p, 10, "0X3");
  for (const std::string& line :
       {R"({"d":)" + lanes + R"(,"id":5})", spaced(R"({"id":5,"d":)" + lanes + "}"),
        R"({"id":"5","d":)" + numbers + "}", R"({"id":5,"d":)" + shorter + "}",
        R"({"id":5,"x":[1,{"y":null,"z":-2.5e3}],"d":)" + lanes + R"(,"D":0})",
        R"({"id":5,"rounds":[{"d":)" + lanes + R"(,"x":true}]})",
        R"({"id":5,"ub":false,"hang":false,"d":)" + lanes + "}"})
    EXPECT_EQ(read(line, one), want) << line;
  // One value for every lane; a list that stops early; a misspelled d (no result); hang, ub.
  EXPECT_EQ(read(R"({"id":5,"d":3})", one), "5 0 |00" + [] {
    std::string s;
    for (int i = 0; i < 32; ++i) s += " 3/0";
    return s;
  }());
  EXPECT_EQ(read(R"({"id":5,"d":[1,true,false]})", one).substr(0, 21), "5 0 |00 1/0 1/0 0/0 -");
  EXPECT_EQ(read(R"({"id":5,"D":[1]})", one).substr(0, 12), "5 0 |00 - - ");
  EXPECT_EQ(read(R"({"id":5,"d":null})", one).substr(0, 12), "5 0 |00 - - ");
  EXPECT_EQ(read(R"({"id":5,"hang":true})", one).substr(0, 8), "5 0 |01 ");
  EXPECT_EQ(read(R"({"id":5,"d":1,"ub":true})", one).substr(0, 12), "5 0 |10 1/0 ");
  EXPECT_EQ(read(R"({"id":5,"skipped":true})", one), "5 1");
  EXPECT_EQ(read(R"({"skipped":true,"id":5,"d":"0x1"})", one), "5 1");
  // Two rounds: p on every lane that has d; a round not given has no result, and after a round
  // that hung the rounds after it hang too.
  EXPECT_EQ(read(R"({"id":6,"rounds":[{"d":7,"p":[1,true,"0x0",false,null]}]})", two).substr(0, 36),
            "6 0 |00 7/1 7/1 7/0 7/0 - - - - - - ");
  const auto second_hangs = read(R"({"id":6,"rounds":[{"d":7,"p":1},{"hang":true}]})", two);
  EXPECT_NE(second_hangs.find("7/1 |01 - - "), std::string::npos) << second_hangs;
  const auto first_hangs = read(R"({"id":6,"rounds":[{"d":7,"p":1,"hang":true}]})", two);
  EXPECT_NE(first_hangs.find("7/1 |01 - - "), std::string::npos) << first_hangs;
  const auto second_missing = read(R"({"id":6,"rounds":[{"d":7,"p":1}]})", two);
  EXPECT_NE(second_missing.find("7/1 |00 - - "), std::string::npos) << second_missing;
}

// Lists in warpspec's own layout are decoded where they lie; the same lists with a space after
// each comma go through the general reading. Both must give one answer, and refuse alike.
TEST(Json, ListsInWarpspecsLayoutReadAsTheSameListsSpaced) {
  ResultReader reader("r.jsonl");
  ResultShape one;
  one.widths = {32};
  auto list = [](const std::function<std::string(int)>& elem, int n) {
    std::string s = "[";
    for (int i = 0; i < n; ++i) s += (i ? "," : "") + elem(i);
    return s + "]";
  };
  auto respace = [](std::string s) {
    for (auto p = s.find(','); p != std::string::npos; p = s.find(',', p + 2)) s.insert(p + 1, " ");
    return s;
  };
  const std::string lists[] = {
      list([](int i) { return i % 3 ? "\"0x" + std::string(7, '0') + std::to_string(i % 10) + "\"" : "null"; }, 32),
      list([](int i) { return std::to_string(static_cast<uint64_t>(i) * 123456789u % 1000000000u); }, 32),
      list([](int i) { return i == 5 ? std::string("\"0XABCDEF01\"") : std::string("\"0xabcdef01\""); }, 32),
      list([](int i) { return std::to_string(i); }, 7),  // stops early: lanes 7 on have no result
      list([](int) { return "null"; }, 32), "[]",
      list([](int i) { return i % 3 ? std::string(i % 2 ? "true" : "false") : "null"; }, 32),
  };
  for (const auto& l : lists) {
    const auto a = result_text(reader.parse(R"({"id":5,"d":)" + l + "}", 2, one));
    const auto b = result_text(reader.parse(R"({"id":5,"d":)" + respace(l) + "}", 2, one));
    EXPECT_EQ(a, b) << l;
  }
  // Beyond the layout (ten digits, a value too wide, 33 elements): the general reading's answer
  // or refusal, in both spellings.
  for (const auto& l : {list([](int) { return "4294967295"; }, 32),
                        list([](int) { return "4294967296"; }, 32),
                        list([](int) { return "\"0x1ffffffff\""; }, 32),
                        list([](int) { return "1"; }, 33)}) {
    std::string a, b;
    try {
      a = result_text(reader.parse(R"({"id":5,"d":)" + l + "}", 2, one));
    } catch (const FormatError& e) {
      a = std::string("refused: ") + e.what();
    }
    try {
      b = result_text(reader.parse(R"({"id":5,"d":)" + respace(l) + "}", 2, one));
    } catch (const FormatError& e) {
      b = std::string("refused: ") + e.what();
    }
    // The columns differ by the spaces; what is said of the value does not.
    auto unplaced = [](const std::string& m) {
      const auto p = m.find(": ", m.find("r.jsonl:"));
      return m.rfind("refused", 0) == 0 ? "refused" + m.substr(p) : m;
    };
    EXPECT_EQ(unplaced(a), unplaced(b)) << l;
  }
}

TEST(Json, EveryRefusalOfAResultsLineNamesItsLineColumnAndPath) {
  const std::string base = R"({"id":7,"d":"0xffffffff"})";
  const std::string nested = R"({"id":7,"rounds":[{"d":"0xffffffff","hang":false}]})";
  const Refusal cases[] = {
      {base, R"("0xffffffff")", R"("0x1ffffffff")", R"("0x1)",
       "d: expected a 32-bit value (\"0x...\" or an integer), found \"0x1ffffffff\""},
      {base, R"("0xffffffff")", R"([1,2,"x"])", R"("x")",
       "d[2]: expected a 32-bit value (\"0x...\" or an integer), found \"x\""},
      {base, R"("0xffffffff")", R"([1,{}])", "{}",
       "d[1]: expected a 32-bit value (\"0x...\" or an integer), found an object"},
      {base, R"("d")", R"("p":1,"d")", R"("p")",
       "p: this instruction writes no predicate p; give only d (docs/vectors.md)"},
      {base, R"("d")", R"("d":1,"d")", R"("d":")", "d: the member \"d\" is given twice"},
      {base, R"("id":7,)", "", "{", "missing field \"id\""},
      {base, R"("id":7)", R"("id":-7)", "-7", "id: expected a non-negative integer, found '-7'"},
      {base, R"("id":7)", R"("id":true)", "true", "id: expected a non-negative integer, found 'true'"},
      {base, R"("id":7,)", R"("id":7,"skipped":1,)", R"(1,)", "skipped: expected true or false, found '1'"},
      {base, R"("id":7,)", R"("id":7,"x":[1,01],)", "01",
       "x[1]: a number with a leading zero (JSON does not allow one): '01'"},
      {base, R"("id":7,)", R"("id":7,"rounds":[],)", R"("d")",
       "d: given beside \"rounds\" (\"d\" belongs inside the round it is for)"},
      {base, R"("id":7,)", R"("id":7,"hang":false,"rounds":[],)", R"("hang")",
       "hang: given beside \"rounds\" (\"hang\" belongs inside the round it is for)"},
      {nested, R"(false)", R"("no")", R"("no")", "rounds[0].hang: expected true or false, found \"no\""},
      {nested, R"(}])", R"(},{},{}])", R"([{)", "rounds: 3 rounds, but vector 7 has 1"},
      {nested, R"({"d")", R"(5,{"d")", "5", "rounds[0]: expected an object, found '5'"},
  };
  ResultShape one;
  one.widths = {32};
  ResultReader reader("r.jsonl");
  for (const auto& c : cases)
    expect_refusal(c, [&](const std::string& line) { reader.parse(line, 2, one); }, "r.jsonl");
  std::string many = "[";
  for (int i = 0; i < 33; ++i) many += i ? ",1" : "1";
  expect_refusal({base, R"("0xffffffff")", many + "]", "[1", "d: 33 values for 32 lanes"},
                 [&](const std::string& line) { reader.parse(line, 2, one); }, "r.jsonl");
  expect_refusal({nested, R"(,"hang":false)", R"(,"hang":false,"d":1)", R"("d":1)",
                  "rounds[0].d: the member \"d\" is given twice"},
                 [&](const std::string& line) { reader.parse(line, 2, one); }, "r.jsonl");
}

}  // namespace
}  // namespace warpspec::vectors
