#pragma once
// Output files are written under a temporary name and renamed into place only when complete, so
// a reader never sees half a file: after an interruption there is the old file or none.
#include <fstream>
#include <string>

namespace warpspec::model {

/// A file being written; `commit()` puts it in place, destruction without commit discards it.
class AtomicFile {
 public:
  /// Opens `<path>.tmp-<pid>` for writing; check `ok()`.
  explicit AtomicFile(std::string path);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();
  /// True while the temporary file is open and every write so far succeeded.
  bool ok() const { return out_.good(); }
  /// The stream to write to.
  std::ofstream& stream() { return out_; }
  /// Flushes, closes and renames into place; false (with errno set) when any step failed.
  bool commit();
  /// The final path.
  const std::string& path() const { return path_; }

 private:
  std::string path_, tmp_;
  std::ofstream out_;
  bool done_ = false;
};

/// Writes `content` to `path` atomically; false on failure.
bool write_file_atomically(const std::string& path, const std::string& content);

}  // namespace warpspec::model
