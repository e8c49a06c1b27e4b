#pragma once
// The property library: named laws over the semantics, and per-form equivalence of another
// implementation with the model, generated from the catalog.
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "checker/property.hpp"

namespace warpspec::checker {

/// Every law, with `subject` as the implementation its bodies evaluate (the model by default;
/// tests plant deliberately wrong ones).
std::vector<Property> law_library(
    std::shared_ptr<const Implementation> subject = model_implementation());

/// One property per catalog form: `candidate` agrees with the model in Alive2's order: the same
/// lanes for every UB clause, the same executing lanes, and the same values on defined lanes.
std::vector<Property> equivalence_library(std::shared_ptr<const Implementation> candidate);

/// Facts about the fast implementation's own shortcuts, which its kernels rely on (empty when
/// it is not built).
std::vector<Property> fast_internal_library();

/// The laws, plus the fast implementation's equivalence with the model when it is built.
std::vector<Property> property_library();

/// The laws proved claim by claim without a group query first (`Property::claims_alone`).
std::span<const std::string_view> claims_alone_laws();

/// The property called `name` in `lib`, if any.
const Property* find_property(const std::vector<Property>& lib, std::string_view name);

}  // namespace warpspec::checker
