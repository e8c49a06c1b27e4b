#pragma once
// Every outcome a block can reach: a depth-first walk over the scheduler's choices
// (machine.hpp), with states already visited skipped. An outcome is how a path ends: the block
// completes with some final memory, it deadlocks, or it reaches undefined behaviour or a data
// race; identical outcomes are counted together.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "programs/machine.hpp"

namespace warpspec::programs {

struct PathEnd;

/// Limits of one exploration.
struct ExploreOptions {
  uint64_t max_states = 200000;   ///< settled states visited before giving up (incomplete)
  unsigned activemask_limit = 5;  ///< more threads at one __activemask: not every grouping
  /// Offer only the first warp's choices and execute a ready group that overlaps no other at
  /// once (machine.hpp `choices`). Off, every choice of every warp is explored: the reference the
  /// reduction is tested against.
  bool reduce = true;
  /// Registers whose final value in every thread is part of each outcome.
  std::vector<uint32_t> registers;
  /// About how many bytes the states waiting to be explored may hold. The walk is breadth first
  /// while they fill half of it, depth first beyond, and stops (incomplete) past all of it.
  std::size_t max_frontier_bytes = std::size_t{4} << 30;
  /// Depth first from the start (the tests compare the two orders).
  bool depth_first = false;
  /// When set, called with each new outcome: true stops the walk there (incomplete), as when
  /// the question is only whether some schedule reaches an outcome of a kind.
  std::function<bool(const PathEnd&)> enough;
  /// Called about once every 1,000 states with the number visited so far.
  std::function<void(uint64_t)> progress;
};

/// What a group of threads did on the way to an outcome: the same instructions, in the same
/// order, ending the same way.
struct ThreadTrace {
  std::vector<unsigned> threads;
  std::vector<std::pair<uint32_t, uint32_t>> runs;  ///< instructions run, as [first, last] pcs
  std::string end;  ///< "exits", "waits at line 12 (bar.sync 0)", ...
};

/// One way a path ends.
struct PathEnd {
  enum class Kind : uint8_t { Completed, Deadlock, Undefined, Race, GaveUp };
  Kind kind = Kind::Completed;
  std::vector<Finding> findings;  ///< the UB or race finding, or why each waiting group waits
  /// Per parameter: the final 32-bit words of its buffer (empty for a scalar), and per word
  /// whether any of its bytes is undefined.
  std::vector<std::vector<uint32_t>> words;
  std::vector<std::vector<uint8_t>> undefined;
  /// With unknown inputs (terms.hpp): per parameter, the term of each byte of its buffer (empty
  /// where no byte has one). Two ends with the same words but other terms are other outcomes:
  /// some input of the class may tell them apart.
  std::vector<std::vector<uint32_t>> terms;
  /// Per ExploreOptions::registers entry, each thread's final value (nullopt: undefined).
  std::vector<std::vector<std::optional<uint64_t>>> registers;
  uint64_t paths = 0;                 ///< end states with this outcome
  std::vector<std::string> schedule;  ///< the choices of the first path found to it
  std::vector<ThreadTrace> trace;     ///< each thread's instructions along that path
};

/// "completed", "deadlock", "undefined", "race" or "gave up" (a path the walk did not finish).
std::string_view kind_name(PathEnd::Kind k);

/// The result of an exploration.
struct Exploration {
  std::vector<PathEnd> outcomes;
  uint64_t states = 0;   ///< settled states visited
  uint64_t steps = 0;    ///< thread instructions executed over the whole walk
  bool complete = true;  ///< every schedule was covered
  /// Each outcome's schedule is a shortest one to it: the walk stayed breadth first.
  bool shortest = true;
  std::vector<std::string> limits;  ///< why not, when not
  bool any(PathEnd::Kind k) const;
  /// Some outcome has a finding the manuals call undefined behaviour (a deadlock may too).
  bool any_undefined() const;
  bool any_finding(std::string_view key) const;
};

/// Explores every schedule of `p` under `l` (within `o`'s limits). Throws std::invalid_argument
/// when the launch does not fit the program.
Exploration explore(const Program& p, const Launch& l, const ExploreOptions& o = {});

}  // namespace warpspec::programs
