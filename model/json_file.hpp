#pragma once
// The small JSON files people write by hand (warp and block states, launches, capture manifests
// and indexes), read whole with nlohmann/json. Every error names the file, the line and column
// (in characters) and the JSON path of the value it is about: "state.json:7:12: lanes[0].mask:
// ...". Places are found in the text only when an error needs one, so reading costs nothing more.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/input.hpp"

namespace warpspec::model {

/// Where the value at `path` lies in `text`, a JSON text that has parsed: the byte offset of its
/// first character. A path is written as in messages: member names joined by '.', array
/// elements as [N] ("lanes[2].a"; "" is the whole document). Where the path leaves the text, the
/// deepest value found is given.
std::size_t json_offset(std::string_view text, std::string_view path);
/// The byte offset of the opening quote of member `name` (any characters, compared decoded) of
/// the object at byte `object` of `text`; nullopt when it has none.
std::optional<std::size_t> json_name_offset(std::string_view text, std::size_t object,
                                            std::string_view name);
/// The path of member `name` of the value at path `at` ("" for the document).
std::string json_member_path(std::string_view at, std::string_view name);

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
  /// The text of the value at `path` as the file writes it (a number's digits as they stand).
  std::string_view raw(std::string_view path) const;
  /// "file:line:column" of the value at `path`.
  std::string place(std::string_view path) const;
  /// "file:line:column" of member `name`'s own name in the object at `object` (that of the
  /// object when it has no such member).
  std::string place_of_name(std::string_view object, std::string_view name) const;
  /// "file:line:column" of byte `byte` of `value`, the string at `path`, when the file writes
  /// it without escapes (else that of the string).
  std::string place_in_string(std::string_view path, std::string_view value,
                              std::size_t byte) const;
  /// Refuses (fail()) a member of the object `obj`, the value at `at`, whose name is not one of
  /// `names`, placed at that name: a misspelled member would otherwise be ignored unseen.
  void only_members(const nlohmann::json& obj, std::string_view at,
                    const std::vector<std::string_view>& names) const;
  /// The message fail() throws, for a caller that reports it another way.
  std::string message(std::string_view path, const std::string& msg,
                      std::optional<std::string_view> name = std::nullopt) const;
  /// Throws InputError (data) "file:line:column: path: msg" about the value at `path` ("file:
  /// line:column: msg" when `path` is empty), placed at that value, or at its member `name`'s
  /// own name when one is given (a member it should not have).
  [[noreturn]] void fail(std::string_view path, const std::string& msg,
                         std::optional<std::string_view> name = std::nullopt) const;

 private:
  std::string where(std::size_t byte) const;
  std::string text_, file_;
  nlohmann::json root_;
};

/// The first member of the object `obj` whose name is not one of `names`; nullptr when none.
const std::string* unknown_member(const nlohmann::json& obj,
                                  const std::vector<std::string_view>& names);
/// What is said of it: 'unknown member "x" (the format has a, b, c)'.
std::string unknown_member_text(std::string_view name, const std::vector<std::string_view>& names);

/// Parses a whole JSON document; malformed text, or a member name given twice in one object, is
/// an InputError naming `file`, line and column.
nlohmann::json parse_json(const std::string& text, const std::string& file);
/// The same for one line of a JSON Lines file, numbered `line`: a model::FormatError.
nlohmann::json parse_json_line(const std::string& text, const std::string& file, std::size_t line);

/// The useful part of a JSON library error message ("syntax error while parsing ..."), with
/// bytes that are not printable ASCII shown as \xNN, cut at 80 characters (spec::shown_text).
std::string json_error_text(const std::string& what);

}  // namespace warpspec::model
