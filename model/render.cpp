#include "model/render.hpp"

#include <bit>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

namespace warpspec::model {

std::string format_hex(uint64_t v, unsigned bits) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%0*" PRIx64, static_cast<int>(bits / 4), v);
  return b;
}

namespace {

std::string hex32(uint32_t v) {
  return format_hex(v, 32);
}

std::string hex64(uint64_t v) {
  return format_hex(v, 64);
}

std::string float_text(double v) {
  std::ostringstream os;
  os << std::setprecision(9) << v;
  auto s = os.str();
  if (s == "0" && std::signbit(v)) s = "-0";
  return s;
}

std::string runs(const std::vector<unsigned>& xs) {
  if (xs.empty()) return "none";
  std::string out;
  for (std::size_t i = 0; i < xs.size();) {
    std::size_t j = i;
    while (j + 1 < xs.size() && xs[j + 1] == xs[j] + 1) ++j;
    if (!out.empty()) out += ",";
    out += std::to_string(xs[i]);
    if (j > i) out += "-" + std::to_string(xs[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace

std::string table(const std::vector<std::string>& header,
                  const std::vector<std::vector<std::string>>& rows, const std::string& first_name,
                  bool compact, const std::vector<unsigned>& numbers) {
  std::vector<std::vector<std::string>> merged;
  std::vector<std::vector<unsigned>> ids;
  for (unsigned i = 0; i < rows.size(); ++i) {
    const unsigned n = i < numbers.size() ? numbers[i] : i;
    bool same = compact && !merged.empty() && ids.back().back() + 1 == n &&
                std::equal(rows[i].begin(), rows[i].end(), merged.back().begin() + 1);
    if (same) {
      ids.back().push_back(n);
    } else {
      merged.push_back({""});
      merged.back().insert(merged.back().end(), rows[i].begin(), rows[i].end());
      ids.push_back({n});
    }
  }
  for (std::size_t k = 0; k < merged.size(); ++k) merged[k][0] = runs(ids[k]);
  std::vector<std::string> head{first_name};
  head.insert(head.end(), header.begin(), header.end());
  std::vector<std::size_t> width(head.size());
  for (std::size_t c = 0; c < head.size(); ++c) width[c] = head[c].size();
  for (const auto& r : merged)
    for (std::size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
  std::ostringstream os;
  auto line = [&](const std::vector<std::string>& r) {
    std::string s;
    for (std::size_t c = 0; c < r.size(); ++c) {
      s += r[c];
      if (c + 1 < r.size()) s += std::string(width[c] - r[c].size() + 2, ' ');
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    os << s << "\n";
  };
  line(head);
  for (const auto& r : merged) line(r);
  return os.str();
}

std::string format_lanes(uint32_t lanes) {
  std::vector<unsigned> xs;
  for (unsigned i = 0; i < 32; ++i)
    if ((lanes >> i) & 1u) xs.push_back(i);
  return runs(xs);
}

std::string format_threads(const std::vector<unsigned>& threads) {
  return runs(threads);
}

std::string format_operand(uint64_t bits, const spec::ValueSyntax& syn) {
  if (syn.is_pred) return bits ? "1" : "0";
  if (syn.is_float && syn.bits == 32) {
    auto b = static_cast<uint32_t>(bits);
    return float_text(std::bit_cast<float>(b)) + " (" + hex32(b) + ")";
  }
  if (syn.is_float) return float_text(std::bit_cast<double>(bits)) + " (" + hex64(bits) + ")";
  return syn.bits == 64 ? hex64(bits) : hex32(static_cast<uint32_t>(bits));
}

std::string format_result(uint32_t bits, spec::ResultType t) {
  switch (t) {
    case spec::ResultType::None:
      return "-";
    case spec::ResultType::Pred:
      return bits ? "1" : "0";
    case spec::ResultType::U32:
      return std::to_string(bits);
    case spec::ResultType::S32:
      return std::to_string(static_cast<int32_t>(bits));
    case spec::ResultType::F32:
      return float_text(std::bit_cast<float>(bits)) + " (" + hex32(bits) + ")";
    default:
      return hex32(bits);
  }
}

spec::ValueSyntax form_syntax(spec::FormId form) {
  spec::ParsedInstr p;
  p.instr.form = form;
  auto s = spec::value_syntax(p);
  const auto t = spec::form_info(form).a_type;
  if (t == spec::OperandType::U32 || t == spec::OperandType::S32) s.bits = 32;
  return s;
}

bool sites_differ(const Warp& w) {
  for (unsigned i = 1; i < spec::kWarpSize; ++i)
    if (w.site[i] != w.site[0]) return true;
  return false;
}

std::string lane_table(const spec::Instr& in, const spec::ValueSyntax& syn, const Warp& w,
                       const WarpResult* r, bool compact) {
  const auto& f = spec::form_info(in.form);
  const bool sites = sites_differ(w);
  const bool masks = spec::has_membermask(in.form);
  std::vector<std::string> head{"status"};
  if (masks) head.push_back("mask");
  if (!syn.none) head.push_back("a");
  if (sites) head.push_back("site");
  const bool bc = spec::has_operands_bc(in.form);
  if (bc) {
    head.push_back("b");
    head.push_back("c");
  }
  const bool has_d = spec::writes_d(in);
  if (r) {
    if (has_d) head.push_back("d");
    if (in.write_p) head.push_back("p");
    head.push_back("defined");
  }
  std::vector<std::vector<std::string>> rows;
  for (unsigned i = 0; i < spec::kWarpSize; ++i) {
    const auto st = status(w, i);
    const uint32_t mask = in.imm_mask ? *in.imm_mask : w.mask[i];
    std::vector<std::string> row{std::string(status_name(st))};
    if (masks) row.push_back(hex32(mask));
    if (!syn.none) row.push_back(format_operand(w.a[i], syn));
    if (sites) row.push_back(std::to_string(w.site[i]));
    if (bc) {
      row.push_back(std::to_string(spec::operand_b(Concrete{}, in, w, i)));
      row.push_back(hex32(spec::operand_c(Concrete{}, in, w, i)));
    }
    if (r) {
      const bool runs_it = st == LaneStatus::Executes;
      const bool d_open = r->defined(i) && !r->d_defined(i);
      // A 64-bit shuffle overload's d is a value of the call's type, shown as a is.
      const auto d_text = !in.wide         ? format_result(r->outcome.d[i], f.d_type)
                          : syn.bits == 64 ? format_operand(r->d_value(i), syn)
                                           : format_hex(r->d_value(i), 64);
      if (has_d) row.push_back(!runs_it ? "-" : d_open ? "?" : d_text);
      if (in.write_p) row.push_back(runs_it ? (r->outcome.p[i] ? "1" : "0") : "-");
      row.push_back(!runs_it           ? "-"
                    : !r->defined(i)   ? "NO (UB)"
                    : !r->d_defined(i) ? "p only (d undefined)"
                                       : "yes");
    }
    rows.push_back(std::move(row));
  }
  return table(head, rows, "lane", compact);
}

std::string lane_table(const spec::Instr& in, const Warp& w, const WarpResult* r, bool compact) {
  return lane_table(in, form_syntax(in.form), w, r, compact);
}

CtaOperandColumns::CtaOperandColumns(const Cta& c, const std::vector<spec::Instr>& ins)
    : via(std::find(c.partner.begin(), c.partner.end(), true) != c.partner.end()),
      form(ins.front().form) {
  for (const auto& in : ins) {
    bar = bar || !in.imm_bar;
    count = count || (in.has_count && !in.imm_count);
  }
}

void CtaOperandColumns::add_head(std::vector<std::string>& head) const {
  if (bar) head.push_back("bar");
  if (count) head.push_back("count");
  if (via) head.push_back("via");
}

void CtaOperandColumns::add_cells(const Cta& c, std::size_t t,
                                  std::vector<std::string>& row) const {
  if (bar) row.push_back(std::to_string(c.bar[t]));
  if (count) row.push_back(std::to_string(c.count[t]));
  if (via) row.push_back(std::string(c.partner[t] ? spec::partner_name(form) : "-"));
}

std::string cta_table(const spec::Instr& in, const Cta& c, const CtaResult* r, bool compact) {
  const auto& f = spec::form_info(in.form);
  std::vector<std::string> head{"status"};
  const bool pred = f.a_type != spec::OperandType::None;
  if (pred) head.push_back("a");
  const CtaOperandColumns operands(c, {in});
  operands.add_head(head);
  if (r) {
    if (f.d_type != spec::ResultType::None) head.push_back("d");
    head.push_back("defined");
  }
  std::vector<std::vector<std::string>> rows;
  for (std::size_t t = 0; t < c.arrive.size(); ++t) {
    auto st = c.exited[t]   ? LaneStatus::Exited
              : c.arrive[t] ? LaneStatus::Executes
                            : LaneStatus::Inactive;
    std::vector<std::string> row{std::string(status_name(st))};
    if (pred) row.push_back(std::to_string(static_cast<int32_t>(c.pred[t])));
    operands.add_cells(c, t, row);
    if (r) {
      const bool here = r->outcome.executes[t];
      if (f.d_type != spec::ResultType::None)
        row.push_back(here ? format_result(r->outcome.d[t], f.d_type) : "-");
      row.push_back(!here ? "-" : r->outcome.defined(t) ? "yes" : "NO (UB)");
    }
    rows.push_back(std::move(row));
  }
  return table(head, rows, "thread", compact);
}

namespace {
std::string availability_line(const spec::AvailabilityVerdict& v) {
  return v.available ? "" : "NOT AVAILABLE: " + v.reason + "\n";
}
}  // namespace

std::string findings_text(const WarpResult& r) {
  std::string out = availability_line(r.availability);
  if (spec::has_chosen_leader(r.instr.form))
    out +=
        "The leader shown is the lowest lane of each membermask, as sm_90 elects (observed); "
        "the specification allows any lane of the membermask, provided the same membermask "
        "always elects the same lane (elect.leader, elect.deterministic).\n";
  if (r.ub.empty()) {
    for (const auto& t : r.outcome.loose_d) {
      if (t.lanes == 0) continue;
      const auto& c = spec::clause_info(t.clause);
      out += "d undefined (" + std::string(c.key) + ") on lanes " + format_lanes(t.lanes) + ": " +
             std::string(c.text) + "\n";
    }
    return out + "No undefined behaviour.\n";
  }
  for (const auto& u : r.ub) {
    const auto& c = spec::clause_info(u.clause);
    out += "UB " + std::string(c.key) + " on lanes " + format_lanes(u.lanes) + ": " +
           std::string(c.text) + "\n";
  }
  return out;
}

std::string findings_text(const CtaResult& r) {
  std::string out = availability_line(r.availability);
  if (r.ub.empty()) return out + "No undefined behaviour.\n";
  for (const auto& u : r.ub) {
    const auto& c = spec::clause_info(u.clause);
    out += "UB " + std::string(c.key) + " on threads " + format_threads(u.threads) + ": " +
           std::string(c.text) + "\n";
  }
  return out;
}

namespace {
nlohmann::json header_json(const spec::ParsedInstr& p, const spec::AvailabilityVerdict& av,
                           spec::Target target, spec::PtxVersion ptx) {
  const auto& f = spec::form_info(p.instr.form);
  nlohmann::json j{{"schema", "warpspec-eval/1"},
                   {"instruction", p.text},
                   {"form", f.name},
                   {"target", spec::to_string(target)},
                   {"ptx", spec::to_string(ptx)},
                   {"available", av.available}};
  j["intrinsic"] = p.intrinsic ? nlohmann::json(p.intrinsic->signature) : nlohmann::json(nullptr);
  if (!av.available) j["availability_reason"] = av.reason;
  return j;
}

nlohmann::json result_value(uint32_t bits, spec::ResultType t) {
  if (t == spec::ResultType::Pred) return bits != 0;
  return hex32(bits);
}
}  // namespace

nlohmann::json result_json(const spec::ParsedInstr& p, const Warp& w, const WarpResult& r,
                           spec::Target target, spec::PtxVersion ptx) {
  const auto& f = spec::form_info(p.instr.form);
  const auto syn = spec::value_syntax(p);
  auto j = header_json(p, r.availability, target, ptx);
  auto lanes = nlohmann::json::array();
  for (unsigned i = 0; i < spec::kWarpSize; ++i) {
    const auto st = status(w, i);
    nlohmann::json l{{"lane", i}, {"status", status_name(st)}, {"site", w.site[i]}};
    if (spec::has_membermask(p.instr.form))
      l["mask"] = hex32(p.instr.imm_mask ? *p.instr.imm_mask : w.mask[i]);
    if (!syn.none)
      l["a"] = syn.is_pred ? nlohmann::json(w.a[i] != 0)
                           : nlohmann::json(syn.bits == 64 ? hex64(w.a[i])
                                                           : hex32(static_cast<uint32_t>(w.a[i])));
    if (spec::has_operands_bc(p.instr.form)) {
      l["b"] = hex32(spec::operand_b(Concrete{}, p.instr, w, i));
      l["c"] = hex32(spec::operand_c(Concrete{}, p.instr, w, i));
    }
    const bool runs_it = st == LaneStatus::Executes;
    if (spec::writes_d(p.instr))
      l["d"] = !(runs_it && (r.d_defined(i) || !r.defined(i))) ? nlohmann::json(nullptr)
               : p.instr.wide                                  ? nlohmann::json(hex64(r.d_value(i)))
                              : result_value(r.outcome.d[i], f.d_type);
    if (p.instr.write_p)
      l["p"] = runs_it ? nlohmann::json(r.outcome.p[i]) : nlohmann::json(nullptr);
    l["defined"] = r.defined(i);
    if (!r.outcome.loose_d.empty()) l["d_defined"] = r.d_defined(i);
    lanes.push_back(std::move(l));
  }
  j["lanes"] = std::move(lanes);
  auto ub = nlohmann::json::array();
  for (const auto& u : r.ub) {
    auto ls = nlohmann::json::array();
    for (unsigned i = 0; i < 32; ++i)
      if ((u.lanes >> i) & 1u) ls.push_back(i);
    ub.push_back({{"clause", spec::clause_info(u.clause).key},
                  {"lanes", ls},
                  {"text", spec::clause_info(u.clause).text}});
  }
  j["ub"] = std::move(ub);
  return j;
}

nlohmann::json result_json(const spec::ParsedInstr& p, const Cta& c, const CtaResult& r,
                           spec::Target target, spec::PtxVersion ptx) {
  const auto& f = spec::form_info(p.instr.form);
  auto j = header_json(p, r.availability, target, ptx);
  auto threads = nlohmann::json::array();
  for (std::size_t t = 0; t < c.arrive.size(); ++t) {
    auto st = c.exited[t]   ? LaneStatus::Exited
              : c.arrive[t] ? LaneStatus::Executes
                            : LaneStatus::Inactive;
    nlohmann::json o{{"thread", t}, {"status", status_name(st)}};
    if (f.a_type != spec::OperandType::None) o["a"] = static_cast<int32_t>(c.pred[t]);
    const bool here = r.outcome.executes[t];
    if (f.d_type != spec::ResultType::None)
      o["d"] = here ? (f.d_type == spec::ResultType::Pred ? nlohmann::json(r.outcome.d[t] != 0)
                                                          : nlohmann::json(r.outcome.d[t]))
                    : nlohmann::json(nullptr);
    if (!p.instr.imm_bar) o["bar"] = c.bar[t];
    if (p.instr.has_count && !p.instr.imm_count) o["count"] = c.count[t];
    if (c.partner[t]) o["via"] = spec::partner_name(p.instr.form);
    o["defined"] = r.outcome.defined(t);
    threads.push_back(std::move(o));
  }
  j["threads"] = std::move(threads);
  auto ub = nlohmann::json::array();
  for (const auto& u : r.ub)
    ub.push_back({{"clause", spec::clause_info(u.clause).key},
                  {"threads", u.threads},
                  {"text", spec::clause_info(u.clause).text}});
  j["ub"] = std::move(ub);
  return j;
}

}  // namespace warpspec::model
