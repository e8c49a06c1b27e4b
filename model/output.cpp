#include "model/output.hpp"

#include <unistd.h>

#include <cstdio>

namespace warpspec::model {

AtomicFile::AtomicFile(std::string path)
    : path_(std::move(path)), tmp_(path_ + ".tmp-" + std::to_string(::getpid())) {
  out_.open(tmp_, std::ios::binary | std::ios::trunc);
}

AtomicFile::~AtomicFile() {
  if (!done_) {
    out_.close();
    std::remove(tmp_.c_str());
  }
}

bool AtomicFile::commit() {
  out_.flush();
  const bool wrote = out_.good();
  out_.close();
  done_ = true;
  if (!wrote || out_.fail() || std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    std::remove(tmp_.c_str());
    return false;
  }
  return true;
}

bool write_file_atomically(const std::string& path, const std::string& content) {
  AtomicFile f(path);
  if (!f.ok()) return false;
  f.stream() << content;
  return f.commit();
}

}  // namespace warpspec::model
