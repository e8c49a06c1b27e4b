#include "vectors/check.hpp"

#include <algorithm>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "model/render.hpp"

namespace warpspec::vectors {

namespace {

constexpr std::size_t kKeptPerForm = 8;

bool next_line(std::istream& in, std::string& line, std::size_t& line_no) {
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") != std::string::npos) return true;
  }
  return false;
}

std::size_t executing_lanes(const std::vector<Expected>& e) {
  std::size_t n = 0;
  for (const auto& r : e)
    for (auto x : r.executes) n += x;
  return n;
}

}  // namespace

CheckReport check(std::istream& vin, const std::string& vfile, std::istream& rin,
                  const std::string& rfile) {
  CheckReport rep;
  std::string vline, rline;
  std::size_t vno = 0, rno = 0;
  if (!next_line(vin, vline, vno))
    throw FormatError(vfile, 1, 1, "the file is empty; expected a vector file header");
  rep.header = parse_header(vline, vfile);
  VectorReader reader(vfile);
  ResultReader results(rfile);
  std::vector<std::size_t> widths;
  bool first_result = true;
  std::map<spec::FormId, std::vector<Failure>> kept;
  while (next_line(vin, vline, vno)) {
    const auto& ex = reader.expect(vline, vno);
    if (!next_line(rin, rline, rno))
      throw FormatError(rfile, rno + 1, 1,
                        "the results end after " + std::to_string(rep.vectors) + " results, but " +
                            vfile + " has more vectors (the next is vector " +
                            std::to_string(ex.id) + ")");
    if (first_result && rline.find("\"schema\"") != std::string::npos) {
      // An optional header line.
      json::Document hd;
      if (!hd.parse(rline)) throw FormatError(rfile, rno, hd.error_column(), hd.error());
      const auto* s = hd.get(hd.root(), "schema");
      if (s && s->text != kResultsSchema)
        throw FormatError(rfile, rno, 1,
                          "schema \"" + std::string(s->text) + "\" is not supported; expected \"" +
                              std::string(kResultsSchema) + "\"");
      if (s && !next_line(rin, rline, rno))
        throw FormatError(rfile, rno + 1, 1,
                          "the results end after the header, but " + vfile + " has vectors");
    }
    first_result = false;
    widths.clear();
    for (const auto& r : ex.rounds) widths.push_back(r.d.size());
    const auto& res = results.parse(rline, rno, widths);
    if (res.id != ex.id)
      throw FormatError(rfile, rno, 1,
                        "result for vector " + std::to_string(res.id) + ", expected vector " +
                            std::to_string(ex.id) + " (results follow the order of " + vfile + ")");
    ++rep.vectors;
    auto& tally = rep.forms[ex.instr->instr.form];
    ++tally.vectors;
    if (res.skipped) {
      ++tally.skipped;
      continue;
    }
    const auto m = compare(*ex.instr, ex.rounds, res.rounds);
    if (ex.ub && m.kind == Mismatch::Kind::None) {
      ++tally.ub_vectors;
      continue;
    }
    if (m.kind == Mismatch::Kind::None) {
      ++tally.agree;
      continue;
    }
    ++tally.mismatch;
    ++rep.mismatches;
    auto& list = kept[ex.instr->instr.form];
    Failure f{vline, vno, res.rounds, m, executing_lanes(ex.rounds), {}, 1, {}};
    list.push_back(std::move(f));
    std::stable_sort(list.begin(), list.end(),
                     [](const Failure& a, const Failure& b) { return a.size < b.size; });
    if (list.size() > kKeptPerForm) list.pop_back();
  }
  if (next_line(rin, rline, rno))
    throw FormatError(
        rfile, rno, 1,
        "more results than vectors: " + vfile + " has " + std::to_string(rep.vectors));
  // Charge each kept failure to a clause. A known bug (mutant) that explains every kept failure
  // of the form wins; otherwise each failure goes to a mutant that explains it, else to the first
  // clause its vector covers. Keep the smallest per (form, clause).
  VectorReader full_reader(vfile);
  for (auto& [form, list] : kept) {
    std::vector<std::vector<MutantId>> whys;
    std::vector<MutantId> common;
    for (std::size_t k = 0; k < list.size(); ++k) {
      auto v = full_reader.full(list[k].vector_line, list[k].line_no);
      whys.push_back(explain_failure(v, list[k].observed, rep.header.target, rep.header.ptx));
      if (k == 0)
        common = whys.back();
      else
        std::erase_if(common, [&](MutantId m) {
          return std::find(whys.back().begin(), whys.back().end(), m) == whys.back().end();
        });
      if (list[k].clause == spec::ClauseId{} && !v.clauses.empty())
        list[k].clause = v.clauses.front();
    }
    std::set<spec::ClauseId> seen;
    const uint64_t total = rep.forms[form].mismatch;
    for (std::size_t k = 0; k < list.size(); ++k) {
      auto& f = list[k];
      f.explained_by = !common.empty() ? common : whys[k];
      if (!f.explained_by.empty())
        f.clause = violated_clause(f.explained_by.front(), form);
      else if (f.clause == spec::ClauseId{})
        f.clause = spec::form_info(form).clauses.front();
      if (seen.insert(f.clause).second) {
        f.count = total;
        rep.failures.push_back(f);
      }
    }
  }
  std::stable_sort(rep.failures.begin(), rep.failures.end(),
                   [](const Failure& a, const Failure& b) { return a.size < b.size; });
  return rep;
}

std::vector<MutantId> explain_failure(const Vector& v, const std::vector<Observed>& observed,
                                      spec::Target target, spec::PtxVersion ptx) {
  std::vector<MutantId> out;
  const auto e = expected(v, target, ptx);
  for (const auto& m : mutants()) {
    if (!applies(m.id, v.instr)) continue;
    auto mo = run_mutant(m.id, v, target, ptx);
    // The mutant explains the observation when the two agree wherever the spec is defined.
    bool same = true;
    for (std::size_t k = 0; k < e.size() && same; ++k) {
      if (e[k].ub.empty() && mo[k].ub_reported != observed[k].ub_reported) same = false;
      for (std::size_t i = 0; i < e[k].defined.size() && same; ++i)
        if (e[k].defined[i] && observed[k].present[i] &&
            (mo[k].d[i] != observed[k].d[i] ||
             (v.instr.instr.write_p && mo[k].p[i] != observed[k].p[i])))
          same = false;
    }
    if (same) out.push_back(m.id);
  }
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
  const bool has_d = form.d_type != spec::ResultType::None && v.instr.instr.write_d;
  std::vector<std::vector<std::string>> rows;
  std::vector<unsigned> row_lane;
  std::vector<std::string> head{cta ? "thread" : "lane", "status"};
  if (!cta && !v.instr.instr.imm_mask) head.push_back("mask");
  if (!syn.none) head.push_back("a");
  if (has_d) head.insert(head.end(), {"expected d", "observed d"});
  if (v.instr.instr.write_p) head.insert(head.end(), {"expected p", "observed p"});
  head.push_back("defined");
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
    std::vector<std::string> row{"", status};
    if (!cta && !v.instr.instr.imm_mask) {
      char b[16];
      std::snprintf(b, sizeof b, "0x%08x", r.warp.mask[i]);
      row.push_back(b);
    }
    if (!syn.none)
      row.push_back(cta ? std::to_string(static_cast<int32_t>(r.cta.pred[i]))
                        : model::format_operand(r.warp.a[i], syn));
    auto show = [&](bool present, uint32_t val) {
      return present ? model::format_result(val, form.d_type) : std::string("-");
    };
    if (has_d) {
      row.push_back(x.executes[i] ? show(true, x.d[i]) : "-");
      row.push_back(show(i < o.present.size() && o.present[i], i < o.d.size() ? o.d[i] : 0));
    }
    if (v.instr.instr.write_p) {
      row.push_back(x.executes[i] ? (x.p[i] ? "1" : "0") : "-");
      row.push_back(i < o.present.size() && o.present[i] ? (o.p[i] ? "1" : "0") : "-");
    }
    row.push_back(!x.executes[i] ? "-" : x.defined[i] ? "yes" : "NO (UB)");
    if (bad.count(i)) row.push_back("<< differs");
    rows.push_back(row);
    row_lane.push_back(i);
  }
  // Merge rows of consecutive lanes that are equal but for the lane number (as eval does).
  std::vector<std::pair<std::string, std::vector<std::string>>> merged;
  unsigned last = 0;
  for (unsigned k = 0; k < rows.size(); ++k) {
    const unsigned i = row_lane[k];
    auto key = std::vector<std::string>(rows[k].begin() + 1, rows[k].end());
    if (!merged.empty() && last + 1 == i &&
        std::vector<std::string>(merged.back().second.begin() + 1, merged.back().second.end()) ==
            key) {
      auto& label = merged.back().first;
      auto dash = label.find('-');
      label = (dash == std::string::npos ? label : label.substr(0, dash)) + "-" + std::to_string(i);
    } else {
      merged.push_back({std::to_string(i), rows[k]});
    }
    last = i;
  }
  std::vector<std::size_t> w(head.size() + 1, 0);
  for (std::size_t c = 0; c < head.size(); ++c) w[c] = head[c].size();
  for (auto& [label, row] : merged) {
    row[0] = label;
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (c >= w.size()) w.resize(c + 1, 0);
      w[c] = std::max(w[c], row[c].size());
    }
  }
  std::ostringstream os;
  auto line = [&](const std::vector<std::string>& row) {
    std::string s = "    ";
    for (std::size_t c = 0; c < row.size(); ++c)
      s += row[c] + (c + 1 < row.size() ? std::string(w[c] - row[c].size() + 2, ' ') : "");
    os << s << "\n";
  };
  line(head);
  for (auto& [label, row] : merged) line(row);
  if (!hidden_exited.empty()) os << "    exited: " << model::format_threads(hidden_exited) << "\n";
  if (!hidden_inactive.empty())
    os << "    alive, not executing: " << model::format_threads(hidden_inactive) << "\n";
  return os.str();
}

std::string kind_text(const Mismatch& m) {
  switch (m.kind) {
    case Mismatch::Kind::Ub:
      return "reports undefined behaviour where the spec defines the result";
    case Mismatch::Kind::Missing:
      return "gives no result on lanes " + model::format_threads(m.lanes) + " that execute";
    case Mismatch::Kind::Value:
      return m.what + " differs on lanes " + model::format_threads(m.lanes);
    case Mismatch::Kind::None:
      break;
  }
  return "";
}

}  // namespace

std::string render(const CheckReport& r, std::size_t max_failures) {
  std::ostringstream os;
  os << std::left << std::setw(28) << "form" << std::right << std::setw(9) << "vectors"
     << std::setw(9) << "agree" << std::setw(10) << "mismatch" << std::setw(11) << "UB vectors"
     << std::setw(9) << "skipped"
     << "\n";
  for (const auto& [form, t] : r.forms)
    os << std::left << std::setw(28) << spec::form_info(form).name << std::right << std::setw(9)
       << t.vectors << std::setw(9) << t.agree << std::setw(10) << t.mismatch << std::setw(11)
       << t.ub_vectors << std::setw(9) << t.skipped << (t.mismatch ? "   <-- MISMATCH" : "")
       << "\n";
  if (r.mismatches == 0) {
    uint64_t skipped = 0;
    for (const auto& [form, t] : r.forms) skipped += t.skipped;
    os << "\nNo mismatch in " << r.vectors << " vectors (UB vectors are not compared";
    if (skipped) os << "; " << skipped << " vectors were skipped by the implementation";
    os << ").\n";
    return os.str();
  }
  os << "\n"
     << r.mismatches << " of " << r.vectors << " vectors disagree with the specification.\n";
  VectorReader reader("vectors");
  std::size_t shown = 0;
  for (const auto& f : r.failures) {
    if (shown++ == max_failures) {
      os << "\n(" << (r.failures.size() - max_failures)
         << " more clauses violated; use --max-failures)\n";
      break;
    }
    auto v = reader.full(f.vector_line, f.line_no);
    auto e = expected(v, r.header.target, r.header.ptx);
    const auto& c = spec::clause_info(f.clause);
    os << "\n"
       << spec::form_info(v.instr.instr.form).name << ": violates " << c.key << "\n"
       << "  " << c.text << " [" << c.source << "]\n"
       << "  smallest failing vector: id " << v.id << " (line " << f.line_no << ", " << f.size
       << " executing lanes; " << f.count << " failing vector" << (f.count == 1 ? "" : "s")
       << " of this form)\n"
       << "  " << v.instr.text << ", round " << (f.mismatch.round + 1) << " of " << v.rounds.size()
       << ": " << kind_text(f.mismatch) << "\n";
    for (auto m : f.explained_by)
      os << "  behaves like the known bug '" << mutant_info(m).key
         << "': " << mutant_info(m).description << "\n";
    os << failure_table(v, e, f);
  }
  return os.str();
}

std::string render_json(const CheckReport& r) {
  nlohmann::json j{
      {"schema", "warpspec-check/1"}, {"vectors", r.vectors}, {"mismatches", r.mismatches}};
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
  VectorReader reader("vectors");
  for (const auto& f : r.failures) {
    auto v = reader.full(f.vector_line, f.line_no);
    auto bugs = nlohmann::json::array();
    for (auto m : f.explained_by) bugs.push_back(mutant_info(m).key);
    fails.push_back({{"form", spec::form_info(v.instr.instr.form).name},
                     {"clause", spec::clause_info(f.clause).key},
                     {"vector", v.id},
                     {"line", f.line_no},
                     {"round", f.mismatch.round},
                     {"lanes", f.mismatch.lanes},
                     {"what", f.mismatch.what},
                     {"failing_vectors", f.count},
                     {"behaves_like", bugs}});
  }
  j["failures"] = fails;
  return j.dump(2);
}

}  // namespace warpspec::vectors
