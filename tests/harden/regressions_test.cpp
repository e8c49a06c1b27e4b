// Every seed of the fuzz corpus (fuzz/corpus/TARGET) and every input that once broke a reader
// (tests/data/regressions/TARGET) goes through the same harness the fuzzer runs: each must be
// read or rejected with the project's own error, never crash or throw anything else.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz/harness.hpp"

namespace fs = std::filesystem;
using warpspec::fuzz::Target;

namespace warpspec::fuzz {
void PrintTo(const Target& t, std::ostream* os) {
  *os << t.name;
}
}  // namespace warpspec::fuzz

namespace {

std::vector<fs::path> files_in(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file()) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string bytes_of(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

void replay(const Target& t, const fs::path& file) {
  SCOPED_TRACE(file.string());
  try {
    t.run(bytes_of(file));
  } catch (const warpspec::fuzz::Violation& v) {
    ADD_FAILURE() << "reader contract broken: " << v.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "uncaught exception: " << e.what();
  }
}

class Inputs : public ::testing::TestWithParam<Target> {};

TEST_P(Inputs, SeedsAreReadOrRejectedWithAPlace) {
  const auto seeds = files_in(fs::path(WARPSPEC_SOURCE_DIR) / "fuzz" / "corpus" / GetParam().name);
  EXPECT_GE(seeds.size(), 3u) << "the seed corpus of " << GetParam().name << " is missing";
  for (const auto& f : seeds) replay(GetParam(), f);
}

TEST_P(Inputs, RegressionsAreReadOrRejectedWithAPlace) {
  for (const auto& f : files_in(fs::path(WARPSPEC_TEST_DATA) / "regressions" / GetParam().name))
    replay(GetParam(), f);
}

INSTANTIATE_TEST_SUITE_P(Fuzz, Inputs,
                         ::testing::ValuesIn(warpspec::fuzz::targets().begin(),
                                             warpspec::fuzz::targets().end()),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
