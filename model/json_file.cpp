#include "model/json_file.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <set>
#include <vector>

#include "model/input.hpp"
#include "model/state_io.hpp"
#include "spec/instr_parse.hpp"

namespace warpspec::model {

namespace {

using json = nlohmann::json;

bool space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// The length of a UTF-8 byte-order mark at the start of `t`: 3, or 0 without one.
std::size_t bom(std::string_view t) {
  return t.starts_with("\xEF\xBB\xBF") ? 3 : 0;
}

std::size_t skip_space(std::string_view t, std::size_t i) {
  while (i < t.size() && space(t[i])) ++i;
  return i;
}

// The byte after the string whose opening quote is at `i`.
std::size_t skip_string(std::string_view t, std::size_t i) {
  for (++i; i < t.size() && t[i] != '"'; ++i)
    if (t[i] == '\\') ++i;
  return i + 1;
}

// The byte after the value that starts at `i`, in a text that has parsed.
std::size_t skip_value(std::string_view t, std::size_t i) {
  if (i >= t.size()) return i;
  if (t[i] == '"') return skip_string(t, i);
  if (t[i] != '{' && t[i] != '[') {
    while (i < t.size() && !space(t[i]) && t[i] != ',' && t[i] != ']' && t[i] != '}') ++i;
    return i;
  }
  int depth = 0;
  for (; i < t.size(); ++i) {
    if (t[i] == '"') {
      i = skip_string(t, i) - 1;
    } else if (t[i] == '{' || t[i] == '[') {
      ++depth;
    } else if ((t[i] == '}' || t[i] == ']') && --depth == 0) {
      return i + 1;
    }
  }
  return i;
}

// The name a member's quoted name text stands for (escapes decoded).
std::string name_of(std::string_view quoted) {
  try {
    return json::parse(quoted).get<std::string>();
  } catch (const json::exception&) {
    return {};
  }
}

// The byte offset of the opening quote of the `nth` member name (0-based) of `text`, JSON that
// has parsed: a string followed by a colon is a name.
std::size_t member_name_at(std::string_view text, std::size_t nth) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '"') continue;
    const std::size_t open = i;
    i = skip_string(text, i);
    const std::size_t j = skip_space(text, i);
    if (j < text.size() && text[j] == ':' && nth-- == 0) return open;
    --i;  // the loop steps past the closing quote
  }
  return 0;
}

// The first number of `text` (outside strings) too large for a double, and where it starts;
// (0, "") when there is none.
std::pair<std::size_t, std::string_view> overflowing_number(std::string_view text) {
  for (std::size_t i = bom(text); i < text.size();) {
    if (text[i] == '"') {
      i = skip_string(text, i);
    } else if (text[i] == '-' || (text[i] >= '0' && text[i] <= '9')) {
      const std::size_t end = skip_value(text, i);
      const std::string token(text.substr(i, end - i));
      errno = 0;
      if (std::isinf(std::strtod(token.c_str(), nullptr)) && errno == ERANGE)
        return {i, text.substr(i, end - i)};
      i = end;
    } else {
      ++i;
    }
  }
  return {0, {}};
}

// The JSON path of the object or array of `text` that most closely holds byte `at` (a member
// name there); the text is read only as far as it is well formed.
std::string path_of(std::string_view text, std::size_t at) {
  std::string path;
  for (std::size_t i = skip_space(text, bom(text)); i < text.size();) {
    const bool object = text[i] == '{';
    if (!object && text[i] != '[') break;
    std::size_t k = skip_space(text, i + 1), next = text.size();
    for (std::size_t n = 0; k < text.size(); ++n) {
      std::size_t value = k, after = k;
      if (object) {
        if (text[k] != '"') break;
        after = skip_string(text, k);
        value = skip_space(text, skip_space(text, after) + 1);
      }
      const std::size_t end = skip_value(text, value);
      if (at >= k && at < end) {
        if (at < value) return path;  // on the member's name
        path = object ? json_member_path(path, name_of(text.substr(k, after - k)))
                      : path + "[" + std::to_string(n) + "]";
        next = value;
        break;
      }
      k = skip_space(text, end);
      if (k >= text.size() || text[k] != ',') break;
      k = skip_space(text, k + 1);
    }
    if (next >= text.size()) break;
    i = next;
  }
  return path;
}

// A member name given twice in one object, which JSON readers take differently (nlohmann keeps
// the last): refused, as the line-based readers refuse it.
struct DuplicateName {
  std::string name;
  std::size_t nth;  // which member name of the text it is
};

// What is wrong with a JSON text that does not parse, and at which byte.
struct JsonFault {
  std::size_t byte;
  std::string message;
};

// A first reading of the text that checks it and refuses a member name given twice. It is a
// SAX handler, not the library's callback parser: that one looks through an array's elements
// each time an object in it ends, quadratic in the number of objects (200,000 empty objects took
// 6 s). The document is built afterwards by the plain parser.
class Checker : public nlohmann::json_sax<json> {
 public:
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override {
    names_.emplace_back();
    return true;
  }
  bool key(string_t& name) override {
    if (!names_.back().insert(name).second) throw DuplicateName{name, count_};
    ++count_;
    return true;
  }
  bool end_object() override {
    names_.pop_back();
    return true;
  }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t byte, const std::string&,
                   const nlohmann::detail::exception& e) override {
    error_ = {byte, e.id, e.what()};
    return false;
  }

  struct Error {
    std::size_t byte = 0;
    int id = 0;  // the library's error number: 406 a number too large for a double
    std::string what;
  };
  const std::optional<Error>& error() const { return error_; }

 private:
  std::vector<std::set<std::string>> names_;  // per open object, the names met so far
  std::size_t count_ = 0;                     // member names met so far in the text
  std::optional<Error> error_;
};

nlohmann::json parse_or_fault(const std::string& text) {
  // The JSON library takes a NUL byte for the end of the text, and would read nothing after it.
  if (const auto nul = text.find('\0'); nul != std::string::npos)
    throw JsonFault{nul, "a NUL byte, which JSON text never holds"};
  Checker check;
  try {
    json::sax_parse(text, &check);
  } catch (const DuplicateName& d) {
    const std::size_t at = member_name_at(text, d.nth);
    // Named by its path, as the line readers name it (json/read.hpp).
    throw JsonFault{at, json_member_path(path_of(text, at), spec::shown_text(d.name)) +
                            ": the member \"" + spec::shown_text(d.name) + "\" is given twice"};
  }
  if (const auto& e = check.error()) {
    if (e->id == 406) {
      // A number too large for a double: placed at the first such number outside strings.
      const auto [at, token] = overflowing_number(text);
      throw JsonFault{at, "malformed JSON (the number " + spec::shown_text(token, true) +
                              " is too large for a double)"};
    }
    throw JsonFault{e->byte == 0 ? 0 : e->byte - 1,
                    "malformed JSON (" + json_error_text(e->what) + ")"};
  }
  return json::parse(text);
}

}  // namespace

std::string json_member_path(std::string_view at, std::string_view name) {
  return at.empty() ? std::string(name) : std::string(at) + "." + std::string(name);
}

std::size_t json_offset(std::string_view text, std::string_view path) {
  std::size_t at = skip_space(text, bom(text));
  while (!path.empty()) {
    if (path[0] == '.') path.remove_prefix(1);
    if (path.empty()) break;
    const std::size_t open = skip_space(text, at);
    if (open >= text.size()) return at;
    if (path[0] == '[') {  // the element [k] of an array
      const auto close = std::min(path.find(']'), path.size());
      std::size_t k = 0;
      std::from_chars(path.data() + 1, path.data() + close, k);
      path.remove_prefix(std::min(close + 1, path.size()));
      if (text[open] != '[') return at;
      std::size_t i = skip_space(text, open + 1);
      if (i >= text.size() || text[i] == ']') return at;
      for (std::size_t n = 0; n < k; ++n) {
        i = skip_space(text, skip_value(text, i));
        if (i >= text.size() || text[i] != ',') return at;  // past the last element
        i = skip_space(text, i + 1);
      }
      at = i;
      continue;
    }
    // A member: its name runs to the next '.' or '['.
    const auto end = path.find_first_of(".[");
    const auto name = json_name_offset(text, at, path.substr(0, end));
    path.remove_prefix(end == std::string_view::npos ? path.size() : end);
    if (!name) return at;
    at = skip_space(text, skip_space(text, skip_string(text, *name)) + 1);
  }
  return at;
}

std::optional<std::size_t> json_name_offset(std::string_view text, std::size_t object,
                                            std::string_view name) {
  const std::size_t open = skip_space(text, object);
  if (open >= text.size() || text[open] != '{') return std::nullopt;
  for (std::size_t i = skip_space(text, open + 1); i < text.size() && text[i] == '"';) {
    const std::size_t after = skip_string(text, i);
    if (name_of(text.substr(i, after - i)) == name) return i;
    const std::size_t value = skip_space(text, skip_space(text, after) + 1);
    i = skip_space(text, skip_value(text, value));
    if (i >= text.size() || text[i] != ',') break;
    i = skip_space(text, i + 1);
  }
  return std::nullopt;
}

JsonFile::JsonFile(std::string text, std::string file)
    : text_(std::move(text)), file_(std::move(file)), root_(parse_json(text_, file_)) {}

std::string JsonFile::where(std::size_t byte) const {
  const auto [l, c] = line_column(text_, byte);
  return file_ + ":" + std::to_string(l) + ":" + std::to_string(c);
}

std::string_view JsonFile::raw(std::string_view path) const {
  const std::size_t at = json_offset(text_, path);
  return std::string_view(text_).substr(at, skip_value(text_, at) - at);
}

std::string JsonFile::place(std::string_view path) const {
  return where(json_offset(text_, path));
}

std::string JsonFile::place_of_name(std::string_view object, std::string_view name) const {
  const std::size_t at = json_offset(text_, object);
  return where(json_name_offset(text_, at, name).value_or(at));
}

std::string JsonFile::place_in_string(std::string_view path, std::string_view value,
                                      std::size_t byte) const {
  const std::size_t at = json_offset(text_, path);
  // Escapes make the written string longer than its value: without any, its bytes are the text's.
  const bool plain = at < text_.size() && text_[at] == '"' && byte <= value.size() &&
                     skip_string(text_, at) - at == value.size() + 2;
  return where(plain ? at + 1 + byte : at);
}

std::string JsonFile::message(std::string_view path, const std::string& msg,
                              std::optional<std::string_view> name) const {
  return (name ? place_of_name(path, *name) : place(path)) +
         (path.empty() ? "" : ": " + std::string(path)) + ": " + msg;
}

void JsonFile::fail(std::string_view path, const std::string& msg,
                    std::optional<std::string_view> name) const {
  throw InputError(message(path, msg, name), true);
}

void JsonFile::only_members(const nlohmann::json& obj, std::string_view at,
                            const std::vector<std::string_view>& names) const {
  if (const auto* name = unknown_member(obj, names))
    fail(at, unknown_member_text(*name, names), *name);
}

const std::string* unknown_member(const nlohmann::json& obj,
                                  const std::vector<std::string_view>& names) {
  for (auto it = obj.begin(); it != obj.end(); ++it)
    if (std::find(names.begin(), names.end(), it.key()) == names.end()) return &it.key();
  return nullptr;
}

std::string unknown_member_text(std::string_view name, const std::vector<std::string_view>& names) {
  std::string known;
  for (const auto n : names) known += (known.empty() ? "" : ", ") + std::string(n);
  return "unknown member \"" + spec::shown_text(name) + "\" (the format has " + known + ")";
}

nlohmann::json parse_json(const std::string& text, const std::string& file) {
  try {
    return parse_or_fault(text);
  } catch (const JsonFault& f) {
    const auto [l, c] = line_column(text, f.byte);
    throw InputError(file + ":" + std::to_string(l) + ":" + std::to_string(c) + ": " + f.message,
                     true);
  }
}

nlohmann::json parse_json_line(const std::string& text, const std::string& file, std::size_t line) {
  try {
    return parse_or_fault(text);
  } catch (const JsonFault& f) {
    const auto [l, c] = line_column(text, f.byte);
    throw FormatError(file, line + l - 1, c, f.message);
  }
}

std::string json_error_text(const std::string& what) {
  // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ...": the
  // place is given separately, in the file:line:column form.
  auto pos = what.find("syntax error");
  if (pos == std::string::npos)
    pos = what.find("] ") == std::string::npos ? 0 : what.find("] ") + 2;
  // The library's own words in full; the text it last read (as long as the input made it) cut.
  const std::string_view text = std::string_view(what).substr(pos);
  const auto whole = [](std::string_view t) { return spec::shown_text(t, true, t.size()); };
  // The token ends at the quote before "; expected ..." when the library adds that, else at
  // the message's last quote.
  const auto read = text.find("last read: '");
  if (read == std::string_view::npos) return whole(text);
  auto close = text.find("'; expected ", read + 12);
  if (close == std::string_view::npos) close = text.rfind('\'');
  if (close < read + 12) return whole(text);
  return whole(text.substr(0, read + 12)) +
         spec::shown_text(text.substr(read + 12, close - read - 12), true) +
         whole(text.substr(close));
}

}  // namespace warpspec::model
