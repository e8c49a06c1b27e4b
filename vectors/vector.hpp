#pragma once
// Conformance vectors: an instruction, one or more successive states ("rounds") it runs on, and
// what the specification says each round returns. Successive rounds catch implementations that
// keep state between instructions (stale ballot bits, a block reduction never reset).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/eval.hpp"
#include "spec/instr_parse.hpp"

namespace warpspec::vectors {

/// One execution of the instruction: a warp state, or a block state for the block barriers.
struct Round {
  model::Warp warp{};
  model::Cta cta{};
};

/// A conformance vector.
struct Vector {
  uint64_t id = 0;
  spec::ParsedInstr instr;
  std::vector<Round> rounds;
  std::string source;                   ///< "witness", "boundary" or "random"
  std::vector<spec::ClauseId> clauses;  ///< the clauses this vector covers

  /// True for the block barriers (rounds use `cta`).
  bool is_cta() const { return !spec::is_warp_form(instr.instr.form); }
};

/// What one round returned on each lane (or thread), as an implementation reports it.
struct Observed {
  std::vector<uint32_t> d;
  std::vector<uint8_t> p;
  std::vector<uint8_t> present;  ///< the implementation gave a value for this lane
  bool ub_reported = false;      ///< the implementation says the round is undefined
  bool hang = false;             ///< the round did not complete (a barrier never released)
  /// The 64-bit shuffle overloads (Instr::wide): the high word of each lane's d, whose low word
  /// is `d`. Empty for every other instruction.
  std::vector<uint32_t> d_hi{};
};

/// What the specification says of one round.
struct Expected {
  std::vector<uint32_t> d;
  std::vector<uint8_t> p;
  std::vector<uint8_t> executes;
  std::vector<uint8_t> defined;  ///< executes and no UB clause fires on the lane
  std::vector<uint8_t> d_defined;  ///< defined, and no clause leaves the lane's d open (shuffles)
  /// elect.sync (spec::has_chosen_leader): the lanes each lane's leader may be chosen from (its
  /// membermask). `d` and `p` then hold the model's choice, one admissible answer of several.
  /// Empty for every other form.
  std::vector<uint32_t> choice;
  std::vector<std::pair<spec::ClauseId, std::vector<unsigned>>> ub;  ///< clauses that fire
  /// The 64-bit shuffle overloads (Instr::wide): the high word of each lane's d, whose low word
  /// is `d` (both pinned exactly where `d_defined` says). Empty for every other instruction.
  std::vector<uint32_t> d_hi;
};

/// Lane `i`'s whole d in an answer (Expected or Observed): the high word joined to the low one
/// where the answer has one (the 64-bit shuffle overloads), else the 32-bit d.
template <class Answer>
uint64_t d_value(const Answer& x, std::size_t i) {
  const uint64_t hi = i < x.d_hi.size() ? x.d_hi[i] : 0;
  return hi << 32 | x.d[i];
}

/// True when two answers give lane `i` the same d, both words of it where there are two (an
/// answer without high words gives 0 there).
template <class A, class B>
bool same_d(const A& x, const B& y, std::size_t i) {
  return x.d[i] == y.d[i] && d_value(x, i) == d_value(y, i);
}

/// The lanes (or threads) of a round.
std::size_t round_width(const Vector& v, const Round& r);

/// One lane (thread) of a round as the emitted programs carry it: status (0 executes or
/// arrives, 1 exited, 2 neither), the membermask it passes (an immediate one included; 0 in a
/// block), its call site, its operand (a thread's predicate) and a shuffle's b and c.
struct LaneRecord {
  unsigned status = 0;
  uint32_t mask = 0, site = 0;
  uint64_t a = 0;
  uint32_t b = 0, c = 0;  ///< shuffles: b and c (an immediate one included); block barriers:
                          ///< the barrier number a and the thread count b
  /// Block barriers: the thread reaches the barrier through the partner form (CtaState::partner).
  bool partner = false;
};
std::vector<LaneRecord> lane_records(const Vector& v, const Round& r);

/// Writes bits 0 to n - 1 of `words` (bit t in words[t / 32]) as n flags, 0 or 1, at `out`.
void bits_to_flags(const uint32_t* words, std::size_t n, uint8_t* out);

/// One warp round's expectation from an evaluator's result for instruction `in` on state `w`
/// (`expected` builds each warp round so; hardware replay builds its own rounds with it).
Expected expected_round(const spec::Instr& in, const model::Warp& w, const model::WarpResult& res);

/// The model's answer for every round of `v`, for `target`/`ptx`.
std::vector<Expected> expected(const Vector& v, spec::Target target, spec::PtxVersion ptx);

/// The same answer, computed by the fast implementation (model/fast/, proved equal to the model
/// on every defined lane): for reading large files.
std::vector<Expected> expected_fast(const Vector& v, spec::Target target, spec::PtxVersion ptx);
/// The same, written into `out`, whose storage is reused (no allocation once it has held an
/// answer as large): for reading a file vector by vector.
void expected_fast(const Vector& v, spec::Target target, spec::PtxVersion ptx,
                   std::vector<Expected>& out);

/// True when some round of `v` has undefined behaviour (a UB vector: no implementation has to
/// match it).
bool has_ub(const std::vector<Expected>& e);

/// The model's answer in the form an implementation reports it (used by mutants and tests).
std::vector<Observed> as_observed(const std::vector<Expected>& e);

/// The leader an implementation elected for each membermask so far (elect.sync): the text
/// requires the same one every time, so a suite's vectors share one memo.
using LeaderMemo = std::map<uint32_t, uint32_t>;

/// Where an observation first departs from the specification.
struct Mismatch {
  /// Ub: a UB report on a defined round; Hang: a defined round that did not complete; Missing:
  /// defined lanes without a result; Value: a wrong d or p on defined lanes.
  enum class Kind : uint8_t { None, Ub, Hang, Missing, Value } kind = Kind::None;
  std::size_t round = 0;
  std::vector<unsigned> lanes;  ///< every lane of that round that departs
  std::string what;             ///< "d", "p", "ub", "hang" or "result"
  /// Where the specification leaves a choice (elect.sync): the rule the values break, which the
  /// comparison itself knows.
  std::optional<spec::ClauseId> clause{};
};

/// Compares an observation with the specification, round by round, in the order: completion (a
/// defined round must not hang), UB (a defined round must not be reported undefined),
/// defined-ness (every defined lane has a result), values (d whole: both words of a 64-bit
/// shuffle overload's, so that a wrong high word is a d mismatch like any other). Rounds with UB
/// are not compared.
/// Where the specification leaves a choice (elect.sync's leader), values are held to what it
/// allows instead of to the model's choice: a lane of the membermask, one per election, p on
/// it alone, and the same one for a membermask in every round, and in every vector that shares
/// `leaders` (a fresh memo per call when it is null).
Mismatch compare(const spec::Instr& in, const std::vector<Expected>& e,
                 const std::vector<Observed>& o, LeaderMemo* leaders = nullptr);
/// Same, for a parsed instruction.
inline Mismatch compare(const spec::ParsedInstr& in, const std::vector<Expected>& e,
                        const std::vector<Observed>& o, LeaderMemo* leaders = nullptr) {
  return compare(in.instr, e, o, leaders);
}
/// Same, for a vector.
inline Mismatch compare(const Vector& v, const std::vector<Expected>& e,
                        const std::vector<Observed>& o, LeaderMemo* leaders = nullptr) {
  return compare(v.instr, e, o, leaders);
}

/// Writes an immediate membermask into every lane's mask of every round and drops it from the
/// instruction, so that masks can be changed lane by lane (warp vectors).
void own_masks(Vector& v);

/// Narrows every lane's membermask to the lanes of its own call site, in every round: the state
/// as an implementation that keeps call sites apart reads it (warp vectors).
void keep_call_sites_apart(Vector& v);

/// Number of executing lanes over all rounds: the size used to pick the smallest vector.
std::size_t vector_size(const Vector& v);

/// The first part in which two vectors differ, e.g. "rounds[1].warp.mask[3]"; empty when they
/// are equal (id, instruction text, source, clauses and every round's state): for tests that hold
/// two readers of a vector to each other.
std::string vector_difference(const Vector& a, const Vector& b);

}  // namespace warpspec::vectors
