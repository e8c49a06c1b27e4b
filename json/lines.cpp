#include "json/lines.hpp"

#include <algorithm>
#include <cstring>

namespace warpspec::json {

namespace {

// Bytes read at a time; a line longer than half the buffer makes it grow.
constexpr std::size_t kBlock = std::size_t{1} << 20;

bool blank(std::string_view s) {
  return s.find_first_not_of(" \t\r") == std::string_view::npos;
}

const char* find_nul(const char* p, std::size_t n) {
  return static_cast<const char*>(std::memchr(p, 0, n));
}

}  // namespace

LineReader::LineReader(std::istream& in)
    : LineReader(Source([&in](char* out, std::size_t n) {
        in.read(out, static_cast<std::streamsize>(n));
        return static_cast<std::size_t>(in.gcount());
      })) {}

LineReader::LineReader(Source source) : source_(std::move(source)) {}

LineReader::~LineReader() = default;

bool LineReader::fill() {
  if (eof_) return false;
  const std::size_t left = end_ - begin_;
  const std::size_t want = std::max(kBlock, 2 * left);
  if (want > cap_) {
    auto bigger = std::make_unique<char[]>(want + kPadding);
    if (left) std::memcpy(bigger.get(), buf_.get() + begin_, left);
    buf_ = std::move(bigger);
    cap_ = want;
  } else if (begin_) {
    std::memmove(buf_.get(), buf_.get() + begin_, left);
  }
  begin_ = 0;
  end_ = left;
  const std::size_t n = source_(buf_.get() + end_, cap_ - end_);
  eof_ = n == 0;
  end_ += n;
  // The last line may end without a line end: the padding after it reads as white space.
  std::memset(buf_.get() + end_, ' ', kPadding);
  nul_ = find_nul(buf_.get(), end_);
  return n > 0;
}

bool LineReader::next(Line& out) {
  while (true) {
    const char* b = buf_ ? buf_.get() + begin_ : nullptr;
    const auto* nl =
        begin_ < end_ ? static_cast<const char*>(std::memchr(b, '\n', end_ - begin_)) : nullptr;
    std::size_t len = 0;
    if (nl) {
      len = static_cast<std::size_t>(nl - b);
    } else if (fill()) {
      continue;
    } else if (begin_ < end_) {  // the last line, without a line end
      b = buf_.get() + begin_;
      len = end_ - begin_;
    } else {
      return false;
    }
    ++number_;
    const std::size_t after = begin_ + len + (nl ? 1 : 0);
    std::string_view text(b, len);
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    const char* nul = nullptr;
    if (nul_ && nul_ < b + len) {
      nul = nul_;
      nul_ = find_nul(buf_.get() + after, end_ - after);
    }
    begin_ = after;
    if (!nul && blank(text)) continue;
    out = Line{text, number_, nul};
    return true;
  }
}

const Line& PaddedLine::set(std::string_view text, std::size_t number) {
  buf_.assign(text);
  buf_.append(kPadding, ' ');
  line_ =
      Line{std::string_view(buf_.data(), text.size()), number, find_nul(buf_.data(), text.size())};
  return line_;
}

}  // namespace warpspec::json
