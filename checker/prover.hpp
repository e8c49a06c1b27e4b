#pragma once
// Proving properties: each claim is proved by asserting its negation next to the state's
// well-formedness and reading `unsat`. A `sat` answer is a counterexample, turned into concrete
// states and replayed through the concrete model; `unknown` stays unknown, with Z3's reason.
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "checker/property.hpp"

namespace warpspec::checker {

/// The three ends of a query.
enum class Status { Proved, Refuted, Unknown };

/// "proved", "refuted" or "unknown".
std::string_view status_name(Status s);

/// The smallest memory ceiling Z3 starts under (below it, creating a context fails).
inline constexpr unsigned kMinMemoryMb = 64;

/// Limits and outputs of a proof run.
struct ProveOptions {
  unsigned timeout_ms = 120000;  ///< per property (all its claims together); 0 for none
  uint64_t rlimit = 0;           ///< Z3 resource limit per claim; 0 for none
  unsigned memory_mb = 0;        ///< Z3's memory ceiling, shared by the process; 0 for none,
                                 ///< else at least kMinMemoryMb
  unsigned jobs = 2;             ///< worker threads, each with its own Z3 context
  std::string smt2_path;         ///< when set: write each query here (see `smt2_file_for`)
  bool smt2_is_dir = false;      ///< `smt2_path` is a folder receiving one NAME.smt2 per property
};

/// Queries of one kind: how many, and the wall time they took.
struct QueryTally {
  std::size_t queries = 0;
  double seconds = 0;
  QueryTally& operator+=(const QueryTally& o) {
    queries += o.queries;
    seconds += o.seconds;
    return *this;
  }
};

/// Where a property's time went, to tell a property that is slow to state from one slow to
/// search, and to see what the runner's group queries cost.
struct Work {
  double build_seconds = 0;  ///< reading the property over Z3 and rewriting its claims
  QueryTally grouped;        ///< queries of several claims at once that settled
  QueryTally abandoned;      ///< such queries that gave up at their budget (claims asked again)
  QueryTally single;         ///< queries of one claim
  /// Adds another property's work (a run's summary).
  Work& operator+=(const Work& o) {
    build_seconds += o.build_seconds;
    grouped += o.grouped;
    abandoned += o.abandoned;
    single += o.single;
    return *this;
  }
};

/// The end of one property.
struct Verdict {
  std::string name;
  Status status = Status::Unknown;
  double seconds = 0;          ///< wall time of this property, building included
  std::size_t claims = 0;      ///< proof obligations the property stated
  uint64_t steps = 0;          ///< Z3's deterministic step count for the whole property
  Work work;                   ///< where `seconds` went
  std::string reason;          ///< unknown: Z3's reason; refuted: the claim that failed
  std::string counterexample;  ///< refuted: lane tables of the replay
  nlohmann::json counterexample_json;
  std::string error;         ///< non-empty when the run itself failed (a replay that does not
                             ///< reproduce, a Z3 error)
  std::string output_error;  ///< non-empty when its SMT-LIB file could not be written (the
                             ///< verdict stands)
};

/// Proves one property.
Verdict prove(const Property& p, const ProveOptions& opt);

/// Proves `props` on `opt.jobs` threads; `on_done` is called (serialised) as each one ends.
/// Verdicts come back in the order of `props`. A property whose lemmas are not among `props` or
/// not proved ends `unknown` (see `with_lemmas`).
std::vector<Verdict> prove_all(const std::vector<const Property*>& props, const ProveOptions& opt,
                               const std::function<void(const Verdict&)>& on_done = {});

/// `chosen` plus every lemma they rely on (looked up in `lib`), lemmas first.
std::vector<const Property*> with_lemmas(const std::vector<Property>& lib,
                                         const std::vector<const Property*>& chosen);

/// The property's whole query (well-formedness, assumptions, negated conjunction of its claims)
/// as SMT-LIB 2: `unsat` means proved.
std::string property_smt2(const Property& p);

}  // namespace warpspec::checker
