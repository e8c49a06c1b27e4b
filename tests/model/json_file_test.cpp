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

// Line and column of `path` in `text`, as "L:C".
std::string at(std::string_view text, std::string_view path, bool at_name = false) {
  const auto [l, c] = model::line_column(text, model::json_offset(text, path, at_name));
  return std::to_string(l) + ":" + std::to_string(c);
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
  EXPECT_EQ(at(t, "c.d", true), "3:10");
  EXPECT_EQ(at(t, "c", true), "3:3");
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
  const std::string t = R"({"a": [1, 2]})";
  EXPECT_EQ(at(t, "a[5]"), "1:7");
  EXPECT_EQ(at(t, "a[0].b"), "1:8");
  EXPECT_EQ(at(t, "zz"), "1:1");
}

TEST(JsonFile, ColumnsCountCharactersNotBytes) {
  // "é" is two bytes and "→" three; each is one column, as an editor shows it.
  const std::string t = "{\"é→\": \"é\", \"v\": 1}";
  EXPECT_EQ(at(t, "v"), "1:18");
  const auto msg = message_of([&] { model::JsonFile f(t + "x", "f.json"); });
  EXPECT_NE(msg.find("f.json:1:20: "), std::string::npos) << msg;
}

TEST(JsonFile, ErrorsNameFileLineColumnAndPath) {
  const model::JsonFile f("{\n \"threads\": [\n  {\"a\": 1},\n  {\"a\": \"zz\"}\n ]\n}", "s.json");
  EXPECT_EQ(message_of([&] { f.fail("threads[1].a", "not a word"); }),
            "s.json:4:9: threads[1].a: not a word");
  EXPECT_EQ(message_of([&] { f.fail("", "no lanes"); }), "s.json:1:1: no lanes");
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
