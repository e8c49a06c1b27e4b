// warpspec ub: for one instruction form and a partly fixed state, which UB clauses can fire,
// must fire or cannot; the smallest witness of each, replayed through the model; and when the
// call can be free of UB, the condition for it, checked by Z3.
#ifdef WARPSPEC_HAVE_CHECKER
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "checker/lane_table.hpp"
#include "checker/ub_query.hpp"
#include "cli/common.hpp"
#include "model/eval.hpp"
#include "model/output.hpp"
#include "model/render.hpp"

namespace warpspec::cli {
namespace {

struct UbArgs {
  std::string form, state_file, target, smt2;
  std::string mask, masks, a, sites, exited, inactive, executes, b, c;
  unsigned threads = 64;
  unsigned timeout_ms = 10000;
  bool json = false;
};

/// The forms whose clauses include `id`, as "a, b or c".

/// A catalog form name, or an instruction as `eval` reads it (which may fix an immediate mask).
/// A clause key is refused with the forms to ask about instead, and, for a clause that leaves d
/// alone undefined, with what it is: not undefined behaviour.
spec::ParsedInstr form_or_instruction(const std::string& text) {
  if (auto f = spec::find_form(text)) {
    spec::ParsedInstr p;
    p.instr.form = *f;
    p.text = text;
    return p;
  }
  if (auto c = spec::find_clause(text)) {
    const auto& info = spec::clause_info(*c);
    std::string what = "'" + text + "' is a clause, not a form";
    if (info.kind == spec::ClauseKind::UndefinedValue)
      what +=
          ", and it is not undefined behaviour: it leaves d alone undefined, while p, the "
          "instruction and every other lane stay defined";
    else if (info.kind == spec::ClauseKind::Semantic)
      what += ", and it states a defined result, not undefined behaviour";
    throw Failure{kExitUsage, what + ". Ask about a form that has it (" + forms_with(*c) +
                                  "): warpspec ub answers for each of its clauses"};
  }
  return parse_or_fail(text, "form");
}

/// A 32-bit word.
uint32_t word_or_fail(const std::string& s, const std::string& what) {
  const auto v = number_or_fail(s, what);
  if (v > 0xffffffffu) throw Failure{kExitUsage, what + ": '" + s + "' does not fit in 32 bits"};
  return static_cast<uint32_t>(v);
}

/// Per-lane list in `eval`'s syntax where the item `?` leaves a lane free.
std::vector<std::optional<std::string>> partial_list(const std::string& list, std::size_t n,
                                                     const std::string& what) {
  std::vector<std::optional<std::string>> out(n);
  if (list.empty()) return out;
  auto items = model::expand_list(list, n, what);
  for (std::size_t i = 0; i < n; ++i)
    if (items[i] != "?") out[i] = items[i];
  return out;
}

checker::UbConstraints constraints_from_flags(const spec::ParsedInstr& p, const UbArgs& a) {
  checker::UbConstraints c;
  const bool block = !spec::is_warp_form(p.instr.form);
  const std::size_t n = block ? a.threads : spec::kWarpSize;
  if (block && (a.threads == 0 || a.threads > model::kMaxCtaThreads))
    throw Failure{kExitUsage, "--threads: a block holds 1 to 1024 threads"};
  c.threads = a.threads;
  c.cta_status.assign(block ? n : 0, std::nullopt);
  c.cta_pred.assign(block ? n : 0, std::nullopt);
  auto set_status = [&](const std::string& lanes, model::LaneStatus s, const char* flag) {
    if (lanes.empty()) return;
    auto set = model::parse_lane_set(lanes, n, flag);
    for (std::size_t i = 0; i < n; ++i) {
      if (!set[i]) continue;
      auto& slot = block ? c.cta_status[i] : c.lanes[i].status;
      if (slot && *slot != s)
        throw Failure{kExitUsage, std::string(flag) + ": lane " + std::to_string(i) +
                                      " is already given another status"};
      slot = s;
    }
  };
  set_status(a.executes, model::LaneStatus::Executes, "--executes");
  set_status(a.exited, model::LaneStatus::Exited, "--exited");
  set_status(a.inactive, model::LaneStatus::Inactive, "--inactive");
  if (!a.mask.empty() && !a.masks.empty())
    throw Failure{kExitUsage, "give either --mask or --masks, not both"};
  if (block && (!a.mask.empty() || !a.masks.empty() || !a.sites.empty()))
    throw Failure{kExitUsage, "block barriers take no membermask or call sites"};
  if (!a.mask.empty()) {
    const auto m = number_or_fail(a.mask, "--mask");
    if (m > 0xffffffffu)
      throw Failure{kExitUsage, "--mask " + a.mask + ": a membermask has 32 bits"};
    for (auto& l : c.lanes) l.mask = static_cast<uint32_t>(m);
  }
  if (!spec::has_operands_bc(p.instr.form) && (!a.b.empty() || !a.c.empty()))
    throw Failure{kExitUsage, p.text + " has no operands b and c"};
  if ((p.instr.imm_b && !a.b.empty()) || (p.instr.imm_c && !a.c.empty()))
    throw Failure{kExitUsage,
                  "--b and --c apply to a register operand; the instruction gives this one as an "
                  "immediate"};
  auto masks = partial_list(a.masks, n, "--masks");
  auto sites = partial_list(a.sites, n, "--sites");
  auto values = partial_list(a.a, n, "--a");
  auto bs = partial_list(a.b, n, "--b");
  auto cs = partial_list(a.c, n, "--c");
  const auto syntax = spec::value_syntax(p);
  for (std::size_t i = 0; i < n; ++i) {
    if (masks[i]) c.lanes[i].mask = static_cast<uint32_t>(number_or_fail(*masks[i], "--masks"));
    if (sites[i]) c.lanes[i].site = static_cast<uint32_t>(number_or_fail(*sites[i], "--sites"));
    if (bs[i]) c.lanes[i].b = word_or_fail(*bs[i], "--b");
    if (cs[i]) c.lanes[i].c = word_or_fail(*cs[i], "--c");
    if (values[i]) {
      uint64_t v = 0;
      auto err = spec::parse_value(*values[i], syntax, v);
      if (!err.empty()) throw Failure{kExitUsage, "--a, lane " + std::to_string(i) + ": " + err};
      if (block)
        c.cta_pred[i] = static_cast<uint32_t>(v);
      else
        c.lanes[i].a = v;
    }
  }
  return c;
}

/// Every field of a concrete state fixed.
checker::UbConstraints constraints_from_warp(const model::Warp& w) {
  checker::UbConstraints c;
  for (unsigned i = 0; i < spec::kWarpSize; ++i)
    c.lanes[i] = {model::status(w, i), w.mask[i], w.a[i], w.site[i], w.b[i], w.c[i]};
  return c;
}

checker::UbConstraints constraints_from_cta(const model::Cta& b) {
  checker::UbConstraints c;
  c.threads = static_cast<unsigned>(b.arrive.size());
  for (std::size_t t = 0; t < b.arrive.size(); ++t) {
    c.cta_status.push_back(b.exited[t]   ? model::LaneStatus::Exited
                           : b.arrive[t] ? model::LaneStatus::Executes
                                         : model::LaneStatus::Inactive);
    c.cta_pred.push_back(b.pred[t]);
    c.cta_bar.push_back(b.bar[t]);
    c.cta_count.push_back(b.count[t]);
    c.cta_partner.push_back(b.partner[t]);
  }
  return c;
}

int run_ub(const UbArgs& a) {
  std::optional<model::JsonState> js;
  try {
    if (!a.state_file.empty()) js = model::read_state_file_header(a.state_file);
  } catch (const model::InputError& e) {
    throw as_failure(e);
  }
  const bool from_file = a.form.empty() && js && js->instruction;
  if (a.form.empty() && !from_file)
    throw Failure{kExitUsage, "give the form, e.g. warpspec ub vote.sync.ballot.b32 --exited 3"};
  // An instruction from the state file is placed in the file when it does not parse.
  const std::string& text = from_file ? *js->instruction : a.form;
  const auto p = from_file && !spec::find_form(text) && !spec::find_clause(text)
                     ? parse_or_fail(*js)
                     : form_or_instruction(text);
  const auto target =
      target_or_fail(a.target, js && js->target ? *js->target : spec::kDefaultTarget);
  const bool pre_volta = spec::is_pre_volta(target);

  checker::UbConstraints c;
  try {
    if (js) {
      const bool flags = !a.mask.empty() || !a.masks.empty() || !a.a.empty() || !a.sites.empty() ||
                         !a.exited.empty() || !a.inactive.empty() || !a.executes.empty() ||
                         !a.b.empty() || !a.c.empty();
      if (flags)
        throw Failure{kExitUsage, "give the state either as --state FILE or as flags, not both"};
      c = spec::is_warp_form(p.instr.form) ? constraints_from_warp(model::warp_from_json(*js, p))
                                           : constraints_from_cta(model::cta_from_json(*js, p));
    } else {
      c = constraints_from_flags(p, a);
    }
  } catch (const model::InputError& e) {
    throw as_failure(e);
  }

  checker::UbOptions opt;
  opt.timeout_ms = a.timeout_ms;
  opt.smt2_path = a.smt2;
  checker::UbReport rep;
  try {
    rep = checker::analyse_ub(p.instr, pre_volta, c, opt);
  } catch (const model::OutputError& e) {
    throw Failure{kExitCantCreate, e.what()};
  } catch (const std::runtime_error& e) {
    throw Failure{kExitInternal, e.what()};
  }

  bool unknown = rep.any_ub == checker::Possibility::Unknown;
  for (const auto& cl : rep.clauses)
    unknown = unknown || cl.verdict == checker::Possibility::Unknown;
  for (const auto& cl : rep.undefined_values)
    unknown = unknown || cl.verdict == checker::Possibility::Unknown;

  if (a.json) {
    auto answers = [&](const std::vector<checker::ClauseAnswer>& list) {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& cl : list) {
        const auto& info = spec::clause_info(cl.clause);
        nlohmann::json j{{"clause", info.key},
                         {"kind", spec::clause_kind_name(info.kind)},
                         {"text", info.text},
                         {"verdict", checker::possibility_name(cl.verdict)}};
        if (!cl.reason.empty()) j["reason"] = cl.reason;
        if (cl.witness || cl.cta_witness) {
          j["witness_executing"] = cl.witness_executing;
          j["witness_smallest"] = cl.smallest;
          // The witness as eval --json writes a state (hex masks and operands, the instruction's
          // own membermask, d and defined per lane), from the same writer.
          if (cl.witness) {
            j["fires_on"] = checker::lane_list(cl.fires_on);
            const auto r = model::evaluate(p.instr, *cl.witness, target);
            j["witness"] =
                model::result_json(p, *cl.witness, r, target, spec::kLatestPtx).at("lanes");
          } else {
            const auto r = model::evaluate_cta(p.instr, *cl.cta_witness, target);
            j["witness"] =
                model::result_json(p, *cl.cta_witness, r, target, spec::kLatestPtx).at("threads");
          }
        }
        out.push_back(j);
      }
      return out;
    };
    nlohmann::json out{{"schema", "warpspec-ub/1"},
                       {"form", spec::form_info(p.instr.form).name},
                       {"target", spec::to_string(target)},
                       {"clauses", answers(rep.clauses)}};
    if (spec::has_loose_d(p.instr.form)) out["undefined_values"] = answers(rep.undefined_values);
    out["any_ub"] = checker::possibility_name(rep.any_ub);
    out["ub_free_condition"] = rep.free_condition;
    out["condition_checked"] = rep.condition_checked;
    out["seconds"] = rep.seconds;
    std::cout << out.dump(2) << "\n";
  } else {
    std::printf("%s on %s: UB clauses over the states the constraints allow\n", p.text.c_str(),
                spec::to_string(target).c_str());
    auto summary = [](const checker::ClauseAnswer& cl, const char* fires) {
      std::printf("  %-30s %-7s", std::string(spec::clause_info(cl.clause).key).c_str(),
                  std::string(checker::possibility_name(cl.verdict)).c_str());
      if (cl.witness)
        std::printf("  %s witness: %u executing lane(s), %s lanes %s",
                    cl.smallest ? "smallest" : "a", cl.witness_executing, fires,
                    checker::lane_list(cl.fires_on).c_str());
      if (cl.cta_witness)
        std::printf("  %s witness: %u arriving thread(s)", cl.smallest ? "smallest" : "a",
                    cl.witness_executing);
      if (!cl.reason.empty()) std::printf("  (%s)", cl.reason.c_str());
      std::printf("\n");
    };
    for (const auto& cl : rep.clauses) summary(cl, "fires on");
    if (!rep.undefined_values.empty()) {
      // Asked over UB-free states: the instruction is defined there, d alone is not.
      std::printf(
          "Not UB: d alone undefined (p, the instruction and every other lane stay defined), "
          "over the UB-free states the constraints allow\n");
      for (const auto& cl : rep.undefined_values) summary(cl, "d undefined on");
    }
    auto witnesses = rep.clauses;
    witnesses.insert(witnesses.end(), rep.undefined_values.begin(), rep.undefined_values.end());
    for (const auto& cl : witnesses) {
      if (!cl.witness && !cl.cta_witness) continue;
      std::printf("\nwitness for %s (replayed through the model):\n",
                  std::string(spec::clause_info(cl.clause).key).c_str());
      // The witness as eval shows a state: the same table, merged rows, the instruction's own
      // membermask and value formats, and the UB the model finds on it.
      if (cl.witness) {
        const auto r = model::evaluate(p.instr, *cl.witness, target);
        std::cout << model::lane_table(p.instr, spec::value_syntax(p), *cl.witness, &r)
                  << model::findings_text(r);
      } else {
        const auto r = model::evaluate_cta(p.instr, *cl.cta_witness, target);
        std::cout << model::cta_table(p.instr, *cl.cta_witness, &r) << model::findings_text(r);
      }
    }
    std::printf("\nany UB: %s\n", std::string(checker::possibility_name(rep.any_ub)).c_str());
    if (!rep.free_condition.empty()) {
      std::printf("free of UB exactly when%s:\n",
                  rep.condition_checked ? " (checked by Z3 under the given constraints)" : "");
      for (const auto& line : rep.free_condition) std::printf("  - %s\n", line.c_str());
    } else if (rep.any_ub == checker::Possibility::Must) {
      std::printf("no state the constraints allow is free of UB\n");
    }
    std::printf("answered in %.2f s\n", rep.seconds);
  }
  return unknown ? kExitUnknown : kExitOk;
}

const bool ub_registered = add_command(
    {"ub", "Ask Z3 which UB clauses of a form can fire on a partly fixed state", 65,
     [](CLI::App& sub) {
       auto a = std::make_shared<UbArgs>();
       sub.add_option("form", a->form,
                      "A form (vote.sync.ballot.b32) or an instruction as eval reads it");
       sub.add_option("--mask", a->mask, "Fix every lane's membermask");
       sub.add_option("--masks", a->masks,
                      "Fix per-lane membermasks, eval's list syntax; '?' leaves a lane free "
                      "('0xff*8,?*')");
       sub.add_option("--a", a->a,
                      "Fix per-lane operands (predicates for the block barriers); '?' is free");
       sub.add_option("--sites", a->sites, "Fix per-lane call sites; '?' is free");
       sub.add_option("--b", a->b, "Shuffles: fix per-lane b when it is a register; '?' is free");
       sub.add_option("--c", a->c, "Shuffles: fix per-lane c when it is a register; '?' is free");
       sub.add_option("--executes", a->executes, "Lanes (threads) fixed as executing (arriving)");
       sub.add_option("--exited", a->exited, "Lanes (threads) fixed as exited");
       sub.add_option("--inactive", a->inactive, "Lanes (threads) fixed as alive but elsewhere");
       sub.add_option("--threads", a->threads, "Block size for the block barriers (default 64)");
       sub.add_option("--state", a->state_file, "Fix the whole state from a JSON state file")
           ->check(kPath);
       sub.add_option("--target", a->target, "Target (sm_6x selects the convergence rules)");
       sub.add_option("--timeout-ms", a->timeout_ms, "Time limit per solver check (default 10000)");
       sub.add_option("--smt2", a->smt2, "Write the query 'can any UB fire' in SMT-LIB 2 to FILE")
           ->check(kPath);
       sub.add_flag("--json", a->json, "Print JSON for programs");
       sub.footer(
           "Lanes not fixed range over every status, mask, operand and call site. A clause that "
           "leaves d alone undefined (shfl.source_undefined) is not UB: it is answered apart, "
           "over the UB-free states. Exit codes: 0 answered, 2 some answer unknown, 64 usage, "
           "70 a witness that does not replay (a bug), 73 cannot write.");
       return [a] { return run_ub(*a); };
     }});

}  // namespace
}  // namespace warpspec::cli
#endif  // WARPSPEC_HAVE_CHECKER
