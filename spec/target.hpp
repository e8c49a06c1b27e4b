#pragma once
// Targets (sm_XX with the a/f suffixes), PTX ISA versions, and when a form is available.
// Availability is a verdict of its own: a form missing on a target is not undefined behaviour.
#include <compare>
#include <optional>
#include <string>
#include <string_view>

namespace warpspec::spec {

/// A PTX ISA version such as 8.6.
struct PtxVersion {
  int major = 0;
  int minor = 0;
  auto operator<=>(const PtxVersion&) const = default;
};

/// A compilation target: `sm_90`, `sm_90a` (arch-specific) or `sm_100f` (family-specific).
struct Target {
  int sm = 90;
  char suffix = 0;  ///< 0, 'a' or 'f'
  bool operator==(const Target&) const = default;
};

/// How a form's minimum target is read.
enum class ArchRule : unsigned char {
  AtLeast,            ///< any target with sm >= min_sm
  Sm100aOrSm100f,     ///< sm_100a from the form's PTX version; sm_100f from PTX 8.8
  Sm100aOrFamily100f  ///< sm_100a from the form's PTX version; sm_10Xf (X >= 0) from PTX 8.8
};

/// When a form may be used: PTX version that introduced it and the target rule.
struct Availability {
  PtxVersion ptx{};
  int min_sm = 0;
  ArchRule rule = ArchRule::AtLeast;
};

/// The answer to "can this form be used here?", with a reason when it cannot.
struct AvailabilityVerdict {
  bool available = true;
  std::string reason;  ///< empty when available
};

/// The newest PTX ISA version the catalog knows about; the default for evaluation.
inline constexpr PtxVersion kLatestPtx{8, 8};
/// The default target: the H100 (sm_90).
inline constexpr Target kDefaultTarget{90, 0};

/// Parses `sm_90`, `sm_90a`, `sm_100f`; nullopt when malformed.
std::optional<Target> parse_target(std::string_view text);
/// Parses `8.6`; nullopt when malformed.
std::optional<PtxVersion> parse_ptx(std::string_view text);
/// `sm_90a`
std::string to_string(Target t);
/// `8.6`
std::string to_string(PtxVersion v);
/// A human description of the requirement, e.g. "sm_80+, PTX ISA 7.0+".
std::string describe(const Availability& a);
/// Whether a form with requirement `a` can be used on `target` with PTX ISA `ptx`.
AvailabilityVerdict check_availability(const Availability& a, Target target, PtxVersion ptx);
/// True for sm_6x and older, where the warp-synchronous convergence rules apply.
constexpr bool is_pre_volta(Target t) {
  return t.sm < 70;
}

}  // namespace warpspec::spec
