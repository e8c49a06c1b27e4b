#include "spec/target.hpp"

#include <charconv>

namespace warpspec::spec {

namespace {
std::optional<int> parse_int(std::string_view s) {
  int v = 0;
  // Digits only: from_chars would take a sign ("-8.8", "7.-5").
  if (s.empty() || s.size() > 4 || s.find_first_not_of("0123456789") != std::string_view::npos)
    return std::nullopt;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || p != s.data() + s.size()) return std::nullopt;
  return v;
}
}  // namespace

std::optional<Target> parse_target(std::string_view text) {
  if (!text.starts_with("sm_")) return std::nullopt;
  text.remove_prefix(3);
  Target t;
  if (!text.empty() && (text.back() == 'a' || text.back() == 'f')) {
    t.suffix = text.back();
    text.remove_suffix(1);
  }
  auto sm = parse_int(text);
  if (!sm || *sm < 10 || *sm > 999) return std::nullopt;
  t.sm = *sm;
  return t;
}

std::optional<PtxVersion> parse_ptx(std::string_view text) {
  auto dot = text.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  auto ma = parse_int(text.substr(0, dot));
  auto mi = parse_int(text.substr(dot + 1));
  if (!ma || !mi || *mi > 9) return std::nullopt;
  return PtxVersion{*ma, *mi};
}

std::string to_string(Target t) {
  std::string s = "sm_" + std::to_string(t.sm);
  if (t.suffix) s += t.suffix;
  return s;
}

std::string to_string(PtxVersion v) {
  return std::to_string(v.major) + "." + std::to_string(v.minor);
}

std::string describe(const Availability& a) {
  switch (a.rule) {
    case ArchRule::AtLeast:
      return "sm_" + std::to_string(a.min_sm) + "+, PTX ISA " + to_string(a.ptx) + "+";
    case ArchRule::Sm100aOrSm100f:
      return "sm_100a with PTX ISA " + to_string(a.ptx) + "+, or sm_100f with PTX ISA 8.8+";
    case ArchRule::Sm100aOrFamily100f:
      return "sm_100a with PTX ISA " + to_string(a.ptx) +
             "+, or sm_100f and later f targets of that family with PTX ISA 8.8+";
  }
  return {};
}

AvailabilityVerdict check_availability(const Availability& a, Target target, PtxVersion ptx) {
  const std::string need = "needs " + describe(a);
  if (a.rule == ArchRule::AtLeast) {
    if (target.sm < a.min_sm)
      return {false,
              to_string(target) + " is older than sm_" + std::to_string(a.min_sm) + "; " + need};
    if (ptx < a.ptx)
      return {false, "PTX ISA " + to_string(ptx) + " predates " + to_string(a.ptx) + "; " + need};
    return {};
  }
  // The sm_100 arch- and family-specific rules of the .f32 redux forms.
  const bool arch_ok = target.sm == 100 && target.suffix == 'a';
  const bool family_ok =
      target.suffix == 'f' &&
      (a.rule == ArchRule::Sm100aOrSm100f ? target.sm == 100 : target.sm >= 100 && target.sm < 110);
  if (arch_ok && ptx >= a.ptx) return {};
  if (family_ok && ptx >= PtxVersion{8, 8}) return {};
  if (arch_ok || family_ok)
    return {false,
            "PTX ISA " + to_string(ptx) + " is too old for " + to_string(target) + "; " + need};
  return {false, to_string(target) + " does not provide this form; " + need};
}

}  // namespace warpspec::spec
