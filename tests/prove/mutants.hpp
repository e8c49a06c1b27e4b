#pragma once
// The catalogued mutants (vectors/mutant_semantics.hpp) as implementations read both ways: each
// must be caught by the prover with a counterexample that replays through the concrete reading.
// The mutant's answer replaces the specification's values; a mutant that only reports UB where
// the specification has none is not expressible as an outcome and reads as the specification.
// Compiled once in mutants.cpp: reading every form's semantics and every mutant over both
// domains is most of a test file's compile time.
#include <memory>

#include "checker/implementation.hpp"
#include "vectors/mutants.hpp"

namespace warpspec::checker::mutants {

/// The catalogued mutant `m` as an implementation named by its catalog key.
std::shared_ptr<const Implementation> implementation(vectors::MutantId m);

}  // namespace warpspec::checker::mutants
