#pragma once
// Counterexamples as people read them: one lane table per warp state a replay evaluated, with a
// column per evaluation, and the same as JSON.
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "checker/property.hpp"

namespace warpspec::checker {

/// `in` as written: the form name plus `!a`, `d|p` and an immediate mask when present.
std::string instr_text(const spec::Instr& in, bool pre_volta = false);

/// Lane tables for every state a concrete replay evaluated (warps first, then blocks).
std::string format_replay(const Env<model::Concrete>& env);

/// The same content as JSON: {"warps": [...], "blocks": [...]}.
nlohmann::json replay_json(const Env<model::Concrete>& env);

/// A lane set as text: "0-3,7" ("none" when empty).
std::string lane_list(uint32_t lanes);

}  // namespace warpspec::checker
