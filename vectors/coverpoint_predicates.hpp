#pragma once
// The coverpoints' predicates (vectors/coverpoints.hpp): a vector's rounds are read once (who
// executes, who has exited, each lane's membermask and participants, the distinct participant
// sets) and each coverpoint is a question about those facts and the model's answers.
#include <span>
#include <vector>

#include "vectors/coverpoints.hpp"

namespace warpspec::vectors::detail {

/// The coverpoints of `ids` that hold on `v`, in the order of `ids`: those that name a defined
/// situation only on a vector without UB, the UB ones only on a UB vector. Scope is not checked.
std::vector<CoverpointId> holding(const Vector& v, const std::vector<Expected>& e,
                                  spec::Target target, spec::PtxVersion ptx,
                                  std::span<const CoverpointId> ids);

}  // namespace warpspec::vectors::detail
