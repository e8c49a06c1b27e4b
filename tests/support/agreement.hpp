#pragma once
// Whether a second implementation agrees with the model, in Alive2's order: first the same
// undefined behaviour (clause and lanes), then the same executing lanes and the same lanes whose
// d alone is undefined (clause and lanes), then the same values on the lanes whose result is
// defined (d only where it is not left undefined). Values on other lanes are free.
#include <sstream>
#include <string>

#include "model/eval.hpp"
#include "model/render.hpp"

namespace warpspec::test {

/// Empty when `other` agrees with the reference `ref`; otherwise the first difference, in words.
inline std::string disagreement(const model::WarpResult& ref, const model::WarpResult& other) {
  std::ostringstream os;
  if (ref.availability.available != other.availability.available ||
      ref.availability.reason != other.availability.reason)
    return "availability differs: '" + ref.availability.reason + "' vs '" +
           other.availability.reason + "'";
  for (std::size_t k = 0; k < std::max(ref.ub.size(), other.ub.size()); ++k) {
    auto show = [](const std::vector<model::UbFinding>& ub, std::size_t k) {
      return k < ub.size() ? std::string(spec::clause_info(ub[k].clause).key) + " on lanes " +
                                 model::format_lanes(ub[k].lanes)
                           : std::string("nothing");
    };
    if (k >= ref.ub.size() || k >= other.ub.size() || ref.ub[k].clause != other.ub[k].clause ||
        ref.ub[k].lanes != other.ub[k].lanes)
      return "UB finding " + std::to_string(k) + ": model says " + show(ref.ub, k) +
             ", the other says " + show(other.ub, k);
  }
  const auto loose = [](const model::WarpResult& r) {
    std::string s;
    for (const auto& t : r.outcome.loose_d)
      s += std::string(spec::clause_info(t.clause).key) + " on lanes " +
           model::format_lanes(t.lanes) + "; ";
    return s;
  };
  if (loose(ref) != loose(other))
    return "undefined d: model says " + loose(ref) + "the other says " + loose(other);
  const bool has_p = spec::form_info(ref.instr.form).optional_p;
  for (unsigned i = 0; i < spec::kWarpSize; ++i) {
    if (ref.outcome.executes[i] != other.outcome.executes[i])
      os << "lane " << i << ": executes " << ref.outcome.executes[i] << " vs "
         << other.outcome.executes[i] << "\n";
    else if (ref.d_defined(i) && (ref.outcome.d[i] != other.outcome.d[i] ||
                                  ref.outcome.d_hi.size() != other.outcome.d_hi.size() ||
                                  ref.d_value(i) != other.d_value(i)))
      os << "lane " << i << ": d = 0x" << std::hex << ref.d_value(i) << " (model) vs 0x"
         << other.d_value(i) << std::dec
         << (other.outcome.d_hi.size() != ref.outcome.d_hi.size()
                 ? " (one of them has no high word)"
                 : "")
         << "\n";
    else if (ref.defined(i) && has_p && ref.outcome.p[i] != other.outcome.p[i])
      os << "lane " << i << ": p = " << ref.outcome.p[i] << " (model) vs " << other.outcome.p[i]
         << "\n";
  }
  return os.str();
}

/// Same for block barriers: the UB finding and, when defined, the value every thread receives.
inline std::string disagreement(const model::CtaResult& ref, const model::CtaResult& other) {
  if (ref.availability.available != other.availability.available ||
      ref.availability.reason != other.availability.reason)
    return "availability differs";
  bool same_ub = ref.ub.size() == other.ub.size();
  for (std::size_t k = 0; same_ub && k < ref.ub.size(); ++k)
    same_ub = ref.ub[k].clause == other.ub[k].clause && ref.ub[k].threads == other.ub[k].threads;
  if (!same_ub)
    return "UB findings differ: " + model::findings_text(ref) + " vs " +
           model::findings_text(other);
  if (ref.outcome.executes != other.outcome.executes) return "arriving threads differ";
  for (std::size_t t = 0; !ref.outcome.any_ub && t < ref.outcome.d.size(); ++t)
    if (ref.outcome.executes[t] && ref.outcome.d[t] != other.outcome.d[t])
      return "thread " + std::to_string(t) + ": d = " + std::to_string(ref.outcome.d[t]) +
             " (model) vs " + std::to_string(other.outcome.d[t]);
  return {};
}

}  // namespace warpspec::test
