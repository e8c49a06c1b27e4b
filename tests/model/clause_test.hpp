#pragma once
// CLAUSE_TEST(key, Name) declares a GoogleTest test that exercises catalog clause `key`; the
// registry lets one test check that every clause in the catalog has at least one such test.
#include <gtest/gtest.h>

#include <set>
#include <string>

namespace warpspec::test {

/// Clause keys that have a test in this program.
inline std::set<std::string>& tested_clauses() {
  static std::set<std::string> keys;
  return keys;
}

inline bool note_clause(const char* key) {
  tested_clauses().insert(key);
  return true;
}

}  // namespace warpspec::test

#define CLAUSE_TEST(key, name)                                                     \
  static const bool clause_registered_##name = ::warpspec::test::note_clause(key); \
  TEST(Clause, name)
