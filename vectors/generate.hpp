#pragma once
// Building conformance suites: candidate states per form (boundary designs and seeded random
// states that lean to the corners), the mutants and clauses each candidate covers, and a greedy
// cover that keeps as few vectors as possible while killing every applicable mutant and making
// every reachable UB clause fire; then a second cover that hits every reachable coverpoint
// (vectors/coverpoints.hpp) the first one left.
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "vectors/coverpoints.hpp"
#include "vectors/mutants.hpp"
#include "vectors/vector.hpp"

namespace warpspec::vectors {

/// A target of a suite: a mutant to kill (first 0, second the MutantId), a clause to cover
/// (first 1, second the ClauseId) or a coverpoint to hit (first 2, second the CoverpointId).
using CoverTarget = std::pair<int, int>;

/// The kinds of cover target (`CoverTarget::first`).
inline constexpr int kTargetMutant = 0, kTargetClause = 1, kTargetCoverpoint = 2;

/// Finds witnesses for a form: vectors that show some of its targets (see checker/witness.hpp,
/// which asks Z3). Called once per form, for several forms at once on different threads, so it
/// must be safe to call concurrently; what it returns is checked again concretely.
using WitnessSource =
    std::function<std::vector<Vector>(spec::FormId, spec::Target, spec::PtxVersion)>;

/// What to generate.
struct GenOptions {
  std::vector<spec::FormId> forms;  ///< empty: every form available on the target
  spec::Target target = spec::kDefaultTarget;
  spec::PtxVersion ptx = spec::kLatestPtx;
  uint64_t seed = 1;
  std::size_t random_count = 0;  ///< seeded random vectors added after the cover
  bool boundary = false;         ///< also add every boundary design
  std::size_t pool = 160;        ///< random candidates per instruction for the cover search
  /// Witnesses come first in the cover; targets they leave are searched among boundary designs
  /// and seeded random states. Without a source every target is searched.
  WitnessSource witnesses;
  /// Called (one call at a time) as each form's witnesses are found: the form, how many forms
  /// are done, of how many.
  std::function<void(spec::FormId, std::size_t done, std::size_t total)> on_witnessed;
};

/// Coverage of one form by a suite.
struct FormCoverage {
  std::vector<spec::ClauseId> clauses;      ///< every clause of the form
  std::vector<spec::ClauseId> covered;      ///< clauses the suite covers
  std::vector<MutantId> mutants;            ///< mutants that apply to the form
  std::vector<MutantId> killed;             ///< mutants some vector of the suite kills
  std::vector<CoverpointId> coverpoints;    ///< the coverpoints that can be hit on the target
  std::vector<CoverpointId> hit;            ///< those some vector of the suite hits
  std::vector<FormCoverpoint> unreachable;  ///< listed for the form, but not hittable there (why)
  std::size_t vectors = 0;
};

/// A generated suite and its coverage.
struct Suite {
  std::vector<Vector> vectors;
  std::map<spec::FormId, FormCoverage> coverage;
  spec::Target target = spec::kDefaultTarget;
  spec::PtxVersion ptx = spec::kLatestPtx;
  uint64_t seed = 1;
};

/// Generates a suite. Same options, same suite.
Suite generate(const GenOptions& opt);

/// The instructions a suite uses for a form (vote forms appear plain and negated).
std::vector<spec::ParsedInstr> instructions_for(spec::FormId form);

/// The clauses a vector covers: those of the mutants it kills and the UB clauses that fire.
std::vector<spec::ClauseId> covered_clauses(const Vector& v, spec::Target t, spec::PtxVersion p);

/// Recomputes the coverage of `vectors` (used by `vectors --report` on a file).
std::map<spec::FormId, FormCoverage> coverage_of(const std::vector<Vector>& vectors, spec::Target t,
                                                 spec::PtxVersion p);

/// The targets of a form on a target: the mutants that apply to it, and its clauses that can be
/// observed there.
std::set<CoverTarget> targets_of(spec::FormId form, spec::Target t);

/// The targets a vector shows: mutants it kills, clauses it covers (coverpoints are apart: see
/// `coverpoints_hit`).
std::set<CoverTarget> covers_of(const Vector& v, spec::Target t, spec::PtxVersion p);

/// The coverpoints of a form that some vector can hit on the target, as cover targets.
std::set<CoverTarget> coverpoint_targets_of(spec::FormId form, spec::Target t);

/// A smaller vector (fewer live lanes, zero operands) that still shows every target in `need`.
Vector shrink_keeping(const Vector& v, const std::set<CoverTarget>& need, spec::Target t,
                      spec::PtxVersion p);

/// Seeded corner-leaning random rounds for an instruction (exposed for tests).
Round random_round(const spec::ParsedInstr& in, std::mt19937_64& rng, bool allow_ub);

}  // namespace warpspec::vectors
