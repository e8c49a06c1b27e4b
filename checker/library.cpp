#include "checker/library.hpp"

#include "checker/laws.hpp"

namespace warpspec::checker {

namespace laws {

std::vector<FormId> forms_of(spec::Family f) {
  std::vector<FormId> r;
  for (const auto& info : spec::kForms)
    if (info.family == f) r.push_back(info.id);
  return r;
}

std::vector<FormId> warp_forms() {
  std::vector<FormId> r;
  for (const auto& info : spec::kForms)
    if (spec::is_warp_form(info.id)) r.push_back(info.id);
  return r;
}

}  // namespace laws

std::vector<Property> law_library(std::shared_ptr<const Implementation> subject) {
  std::vector<Property> lib;
  laws::add_vote_laws(lib, subject);
  laws::add_redux_laws(lib, subject);
  laws::add_match_laws(lib, subject);
  laws::add_ub_laws(lib, subject);
  laws::add_cta_laws(lib, subject);
  return lib;
}

std::vector<Property> property_library() {
  auto lib = law_library();
  if (auto fast = fast_implementation()) {
    auto eq = equivalence_library(fast);
    lib.insert(lib.end(), eq.begin(), eq.end());
  }
  return lib;
}

const Property* find_property(const std::vector<Property>& lib, std::string_view name) {
  for (const auto& p : lib)
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace warpspec::checker
