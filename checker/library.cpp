#include "checker/library.hpp"

#include <algorithm>
#include <string_view>

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

namespace {

// Laws whose claims are proved faster one by one than first as one query per group (see
// `Property::claims_alone`). Chosen by measurement: `warpspec prove --all` with and without
// the group queries, keeping the laws that gained a second or more (42 s of 128 s in all);
// others, fast_eq_model above all, lose as much as 15 s without them. Either way the verdicts
// are the same; only the time differs.
constexpr std::string_view kClaimsAlone[] = {
    "elect.one_leader_per_membermask",
    "elect.ub_free_iff_every_named_lane_runs_it",
    "match.all_is_any_when_any_is_full",
    "match.all_nonzero_iff_live_lanes_agree",
    "match.any_classes_partition_live_lanes",
    "match.any_compares_bit_patterns",
    "match.uniform_across_a_mask",
    "redux.and_within_or",
    "redux.f32_abs_clears_sign",
    "redux.f32_nan_qualifier_moot_without_nans",
    "redux.f32_signed_zeros_order",
    "redux.min_max_of_bits_are_votes",
    "shfl.d_left_open_only_when_reading_an_absent_or_unnamed_lane",
    "shfl.offset_modes_are_idx_of_the_computed_lane",
    "ub.match_free_iff_well_synchronised",
    "ub.redux_free_iff_well_synchronised",
    "ub.shfl_free_iff_well_synchronised",
    "ub.sm6x_divergent_call_sites_fire",
    "ub.syncwarp_free_iff_well_synchronised",
    "ub.vote_free_iff_well_synchronised",
    "vote.ignores_unnamed_lanes",
};

}  // namespace

std::span<const std::string_view> claims_alone_laws() {
  return kClaimsAlone;
}

std::vector<Property> law_library(std::shared_ptr<const Implementation> subject) {
  std::vector<Property> lib;
  laws::add_vote_laws(lib, subject);
  laws::add_redux_laws(lib, subject);
  laws::add_match_laws(lib, subject);
  laws::add_ub_laws(lib, subject);
  laws::add_cta_laws(lib, subject);
  laws::add_activemask_laws(lib, subject);
  laws::add_elect_laws(lib, subject);
  laws::add_shfl_laws(lib, subject);
  for (auto& p : lib)
    p.claims_alone = std::find(std::begin(kClaimsAlone), std::end(kClaimsAlone), p.name) !=
                     std::end(kClaimsAlone);
  return lib;
}

std::vector<Property> property_library() {
  auto lib = law_library();
  if (auto fast = fast_implementation()) {
    auto eq = equivalence_library(fast);
    lib.insert(lib.end(), eq.begin(), eq.end());
    auto internal = fast_internal_library();
    lib.insert(lib.end(), internal.begin(), internal.end());
  }
  return lib;
}

const Property* find_property(const std::vector<Property>& lib, std::string_view name) {
  for (const auto& p : lib)
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace warpspec::checker
