// Reading and writing capture files: plain or gzip-compressed JSON Lines, one record per line.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <system_error>
#include <vector>

#include "capture/format.hpp"
#include "json/read.hpp"

#if WARPSPEC_CAPTURE_HAVE_ZLIB
#include <zlib.h>
#endif

namespace warpspec::capture {

// ---------------------------------------------------------------- reader

// A file is read as raw blocks: gzip members are inflated one after another (a file may hold
// several, as `cat a.gz b.gz` makes), and anything after the last member that is not another
// member is an error, never silently dropped, as gzread would drop it.
struct FileBytes::Impl {
  std::unique_ptr<model::InputFile> file;  // as every input is opened: "-", a FIFO, a device
  std::istream* raw_in = nullptr;
  bool gzip = false;
  std::string path;
  std::function<std::size_t()> line;
#if WARPSPEC_CAPTURE_HAVE_ZLIB
  z_stream zs{};
  bool zs_ready = false;
  bool member_ended = false;
  std::uint64_t raw_read = 0;  // compressed bytes read from the file so far
  std::vector<unsigned char> in = std::vector<unsigned char>(1 << 16);
  ~Impl() {
    if (zs_ready) inflateEnd(&zs);
  }
  // Moves unread input to the front and fills the rest from the file; false when nothing is left.
  bool refill() {
    if (zs.avail_in > 0 && zs.next_in != in.data())
      std::memmove(in.data(), zs.next_in, zs.avail_in);
    zs.next_in = in.data();
    raw_in->read(reinterpret_cast<char*>(in.data()) + zs.avail_in,
                 static_cast<std::streamsize>(in.size() - zs.avail_in));
    zs.avail_in += static_cast<uInt>(raw_in->gcount());
    raw_read += static_cast<std::uint64_t>(raw_in->gcount());
    return zs.avail_in > 0;
  }
  // Where inflating stopped, in the compressed file, and zlib's word for what it found there.
  std::string where_corrupt() const {
    return " after " + std::to_string(raw_read - zs.avail_in) + " bytes of the compressed file" +
           (zs.msg ? std::string(" (zlib: ") + zs.msg + ")" : std::string());
  }
#endif
  [[noreturn]] void fail(const std::string& what) const {
    throw FormatError(path, line() + 1, what);
  }
};

FileBytes::FileBytes(const std::filesystem::path& path, std::function<std::size_t()> line)
    : impl_(std::make_unique<Impl>()) {
  impl_->path = path.string();
  impl_->line = std::move(line);
  impl_->file = std::make_unique<model::InputFile>(impl_->path);
  std::istream& raw = impl_->file->stream();
  impl_->raw_in = &raw;
  const int b0 = raw.get(), b1 = raw.get();
  impl_->file->rewind();
  impl_->gzip = b0 == 0x1f && b1 == 0x8b;
  if (impl_->gzip) {
#if WARPSPEC_CAPTURE_HAVE_ZLIB
    if (inflateInit2(&impl_->zs, 15 + 16) != Z_OK)
      throw std::runtime_error(impl_->path + ": zlib could not start");
    impl_->zs_ready = true;
#else
    throw FormatError(impl_->path, 1,
                      "gzip-compressed, but this build has no zlib; decompress it first");
#endif
  }
}

FileBytes::~FileBytes() = default;

std::size_t FileBytes::read(char* out, std::size_t cap) {
  Impl& z = *impl_;
  if (!z.gzip) {
    z.raw_in->read(out, static_cast<std::streamsize>(cap));
    return static_cast<std::size_t>(z.raw_in->gcount());
  }
#if WARPSPEC_CAPTURE_HAVE_ZLIB
  z.zs.next_out = reinterpret_cast<Bytef*>(out);
  z.zs.avail_out = static_cast<uInt>(cap);
  while (z.zs.avail_out == cap) {
    if (z.zs.avail_in < 2 && !z.refill() && z.member_ended) return 0;  // the end, cleanly
    if (z.member_ended) {
      if (z.zs.avail_in < 2 || z.zs.next_in[0] != 0x1f || z.zs.next_in[1] != 0x8b)
        z.fail(
            "data after the end of the gzip stream (the file is damaged, or something was "
            "appended to it)");
      inflateReset(&z.zs);
      z.member_ended = false;
    }
    if (z.zs.avail_in == 0 && !z.refill()) z.fail("truncated gzip stream (the file was cut short)");
    const int ret = inflate(&z.zs, Z_NO_FLUSH);
    if (ret == Z_STREAM_END)
      z.member_ended = true;
    else if (ret == Z_BUF_ERROR && z.raw_in->eof() && z.zs.avail_in == 0)
      z.fail("truncated gzip stream (the file was cut short)");
    else if (ret != Z_OK && ret != Z_BUF_ERROR)
      z.fail("corrupt gzip stream" + z.where_corrupt());
  }
  return cap - z.zs.avail_out;
#else
  (void)out, (void)cap;
  return 0;
#endif
}

std::string read_text(const std::filesystem::path& path) {
  FileBytes bytes(path, [] { return std::size_t{0}; });
  std::string text;
  std::vector<char> block(1 << 16);
  for (std::size_t n; (n = bytes.read(block.data(), block.size())) > 0;)
    text.append(block.data(), n);
  return text;
}

struct Reader::Impl {
  explicit Impl(const std::string& path) : doc(path) {}
  std::unique_ptr<FileBytes> bytes;
  std::unique_ptr<json::LineReader> lines;
  json::Document doc;
};

Reader::Reader(const std::filesystem::path& path)
    : impl_(std::make_unique<Impl>(path.string())), path_(path.string()) {
  impl_->bytes = std::make_unique<FileBytes>(
      path, [this] { return impl_->lines ? impl_->lines->line_number() : 0; });
  impl_->lines = std::make_unique<json::LineReader>(
      [this](char* out, std::size_t n) { return impl_->bytes->read(out, n); });
  json::Line line;
  if (!impl_->lines->next(line))
    throw FormatError(path_, 1, 1, "empty file: expected the header line");
  line_ = line.number;
  header_ = parse_header(impl_->doc, line);
}

Reader::~Reader() = default;

bool Reader::next(Record& out) {
  json::Line line;
  if (!impl_->lines->next(line)) return false;
  line_ = line.number;
  out = parse_record(impl_->doc, line);
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
