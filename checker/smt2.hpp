#pragma once
// SMT-LIB 2 export of the queries, written so that a reader never sees a half-written file.
#include <string>

#include "checker/solver.hpp"
#include "checker/z3_domain.hpp"

namespace warpspec::checker {

/// The benchmark `assertions` as SMT-LIB 2 text, ending in (check-sat).
std::string to_smt2(z3::context& ctx, const z3::expr_vector& assertions);

/// Reads an SMT-LIB 2 file back with Z3's own parser and checks it (with `timeout_ms`, 0 for
/// none).
Answer check_smt2_file(const std::string& path, unsigned timeout_ms = 0);

}  // namespace warpspec::checker
