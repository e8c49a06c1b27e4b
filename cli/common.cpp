#include "cli/common.hpp"

namespace warpspec::cli {

spec::ParsedInstr parse_or_fail(const std::string& text, const std::string& origin) {
  auto r = spec::parse_instruction(text);
  if (auto* p = std::get_if<spec::ParsedInstr>(&r)) return *p;
  const auto& e = std::get<spec::ParseError>(r);
  std::string shown = text;
  for (auto& ch : shown)
    if (ch == '\n' || ch == '\t') ch = ' ';
  throw Failure{kExitUsage, origin + ":1:" + std::to_string(e.column) + ": " + e.message + "\n  " +
                                shown + "\n  " + std::string(e.column - 1, ' ') + "^"};
}

spec::Target target_or_fail(const std::string& text, spec::Target fallback) {
  if (text.empty()) return fallback;
  auto t = spec::parse_target(text);
  if (!t)
    throw Failure{kExitUsage,
                  "--target '" + text + "': expected sm_XX, sm_XXa or sm_XXf (e.g. sm_90)"};
  return *t;
}

spec::PtxVersion ptx_or_fail(const std::string& text, spec::PtxVersion fallback) {
  if (text.empty()) return fallback;
  auto v = spec::parse_ptx(text);
  if (!v) throw Failure{kExitUsage, "--ptx '" + text + "': expected a PTX ISA version such as 8.6"};
  return *v;
}

Failure as_failure(const model::InputError& e) {
  return Failure{e.data() ? kExitDataError : kExitUsage, e.what()};
}

}  // namespace warpspec::cli
