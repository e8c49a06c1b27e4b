#pragma once
// UB queries: for one instruction and a partly fixed state, which UB clauses can fire, must
// fire or cannot; the smallest witness for each that can (fewest executing lanes), replayed
// through the model; and when the call can be free of UB, a condition for that, checked by Z3.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "checker/z3_domain.hpp"
#include "model/eval.hpp"

namespace warpspec::checker {

/// What a query fixes of one lane; unset fields range freely.
struct LaneFix {
  std::optional<model::LaneStatus> status;
  std::optional<uint32_t> mask;
  std::optional<uint64_t> a;
  std::optional<uint32_t> site;
  std::optional<uint32_t> b;  ///< shuffles: source lane or offset
  std::optional<uint32_t> c;  ///< shuffles: segment mask and clamp
};

/// The fixed part of the state. For the block barriers, `threads` threads take `status` and `a`
/// (as the predicate) from `lanes` for the first 32 and `cta_status`/`cta_pred` beyond.
struct UbConstraints {
  std::array<LaneFix, spec::kWarpSize> lanes{};
  unsigned threads = 64;                                     ///< block size for the block barriers
  std::vector<std::optional<model::LaneStatus>> cta_status;  ///< per thread, when given
  std::vector<std::optional<uint32_t>> cta_pred;             ///< per thread, when given
  std::vector<std::optional<uint32_t>> cta_bar;    ///< per thread, its barrier-number register
  std::vector<std::optional<uint32_t>> cta_count;  ///< per thread, its thread-count register
  std::vector<std::optional<bool>> cta_partner;    ///< per thread, whether it uses the partner form
};

/// Limits of a UB query.
struct UbOptions {
  unsigned timeout_ms = 10000;  ///< per solver check
  std::string smt2_path;        ///< when set: write the "can any UB fire" query here
};

/// Whether a clause fires over the states the constraints allow.
enum class Possibility { Cannot, Can, Must, Unknown };

/// "cannot", "can", "must" or "unknown".
std::string_view possibility_name(Possibility p);

/// The answer for one UB clause, or for one clause that leaves `d` alone undefined (kind
/// UndefinedValue), which is asked over the UB-free states only: there the instruction is
/// defined, and the clause says on which lanes `d` is not pinned down.
struct ClauseAnswer {
  spec::ClauseId clause;
  Possibility verdict = Possibility::Unknown;
  std::string reason;                     ///< Z3's reason when unknown
  std::optional<model::Warp> witness;     ///< warp forms: a state where it fires, fewest executing
  std::optional<model::Cta> cta_witness;  ///< block barriers: the same
  unsigned witness_executing = 0;         ///< executing lanes (arriving threads) of the witness
  uint32_t fires_on = 0;                  ///< warp forms: lanes it fires on (whose d it leaves
                                          ///< undefined) in the witness
  bool smallest = false;                  ///< no state with fewer executing lanes lets it fire
};

/// The answer for one instruction.
struct UbReport {
  spec::Instr instr;
  bool pre_volta = false;
  std::vector<ClauseAnswer> clauses;
  /// The form's UndefinedValue clauses (shuffles: shfl.source_undefined), over UB-free states:
  /// `can` means some UB-free state leaves some lane's d undefined, `must` that every one does.
  /// Never UB, so never part of `any_ub`.
  std::vector<ClauseAnswer> undefined_values;
  Possibility any_ub = Possibility::Unknown;  ///< some UB clause fires
  std::vector<std::string> free_condition;    ///< lines: when the call is free of UB
  bool condition_checked = false;           ///< Z3 showed the condition equivalent to "no UB" here
  std::optional<model::Warp> free_example;  ///< a UB-free state, replayed through the model
  std::optional<model::Cta> free_cta_example;
  double seconds = 0;
};

/// Answers the UB query for `in` (any form) on `pre_volta` rules under `c`. Throws
/// std::runtime_error when a witness does not replay through the model (a bug).
UbReport analyse_ub(const spec::Instr& in, bool pre_volta, const UbConstraints& c,
                    const UbOptions& opt = {});

}  // namespace warpspec::checker
