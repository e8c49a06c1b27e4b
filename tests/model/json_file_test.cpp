// Places in the small JSON files: every error names the line and column, in characters, of the
// value it is about, found from its JSON path.
#include "model/json_file.hpp"

#include <gtest/gtest.h>

#include <string>

#include "model/state_io.hpp"

namespace {

using namespace warpspec;

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(nothing thrown)";
}

// Line and column of byte `byte` of `text`, as "L:C".
std::string lc(std::string_view text, std::size_t byte) {
  const auto [l, c] = model::line_column(text, byte);
  return std::to_string(l) + ":" + std::to_string(c);
}

// Line and column of the value at `path` in `text`.
std::string at(std::string_view text, std::string_view path) {
  return lc(text, model::json_offset(text, path));
}

// Line and column of member `name`'s own name in the object at `path` ("-" when it has none).
std::string name_at(std::string_view text, std::string_view path, std::string_view name) {
  const auto n = model::json_name_offset(text, model::json_offset(text, path), name);
  return n ? lc(text, *n) : "-";
}

TEST(JsonFile, FindsTheValueAPathNames) {
  const std::string t = "{\n  \"a\": [1, {\"b\": \"x\"}, [2, 3]],\n  \"c\" : {\"d\":\n  true}\n}";
  EXPECT_EQ(at(t, ""), "1:1");
  EXPECT_EQ(at(t, "a"), "2:8");
  EXPECT_EQ(at(t, "a[0]"), "2:9");
  EXPECT_EQ(at(t, "a[1]"), "2:12");
  EXPECT_EQ(at(t, "a[1].b"), "2:18");
  EXPECT_EQ(at(t, "a[2][1]"), "2:28");
  EXPECT_EQ(at(t, "c.d"), "4:3");
  EXPECT_EQ(name_at(t, "c", "d"), "3:10");
  EXPECT_EQ(name_at(t, "", "c"), "3:3");
  EXPECT_EQ(name_at(t, "c", "e"), "-");
  EXPECT_EQ(name_at(t, "a", "b"), "-");  // an array has no members
}

TEST(JsonFile, SkipsStringsThatLookLikeStructure) {
  // Brackets, braces, commas and escaped quotes inside strings are not structure.
  const std::string t = R"({"x": "],}{\"", "y": ["[", "\\", 7]})";
  EXPECT_EQ(at(t, "y[2]"), "1:34");
  // A member name written with an escape is the name it stands for.
  EXPECT_EQ(at(R"({"\u0061": 1, "b": 2})", "b"), "1:20");
  EXPECT_EQ(at(R"({"\u0061": 1, "b": 2})", "a"), "1:12");
}

TEST(JsonFile, APathThatLeavesTheTextGivesTheDeepestValueFound) {
  // The array is not the last value: an index past its end stops at the array, not at what
  // follows it.
  const std::string t = R"({"a": [1, 2], "b": [3], "e": []})";
  EXPECT_EQ(at(t, "a[2]"), "1:7");
  EXPECT_EQ(at(t, "a[3]"), "1:7");
  EXPECT_EQ(at(t, "a[0].b"), "1:8");
  EXPECT_EQ(at(t, "e[0]"), "1:30");
  EXPECT_EQ(at(t, "zz"), "1:1");
}

TEST(JsonFile, MemberNamesMayHoldAnyCharacter) {
  // Names with '.', '[' or nothing at all are compared whole: they are found by name, not by
  // reading them as a path.
  const std::string t = R"({"a": 1, "a.b": 2, "q[0]": 3, "": 4})";
  EXPECT_EQ(name_at(t, "", "a.b"), "1:10");
  EXPECT_EQ(name_at(t, "", "q[0]"), "1:20");
  EXPECT_EQ(name_at(t, "", ""), "1:31");
}

TEST(JsonFile, AByteOrderMarkIsNeitherSkippedOverNorCounted) {
  const std::string t = "\xEF\xBB\xBF{\"a\": {\"b\": 7}}";
  EXPECT_EQ(at(t, "a.b"), "1:13");
  EXPECT_EQ(lc(t, 0), "1:1");
  const model::JsonFile f(t, "bom.json");
  EXPECT_EQ(f.place("a.b"), "bom.json:1:13");
}

TEST(JsonFile, APlaceInsideAString) {
  const model::JsonFile f("{\n  \"i\": \"abc def\",\n  \"j\": \"a\\tb\"}", "s.json");
  // Without escapes, byte 4 of the value (the "d") is the text's: column 13 of line 2.
  EXPECT_EQ(f.place_in_string("i", "abc def", 4), "s.json:2:13");
  // With an escape, the string's own place.
  EXPECT_EQ(f.place_in_string("j", "a\tb", 2), "s.json:3:8");
}

TEST(JsonFile, ColumnsCountCharactersNotBytes) {
  // "é" is two bytes and "→" three; each is one column, as an editor shows it.
  const std::string t = "{\"é→\": \"é\", \"v\": 1}";
  EXPECT_EQ(at(t, "v"), "1:18");
  const auto msg = message_of([&] { model::JsonFile f(t + "x", "f.json"); });
  EXPECT_NE(msg.find("f.json:1:20: "), std::string::npos) << msg;
}

TEST(JsonFile, AMemberGivenTwiceIsNamedByItsPath) {
  const auto msg = message_of([] {
    model::JsonFile f(R"({"l":[{"a":1},{"b":{"x":1,"y":[1,{"z":1,"z":2}]}}]})", "d.json");
  });
  EXPECT_EQ(msg, "d.json:1:41: l[1].b.y[1].z: the member \"z\" is given twice");
  EXPECT_EQ(message_of([] { model::JsonFile f(R"({"a":1, "a":2})", "t.json"); }),
            "t.json:1:9: a: the member \"a\" is given twice");
}

TEST(JsonFile, ErrorsNameFileLineColumnAndPath) {
  const model::JsonFile f("{\n \"threads\": [\n  {\"a\": 1},\n  {\"a\": \"zz\"}\n ]\n}", "s.json");
  EXPECT_EQ(message_of([&] { f.fail("threads[1].a", "not a word"); }),
            "s.json:4:9: threads[1].a: not a word");
  EXPECT_EQ(message_of([&] { f.fail("", "no lanes"); }), "s.json:1:1: no lanes");
  EXPECT_EQ(message_of([&] { f.fail("threads[1]", "unknown member", "a"); }),
            "s.json:4:4: threads[1]: unknown member");
}

TEST(JsonFile, StateErrorsPointAtTheValue) {
  const std::string instr = "bar.red.popc.u32 d, 0, p;";
  std::string threads;
  for (int i = 0; i < 40; ++i)
    threads +=
        std::string(i ? ",\n" : "") + (i == 33 ? R"(  {"a": 1, "bar": 3})" : R"(  {"a": 1})");
  const auto js = model::read_state_text(
      "{\"instruction\": \"" + instr + "\",\n \"threads\": [\n" + threads + "\n]}", "b.json");
  const auto p = std::get<spec::ParsedInstr>(spec::parse_instruction(instr));
  // Thread 33 is on line 36; the value of its "bar" is in column 19.
  EXPECT_EQ(message_of([&] { model::cta_from_json(js, p); }),
            "b.json:36:19: threads[33].bar: given, but the instruction does not read it from a "
            "register");
}

TEST(JsonFile, AnUnknownMemberWithADotIsPlacedAtItsName) {
  std::string lanes;
  for (int i = 0; i < 32; ++i)
    lanes += std::string(i ? "," : "") +
             (i == 3 ? R"({"a": 1, "mask": 1, "a.b": 2})" : R"({"a": 1, "mask": 1})");
  const auto js = model::read_state_text(R"({"lanes": [)" + lanes + "]}", "d.json");
  const auto p =
      std::get<spec::ParsedInstr>(spec::parse_instruction("match.any.sync.b32 d, a, m;"));
  const auto msg = message_of([&] { model::warp_from_json(js, p); });
  EXPECT_EQ(msg.rfind("d.json:1:" + std::to_string(11 + 3 * 20 + 20 + 1) +
                          ": lanes[3]: unknown member \"a.b\"",
                      0),
            0u)
      << msg;
}

TEST(JsonFile, AnUnknownMemberIsPlacedAtItsName) {
  std::string lanes;
  for (int i = 0; i < 32; ++i)
    lanes += std::string(i ? "," : "") +
             (i == 4 ? R"({"a": 1, "mask": 1, "stauts": 0})" : R"({"a": 1, "mask": 1})");
  const auto js = model::read_state_text(R"({"lanes": [)" + lanes + "]}", "w.json");
  const auto p =
      std::get<spec::ParsedInstr>(spec::parse_instruction("match.any.sync.b32 d, a, m;"));
  const auto msg = message_of([&] { model::warp_from_json(js, p); });
  // 11 bytes of prefix, four lanes of 19 bytes and their commas, then 20 bytes into lane 4.
  EXPECT_EQ(
      msg.rfind("w.json:1:" + std::to_string(11 + 4 * 20 + 20 + 1) + ": lanes[4]: unknown member",
                0),
      0u)
      << msg;
}

}  // namespace
