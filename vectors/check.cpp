#include "vectors/check.hpp"

#include <algorithm>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "model/render.hpp"

namespace warpspec::vectors {

namespace {

// At most this many vectors of a failing form are diagnosed (the failing ones first).
constexpr std::size_t kDiagnosedFailing = 1024, kDiagnosedPassing = 1024;

std::size_t executing_lanes(const std::vector<Expected>& e) {
  std::size_t n = 0;
  for (const auto& r : e)
    for (auto x : r.executes) n += x;
  return n;
}

// Reads both files in step, calling `each(vector, result, vector line, line number)` for every
// vector; validates everything a check relies on.
template <class Each>
VectorsHeader scan(std::istream& vin, const std::string& vfile, std::istream& rin,
                   const std::string& rfile, Each&& each) {
  json::LineReader vlines(vin), rlines(rin);
  json::Line vline, rline;
  std::size_t count = 0;
  if (!vlines.next(vline))
    throw FormatError(vfile, 1, 1, "the file is empty; expected a vector file header");
  const auto header = parse_header(vline, vfile);
  VectorReader reader(vfile, header);
  ResultReader results(rfile);
  ResultShape shape;
  bool first_result = true;
  while (vlines.next(vline)) {
    const auto& ex = reader.expect(vline);
    auto no_more = [&](std::string_view after) {
      return FormatError(rfile, rlines.line_number() + 1, 1,
                         "the results end after " + std::string(after) + ", but " + vfile +
                             " has more vectors (the next is vector " + std::to_string(ex.id) +
                             ")");
    };
    if (!rlines.next(rline)) throw no_more(std::to_string(count) + " results");
    // An optional header line.
    if (first_result && rline.text.find("\"schema\"") != std::string_view::npos &&
        results.header(rline) && !rlines.next(rline))
      throw no_more("the header");
    first_result = false;
    shape.widths.clear();
    for (const auto& r : ex.rounds) shape.widths.push_back(r.defined.size());
    const auto& f = spec::form_info(ex.instr->instr.form);
    shape.d = f.d_type == spec::ResultType::None || ex.instr->instr.write_d;
    shape.p = ex.instr->instr.write_p;
    shape.d_bits = ex.instr->instr.wide ? 64 : 32;
    auto other_vector = [&](uint64_t id) {
      return FormatError(rfile, rline.number, 1,
                         "result for vector " + std::to_string(id) + ", expected vector " +
                             std::to_string(ex.id) + " (results follow the order of " + vfile +
                             ")");
    };
    const ResultLine* got = nullptr;
    try {
      got = &results.parse(rline, shape);
    } catch (const FormatError&) {
      // A line for another vector is read against the wrong shape: say which it is instead.
      if (const auto id = results.id(rline); id && *id != ex.id) throw other_vector(*id);
      throw;
    }
    const auto& res = *got;
    if (res.id != ex.id) throw other_vector(res.id);
    ++count;
    each(ex, res, vline.text, vline.number);
  }
  // A vector file cut short is named as such before the results' extra lines are.
  if (header.count_given && header.count != count)
    throw FormatError(vfile, 1, 1,
                      "the header says " + std::to_string(header.count) +
                          " vectors, but the file has " + std::to_string(count) +
                          " (a truncated or edited file)");
  bool more = rlines.next(rline);
  // A file of no vectors may still have its results' header line.
  if (more && first_result && rline.text.find("\"schema\"") != std::string_view::npos &&
      results.header(rline))
    more = rlines.next(rline);
  if (more)
    throw FormatError(rfile, rline.number, 1,
                      "more results than vectors: " + vfile + " has " + std::to_string(count));
  return header;
}

int kind_rank(Mismatch::Kind k) {
  switch (k) {
    case Mismatch::Kind::Value:
      return 0;
    case Mismatch::Kind::Hang:
      return 1;
    case Mismatch::Kind::Missing:
      return 2;
    default:
      return 3;
  }
}

}  // namespace

CheckReport check(std::istream& vin, const std::string& vfile, std::istream& rin,
                  const std::string& rfile, const LeaderMemo* before) {
  CheckReport rep;
  std::map<spec::FormId, FormFailures> failing;
  // elect.sync: one leader per membermask across the whole suite
  LeaderMemo leaders = before ? *before : LeaderMemo{};
  rep.header = scan(
      vin, vfile, rin, rfile,
      [&](const VectorExpect& ex, const ResultLine& res, std::string_view vline, std::size_t vno) {
        ++rep.vectors;
        auto& tally = rep.forms[ex.instr->instr.form];
        ++tally.vectors;
        if (res.skipped) {
          ++tally.skipped;
          tally.skipped_defined += !ex.ub;
          return;
        }
        const auto m = compare(*ex.instr, ex.rounds, res.rounds, &leaders);
        if (ex.ub && m.kind == Mismatch::Kind::None) {
          ++tally.ub_vectors;
          return;
        }
        ++rep.compared;
        if (m.kind == Mismatch::Kind::None) {
          ++tally.agree;
          return;
        }
        ++tally.mismatch;
        ++rep.mismatches;
        auto& ff = failing[ex.instr->instr.form];
        ff.form = ex.instr->instr.form;
        const auto size = executing_lanes(ex.rounds);
        auto it = std::find_if(ff.smallest.begin(), ff.smallest.end(),
                               [&](const Failure& f) { return f.mismatch.kind == m.kind; });
        if (it == ff.smallest.end()) {
          ff.smallest.push_back({std::string(vline), vno, res.rounds, m, size, 1});
        } else {
          ++it->count;
          if (size < it->size) *it = {std::string(vline), vno, res.rounds, m, size, it->count};
        }
      });
  // Diagnosis: read both files again and hand every vector of each failing form, failing and
  // passing alike, to the diagnosis (the catalogued bugs and the clause readings).
  if (!failing.empty()) {
    vin.clear();
    rin.clear();
    const bool again = vin.seekg(0) && rin.seekg(0);
    if (again) {
      std::map<spec::FormId, std::vector<Answered>> answers;
      std::map<spec::FormId, std::pair<std::size_t, std::size_t>> taken;  // failing, passing
      // Per form, the spellings (intrinsic overloads; nullptr: PTX) with a failing vector.
      std::map<spec::FormId, std::set<const spec::IntrinsicInfo*>> failing_calls;
      // Per family, over its negatable forms: failing vectors with and without `!`, and passing
      // vectors without it.
      struct Negation {
        std::size_t negated_failing = 0, plain_failing = 0, plain_passing = 0;
      };
      std::map<spec::Family, Negation> negation;
      LeaderMemo leaders_again;
      scan(vin, vfile, rin, rfile,
           [&](const VectorExpect& ex, const ResultLine& res, std::string_view, std::size_t) {
             const auto form = ex.instr->instr.form;
             if (res.skipped) return;
             const bool fails = compare(*ex.instr, ex.rounds, res.rounds, &leaders_again).kind !=
                                Mismatch::Kind::None;
             if (const auto& f = spec::form_info(form); f.negatable && !ex.ub) {
               auto& n = negation[f.family];
               if (fails)
                 ++(ex.instr->instr.negate ? n.negated_failing : n.plain_failing);
               else if (!ex.instr->instr.negate)
                 ++n.plain_passing;
             }
             if (!failing.count(form)) return;
             if (fails) failing_calls[form].insert(ex.instr->intrinsic);
             auto& [nf, np] = taken[form];
             if (fails ? nf++ >= kDiagnosedFailing : np++ >= kDiagnosedPassing) return;
             answers[form].push_back({ex.vector, ex.rounds, res.rounds});
           });
      // An intrinsic's overloads are separate code in an implementation (float and int
      // __match_any_sync): when only some of a form's overloads fail, the others' vectors are
      // left out of its diagnosis, so that a bug of the float overload is read on float vectors.
      for (auto& [form, list] : answers) {
        const auto& calls = failing_calls[form];
        const auto before = list.size();
        std::erase_if(list,
                      [&](const Answered& a) { return !calls.count(a.vector.instr.intrinsic); });
        if (list.size() == before) continue;
        auto& names = failing.at(form).diagnosed_calls;
        for (const auto& a : list)
          if (std::find(names.begin(), names.end(), a.vector.instr.text) == names.end())
            names.push_back(a.vector.instr.text);
      }
      for (auto& [form, ff] : failing) {
        ff.diagnosis = diagnose(answers[form], rep.header.target, rep.header.ptx);
        ff.diagnosed = true;
      }
      // What one form shows too thinly, the family may show: a reading that names one lane and
      // explains other forms of the family too, or failures that fall only on negated vectors
      // across the family. The forms that gain from it are diagnosed again with that evidence.
      std::map<spec::Family, std::map<std::string, int>> lane_readings;
      for (const auto& [form, ff] : failing)
        for (const auto& t : ff.diagnosis.exact_lane_readings)
          ++lane_readings[spec::form_info(form).family][t];
      for (auto& [form, ff] : failing) {
        const auto fam = spec::form_info(form).family;
        FamilyEvidence ev;
        for (const auto& [text, forms] : lane_readings[fam])
          if (forms >= 2) ev.lane_readings.insert(text);
        const auto& n = negation[fam];
        ev.fails_only_negated =
            n.plain_failing == 0 && n.negated_failing >= 2 && n.plain_passing >= 2;
        if (!ev.lane_readings.empty() || ev.fails_only_negated)
          ff.diagnosis = diagnose(answers[form], rep.header.target, rep.header.ptx, ev);
      }
    }
  }
  for (auto& [form, ff] : failing) {
    std::sort(ff.smallest.begin(), ff.smallest.end(), [](const Failure& a, const Failure& b) {
      return kind_rank(a.mismatch.kind) < kind_rank(b.mismatch.kind);
    });
    rep.failures.push_back(std::move(ff));
  }
  auto smallest = [](const FormFailures& f) {
    std::size_t n = SIZE_MAX;
    for (const auto& x : f.smallest) n = std::min(n, x.size);
    return n;
  };
  std::stable_sort(
      rep.failures.begin(), rep.failures.end(),
      [&](const FormFailures& a, const FormFailures& b) { return smallest(a) < smallest(b); });
  return rep;
}

std::vector<MutantId> explain_failure(const Vector& v, const std::vector<Observed>& observed,
                                      spec::Target target, spec::PtxVersion ptx) {
  std::vector<MutantId> out;
  const auto e = expected(v, target, ptx);
  for (const auto& m : mutants())
    if (applies(m.id, v.instr) &&
        reproduces(v.instr, e, run_mutant(m.id, v, target, ptx), observed))
      out.push_back(m.id);
  return out;
}

namespace {

std::string failure_table(const Vector& v, const std::vector<Expected>& e, const Failure& f) {
  const auto& form = spec::form_info(v.instr.instr.form);
  const auto syn = spec::value_syntax(v.instr);
  const auto k = f.mismatch.round;
  const auto& r = v.rounds[k];
  const auto& x = e[k];
  const auto& o = f.observed[k];
  const bool cta = v.is_cta();
  const bool has_d = spec::writes_d(v.instr.instr);
  std::vector<std::vector<std::string>> rows;
  std::vector<unsigned> row_lane;
  std::vector<std::string> head{"status"};
  const bool mask_column =
      !cta && !v.instr.instr.imm_mask && spec::has_membermask(v.instr.instr.form);
  if (mask_column) head.push_back("mask");
  // Call sites, when lanes run from more than one: they decide who runs together.
  const bool site_column = !cta && model::sites_differ(r.warp);
  if (site_column) head.push_back("site");
  if (!syn.none) head.push_back("a");
  // Where the text leaves a choice (elect.sync's leader) the model's answer is one of several.
  const bool chosen = spec::has_chosen_leader(v.instr.instr.form);
  if (has_d) head.insert(head.end(), {chosen ? "model's d" : "expected d", "observed d"});
  if (v.instr.instr.write_p)
    head.insert(head.end(), {chosen ? "model's p" : "expected p", "observed p"});
  head.insert(head.end(), {"defined", ""});
  std::set<unsigned> bad(f.mismatch.lanes.begin(), f.mismatch.lanes.end());
  const std::size_t n = x.defined.size();
  std::vector<unsigned> hidden_exited, hidden_inactive;
  for (unsigned i = 0; i < n; ++i) {
    std::string status;
    if (cta)
      status = r.cta.exited[i] ? "exited" : r.cta.arrive[i] ? "executes" : "inactive";
    else
      status = std::string(model::status_name(model::status(r.warp, i)));
    // Lanes that do not execute have no result: listed below the table, not in it.
    if (status != "executes") {
      (status == "exited" ? hidden_exited : hidden_inactive).push_back(i);
      continue;
    }
    std::vector<std::string> row{status};
    if (mask_column) row.push_back(model::format_hex(r.warp.mask[i], 32));
    if (site_column) row.push_back(std::to_string(r.warp.site[i]));
    if (!syn.none)
      row.push_back(cta ? std::to_string(static_cast<int32_t>(r.cta.pred[i]))
                        : model::format_operand(r.warp.a[i], syn));
    // A 64-bit shuffle overload's d is a value of the call's type, shown as a is.
    auto show = [&](bool present, uint64_t val) {
      if (!present) return std::string("-");
      return v.instr.instr.wide ? model::format_operand(val, syn)
                                : model::format_result(static_cast<uint32_t>(val), form.d_type);
    };
    if (has_d) {
      row.push_back(x.executes[i] ? show(true, d_value(x, i)) : "-");
      row.push_back(show(i < o.present.size() && o.present[i], i < o.d.size() ? d_value(o, i) : 0));
    }
    if (v.instr.instr.write_p) {
      row.push_back(x.executes[i] ? (x.p[i] ? "1" : "0") : "-");
      row.push_back(i < o.present.size() && o.present[i] ? (o.p[i] ? "1" : "0") : "-");
    }
    row.push_back(!x.executes[i] ? "-" : x.defined[i] ? "yes" : "NO (UB)");
    row.push_back(bad.count(i) ? "<< differs" : "");
    rows.push_back(row);
    row_lane.push_back(i);
  }
  // The one table renderer eval uses: runs of lanes whose rows are equal merge ("2-31").
  std::ostringstream os;
  std::istringstream table(model::table(head, rows, cta ? "thread" : "lane", true, row_lane));
  for (std::string line; std::getline(table, line);) os << "    " << line << "\n";
  if (!hidden_exited.empty()) os << "    exited: " << model::format_threads(hidden_exited) << "\n";
  if (!hidden_inactive.empty())
    os << "    alive, not executing: " << model::format_threads(hidden_inactive) << "\n";
  if (chosen)
    os << "    the model's d and p are one choice (the lowest lane): any lane of the membermask "
          "may\n"
          "    lead, one per election, the same one for a membermask in every round and vector\n";
  return os.str();
}

std::string kind_text(const Mismatch& m) {
  switch (m.kind) {
    case Mismatch::Kind::Ub:
      return "reports undefined behaviour where the spec defines the result";
    case Mismatch::Kind::Hang:
      return "does not complete (hangs), though no undefined behaviour fires; lanes " +
             model::format_threads(m.lanes) + " never resume";
    case Mismatch::Kind::Missing:
      return "gives no result on lanes " + model::format_threads(m.lanes) +
             " that the spec defines (missing, null, or a field that is not there)";
    case Mismatch::Kind::Value:
      return m.what + " differs on lanes " + model::format_threads(m.lanes);
    case Mismatch::Kind::None:
      break;
  }
  return "";
}

std::string kind_key(Mismatch::Kind k) {
  switch (k) {
    case Mismatch::Kind::Ub:
      return "ub_reported";
    case Mismatch::Kind::Hang:
      return "hang";
    case Mismatch::Kind::Missing:
      return "no_result";
    case Mismatch::Kind::Value:
      return "value";
    case Mismatch::Kind::None:
      break;
  }
  return "none";
}

// What the diagnosis read: every vector of the form, or of the overloads that fail.
std::string scope(const FormFailures& ff) {
  if (ff.diagnosed_calls.empty()) return "vector of the form";
  std::string s = "vector of ";
  for (std::size_t k = 0; k < ff.diagnosed_calls.size(); ++k)
    s += (k ? ", " : "") + ff.diagnosed_calls[k];
  return s + " (the form's other overloads pass)";
}

// What the diagnosis says of the catalogued bugs, in one line.
std::string bug_line(const FormFailures& ff) {
  const auto& ms = ff.diagnosis.mutants;
  if (!ff.diagnosed) return "not diagnosed: the files could not be read a second time";
  if (ff.diagnosis.named())
    return "behaves like the known bug '" + std::string(mutant_info(ms[0]).key) + "' on every " +
           scope(ff) + ": " + std::string(mutant_info(ms[0]).description);
  if (ms.size() == 1) {
    std::string s = "consistent with the catalogued bug '" + std::string(mutant_info(ms[0]).key) +
                    "', but as much with another bug (";
    const auto& alt = ff.diagnosis.also_explained_by;
    for (std::size_t i = 0; i < alt.size(); ++i) s += (i ? "; " : "") + alt[i];
    return s + "); the vectors of this file cannot tell them apart";
  }
  if (ms.empty()) return "the failures match no catalogued bug";
  std::string s = "consistent with several catalogued bugs (";
  for (std::size_t i = 0; i < ms.size(); ++i)
    s += (i ? ", " : "") + std::string(mutant_info(ms[i]).key);
  return s + "); the vectors of this file cannot tell them apart";
}

}  // namespace

std::string render(const CheckReport& r, std::size_t max_failures) {
  std::ostringstream os;
  os << std::left << std::setw(28) << "form" << std::right << std::setw(9) << "vectors"
     << std::setw(9) << "agree" << std::setw(10) << "mismatch" << std::setw(11) << "UB vectors"
     << std::setw(9) << "skipped"
     << "\n";
  uint64_t skipped = 0;
  for (const auto& [form, t] : r.forms) {
    skipped += t.skipped;
    os << std::left << std::setw(28) << spec::form_info(form).name << std::right << std::setw(9)
       << t.vectors << std::setw(9) << t.agree << std::setw(10) << t.mismatch << std::setw(11)
       << t.ub_vectors << std::setw(9) << t.skipped << (t.mismatch ? "   <-- MISMATCH" : "")
       << "\n";
  }
  if (r.mismatches == 0) {
    if (r.compared == 0) {
      os << "\nNothing was compared: of " << r.vectors << " vectors, " << skipped
         << " were skipped by the implementation and the rest have undefined behaviour. No "
            "verdict.\n";
      return os.str();
    }
    os << "\nNo mismatch in the " << r.compared << " vectors compared (" << r.vectors
       << " in the file; UB vectors are not compared";
    if (skipped) os << "; " << skipped << " were skipped by the implementation and not compared";
    os << ").\n";
    return os.str();
  }
  os << "\n"
     << r.mismatches << " of " << r.vectors << " vectors disagree with the specification.\n";
  VectorReader reader("vectors", r.header);
  std::size_t shown = 0;
  for (const auto& ff : r.failures) {
    if (shown++ == max_failures) {
      os << "\n(" << (r.failures.size() - max_failures)
         << " more forms fail; use --max-failures)\n";
      break;
    }
    const auto& dg = ff.diagnosis;
    os << "\n"
       << spec::form_info(ff.form).name << ": " << r.forms.at(ff.form).mismatch << " failing vector"
       << (r.forms.at(ff.form).mismatch == 1 ? "" : "s") << "\n";
    if (dg.clauses.size() > 1) os << "  two or more bugs combine:\n";
    for (const auto& c : dg.clauses) {
      const auto& ci = spec::clause_info(c.clause);
      os << "  breaks " << ci.key << ": " << ci.text << " [" << ci.source << "]\n";
      if (ff.diagnosis.named())
        ;  // the catalogued bug is named below
      else if (!c.because.empty())
        os << "    charged because the form fails " << c.because << "\n";
      else if (!c.reading.empty() && c.explained == 0)
        os << "    it fails by " << c.reading << "\n";
      else if (!c.reading.empty())
        os << "    the wrong values are what the state gives with " << c.reading
           << (c.exact ? " (on every " + scope(ff) + ")" : "") << "\n";
      else
        os << "    no one clause's altered reading reproduces " << c.explained << " wrong value"
           << (c.explained == 1 ? "" : "s") << "; charged to the rule that computes "
           << (c.clause == spec::ClauseId::MatchAllPred ? "p" : "the value") << "\n";
    }
    os << "  " << bug_line(ff) << "\n";
    for (const auto& f : ff.smallest) {
      auto v = reader.full(f.vector_line, f.line_no);
      auto e = expected(v, r.header.target, r.header.ptx);
      os << "  smallest "
         << (f.mismatch.kind == Mismatch::Kind::Value ? "failing" : kind_key(f.mismatch.kind))
         << " vector: id " << v.id << " (line " << f.line_no << ", " << f.size
         << " executing lanes; " << f.count << " vector"
         << (f.count == 1 ? " of this form fails" : "s of this form fail") << " this way)\n"
         << "  " << v.instr.text << ", round " << (f.mismatch.round + 1) << " of "
         << v.rounds.size() << ": " << kind_text(f.mismatch) << "\n";
      os << failure_table(v, e, f);
    }
  }
  return os.str();
}

std::string render_json(const CheckReport& r) {
  nlohmann::json j{{"schema", "warpspec-check/2"},
                   {"vectors", r.vectors},
                   {"compared", r.compared},
                   {"mismatches", r.mismatches},
                   {"verdict", r.mismatches ? "mismatch"
                               : r.compared ? "agree"
                                            : "nothing compared"}};
  auto forms = nlohmann::json::array();
  for (const auto& [form, t] : r.forms)
    forms.push_back({{"form", spec::form_info(form).name},
                     {"vectors", t.vectors},
                     {"agree", t.agree},
                     {"mismatch", t.mismatch},
                     {"ub_vectors", t.ub_vectors},
                     {"skipped", t.skipped}});
  j["forms"] = forms;
  auto fails = nlohmann::json::array();
  VectorReader reader("vectors", r.header);
  for (const auto& ff : r.failures) {
    auto clauses = nlohmann::json::array();
    for (const auto& c : ff.diagnosis.clauses)
      clauses.push_back({{"clause", spec::clause_info(c.clause).key},
                         {"reading", c.reading},
                         {"because", c.because},
                         {"explained", c.explained},
                         {"exact", c.exact}});
    auto bugs = nlohmann::json::array();
    for (auto m : ff.diagnosis.mutants) bugs.push_back(mutant_info(m).key);
    auto kinds = nlohmann::json::array();
    for (const auto& f : ff.smallest) {
      auto v = reader.full(f.vector_line, f.line_no);
      const auto e = expected(v, r.header.target, r.header.ptx);
      const auto k = f.mismatch.round;
      const bool has_d = spec::writes_d(v.instr.instr);
      // Each differing lane with what the specification and the implementation gave (null: no
      // result), as the text's table shows them.
      // A value is spelled as in eval --json: a hex string of the result's width (the whole 64
      // bits of a shuffle overload's d), a boolean for a predicate result.
      const bool pred_d = spec::form_info(v.instr.instr.form).d_type == spec::ResultType::Pred;
      const unsigned d_bits = v.instr.instr.wide ? 64 : 32;
      auto d_json = [&](const auto& x, unsigned i) {
        return pred_d ? nlohmann::json(d_value(x, i) != 0)
                      : nlohmann::json(model::format_hex(d_value(x, i), d_bits));
      };
      auto values = nlohmann::json::array();
      for (auto i : f.mismatch.lanes) {
        const bool present =
            k < f.observed.size() && i < f.observed[k].present.size() && f.observed[k].present[i];
        nlohmann::json lane{{"lane", i}};
        if (has_d) {
          lane["expected_d"] = d_json(e[k], i);
          lane["observed_d"] = present ? d_json(f.observed[k], i) : nlohmann::json();
        }
        if (v.instr.instr.write_p) {
          lane["expected_p"] = static_cast<bool>(e[k].p[i]);
          lane["observed_p"] =
              present ? nlohmann::json(static_cast<bool>(f.observed[k].p[i])) : nlohmann::json();
        }
        values.push_back(lane);
      }
      kinds.push_back({{"kind", kind_key(f.mismatch.kind)},
                       {"vector", v.id},
                       {"line", f.line_no},
                       {"round", k + 1},  // counted from 1, as the text counts
                       {"rounds", v.rounds.size()},
                       {"lanes", f.mismatch.lanes},
                       {"values", values},
                       {"what", f.mismatch.what},
                       {"failing_vectors", f.count}});
    }
    fails.push_back({{"form", spec::form_info(ff.form).name},
                     {"failing_vectors", r.forms.at(ff.form).mismatch},
                     {"diagnosed", ff.diagnosed},
                     {"clauses", clauses},
                     {"combined", ff.diagnosis.clauses.size() > 1},
                     {"unexplained_values", ff.diagnosis.unexplained},
                     {"consistent_with", bugs},
                     {"behaves_like", ff.diagnosis.named() ? bugs : nlohmann::json::array()},
                     {"also_explained_by", ff.diagnosis.also_explained_by},
                     {"diagnosed_calls", ff.diagnosed_calls},
                     {"smallest", kinds}});
  }
  j["failures"] = fails;
  return j.dump(2);
}

}  // namespace warpspec::vectors
