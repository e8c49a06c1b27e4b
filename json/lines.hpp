#pragma once
// The lines of a JSON Lines input, read in large blocks into one buffer that keeps room after its
// last byte: simdjson reads ahead of the text it parses, so every line handed out is followed by
// at least kPadding readable bytes and is parsed where it lies, without a copy. Memory stays
// bounded by the block size and the longest line, whatever the length of the file.
#include <cstddef>
#include <functional>
#include <istream>
#include <memory>
#include <string>
#include <string_view>

namespace warpspec::json {

/// Readable bytes every line has after its end (simdjson's SIMDJSON_PADDING).
inline constexpr std::size_t kPadding = 64;

/// One line of a JSON Lines input.
struct Line {
  std::string_view text;      ///< without its line end; kPadding readable bytes follow it
  std::size_t number = 0;     ///< 1-based
  const char* nul = nullptr;  ///< the first NUL byte of the line, if it holds one
};

/// Reads the lines of an input; blank lines (spaces, tabs, a carriage return) are skipped.
class LineReader {
 public:
  /// Fills up to `n` bytes at `out` and returns how many; 0 at the end of the input.
  using Source = std::function<std::size_t(char* out, std::size_t n)>;
  /// Reads `in` from where it stands.
  explicit LineReader(std::istream& in);
  /// Reads what `source` gives (a decompressed stream).
  explicit LineReader(Source source);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;
  /// The next line that is not blank; false at the end of the input.
  bool next(Line& out);
  /// The number of the last line read, blank ones included (0 before the first).
  std::size_t line_number() const { return number_; }

 private:
  bool fill();  // reads one more block after what is left; false at the end of the input
  Source source_;
  std::unique_ptr<char[]> buf_;
  std::size_t cap_ = 0;              // bytes the buffer holds, padding not counted
  std::size_t begin_ = 0, end_ = 0;  // the bytes not yet handed out
  const char* nul_ = nullptr;        // the first NUL byte from begin_ on, or nullptr
  bool eof_ = false;
  std::size_t number_ = 0;
};

/// A copy of `text` followed by kPadding bytes, for reading a line that does not come from a
/// LineReader (tests, a vector kept in memory).
class PaddedLine {
 public:
  /// The copy as a line numbered `number`.
  const Line& set(std::string_view text, std::size_t number);

 private:
  std::string buf_;
  Line line_;
};

}  // namespace warpspec::json
