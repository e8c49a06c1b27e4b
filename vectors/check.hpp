#pragma once
// Checking an implementation's results against a vector file, streaming both files.
#include <cstdint>
#include <istream>
#include <map>
#include <string>
#include <vector>

#include "vectors/diagnose.hpp"
#include "vectors/format.hpp"
#include "vectors/mutants.hpp"

namespace warpspec::vectors {

/// Per-form tallies.
struct FormTally {
  uint64_t vectors = 0;
  uint64_t ub_vectors = 0;  ///< not compared (no implementation has to match them)
  uint64_t agree = 0;
  uint64_t mismatch = 0;
  uint64_t skipped = 0;          ///< the implementation did not run them
  uint64_t skipped_defined = 0;  ///< of those, vectors without undefined behaviour
};

/// The smallest failing vector of a form for one kind of mismatch, kept for the report.
struct Failure {
  std::string vector_line;
  std::size_t line_no = 0;
  std::vector<Observed> observed;
  Mismatch mismatch;
  std::size_t size = 0;  ///< executing lanes, to keep the smallest
  uint64_t count = 1;    ///< failing vectors of the form with this kind of mismatch
};

/// What check found wrong with one form.
struct FormFailures {
  spec::FormId form{};
  std::vector<Failure> smallest;  ///< one per kind of mismatch (values, hang, no result, UB)
  bool diagnosed = false;         ///< false when the files could not be read a second time
  Diagnosis diagnosis;            ///< from every vector of the form in the file
  /// When only some of the form's intrinsic overloads fail, the calls the diagnosis was made
  /// on (the others' vectors pass and are left out); empty: every vector of the form.
  std::vector<std::string> diagnosed_calls;
};

/// The outcome of a check.
struct CheckReport {
  std::map<spec::FormId, FormTally> forms;
  std::vector<FormFailures> failures;  ///< forms with a mismatch, smallest failing vector first
  uint64_t vectors = 0;
  uint64_t mismatches = 0;
  uint64_t compared = 0;  ///< vectors compared (neither skipped nor UB): none means no verdict
  VectorsHeader header;
};

/// Compares a results stream with a vector stream. Throws FormatError on malformed lines, a
/// vector whose expectations do not follow from its state, results for other vectors, or a
/// results file with fewer or more lines than vectors. When some vector fails and both streams
/// can be read again from the start, the failing forms are diagnosed from all their vectors.
/// `leaders`: the leaders elect.sync chose before this file (one step of the C interface among
/// others); none when null.
CheckReport check(std::istream& vectors, const std::string& vectors_file, std::istream& results,
                  const std::string& results_file, const LeaderMemo* leaders = nullptr);

/// The mutants whose answer on `v` is exactly what was observed (defined lanes only).
std::vector<MutantId> explain_failure(const Vector& v, const std::vector<Observed>& observed,
                                      spec::Target target, spec::PtxVersion ptx);

/// The human report: per-form summary, then per failing form the clauses it breaks, the known
/// bug it is (only when exactly one explains every answer), and its smallest failing vectors as
/// lane tables.
std::string render(const CheckReport& r, std::size_t max_failures);

/// The JSON report ("warpspec-check/2").
std::string render_json(const CheckReport& r);

}  // namespace warpspec::vectors
