#include "checker/lane_table.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "model/render.hpp"

namespace warpspec::checker {

namespace {

bool same_warp(const model::Warp& a, const model::Warp& b) {
  return a.exec == b.exec && a.exited == b.exited && a.mask == b.mask && a.a == b.a &&
         a.site == b.site && a.b == b.b && a.c == b.c;
}

bool same_cta(const model::Cta& a, const model::Cta& b) {
  return a.arrive == b.arrive && a.exited == b.exited && a.pred == b.pred && a.bar == b.bar &&
         a.count == b.count && a.partner == b.partner;
}

/// Lane i's cell for one evaluation: its value as `eval` writes it, p for match.all, or why it
/// has none.
std::string cell(const WarpRecord& r, unsigned i) {
  const auto& o = r.outcome;
  if (!o.executes[i]) return "-";
  const auto& f = spec::form_info(r.instr.form);
  // A d the spec leaves open (a shuffle reading a lane that is not there) shows as "?".
  const bool open = o.defined(model::Concrete{}, i) && !o.d_defined(model::Concrete{}, i);
  std::string v = f.d_type == spec::ResultType::None ? "ok"
                  : open                             ? "?"
                                                     : model::format_result(o.d[i], f.d_type);
  if (f.optional_p) v += " p=" + std::to_string(o.p[i] ? 1 : 0);
  const uint32_t ub = o.ub_lanes(model::Concrete{});
  if ((ub >> i) & 1u) v += " UB";
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

// The widest operand any evaluation of a state reads (a b64 match beside a b32 one).
spec::ValueSyntax widest_syntax(const WarpGroup& grp) {
  auto syn = model::form_syntax(grp.records.front()->instr.form);
  for (const auto* r : grp.records)
    if (const auto s2 = model::form_syntax(r->instr.form);
        !s2.none && (syn.none || s2.bits > syn.bits))
      syn = s2;
  return syn;
}

// A thread's status in eval's words (executes, exited, inactive), in the table and the JSON alike.
std::string cta_status(const model::Cta& c, std::size_t t) {
  const auto st = c.exited[t]   ? model::LaneStatus::Exited
                  : c.arrive[t] ? model::LaneStatus::Executes
                                : model::LaneStatus::Inactive;
  return std::string(model::status_name(st));
}

std::string status_text(const model::Warp& w, unsigned i) {
  return std::string(model::status_name(model::status(w, i)));
}

}  // namespace

// The model's lane formatter, so that a lane set reads alike in every table and message ("4-5",
// never "4,5" beside it).
std::string lane_list(uint32_t lanes) {
  return model::format_lanes(lanes);
}

std::string instr_text(const spec::Instr& in, bool pre_volta) {
  std::string s(spec::form_info(in.form).name);
  if (in.negate) s += " !a";
  if (in.write_p) s += " d|p";
  if (in.imm_mask) s += " imm=" + model::format_hex(*in.imm_mask, 32);
  if (pre_volta) s += " @sm_6x";
  return s;
}

std::string format_replay(const Env<model::Concrete>& env) {
  std::ostringstream out;
  auto groups = group_warps(env);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto& grp = groups[g];
    const auto& w = grp.state;
    out << "warp state " << g + 1 << ":\n";
    bool sites = false;
    for (unsigned i = 1; i < spec::kWarpSize; ++i) sites = sites || w.site[i] != w.site[0];
    const auto syn = widest_syntax(grp);
    bool bc = false;  // a shuffle reads b and c too
    for (const auto* r : grp.records) bc = bc || spec::has_operands_bc(r->instr.form);
    std::vector<std::string> head{"status", "mask"};
    if (!syn.none) head.push_back("a");
    if (sites) head.push_back("site");
    if (bc) head.insert(head.end(), {"b", "c"});
    for (const auto* r : grp.records)
      head.push_back((r->label == "model" ? "" : r->label + ": ") +
                     instr_text(r->instr, r->pre_volta));
    std::vector<std::vector<std::string>> rows;
    for (unsigned i = 0; i < spec::kWarpSize; ++i) {
      std::vector<std::string> row{status_text(w, i), model::format_hex(w.mask[i], 32)};
      if (!syn.none) row.push_back(model::format_operand(w.a[i], syn));
      if (sites) row.push_back(std::to_string(w.site[i]));
      if (bc) {
        // An immediate b or c in the instruction is what the lane reads.
        const auto& in = grp.records.front()->instr;
        row.push_back(std::to_string(spec::operand_b(model::Concrete{}, in, w, i)));
        row.push_back(model::format_hex(spec::operand_c(model::Concrete{}, in, w, i), 32));
      }
      for (const auto* r : grp.records) row.push_back(cell(*r, i));
      rows.push_back(std::move(row));
    }
    out << model::table(head, rows, "lane");
    for (std::size_t k = 0; k < grp.records.size(); ++k)
      for (const auto& t : grp.records[k]->outcome.ub)
        if (t.lanes)
          out << "  " << head[head.size() - grp.records.size() + k] << ": "
              << spec::clause_info(t.clause).key << " fires on lanes " << lane_list(t.lanes)
              << "\n";
  }
  std::vector<const CtaRecord*> seen;
  for (const auto& r : env.cta_records) {
    bool printed = false;
    for (const auto* s : seen) printed = printed || same_cta(s->state, r.state);
    if (printed) continue;
    seen.push_back(&r);
    const auto& c = r.state;
    std::vector<const CtaRecord*> evals;
    for (const auto& q : env.cta_records)
      if (same_cta(q.state, c)) evals.push_back(&q);
    std::vector<spec::Instr> ins;
    for (const auto* q : evals) ins.push_back(q->instr);
    const model::CtaOperandColumns operands(c, ins);
    std::vector<std::string> head{"status", "pred"};
    operands.add_head(head);
    const std::size_t state_columns = head.size();
    for (const auto* q : evals)
      head.push_back((q->label == "model" ? "" : q->label + ": ") + instr_text(q->instr));
    std::vector<std::vector<std::string>> rows;
    for (std::size_t t = 0; t < c.arrive.size(); ++t) {
      std::vector<std::string> row{cta_status(c, t),
                                   std::to_string(static_cast<int32_t>(c.pred[t]))};
      operands.add_cells(c, t, row);
      for (const auto* q : evals) {
        const auto& f = spec::form_info(q->instr.form);
        std::string v = !q->outcome.executes[t] ? "-"
                        : f.d_type == spec::ResultType::None
                            ? "ok"
                            : model::format_result(q->outcome.d[t], f.d_type);
        if (q->outcome.executes[t] && !q->outcome.defined(t)) v += " UB";
        row.push_back(v);
      }
      rows.push_back(std::move(row));
    }
    out << "block state (" << c.arrive.size() << " threads):\n"
        << model::table(head, rows, "thread");
    for (std::size_t k = 0; k < evals.size(); ++k)
      for (const auto& f : model::cta_findings(evals[k]->outcome))
        out << "  " << head[state_columns + k] << ": " << spec::clause_info(f.clause).key
            << " fires\n";
  }
  return out.str();
}

nlohmann::json replay_json(const Env<model::Concrete>& env) {
  nlohmann::json warps = nlohmann::json::array();
  for (const auto& grp : group_warps(env)) {
    // Values as eval --json writes them: a predicate as a boolean, every other operand as hex of
    // the widest width its evaluations read, never a predicate as sixteen hex digits.
    const auto syn = widest_syntax(grp);
    auto operand = [&](uint64_t a) {
      return syn.is_pred ? nlohmann::json(a != 0)
                         : nlohmann::json(model::format_hex(a, syn.bits == 64 ? 64 : 32));
    };
    nlohmann::json lanes = nlohmann::json::array();
    for (unsigned i = 0; i < spec::kWarpSize; ++i)
      lanes.push_back({{"lane", i},
                       {"status", status_text(grp.state, i)},
                       {"mask", model::format_hex(grp.state.mask[i], 32)},
                       {"a", operand(grp.state.a[i])},
                       {"site", grp.state.site[i]},
                       {"b", model::format_hex(grp.state.b[i], 32)},
                       {"c", model::format_hex(grp.state.c[i], 32)}});
    nlohmann::json evals = nlohmann::json::array();
    for (const auto* r : grp.records) {
      nlohmann::json d = nlohmann::json::array(), p = nlohmann::json::array(),
                     ex = nlohmann::json::array(), ub = nlohmann::json::object();
      const bool pred_d = spec::form_info(r->instr.form).d_type == spec::ResultType::Pred;
      for (unsigned i = 0; i < spec::kWarpSize; ++i) {
        d.push_back(pred_d ? nlohmann::json(r->outcome.d[i] != 0)
                           : nlohmann::json(model::format_hex(r->outcome.d[i], 32)));
        p.push_back(r->outcome.p[i]);
        ex.push_back(r->outcome.executes[i]);
      }
      for (const auto& t : r->outcome.ub)
        ub[std::string(spec::clause_info(t.clause).key)] = model::format_hex(t.lanes, 32);
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
                         {"status", cta_status(r.state, t)},
                         {"pred", r.state.pred[t]},
                         {"bar", r.state.bar[t]},
                         {"count", r.state.count[t]},
                         {"partner", static_cast<bool>(r.state.partner[t])}});
    blocks.push_back({{"by", r.label},
                      {"instr", instr_text(r.instr)},
                      {"threads", threads},
                      {"d", r.outcome.d},
                      {"ub", r.outcome.any_ub}});
  }
  return {{"warps", warps}, {"blocks", blocks}};
}

}  // namespace warpspec::checker
