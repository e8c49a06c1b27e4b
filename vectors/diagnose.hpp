#pragma once
// Diagnosis of an implementation's failures on one form, from what it answered on every vector of
// that form: which catalogued bug (mutant) it is, if exactly one explains every answer, and which
// clause its wrong values break, found by asking which clause's altered reading of the state
// reproduces the observed values.
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "vectors/mutants.hpp"
#include "vectors/vector.hpp"

namespace warpspec::vectors {

/// One vector with the specification's and the implementation's answers.
struct Answered {
  Vector vector;
  std::vector<Expected> expect;
  std::vector<Observed> observed;
};

/// A way of reading the state with one clause's rule changed (say, "lane 31 left out" for the
/// participants clause): if it reproduces an implementation's values, that clause is the one
/// the implementation breaks.
struct Reading {
  spec::ClauseId clause;
  std::string text;  ///< what the reading changes, in words
};

/// One clause charged with failures, and the reading that shows it.
struct ClauseCharge {
  spec::ClauseId clause;
  std::string reading;     ///< the reading that reproduces the failing values ("" by elimination)
  uint64_t explained = 0;  ///< failing lane results it reproduces
  bool exact = false;      ///< it reproduces every answer of the form, failing and passing
  /// Why the clause is charged when no reading shows it: where the failures fall ("" when a
  /// reading or elimination decided).
  std::string because;
};

/// What the other forms of the same family show, for evidence one form alone is too thin for
/// (a bug that fails one vector on each of three vote forms is seen three times, not once).
struct FamilyEvidence {
  /// Readings that name one lane and reproduce every answer of another form of the family.
  std::set<std::string> lane_readings;
  /// Across the family's negatable forms: two or more vectors fail, every one negated, and two or
  /// more without `!` pass.
  bool fails_only_negated = false;
};

/// What the answers of one form show.
struct Diagnosis {
  /// Catalogued mutants that reproduce every answer of the form (a refusal, a hang or a UB
  /// report, counting as one answer). One is named only when it is alone.
  std::vector<MutantId> mutants;
  /// The clauses charged: one for a single bug, two when two bugs combine. Empty when the form
  /// fails only by hanging or giving no result.
  std::vector<ClauseCharge> clauses;
  uint64_t failing = 0;      ///< failing lane results (wrong values on defined lanes)
  uint64_t unexplained = 0;  ///< of them, those no reading reproduces
  /// Readings that name one lane and reproduce every answer of the form, however few failed.
  std::vector<std::string> exact_lane_readings;
  /// When one catalogued mutant reproduces every answer: readings that do so as well but are
  /// another bug (they answer otherwise than the mutant on some state). Then the file cannot tell
  /// the two apart, and the mutant is not named.
  std::vector<std::string> also_explained_by;
  /// True when exactly one catalogued mutant, and nothing else known, reproduces every answer.
  bool named() const { return mutants.size() == 1 && also_explained_by.empty(); }
};

/// Diagnoses the answers of one form (every vector of it in a file, in file order), with what
/// the family's other forms show.
Diagnosis diagnose(const std::vector<Answered>& answers, spec::Target target, spec::PtxVersion ptx,
                   const FamilyEvidence& family = {});

/// Some lane that takes part in round `k` of a match vector holds a NaN bit pattern (of float
/// for .b32, of double for .b64); `e` is the specification's answer for that round.
bool nan_takes_part(const Vector& v, std::size_t k, const Expected& e);

/// The clause readings that apply to an instruction (exposed for tests).
std::vector<Reading> readings_for(const spec::ParsedInstr& in);

/// What the reading `r` (an index into readings_for) gives on `v`, per round and lane.
std::vector<Observed> read_with(std::size_t r, const Vector& v, const std::vector<Expected>& e,
                                spec::Target target, spec::PtxVersion ptx);

/// True when a mutant's (or a reading's) answer is the observed one on every round and defined
/// lane of `e` where the observation has a result: the same values (d where `e` pins it), and a
/// refusal (hang or UB report) exactly where the observation refuses.
bool reproduces(const spec::ParsedInstr& in, const std::vector<Expected>& e,
                const std::vector<Observed>& model_answer, const std::vector<Observed>& observed);

}  // namespace warpspec::vectors
