// A second, independent solver: the SMT-LIB export of the properties is read by cvc5 as well as
// by Z3. Where both decide, they must agree; a disagreement is a failing test. cvc5 is given a
// time limit, and a property it cannot decide in time is counted, never read as agreement.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "checker/library.hpp"
#include "checker/prover.hpp"
#include "checker/smt2.hpp"
#include "model/output.hpp"
#include "mutants.hpp"

namespace warpspec::checker {
namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("warpspec-cvc5-" + std::to_string(::getpid()) + "-" + name))
      .string();
}

// cvc5's answer for an SMT-LIB file, within `limit_ms`; anything but sat or unsat is unknown.
Answer cvc5(const std::string& path, unsigned limit_ms, std::string& said) {
  const std::string cmd = std::string(WARPSPEC_CVC5) + " --lang smt2 --tlimit=" +
                          std::to_string(limit_ms) + " '" + path + "' 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return Answer::Unknown;
  char buf[4096];
  said.clear();
  while (std::fgets(buf, sizeof buf, p)) said += buf;
  ::pclose(p);
  while (!said.empty() && (said.back() == '\n' || said.back() == '\r')) said.pop_back();
  const auto last = said.substr(said.rfind('\n') == std::string::npos ? 0 : said.rfind('\n') + 1);
  if (last == "unsat") return Answer::Unsat;
  if (last == "sat") return Answer::Sat;
  return Answer::Unknown;
}

// Properties of every family (laws, UB facts, block barriers, fast == model) whose exported
// queries cvc5 decides in seconds; the others are left to `scripts/cross_check.sh`, which gives
// every property a longer limit. (Since the block barriers name barriers and counts, cvc5 needs
// more than 30 s for the other block properties and for fast == model on bar.*.)
constexpr const char* kProperties[] = {
    "cta.count_of_true_predicates_is_arrivals",
    "elect.same_membermask_same_leader_in_any_state",
    "match.any_contains_own_lane",         "match.b32_ignores_high_operand_bits",
    "redux.add_ignores_signedness",        "redux.add_of_bits_is_popc_of_ballot",
    "redux.f32_uniform_across_a_mask",     "redux.singleton_masks_return_own_value",
    "redux.uniform_across_a_mask",         "ub.defined_means_executes",
    "ub.full_warp_full_mask_is_free",      "ub.same_clauses_across_a_family",
    "vote.any_is_ballot_nonzero",          "vote.ballot_own_bit_is_own_predicate",
    "vote.uniform_across_a_mask",
};

TEST(SecondSolver, Cvc5AgreesWithZ3OnTheExportedProperties) {
  const auto lib = property_library();
  std::size_t decided = 0;
  for (const char* name : kProperties) {
    const auto* p = find_property(lib, name);
    ASSERT_NE(p, nullptr) << name;
    const auto path = temp_path(std::string(name) + ".smt2");
    model::write_output(path, property_smt2(*p));
    const auto z3 = check_smt2_file(path, 120000);
    std::string said;
    const auto other = cvc5(path, 30000, said);
    EXPECT_EQ(z3, Answer::Unsat) << name << ": Z3 does not prove it from the exported file";
    if (other != Answer::Unknown) {
      ++decided;
      EXPECT_EQ(other, z3) << name << ": cvc5 says " << answer_name(other) << ", Z3 says "
                           << answer_name(z3);
    } else {
      std::cout << name << ": cvc5 undecided (" << said.substr(0, 200) << ")\n";
    }
    std::filesystem::remove(path);
  }
  std::cout << "cvc5 decided " << decided << " of " << std::size(kProperties)
            << " exported properties and agreed with Z3 on every one\n";
  // Undecided is not agreement: most of them must be decided for the check to mean anything.
  EXPECT_GE(decided * 4, std::size(kProperties) * 3);
}

TEST(SecondSolver, Cvc5FindsTheCounterexampleZ3Finds) {
  // vote.uni inverted breaks the all-or-none law: both solvers must find the query satisfiable.
  auto m = mutants::implementation(vectors::MutantId::VoteUniInverted);
  const auto lib = law_library(m);
  const auto* p = find_property(lib, "vote.uni_is_all_or_none");
  ASSERT_NE(p, nullptr);
  const auto path = temp_path("refuted.smt2");
  model::write_output(path, property_smt2(*p));
  std::string said;
  EXPECT_EQ(check_smt2_file(path, 60000), Answer::Sat);
  EXPECT_EQ(cvc5(path, 60000, said), Answer::Sat) << said;
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace warpspec::checker
