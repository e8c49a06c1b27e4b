// Reading warp states from flags and JSON files, and the errors users see.
#include "model/state_io.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "model/input.hpp"
#include "model/render.hpp"

namespace warpspec {
namespace {

spec::ParsedInstr parse(const std::string& t) {
  return std::get<spec::ParsedInstr>(spec::parse_instruction(t));
}

std::string message_of(auto&& f) {
  try {
    f();
  } catch (const model::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ExpandList, RepeatsAndFill) {
  auto v = model::expand_list("5*2,6*", 32, "--a");
  ASSERT_EQ(v.size(), 32u);
  EXPECT_EQ(v[1], "5");
  EXPECT_EQ(v[2], "6");
  EXPECT_EQ(model::expand_list("7", 4, "--a"), (std::vector<std::string>{"7", "7", "7", "7"}));
  EXPECT_EQ(model::expand_list("1,2*2,3", 4, "--a"),
            (std::vector<std::string>{"1", "2", "2", "3"}));
  EXPECT_NE(message_of([] { model::expand_list("1,2", 32, "--a"); }).find("2 values for 32 lanes"),
            std::string::npos);
  EXPECT_NE(message_of([] { model::expand_list("1*,2", 32, "--a"); }).find("must be the last"),
            std::string::npos);
  EXPECT_NE(message_of([] { model::expand_list("1*40", 32, "--a"); }).find("more than 32"),
            std::string::npos);
}

TEST(LaneSet, HexRangesAndErrors) {
  auto s = model::parse_lane_set("0-3,7", 32, "--exited");
  EXPECT_TRUE(s[0] && s[3] && s[7] && !s[4]);
  auto h = model::parse_lane_set("0xf0000000", 32, "--exited");
  EXPECT_TRUE(h[28] && h[31] && !h[27]);
  EXPECT_NE(message_of([] { model::parse_lane_set("0-40", 32, "--exited"); }).find("beyond 31"),
            std::string::npos);
  EXPECT_NE(
      message_of([] { model::parse_lane_set("0x1ffffffff", 32, "--exited"); }).find("32 bits"),
      std::string::npos);
  EXPECT_NE(
      message_of([] { model::parse_lane_set("3-1", 32, "--exited"); }).find("not a lane or range"),
      std::string::npos);
}

TEST(WarpFromFlags, BuildsTheStateAndRefusesContradictions) {
  model::StateFlags f;
  f.a = "5*2,6*";
  f.exited = "30-31";
  f.inactive = "0x00000100";
  auto w = model::warp_from_flags(parse("match.any.sync.b32 d, a, 0xffffffff;"), f);
  EXPECT_EQ(w.a[0], 5u);
  EXPECT_EQ(w.a[2], 6u);
  EXPECT_EQ(model::status(w, 31), model::LaneStatus::Exited);
  EXPECT_EQ(model::status(w, 8), model::LaneStatus::Inactive);
  EXPECT_EQ(w.mask[4], 0xffffffffu);
  f.inactive = "31";
  EXPECT_NE(message_of([&] {
              model::warp_from_flags(parse("match.any.sync.b32 d, a, 0xffffffff;"), f);
            }).find("both --exited and --inactive"),
            std::string::npos);
  model::StateFlags g;
  g.a = "1";
  EXPECT_NE(message_of([&] {
              model::warp_from_flags(parse("vote.sync.all.pred d, a, m;"), g);
            }).find("'m' is a register"),
            std::string::npos);
  g.mask = "0xff";
  EXPECT_EQ(model::warp_from_flags(parse("vote.sync.all.pred d, a, m;"), g).mask[0], 0xffu);
  g.a = "0x100000000";
  EXPECT_NE(message_of([&] {
              model::warp_from_flags(parse("redux.sync.add.u32 d, a, m;"), g);
            }).find("--a lane 0: '0x100000000' does not fit in 32 bits"),
            std::string::npos);
}

std::string write_temp(const std::string& body) {
  static int n = 0;
  std::string path = ::testing::TempDir() + "warpspec_state_" + std::to_string(n++) + ".json";
  std::ofstream(path) << body;
  return path;
}

TEST(JsonState, ReadsLanesAndReportsPlaces) {
  std::string lanes;
  for (int i = 0; i < 32; ++i)
    lanes += std::string(i ? "," : "") + R"({"status":")" + (i == 31 ? "exited" : "executes") +
             R"(","mask":"0xffffffff","a":)" + (i < 2 ? "5" : "\"6\"") + "}";
  auto path = write_temp(
      R"({"schema":"warpspec-state/1","instruction":"match.any.sync.b32 d, a, m;","target":"sm_80","lanes":[)" +
      lanes + "]}");
  auto js = model::read_state_file_header(path);
  ASSERT_TRUE(js.instruction);
  EXPECT_EQ(js.target, (spec::Target{80, 0}));
  auto w = model::warp_from_json(js, parse(*js.instruction));
  EXPECT_EQ(w.a[1], 5u);
  EXPECT_EQ(w.a[2], 6u);
  EXPECT_EQ(model::status(w, 31), model::LaneStatus::Exited);

  auto bad = write_temp("{\n  \"lanes\": [\n  {\"a\": 1,}\n]}");
  auto msg = message_of([&] { model::read_state_file_header(bad); });
  EXPECT_NE(msg.find(bad + ":3:"), std::string::npos) << msg;

  auto missing = write_temp(R"({"lanes":[{"status":"executes"}]})");
  auto js2 = model::read_state_file_header(missing);
  msg = message_of([&] { model::warp_from_json(js2, parse("match.any.sync.b32 d, a, m;")); });
  EXPECT_NE(msg.find("exactly 32"), std::string::npos) << msg;

  std::string no_mask;
  for (int i = 0; i < 32; ++i) no_mask += std::string(i ? "," : "") + R"({"a":1})";
  auto nm = write_temp(R"({"lanes":[)" + no_mask + "]}");
  auto js3 = model::read_state_file_header(nm);
  msg = message_of([&] { model::warp_from_json(js3, parse("match.any.sync.b32 d, a, m;")); });
  EXPECT_NE(msg.find("lanes[0]: missing field \"mask\""), std::string::npos) << msg;
  // A file that cannot be opened is a missing input (exit 66), not a malformed one.
  EXPECT_THROW(model::read_state_file_header("/nonexistent/x.json"), model::MissingInput);
  EXPECT_THROW(model::read_state_file_header(std::filesystem::temp_directory_path().string()),
               model::MissingInput);
}

TEST(Render, LaneTableMergesEqualRows) {
  auto w = model::make_warp();
  for (unsigned i = 0; i < 32; ++i) w.a[i] = i > 1 ? 6 : 5;
  spec::Instr in;
  in.form = spec::FormId::MatchAnyB32;
  auto r = model::evaluate(in, w);
  auto t = model::lane_table(in, w, &r);
  EXPECT_NE(t.find("0-1   executes  0xffffffff  0x00000005  0x00000003  yes"), std::string::npos)
      << t;
  EXPECT_NE(t.find("2-31  executes  0xffffffff  0x00000006  0xfffffffc  yes"), std::string::npos)
      << t;
  EXPECT_EQ(model::format_lanes(0x8000000fu), "0-3,31");
}

}  // namespace
}  // namespace warpspec
