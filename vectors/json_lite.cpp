#include "vectors/json_lite.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <charconv>
#include <cstring>

namespace warpspec::vectors::json {

namespace {
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}
void skip(std::string_view s, std::size_t& pos) {
  while (pos < s.size() && is_space(s[pos])) ++pos;
}
constexpr int kMaxDepth = 64;

// The length of the UTF-8 sequence at s[pos] (RFC 3629: shortest form, no surrogates, at most
// U+10FFFF), or 0 when the bytes there are not UTF-8.
std::size_t utf8_length(std::string_view s, std::size_t pos) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[pos + k]); };
  const unsigned c = b(0);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned lo = 0x80, hi = 0xbf;  // the range of the second byte
  if (c >= 0xc2 && c <= 0xdf) {
    n = 2;
  } else if (c >= 0xe0 && c <= 0xef) {
    n = 3;
    if (c == 0xe0) lo = 0xa0;
    if (c == 0xed) hi = 0x9f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 4;
    if (c == 0xf0) lo = 0x90;
    if (c == 0xf4) hi = 0x8f;
  } else {
    return 0;
  }
  if (pos + n > s.size() || b(1) < lo || b(1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (b(k) < 0x80 || b(k) > 0xbf) return 0;
  return n;
}

std::string hex_byte(char c) {
  static constexpr char digits[] = "0123456789abcdef";
  const auto u = static_cast<unsigned char>(c);
  return std::string("0x") + digits[u >> 4] + digits[u & 15];
}

std::string not_utf8(char c) {
  return "byte " + hex_byte(c) + " is not UTF-8 text (JSON Lines files are UTF-8)";
}

// Scanners shared by the DOM and the pull reader, so that both accept exactly the same text.
// Each starts at s[pos], moves pos past what it read, and on failure returns false with the
// message and the position of the error.
struct ScanError {
  std::size_t pos = 0;
  std::string msg;
};

bool scan_fail(ScanError& e, std::size_t pos, std::string msg) {
  e.pos = pos;
  e.msg = std::move(msg);
  return false;
}

// True for the bytes a string can hold as they are: printable ASCII but '"' and '\\'.
constexpr bool plain_byte(unsigned char c) {
  return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

// The first position from `pos` on whose byte is not `plain_byte` (or s.size()). Eight bytes
// at a time: vector files are mostly short hex strings, and this loop is most of their reading.
std::size_t plain_run(std::string_view s, std::size_t pos) {
  const char* p = s.data();
  const std::size_t n = s.size();
  if constexpr (std::endian::native == std::endian::little) {
    constexpr uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    while (pos + 8 <= n) {
      uint64_t x;
      std::memcpy(&x, p + pos, 8);
      const uint64_t quote = x ^ (ones * '"'), slash = x ^ (ones * '\\');
      // A byte's high bit is set where it is zero, below 0x20 or at least 0x80. Borrows can flag
      // bytes above a flagged one, never below it, so the lowest flag is exact.
      const uint64_t flags =
          (((quote - ones) & ~quote) | ((slash - ones) & ~slash) | ((x - ones * 0x20) & ~x) | x) &
          highs;
      if (flags) return pos + static_cast<std::size_t>(std::countr_zero(flags) >> 3);
      pos += 8;
    }
  }
  while (pos < n && plain_byte(static_cast<unsigned char>(p[pos]))) ++pos;
  return pos;
}

// True when the `len` bytes at `p` (8 to 16, all readable) are all `plain_byte`: two
// overlapping words.
[[gnu::always_inline]] inline bool plain_span(const char* p, std::size_t len) {
  if constexpr (std::endian::native == std::endian::little) {
    if (len < 8 || len > 16) return false;
    constexpr uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    auto flags = [&](const char* q) {
      uint64_t x;
      std::memcpy(&x, q, 8);
      const uint64_t quote = x ^ (ones * '"'), slash = x ^ (ones * '\\');
      return (((quote - ones) & ~quote) | ((slash - ones) & ~slash) | ((x - ones * 0x20) & ~x) |
              x) &
             highs;
    };
    return (flags(p) | flags(p + len - 8)) == 0;
  }
  return false;
}

// A string from its opening quote: escapes are checked, control bytes and bytes that are not
// UTF-8 are refused.
bool scan_string(std::string_view s, std::size_t& pos, ScanError& e) {
  const std::size_t open = pos++;
  while (true) {
    pos = plain_run(s, pos);
    if (pos >= s.size() || s[pos] == '"') break;
    const auto ch = static_cast<unsigned char>(s[pos]);
    if (ch < 0x20) return scan_fail(e, pos, "control character inside a string");
    if (ch >= 0x80) {
      const auto n = utf8_length(s, pos);
      if (n == 0) return scan_fail(e, pos, not_utf8(s[pos]));
      pos += n;
      continue;
    }
    // Only a backslash is left.
    {
      if (pos + 1 >= s.size()) return scan_fail(e, open, "unterminated string");
      const char x = s[pos + 1];
      if (x == 'u') {
        for (std::size_t k = 2; k < 6; ++k)
          if (pos + k >= s.size() || !std::isxdigit(static_cast<unsigned char>(s[pos + k])))
            return scan_fail(e, pos, "malformed \\u escape");
        pos += 6;
        continue;
      }
      if (std::string_view("\"\\/bfnrt").find(x) == std::string_view::npos)
        return scan_fail(e, pos, "unknown escape in a string");
      pos += 2;
    }
  }
  if (pos >= s.size()) return scan_fail(e, open, "unterminated string");
  ++pos;
  return true;
}

// A number: -?digits(.digits)?([eE][+-]?digits)?
bool scan_number(std::string_view s, std::size_t& pos, ScanError& e) {
  if (pos < s.size() && s[pos] == '-') ++pos;
  auto digits = [&] {
    const std::size_t b = pos;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') ++pos;
    return pos > b;
  };
  if (!digits()) return scan_fail(e, pos, "malformed number");
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    if (!digits()) return scan_fail(e, pos, "malformed number");
  }
  if (pos < s.size() && (s[pos] == 'e' || s[pos] == 'E')) {
    ++pos;
    if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) ++pos;
    if (!digits()) return scan_fail(e, pos, "malformed number");
  }
  return true;
}

bool unexpected(std::string_view s, std::size_t pos, ScanError& e) {
  const char c = s[pos];
  if (static_cast<unsigned char>(c) >= 0x80) return scan_fail(e, pos, not_utf8(c));
  if (static_cast<unsigned char>(c) < 0x20)
    return scan_fail(e, pos, "unexpected byte " + hex_byte(c));
  return scan_fail(e, pos, std::string("unexpected character '") + c + "'");
}

// One scalar: string, number, true, false or null.
bool scan_scalar(std::string_view s, std::size_t& pos, ScanError& e) {
  const char c = s[pos];
  if (c == '"') return scan_string(s, pos, e);
  if (c == '-' || (c >= '0' && c <= '9')) return scan_number(s, pos, e);
  for (std::string_view w : {"true", "false", "null"})
    if (c == w[0]) {
      if (s.substr(pos, w.size()) != w) return scan_fail(e, pos, "expected a value");
      pos += w.size();
      return true;
    }
  return unexpected(s, pos, e);
}

// A member name and its ':' (white space around both skipped).
bool scan_member_name(std::string_view s, std::size_t& pos, ScanError& e) {
  skip(s, pos);
  if (pos >= s.size() || s[pos] != '"')
    return scan_fail(e, pos, "expected a member name in double quotes");
  if (!scan_string(s, pos, e)) return false;
  skip(s, pos);
  if (pos >= s.size() || s[pos] != ':')
    return scan_fail(e, pos, "expected ':' after a member name");
  ++pos;
  return true;
}

// Any value, checked without being built, inside `outer` open containers; nesting is bounded
// (outer ones included) so hostile input cannot overflow.
bool scan_value(std::string_view s, std::size_t& pos, ScanError& e, int outer) {
  char open[kMaxDepth];
  int depth = 0;
  while (true) {
    // A value starts here (or an empty container closes).
    skip(s, pos);
    if (pos >= s.size()) return scan_fail(e, pos, "expected a value, found the end of the line");
    const char c = s[pos];
    if (c == '{' || c == '[') {
      if (outer + depth >= kMaxDepth) return scan_fail(e, pos, "nesting deeper than 64 levels");
      open[depth++] = c;
      ++pos;
      skip(s, pos);
      if (pos < s.size() && s[pos] == (c == '{' ? '}' : ']')) {
        ++pos;
        --depth;
      } else {
        if (c == '{' && !scan_member_name(s, pos, e)) return false;
        continue;
      }
    } else if (!scan_scalar(s, pos, e)) {
      return false;
    }
    // After a value: close containers until one continues with ','.
    while (true) {
      if (depth == 0) return true;
      const char close = open[depth - 1] == '{' ? '}' : ']';
      skip(s, pos);
      if (pos < s.size() && s[pos] == close) {
        ++pos;
        --depth;
        continue;
      }
      if (pos < s.size() && s[pos] == ',') {
        ++pos;
        if (open[depth - 1] == '{' && !scan_member_name(s, pos, e)) return false;
        break;
      }
      return scan_fail(e, pos, std::string("expected ',' or '") + close + "'");
    }
  }
}
}  // namespace

namespace {
// The column in characters of byte `pos`, as an editor counts it: UTF-8 continuation bytes do
// not count.
std::size_t column_at(std::string_view s, std::size_t pos) {
  std::size_t col = 1;
  for (std::size_t i = 0; i < pos && i < s.size(); ++i)
    col += (static_cast<unsigned char>(s[i]) & 0xC0u) != 0x80u;
  return col;
}
}  // namespace

bool Document::fail(std::size_t pos, std::string msg) {
  error_ = std::move(msg);
  error_col_ = column_at(s_, pos);
  return false;
}

std::size_t Document::column_of(const Value& v) const {
  const char* p = v.text.data();
  if (!p || p < s_.data() || p > s_.data() + s_.size()) return 1;
  auto pos = static_cast<std::size_t>(p - s_.data());
  if (v.kind == Kind::String && pos > 0) --pos;  // the opening quote
  return column_at(s_, pos);
}

bool Document::parse(std::string_view line, std::span<const std::string_view> skip_keys) {
  s_ = line;
  skip_ = skip_keys;
  values_.clear();
  error_.clear();
  depth_ = 0;
  std::size_t pos = 0;
  uint32_t root = 0;
  if (!value(pos, root)) return false;
  skip(s_, pos);
  if (pos != s_.size()) return fail(pos, "unexpected text after the JSON value");
  return true;
}

bool Document::value(std::size_t& pos, uint32_t& index) {
  int& depth = depth_;  // open containers on the path; bounded so hostile input cannot overflow
  skip(s_, pos);
  if (pos >= s_.size()) return fail(pos, "expected a value, found the end of the line");
  index = static_cast<uint32_t>(values_.size());
  values_.push_back({});
  const char c = s_[pos];
  if (c == '{' || c == '[') {
    if (depth >= kMaxDepth) return fail(pos, "nesting deeper than 64 levels");
    ++depth;
    const bool obj = c == '{';
    const char close = obj ? '}' : ']';
    values_[index].kind = obj ? Kind::Object : Kind::Array;
    ++pos;
    skip(s_, pos);
    uint32_t prev = 0;
    bool first = true;
    if (pos < s_.size() && s_[pos] == close) {
      ++pos;
      --depth;
      return true;
    }
    while (true) {
      std::string_view key;
      if (obj) {
        skip(s_, pos);
        if (pos >= s_.size() || s_[pos] != '"') {
          --depth;
          return fail(pos, "expected a member name in double quotes");
        }
        uint32_t k = 0;
        if (!value(pos, k)) return --depth, false;
        key = values_[k].text;
        values_.pop_back();
        skip(s_, pos);
        if (pos >= s_.size() || s_[pos] != ':')
          return --depth, fail(pos, "expected ':' after a member name");
        ++pos;
        if (std::find(skip_.begin(), skip_.end(), key) != skip_.end()) {
          skip(s_, pos);
          const std::size_t start = pos;
          if (!skip_value(pos)) return --depth, false;
          uint32_t child = static_cast<uint32_t>(values_.size());
          values_.push_back({Kind::Skipped, s_.substr(start, pos - start), 0, 0, 0, key});
          if (first)
            values_[index].first = child;
          else
            values_[prev].next = child;
          first = false;
          prev = child;
          ++values_[index].count;
          skip(s_, pos);
          if (pos < s_.size() && s_[pos] == ',') {
            ++pos;
            continue;
          }
          if (pos < s_.size() && s_[pos] == close) {
            ++pos;
            break;
          }
          --depth;
          return fail(pos, std::string("expected ',' or '") + close + "'");
        }
      }
      uint32_t child = 0;
      if (!value(pos, child)) return --depth, false;
      values_[child].key = key;
      if (first)
        values_[index].first = child;
      else
        values_[prev].next = child;
      first = false;
      prev = child;
      ++values_[index].count;
      skip(s_, pos);
      if (pos < s_.size() && s_[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < s_.size() && s_[pos] == close) {
        ++pos;
        break;
      }
      --depth;
      return fail(pos, std::string("expected ',' or '") + close + "'");
    }
    --depth;
    return true;
  }
  if (c == '"') {
    const std::size_t start = pos + 1;
    ScanError e;
    if (!scan_string(s_, pos, e)) return fail(e.pos, e.msg);
    values_[index].kind = Kind::String;
    values_[index].text = s_.substr(start, pos - 1 - start);
    return true;
  }
  auto word = [&](std::string_view w, Kind k) {
    if (s_.substr(pos, w.size()) != w) return fail(pos, "expected a value");
    values_[index].kind = k;
    values_[index].text = s_.substr(pos, w.size());
    pos += w.size();
    return true;
  };
  if (c == 't') return word("true", Kind::Bool);
  if (c == 'f') return word("false", Kind::Bool);
  if (c == 'n') return word("null", Kind::Null);
  if (c == '-' || (c >= '0' && c <= '9')) {
    const std::size_t start = pos;
    ScanError e;
    if (!scan_number(s_, pos, e)) return fail(e.pos, e.msg);
    values_[index].kind = Kind::Number;
    values_[index].text = s_.substr(start, pos - start);
    return true;
  }
  ScanError e;
  unexpected(s_, pos, e);
  return fail(e.pos, e.msg);
}

bool Document::skip_value(std::size_t& pos) {
  ScanError e;
  if (!scan_value(s_, pos, e, depth_)) return fail(e.pos, e.msg);
  return true;
}

const Value* Document::get(const Value& v, std::string_view key) const {
  // A name given twice means its last value, as in the pull reader (and most JSON readers).
  if (v.kind != Kind::Object || v.count == 0) return nullptr;
  const Value* found = nullptr;
  for (uint32_t i = v.first;; i = values_[i].next) {
    if (values_[i].key == key) found = &values_[i];
    if (values_[i].next == 0) break;
  }
  return found;
}

std::vector<const Value*> Document::items(const Value& v) const {
  std::vector<const Value*> out;
  items(v, out);
  return out;
}

void Document::items(const Value& v, std::vector<const Value*>& out) const {
  out.clear();
  if ((v.kind != Kind::Array && v.kind != Kind::Object) || v.count == 0) return;
  for (uint32_t i = v.first;; i = values_[i].next) {
    out.push_back(&values_[i]);
    if (values_[i].next == 0) break;
  }
}

std::string_view kind_name(Kind k) {
  switch (k) {
    case Kind::Null:
      return "null";
    case Kind::Bool:
      return "a boolean";
    case Kind::Number:
      return "a number";
    case Kind::String:
      return "a string";
    case Kind::Array:
      return "an array";
    case Kind::Object:
      return "an object";
    case Kind::Skipped:
      return "a value";
  }
  return "?";
}

namespace {
// Eight hex digits at `p` (little-endian load), all at once: each byte is checked to be a digit
// or a letter a-f/A-F, then mapped to its nibble and the nibbles gathered. `nullopt` when a byte
// is not a hex digit or the value needs more than `bits` bits.
[[gnu::always_inline]] inline std::optional<uint64_t> hex8(const char* p, int bits) {
  constexpr uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  uint64_t x;
  std::memcpy(&x, p, 8);
  if (x & highs) return std::nullopt;  // every byte below 0x80 from here on: no borrows across
  // digit: 0x30..0x39; letter: (x | 0x20) in 0x61..0x66. For bytes below 0x80, y + (0x80 - k)
  // sets the high bit exactly when y >= k.
  const uint64_t ge0 = x + ones * (0x80 - '0'), gt9 = x + ones * (0x80 - '9' - 1);
  const uint64_t lower = x | ones * 0x20;
  const uint64_t gea = lower + ones * (0x80 - 'a'), gtf = lower + ones * (0x80 - 'f' - 1);
  const uint64_t digit = ge0 & ~gt9 & highs, letter = gea & ~gtf & highs;
  if ((digit | letter) != highs) return std::nullopt;
  // Nibble: low four bits, plus 9 for letters.
  const uint64_t nib = (x & ones * 0x0f) + (letter >> 7) * 9;
  // Byte k holds the digit of weight 16^(7-k): gather pairs, then quads, then the whole (each
  // step shifts both ways and keeps the lanes that hold the merged value).
  uint64_t v = ((nib << 4) | (nib >> 8)) & 0x00ff00ff00ff00ffull;
  v = ((v << 8) | (v >> 16)) & 0x0000ffff0000ffffull;
  v = ((v << 16) | (v >> 32)) & 0xffffffffull;
  if (bits < 64 && (v >> bits)) return std::nullopt;
  return v;
}

// The string at `pos` when it is written as "0x" and eight hex digits (the layout warpspec and
// most writers use): its value, which must fit `bits`. nullopt for any other text, which the
// general readers then take (and accept or refuse exactly as they would have).
[[gnu::always_inline]] inline std::optional<uint64_t> quoted_hex8(std::string_view s,
                                                                  std::size_t pos, int bits) {
  if constexpr (std::endian::native == std::endian::little) {
    if (pos + 12 <= s.size() && s[pos] == '"' && s[pos + 1] == '0' && (s[pos + 2] | 0x20) == 'x' &&
        s[pos + 11] == '"')
      return hex8(s.data() + pos + 3, bits);
  }
  return std::nullopt;
}
}  // namespace

std::optional<uint64_t> as_uint(const Value& v, int bits) {
  std::string_view t = v.text;
  if (v.kind != Kind::Number && v.kind != Kind::String) return std::nullopt;
  int base = 10;
  if (v.kind == Kind::String && t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    // Hex is the common case in vector files: a direct loop beats from_chars here.
    t.remove_prefix(2);
    if (t.empty() || t.size() > 16) return std::nullopt;
    static constexpr auto kDigit = [] {
      std::array<uint8_t, 256> t{};
      t.fill(0xff);
      for (int c = 0; c < 10; ++c) t['0' + c] = static_cast<uint8_t>(c);
      for (int c = 0; c < 6; ++c) t['a' + c] = t['A' + c] = static_cast<uint8_t>(10 + c);
      return t;
    }();
    if constexpr (std::endian::native == std::endian::little) {
      if (t.size() == 8) return hex8(t.data(), bits);  // the width vector files write
    }
    uint64_t x = 0;
    unsigned bad = 0;
    for (char ch : t) {
      const unsigned d = kDigit[static_cast<unsigned char>(ch)];
      bad |= d;
      x = x << 4 | (d & 15u);
    }
    if (bad & 0x80u) return std::nullopt;
    if (bits < 64 && (x >> bits)) return std::nullopt;
    return x;
  }
  if (t.empty()) return std::nullopt;
  uint64_t x = 0;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), x, base);
  if (ec != std::errc{} || p != t.data() + t.size()) return std::nullopt;
  if (bits < 64 && (x >> bits)) return std::nullopt;
  return x;
}

}  // namespace warpspec::vectors::json

namespace warpspec::vectors::json {

char Pull::peek() {
  json::skip(s_, pos_);
  return pos_ < s_.size() ? s_[pos_] : '\0';
}

void Pull::expect(char c) {
  if (peek() != c) fail(std::string("expected '") + c + "'");
  ++pos_;
  nest(c);
}

bool Pull::accept(char c) {
  if (peek() != c) return false;
  ++pos_;
  nest(c);
  return true;
}

void Pull::nest(char c) {
  if (c == '{' || c == '[') {
    if (++depth_ > kMaxDepth) fail("nesting deeper than 64 levels");
  } else if (c == '}' || c == ']') {
    --depth_;
  }
}

std::string_view Pull::string() {
  if (peek() != '"') fail("expected a string");
  const std::size_t start = ++pos_;
  // Fast path: plain bytes up to the closing quote.
  const std::size_t q = plain_run(s_, start);
  if (q < s_.size() && s_[q] == '"') {
    pos_ = q + 1;
    return s_.substr(start, q - start);
  }
  ScanError err;
  pos_ = start - 1;
  if (!scan_string(s_, pos_, err)) throw Error{err.pos + 1, err.msg};
  return s_.substr(start, pos_ - 1 - start);
}

std::string_view Pull::key() {
  auto k = string();
  expect(':');
  return k;
}

bool Pull::more_members_spaced() {
  if (accept(',')) return true;
  expect('}');
  return false;
}

bool Pull::more_items_spaced() {
  if (accept(',')) return true;
  expect(']');
  return false;
}

std::optional<uint32_t> Pull::hex_word() {
  const auto x = quoted_hex8(s_, pos_, 32);
  if (!x) return std::nullopt;
  pos_ += 12;
  return static_cast<uint32_t>(*x);
}

bool Pull::boolean() {
  peek();
  if (s_.substr(pos_, 4) == "true") return pos_ += 4, true;
  if (s_.substr(pos_, 5) == "false") return pos_ += 5, false;
  fail("expected true or false");
}

bool Pull::null() {
  if (pos_ < s_.size() && s_[pos_] == '"') return false;
  peek();
  if (s_.substr(pos_, 4) != "null") return false;
  pos_ += 4;
  return true;
}

uint64_t Pull::bits(int width) {
  // The compact layout is decoded in place; any other text (errors included) takes the general
  // path below, which accepts the same values.
  if (auto x = quoted_hex8(s_, pos_, width)) {
    pos_ += 12;
    return *x;
  }
  const char c = peek();
  const std::size_t start = pos_;
  Value v;
  if (c == '"') {
    v.kind = Kind::String;
    v.text = string();
  } else if (c == 't' || c == 'f') {
    return boolean();
  } else if (c == '-' || (c >= '0' && c <= '9')) {
    std::size_t b = pos_;
    if (s_[pos_] == '-') ++pos_;
    while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
    v.kind = Kind::Number;
    v.text = s_.substr(b, pos_ - b);
    if (v.text[0] == '-') {
      int64_t x = 0;
      auto r = std::from_chars(v.text.data(), v.text.data() + v.text.size(), x);
      if (r.ec != std::errc{} || r.ptr != v.text.data() + v.text.size() ||
          (width == 32 && x < INT32_MIN))
        throw Error{start + 1, "'" + std::string(v.text) + "' is out of range"};
      return width == 64 ? static_cast<uint64_t>(x) : static_cast<uint32_t>(x);
    }
    if (v.text.size() <= 19) {  // as as_uint reads digits (from_chars): nineteen cannot overflow
      uint64_t x = 0;
      for (const char d : v.text) x = x * 10 + static_cast<unsigned>(d - '0');
      if (width >= 64 || (x >> width) == 0) return x;
    }
  } else {
    fail("expected a value (\"0x...\" or an integer)");
  }
  auto x = as_uint(v, width);
  if (!x)
    throw Error{start + 1, "expected a " + std::to_string(width) +
                               "-bit value (\"0x...\" or an integer), found '" +
                               std::string(v.text) + "'"};
  return *x;
}

namespace {
// True when `s` holds the literal `w` at `pos`: a fixed-length comparison the compiler unrolls.
template <std::size_t N>
[[gnu::always_inline]] inline bool starts_with_at(std::string_view s, std::size_t pos,
                                                  const char (&w)[N]) {
  if (pos + N - 1 > s.size()) return false;
  for (std::size_t k = 0; k + 1 < N; ++k)
    if (s[pos + k] != w[k]) return false;
  return true;
}

// Four one-digit numbers, each followed by a comma ("1,0,1,2,": a block's predicates), at `q`
// (eight readable bytes): their digits in the low nibbles of four 16-bit lanes, or nullopt. Odd
// bytes must be commas, even ones digits; in 16-bit lanes no borrow crosses into the next digit.
[[gnu::always_inline]] inline std::optional<uint64_t> four_digits(const char* q) {
  if constexpr (std::endian::native == std::endian::little) {
    constexpr uint64_t lows = 0x00ff00ff00ff00ffull, commas = 0x2c002c002c002c00ull,
                       bit8 = 0x0100010001000100ull;
    uint64_t w;
    std::memcpy(&w, q, 8);
    const uint64_t e = w & lows;
    const uint64_t ge0 = e + 0x00d000d000d000d0ull, gt9 = e + 0x00c600c600c600c6ull;
    if ((w & ~lows) == commas && (ge0 & ~gt9 & bit8) == bit8) return e - 0x0030003000300030ull;
  }
  return std::nullopt;
}

// The element at `q` (Digits + 5 readable bytes) when written `"0x`, Digits (8 or 16) hex digits
// and `"`, followed by ',' or ']': its value; nullopt otherwise (other spellings take the general
// path).
template <int Digits>
[[gnu::always_inline]] inline std::optional<uint64_t> hex_element(const char* q) {
  static_assert(Digits == 8 || Digits == 16);
  if constexpr (std::endian::native == std::endian::little) {
    uint32_t head;
    uint16_t tail;
    std::memcpy(&head, q, 4);
    std::memcpy(&tail, q + 3 + Digits, 2);
    // `"0x` first; `",` or `"]` after the digits.
    if ((head & 0xffffffu) == 0x783022u && (tail == 0x2c22u || tail == 0x5d22u)) {
      if constexpr (Digits == 8) return hex8(q + 3, 64);
      const auto hi = hex8(q + 3, 64), lo = hex8(q + 11, 64);
      if (hi && lo) return *hi << 32 | *lo;
    }
  }
  return std::nullopt;
}
}  // namespace

std::size_t Pull::compact_items(uint32_t* out, uint8_t* present, std::size_t max, int width,
                                bool& closed) {
  closed = false;
  std::size_t k = 0;
  const std::string_view s = s_;
  const char* p = s.data();
  const std::size_t n = s.size();
  // A local position: stores through `present` (bytes) could otherwise alias the member.
  std::size_t pos = pos_;
  while (k < max) {
    std::size_t len = 0;  // the element's length
    uint32_t x = 0;
    bool have = true;
    const char c = pos < n ? p[pos] : '\0';
    if (c == '"') {
      const auto v = width == 32 ? quoted_hex8(s, pos, 32) : std::nullopt;
      if (!v) break;
      x = static_cast<uint32_t>(*v);
      len = 12;
    } else if (c == '0' || c == '1') {
      x = c == '1';
      len = 1;
    } else if (c == 't' && starts_with_at(s, pos, "true")) {
      x = 1;
      len = 4;
    } else if (c == 'f' && starts_with_at(s, pos, "false")) {
      len = 5;
    } else if (c == 'n' && present && starts_with_at(s, pos, "null")) {
      have = false;
      len = 4;
    } else {
      break;
    }
    if (pos + len >= n || (p[pos + len] != ',' && p[pos + len] != ']')) break;
    if (have) {
      out[k] = x;
      if (present) present[k] = 1;
    }
    ++k;
    const bool last = p[pos + len] == ']';
    pos += len + 1;
    if (last) {
      pos_ = pos;
      nest(']');
      closed = true;
      return k;
    }
  }
  pos_ = pos;
  return k;
}

template <class T>
std::size_t Pull::compact_words(T* out, std::size_t max, int width, bool& closed) {
  closed = false;
  std::size_t k = 0;
  const char* p = s_.data();
  const std::size_t n = s_.size();
  std::size_t pos = pos_;  // local, as in compact_items
  while (k < max) {
    std::size_t len = 0;
    uint64_t x = 0;
    const char c = pos < n ? p[pos] : '\0';
    if (c == '"') {
      // The common case, a run of "0x" and eight (or sixteen) hex digits, each checked in three
      // loads.
      const std::size_t before = k;
      while (k < max && pos + 13 <= n) {
        std::size_t size = 12;
        auto v = hex_element<8>(p + pos);
        if (!v && pos + 21 <= n) {
          v = hex_element<16>(p + pos);
          if (v && width < 64 && (*v >> width)) v.reset();
          size = 20;
        }
        if (!v) break;
        out[k++] = static_cast<T>(*v);
        const bool last = p[pos + size] == ']';
        pos += size + 1;
        if (last) {
          pos_ = pos;
          nest(']');
          closed = true;
          return k;
        }
      }
      if (k != before) continue;  // the next element, whatever its shape
      // 'X', sixteen digits, or the end of the line near
      if (pos + 12 > n || p[pos + 1] != '0' || (p[pos + 2] | 0x20) != 'x') break;
      if (p[pos + 11] == '"') {
        const auto v = hex8(p + pos + 3, 64);
        if (!v) break;
        x = *v;
        len = 12;
      } else {
        if (pos + 20 > n || p[pos + 19] != '"') break;
        const auto hi = hex8(p + pos + 3, 64), lo = hex8(p + pos + 11, 64);
        if (!hi || !lo) break;
        x = *hi << 32 | *lo;
        if (width < 64 && (x >> width)) break;
        len = 20;
      }
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      if (k + 4 <= max && pos + 8 <= n) {
        if (const auto d = four_digits(p + pos)) {
          out[k] = static_cast<T>(*d & 0xf);
          out[k + 1] = static_cast<T>((*d >> 16) & 0xf);
          out[k + 2] = static_cast<T>((*d >> 32) & 0xf);
          out[k + 3] = static_cast<T>(*d >> 48);
          k += 4;
          pos += 8;
          continue;
        }
      }
      // As bits() reads a number: from_chars on the digits, which must fit the width; negative
      // ones as int64_t, at least INT32_MIN at width 32. Eighteen digits cannot overflow.
      const bool neg = c == '-';
      std::size_t q = pos + neg;
      const std::size_t first = q;
      while (q < n && q - first < 19 && p[q] >= '0' && p[q] <= '9')
        x = x * 10 + static_cast<unsigned>(p[q++] - '0');
      if (q == first || q - first > 18) break;
      if (neg) {
        if (width == 32 && x > uint64_t{1} << 31) break;
        const int64_t v = -static_cast<int64_t>(x);
        x = width == 64 ? static_cast<uint64_t>(v) : static_cast<uint32_t>(v);
      } else if (width < 64 && (x >> width)) {
        break;
      }
      len = q - pos;
    } else if (c == 't' && starts_with_at(s_, pos, "true")) {
      x = 1;
      len = 4;
    } else if (c == 'f' && starts_with_at(s_, pos, "false")) {
      len = 5;
    } else {
      break;
    }
    if (pos + len >= n || (p[pos + len] != ',' && p[pos + len] != ']')) break;
    out[k++] = static_cast<T>(x);
    const bool last = p[pos + len] == ']';
    pos += len + 1;
    if (last) {
      pos_ = pos;
      nest(']');
      closed = true;
      return k;
    }
  }
  pos_ = pos;
  return k;
}

template std::size_t Pull::compact_words<uint32_t>(uint32_t*, std::size_t, int, bool&);
template std::size_t Pull::compact_words<uint64_t>(uint64_t*, std::size_t, int, bool&);

void Pull::skip() {
  // An array of plain strings or integers (a vector's per-lane state) is walked directly;
  // anything else, or anything unusual inside it, is scanned from the '[' again by the general
  // scanner.
  if (peek() == '[' && depth_ + 1 < kMaxDepth) {
    const std::size_t n = s_.size();
    auto digit = [&](std::size_t k) { return k < n && s_[k] >= '0' && s_[k] <= '9'; };
    std::size_t pos = pos_ + 1;
    std::size_t width = 0;  // the length of the first string element's contents
    while (pos < n) {
      std::size_t q = pos;  // the end of this element
      if (s_[pos] == '"' && width && pos + width + 2 < n && s_[pos + width + 1] == '"' &&
          plain_span(s_.data() + pos + 1, width)) {
        q = pos + width + 2;  // as wide as the first element: checked in one or two words
      } else if (s_[pos] == '"') {
        q = plain_run(s_, pos + 1);
        width = q - pos - 1;
        if (q >= n || s_[q] != '"') break;
        ++q;
      } else {
        if (s_[q] == '-') ++q;
        if (!digit(q)) break;
        if (s_[q++] != '0')  // JSON has no leading zeros
          while (digit(q)) ++q;
      }
      if (q >= n) break;
      if (s_[q] == ']') {
        pos_ = q + 1;
        return;
      }
      if (s_[q] != ',') break;
      pos = q + 1;
    }
  }
  peek();
  ScanError e;
  if (!scan_value(s_, pos_, e, depth_)) throw Error{e.pos + 1, e.msg};
}

void Pull::end() {
  // Not `peek() != '\0'`: a NUL byte after the value is text too, not the end of the line.
  json::skip(s_, pos_);
  if (pos_ < s_.size()) fail("unexpected text after the JSON value");
}

}  // namespace warpspec::vectors::json
