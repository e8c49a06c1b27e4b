#pragma once
// Every output file goes through one writer. A regular file is written under a temporary name
// and renamed into place only when every write and the close succeeded, so that a reader sees the
// old file or the whole new one, never half of one. "-" is standard output. A path that names a
// device or a FIFO (/dev/stdout, a pipe) is written in place: renaming over it would replace it.
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>

namespace warpspec::model {

/// An output that could not be written: `what()` names the path and the reason.
struct OutputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A file being written; `commit()` finishes it, destruction without commit discards it.
class OutputFile {
 public:
  /// Opens the output for `path` ("-" for standard output); check `ok()`, or `error()`.
  explicit OutputFile(std::string path);
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();
  /// True while the output is open and every write so far succeeded.
  bool ok() const;
  /// The stream to write to.
  std::ostream& stream();
  /// Flushes and closes, then renames a temporary file into place; false when any write, the
  /// close or the rename failed (the old file, if any, is then kept and `error()` says why).
  bool commit();
  /// Why the output failed: the path and the system's reason; empty while nothing failed.
  const std::string& error() const { return error_; }
  /// The path the output goes to.
  const std::string& path() const { return path_; }

 private:
  enum class Kind { Stdout, InPlace, Renamed };
  void fail(const std::string& what);
  std::string path_, tmp_, error_;
  Kind kind_ = Kind::Renamed;
  std::ofstream file_;
  bool done_ = false;
};

/// Writes `content` to `path` through an OutputFile; throws OutputError when that fails.
void write_output(const std::string& path, const std::string& content);

/// Writes `content` to `path` through an OutputFile; false when that fails.
bool write_file_atomically(const std::string& path, const std::string& content);

/// Flushes standard output and says whether everything written to it arrived (a full device
/// or a closed pipe fails here); `why` gets the system's reason.
bool stdout_ok(std::string& why);

}  // namespace warpspec::model
