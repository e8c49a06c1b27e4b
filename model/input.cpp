#include "model/input.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <vector>

#include "spec/instr_parse.hpp"

namespace warpspec::model {

namespace {

// `path` as messages show it.
std::string shown_path(const std::string& path) {
  return path == "-" ? std::string("standard input") : spec::shown_text(path, false, 240);
}

// Everything `in` holds, read in blocks up to kMaxInputBytes (an endless input, /dev/zero, is
// refused rather than read until memory runs out); a read error is named, not taken for the end.
std::string read_all(std::istream& in, const std::string& path) {
  std::string text;
  std::vector<char> block(1 << 16);
  while (in.read(block.data(), static_cast<std::streamsize>(block.size())), in.gcount() > 0) {
    text.append(block.data(), static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxInputBytes)
      throw MissingInput(shown_path(path) + ": larger than " +
                         std::to_string(kMaxInputBytes >> 20) + " MiB, more than an input may be");
  }
  if (in.bad()) throw MissingInput(shown_path(path) + ": cannot read it (an I/O error)");
  return text;
}

// A stream over everything `in` holds: standard input and FIFOs can be read only once.
std::unique_ptr<std::istream> in_memory(std::istream& in, const std::string& path) {
  return std::make_unique<std::istringstream>(read_all(in, path));
}

}  // namespace

InputFile::InputFile(const std::string& path) : path_(path) {
  struct stat st {};
  if (path == "-") {
    // Standard input closed, or a folder, would otherwise read as an empty file.
    if (::fstat(STDIN_FILENO, &st) != 0)
      throw MissingInput("standard input: cannot read it (" + std::string(std::strerror(errno)) +
                         ")");
    if (S_ISDIR(st.st_mode)) throw MissingInput("standard input: is a directory, not a file");
    // Write-only: how main() holds a standard input that was closed; it would read as empty.
    if ((::fcntl(STDIN_FILENO, F_GETFL) & O_ACCMODE) == O_WRONLY)
      throw MissingInput("standard input: cannot read it (not open for reading)");
    in_ = in_memory(std::cin, path);
    return;
  }
  // A path as a file names it may be of any length: shown cut, with control bytes escaped.
  const std::string shown = shown_path(path);
  if (::stat(path.c_str(), &st) != 0)
    throw MissingInput(shown + ": cannot open the file (" + std::strerror(errno) + ")");
  if (S_ISDIR(st.st_mode)) throw MissingInput(shown + ": is a directory, not a file");
  auto f = std::make_unique<std::ifstream>(path, std::ios::binary);
  if (!*f) throw MissingInput(shown + ": cannot open the file (" + std::strerror(errno) + ")");
  if (S_ISREG(st.st_mode))
    in_ = std::move(f);
  else
    in_ = in_memory(*f, path);  // a FIFO or a device: what it gives now, kept
}

void InputFile::rewind() {
  in_->clear();
  in_->seekg(0);
}

std::string read_input(const std::string& path) {
  InputFile f(path);
  return read_all(f.stream(), path);
}

std::pair<std::size_t, std::size_t> line_column(std::string_view text, std::size_t byte) {
  std::size_t line = 1, column = 1;
  // A byte-order mark, which the JSON reader skips, is no column.
  for (std::size_t i = (text.starts_with("\xEF\xBB\xBF") ? 3 : 0); i < byte && i < text.size();
       ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xc0u) != 0x80u) {
      ++column;
    }
  }
  return {line, column};
}

}  // namespace warpspec::model
