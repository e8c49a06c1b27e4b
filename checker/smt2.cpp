#include "checker/smt2.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace warpspec::checker {

std::string to_smt2(z3::context& ctx, const z3::expr_vector& assertions) {
  z3::solver s(ctx, "QF_BV");
  for (unsigned i = 0; i < assertions.size(); ++i) s.add(assertions[i]);
  return "(set-logic QF_BV)\n" + s.to_smt2();
}

Answer check_smt2_file(const std::string& path, unsigned timeout_ms) {
  z3::context ctx;
  return solve(ctx, ctx.parse_file(path.c_str()), Limits{timeout_ms, 0}).answer;
}

}  // namespace warpspec::checker
