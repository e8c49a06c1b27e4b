#include "model/input.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <iostream>

namespace warpspec::model {

namespace {

// A stream over everything `in` holds: standard input and FIFOs can be read only once.
std::unique_ptr<std::istream> in_memory(std::istream& in) {
  std::ostringstream all;
  all << in.rdbuf();
  return std::make_unique<std::istringstream>(std::move(all).str());
}

}  // namespace

InputFile::InputFile(const std::string& path) : path_(path) {
  if (path == "-") {
    in_ = in_memory(std::cin);
    return;
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw MissingInput(path + ": cannot open the file (" + std::strerror(errno) + ")");
  if (S_ISDIR(st.st_mode)) throw MissingInput(path + ": is a directory, not a file");
  auto f = std::make_unique<std::ifstream>(path, std::ios::binary);
  if (!*f) throw MissingInput(path + ": cannot open the file (" + std::strerror(errno) + ")");
  if (S_ISREG(st.st_mode))
    in_ = std::move(f);
  else
    in_ = in_memory(*f);  // a FIFO or a device: what it gives now, kept
}

void InputFile::rewind() {
  in_->clear();
  in_->seekg(0);
}

std::string read_input(const std::string& path) {
  InputFile f(path);
  std::ostringstream os;
  os << f.stream().rdbuf();
  return std::move(os).str();
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
