#include "model/output.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace warpspec::model {

namespace {

std::string reason() {
  return errno ? std::strerror(errno) : "an I/O error";
}

}  // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  if (path_ == "-") {
    kind_ = Kind::Stdout;
    return;
  }
  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    error_ = path_ + ": is a directory";
    return;
  }
  // Devices, FIFOs and sockets are written where they are.
  if (::stat(path_.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) kind_ = Kind::InPlace;
  tmp_ = kind_ == Kind::InPlace ? path_ : path_ + ".tmp-" + std::to_string(::getpid());
  errno = 0;
  file_.open(tmp_, std::ios::binary | std::ios::trunc);
  if (!file_) fail("cannot create the file");
}

OutputFile::~OutputFile() {
  if (done_ || kind_ == Kind::Stdout) return;
  file_.close();
  if (kind_ == Kind::Renamed) std::remove(tmp_.c_str());
}

void OutputFile::fail(const std::string& what) {
  if (error_.empty()) error_ = path_ + ": " + what + " (" + reason() + ")";
}

bool OutputFile::ok() const {
  if (!error_.empty()) return false;
  return kind_ == Kind::Stdout ? std::cout.good() : file_.good();
}

std::ostream& OutputFile::stream() {
  return kind_ == Kind::Stdout ? std::cout : static_cast<std::ostream&>(file_);
}

bool OutputFile::commit() {
  if (done_) return error_.empty();
  done_ = true;
  if (kind_ == Kind::Stdout) {
    if (!stdout_ok(error_)) error_ = "standard output: " + error_;
    return error_.empty();
  }
  if (!error_.empty()) {
    file_.close();
    if (kind_ == Kind::Renamed) std::remove(tmp_.c_str());
    return false;
  }
  if (!file_) fail("writing failed");  // errno still says why a write failed
  errno = 0;
  file_.flush();
  if (!file_) fail("writing failed");
  file_.close();
  if (file_.fail()) fail("closing failed");
  if (kind_ == Kind::Renamed) {
    if (error_.empty() && std::rename(tmp_.c_str(), path_.c_str()) != 0)
      fail("cannot put the file in place");
    if (!error_.empty()) std::remove(tmp_.c_str());
  }
  return error_.empty();
}

void write_output(const std::string& path, const std::string& content) {
  OutputFile f(path);
  if (f.ok()) f.stream() << content;
  if (!f.commit()) throw OutputError(f.error());
}

bool write_file_atomically(const std::string& path, const std::string& content) {
  OutputFile f(path);
  if (f.ok()) f.stream() << content;
  return f.commit();
}

bool stdout_ok(std::string& why) {
  errno = 0;
  std::cout.flush();
  const bool ok = std::cout.good() && std::fflush(stdout) == 0 && !std::ferror(stdout);
  if (!ok) why = std::string("cannot write (") + reason() + ")";
  return ok;
}

}  // namespace warpspec::model
