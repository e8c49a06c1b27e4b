// The JSON reading layer: lines read in padded blocks, and every refusal of a line named by its
// line, its column in characters and the JSON path of the value.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "json/lines.hpp"
#include "json/read.hpp"

namespace warpspec::json {
namespace {

// Every line of `text`, read from a source that hands over `chunk` bytes at a time.
std::vector<Line> lines_of(const std::string& text, std::size_t chunk,
                           std::vector<std::string>& copies) {
  std::size_t at = 0;
  LineReader reader([&](char* out, std::size_t n) {
    n = std::min({n, chunk, text.size() - at});
    text.copy(out, n, at);
    at += n;
    return n;
  });
  std::vector<Line> out;
  Line line;
  copies.clear();
  while (reader.next(line)) {
    // Simdjson reads ahead of a line: the padding must be there to read.
    volatile char last = line.text.data()[line.text.size() + kPadding - 1];
    (void)last;
    copies.emplace_back(line.text);
    out.push_back(line);
  }
  return out;
}

TEST(Lines, BlankLinesAreSkippedButCountedAndLineEndsAreDropped) {
  const std::string text = "{\"a\":1}\r\n\n  \t\r\n{\"b\":2}\n\n{\"c\":3}";
  for (const std::size_t chunk : {std::size_t{1}, std::size_t{3}, std::size_t{1} << 20}) {
    std::vector<std::string> copies;
    const auto ls = lines_of(text, chunk, copies);
    ASSERT_EQ(ls.size(), 3u) << chunk;
    EXPECT_EQ(copies, (std::vector<std::string>{"{\"a\":1}", "{\"b\":2}", "{\"c\":3}"}));
    EXPECT_EQ(ls[0].number, 1u);
    EXPECT_EQ(ls[1].number, 4u);
    EXPECT_EQ(ls[2].number, 6u);
  }
}

TEST(Lines, ALineLongerThanABlockIsReadWhole) {
  const std::string big = "{\"a\":\"" + std::string(3u << 20, 'x') + "\"}";
  const std::string text = "{}\n" + big + "\n{}\n";
  std::vector<std::string> copies;
  const auto ls = lines_of(text, 100000, copies);
  ASSERT_EQ(copies.size(), 3u);
  EXPECT_EQ(copies[1], big);
  EXPECT_EQ(ls[2].number, 3u);
}

TEST(Lines, ANulByteIsFoundInItsLine) {
  const std::string text = std::string("{\"a\":1}\n{\"a\":1}\0 \n{}\n", 21);
  std::vector<std::string> copies;
  const auto ls = lines_of(text, 5, copies);
  ASSERT_EQ(ls.size(), 3u);
  EXPECT_EQ(ls[0].nul, nullptr);
  ASSERT_NE(ls[1].nul, nullptr);
  EXPECT_EQ(ls[1].nul - ls[1].text.data(), 7);
  EXPECT_EQ(ls[2].nul, nullptr);
}

TEST(Lines, AStreamIsReadFromWhereItStands) {
  std::istringstream in("{\"a\":1}\n{\"b\":2}\n");
  LineReader reader(in);
  Line line;
  ASSERT_TRUE(reader.next(line));
  EXPECT_EQ(line.text, "{\"a\":1}");
  ASSERT_TRUE(reader.next(line));
  EXPECT_FALSE(reader.next(line));
  EXPECT_EQ(reader.line_number(), 2u);
}

// The message a line is refused with, "line:column: message" (empty when it is read). The line is
// read as an object whose members are walked generically (each value checked).
std::string refusal(const std::string& text) {
  Document doc("f");
  PaddedLine copy;
  try {
    auto root = doc.open(copy.set(text, 3));
    root.members(Names<1>{"n"}, [](int k, Value& v) {
      if (k == 0)
        (void)v.uint();
      else
        v.skip();
    });
    doc.finish();
  } catch (const model::FormatError& e) {
    EXPECT_EQ(e.file(), "f");
    EXPECT_EQ(e.line(), 3u);
    const std::string what = e.what();
    EXPECT_TRUE(what.starts_with("f:3:" + std::to_string(e.column()) + ": ")) << what;
    return what.substr(4);
  }
  return {};
}

TEST(Read, EverySyntaxErrorIsNamedWithItsColumnAndPath) {
  const std::pair<std::string, std::string> cases[] = {
      {R"({"a":[1,2,}})", "11: a[2]: expected a value, found '}'"},
      {R"({"a":[1,2 3]})", "11: a: expected ',' or ']', found '3'"},
      {R"({"a" 1})", "6: expected ':' after a member name, found '1'"},
      {R"({"a":1,})", "8: expected a member name in double quotes, found '}'"},
      {R"({a:1})", "2: expected a member name in double quotes or '}', found 'a'"},
      {R"({"a":1 "b":2})", "8: expected ',' or '}', found \"b\""},
      {R"({"a":{"b":[true,nul]}})", "17: a.b[1]: expected a value, found 'nul'"},
      {R"({"a":x})", "6: a: expected a value, found 'x'"},
      {R"({"a":01})", "6: a: a number with a leading zero (JSON does not allow one): '01'"},
      {R"({"a":-})", "6: a: a malformed number: '-'"},
      {R"({"a":1.})", "6: a: a malformed number: '1.'"},
      {R"({"a":"\x"})", "6: a: a malformed escape in a string: \"\\x\""},
      {R"({"a":"\u12"})", "6: a: a malformed escape in a string: \"\\u12\""},
      {R"({"a":1} x)", "9: unexpected text after the JSON object: 'x'"},
      {R"({"a":1}})", "8: unexpected text after the JSON object: '}'"},
      {R"([1,2])", "1: expected a JSON object, found an array"},
      {R"("x")", "1: expected a JSON object, found \"x\""},
      {R"({"n":-1})", "6: n: expected a non-negative integer, found '-1'"},
      {R"({"n":1e3})", "6: n: expected a non-negative integer, found '1e3'"},
      {R"({"n":18446744073709551616})",
       "6: n: expected a non-negative integer, found '18446744073709551616'"},
      {R"({"n":"1"})", "6: n: expected a non-negative integer, found \"1\""},
  };
  for (const auto& [line, want] : cases) EXPECT_EQ(refusal(line), want) << line;
  EXPECT_EQ(refusal(R"({"n":18446744073709551615,"b":[{"c":[1e400,"\u00e9",null]}]})"), "");
}

TEST(Read, ALineCutShortIsNamedAtItsEndInsideTheInnermostContainer) {
  const std::pair<std::string, std::string> cases[] = {
      {R"({"a":[1,2)", "10: a: expected ',' or ']', found the end of the line"},
      {R"({"a":[1,2,)", "11: a[2]: expected a value, found the end of the line"},
      {R"({"a":{"b":)", "11: a.b: expected a value, found the end of the line"},
      {R"({"a":{"b")", "10: a: expected ':' after a member name, found the end of the line"},
      {R"({"a":[1,2])", "11: expected ',' or '}', found the end of the line"},
      {R"({"a":[{"b":1},{)", "16: a[1]: expected a member name in double quotes or '}', found the "
                             "end of the line"},
      {R"({"a":"abc)", "6: unterminated string"},
  };
  for (const auto& [line, want] : cases) EXPECT_EQ(refusal(line), want) << line;
}

TEST(Read, BytesThatAreNotJsonTextAreNamedWhereTheyStand) {
  EXPECT_EQ(refusal("{\"a\":\"caf\xe9\"}"),
            "10: byte 0xe9 is not UTF-8 text (JSON Lines files are UTF-8)");
  EXPECT_EQ(refusal("\xef\xbb\xbf{}"), "1: expected a JSON object, found '\xef\xbb\xbf'");
  EXPECT_EQ(refusal("{\"a\":\"x\ty\"}"),
            "8: control character 0x09 inside a string (write it escaped, as \\u0009)");
  EXPECT_EQ(refusal(std::string("{\"a\":1}\0", 8)), "8: unexpected byte 0x00 (NUL)");
  EXPECT_EQ(refusal(std::string("{\"a\":\"\0\"}", 9)),
            "7: control character 0x00 inside a string (write it escaped, as \\u0000)");
  // Columns count characters: a multi-byte character counts once.
  EXPECT_EQ(refusal("{\"\xc3\xa9\xc3\xa9\":1,\"n\":x}"), "13: n: expected a value, found 'x'");
}

TEST(Read, ANameGivenTwiceIsRefusedAtItsSecondPlace) {
  EXPECT_EQ(refusal(R"({"n":1,"n":2})"), "8: n: the member \"n\" is given twice");
  // A name written with escapes is the same name.
  EXPECT_EQ(refusal(R"({"n":1,"\u006e":2})"), "8: n: the member \"n\" is given twice");
}

TEST(Read, DeepNestingInAnIgnoredMemberIsRefused) {
  const std::string deep = "{\"x\":" + std::string(70, '[') + std::string(70, ']') + "}";
  const auto what = refusal(deep);
  EXPECT_NE(what.find("nesting deeper than 64 levels"), std::string::npos) << what;
}

TEST(Read, ATokenIsQuotedAtMostEightyCharactersWithControlBytesEscaped) {
  const std::string long_token(200, 'x');
  const auto what = refusal("{\"a\":" + long_token + "}");
  EXPECT_EQ(what, "6: a: expected a value, found '" + std::string(80, 'x') + "...'");
  EXPECT_EQ(found("ab\x01", "ab\x01" + 2), "'\\x01'");
  EXPECT_EQ(found("{}", "{}" + 2), "the end of the line");
}

TEST(Read, HexDigitsAreReadInEitherCaseAndRefusedOtherwise) {
  EXPECT_EQ(hex_digits("0"), 0u);
  EXPECT_EQ(hex_digits("fFfFfFfF"), 0xffffffffu);
  EXPECT_EQ(hex_digits("0123456789abcdef"), 0x0123456789abcdefu);
  EXPECT_EQ(hex_digits("DEADBEEF00000001"), 0xdeadbeef00000001u);
  EXPECT_FALSE(hex_digits(""));
  EXPECT_FALSE(hex_digits("12345678g"));
  EXPECT_FALSE(hex_digits("1234567g"));
  EXPECT_FALSE(hex_digits("0123456789abcdef0"));
  EXPECT_FALSE(hex_digits("\x80""2345678"));
}

}  // namespace
}  // namespace warpspec::json
