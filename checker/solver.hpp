#pragma once
// The one place warpspec asks Z3 a question. Every query (a proof claim, a UB possibility, a
// witness for a conformance vector, an SMT-LIB file read back) goes through a Solver, with its
// limits set one way, and comes back in one vocabulary: sat with a model, unsat, or unknown with
// Z3's reason. An exception Z3 throws under a resource limit is an unknown, never a crash and
// never an answer. What the answer means (proved, refuted, "UB can fire") is the caller's: it is
// read from an Outcome, never from a message.
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "checker/z3_domain.hpp"

namespace warpspec::checker {

/// What a satisfiability check found.
enum class Answer { Sat, Unsat, Unknown };

/// "sat", "unsat" or "unknown".
std::string_view answer_name(Answer a);

/// Limits for one check; 0 means none. The timeout is wall-clock; the resource limit is Z3's
/// deterministic step count (the same answer on a slow or busy machine).
struct Limits {
  unsigned timeout_ms = 0;
  unsigned rlimit = 0;
};

/// The end of one check.
struct Outcome {
  Answer answer = Answer::Unknown;
  std::optional<z3::model> model;  ///< Sat only
  std::string reason;              ///< Unknown only: Z3's reason ("timeout", "max. resource
                                   ///< limit exceeded", an exception's message)
  bool sat() const { return answer == Answer::Sat; }
  bool unsat() const { return answer == Answer::Unsat; }
  bool unknown() const { return answer == Answer::Unknown; }
};

/// A QF_BV solver (bit-blasted on its own, never Z3's slower incremental core for a single
/// check) with assertions, scopes and limits.
class Solver {
 public:
  /// A solver in `ctx` under `limits`.
  explicit Solver(z3::context& ctx, Limits limits = {});
  /// Z3's incremental solver (not bound to the QF_BV tactic), for many checks on one set of
  /// assertions.
  static Solver incremental(z3::context& ctx) { return Solver(ctx, z3::solver(ctx)); }
  /// Adds an assertion.
  void add(const z3::expr& e) { s_.add(e); }
  /// Adds every assertion of `es`.
  void add(const z3::expr_vector& es) { s_.add(es); }
  /// Opens and closes an assertion scope.
  void push() { s_.push(); }
  void pop() { s_.pop(); }
  /// Replaces the limits for the checks that follow.
  void set_limits(Limits limits);
  /// Checks the assertions.
  Outcome check();
  /// Checks the assertions with `assumption` assumed for this check alone. Z3 then keeps what it
  /// learnt about the assertions for the next check, which pays off over many claims on the
  /// same hypotheses.
  Outcome check(const z3::expr& assumption);
  /// Z3's step count in this solver's context so far: a measure of work that, unlike time, a
  /// busy machine does not change. Reading it changes which models later checks in the context
  /// return, so the witness searches, whose models are kept as files, never read it.
  uint64_t steps();

 private:
  Solver(z3::context& ctx, z3::solver s) : ctx_(ctx), s_(std::move(s)) {}
  Outcome answer(const std::function<z3::check_result()>& run);
  z3::context& ctx_;
  z3::solver s_;
};

/// While one lives, a z3::expr that another is moved into releases the term it held, on this
/// thread. Debian 12's Z3 header (4.8.12) does not, so a context keeps every term a fold
/// replaced until it is deleted, and deleting it then takes seconds (checker/CMakeLists.txt
/// builds the checker with a copy of the header that asks this). The prover lives under one:
/// releasing changes which numbers Z3 gives new terms, and with them which models it returns,
/// so the witness searches whose answers are kept as files do not.
class ReleaseMovedOverTerms {
 public:
  ReleaseMovedOverTerms();
  ~ReleaseMovedOverTerms();
  ReleaseMovedOverTerms(const ReleaseMovedOverTerms&) = delete;
  ReleaseMovedOverTerms& operator=(const ReleaseMovedOverTerms&) = delete;

 private:
  bool before_;
};

/// Checks the conjunction of `assertions` in a fresh Solver under `limits`.
Outcome solve(z3::context& ctx, const z3::expr_vector& assertions, Limits limits = {});
/// Checks one formula in a fresh Solver under `limits`.
Outcome solve(z3::context& ctx, const z3::expr& formula, Limits limits = {});

}  // namespace warpspec::checker
