#pragma once
// Z3 witnesses for conformance vectors. For each target of a form (a mutant of the catalog that
// applies to it, a UB clause, a clause that can only be exercised), Z3 is asked for a state on
// which the target shows: the mutant's answer departs from the specification on a defined lane,
// or the clause fires. The mutants are read over Z3 from the one text that `vectors` and `check`
// read concretely (vectors/mutant_semantics.hpp); each witness is replayed through the concrete
// model and mutants before it is returned, so a goal that says more than the concrete reading
// shows is caught, not used, and then made small by the vector shrinker (warp witnesses only: the shrinker leaves blocks as they are).
// The queries are coverage-directed: each one asks for as many of the targets that no witness
// shows yet as one state can show together.
#include <string>
#include <vector>

#include "vectors/generate.hpp"

namespace warpspec::checker {

/// Limits of the witness queries.
struct WitnessOptions {
  /// The lanes Z3 may use; the others stay inactive. Spread over the warp (both halves, both
  /// ends) so that witnesses also reach implementations that go wrong on high lanes.
  uint32_t lanes = (1u << 0) | (1u << 13) | (1u << 18) | (1u << 31);
  unsigned threads = 64;  ///< block size of the block-barrier witnesses (two warps), all free
  /// Block size asked for a mutant that no block of `threads` shows: three warps, the third of
  /// one thread (a partial warp arrives as a whole one, and the formulas stay a third smaller).
  unsigned wide_threads = 65;
  /// Z3's resource limit per solver check: a budget counted in Z3's own steps, so that with
  /// one Z3 version the same query settles the same way on any machine, however fast or busy
  /// (another Z3 version may count steps differently and give other witnesses).
  unsigned rlimit = 20000000;
  /// The same, for asking a state that already shows one target to show another as well.
  unsigned add_rlimit = 1500000;
  unsigned timeout_ms = 60000;  ///< a safety net per check, far above what the budget allows
};

/// What the queries for one form found.
struct WitnessStats {
  std::size_t targets = 0;          ///< targets the goals cover (some shown unasked)
  std::size_t shown = 0;            ///< targets some witness shows
  std::size_t queries = 0;          ///< solver checks
  std::vector<std::string> missed;  ///< targets no witness shows, with why ("unsat", "unknown")
};

/// The Z3 witnesses of `form` on `target`/`ptx`, smallest first, each replayed. Throws
/// std::logic_error when a witness does not replay (the goal read over Z3 and the concrete
/// reading differ).
std::vector<vectors::Vector> z3_witnesses(spec::FormId form, spec::Target target,
                                          spec::PtxVersion ptx, const WitnessOptions& opt = {},
                                          WitnessStats* stats = nullptr);

/// `z3_witnesses` as a source for `vectors::generate`.
vectors::WitnessSource z3_witness_source(const WitnessOptions& opt = {});

}  // namespace warpspec::checker
