#pragma once
// Boundary designs aimed at the coverpoints: warp layouts (membermask shapes, exited and inactive
// lanes, call sites) crossed with operand patterns (equal, distinct, signed boundaries, values
// that differ only in the high half, ±0.0, NaN payloads, ...), block sizes crossed with who
// arrives and the predicates passed, and two-round sequences. The generator's cover picks the few
// that reach what the mutant and clause cover left.
#include <vector>

#include "vectors/vector.hpp"

namespace warpspec::vectors {

/// The instructions the coverpoint designs use for a form: those of `instructions_for`, and the
/// negated bar.red forms as well.
std::vector<spec::ParsedInstr> cover_instructions(spec::FormId form);

/// Every coverpoint design for an instruction, each a list of rounds. Deterministic.
std::vector<std::vector<Round>> cover_designs(const spec::ParsedInstr& in);

}  // namespace warpspec::vectors
