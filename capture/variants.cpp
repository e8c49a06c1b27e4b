#include "capture/variants.hpp"

#include <algorithm>

namespace warpspec::capture {

std::optional<VariantId> find_variant(std::string_view name) {
  for (const auto& v : kVariants)
    if (v.name == name) return v.id;
  return std::nullopt;
}

std::vector<spec::FormId> uncovered_forms() {
  std::vector<spec::FormId> out;
  for (const auto& f : spec::kForms)
    if (std::none_of(kVariants.begin(), kVariants.end(),
                     [&](const Variant& v) { return v.form == f.id; }))
      out.push_back(f.id);
  return out;
}

}  // namespace warpspec::capture
