// warpspec explain: one form's syntax, availability, intrinsics and clauses.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/common.hpp"
#include "spec/catalog.hpp"
#if WARPSPEC_HAVE_PROGRAMS
#include "programs/machine.hpp"
#endif

namespace warpspec::cli {
namespace {

// Accepts a canonical form name, a full instruction, or an intrinsic name.
spec::FormId resolve_form(const std::string& text) {
  if (auto f = spec::find_form(text)) return *f;
  for (const auto& i : spec::all_intrinsics())
    if (i.name == text) return i.form;
  return parse_or_fail(text, "form").instr.form;
}

// A clause id, from the catalog or a program clause of `warpspec run`: what it says and where
// it comes from. False when `text` is no clause id.
bool explain_clause(const std::string& text, bool json) {
  if (auto id = spec::find_clause(text)) {
    const auto& c = spec::clause_info(*id);
    if (json) {
      std::cout << nlohmann::json{{"schema", "warpspec-clause/1"},
                                  {"id", c.key},
                                  {"kind", spec::clause_kind_name(c.kind)},
                                  {"text", c.text},
                                  {"source", c.source},
                                  {"forms", forms_with(*id)}}
                       .dump(2)
                << "\n";
    } else {
      std::cout << c.key << " (" << spec::clause_kind_name(c.kind) << ")\n  " << c.text
                << "\n  source: " << c.source << "\n  forms:  " << forms_with(*id) << "\n";
    }
    return true;
  }
#if WARPSPEC_HAVE_PROGRAMS
  if (auto pc = programs::find_program_clause(text)) {
    const bool ub = programs::is_undefined(text);
    if (json) {
      std::cout << nlohmann::json{{"schema", "warpspec-clause/1"},
                                  {"id", text},
                                  {"kind", ub ? "undefined" : "finding"},
                                  {"text", programs::clause_text(*pc)},
                                  {"source", "warpspec run (docs/programs.md)"}}
                       .dump(2)
                << "\n";
    } else {
      std::cout << text << " (" << (ub ? "undefined behaviour" : "a finding, not undefined")
                << ", whole kernels: warpspec run)\n  " << programs::clause_text(*pc)
                << "\n  see docs/programs.md, Program clauses\n";
    }
    return true;
  }
#endif
  return false;
}

int run_explain(const std::string& text, const std::string& target_text,
                const std::string& ptx_text, bool json) {
  if (text.empty())
    throw Failure{kExitUsage, "give a form, e.g. warpspec explain match.all.sync.b64"};
  if (explain_clause(text, json)) return kExitOk;
  const auto& f = spec::form_info(resolve_form(text));
  const auto target = target_or_fail(target_text, spec::kDefaultTarget);
  const auto ptx = ptx_or_fail(ptx_text, spec::kLatestPtx);
  const auto verdict = spec::check_availability(f.avail, target, ptx);
  if (json) {
    nlohmann::json j{{"schema", "warpspec-explain/1"},
                     {"form", f.name},
                     {"syntax", std::string(f.name) + " " + std::string(f.syntax) + ";"},
                     {"family", spec::family_name(f.family)},
                     {"operand", spec::operand_type_name(f.a_type)},
                     {"result", spec::result_type_name(f.d_type)},
                     {"requires", spec::describe(f.avail)},
                     {"target", spec::to_string(target)},
                     {"ptx", spec::to_string(ptx)},
                     {"available", verdict.available}};
    if (!verdict.available) j["availability_reason"] = verdict.reason;
    auto intr = nlohmann::json::array();
    for (const auto& i : spec::all_intrinsics())
      if (i.form == f.id) intr.push_back(i.signature);
    j["intrinsics"] = intr;
    auto cl = nlohmann::json::array();
    for (auto id : f.clauses) {
      const auto& c = spec::clause_info(id);
      cl.push_back({{"id", c.key},
                    {"kind", spec::clause_kind_name(c.kind)},
                    {"text", c.text},
                    {"source", c.source}});
    }
    j["clauses"] = cl;
    std::cout << j.dump(2) << "\n";
    return kExitOk;
  }
  std::cout << f.name << " " << f.syntax << ";\n"
            << "  family:    " << spec::family_name(f.family) << "\n"
            << "  operand:   " << spec::operand_type_name(f.a_type)
            << (f.negatable ? " (may be negated with !)" : "") << "\n"
            << "  result:    " << spec::result_type_name(f.d_type)
            << (!f.optional_p                    ? ""
                : f.family == spec::Family::Shfl ? ", optional predicate p (d|p; '_' may replace p)"
                : f.family == spec::Family::Elect
                    ? " (the leader's lane number) and predicate p (d|p; '_' may replace d)"
                    : ", optional predicate p; '_' may replace d or p")
            << "\n"
            << "  requires:  " << spec::describe(f.avail) << "\n"
            << "  on " << spec::to_string(target) << " with PTX ISA " << spec::to_string(ptx)
            << ": " << (verdict.available ? "available" : "NOT available (" + verdict.reason + ")")
            << "\n";
  bool any = false;
  for (const auto& i : spec::all_intrinsics())
    if (i.form == f.id) {
      std::cout << (any ? "             " : "  intrinsics: ") << i.signature << "\n";
      any = true;
    }
  std::cout << "Clauses:\n";
  for (auto id : f.clauses) {
    const auto& c = spec::clause_info(id);
    // [UB]: the instruction is undefined; [d?]: d alone is left open, the rest stays defined.
    std::cout << "  "
              << (c.kind == spec::ClauseKind::Undefined        ? "[UB] "
                  : c.kind == spec::ClauseKind::UndefinedValue ? "[d?] "
                                                               : "     ")
              << c.key << "\n"
              << "        " << c.text << "\n        source: " << c.source << "\n";
  }
  return kExitOk;
}

const bool explain_registered = add_command(
    {"explain", "Show a form's syntax, availability, intrinsics and clauses", 15,
     [](CLI::App& sub) {
       auto form = std::make_shared<std::string>();
       auto target = std::make_shared<std::string>();
       auto ptx = std::make_shared<std::string>();
       auto json = std::make_shared<bool>(false);
       sub.add_option(
              "form", *form,
              "A form (match.all.sync.b64), an intrinsic (__ballot_sync), a whole instruction, or "
              "a clause id (shfl.ub.peer_absent, program.data_race)")
           ->required();
       sub.add_option("--target", *target,
                      "Say whether the form is available on this target (default sm_90)");
       sub.add_option("--ptx", *ptx, "PTX ISA version for the availability verdict (default 8.8)");
       sub.add_flag("--json", *json, "Print JSON for programs");
       sub.footer(
           "Exit codes: 0 explained (a form the target lacks included: the text says NOT "
           "available), 64 usage (no such form, intrinsic or clause; a malformed --target or "
           "--ptx).");
       return [=] { return run_explain(*form, *target, *ptx, *json); };
     }});

}  // namespace
}  // namespace warpspec::cli
