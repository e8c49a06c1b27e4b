// SMT-LIB 2 export: a query written to a file and read back by Z3's own parser gets the same
// answer as the prover.
#include "checker/smt2.hpp"
#include "model/output.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "checker/library.hpp"
#include "checker/prover.hpp"
#include "mutants.hpp"

namespace warpspec::checker {
namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("warpspec-prove-" + std::to_string(::getpid()) + "-" + name))
      .string();
}

TEST(Smt2, ProvedPropertyRoundTripsAsUnsat) {
  const auto lib = law_library();
  const auto* p = find_property(lib, "vote.any_is_ballot_nonzero");
  ASSERT_NE(p, nullptr);
  const auto path = temp_path("proved.smt2");
  ProveOptions opt;
  opt.smt2_path = path;
  auto v = prove(*p, opt);
  ASSERT_EQ(v.status, Status::Proved) << v.reason;
  ASSERT_TRUE(std::filesystem::exists(path));
  EXPECT_EQ(check_smt2_file(path, 60000), Answer::Unsat);
  std::filesystem::remove(path);
}

TEST(Smt2, RefutedPropertyRoundTripsAsSat) {
  auto m = mutants::implementation(vectors::MutantId::VoteUniInverted);
  const auto lib = law_library(m);
  const auto* p = find_property(lib, "vote.uni_ignores_negation");
  ASSERT_NE(p, nullptr);
  const auto path = temp_path("refuted.smt2");
  model::write_output(path, property_smt2(*p));
  // The inverted uni still ignores negation; the all-or-none law is what it breaks.
  EXPECT_EQ(check_smt2_file(path, 60000), Answer::Unsat);
  const auto* q = find_property(lib, "vote.uni_is_all_or_none");
  model::write_output(path, property_smt2(*q));
  EXPECT_EQ(check_smt2_file(path, 60000), Answer::Sat);
  std::filesystem::remove(path);
}

TEST(Smt2, WritesAtomicallyAndReportsUnwritablePaths) {
  const auto dir = temp_path("dir");
  std::filesystem::create_directories(dir);
  const auto path = dir + "/q.smt2";
  model::write_output(path, "(check-sat)\n");
  for (const auto& e : std::filesystem::directory_iterator(dir))
    EXPECT_EQ(e.path().filename(), "q.smt2");  // no temporary left behind
  EXPECT_THROW(model::write_output(dir + "/missing/q.smt2", "x"), model::OutputError);
  // A device is written in place, never renamed over; a full one is an error.
  EXPECT_THROW(model::write_output("/dev/full", "x"), model::OutputError);
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/full"));
  model::write_output("/dev/null", "x");
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/null"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace warpspec::checker
