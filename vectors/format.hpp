#pragma once
// The vector and results file formats (docs/vectors.md): JSON Lines, one header line, then one
// vector (or one result) per line.
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "json/lines.hpp"
#include "model/input.hpp"
#include "vectors/vector.hpp"

namespace warpspec::vectors {

/// The schema tags.
inline constexpr std::string_view kVectorsSchema = "warpspec-vectors/1";
inline constexpr std::string_view kResultsSchema = "warpspec-results/1";

/// A malformed line in a vector or results file: the one input error type (model/input.hpp).
using FormatError = model::FormatError;

/// What the first line of a vector file says.
struct VectorsHeader {
  spec::Target target = spec::kDefaultTarget;
  spec::PtxVersion ptx = spec::kLatestPtx;
  uint64_t seed = 0;
  uint64_t count = 0;
  bool count_given = true;  ///< the header states `vectors` (a reader then holds the file to it)
};

/// The header line of a vector file.
std::string header_line(const VectorsHeader& h);
/// One vector with its expected results, as one line.
std::string vector_line(const Vector& v, const std::vector<Expected>& e);
/// A whole vector file: the header line (stating `vs.size()` vectors, whatever `h.count` says),
/// then each vector's line with the results the specification gives it on `h`'s target.
void write_vectors(std::ostream& os, VectorsHeader h, const std::vector<Vector>& vs);

/// Reads the header line (line 1) of a vector file.
VectorsHeader parse_header(const json::Line& line, const std::string& file);
/// The same for a line held anywhere (copied first).
VectorsHeader parse_header(std::string_view line, const std::string& file);

/// A vector line as `check` reads it: the whole vector, and what the specification says of it.
struct VectorExpect {
  uint64_t id = 0;
  const spec::ParsedInstr* instr = nullptr;  ///< owned by the reader's cache
  bool ub = false;
  std::vector<spec::ClauseId> clauses;
  /// From expect(): derived from the state, and equal to the file's `expect`. From read(): the
  /// file's `expect` as written (`executes` equal to `defined`).
  std::vector<Expected> rounds;
  Vector vector;  ///< the whole vector, states included
};

/// Reads vector lines, in any key order, refusing members the format does not have; keeps
/// parsed instructions in a cache so repeated ones cost nothing.
class VectorReader {
 public:
  /// A reader for `file`, whose expectations hold for the header's target and PTX version.
  explicit VectorReader(std::string file, VectorsHeader header = {});
  ~VectorReader();
  VectorReader(VectorReader&&) noexcept;
  /// Reads and validates one whole vector line, derives what the specification says of every
  /// round and throws FormatError when the line's `expect`, `ub` or `form` says otherwise (an
  /// edited or stale file). The result stays valid until the next call.
  const VectorExpect& expect(const json::Line& line);
  /// Reads and validates one whole vector line as expect() does, without holding it to the
  /// specification: `rounds` are the file's own expectations. Valid until the next call.
  const VectorExpect& read(const json::Line& line);
  /// The same for lines held anywhere (copied first), numbered `line_no`.
  const VectorExpect& expect(std::string_view line, std::size_t line_no);
  const VectorExpect& read(std::string_view line, std::size_t line_no);
  /// Reads the whole vector (states included) of one line.
  Vector full(std::string_view line, std::size_t line_no);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// One line of a results file: the implementation's answer for vector `id`.
struct ResultLine {
  uint64_t id = 0;
  bool skipped = false;  ///< the implementation did not run this vector ("skipped": true)
  std::vector<Observed>
      rounds;  ///< one per round of the vector, always (absent rounds: no lane present)
};

/// What a vector asks of a results line: lanes per round, and which per-lane fields carry a
/// lane's result.
struct ResultShape {
  std::vector<std::size_t> widths;  ///< lanes (threads) in each round
  /// `d` is required on every defined lane: the destination, or for a form without one (the
  /// barriers) any value on each lane that resumed.
  bool d = true;
  bool p = false;  ///< `p` is required on every defined lane; without it, `p` is an error
  /// Bits of each lane's `d`: 64 for the 64-bit shuffle overloads (Instr::wide), whose high word
  /// the reader puts in Observed::d_hi; 32 for everything else, where a wider value is refused.
  int d_bits = 32;
};

/// The shape of the results of a vector of this instruction with these round widths.
ResultShape result_shape(const spec::ParsedInstr& in, std::vector<std::size_t> widths);

/// Reads results lines, in any key order, reusing its buffers; members the format does not
/// have are checked as JSON and otherwise ignored (a misspelled "d" is no result).
class ResultReader {
 public:
  explicit ResultReader(std::string file);
  ~ResultReader();
  /// Reads one results line for a vector of the given shape. A lane with `null`, beyond the end
  /// of its list, or in a round or field that is missing, is not present (no result). The
  /// result stays valid until the next call.
  const ResultLine& parse(const json::Line& line, const ResultShape& shape);
  /// The same for a line held anywhere (copied first), numbered `line_no`.
  const ResultLine& parse(std::string_view line, std::size_t line_no, const ResultShape& shape);
  /// True when `line` is a results header ({"schema": "warpspec-results/1"}); throws
  /// FormatError for another schema.
  bool header(const json::Line& line);
  /// The id a results line gives, if it can be read (to name the vector a line belongs to).
  std::optional<uint64_t> id(const json::Line& line);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// One results line for an observation (what an implementation writes; used by examples/tests).
/// A round with high words (Observed::d_hi) writes each d with sixteen hex digits.
std::string result_line(uint64_t id, const std::vector<Observed>& rounds, bool pred_d, bool with_p);

}  // namespace warpspec::vectors
