#pragma once
// For which inputs can a kernel deadlock, race or reach undefined behaviour? Some of a launch's
// parameters are left unknown (a scalar's value, every word of a buffer). The explorer walks every
// schedule of one concrete input while the machine carries each value's term over the unknowns
// (programs/terms.hpp) and pins every term a decision rests on. The pins describe the class of
// inputs that take the walk's steps: those inputs reach the same outcomes. Z3 then finds an input
// outside every class walked so far, and the next walk starts from it, until no input is left
// (every input is covered) or a limit is reached. Every input shown is one the explorer ran.
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "programs/explore.hpp"

namespace warpspec::checker {

/// What to ask and how far to go.
struct InputQuery {
  std::vector<unsigned> unknown;       ///< parameter indices whose values are unknown
  unsigned max_classes = 256;          ///< walks before giving up
  unsigned solver_timeout_ms = 10000;  ///< per query for the next input
  programs::ExploreOptions explore;    ///< limits of each walk (`enough` is not used)
  /// Per class, how many of its pins are written out (InputClass::condition and `when`): the
  /// text of a large term takes long to write.
  std::size_t shown_pins = SIZE_MAX;
  /// Called after each walk with the number of classes so far.
  std::function<void(std::size_t)> progress;
};

/// One class of inputs: an input of it, what its walk found, and the condition that holds it.
struct InputClass {
  programs::Launch launch;  ///< the input the explorer ran (no terms attached)
  programs::Exploration exploration;
  /// The pins the walk relied on, each as an SMT-LIB term over the unknowns (one per line; the
  /// first InputQuery::shown_pins of them), and their number. Every input that satisfies them all
  /// is in this class.
  std::string condition;
  std::vector<std::string> when;  ///< the same pins as a person reads them (C-like)
  std::size_t pins = 0;
  /// Whether every schedule of every input of the class ends with the same memory, asked where
  /// the walk is complete and every outcome completed: One (a single outcome, the same terms),
  /// Proved (several, which Z3 shows equal for every input of the class), Differs (for
  /// `differs_on`, whose own walk was run and ends in more than one way), Unknown (Z3 could not
  /// tell), NotAsked.
  enum class Schedules : uint8_t { NotAsked, One, Proved, Differs, Unknown };
  Schedules schedules = Schedules::NotAsked;
  std::optional<programs::Launch> differs_on;
};

/// The classes whose walks reach the same kinds of outcome with the same findings.
struct InputGroup {
  /// "completed", or the outcome kinds with their clauses: "deadlock: syncwarp.ub.peer_absent".
  std::vector<std::string> ends;
  std::vector<std::size_t> classes;  ///< indices into InputAnswer::classes
  /// Where one scalar is the only unknown: the values of the group, as closed ranges in
  /// increasing order, at most kMaxRanges of them (`more` when there are others).
  std::vector<std::pair<uint64_t, uint64_t>> values;
  bool more = false;
  /// The ends include a deadlock, undefined behaviour or a race.
  bool bad = false;
};

/// The most ranges an InputGroup lists.
inline constexpr std::size_t kMaxRanges = 8;

/// The answer.
struct InputAnswer {
  std::vector<InputClass> classes;
  std::vector<InputGroup> groups;  ///< the classes grouped by their ends, in order of first class
  /// Every input of the unknowns is in some class and every walk was complete: what the classes
  /// reach is what any input can reach.
  bool complete = false;
  std::string why_not;  ///< when not complete: which limit ended the search
  /// Every input's schedules end with the same memory: Proved or One for every class of a
  /// complete answer; Differs where some class does; else Unknown, or NotAsked where some class
  /// has a finding or a walk that did not finish.
  InputClass::Schedules schedules = InputClass::Schedules::NotAsked;
  /// The names of the unknowns, as the conditions use them: `n`, `in[3]`, ...
  std::vector<std::string> names;
};

/// alu::value read with Z3 on known sources, each result simplified to a literal: the symbolic
/// reading of the thread-local arithmetic, for tests that it agrees with the concrete one.
std::vector<uint64_t> symbolic_values(const programs::Instruction& in,
                                      const std::vector<std::array<uint64_t, 4>>& sources);

/// The ends of a walk, as classes are grouped by them: each outcome kind ("completed",
/// "deadlock", ...), and for an outcome with findings "kind: clause" for each, sorted, once each.
std::vector<std::string> ends_of(const programs::Exploration& x);

/// Explores `p` under `seed` and then under one input of each further class of the unknowns.
/// Throws std::invalid_argument when the launch does not fit the program or an unknown is out of
/// range.
InputAnswer explore_inputs(const programs::Program& p, const programs::Launch& seed,
                           const InputQuery& q);

}  // namespace warpspec::checker
