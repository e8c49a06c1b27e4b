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
};

/// The header line of a vector file.
std::string header_line(const VectorsHeader& h);
/// One vector with its expected results, as one line.
std::string vector_line(const Vector& v, const std::vector<Expected>& e);

/// Reads the header line (line 1) of a vector file.
VectorsHeader parse_header(std::string_view line, const std::string& file);

/// What `check` needs from a vector line: identity, instruction and expectations.
struct VectorExpect {
  uint64_t id = 0;
  const spec::ParsedInstr* instr = nullptr;  ///< owned by the reader's cache
  bool ub = false;
  std::vector<spec::ClauseId> clauses;
  std::vector<Expected> rounds;
};

/// Reads vector lines; keeps parsed instructions in a cache so repeated ones cost nothing.
class VectorReader {
 public:
  explicit VectorReader(std::string file) : file_(std::move(file)) {}
  /// Reads identity and expectations of one vector line (`line_no` for messages); the states
  /// are only checked for balance. The result stays valid until the next call.
  const VectorExpect& expect(std::string_view line, std::size_t line_no);
  /// Reads the whole vector (states included) of one line.
  Vector full(std::string_view line, std::size_t line_no);

 private:
  const VectorExpect& parse_expect(std::string_view line, std::size_t line_no, bool skip_state);
  const VectorExpect& pull_expect(std::string_view line);
  const spec::ParsedInstr& instr(const json::Value& v, std::size_t line_no);
  std::string file_;
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
  std::vector<Observed> rounds;
};

/// Reads results lines, reusing its buffers.
class ResultReader {
 public:
  explicit ResultReader(std::string file) : file_(std::move(file)) {}
  /// Reads one results line for a vector with `widths[k]` lanes in round k. The result stays
  /// valid until the next call.
  const ResultLine& parse(std::string_view line, std::size_t line_no,
                          const std::vector<std::size_t>& widths);

 private:
  const ResultLine& pull(std::string_view line, const std::vector<std::size_t>& widths);
  const ResultLine& parse_dom(std::string_view line, std::size_t line_no,
                              const std::vector<std::size_t>& widths);
  std::string file_;
  json::Document doc_;
  ResultLine cur_;
  std::vector<const json::Value*> scratch_, rounds_;
};

/// One results line for an observation (what an implementation writes; used by examples/tests).
std::string result_line(uint64_t id, const std::vector<Observed>& rounds, bool pred_d, bool with_p);

}  // namespace warpspec::vectors
