#pragma once
// A small JSON reader for one line of a JSON Lines file: values are views into the line, so
// million-line files are read in constant memory without copying strings. It accepts standard
// JSON (RFC 8259) and reports the column of the first error.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace warpspec::vectors::json {

/// The kind of a value.
enum class Kind : uint8_t { Null, Bool, Number, String, Array, Object, Skipped };

/// One parsed value; children of arrays and objects are found through the Document.
struct Value {
  Kind kind = Kind::Null;
  std::string_view text;  ///< number text, string contents (escapes kept), "true"/"false"
  uint32_t first = 0;     ///< index of the first child (arrays, objects)
  uint32_t count = 0;     ///< number of children
  uint32_t next = 0;      ///< index of the next sibling (0: none)
  std::string_view key;   ///< member name when the value sits in an object
};

/// A parsed line.
class Document {
 public:
  /// Parses `line`; on failure returns false and sets error() and error_column() (1-based, in
  /// characters: a multi-byte UTF-8 character counts once).
  /// Members of any object whose name is in `skip` are checked for balance only and kept as
  /// Kind::Skipped with their raw text (used when only part of a line is needed).
  bool parse(std::string_view line, std::span<const std::string_view> skip = {});
  const Value& root() const { return values_[0]; }
  const std::string& error() const { return error_; }
  std::size_t error_column() const { return error_col_; }

  /// Where `v` starts in the line, as a 1-based column in characters (a string: its opening
  /// quote); 1 for a value that is not in the line.
  std::size_t column_of(const Value& v) const;
  /// The member `key` of object `v`, or nullptr.
  const Value* get(const Value& v, std::string_view key) const;
  /// The children of array or object `v`, in order.
  std::vector<const Value*> items(const Value& v) const;
  /// Fills `out` with the children of `v` (reusing its storage).
  void items(const Value& v, std::vector<const Value*>& out) const;

 private:
  bool value(std::size_t& pos, uint32_t& index);
  bool skip_value(std::size_t& pos);
  bool fail(std::size_t pos, std::string msg);
  std::string_view s_;
  std::vector<Value> values_;
  std::span<const std::string_view> skip_;
  std::string error_;
  std::size_t error_col_ = 0;
  int depth_ = 0;
};

/// The name of a kind, for messages ("a string", "an array").
std::string_view kind_name(Kind k);

/// A non-negative integer value (decimal number or "0x" hex / decimal string) that fits `bits`.
std::optional<uint64_t> as_uint(const Value& v, int bits = 64);

}  // namespace warpspec::vectors::json

namespace warpspec::vectors::json {

/// A pull reader over one JSON line, for the hot paths of `check`: no nodes are built; the
/// caller walks the structure it expects and skips the rest. Errors throw PullError with the
/// 1-based column.
class Pull {
 public:
  struct Error {
    std::size_t column;
    std::string message;
  };
  explicit Pull(std::string_view s) : s_(s) {}
  /// Consumes `c` (after spaces) or throws.
  void expect(char c);
  /// Consumes `c` if it comes next.
  bool accept(char c);
  /// The next non-space character, without consuming it ('\0' at the end).
  char peek();
  /// Reads a member name and its ':'.
  std::string_view key();
  /// Reads a member name and its ':', and says whether the name is the literal `name` (as
  /// written, escapes kept, as key() returns it). A name written plainly is compared in place.
  template <std::size_t N>
  bool key_is(const char (&name)[N]) {
    constexpr std::size_t m = N - 1;
    if (pos_ + m + 3 <= s_.size() && s_[pos_] == '"' &&
        std::char_traits<char>::compare(s_.data() + pos_ + 1, name, m) == 0 &&
        s_[pos_ + m + 1] == '"' && s_[pos_ + m + 2] == ':') {
      pos_ += m + 3;
      return true;
    }
    return key() == std::string_view(name, m);
  }
  /// After a member value: true when another member follows (consumes ','), false at '}'.
  bool more_members() {
    if (pos_ < s_.size() && s_[pos_] == ',') return ++pos_, true;  // the compact layout
    return more_members_spaced();
  }
  /// After an array element: true when another follows (consumes ','), false at ']'.
  bool more_items() {
    if (pos_ < s_.size() && s_[pos_] == ',') return ++pos_, true;
    return more_items_spaced();
  }
  /// Reads a string's raw contents.
  std::string_view string();
  /// Reads an unsigned value that fits `bits`: a number, a "0x" hex or decimal string, or a
  /// boolean (1/0). Negative numbers are two's complement of the width.
  uint64_t bits(int bits);
  /// At an array element: reads elements in the compact layout warpspec writes ("0x" and eight
  /// hex digits when `width` is 32, a digit 0/1, true/false, and null when `present` is given),
  /// each followed by ',' or ']', into `out` and `present` (at most `max`), and returns how many.
  /// Stops after the ']' that closes the array (setting `closed`), or before the first element
  /// of another shape, which the caller reads as usual.
  std::size_t compact_items(uint32_t* out, uint8_t* present, std::size_t max, int width,
                            bool& closed);
  /// The same for a vector's state and expectation lists (no null): "0x" and eight or sixteen
  /// hex digits, integers of at most 18 digits (negative ones as two's complement of `width`),
  /// and true/false, each read as bits(`width`) reads it; `width` is 32 or 64 and fits T
  /// (uint32_t or uint64_t).
  template <class T>
  std::size_t compact_words(T* out, std::size_t max, int width, bool& closed);
  /// Consumes a string written "0x" and eight hex digits (the compact layout) and returns its
  /// value; nullopt, consuming nothing, for anything else.
  std::optional<uint32_t> hex_word();
  /// Reads true/false.
  bool boolean();
  /// Consumes `null` if it comes next.
  bool null();
  /// Skips any value.
  void skip();
  /// Throws unless only spaces remain.
  void end();
  [[noreturn]] void fail(const std::string& msg) const { throw Error{pos_ + 1, msg}; }
  std::size_t column() const { return pos_ + 1; }

 private:
  void nest(char c);  // counts the containers a consumed bracket opens or closes
  bool more_members_spaced();
  bool more_items_spaced();
  std::string_view s_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace warpspec::vectors::json
