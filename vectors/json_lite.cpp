#include "vectors/json_lite.hpp"

#include <algorithm>
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
}  // namespace

bool Document::fail(std::size_t pos, std::string msg) {
  error_ = std::move(msg);
  error_col_ = pos + 1;
  return false;
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
    const std::size_t start = ++pos;
    while (pos < s_.size() && s_[pos] != '"') {
      const auto ch = static_cast<unsigned char>(s_[pos]);
      if (ch < 0x20) return fail(pos, "control character inside a string");
      if (ch == '\\') {
        if (pos + 1 >= s_.size()) break;
        const char e = s_[pos + 1];
        if (e == 'u') {
          for (int k = 2; k < 6; ++k)
            if (pos + k >= s_.size() || !std::isxdigit(static_cast<unsigned char>(s_[pos + k])))
              return fail(pos, "malformed \\u escape");
          pos += 6;
          continue;
        }
        if (std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos)
          return fail(pos, "unknown escape in a string");
        pos += 2;
        continue;
      }
      ++pos;
    }
    if (pos >= s_.size()) return fail(start - 1, "unterminated string");
    values_[index].kind = Kind::String;
    values_[index].text = s_.substr(start, pos - start);
    ++pos;
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
    if (s_[pos] == '-') ++pos;
    auto digits = [&] {
      const std::size_t b = pos;
      while (pos < s_.size() && s_[pos] >= '0' && s_[pos] <= '9') ++pos;
      return pos > b;
    };
    if (!digits()) return fail(pos, "malformed number");
    if (pos < s_.size() && s_[pos] == '.') {
      ++pos;
      if (!digits()) return fail(pos, "malformed number");
    }
    if (pos < s_.size() && (s_[pos] == 'e' || s_[pos] == 'E')) {
      ++pos;
      if (pos < s_.size() && (s_[pos] == '+' || s_[pos] == '-')) ++pos;
      if (!digits()) return fail(pos, "malformed number");
    }
    values_[index].kind = Kind::Number;
    values_[index].text = s_.substr(start, pos - start);
    return true;
  }
  return fail(pos, std::string("unexpected character '") + c + "'");
}

bool Document::skip_value(std::size_t& pos) {
  // Strings are skipped whole; brackets must balance. Scalars run to the next delimiter.
  int level = 0;
  const std::size_t start = pos;
  while (pos < s_.size()) {
    const char c = s_[pos];
    if (c == '"') {
      ++pos;
      while (pos < s_.size() && s_[pos] != '"') pos += s_[pos] == '\\' ? 2 : 1;
      if (pos >= s_.size()) return fail(start, "unterminated string");
      ++pos;
    } else if (c == '[' || c == '{') {
      if (++level > kMaxDepth) return fail(pos, "nesting deeper than 64 levels");
      ++pos;
    } else if (c == ']' || c == '}') {
      if (level == 0) break;
      --level;
      ++pos;
    } else if (c == ',' && level == 0) {
      break;
    } else {
      ++pos;
    }
    if (level == 0 && (c == '"' || c == ']' || c == '}')) break;
  }
  if (level != 0) return fail(start, "unbalanced brackets");
  if (pos == start) return fail(pos, "expected a value");
  return true;
}

const Value* Document::get(const Value& v, std::string_view key) const {
  if (v.kind != Kind::Object || v.count == 0) return nullptr;
  for (uint32_t i = v.first;; i = values_[i].next) {
    if (values_[i].key == key) return &values_[i];
    if (values_[i].next == 0) break;
  }
  return nullptr;
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

std::optional<uint64_t> as_uint(const Value& v, int bits) {
  std::string_view t = v.text;
  if (v.kind != Kind::Number && v.kind != Kind::String) return std::nullopt;
  int base = 10;
  if (v.kind == Kind::String && t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    // Hex is the common case in vector files: a direct loop beats from_chars here.
    t.remove_prefix(2);
    if (t.empty() || t.size() > 16) return std::nullopt;
    uint64_t x = 0;
    for (char ch : t) {
      unsigned d;
      if (ch >= '0' && ch <= '9')
        d = static_cast<unsigned>(ch - '0');
      else if (ch >= 'a' && ch <= 'f')
        d = static_cast<unsigned>(ch - 'a' + 10);
      else if (ch >= 'A' && ch <= 'F')
        d = static_cast<unsigned>(ch - 'A' + 10);
      else
        return std::nullopt;
      x = x << 4 | d;
    }
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
}

bool Pull::accept(char c) {
  if (peek() != c) return false;
  ++pos_;
  return true;
}

std::string_view Pull::string() {
  if (peek() != '"') fail("expected a string");
  const std::size_t start = ++pos_;
  // Fast path: find the closing quote, then confirm the span holds no escape or control byte.
  const char* b = s_.data() + start;
  const char* e = s_.data() + s_.size();
  const char* q = static_cast<const char*>(std::memchr(b, '"', static_cast<std::size_t>(e - b)));
  if (q) {
    bool plain = true;
    for (const char* c = b; c < q; ++c)
      plain &= *c != '\\' && static_cast<unsigned char>(*c) >= 0x20;
    if (plain) {
      pos_ = static_cast<std::size_t>(q - s_.data()) + 1;
      return s_.substr(start, static_cast<std::size_t>(q - b));
    }
  }
  while (pos_ < s_.size() && s_[pos_] != '"') {
    if (static_cast<unsigned char>(s_[pos_]) < 0x20) fail("control character inside a string");
    pos_ += s_[pos_] == '\\' ? 2 : 1;
  }
  if (pos_ >= s_.size()) throw Error{start, "unterminated string"};
  return s_.substr(start, pos_++ - start);
}

std::string_view Pull::key() {
  auto k = string();
  expect(':');
  return k;
}

bool Pull::more_members() {
  if (accept(',')) return true;
  expect('}');
  return false;
}

bool Pull::more_items() {
  if (accept(',')) return true;
  expect(']');
  return false;
}

bool Pull::boolean() {
  peek();
  if (s_.substr(pos_, 4) == "true") return pos_ += 4, true;
  if (s_.substr(pos_, 5) == "false") return pos_ += 5, false;
  fail("expected true or false");
}

bool Pull::null() {
  peek();
  if (s_.substr(pos_, 4) != "null") return false;
  pos_ += 4;
  return true;
}

uint64_t Pull::bits(int width) {
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

void Pull::skip() {
  const char c = peek();
  if (c == '"') {
    string();
    return;
  }
  int level = 0;
  const std::size_t start = pos_;
  while (pos_ < s_.size()) {
    const char ch = s_[pos_];
    if (ch == '"') {
      string();
      continue;
    }
    if (ch == '[' || ch == '{') {
      if (++level > kMaxDepth) fail("nesting deeper than 64 levels");
    } else if (ch == ']' || ch == '}') {
      if (level == 0) break;
      if (--level == 0) {
        ++pos_;
        return;
      }
    } else if (ch == ',' && level == 0) {
      break;
    }
    ++pos_;
  }
  if (level != 0) throw Error{start + 1, "unbalanced brackets"};
  if (pos_ == start) fail("expected a value");
}

void Pull::end() {
  if (peek() != '\0') fail("unexpected text after the JSON value");
}

}  // namespace warpspec::vectors::json
