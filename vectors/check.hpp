#pragma once
// Checking an implementation's results against a vector file, streaming both files.
#include <cstdint>
#include <istream>
#include <map>
#include <string>
#include <vector>

#include "vectors/format.hpp"
#include "vectors/mutants.hpp"

namespace warpspec::vectors {

/// Per-form tallies.
struct FormTally {
  uint64_t vectors = 0;
  uint64_t ub_vectors = 0;  ///< not compared (no implementation has to match them)
  uint64_t agree = 0;
  uint64_t mismatch = 0;
  uint64_t skipped = 0;  ///< the implementation did not run them
};

/// One failing vector kept for the report: the smallest per form and clause.
struct Failure {
  std::string vector_line;
  std::size_t line_no = 0;
  std::vector<Observed> observed;
  Mismatch mismatch;
  std::size_t size = 0;     ///< executing lanes, to keep the smallest
  spec::ClauseId clause{};  ///< the clause the failure is charged to (set after the scan)
  uint64_t count = 1;       ///< failing vectors charged to the same form and clause
  std::vector<MutantId> explained_by;  ///< known bugs that reproduce the observation
};

/// The outcome of a check.
struct CheckReport {
  std::map<spec::FormId, FormTally> forms;
  std::vector<Failure> failures;  ///< smallest failing vector per (form, clause)
  uint64_t vectors = 0;
  uint64_t mismatches = 0;
  VectorsHeader header;
};

/// Compares a results stream with a vector stream. Throws FormatError on malformed lines,
/// results for other vectors, or a results file with fewer or more lines than vectors.
CheckReport check(std::istream& vectors, const std::string& vectors_file, std::istream& results,
                  const std::string& results_file);

/// The mutants whose answer on `v` is exactly what was observed (defined lanes only): a
/// diagnosis of the bug.
std::vector<MutantId> explain_failure(const Vector& v, const std::vector<Observed>& observed,
                                      spec::Target target, spec::PtxVersion ptx);

/// The human report: per-form summary, then each kept failure as a lane table with the clause it
/// violates and the mutant it behaves like.
std::string render(const CheckReport& r, std::size_t max_failures);

/// The JSON report ("warpspec-check/1").
std::string render_json(const CheckReport& r);

}  // namespace warpspec::vectors
