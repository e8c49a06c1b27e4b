#pragma once
// The small JSON files people write by hand (warp and block states, launches, capture manifests
// and indexes), read whole with nlohmann/json. Every error names the file, the line and column
// (in characters) and the JSON path of the value it is about: "state.json:7:12: lanes[0].mask:
// ...". Places are found in the text only when an error needs one, so reading costs nothing more.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace warpspec::model {

/// The 1-based line and column, in characters (UTF-8 continuation bytes do not count), of byte
/// `byte` of `text`.
std::pair<std::size_t, std::size_t> line_column(std::string_view text, std::size_t byte);

/// Where the value at `path` lies in `text`, a JSON text that has parsed: the byte offset of its
/// first character, or of its member name with `at_name`. A path is written as in messages:
/// member names joined by '.', array elements as [N] ("lanes[2].a"; "" is the whole document).
/// Where the path leaves the text (it should not), the deepest value found is given.
std::size_t json_offset(std::string_view text, std::string_view path, bool at_name = false);

/// A whole JSON file in memory and its parsed document.
class JsonFile {
 public:
  /// Parses `text`; malformed JSON, or a member name given twice in one object, is an
  /// InputError (data) naming `file`, line and column.
  JsonFile(std::string text, std::string file);
  /// The document.
  const nlohmann::json& root() const { return root_; }
  /// The file's name, for messages.
  const std::string& file() const { return file_; }
  /// "file:line:column" of the value at `path`, or of its member name with `at_name`.
  std::string place(std::string_view path, bool at_name = false) const;
  /// Throws InputError (data) "file:line:column: path: msg" for the value at `path` ("file:line:
  /// column: msg" when `path` is empty).
  [[noreturn]] void fail(std::string_view path, const std::string& msg) const;

 private:
  std::string text_, file_;
  nlohmann::json root_;
};

/// Parses a whole JSON document; malformed text, or a member name given twice in one object, is
/// an InputError naming `file`, line and column.
nlohmann::json parse_json(const std::string& text, const std::string& file);
/// The same for one line of a JSON Lines file, numbered `line`: a model::FormatError.
nlohmann::json parse_json_line(const std::string& text, const std::string& file, std::size_t line);

/// The useful part of a JSON library error message ("syntax error while parsing ..."), with
/// bytes that are not printable ASCII shown as \xNN, cut at 80 characters (spec::shown_text).
std::string json_error_text(const std::string& what);

}  // namespace warpspec::model
