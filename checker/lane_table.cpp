#include "checker/lane_table.hpp"

#include <cstdio>
#include <sstream>

namespace warpspec::checker {

namespace {

std::string hex(uint64_t v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%0*llx", digits, static_cast<unsigned long long>(v));
  return buf;
}

bool same_warp(const model::Warp& a, const model::Warp& b) {
  return a.exec == b.exec && a.exited == b.exited && a.mask == b.mask && a.a == b.a &&
         a.site == b.site;
}

bool same_cta(const model::Cta& a, const model::Cta& b) {
  return a.arrive == b.arrive && a.exited == b.exited && a.pred == b.pred;
}

std::string pad(std::string s, std::size_t w) {
  if (s.size() < w) s.append(w - s.size(), ' ');
  return s;
}

/// Lane i's cell for one evaluation: its value, p for match.all, or why it has none.
std::string cell(const WarpRecord& r, unsigned i) {
  const auto& o = r.outcome;
  if (!o.executes[i]) return "-";
  const auto& f = spec::form_info(r.instr.form);
  std::string v;
  switch (f.d_type) {
    case spec::ResultType::None:
      v = "ok";
      break;
    case spec::ResultType::Pred:
      v = std::to_string(o.d[i]);
      break;
    case spec::ResultType::S32:
      v = std::to_string(static_cast<int32_t>(o.d[i]));
      break;
    default:
      v = hex(o.d[i], 8);
      break;
  }
  if (f.optional_p) v += " p=" + std::to_string(o.p[i] ? 1 : 0);
  const uint32_t ub = o.ub_lanes(model::Concrete{});
  if ((ub >> i) & 1u) v += f.d_type == spec::ResultType::None ? "" : " ", v += "UB";
  return v;
}

struct WarpGroup {
  model::Warp state;
  std::vector<const WarpRecord*> records;
};

std::vector<WarpGroup> group_warps(const Env<model::Concrete>& env) {
  std::vector<WarpGroup> groups;
  for (const auto& r : env.warp_records) {
    WarpGroup* g = nullptr;
    for (auto& x : groups)
      if (same_warp(x.state, r.state)) g = &x;
    if (!g) g = &groups.emplace_back(WarpGroup{r.state, {}});
    g->records.push_back(&r);
  }
  return groups;
}

std::string status_text(const model::Warp& w, unsigned i) {
  return std::string(model::status_name(model::status(w, i)));
}

}  // namespace

std::string lane_list(uint32_t lanes) {
  if (lanes == 0) return "none";
  std::string s;
  for (unsigned i = 0; i < 32;) {
    if (!((lanes >> i) & 1u)) {
      ++i;
      continue;
    }
    unsigned j = i;
    while (j + 1 < 32 && ((lanes >> (j + 1)) & 1u)) ++j;
    if (!s.empty()) s += ",";
    s += std::to_string(i);
    if (j > i) s += (j == i + 1 ? "," : "-") + std::to_string(j);
    i = j + 1;
  }
  return s;
}

std::string instr_text(const spec::Instr& in, bool pre_volta) {
  std::string s(spec::form_info(in.form).name);
  if (in.negate) s += " !a";
  if (in.write_p) s += " d|p";
  if (in.imm_mask) s += " imm=" + hex(*in.imm_mask, 8);
  if (pre_volta) s += " @sm_6x";
  return s;
}

std::string format_replay(const Env<model::Concrete>& env) {
  std::ostringstream out;
  auto groups = group_warps(env);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto& grp = groups[g];
    out << "warp state " << g + 1 << ":\n";
    std::vector<std::string> heads;
    std::vector<std::size_t> widths;
    for (const auto* r : grp.records) {
      heads.push_back((r->label == "model" ? "" : r->label + ": ") +
                      instr_text(r->instr, r->pre_volta));
      std::size_t w = heads.back().size();
      for (unsigned i = 0; i < spec::kWarpSize; ++i) w = std::max(w, cell(*r, i).size());
      widths.push_back(w);
    }
    out << "lane status    mask       a                  site";
    for (std::size_t k = 0; k < heads.size(); ++k) out << " | " << pad(heads[k], widths[k]);
    out << "\n";
    for (unsigned i = 0; i < spec::kWarpSize; ++i) {
      char buf[128];
      std::snprintf(buf, sizeof buf, "%4u %-9s %s %s %4u", i, status_text(grp.state, i).c_str(),
                    hex(grp.state.mask[i], 8).c_str(), hex(grp.state.a[i], 16).c_str(),
                    grp.state.site[i]);
      out << buf;
      for (std::size_t k = 0; k < grp.records.size(); ++k)
        out << " | " << pad(cell(*grp.records[k], i), widths[k]);
      out << "\n";
    }
    for (std::size_t k = 0; k < grp.records.size(); ++k)
      for (const auto& t : grp.records[k]->outcome.ub)
        if (t.lanes)
          out << "  " << heads[k] << ": " << spec::clause_info(t.clause).key << " fires on lanes "
              << lane_list(t.lanes) << "\n";
  }
  std::vector<const CtaRecord*> seen;
  for (const auto& r : env.cta_records) {
    bool printed = false;
    for (const auto* s : seen) printed = printed || same_cta(s->state, r.state);
    if (printed) continue;
    seen.push_back(&r);
    const auto& c = r.state;
    out << "block state (" << c.arrive.size() << " threads):\n";
    out << "thread status   pred\n";
    for (std::size_t t = 0; t < c.arrive.size(); ++t) {
      const char* st = c.exited[t] ? "exited" : c.arrive[t] ? "arrives" : "absent";
      char buf[64];
      std::snprintf(buf, sizeof buf, "%6zu %-8s %s\n", t, st, hex(c.pred[t], 8).c_str());
      out << buf;
    }
    for (const auto& q : env.cta_records) {
      if (!same_cta(q.state, c)) continue;
      out << "  " << (q.label == "model" ? "" : q.label + ": ") << instr_text(q.instr)
          << ": d = " << q.outcome.d << (q.outcome.any_ub ? ", UB cta.ub.not_reached" : ", no UB")
          << "\n";
    }
  }
  return out.str();
}

nlohmann::json replay_json(const Env<model::Concrete>& env) {
  nlohmann::json warps = nlohmann::json::array();
  for (const auto& grp : group_warps(env)) {
    nlohmann::json lanes = nlohmann::json::array();
    for (unsigned i = 0; i < spec::kWarpSize; ++i)
      lanes.push_back({{"lane", i},
                       {"status", status_text(grp.state, i)},
                       {"mask", hex(grp.state.mask[i], 8)},
                       {"a", hex(grp.state.a[i], 16)},
                       {"site", grp.state.site[i]}});
    nlohmann::json evals = nlohmann::json::array();
    for (const auto* r : grp.records) {
      nlohmann::json d = nlohmann::json::array(), p = nlohmann::json::array(),
                     ex = nlohmann::json::array(), ub = nlohmann::json::object();
      for (unsigned i = 0; i < spec::kWarpSize; ++i) {
        d.push_back(r->outcome.d[i]);
        p.push_back(r->outcome.p[i]);
        ex.push_back(r->outcome.executes[i]);
      }
      for (const auto& t : r->outcome.ub)
        ub[std::string(spec::clause_info(t.clause).key)] = hex(t.lanes, 8);
      evals.push_back({{"by", r->label},
                       {"instr", instr_text(r->instr)},
                       {"sm_6x", r->pre_volta},
                       {"d", d},
                       {"p", p},
                       {"executes", ex},
                       {"ub", ub}});
    }
    warps.push_back({{"lanes", lanes}, {"evaluations", evals}});
  }
  nlohmann::json blocks = nlohmann::json::array();
  for (const auto& r : env.cta_records) {
    nlohmann::json threads = nlohmann::json::array();
    for (std::size_t t = 0; t < r.state.arrive.size(); ++t)
      threads.push_back({{"thread", t},
                         {"status", r.state.exited[t]   ? "exited"
                                    : r.state.arrive[t] ? "arrives"
                                                        : "absent"},
                         {"pred", r.state.pred[t]}});
    blocks.push_back({{"by", r.label},
                      {"instr", instr_text(r.instr)},
                      {"threads", threads},
                      {"d", r.outcome.d},
                      {"ub", r.outcome.any_ub}});
  }
  return {{"warps", warps}, {"blocks", blocks}};
}

}  // namespace warpspec::checker
