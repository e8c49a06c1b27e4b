#pragma once
// The vector and results file formats (docs/vectors.md): JSON Lines, one header line, then one
// vector (or one result) per line.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "vectors/json_lite.hpp"
#include "vectors/vector.hpp"

namespace warpspec::vectors {

/// The schema tags.
inline constexpr std::string_view kVectorsSchema = "warpspec-vectors/1";
inline constexpr std::string_view kResultsSchema = "warpspec-results/1";

/// A malformed line in a vector or results file: file, line, column and what was expected.
class FormatError : public std::runtime_error {
 public:
  FormatError(const std::string& file, std::size_t line, std::size_t column, const std::string& msg)
      : std::runtime_error(file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
                           msg) {}
};

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

/// Reads the header line (line 1) of a vector file.
VectorsHeader parse_header(std::string_view line, const std::string& file);

/// A vector line as `check` reads it: the whole vector, and what the specification says of it.
struct VectorExpect {
  uint64_t id = 0;
  const spec::ParsedInstr* instr = nullptr;  ///< owned by the reader's cache
  bool ub = false;
  std::vector<spec::ClauseId> clauses;
  std::vector<Expected> rounds;  ///< derived from the state, and equal to the file's `expect`
  Vector vector;                 ///< the whole vector, states included
};

/// Reads vector lines; keeps parsed instructions in a cache so repeated ones cost nothing.
class VectorReader {
 public:
  /// A reader for `file`, whose expectations hold for the header's target and PTX version.
  explicit VectorReader(std::string file, VectorsHeader header = {})
      : file_(std::move(file)), header_(header) {}
  /// Reads and validates one whole vector line (`line_no` for messages), derives what the
  /// specification says of every round and throws FormatError when the line's `expect`, `ub`
  /// or `form` says otherwise (an edited or stale file). The result stays valid until the next
  /// call.
  const VectorExpect& expect(std::string_view line, std::size_t line_no);
  /// Reads the whole vector (states included) of one line.
  Vector full(std::string_view line, std::size_t line_no);

 private:
  const VectorExpect& parse_expect(std::string_view line, std::size_t line_no);
  const spec::ParsedInstr& instr(const json::Value& v, std::size_t line_no);
  std::string file_;
  VectorsHeader header_;
  json::Document doc_;
  // Keyed by the instruction's raw text; looked up by string_view without a copy.
  struct TextHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, spec::ParsedInstr, TextHash, std::equal_to<>> instrs_;
  VectorExpect cur_;
  std::vector<const json::Value*> scratch_, rounds_;
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
};

/// The shape of the results of a vector of this instruction with these round widths.
ResultShape result_shape(const spec::ParsedInstr& in, std::vector<std::size_t> widths);

/// Reads results lines, reusing its buffers.
class ResultReader {
 public:
  explicit ResultReader(std::string file) : file_(std::move(file)) {}
  /// Reads one results line for a vector of the given shape. A lane with `null`, beyond the end
  /// of its list, or in a round or field that is missing, is not present (no result). The
  /// result stays valid until the next call.
  const ResultLine& parse(std::string_view line, std::size_t line_no, const ResultShape& shape);

 private:
  const ResultLine& pull(std::string_view line, const ResultShape& shape);
  const ResultLine& parse_dom(std::string_view line, std::size_t line_no, const ResultShape& shape);
  std::string file_;
  json::Document doc_;
  ResultLine cur_;
  std::vector<const json::Value*> scratch_, rounds_;
};

/// One results line for an observation (what an implementation writes; used by examples/tests).
std::string result_line(uint64_t id, const std::vector<Observed>& rounds, bool pred_d, bool with_p);

}  // namespace warpspec::vectors
