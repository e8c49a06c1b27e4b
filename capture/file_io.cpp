// Reading and writing capture files: plain or gzip-compressed JSON Lines, one record per line.
#include <cstdio>
#include <fstream>
#include <system_error>

#include "capture/format.hpp"

#if WARPSPEC_CAPTURE_HAVE_ZLIB
#include <zlib.h>
#endif

namespace warpspec::capture {

// ---------------------------------------------------------------- reader

struct Reader::Impl {
#if WARPSPEC_CAPTURE_HAVE_ZLIB
  gzFile f = nullptr;
  std::string buf;  // bytes read but not yet returned, from `at` on
  std::size_t at = 0;
  bool eof = false;
  int err = Z_OK;  // zlib's state after the last read
  ~Impl() {
    if (f) gzclose(f);
  }
#else
  std::ifstream f;
#endif
};

Reader::Reader(const std::filesystem::path& path)
    : impl_(std::make_unique<Impl>()), path_(path.string()) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw MissingFile(path_ + ": no such capture file");
#if WARPSPEC_CAPTURE_HAVE_ZLIB
  // gzread passes plain files through unchanged, so one path reads both encodings.
  impl_->f = gzopen(path_.c_str(), "rb");
  if (!impl_->f) throw MissingFile(path_ + ": cannot open");
  gzbuffer(impl_->f, 1 << 16);
#else
  impl_->f.open(path);
  if (!impl_->f) throw MissingFile(path_ + ": cannot open");
  if (impl_->f.peek() == 0x1f)
    throw FormatError(path_, 1, "gzip-compressed, but this build has no zlib; decompress it first");
#endif
  std::string text;
  if (!read_line(text)) throw FormatError(path_, 1, "empty file: expected the header line");
  header_ = parse_header(text, path_, line_);
}

Reader::~Reader() = default;

bool Reader::read_line(std::string& out) {
  out.clear();
#if WARPSPEC_CAPTURE_HAVE_ZLIB
  // Lines are cut from blocks read with gzread rather than gzgets, which stops at a NUL byte and
  // would hand the parser a shortened line.
  Impl& z = *impl_;
  while (true) {
    const auto nl = z.buf.find('\n', z.at);
    if (nl != std::string::npos) {
      out.assign(z.buf, z.at, nl - z.at);
      z.at = nl + 1;
      break;
    }
    if (z.eof) {
      // Z_BUF_ERROR: the gzip stream was cut short, which would silently lose records.
      if (z.err != Z_OK && z.err != Z_STREAM_END)
        throw FormatError(path_, line_ + 1,
                          z.err == Z_BUF_ERROR ? "truncated gzip stream (the file was cut short)"
                                               : "corrupt gzip stream");
      if (z.at >= z.buf.size()) return false;
      out.assign(z.buf, z.at, std::string::npos);
      z.at = z.buf.size();
      break;
    }
    z.buf.erase(0, z.at);
    z.at = 0;
    char block[1 << 16];
    const int n = gzread(z.f, block, sizeof block);
    gzerror(z.f, &z.err);
    if (n > 0) z.buf.append(block, static_cast<std::size_t>(n));
    // The lines read before an error are still returned; the error comes where they end.
    z.eof = n <= 0 || (z.err != Z_OK && z.err != Z_STREAM_END);
  }
#else
  if (!std::getline(impl_->f, out)) return false;
#endif
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  ++line_;
  return true;
}

bool Reader::next(Record& out) {
  std::string text;
  do {
    if (!read_line(text)) return false;
  } while (text.empty());  // a trailing blank line is harmless
  out = parse_record(text, path_, line_);
  return true;
}

// ---------------------------------------------------------------- writer

struct Writer::Impl {
#if WARPSPEC_CAPTURE_HAVE_ZLIB
  gzFile z = nullptr;
#endif
  std::FILE* f = nullptr;
  bool failed = false;
};

Writer::Writer(const std::filesystem::path& path, const Header& header)
    : impl_(std::make_unique<Impl>()), path_(path), tmp_(path.string() + ".tmp") {
  if (path.extension() == ".gz") {
#if WARPSPEC_CAPTURE_HAVE_ZLIB
    impl_->z = gzopen(tmp_.c_str(), "wb9");
    if (!impl_->z) throw std::runtime_error(tmp_.string() + ": cannot create");
#else
    throw std::runtime_error(path.string() + ": this build has no zlib to write gzip");
#endif
  } else {
    impl_->f = std::fopen(tmp_.c_str(), "wb");
    if (!impl_->f) throw std::runtime_error(tmp_.string() + ": cannot create");
  }
  put(to_line(header));
}

Writer::~Writer() {
  // Never closed (an exception on the way): leave no half-written file behind.
  bool open = impl_->f != nullptr;
#if WARPSPEC_CAPTURE_HAVE_ZLIB
  open = open || impl_->z != nullptr;
  if (impl_->z) gzclose(impl_->z);
#endif
  if (impl_->f) std::fclose(impl_->f);
  if (open) {
    std::error_code ec;
    std::filesystem::remove(tmp_, ec);
  }
}

void Writer::put(const std::string& line) {
  const std::string text = line + "\n";
#if WARPSPEC_CAPTURE_HAVE_ZLIB
  if (impl_->z) {
    if (gzwrite(impl_->z, text.data(), static_cast<unsigned>(text.size())) !=
        static_cast<int>(text.size()))
      impl_->failed = true;
    return;
  }
#endif
  if (std::fwrite(text.data(), 1, text.size(), impl_->f) != text.size()) impl_->failed = true;
}

void Writer::write(const Record& r) {
  put(to_line(r));
}

void Writer::close() {
  bool ok = !impl_->failed;
#if WARPSPEC_CAPTURE_HAVE_ZLIB
  if (impl_->z) ok = gzclose(impl_->z) == Z_OK && ok, impl_->z = nullptr;
#endif
  if (impl_->f) ok = std::fclose(impl_->f) == 0 && ok, impl_->f = nullptr;
  std::error_code ec;
  if (ok) std::filesystem::rename(tmp_, path_, ec);
  if (!ok || ec) {
    std::filesystem::remove(tmp_, ec);
    throw std::runtime_error(path_.string() + ": could not be written");
  }
}

}  // namespace warpspec::capture
