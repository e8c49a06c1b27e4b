#include "checker/solver.hpp"

// Read by the copy of z3++.h that checker/CMakeLists.txt makes (when the header needs it).
thread_local bool warpspec_z3_release_moved_over = false;

namespace warpspec::checker {

ReleaseMovedOverTerms::ReleaseMovedOverTerms() : before_(warpspec_z3_release_moved_over) {
  warpspec_z3_release_moved_over = true;
}

ReleaseMovedOverTerms::~ReleaseMovedOverTerms() {
  warpspec_z3_release_moved_over = before_;
}

std::string_view answer_name(Answer a) {
  switch (a) {
    case Answer::Sat:
      return "sat";
    case Answer::Unsat:
      return "unsat";
    case Answer::Unknown:
      break;
  }
  return "unknown";
}

Solver::Solver(z3::context& ctx, Limits limits) : ctx_(ctx), s_(ctx, "QF_BV") {
  set_limits(limits);
}

void Solver::set_limits(Limits limits) {
  z3::params p(ctx_);
  if (limits.timeout_ms) p.set("timeout", limits.timeout_ms);
  if (limits.rlimit) p.set("rlimit", limits.rlimit);
  s_.set(p);
}

Outcome Solver::check() {
  return answer([this] { return s_.check(); });
}

Outcome Solver::check(const z3::expr& assumption) {
  return answer([&] {
    z3::expr_vector v(ctx_);
    v.push_back(assumption);
    return s_.check(v);
  });
}

Outcome Solver::answer(const std::function<z3::check_result()>& run) {
  Outcome o;
  try {
    switch (run()) {
      case z3::sat:
        o.answer = Answer::Sat;
        o.model = s_.get_model();
        break;
      case z3::unsat:
        o.answer = Answer::Unsat;
        break;
      case z3::unknown:
        o.reason = s_.reason_unknown();
        break;
    }
  } catch (const z3::exception& e) {
    // Resource exhaustion surfaces as an exception in some Z3 builds.
    o = Outcome{};
    o.reason = e.msg();
  }
  if (o.unknown() && o.reason.empty()) o.reason = "unknown";
  return o;
}

uint64_t Solver::steps() {
  try {
    const auto stats = s_.statistics();
    for (unsigned k = 0; k < stats.size(); ++k)
      if (stats.key(k) == "rlimit count")
        return stats.is_uint(k) ? stats.uint_value(k)
                                : static_cast<uint64_t>(stats.double_value(k));
  } catch (const z3::exception&) {
    // No statistics: 0, which only a report of the work reads.
  }
  return 0;
}

Outcome solve(z3::context& ctx, const z3::expr_vector& assertions, Limits limits) {
  Solver s(ctx, limits);
  s.add(assertions);
  return s.check();
}

Outcome solve(z3::context& ctx, const z3::expr& formula, Limits limits) {
  Solver s(ctx, limits);
  s.add(formula);
  return s.check();
}

}  // namespace warpspec::checker
