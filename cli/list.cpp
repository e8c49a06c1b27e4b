// warpspec list: the catalog's forms, optionally only those available on a target.
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.hpp"
#include "spec/catalog.hpp"

namespace warpspec::cli {
namespace {

int run_list(const std::string& target_text, const std::string& ptx_text, bool json) {
  std::optional<spec::Target> target;
  std::optional<spec::PtxVersion> ptx;
  if (!target_text.empty() && !(target = spec::parse_target(target_text)))
    throw Failure{kExitUsage, "--target '" + target_text + "': expected sm_XX, sm_XXa or sm_XXf"};
  if (!ptx_text.empty() && !(ptx = spec::parse_ptx(ptx_text)))
    throw Failure{kExitUsage, "--ptx '" + ptx_text + "': expected a version such as 8.6"};
  const auto t = target.value_or(spec::kDefaultTarget);
  const auto v = ptx.value_or(spec::kLatestPtx);
  const bool filter = target || ptx;
  nlohmann::json out = nlohmann::json::array();
  for (const auto& f : spec::kForms) {
    const auto verdict = spec::check_availability(f.avail, t, v);
    if (filter && !verdict.available) continue;
    if (json) {
      nlohmann::json intr = nlohmann::json::array();
      for (const auto& i : spec::all_intrinsics())
        if (i.form == f.id) intr.push_back(i.signature);
      out.push_back({{"form", f.name},
                     {"syntax", std::string(f.name) + " " + std::string(f.syntax) + ";"},
                     {"family", spec::family_name(f.family)},
                     {"operand", spec::operand_type_name(f.a_type)},
                     {"result", spec::result_type_name(f.d_type)},
                     {"requires", spec::describe(f.avail)},
                     {"min_ptx", spec::to_string(f.avail.ptx)},
                     {"intrinsics", intr}});
    } else {
      std::cout << std::left << std::setw(28) << f.name << " " << std::setw(26)
                << (std::string(f.syntax)) << " " << spec::describe(f.avail) << "\n";
    }
  }
  if (json) {
    nlohmann::json doc{{"schema", "warpspec-list/1"}, {"forms", out}};
    // Only when given: the forms were then filtered for that target and PTX version.
    if (target) doc["target"] = spec::to_string(t);
    if (ptx) doc["ptx"] = spec::to_string(v);
    std::cout << doc.dump(2) << "\n";
  }
  return kExitOk;
}

const bool list_registered = add_command(
    {"list", "List the instruction forms in the catalog", 10, [](CLI::App& sub) {
       auto target = std::make_shared<std::string>();
       auto ptx = std::make_shared<std::string>();
       auto json = std::make_shared<bool>(false);
       sub.add_option("--target", *target,
                      "Keep only forms available on this target (sm_80, sm_90a, sm_100f)");
       sub.add_option("--ptx", *ptx,
                      "Keep only forms available with this PTX ISA version (e.g. 7.0)");
       sub.add_flag("--json", *json, "Print JSON for programs");
       sub.footer("Exit codes: 0 listed, 64 usage (a malformed --target or --ptx).");
       return [=] { return run_list(*target, *ptx, *json); };
     }});

}  // namespace
}  // namespace warpspec::cli
