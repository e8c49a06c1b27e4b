#pragma once
// Every input file is opened the same way: "-" is standard input, a directory or a missing or
// unreadable path is named as such (exit 66), and a device or FIFO is read like a file
// (/dev/null is an empty one).
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace warpspec::model {

/// A malformed input file, the one error every file reader throws: the file, the 1-based line,
/// the 1-based column in characters (0 when the whole line is meant) and what was expected,
/// written "file:line:column: message" ("file:line: message" without a column).
class FormatError : public std::runtime_error {
 public:
  FormatError(std::string file, std::size_t line, std::size_t column, const std::string& msg)
      : std::runtime_error(file + ":" + std::to_string(line) +
                           (column ? ":" + std::to_string(column) : std::string()) + ": " + msg),
        file_(std::move(file)),
        line_(line),
        column_(column) {}
  /// The same for a whole line.
  FormatError(std::string file, std::size_t line, const std::string& msg)
      : FormatError(std::move(file), line, 0, msg) {}
  /// The file being read.
  const std::string& file() const { return file_; }
  /// 1-based line number of the offending line.
  std::size_t line() const { return line_; }
  /// 1-based column in characters; 0 when the message is about the whole line.
  std::size_t column() const { return column_; }

 private:
  std::string file_;
  std::size_t line_;
  std::size_t column_;
};

/// The 1-based line and column, in characters (UTF-8 continuation bytes do not count, nor a
/// byte-order mark at the start), of byte `byte` of `text`.
std::pair<std::size_t, std::size_t> line_column(std::string_view text, std::size_t byte);

/// An input that cannot be opened: `what()` names the path and the reason.
struct MissingInput : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// An input opened for reading.
class InputFile {
 public:
  /// Opens `path` ("-" for standard input, read whole so that it can be read again after
  /// rewind()); throws MissingInput when it is missing, a directory or unreadable.
  explicit InputFile(const std::string& path);
  /// The stream to read from.
  std::istream& stream() { return *in_; }
  /// Starts the stream again from its beginning (a FIFO, read once, is kept in memory too).
  void rewind();
  /// The path as given ("-" for standard input).
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::unique_ptr<std::istream> in_;
};

/// The most bytes an input read whole may hold (a FIFO, a device, standard input, or a file
/// read by read_input): an endless one is refused rather than read until memory runs out.
inline constexpr std::size_t kMaxInputBytes = std::size_t{1} << 30;

/// The whole content of `path`, opened as InputFile opens it; MissingInput beyond
/// kMaxInputBytes or on a read error.
std::string read_input(const std::string& path);

}  // namespace warpspec::model
