#pragma once
// The vector and results file formats (docs/vectors.md): JSON Lines, one header line, then one
// vector (or one result) per line.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/input.hpp"
#include "vectors/json_lite.hpp"
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

/// Reads the header line (line 1) of a vector file.
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

/// Reads vector lines; keeps parsed instructions in a cache so repeated ones cost nothing.
class VectorReader {
 public:
  /// How lines are read. Fast: the compact layout that `warpspec vectors` writes (keys in its
  /// order, values in its shapes) by a pull reader in place, and anything else, errors included,
  /// by the general reader. General: the general reader only (a DOM over any key order and value
  /// shape, which words every error); both give the same answers and errors on every line.
  enum class Path : uint8_t { Fast, General };
  /// A reader for `file`, whose expectations hold for the header's target and PTX version.
  explicit VectorReader(std::string file, VectorsHeader header = {}, Path path = Path::Fast)
      : file_(std::move(file)), header_(header), path_(path) {}
  /// Reads and validates one whole vector line (`line_no` for messages), derives what the
  /// specification says of every round and throws FormatError when the line's `expect`, `ub`
  /// or `form` says otherwise (an edited or stale file). The result stays valid until the next
  /// call.
  const VectorExpect& expect(std::string_view line, std::size_t line_no);
  /// Reads and validates one whole vector line as expect() does, without holding it to the
  /// specification: `rounds` are the file's own expectations. Valid until the next call.
  const VectorExpect& read(std::string_view line, std::size_t line_no);
  /// Reads the whole vector (states included) of one line.
  Vector full(std::string_view line, std::size_t line_no);
  /// How many lines the general reader has read (on the Fast path: those outside the compact
  /// layout, and those with an error).
  std::size_t general_lines() const { return general_lines_; }

 private:
  bool pull(std::string_view line);
  void pull_line(std::string_view line);
  void parse_dom(std::string_view line, std::size_t line_no);
  void parse_expect(std::string_view line, std::size_t line_no);
  const spec::ParsedInstr* cached(std::string_view raw, spec::ParseError& err);
  const spec::ParsedInstr& instr(const json::Value& v, std::size_t line_no);
  std::string file_;
  VectorsHeader header_;
  Path path_;
  json::Document doc_;
  // Keyed by the instruction's raw text; looked up by string_view without a copy.
  struct TextHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, spec::ParsedInstr, TextHash, std::equal_to<>> instrs_;
  std::string last_raw_;                           // the last instruction text looked up ...
  const spec::ParsedInstr* last_instr_ = nullptr;  // ... and what it parsed to
  VectorExpect cur_;
  std::vector<Expected> derived_;  // expect()'s answer; swapped with cur_.rounds
  std::vector<const json::Value*> scratch_, rounds_;
  std::vector<uint8_t> lanes_;  // a UB finding's lanes
  // The last "form" text found to name the instruction's form, and that form.
  std::string form_text_;
  std::optional<spec::FormId> form_id_;
  const spec::ParsedInstr* vector_instr_ = nullptr;  // the instruction cur_.vector holds a copy of
  std::size_t general_lines_ = 0;
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
