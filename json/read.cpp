#include "json/read.hpp"

#include <bit>
#include <vector>

#include "model/input.hpp"
#include "spec/instr_parse.hpp"

namespace warpspec::json {

static_assert(kPadding >= simdjson::SIMDJSON_PADDING);

namespace {

const Path kRoot;

// Deeper containers inside a member the format ignores are refused rather than walked.
constexpr int kMaxDepth = 64;

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

std::string hex_byte(unsigned char c) {
  static constexpr char digits[] = "0123456789abcdef";
  return std::string("0x") + digits[c >> 4] + digits[c & 15];
}

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

// The first fault simdjson's first pass finds without saying where: a byte that is not UTF-8, a
// control byte inside a string, a NUL byte, a string never closed.
struct Fault {
  std::size_t pos = 0;
  std::string message;
};

std::optional<Fault> first_fault(std::string_view s) {
  bool in_string = false;
  std::size_t open = 0;
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const auto n = utf8_length(s, i);
      if (n == 0)
        return Fault{i, "byte " + hex_byte(c) + " is not UTF-8 text (JSON Lines files are UTF-8)"};
      i += n;
      continue;
    }
    if (in_string && c < 0x20) {
      char u[8];
      std::snprintf(u, sizeof u, "%04x", c);
      return Fault{i, "control character " + hex_byte(c) +
                          " inside a string (write it escaped, as \\u" + u + ")"};
    }
    if (!in_string && c == 0) return Fault{i, "unexpected byte 0x00 (NUL)"};
    if (c == '"') {
      in_string = !in_string;
      open = i;
    } else if (in_string && c == '\\' && i + 1 < s.size() &&
               static_cast<unsigned char>(s[i + 1]) >= 0x20 &&
               static_cast<unsigned char>(s[i + 1]) < 0x80) {
      ++i;
    }
    ++i;
  }
  if (in_string) return Fault{open, "unterminated string"};
  return std::nullopt;
}

// True when the string whose closing quote is s[close] is a member name: an object's '{' or ','
// comes before it.
bool member_name(std::string_view s, std::size_t close) {
  std::size_t q = close;
  while (q > 0) {
    --q;
    if (s[q] != '"') continue;
    std::size_t slashes = 0;
    while (q > slashes && s[q - 1 - slashes] == '\\') ++slashes;
    if (slashes % 2 == 0) break;
  }
  while (q > 0 && is_space(s[q - 1])) --q;
  return q > 0 && (s[q - 1] == '{' || s[q - 1] == ',');
}

// What was expected at s[pos], where a syntax error stopped the walk of a container of kind
// `in`, judged from the text before it.
std::string expectation(std::string_view s, std::size_t pos, Kind in) {
  std::size_t p = std::min(pos, s.size());
  while (p > 0 && is_space(s[p - 1])) --p;
  const char prev = p ? s[p - 1] : '\0';
  if (in == Kind::Object) {
    if (prev == '{') return "expected a member name in double quotes or '}'";
    if (prev == ',') return "expected a member name in double quotes";
    if (prev == ':') return "expected a value";
    if (prev == '"' && member_name(s, p - 1)) return "expected ':' after a member name";
    return "expected ',' or '}'";
  }
  if (in == Kind::Array) {
    if (prev == '[') return "expected a value or ']'";
    if (prev == ',') return "expected a value";
    return "expected ',' or ']'";
  }
  return "expected a value";
}

// Where the brackets of a line whose root object does not close properly go wrong (simdjson only
// says that the root is incomplete): the first bracket that closes what is not open, the first
// text after the root object, or else the end of the line, inside the innermost open container.
struct Unbalanced {
  std::size_t pos = 0;
  Kind in = Kind::Object;
  std::string container, member;  // the paths of the innermost container, and of its member
  bool after_root = false;        // text after the root object closed
};

Unbalanced unbalanced(std::string_view s) {
  struct Open {
    Kind kind;
    std::string_view key;  // the member being read (objects)
    std::size_t index;     // the element being read (arrays)
  };
  std::vector<Open> open;
  std::string_view last_string;
  auto at = [&](std::size_t pos, Kind in) {
    Unbalanced u{pos, in, {}, {}, false};
    for (std::size_t i = 0; i < open.size(); ++i) {
      u.container = u.member;
      if (open[i].kind == Kind::Array)
        u.member += "[" + std::to_string(open[i].index) + "]";
      else if (!open[i].key.empty())
        u.member += (u.member.empty() ? "" : ".") + std::string(open[i].key);
      else if (i + 1 < open.size())
        break;  // cannot happen: a container inside an object is a member's value
    }
    return u;
  };
  bool closed_root = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (is_space(c)) continue;
    if (closed_root) return {i, Kind::Object, {}, {}, true};
    if (c == '"') {
      const std::size_t b = ++i;
      while (i < s.size() && s[i] != '"') i += s[i] == '\\' ? 2 : 1;
      last_string = s.substr(b, std::min(i, s.size()) - b);
    } else if (c == '{' || c == '[') {
      open.push_back({c == '{' ? Kind::Object : Kind::Array, {}, 0});
    } else if (c == '}' || c == ']') {
      const Kind k = c == '}' ? Kind::Object : Kind::Array;
      if (open.empty() || open.back().kind != k)
        return at(i, open.empty() ? Kind::Object : open.back().kind);
      open.pop_back();
      closed_root = open.empty();
      if (!open.empty() && open.back().kind == Kind::Object) open.back().key = {};
    } else if (!open.empty() && c == ':' && open.back().kind == Kind::Object) {
      open.back().key = last_string;
    } else if (!open.empty() && c == ',') {
      if (open.back().kind == Kind::Array)
        ++open.back().index;
      else
        open.back().key = {};
    }
  }
  return at(s.size(), open.empty() ? Kind::Object : open.back().kind);
}

bool delimiter(char c) {
  return is_space(c) || c == ',' || c == ':' || c == '[' || c == ']' || c == '{' || c == '}' ||
         c == '"';
}

std::string quoted(std::string_view t) {
  return spec::shown_text(t);
}

// What simdjson's error code `e` means, beside where it stopped.
std::string_view meaning(simdjson::error_code e) {
  using namespace simdjson;
  switch (e) {
    case NUMBER_ERROR:
      return "a malformed number";
    case NUMBER_OUT_OF_RANGE:
      return "a number out of range";
    case STRING_ERROR:
      return "a malformed escape in a string";
    case DEPTH_ERROR:
      return "nesting deeper than simdjson's limit";
    default:
      return error_message(e);
  }
}

}  // namespace

std::string Path::str() const {
  if (!parent_) return {};
  std::string s = parent_->str();
  if (element_) return s + "[" + std::to_string(index_) + "]";
  // A member name the format does not have may be of any length: shown cut.
  const std::string key = spec::shown_text(key_);
  return s.empty() ? key : s + "." + key;
}

std::string found(std::string_view text, const char* at) {
  if (at < text.data() || at >= text.data() + text.size()) return "the end of the line";
  const std::size_t pos = static_cast<std::size_t>(at - text.data());
  const char c = text[pos];
  if (c == '[') return "an array";
  if (c == '{') return "an object";
  std::size_t end = pos + 1;
  if (c == '"') {
    while (end < text.size() && text[end] != '"') end += text[end] == '\\' ? 2 : 1;
    end = std::min(end + 1, text.size());
    return quoted(text.substr(pos, end - pos));
  }
  while (end < text.size() && !delimiter(text[end])) ++end;
  return "'" + quoted(text.substr(pos, end - pos)) + "'";
}

std::optional<uint64_t> hex_digits(std::string_view t) {
  if (t.empty() || t.size() > 16) return std::nullopt;
  uint64_t hi = 0, lo = 0;
  if (t.size() == 8) return hex8(t.data(), lo) ? std::optional(lo) : std::nullopt;
  if (t.size() == 16)
    return hex8(t.data(), hi) && hex8(t.data() + 8, lo) ? std::optional(hi << 32 | lo)
                                                        : std::nullopt;
  uint64_t x = 0;
  for (const char c : t) {
    unsigned d;
    if (c >= '0' && c <= '9')
      d = static_cast<unsigned>(c - '0');
    else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
      d = static_cast<unsigned>((c | 0x20) - 'a' + 10);
    else
      return std::nullopt;
    x = x << 4 | d;
  }
  return x;
}

// ---------------------------------------------------------------- Document

Document::Document(std::string file) : file_(std::move(file)) {}

Object Document::open(const Line& line) {
  line_ = line;
  unescaped_used_ = 0;
  const std::string_view s = line.text;
  if (line.nul) {
    const auto f = first_fault(s);
    fail(s.data() + (f ? f->pos : static_cast<std::size_t>(line.nul - s.data())), kRoot,
         f ? f->message : "unexpected byte 0x00 (NUL)");
  }
  if (auto e = parser_.iterate(s.data(), s.size(), s.size() + kPadding).get(doc_)) {
    if (const auto f = first_fault(s)) fail(s.data() + f->pos, kRoot, f->message);
    fail(s.data(), kRoot, "malformed JSON (" + std::string(simdjson::error_message(e)) + ")");
  }
  const char* first = s.data();
  while (first < s.data() + s.size() && is_space(*first)) ++first;
  if (*first != '{') fail(first, kRoot, "expected a JSON object, found " + found(s, first));
  od::object o;
  if (auto e = doc_.get_object().get(o)) {
    // simdjson checks that the root object closes at the end of the line before walking it.
    if (e == simdjson::INCOMPLETE_ARRAY_OR_OBJECT) {
      const auto u = unbalanced(s);
      const char* at = s.data() + u.pos;
      if (u.after_root) fail(at, kRoot, "unexpected text after the JSON object: " + found(s, at));
      const auto expected = expectation(s, u.pos, u.in);
      // A missing value is named by its member or element, a missing ',' or bracket by its
      // container.
      const auto& path = expected.starts_with("expected a value") ? u.member : u.container;
      refuse(at, path, expected + ", found " + found(s, at));
    }
    fail(e, kRoot, Kind::Object);
  }
  return Object(*this, o, kRoot, first);
}

std::string_view Document::unescape(const char* raw, const Path& path) {
  // A line's strings, unescaped, never outgrow the line.
  if (unescaped_size_ < line_.text.size() + kPadding) {
    unescaped_size_ = line_.text.size() + kPadding;
    unescaped_ = std::make_unique<uint8_t[]>(unescaped_size_);
    unescaped_used_ = 0;
  }
  uint8_t* dst = unescaped_.get() + unescaped_used_;
  std::string_view s;
  if (parser_.unescape(od::raw_json_string(reinterpret_cast<const uint8_t*>(raw)), dst).get(s))
    fail(raw - 1, path, "a malformed escape in a string: " + found(line_.text, raw - 1));
  unescaped_used_ = static_cast<std::size_t>(dst - unescaped_.get());
  return s;
}

void Document::finish() {
  const char* at = nullptr;
  if (!doc_.current_location().get(at))
    fail(at, kRoot, "unexpected text after the JSON object: " + found(line_.text, at));
}

void Document::fail(const char* at, const Path& path, std::string_view msg) const {
  refuse(at, path.str(), msg);
}

void Document::refuse(const char* at, std::string_view path, std::string_view msg) const {
  // Names and strings, unescaped, may hold control bytes (a NUL would end the message early).
  std::string text = path.empty() ? std::string(msg) : std::string(path) + ": " + std::string(msg);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) {
      text.replace(i, 1, "\\x" + hex_byte(c).substr(2));
      i += 3;
    }
  }
  throw model::FormatError(file_, line_.number, column(at), text);
}

std::size_t Document::column(const char* at) const {
  const std::string_view s = line_.text;
  const char* end = s.data() + s.size();
  if (at < s.data() || at > end) at = end;
  return model::line_column(s, static_cast<std::size_t>(at - s.data())).second;
}

void Document::fail(simdjson::error_code e, const Path& path, Kind in, const Path* element) {
  const std::string_view s = line_.text;
  const char* at = s.data() + s.size();  // simdjson ran past the last token: the end of the line
  const char* here = nullptr;
  if (!doc_.current_location().get(here) && here >= s.data() && here < at) at = here;
  using namespace simdjson;
  switch (e) {
    case TAPE_ERROR:
    case INCOMPLETE_ARRAY_OR_OBJECT:
    case INCORRECT_TYPE:
    case TRAILING_CONTENT:
    case T_ATOM_ERROR:
    case F_ATOM_ERROR:
    case N_ATOM_ERROR: {
      const auto expected = expectation(s, static_cast<std::size_t>(at - s.data()), in);
      // A missing element is named by its index; a missing ',' or bracket by its container.
      const bool missing_value = expected.starts_with("expected a value");
      fail(at, element && missing_value ? *element : path, expected + ", found " + found(s, at));
    }
    default:
      fail(at, path, std::string(meaning(e)) + " at " + found(s, at));
  }
}

// ---------------------------------------------------------------- Value

void Value::expected(std::string_view what) const {
  fail("expected " + std::string(what) + ", found " + found(doc_->line().text, at()));
}

std::optional<int64_t> Value::as_int() {
  int64_t x = 0;
  if (v_->get_int64().get(x) == simdjson::SUCCESS) return x;
  check_number();
  return std::nullopt;
}

void Value::check_number() {
  if (kind() != Kind::Number) return;
  // simdjson has refused the number as an integer of the width asked for; say so only of a
  // well-formed one (-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?), which the caller words.
  const std::string_view all = token();
  const std::string_view t = all.substr(0, all.find_last_not_of(" \t\r\n") + 1);
  std::size_t i = t[0] == '-';
  auto digits = [&] {
    const std::size_t b = i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    return i - b;
  };
  const std::size_t first = i;
  const std::size_t whole = digits();
  bool ok = whole > 0;
  if (ok && whole > 1 && t[first] == '0')
    fail("a number with a leading zero (JSON does not allow one): " +
         found(doc_->line().text, at()));
  if (ok && i < t.size() && t[i] == '.') ok = (++i, digits() > 0);
  if (ok && i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    ok = digits() > 0;
  }
  if (!ok || i != t.size()) fail("a malformed number: " + found(doc_->line().text, at()));
}

Object Value::object() {
  od::object o;
  if (kind() != Kind::Object) expected("an object");
  if (auto e = v_->get_object().get(o)) doc_->fail(e, path_, Kind::Object);
  return Object(*doc_, o, path_, at());
}

Array Value::array() {
  od::array a;
  if (kind() != Kind::Array) expected("an array");
  if (auto e = v_->get_array().get(a)) doc_->fail(e, path_, Kind::Array);
  return Array(*doc_, a, path_, at());
}

void Value::skip() {
  skip(0);
}

void Value::pass_checked_array(std::size_t bytes) {
  od::array a;
  std::string_view raw;
  if (auto e = v_->get_array().get(a)) doc_->fail(e, path_, Kind::Array);
  if (auto e = a.raw_json().get(raw)) doc_->fail(e, path_, Kind::Array);
  // The caller's reading and simdjson's structure must end at the same byte.
  if (raw.size() != bytes) fail("internal error: a list read in place ends elsewhere");
}

void Value::skip(int depth) {
  switch (kind()) {
    case Kind::Null:
      (void)null();
      return;
    case Kind::Bool:
      (void)boolean();
      return;
    case Kind::String:
      (void)string();
      return;
    case Kind::Number:
      check_number();
      return;
    case Kind::Array:
    case Kind::Object:
      if (depth >= kMaxDepth) fail("nesting deeper than 64 levels");
      if (kind() == Kind::Array)
        array().each([&](std::size_t, Value& v) { v.skip(depth + 1); });
      else
        object().members(Names<0>{}, [&](int, Value& v) { v.skip(depth + 1); });
  }
}

// ---------------------------------------------------------------- Object

std::optional<Value> Object::find(std::string_view name, const Path& path) {
  const auto e = o_.find_field_unordered(name).get(found_);
  if (e == simdjson::NO_SUCH_FIELD) return std::nullopt;
  if (e) doc_->fail(e, *path_, Kind::Object);
  return Value(*doc_, found_, path);
}

void Object::reset() {
  bool ignored = false;
  if (auto e = o_.reset().get(ignored)) doc_->fail(e, *path_, Kind::Object);
}

void Object::unknown(const Value& member) const {
  member.refuse("unknown member (not part of this format)");
}

}  // namespace warpspec::json
