#include "cli/common.hpp"

#include <unistd.h>

#include <algorithm>
#include <functional>
#include <iostream>

#include "model/json_file.hpp"

namespace warpspec::cli {

namespace {

// `place(column)` names where the text's 1-based column `column` lies.
spec::ParsedInstr parse_with_caret(const std::string& text,
                                   const std::function<std::string(std::size_t)>& place, int code) {
  auto r = spec::parse_instruction(text);
  if (auto* p = std::get_if<spec::ParsedInstr>(&r)) return *p;
  const auto& e = std::get<spec::ParseError>(r);
  // Control bytes are shown as '?', one for one, so that the caret still points at the column.
  auto plain = [](std::string s) {
    for (auto& ch : s)
      if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) ch = ch == '\t' ? ' ' : '?';
    return s;
  };
  // A long text is shown as the 80 bytes around the column, so that a huge or hostile input is
  // never echoed whole.
  std::string shown = plain(text);
  std::size_t caret = e.column - 1;
  constexpr std::size_t kSide = 40;
  if (shown.size() > 2 * kSide + 20) {
    // Cut between characters, never inside a multi-byte one.
    auto continuation = [&](std::size_t k) {
      return k < shown.size() && (static_cast<unsigned char>(shown[k]) & 0xc0u) == 0x80u;
    };
    std::size_t from = caret > kSide ? caret - kSide : 0;
    while (from > 0 && continuation(from)) --from;
    std::size_t to = std::min(shown.size(), from + 2 * kSide);
    while (continuation(to)) ++to;
    shown = (from ? "..." : "") + shown.substr(from, to - from) + (to < shown.size() ? "..." : "");
    caret = caret - from + (from ? 3 : 0);
  }
  throw Failure{code, place(e.column) + ": " + plain(e.message) + "\n  " + shown + "\n  " +
                          std::string(caret, ' ') + "^"};
}

}  // namespace

spec::ParsedInstr parse_or_fail(const std::string& text, const std::string& origin) {
  return parse_with_caret(
      text, [&](std::size_t column) { return origin + ":1:" + std::to_string(column); },
      kExitUsage);
}

spec::ParsedInstr parse_or_fail(const model::JsonState& js) {
  return parse_with_caret(
      *js.instruction,
      [&](std::size_t column) {
        return js.doc->place_in_string("instruction", *js.instruction, column - 1) +
               ": instruction";
      },
      kExitDataError);
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

uint64_t number_or_fail(const std::string& text, const std::string& what) {
  try {
    std::size_t used = 0;
    const bool negative = !text.empty() && text[0] == '-';
    const uint64_t v =
        negative ? static_cast<uint64_t>(std::stoll(text, &used, 0)) : std::stoull(text, &used, 0);
    if (used == text.size() && !text.empty() && text[0] != '+') return v;
  } catch (const std::exception&) {
  }
  throw Failure{kExitUsage, what + ": '" + text + "' is not a number (decimal or 0x hex)"};
}

std::string forms_with(spec::ClauseId id) {
  std::vector<std::string_view> names;
  for (const auto& f : spec::kForms)
    for (auto c : f.clauses)
      if (c == id) names.push_back(f.name);
  std::string out;
  for (std::size_t k = 0; k < names.size(); ++k)
    out += std::string(k == 0 ? "" : k + 1 == names.size() ? " or " : ", ") + std::string(names[k]);
  return out;
}

Progress::Progress() : tty_(isatty(STDERR_FILENO) == 1) {}

Progress::~Progress() {
  clear();
}

void Progress::show(const std::string& text) {
  if (!tty_) return;
  constexpr std::size_t kWidth = 78;
  std::cerr << "\r\033[K"
            << (text.size() > kWidth ? text.substr(0, kWidth - 3) + "..." : text) << std::flush;
  shown_ = true;
}

void Progress::clear() {
  if (!shown_) return;
  std::cerr << "\r\033[K" << std::flush;
  shown_ = false;
}

#ifdef WARPSPEC_HAVE_CHECKER
std::vector<checker::Verdict> prove_with_progress(const std::vector<const checker::Property*>& props,
                                                  const checker::ProveOptions& opt) {
  Progress progress;
  const auto total = std::to_string(props.size());
  progress.show("  proving " + total + " properties on " + std::to_string(opt.jobs) + " workers");
  std::size_t done = 0;
  auto verdicts = checker::prove_all(props, opt, [&](const checker::Verdict& v) {
    progress.show("  " + std::to_string(++done) + " of " + total + " done; " + v.name + ": " +
                  std::string(checker::status_name(v.status)));
  });
  progress.clear();
  return verdicts;
}
#endif

}  // namespace warpspec::cli
