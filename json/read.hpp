#pragma once
// Reading one line of a JSON Lines file on simdjson's On-Demand API. Values are read where they
// lie, once, in the order of the text. Every accessor checks the kind it expects, and every
// refusal, simdjson's own errors included, is one model::FormatError naming the file, the line,
// the column in characters and the JSON path of the value ("rounds[1].a[3]: ...").
#include <simdjson.h>

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "json/lines.hpp"
#include "model/input.hpp"

namespace warpspec::json {

namespace od = simdjson::ondemand;

/// Where a value sits: member names and indices from the line's root, kept on the reader's
/// stack and put into words only for a message ("rounds[1].a[3]"; empty for the root).
class Path {
 public:
  Path() = default;
  Path(const Path& parent, std::string_view key) : parent_(&parent), key_(key) {}
  Path(const Path& parent, std::size_t index) : parent_(&parent), index_(index), element_(true) {}
  /// The path as text.
  std::string str() const;

 private:
  const Path* parent_ = nullptr;
  std::string_view key_;
  std::size_t index_ = 0;
  bool element_ = false;
};

/// The kinds of JSON value.
enum class Kind : uint8_t { Null, Bool, Number, String, Array, Object };

class Object;

/// One line being read; every error of the line is thrown from here.
class Document {
 public:
  /// Errors name `file`.
  explicit Document(std::string file);
  /// Starts reading `line`, whose root must be an object.
  Object open(const Line& line);
  /// After the root object: only white space may follow it.
  void finish();
  /// The file being read.
  const std::string& file() const { return file_; }
  /// The line being read.
  const Line& line() const { return line_; }
  /// The string whose text starts at `raw` (after its quote), escapes resolved; valid until the
  /// next line. Refuses a malformed escape.
  std::string_view unescape(const char* raw, const Path& path);
  /// The column, in characters, of the byte at `at` of the line (1-based).
  std::size_t column(const char* at) const;
  /// Throws the FormatError `msg` about the text at `at` (a byte of the line), at `path`.
  [[noreturn]] void fail(const char* at, const Path& path, std::string_view msg) const;
  /// Throws what a simdjson error code met in the container at `path` (of kind `in`) says,
  /// where simdjson stopped; a missing element is named by `element`, when given.
  [[noreturn]] void fail(simdjson::error_code e, const Path& path, Kind in,
                         const Path* element = nullptr);

 private:
  [[noreturn]] void refuse(const char* at, std::string_view path, std::string_view msg) const;
  std::string file_;
  od::parser parser_;
  od::document doc_;
  Line line_;
  std::unique_ptr<uint8_t[]> unescaped_;  // room for the line's strings, escapes resolved
  std::size_t unescaped_size_ = 0, unescaped_used_ = 0;
};

/// Describes the JSON text at `at` for a message: "the end of the line", a quoted token of at
/// most 80 characters with control bytes escaped, "an array", "an object".
std::string found(std::string_view text, const char* at);

/// Eight hex digits at `p` (either case) into `out`; false when a byte is not a hex digit.
[[gnu::always_inline]] inline bool hex8(const char* p, uint64_t& out) {
  // All eight at once: each byte is checked to be a digit or a letter a-f/A-F, mapped to its
  // nibble, and the nibbles gathered.
  constexpr uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  uint64_t x;
  std::memcpy(&x, p, 8);
  if constexpr (std::endian::native == std::endian::big) x = __builtin_bswap64(x);
  // For a byte y below 0x80, y + (0x80 - k) has its high bit set exactly when y >= k; no borrow
  // or carry crosses into the next byte.
  const uint64_t ge0 = x + ones * (0x80 - '0'), gt9 = x + ones * (0x80 - '9' - 1);
  const uint64_t lower = x | ones * 0x20;
  const uint64_t gea = lower + ones * (0x80 - 'a'), gtf = lower + ones * (0x80 - 'f' - 1);
  const uint64_t digit = ge0 & ~gt9 & highs, letter = gea & ~gtf & highs;
  const uint64_t nib = (x & ones * 0x0f) + (letter >> 7) * 9;
  // Byte k holds the digit of weight 16^(7-k): gather pairs, then quads, then all eight.
  uint64_t v = ((nib << 4) | (nib >> 8)) & 0x00ff00ff00ff00ffull;
  v = ((v << 8) | (v >> 16)) & 0x0000ffff0000ffffull;
  out = ((v << 16) | (v >> 32)) & 0xffffffffull;
  return !(x & highs) && (digit | letter) == highs;
}

/// The value of 1 to 16 hex digits; nullopt for anything else.
std::optional<uint64_t> hex_digits(std::string_view digits);

/// A value of the line.
class Value {
 public:
  /// `v` is read in place: it outlives the Value.
  Value(Document& doc, od::value& v, const Path& path) : doc_(&doc), v_(&v), path_(path) {}
  /// The text of the value as written, white space after a scalar included (a container or a
  /// string already read: its first byte).
  std::string_view token() const {
    if (!token_.data()) token_ = v_->raw_json_token();
    return token_;
  }
  /// Where the value's text starts.
  const char* at() const { return token().data(); }
  const Path& path() const { return path_; }
  Document& doc() const { return *doc_; }
  /// The kind of the value (refusing text that starts none).
  Kind kind() const;
  /// True (and consumed) when the value is null.
  bool null();
  /// true or false.
  bool boolean();
  /// A string, unescaped (valid until the next line).
  std::string_view string();
  /// When the value is a string: the byte after its opening quote, the string then read (its
  /// text, escapes included, is the caller's to check, or string()'s); nullptr, reading
  /// nothing, for any other value.
  const char* string_start();
  /// A JSON integer from 0 to 2^64 - 1, without fraction or exponent; nullopt for any other
  /// number. Text that is not a well-formed number is refused.
  std::optional<uint64_t> as_uint();
  /// A JSON integer from -2^63 to 2^63 - 1; nullopt for any other number, as as_uint().
  std::optional<int64_t> as_int();
  /// as_uint(), refusing any other number.
  uint64_t uint();
  /// An object or an array.
  Object object();
  class Array array();
  /// Reads and checks any value (a member the format ignores).
  void skip();
  /// Passes over an array whose `bytes` bytes of text the caller has read and checked itself
  /// (a list in the layout warpspec writes), without reading its elements again.
  void pass_checked_array(std::size_t bytes);
  /// Throws `msg` about this value, at its path.
  [[noreturn]] void fail(std::string_view msg) const { doc_->fail(at(), path_, msg); }
  /// Throws `msg` about the member this value is the value of, at its name (a member the format,
  /// or this line's instruction, does not have).
  [[noreturn]] void refuse(std::string_view msg) const { doc_->fail(name_at(), path_, msg); }
  /// Where the name of the member this value is the value of starts (else the value).
  const char* name_at() const { return name_ ? name_ : at(); }
  /// Throws "expected `what`, found ..." about this value.
  [[noreturn]] void expected(std::string_view what) const;

 private:
  void skip(int depth);
  void check_number();  // refuses a malformed number
  Document* doc_;
  od::value* v_;
  Path path_;                       // its parent lives as long as the value is read
  mutable std::string_view token_;  // found when first asked for
  const char* string_ = nullptr;    // set by string_start()
  const char* name_ = nullptr;      // a member's name (its opening quote)
  friend class Object;
};

/// The member names an object may hold: Object::members hands each member over with the index of
/// its name, refusing a name given twice.
template <std::size_t N>
using Names = std::array<std::string_view, N>;

/// An object of the line.
class Object {
 public:
  Object(Document& doc, od::object o, const Path& path, const char* at)
      : doc_(&doc), o_(o), path_(&path), at_(at) {}
  /// Reads the members in order: `f(k, value)` with k the index of the member's name in `names`,
  /// or -1 for another name (for `f` to skip or refuse with unknown()). A name given twice is
  /// refused. Returns the set of names met (bit k for names[k]).
  template <std::size_t N, class F>
  uint32_t members(const Names<N>& names, F&& f);
  /// The member `name`, wherever it stands, or nullopt; reset() before members() then.
  std::optional<Value> find(std::string_view name, const Path& path);
  /// Walks the members again from the first.
  void reset();
  /// Throws "missing field" for names[k] unless bit k of `seen` is set, for each k in `required`.
  template <std::size_t N>
  void require(const Names<N>& names, uint32_t seen, uint32_t required) const;
  /// Throws the refusal of a member this object may not hold.
  [[noreturn]] void unknown(const Value& member) const;
  const Path& path() const { return *path_; }
  [[noreturn]] void fail(std::string_view msg) const { doc_->fail(at_, *path_, msg); }

 private:
  std::string_view key_of(od::field& f);
  Document* doc_;
  od::object o_;
  od::value found_;  // what find() found
  const Path* path_;
  const char* at_;
};

/// An array of the line.
class Array {
 public:
  Array(Document& doc, od::array a, const Path& path, const char* at)
      : doc_(&doc), a_(a), path_(&path), at_(at) {}
  /// Calls f(i, value) for each element in order; returns how many there were.
  template <class F>
  std::size_t each(F&& f);
  const Path& path() const { return *path_; }
  [[noreturn]] void fail(std::string_view msg) const { doc_->fail(at_, *path_, msg); }

 private:
  Document* doc_;
  od::array a_;
  const Path* path_;
  const char* at_;
};

// ---------------------------------------------------------------- the hot parts, inline

inline Kind Value::kind() const {
  const std::string_view t = token();
  switch (*t.data()) {  // the padding after the line makes this readable
    case '"':
      return Kind::String;
    case '{':
      return Kind::Object;
    case '[':
      return Kind::Array;
    case 't':
    case 'f':
      return Kind::Bool;
    case 'n':
      return Kind::Null;
    default:
      if (!t.empty() && (t[0] == '-' || (t[0] >= '0' && t[0] <= '9'))) return Kind::Number;
      expected("a value");
  }
}

inline bool Value::null() {
  if (string_) return false;
  const std::string_view t = token();
  if (*t.data() != 'n') return false;
  if (t == "null") return true;
  bool is = false;
  if (auto e = v_->is_null().get(is); e || !is) expected("a value");
  return true;
}

inline bool Value::boolean() {
  const std::string_view t = token();
  if (t == "true") return true;
  if (t == "false") return false;
  bool b = false;
  if (kind() != Kind::Bool || v_->get_bool().get(b)) expected("true or false");
  return b;
}

inline const char* Value::string_start() {
  if (string_) return string_;
  od::raw_json_string r;
  if (v_->get_raw_json_string().get(r) != simdjson::SUCCESS) return nullptr;
  string_ = r.raw();
  token_ = std::string_view(string_ - 1, 1);  // the opening quote, for messages
  return string_;
}

inline std::string_view Value::string() {
  const char* p = string_start();
  if (!p) expected("a string");
  // simdjson has checked the string's bytes; one without escapes is read where it lies.
  const char* q = p;
  bool escapes = false;
  while (*q != '"') {
    if (*q == '\\') escapes = true, ++q;
    ++q;
  }
  if (!escapes) return std::string_view(p, static_cast<std::size_t>(q - p));
  return doc_->unescape(p, path_);
}

inline std::optional<uint64_t> Value::as_uint() {
  // Up to 19 digits without a leading zero cannot overflow; anything else is simdjson's to judge.
  const std::string_view t = token();
  const std::size_t n = t.size();
  if (n && n <= 19 && (t[0] != '0' || n == 1)) {
    uint64_t x = 0;
    std::size_t i = 0;
    for (; i < n && t[i] >= '0' && t[i] <= '9'; ++i) x = x * 10 + static_cast<unsigned>(t[i] - '0');
    if (i == n) return x;
  }
  uint64_t x = 0;
  if (v_->get_uint64().get(x) == simdjson::SUCCESS) return x;
  check_number();
  return std::nullopt;
}

inline uint64_t Value::uint() {
  const auto x = as_uint();
  if (!x) expected("a non-negative integer");
  return *x;
}

template <std::size_t N, class F>
uint32_t Object::members(const Names<N>& names, F&& f) {
  static_assert(N <= 32);
  uint32_t seen = 0;
  for (auto m : o_) {
    od::field field;
    if (auto e = std::move(m).get(field)) doc_->fail(e, *path_, Kind::Object);
    // A name written without escapes is matched where it lies (a few bytes compared in place).
    const char* raw = field.key().raw();
    int k = -1;
    for (std::size_t i = 0; i < N && k < 0; ++i) {
      const std::string_view n = names[i];
      std::size_t j = 0;
      while (j < n.size() && raw[j] == n[j]) ++j;
      if (j == n.size() && raw[j] == '"') k = static_cast<int>(i);
    }
    const std::string_view key = k >= 0 ? names[k] : key_of(field);
    if (k < 0 && key.data() != raw)  // written with escapes
      for (std::size_t i = 0; i < N; ++i)
        if (names[i] == key) k = static_cast<int>(i);
    Value v(*doc_, field.value(), Path(*path_, key));  // read where it lies
    v.name_ = raw - 1;
    if (k >= 0) {
      if (seen >> k & 1u) v.refuse("the member \"" + std::string(key) + "\" is given twice");
      seen |= uint32_t{1} << k;
    }
    f(k, v);
  }
  return seen;
}

template <std::size_t N>
void Object::require(const Names<N>& names, uint32_t seen, uint32_t required) const {
  for (std::size_t k = 0; k < N; ++k)
    if ((required >> k & 1u) && !(seen >> k & 1u))
      fail("missing field \"" + std::string(names[k]) + "\"");
}

inline std::string_view Object::key_of(od::field& f) {
  // A name without escapes is compared where it lies.
  const char* p = f.key().raw();
  const char* q = p;
  while (*q != '"' && *q != '\\') ++q;
  if (*q == '"') return std::string_view(p, static_cast<std::size_t>(q - p));
  std::string_view key;
  if (auto e = f.unescaped_key().get(key)) doc_->fail(e, *path_, Kind::String);
  return key;
}

template <class F>
std::size_t Array::each(F&& f) {
  std::size_t i = 0;
  for (auto element : a_) {
    od::value v;
    if (auto e = std::move(element).get(v)) {
      const Path where(*path_, i);
      doc_->fail(e, *path_, Kind::Array, &where);
    }
    Value value(*doc_, v, Path(*path_, i));
    f(i, value);
    ++i;
  }
  return i;
}

}  // namespace warpspec::json
