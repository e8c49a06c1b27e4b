#include "vectors/diagnose.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include "model/render.hpp"
#include "spec/redux.hpp"
#include "vectors/generate.hpp"

namespace warpspec::vectors {

namespace {

using spec::ClauseId;
using spec::Family;
using spec::FormId;
using spec::Mode;

// How a reading changes the state, the instruction or the answer.
enum class Change : uint8_t {
  MaskIgnored,      // every executing lane takes part, whatever the membermask
  ExitedJoin,       // exited lanes (threads) take part with their last operand
  ExitedJoinZero,   // exited lanes (threads) take part with 0 as their operand
  ExitedJoinFalse,  // exited lanes (threads) take part voting false (0, or 1 under `!`)
  ExitedJoinLast,   // exited lanes (threads) take part with the operand they last passed in an
                    // earlier round of the vector, 0 before that (a slot never cleared)
  MaskOfLowest,     // the lowest executing lane's membermask for every lane
  MaskOfHighest,    // the highest executing lane's membermask for every lane
  LaneOut,          // lane `arg` never takes part
  LaneIn,           // lane `arg` always takes part (with its operand, even exited or inactive)
  SiteSplit,        // lanes take part only with lanes of their own call site
  MaskLow16,        // only the low 16 bits of the membermask are read
  LastWarpOut,      // block: the threads of the last warp are not counted
  PhantomPadded,    // block: a partial last warp filled up to 32 threads passing `arg`
  PartialWarpOut,   // block: the threads of a partial last warp are not counted
  PredCut,          // each predicate read through the mask `arg` (bit 0, the low byte) instead of
                    // tested for non-zero
  NegateToggled,    // the `!` on the source predicate dropped (or added)
  NegateBitwise,    // `!a` read as the bitwise complement tested for non-zero (~a != 0)
  NegateAfter,      // `!` applied to the answer instead of to each predicate (bool answers)
  SplitGroups,      // each lane takes part only with the lanes of its own aligned group of `arg`
  GroupOut,         // the aligned group of 8 lanes `arg` (0-3) never takes part
  OperandFromNext,  // each lane's operand read from the lane above it (0 above lane 31)
  CompareLow32,     // match compares the low 32 bits only
  CompareHigh32,    // match compares the high 32 bits only
  CompareAsFloat,   // match compares floating-point values (+0 == -0, NaN != NaN)
  NanCanonical,     // match sees every NaN as one canonical NaN (moved through a float register)
  Sibling,          // the state read by the sibling form `arg`
  Inverted,         // the boolean result (or match.all's p) inverted
  SelfOut,          // match.any leaves the lane itself out
  AllGivesMask,     // match.all returns the taking-part lanes even when values differ
  CarriesPrevious,  // the previous round's result is combined into this one (never reset)
  CountNarrow,      // the block count kept in `arg` bits
  StartsFrom,       // the reduction starts from the value `arg` instead of its identity
  ShflRule,         // a shuffle's lane arithmetic changed as kShflRules[`arg`] says
};

struct Def {
  Change change;
  int arg = 0;
  ClauseId clause;
  std::string text;
};

ClauseId participants_clause(const spec::FormInfo& f) {
  return spec::participants_clause(f.id);
}

// The clause that states how the form computes its value from the taking-part operands.
ClauseId value_clause(const spec::FormInfo& f) {
  for (auto c : f.clauses) {
    if (spec::clause_info(c).kind != spec::ClauseKind::Semantic) continue;
    if (c == participants_clause(f) || c == ClauseId::VoteNegate || c == ClauseId::MatchCompareBits)
      continue;
    return c;
  }
  return participants_clause(f);
}

// True when an operand (predicate) of 0 joining the reduction can never change its answer: then
// "exited lanes take part with 0" is no change at all, and is not offered as a reading.
bool zero_is_neutral(const spec::ParsedInstr& in) {
  const auto& f = spec::form_info(in.instr.form);
  const bool one = in.instr.negate;  // what a 0 predicate counts as after `!`
  switch (f.family) {
    case Family::Redux:
      // .max.abs.NaN.f32: every magnitude is at least +0.0 and a NaN wins anyway.
      if (f.a_type == spec::OperandType::F32) return f.mode == Mode::Max && f.abs && f.nan;
      return spec::redux_identity(f) == 0;
    case Family::Vote:
      return f.mode == Mode::All ? one : (f.mode == Mode::Any || f.mode == Mode::Ballot) && !one;
    case Family::CtaBarrier:
      return f.mode == Mode::And ? one : (f.mode == Mode::Popc || f.mode == Mode::Or) && !one;
    default:
      return false;
  }
}

// True when 0 joining changes nothing for the instruction with and without `!`: a form's readings
// serve every instruction of it, negated or not.
bool zero_never_matters(const spec::ParsedInstr& in) {
  if (!zero_is_neutral(in)) return false;
  if (!spec::form_info(in.instr.form).negatable) return true;
  spec::ParsedInstr other = in;
  other.instr.negate = !other.instr.negate;
  return zero_is_neutral(other);
}

// A shuffle's lane arithmetic with one thing read otherwise: which bits of b and c count, the
// bound, the mode, what out of range gives, p, and how the value travels. (A segment mask read
// one bit wider, c[13:8], is no change: lanes and the clamp have five bits.)
struct ShflRule {
  const char* text;
  ClauseId clause;
  uint32_t b_mask = 0x1f;
  unsigned clamp_lo = 0, clamp_bits = 5, seg_lo = 8, seg_bits = 5;
  bool no_seg = false, edge_clamp = false;  // segment mask 0; clamp at the segment's edge
  int mode = -1;                            // another mode (a Mode value), or the form's
  bool strict = false, up_unsigned = false, no_bound = false;
  int out_of_range = 0;  // 0 the lane's own a, 1 zero, 2 the bound lane's a
  bool p_inverted = false, p_true = false;
  bool absent_out_of_range = false;  // a source that does not execute or is not named: p false
  int copy = 0;  // 0 bits, 1 through a float (canonical NaN, +0.0), 2 NaNs quietened, 3 FTZ
  bool seg_complement = false;      // the segment mask read as its complement (width - 1)
  bool b_first = false, c_first = false;  // b (c) of the lowest executing lane for every lane
  bool bound_no_base = false;       // the bound without the segment's first lane
  bool within_segment = false;      // in range only within the reader's own segment
  bool unmatched_mask_self = false;  // a lane whose mask is not the executing lanes reads itself
  // The 64-bit overloads' high word (readings of them alone): 0 moved like the low word, 1 the
  // reading lane's own kept, 2 zero, 3 moved by a shuffle without the width (c of a whole warp).
  int high = 0;
};

using C = ClauseId;
const ShflRule kShflRules[] = {
    {"b read whole instead of its low five bits", C::ShflSourceLane, 0xffffffffu},
    {"b read as its low six bits", C::ShflSourceLane, 0x3f},
    {"the clamp read as c[5:0]", C::ShflBound, 0x1f, 0, 6},
    {"the segment mask read as c[11:7]", C::ShflBound, 0x1f, 0, 5, 7, 5},
    {"the segment mask read as c[11:8]", C::ShflBound, 0x1f, 0, 5, 8, 4},
    {"the clamp and the segment mask swapped", C::ShflBound, 0x1f, 8, 5, 0, 5},
    {"the segment mask ignored (one segment of 32 lanes)", C::ShflBound, 0x1f, 0, 5, 8, 5, true},
    {"the clamp ignored (the bound at the segment's edge)", C::ShflBound, 0x1f, 0, 5, 8, 5, false,
     true},
    {"computed as .up", C::ShflSourceLane, 0x1f, 0, 5, 8, 5, false, false, int(Mode::Up)},
    {"computed as .down", C::ShflSourceLane, 0x1f, 0, 5, 8, 5, false, false, int(Mode::Down)},
    {"computed as .bfly", C::ShflSourceLane, 0x1f, 0, 5, 8, 5, false, false, int(Mode::Bfly)},
    {"computed as .idx", C::ShflSourceLane, 0x1f, 0, 5, 8, 5, false, false, int(Mode::Idx)},
    {"in range only strictly past the bound", C::ShflInRange, 0x1f, 0, 5, 8, 5, false, false, -1,
     true},
    {".up's source lane compared unsigned", C::ShflInRange, 0x1f, 0, 5, 8, 5, false, false, -1,
     false, true},
    {"no bound: every source taken as in range", C::ShflInRange, 0x1f, 0, 5, 8, 5, false, false,
     -1, false, false, true},
    {"out of range gives 0", C::ShflInRange, 0x1f, 0, 5, 8, 5, false, false, -1, false, false,
     false, 1},
    {"out of range reads the bound lane", C::ShflInRange, 0x1f, 0, 5, 8, 5, false, false, -1, false,
     false, false, 2},
    {"p inverted", C::ShflInRange, 0x1f, 0, 5, 8, 5, false, false, -1, false, false, false, 0,
     true},
    {"p true on every lane", C::ShflInRange, 0x1f, 0, 5, 8, 5, false, false, -1, false, false,
     false, 0, false, true},
    {"a source that does not execute or is not named in the membermask taken as out of range",
     C::ShflSourceUndefined, 0x1f, 0, 5, 8, 5, false, false, -1, false, false, false, 0, false,
     false, true},
    {"the value moved as a float (NaNs made canonical, -0.0 made +0.0)", C::ShflCopy, 0x1f, 0, 5,
     8, 5, false, false, -1, false, false, false, 0, false, false, false, 1},
    {"signalling NaNs quietened on the way", C::ShflCopy, 0x1f, 0, 5, 8, 5, false, false, -1,
     false, false, false, 0, false, false, false, 2},
    {"subnormals flushed to zero on the way", C::ShflCopy, 0x1f, 0, 5, 8, 5, false, false, -1,
     false, false, false, 0, false, false, false, 3},
    {.text = "the segment mask read as its complement (as width - 1)", .clause = C::ShflBound,
     .seg_complement = true},
    {.text = "the lowest executing lane's b used by every lane", .clause = C::ShflSourceLane,
     .b_first = true},
    {.text = "the lowest executing lane's c used by every lane", .clause = C::ShflBound,
     .c_first = true},
    {.text = "the bound taken without the segment's first lane (the clamp bits alone)",
     .clause = C::ShflBound, .bound_no_base = true},
    {.text = "in range only within the reader's own segment (never a lower one)",
     .clause = C::ShflInRange, .within_segment = true},
    {.text = "a lane whose membermask is not the set of executing lanes reads itself, out of range",
     .clause = C::ShflParticipants, .unmatched_mask_self = true},
    {.text = "only the low word moved: the high word is the reading lane's own",
     .clause = C::ShflCopy, .high = 1},
    {.text = "only the low word moved: the high word is 0", .clause = C::ShflCopy, .high = 2},
    {.text = "the high word moved without the width (the second shuffle over the whole warp)",
     .clause = C::ShflCopy, .high = 3},
};

// What a shuffle gives lane i under a rule: d's low word, its high word (64-bit overloads), p.
struct ShuffleAnswer {
  uint32_t d, d_hi;
  bool p;
};

// Lane i's answer of a shuffle under rule `r`; `exec` the executing lanes.
ShuffleAnswer shuffle_by(const ShflRule& r, const spec::Instr& in, const model::Warp& w, unsigned i,
                         uint32_t exec) {
  const unsigned lowest = exec ? static_cast<unsigned>(std::countr_zero(exec)) : i;
  const uint32_t b = in.imm_b.value_or(w.b[r.b_first ? lowest : i]);
  const uint32_t c = in.imm_c.value_or(w.c[r.c_first ? lowest : i]);
  const auto field = [&](unsigned lo, unsigned bits) { return (c >> lo) & ((1u << bits) - 1); };
  const Mode mode = r.mode >= 0 ? Mode(r.mode) : spec::form_info(in.form).mode;
  const int64_t bval = b & r.b_mask, lane = i;
  const int64_t seg = r.no_seg           ? 0
                      : r.seg_complement ? ~field(r.seg_lo, r.seg_bits) & 0x1fu
                                         : field(r.seg_lo, r.seg_bits);
  const int64_t clamp =
      r.edge_clamp ? (mode == Mode::Up ? 0 : 0x1f) : field(r.clamp_lo, r.clamp_bits);
  const int64_t first = lane & seg, bound = (r.bound_no_base ? 0 : first) | (clamp & ~seg);
  int64_t j = lane;
  bool ok = false;
  switch (mode) {
    case Mode::Up:
      j = lane - bval;
      ok = r.up_unsigned ? static_cast<uint32_t>(j) >= static_cast<uint32_t>(bound)
                         : (r.strict ? j > bound : j >= bound);
      break;
    case Mode::Down:
      j = lane + bval;
      ok = r.strict ? j < bound : j <= bound;
      break;
    case Mode::Bfly:
      j = lane ^ bval;
      ok = r.strict ? j < bound : j <= bound;
      break;
    default:
      j = first | (bval & ~seg);
      ok = r.strict ? j < bound : j <= bound;
      break;
  }
  if (r.no_bound) ok = true;
  if (r.within_segment) ok = ok && j >= first && j <= (first | (0x1f & ~seg));
  if (r.unmatched_mask_self && in.imm_mask.value_or(w.mask[i]) != exec) ok = false;
  unsigned src = ok ? static_cast<unsigned>(j) & 31u : i;
  if (r.absent_out_of_range && ok) {
    const uint32_t mask = in.imm_mask.value_or(w.mask[i]);
    if (!((exec >> src) & (mask >> src) & 1u)) ok = false, src = i;
  }
  uint64_t a = w.a[src];
  if (!ok && r.out_of_range == 1) a = 0;
  if (!ok && r.out_of_range == 2) a = w.a[static_cast<unsigned>(bound) & 31u];
  auto d = static_cast<uint32_t>(a);
  const bool nan = (d & 0x7f800000u) == 0x7f800000u && (d & 0x007fffffu) != 0;
  if (r.copy == 1) d = nan ? spec::kCanonicalNanF32 : d == 0x80000000u ? 0 : d;
  if (r.copy == 2 && nan) d |= 0x00400000u;
  if (r.copy == 3 && (d & 0x7f800000u) == 0) d &= 0x80000000u;
  auto d_hi = static_cast<uint32_t>(a >> 32);
  if (r.high == 1) d_hi = static_cast<uint32_t>(w.a[i] >> 32);
  if (r.high == 2) d_hi = 0;
  if (r.high == 3) {  // the second shuffle as the intrinsic with its width left out lowers it
    auto whole = in;
    const auto mode = spec::form_info(in.form).mode;
    whole.imm_c = spec::shfl_c_of_width(32, mode == Mode::Up ? Mode::Up : Mode::Idx);
    d_hi = shuffle_by(ShflRule{r.text, r.clause}, whole, w, i, exec).d_hi;
  }
  return {d, d_hi, r.p_true || (ok != r.p_inverted)};
}

std::vector<Def> defs_for(const spec::ParsedInstr& in) {
  const auto& f = spec::form_info(in.instr.form);
  if (f.family == Family::Shfl) {
    std::vector<Def> out;
    for (std::size_t k = 0; k < std::size(kShflRules); ++k) {
      const auto& r = kShflRules[k];
      if (r.mode == int(f.mode)) continue;                    // no change
      if (r.up_unsigned && f.mode != Mode::Up) continue;      // .up alone subtracts
      // Only .bfly can reach a lower segment: .up stays at or above the segment's first lane,
      // .down and .idx within it.
      if (r.within_segment && f.mode != Mode::Bfly) continue;
      if (r.high != 0 && !in.instr.wide) continue;  // a 32-bit shuffle has no high word
      out.push_back({Change::ShflRule, static_cast<int>(k), r.clause, r.text});
    }
    return out;
  }
  const auto part = participants_clause(f);
  const auto value = value_clause(f);
  std::vector<Def> out;
  if (f.family == Family::WarpBarrier || f.mode == Mode::None) return out;  // no value to read
  // A predicate given as an integer read through a narrower field: a likelier bug than a lane or
  // thread that joins or leaves just where the narrow field misleads, so it is asked first.
  const auto pred_cuts = [&] {
    for (int cut : {1, 0xff})
      out.push_back({Change::PredCut, cut, value,
                     cut == 1 ? "each predicate read as its bit 0 instead of tested for non-zero"
                              : "each predicate read as its low byte instead of tested for "
                                "non-zero"});
  };
  if (f.family == Family::CtaBarrier) {
    pred_cuts();
    out.push_back(
        {Change::ExitedJoin, 0, part, "exited threads counted with their last predicate"});
    if (!zero_never_matters(in))
      out.push_back(
          {Change::ExitedJoinZero, 0, part, "exited threads counted with a predicate of 0"});
    if (f.mode == Mode::And)  // a false vote changes nothing in popc and or
      out.push_back({Change::ExitedJoinFalse, 0, part,
                     "exited threads counted as voting false (after any !)"});
    out.push_back({Change::ExitedJoinLast, 0, part,
                   "exited threads counted with the predicate they passed at the barrier before"});
    out.push_back({Change::LastWarpOut, 0, part, "the threads of the last warp not counted"});
    out.push_back(
        {Change::PartialWarpOut, 0, part, "the threads of a partial last warp not counted"});
    for (int p : {0, 1})
      out.push_back({Change::PhantomPadded, p, part,
                     "a partial last warp counted as 32 threads, the missing ones passing " +
                         std::to_string(p)});
    for (const auto& s : spec::kForms)
      if (s.family == Family::CtaBarrier && s.mode != Mode::None && s.id != f.id)
        out.push_back(
            {Change::Sibling, static_cast<int>(s.id), value, "computed as " + std::string(s.name)});
    if (f.d_type == spec::ResultType::Pred)
      out.push_back({Change::Inverted, 0, value, "the result inverted"});
    out.push_back({Change::NegateToggled, 0, value, "the ! on the predicate dropped or added"});
    out.push_back({Change::NegateBitwise, 0, value, "!a read as ~a != 0 (a bitwise complement)"});
    if (f.d_type == spec::ResultType::Pred)
      out.push_back({Change::NegateAfter, 0, value,
                     "the ! applied to the answer instead of to each predicate"});
    if (f.mode == Mode::Popc)
      out.push_back({Change::NegateAfter, 0, value,
                     "the ! applied to the count: the block's size less the true predicates"});
    out.push_back({Change::CarriesPrevious, 0, value,
                   "the previous barrier's result carried into this one (never reset)"});
    if (f.mode == Mode::Popc)
      for (int bits : {8, 9, 10})
        out.push_back({Change::CountNarrow, bits, value,
                       "the count kept in " + std::to_string(bits) + " bits"});
    return out;
  }
  // Value readings first: where a lane that always takes part holds the same operand as a wrong
  // starting value, both reproduce the answers, and the starting value is the likelier bug.
  if (f.family == Family::Redux && f.a_type != spec::OperandType::F32)
    for (uint32_t x : {0u, 1u, 0xffffffffu, 0x7fffffffu, 0x80000000u, 0x80000001u, 0x7ffffffeu})
      if (x != static_cast<uint32_t>(spec::redux_identity(f)))  // the identity is no change
        out.push_back({Change::StartsFrom, static_cast<int>(x), value,
                       "the reduction started from " + std::to_string(static_cast<int32_t>(x)) +
                           " instead of its identity"});
  if (f.a_type == spec::OperandType::Pred) pred_cuts();
  out.push_back(
      {Change::MaskIgnored, 0, part, "the membermask ignored: every executing lane takes part"});
  out.push_back({Change::ExitedJoin, 0, part, "exited lanes of the membermask take part"});
  if (!zero_never_matters(in))
    out.push_back({Change::ExitedJoinZero, 0, part,
                   "exited lanes of the membermask take part with operand 0"});
  if (f.mode == Mode::All || f.mode == Mode::Uni)  // a false vote changes nothing in any, ballot
    out.push_back({Change::ExitedJoinFalse, 0, part,
                   "exited lanes of the membermask take part voting false (after any !)"});
  out.push_back({Change::ExitedJoinLast, 0, part,
                 "exited lanes of the membermask take part with the operand they passed in an "
                 "earlier round"});
  out.push_back(
      {Change::MaskOfLowest, 0, part, "the lowest executing lane's membermask used by every lane"});
  out.push_back({Change::MaskOfHighest, 0, part,
                 "the highest executing lane's membermask used by every lane"});
  out.push_back({Change::SiteSplit, 0, part, "lanes at different call sites kept apart"});
  out.push_back({Change::MaskLow16, 0, part, "only the low 16 bits of the membermask read"});
  for (int k = 0; k < 32; ++k) {
    out.push_back({Change::LaneOut, k, part, "lane " + std::to_string(k) + " never takes part"});
    out.push_back({Change::LaneIn, k, part, "lane " + std::to_string(k) + " always takes part"});
  }
  // vote.uni answers the same for a and !a (all equal either way): no change to read there.
  if (f.negatable && f.mode != Mode::Uni)
    out.push_back(
        {Change::NegateToggled, 0, ClauseId::VoteNegate, "the ! on the source dropped or added"});
  if (f.negatable) {
    out.push_back({Change::NegateBitwise, 0, ClauseId::VoteNegate,
                   "!a read as ~a != 0 (a bitwise complement)"});
    if (f.d_type == spec::ResultType::Pred)
      out.push_back({Change::NegateAfter, 0, ClauseId::VoteNegate,
                     "the ! applied to the answer instead of to each predicate"});
  }
  for (int g : {16, 8})
    out.push_back({Change::SplitGroups, g, part,
                   "each lane combined only with its own aligned group of " + std::to_string(g) +
                       " lanes"});
  for (int g = 0; g < 4; ++g)
    out.push_back({Change::GroupOut, g, part,
                   "lanes " + std::to_string(8 * g) + "-" + std::to_string(8 * g + 7) +
                       " never take part (an 8-lane pass dropped)"});
  out.push_back({Change::OperandFromNext, 0, part,
                 "each lane's operand read from the lane above it (an index off by one)"});
  if (f.family == Family::Match) {
    if (f.a_type == spec::OperandType::B64) {
      out.push_back(
          {Change::CompareLow32, 0, ClauseId::MatchCompareBits, "only the low 32 bits compared"});
      out.push_back(
          {Change::CompareHigh32, 0, ClauseId::MatchCompareBits, "only the high 32 bits compared"});
    }
    out.push_back({Change::CompareAsFloat, 0, ClauseId::MatchCompareBits,
                   "operands compared as floating-point values"});
    out.push_back({Change::NanCanonical, 0, ClauseId::MatchCompareBits,
                   "every NaN seen as one canonical NaN"});
    if (f.mode == Mode::Any) {
      out.push_back({Change::SelfOut, 0, value, "the lane itself left out of its result"});
    } else {
      out.push_back({Change::AllGivesMask, 0, value,
                     "the taking-part lanes returned even when values differ"});
      if (in.instr.write_p)
        out.push_back({Change::Inverted, 0, ClauseId::MatchAllPred, "the predicate p inverted"});
    }
  }
  for (const auto& s : spec::kForms) {
    if (s.id == f.id || s.family != f.family || s.a_type == spec::OperandType::F32) continue;
    if (f.family == Family::Match && s.a_type != f.a_type) continue;
    if (f.family == Family::Vote && (s.mode == Mode::Ballot) != (f.mode == Mode::Ballot)) continue;
    if (f.a_type == spec::OperandType::F32) continue;
    // .add wraps the same way signed or unsigned: its sibling of the other signedness is no change.
    if (f.family == Family::Redux && f.mode == Mode::Add && s.mode == Mode::Add) continue;
    const bool sign_only = s.mode == f.mode;  // redux min/max with the other signedness
    out.push_back({Change::Sibling, static_cast<int>(s.id),
                   sign_only ? ClauseId::ReduxMinMaxInt : value,
                   "computed as " + std::string(s.name)});
  }
  if (f.d_type == spec::ResultType::Pred)
    out.push_back({Change::Inverted, 0, value, "the result inverted"});
  if (f.mode == Mode::Ballot)
    out.push_back({Change::CarriesPrevious, 0, value, "bits of the previous ballot kept"});
  return out;
}

uint32_t executing_word(const model::Warp& w) {
  uint32_t m = 0;
  for (unsigned j = 0; j < 32; ++j) m |= uint32_t{w.exec[j] && !w.exited[j]} << j;
  return m;
}

// Brings exited lane `j` back to execute, with the membermask and call site of an executing lane
// whose membermask names it (so that its return adds no undefined behaviour) and operand `a`.
void rejoin(model::Warp& w, uint32_t exec, unsigned j, uint64_t a) {
  for (unsigned i = 0; i < 32; ++i)
    if (((exec >> i) & 1u) && ((w.mask[i] >> j) & 1u)) {
      w.mask[j] = w.mask[i];
      w.site[j] = w.site[i];
      break;
    }
  w.exited[j] = false, w.exec[j] = true, w.a[j] = a;
}

// A changed copy of the vector for the state and instruction changes.
Vector changed(const Def& d, const Vector& v) {
  Vector c = v;
  if (!c.is_cta()) own_masks(c);
  if (d.change == Change::SiteSplit) keep_call_sites_apart(c);
  // The operand each lane (thread) last passed, for ExitedJoinLast.
  std::vector<uint64_t> last;
  for (auto& r : c.rounds) {
    auto& w = r.warp;
    const uint32_t exec = c.is_cta() ? 0 : executing_word(w);
    switch (d.change) {
      case Change::MaskIgnored:
        for (unsigned i = 0; i < 32; ++i) w.mask[i] = exec;
        break;
      case Change::ExitedJoin:
      case Change::ExitedJoinZero:
      case Change::ExitedJoinFalse:
      case Change::ExitedJoinLast: {
        const std::size_t n = c.is_cta() ? r.cta.exited.size() : 32;
        // Who takes part in this round as the vector has it, and with what.
        std::vector<uint8_t> took(n, 0);
        std::vector<uint64_t> passed(n, 0);
        for (std::size_t t = 0; t < n; ++t)
          if (c.is_cta() ? r.cta.arrive[t] && !r.cta.exited[t] : w.exec[t] && !w.exited[t])
            took[t] = 1, passed[t] = c.is_cta() ? r.cta.pred[t] : w.a[t];
        auto operand = [&](std::size_t t, uint64_t stale) -> uint64_t {
          if (d.change == Change::ExitedJoin) return stale;
          if (d.change == Change::ExitedJoinZero) return 0;
          if (d.change == Change::ExitedJoinFalse) return c.instr.instr.negate ? 1 : 0;
          return t < last.size() ? last[t] : 0;
        };
        if (c.is_cta()) {
          for (std::size_t t = 0; t < n; ++t)
            if (r.cta.exited[t]) {
              r.cta.exited[t] = false, r.cta.arrive[t] = true;
              r.cta.pred[t] = static_cast<uint32_t>(operand(t, r.cta.pred[t]));
            }
        } else {
          for (unsigned i = 0; i < 32; ++i)
            if (w.exited[i]) rejoin(w, exec, i, operand(i, w.a[i]));
        }
        last.resize(std::max(last.size(), n), 0);
        for (std::size_t t = 0; t < n; ++t)
          if (took[t]) last[t] = passed[t];
        break;
      }
      case Change::MaskOfLowest:
      case Change::MaskOfHighest:
        if (exec) {
          const unsigned l = d.change == Change::MaskOfLowest ? std::countr_zero(exec)
                                                              : 31 - std::countl_zero(exec);
          const uint32_t m = w.mask[l];
          for (unsigned i = 0; i < 32; ++i) w.mask[i] = m;
        }
        break;
      case Change::LaneOut:
        for (unsigned i = 0; i < 32; ++i) w.mask[i] &= ~(1u << d.arg);
        break;
      case Change::LaneIn:
        for (unsigned i = 0; i < 32; ++i) w.mask[i] |= 1u << d.arg;
        w.exited[d.arg] = false;
        break;
      case Change::MaskLow16:
        for (unsigned i = 0; i < 32; ++i) w.mask[i] &= 0xffffu;
        break;
      case Change::PhantomPadded: {
        const std::size_t n = r.cta.arrive.size(), full = (n + 31) / 32 * 32;
        model::resize_cta(r.cta, full, static_cast<uint32_t>(d.arg));
        break;
      }
      case Change::PartialWarpOut: {
        const std::size_t n = r.cta.arrive.size();
        for (std::size_t t = n / 32 * 32; t < n; ++t) r.cta.exited[t] = true, r.cta.arrive[t] = false;
        break;
      }
      case Change::SplitGroups:
        for (unsigned i = 0; i < 32; ++i) {
          const unsigned g = static_cast<unsigned>(d.arg);
          const uint32_t group = (g == 32 ? ~0u : ((1u << g) - 1)) << (i / g * g);
          w.mask[i] &= group;
        }
        break;
      case Change::GroupOut:
        for (unsigned i = 0; i < 32; ++i) w.mask[i] &= ~(0xffu << (8 * d.arg));
        break;
      case Change::OperandFromNext:
        for (unsigned i = 0; i < 32; ++i) w.a[i] = i + 1 < 32 ? w.a[i + 1] : 0;
        break;
      case Change::NegateBitwise:
        if (c.instr.instr.negate) {
          if (c.is_cta())
            for (auto& p : r.cta.pred) p = ~p != 0;  // the operand as `!` then sees it
          else
            for (auto& a : w.a) a = ~static_cast<uint32_t>(a) != 0;
        }
        break;
      case Change::PredCut:
        if (c.is_cta())
          for (auto& p : r.cta.pred) p &= static_cast<uint32_t>(d.arg);
        else
          for (auto& a : w.a) a &= static_cast<uint64_t>(d.arg);
        break;
      case Change::LastWarpOut: {
        const std::size_t n = r.cta.arrive.size();
        const std::size_t from = n <= 32 ? 0 : ((n - 1) / 32) * 32;
        if (n > 32)
          for (std::size_t t = from; t < n; ++t) r.cta.exited[t] = true, r.cta.arrive[t] = false;
        break;
      }
      case Change::CompareLow32:
        for (auto& a : w.a) a &= 0xffffffffull;
        break;
      case Change::CompareHigh32:
        for (auto& a : w.a) a >>= 32;
        break;
      case Change::CompareAsFloat: {
        const bool wide = spec::form_info(c.instr.instr.form).a_type == spec::OperandType::B64;
        for (unsigned i = 0; i < 32; ++i) {
          auto& a = w.a[i];
          if (wide) {
            const double x = std::bit_cast<double>(a);
            if (x != x)
              a = 0x7ff0000000000001ull + i;  // no two NaNs equal
            else if (x == 0)
              a = 0;
          } else {
            const float x = std::bit_cast<float>(static_cast<uint32_t>(a));
            if (x != x)
              a = 0x7f800001u + i;
            else if (x == 0)
              a = 0;
          }
        }
        break;
      }
      case Change::NanCanonical: {
        const bool wide = spec::form_info(c.instr.instr.form).a_type == spec::OperandType::B64;
        for (auto& a : w.a) {
          if (wide && spec::f64_is_nan(model::Concrete{}, a))
            a = 0x7ff8000000000000ull;
          else if (!wide && spec::f32_is_nan(model::Concrete{}, static_cast<uint32_t>(a)))
            a = 0x7fc00000u;
        }
        break;
      }
      default:
        break;
    }
  }
  if (d.change == Change::NegateToggled) c.instr.instr.negate = !c.instr.instr.negate;
  // Both readings of a negated source evaluate the operand without the `!`: NegateBitwise has
  // already complemented it, NegateAfter inverts the answer (read_def).
  if (d.change == Change::NegateBitwise || d.change == Change::NegateAfter)
    c.instr.instr.negate = false;
  if (d.change == Change::Sibling) c.instr.instr.form = static_cast<FormId>(d.arg);
  return c;
}

// The reduction of `x` into an accumulated `acc`, as the redux form computes it.
uint32_t fold(const spec::FormInfo& f, uint32_t acc, uint32_t x) {
  const bool s = f.a_type == spec::OperandType::S32;
  switch (f.mode) {
    case Mode::Add:
      return acc + x;
    case Mode::Min:
      return s ? static_cast<uint32_t>(std::min<int32_t>(acc, x)) : std::min(acc, x);
    case Mode::Max:
      return s ? static_cast<uint32_t>(std::max<int32_t>(acc, x)) : std::max(acc, x);
    case Mode::And:
      return acc & x;
    case Mode::Or:
      return acc | x;
    case Mode::Xor:
      return acc ^ x;
    default:
      return acc;
  }
}

}  // namespace

std::vector<Reading> readings_for(const spec::ParsedInstr& in) {
  std::vector<Reading> out;
  for (const auto& d : defs_for(in)) out.push_back({d.clause, d.text});
  return out;
}

namespace {

// What the reading `d` gives on `v`. A form's answers are read with the readings of its first
// instruction; one that another instruction of the form leaves out (no change there, such as
// dropping the `!` of vote.uni) gives that instruction's own answers.
std::vector<Observed> read_def(const Def& d, const Vector& v, const std::vector<Expected>& e,
                               spec::Target target, spec::PtxVersion ptx) {
  const auto& f = spec::form_info(v.instr.instr.form);
  auto out = as_observed(expected(changed(d, v), target, ptx));
  for (std::size_t k = 0; k < out.size(); ++k) {
    auto& o = out[k];
    o.present = e[k].executes;
    o.ub_reported = false;
    o.d.resize(e[k].d.size());
    o.p.resize(e[k].p.size());
    const auto& w = v.rounds[k].warp;
    const uint32_t exec = v.is_cta() ? 0 : executing_word(w);  // once per round, not per lane
    for (std::size_t i = 0; i < o.d.size(); ++i) {
      switch (d.change) {
        case Change::NegateAfter:
          if (v.instr.instr.negate)
            o.d[i] = f.mode == Mode::Popc ? static_cast<uint32_t>(o.d.size()) - o.d[i]
                                          : uint32_t{o.d[i] == 0};
          break;
        case Change::Inverted:
          if (f.family == Family::Match)
            o.p[i] = !e[k].p[i], o.d[i] = e[k].d[i];
          else
            o.d[i] = e[k].d[i] == 0;
          break;
        case Change::SelfOut:
          o.d[i] = e[k].d[i] & ~(1u << i);
          break;
        case Change::AllGivesMask: {
          uint32_t exited = 0;
          for (unsigned j = 0; j < 32; ++j) exited |= uint32_t{w.exited[j]} << j;
          o.d[i] = v.instr.instr.imm_mask.value_or(w.mask[i]) & ~exited;
          o.p[i] = e[k].p[i];
          break;
        }
        case Change::CarriesPrevious:
          o.d[i] = e[k].d[i];
          // A block's result is one value for every thread, also where a block grows.
          if (k > 0 && (v.is_cta() ? !out[k - 1].d.empty() : i < out[k - 1].d.size())) {
            const uint32_t prev = out[k - 1].d[v.is_cta() ? 0 : i];
            if (f.mode == Mode::Popc)
              o.d[i] += prev;
            else if (f.mode == Mode::And)
              o.d[i] = o.d[i] && prev;
            else if (f.mode == Mode::Or)
              o.d[i] = o.d[i] || prev;
            else
              o.d[i] |= prev;
          }
          break;
        case Change::CountNarrow:
          o.d[i] = e[k].d[i] & ((1u << d.arg) - 1);
          break;
        case Change::StartsFrom:
          o.d[i] = fold(f, e[k].d[i], static_cast<uint32_t>(d.arg));
          break;
        case Change::ShflRule: {
          const auto x =
              shuffle_by(kShflRules[d.arg], v.instr.instr, w, static_cast<unsigned>(i), exec);
          o.d[i] = x.d, o.p[i] = x.p;
          if (v.instr.instr.wide) o.d_hi[i] = x.d_hi;
          break;
        }
        default:
          break;
      }
    }
  }
  return out;
}

// True when the observed answer of lane `i` in round `k` is what the form gives over some set of
// the warp's lanes that contains the lane itself: a match set of lanes that all hold the lane's
// value, a match.all that found its set equal, an .or/.and over lanes whose operands
// fit in (or around) the answer. Then a wrong answer points to who takes part, not to how the
// value is computed. Forms for which (almost) any answer would pass this test (.add, .xor,
// .min/.max, votes) are not asked: nullopt.
std::optional<bool> some_lanes_give(const Answered& a, std::size_t k, unsigned i) {
  const auto& f = spec::form_info(a.vector.instr.instr.form);
  if (a.vector.is_cta()) return std::nullopt;
  const auto& w = a.vector.rounds[k].warp;
  const auto& o = a.observed[k];
  const uint32_t x = o.d[i];
  const uint64_t width = f.a_type == spec::OperandType::B64 ? ~0ull : 0xffffffffull;
  const auto same = [&](unsigned j) { return ((w.a[j] ^ w.a[i]) & width) == 0; };
  const auto all_same = [&](uint32_t lanes) {
    for (unsigned j = 0; j < 32; ++j)
      if (((lanes >> j) & 1u) && !same(j)) return false;
    return true;
  };
  if (f.family == Family::Match && f.mode == Mode::Any)
    return ((x >> i) & 1u) && all_same(x);
  if (f.family == Family::Match) {
    // An empty answer is what nearly any set with two values gives: no evidence either way.
    const bool p = a.vector.instr.instr.write_p ? o.p[i] != 0 : x != 0;
    return x != 0 && p && ((x >> i) & 1u) && all_same(x);
  }
  if (f.family != Family::Redux || f.a_type == spec::OperandType::F32) return std::nullopt;
  const auto v = [&](unsigned j) { return static_cast<uint32_t>(w.a[j]); };
  if (f.mode == Mode::Or) {
    if (v(i) & ~x) return false;
    uint32_t acc = 0;
    for (unsigned j = 0; j < 32; ++j)
      if (!(v(j) & ~x)) acc |= v(j);
    return acc == x;
  }
  if (f.mode == Mode::And) {
    if (~v(i) & x) return false;
    uint32_t acc = ~0u;
    for (unsigned j = 0; j < 32; ++j)
      if (!(~v(j) & x)) acc &= v(j);
    return acc == x;
  }
  return std::nullopt;
}

// States on which two explanations of the same answers are told apart: seeded two-round states
// of each instruction, the same every time.
std::vector<Vector> probes(const std::vector<spec::ParsedInstr>& instrs) {
  std::vector<Vector> out;
  std::mt19937_64 rng(0x5eed);
  for (const auto& in : instrs)
    for (int k = 0; k < 64; ++k) {
      Vector v;
      v.instr = in;
      v.rounds = {random_round(in, rng, false), random_round(in, rng, false)};
      out.push_back(std::move(v));
    }
  return out;
}

}  // namespace

bool nan_takes_part(const Vector& v, std::size_t k, const Expected& e) {
  const auto& f = spec::form_info(v.instr.instr.form);
  const bool b64 = f.a_type == spec::OperandType::B64;
  const auto& w = v.rounds[k].warp;
  uint32_t part = 0;
  for (unsigned i = 0; i < 32; ++i)
    if (i < e.executes.size() && e.executes[i])
      part |= v.instr.instr.imm_mask.value_or(w.mask[i]);
  for (unsigned j = 0; j < 32; ++j) {
    if (!((part >> j) & 1u) || w.exited[j]) continue;
    const model::Concrete c;
    if (b64 ? spec::f64_is_nan(c, w.a[j]) : spec::f32_is_nan(c, static_cast<uint32_t>(w.a[j])))
      return true;
  }
  return false;
}

namespace {

// Readings that reproduce every answer, as the lone catalogued mutant `m` does, yet are another
// bug: on some probe state the two answer differently.
std::vector<std::string> other_explanations(MutantId m, const std::vector<Answered>& answers,
                                            spec::Target target, spec::PtxVersion ptx) {
  std::vector<spec::ParsedInstr> instrs;
  for (const auto& a : answers)
    if (std::none_of(instrs.begin(), instrs.end(),
                     [&](const spec::ParsedInstr& p) { return p.text == a.vector.instr.text; }))
      instrs.push_back(a.vector.instr);
  // A reading that names one lane reproduces a single failing vector too easily (the lane that
  // happens to hold the deciding value), as everywhere in the diagnosis: it needs two.
  const auto failing = std::count_if(answers.begin(), answers.end(), [](const Answered& a) {
    return !reproduces(a.vector.instr, a.expect, as_observed(a.expect), a.observed);
  });
  std::vector<std::string> out;
  std::vector<Vector> probe;
  uint32_t in_lanes = 0, out_lanes = 0;
  for (const auto& d : defs_for(answers.front().vector.instr)) {
    if ((d.change == Change::LaneOut || d.change == Change::LaneIn) && failing < 2) continue;
    const bool all = std::all_of(answers.begin(), answers.end(), [&](const Answered& a) {
      return reproduces(a.vector.instr, a.expect, read_def(d, a.vector, a.expect, target, ptx),
                        a.observed);
    });
    if (!all) continue;
    if (probe.empty()) probe = probes(instrs);
    const bool differs = std::any_of(probe.begin(), probe.end(), [&](const Vector& v) {
      const auto e = expected(v, target, ptx);
      if (has_ub(e) || !applies(m, v.instr)) return false;
      return !reproduces(v.instr, e, run_mutant(m, v, target, ptx),
                         read_def(d, v, e, target, ptx));
    });
    if (!differs) continue;
    if (d.change == Change::LaneIn)
      in_lanes |= 1u << d.arg;
    else if (d.change == Change::LaneOut)
      out_lanes |= 1u << d.arg;
    else
      out.push_back(d.text);
  }
  // The lanes that would each explain the answers as well, in one line per kind.
  const auto lanes = [](uint32_t m, const char* what) {
    return std::popcount(m) == 1
               ? "lane " + std::to_string(std::countr_zero(m)) + " " + what
               : "any one of lanes " + model::format_lanes(m) + " " + what;
  };
  if (in_lanes) out.push_back(lanes(in_lanes, "always takes part"));
  if (out_lanes) out.push_back(lanes(out_lanes, "never takes part"));
  return out;
}

}  // namespace

std::vector<Observed> read_with(std::size_t r, const Vector& v, const std::vector<Expected>& e,
                                spec::Target target, spec::PtxVersion ptx) {
  return read_def(defs_for(v.instr).at(r), v, e, target, ptx);
}

bool reproduces(const spec::ParsedInstr& in, const std::vector<Expected>& e,
                const std::vector<Observed>& m, const std::vector<Observed>& o) {
  const bool check_d = spec::writes_d(in.instr);
  for (std::size_t k = 0; k < e.size() && k < o.size() && k < m.size(); ++k) {
    if (!e[k].ub.empty()) continue;
    const bool refuses = o[k].hang || o[k].ub_reported;
    if (refuses != (m[k].hang || m[k].ub_reported)) return false;
    if (refuses) continue;
    for (std::size_t i = 0; i < e[k].defined.size(); ++i) {
      if (!e[k].defined[i]) continue;
      // A defined lane with no result is reproduced only by a bug that gives none there either:
      // an implementation that answers nothing is no catalogued bug.
      const bool has = i < o[k].present.size() && o[k].present[i];
      if (has != (i < m[k].present.size() && m[k].present[i])) return false;
      if (!has) continue;
      // d only where the specification pins it: a shuffle's open d may be anything.
      if (check_d && e[k].d_defined[i] && !same_d(m[k], o[k], i)) return false;
      if (in.instr.write_p && m[k].p[i] != o[k].p[i]) return false;
    }
  }
  return true;
}

namespace {
// How an election fails the rule `c` (the rest of "charged because the form fails ...").
std::string election_failure(ClauseId c) {
  switch (c) {
    case ClauseId::ElectDeterministic:
      return "with a membermask electing another lane than it elected before";
    case ClauseId::ElectPred:
      return "with p on a lane other than the leader, or on no lane of the election";
    case ClauseId::ElectParticipants:
      return "with a leader that executes outside the membermask, or by refusing a defined "
             "election (a UB report or a hang)";
    default:
      return "with lanes of one election naming different leaders, or a leader that is no lane "
             "of the membermask";
  }
}
}  // namespace

Diagnosis diagnose(const std::vector<Answered>& answers, spec::Target target, spec::PtxVersion ptx,
                   const FamilyEvidence& family) {
  Diagnosis dg;
  if (answers.empty()) return dg;
  const auto& first = answers.front().vector.instr;
  const auto& f = spec::form_info(first.instr.form);
  // 1. The catalogued mutants that reproduce every answer.
  for (const auto& m : mutants()) {
    bool all = true, applied = false;
    // Where the bug does not apply it answers as the specification does: an implementation
    // that fails there is not this bug.
    for (const auto& a : answers) {
      applied = applied || applies(m.id, a.vector.instr);
      if (!reproduces(a.vector.instr, a.expect, run_mutant(m.id, a.vector, target, ptx),
                      a.observed)) {
        all = false;
        break;
      }
    }
    if (all && applied) dg.mutants.push_back(m.id);
  }
  // A catalogued bug that alone reproduces every answer is the diagnosis, and its clause the one
  // broken, unless another known bug (a clause reading) reproduces every answer too.
  if (dg.mutants.size() == 1)
    dg.also_explained_by = other_explanations(dg.mutants.front(), answers, target, ptx);
  const bool named = dg.named();
  // 2. The failing lane results: wrong values on defined lanes of rounds that completed.
  const bool check_d = f.d_type != spec::ResultType::None;
  struct Pair {
    std::size_t answer, round, lane;
  };
  std::vector<Pair> pairs;
  // d counts only where the specification pins it (a shuffle's d can be open where p is not).
  auto wrong = [&](const Answered& a, std::size_t k, std::size_t i, const Observed& x) {
    return (check_d && a.vector.instr.instr.write_d && a.expect[k].d_defined[i] &&
            !same_d(x, a.observed[k], i)) ||
           (a.vector.instr.instr.write_p && x.p[i] != a.observed[k].p[i]);
  };
  auto compared = [&](const Answered& a, std::size_t k, std::size_t i) {
    const auto& o = a.observed[k];
    return a.expect[k].ub.empty() && !o.hang && !o.ub_reported && a.expect[k].defined[i] &&
           i < o.present.size() && o.present[i];
  };
  const auto as_spec = [&](const Answered& a) { return as_observed(a.expect); };
  for (std::size_t n = 0; n < answers.size(); ++n) {
    const auto& a = answers[n];
    const auto s = as_spec(a);
    for (std::size_t k = 0; k < a.expect.size() && k < a.observed.size(); ++k)
      for (std::size_t i = 0; i < a.expect[k].defined.size(); ++i)
        if (compared(a, k, i) && wrong(a, k, i, s[k])) pairs.push_back({n, k, i});
  }
  dg.failing = pairs.size();
  dg.unexplained = pairs.size();
  if (named) {
    const auto m = dg.mutants.front();
    dg.clauses.push_back({violated_clause(m, f.id),
                          "the catalogued bug '" + std::string(mutant_info(m).key) + "'",
                          pairs.size(), true, ""});
    dg.unexplained = 0;
    return dg;
  }
  // Where the specification leaves a choice (elect.sync's leader), a value unlike the model's
  // is no failure in itself: the comparison that holds answers to what the text allows names
  // the rule each failing vector breaks.
  if (spec::has_chosen_leader(f.id)) {
    dg.failing = 0;
    LeaderMemo leaders;
    for (const auto& a : answers) {
      auto m = compare(a.vector, a.expect, a.observed, &leaders);
      // A defined round refused (reported undefined, or never completed) waits for, or rejects,
      // lanes the rule of who takes part does not ask for.
      if (m.kind == Mismatch::Kind::Ub || m.kind == Mismatch::Kind::Hang)
        m.clause = participants_clause(f);
      if (m.kind == Mismatch::Kind::Missing || m.kind == Mismatch::Kind::None || !m.clause) continue;
      // A refused round counts as one answer; wrong values, one per lane.
      const uint64_t n = std::max<std::size_t>(m.lanes.size(), 1);
      dg.failing += n;
      auto it = std::find_if(dg.clauses.begin(), dg.clauses.end(),
                             [&](const ClauseCharge& c) { return c.clause == *m.clause; });
      if (it == dg.clauses.end())
        dg.clauses.push_back({*m.clause, "", n, false, election_failure(*m.clause)});
      else
        it->explained += n;
    }
    dg.unexplained = 0;
    return dg;
  }
  // A collective that never completes a round without undefined behaviour (it hangs, or aborts)
  // most often waits for a lane it must not wait for: that breaks the rule of who takes part,
  // whatever its values do. A match that stops only where a NaN bit pattern takes part compares
  // values as floating-point numbers instead (a NaN never equals itself, so a loop that removes
  // the lanes equal to a chosen one never ends): that breaks the rule of comparing bits.
  // A shuffle that calls a defined round undefined refuses it just as surely.
  std::size_t hung = 0, hung_over_nan = 0;
  for (const auto& a : answers)
    for (std::size_t k = 0; k < a.expect.size() && k < a.observed.size(); ++k)
      if (a.expect[k].ub.empty() &&
          (a.observed[k].hang || (f.family == Family::Shfl && a.observed[k].ub_reported))) {
        ++hung;
        hung_over_nan += f.family == Family::Match && nan_takes_part(a.vector, k, a.expect[k]);
      }
  if (f.family != Family::WarpBarrier && f.family != Family::CtaBarrier && hung > 0) {
    if (hung_over_nan == hung)
      dg.clauses.push_back({ClauseId::MatchCompareBits, "", 0, false,
                            "only where a NaN bit pattern takes part, and there by never "
                            "completing the round: compared as floating-point values, a NaN "
                            "never equals itself"});
    else
      dg.clauses.push_back({participants_clause(f),
                            "a round never completed (it hung or aborted), as if waiting for a "
                            "lane it must not wait for",
                            0, false, ""});
  }
  if (pairs.empty()) {
    // No wrong value: the form fails by not completing or by giving no result. For a barrier,
    // whose whole meaning is when it releases, that breaks the rule of who it waits for.
    if (f.family == Family::WarpBarrier || f.family == Family::CtaBarrier)
      for (const auto& a : answers)
        for (std::size_t k = 0; k < a.expect.size() && k < a.observed.size(); ++k)
          if (a.expect[k].ub.empty() &&
              (a.observed[k].hang || a.observed[k].ub_reported ||
               a.observed[k].present != a.expect[k].executes) &&
              dg.clauses.empty())
            dg.clauses.push_back(
                {participants_clause(f),
                 "not releasing every thread, though every thread it must wait for arrived", 0,
                 false, ""});
    return dg;
  }
  // 3. Each clause reading, on every answer: which failing results it reproduces, whether it
  //    predicts a failure that did not happen (then it is not what the implementation does).
  const auto defs = defs_for(first);
  struct Score {
    std::vector<uint8_t> explains;
    uint64_t count = 0;       // failing lane results it explains
    std::size_t vectors = 0;  // failing vectors it reproduces whole
    bool over = false, exact = true;
  };
  std::vector<Score> scores(defs.size());
  std::size_t failing_vectors = 0;
  for (std::size_t q = 0; q < pairs.size(); ++q)
    failing_vectors += q == 0 || pairs[q].answer != pairs[q - 1].answer;
  for (std::size_t r = 0; r < defs.size(); ++r) {
    auto& sc = scores[r];
    sc.explains.assign(pairs.size(), 0);
    std::size_t next = 0;  // pairs are in (answer, round, lane) order
    for (std::size_t n = 0; n < answers.size() && !sc.over; ++n) {
      const auto& a = answers[n];
      const auto x = read_def(defs[r], a.vector, a.expect, target, ptx);
      const std::size_t from = next;
      bool whole = true;  // the reading reproduces every compared answer of this vector
      for (std::size_t k = 0; k < a.expect.size() && k < a.observed.size(); ++k)
        for (std::size_t i = 0; i < a.expect[k].defined.size(); ++i) {
          if (!compared(a, k, i)) continue;
          const bool fails = next < pairs.size() && pairs[next].answer == n &&
                             pairs[next].round == k && pairs[next].lane == i;
          const bool differs = wrong(a, k, i, x[k]);
          if (fails) {
            whole = whole && !differs;
            ++next;
          } else if (differs) {
            sc.over = true;  // predicts a failure the implementation did not make
            whole = false;
          }
        }
      // A reading explains a failing vector only when it reproduces all of it.
      if (whole && next > from) {
        for (std::size_t q = from; q < next; ++q) sc.explains[q] = 1;
        sc.count += next - from;
        ++sc.vectors;
      } else if (next > from) {
        sc.exact = false;
      }
    }
    sc.exact = sc.exact && !sc.over;
  }
  // 4. An exact reading names the clause; otherwise at most two readings that never predict a
  //    wrong failure cover what they can (two bugs combined), and the rest is charged by
  //    elimination to the clause that computes the value.
  // A reading that names one lane explains a single failing vector too easily (the lane that
  // happens to hold the deciding value): it needs two.
  const auto lane_specific = [&](std::size_t r) {
    return defs[r].change == Change::LaneOut || defs[r].change == Change::LaneIn;
  };
  for (std::size_t r = 0; r < defs.size(); ++r)
    if (scores[r].exact && lane_specific(r)) dg.exact_lane_readings.push_back(defs[r].text);
  // Where the family fails only on negated vectors, a reading of the negation that reproduces
  // every answer comes first: the family's evidence points at it.
  const auto of_negation = [&](std::size_t r) {
    const auto c = defs[r].change;
    return c == Change::NegateToggled || c == Change::NegateBitwise || c == Change::NegateAfter;
  };
  if (family.fails_only_negated)
    for (std::size_t r = 0; r < defs.size(); ++r)
      if (scores[r].exact && of_negation(r)) {
        dg.clauses.push_back({defs[r].clause, defs[r].text, scores[r].count, true, ""});
        dg.unexplained = 0;
        return dg;
      }
  // A reading of the whole rule comes before one that names a lane: when both reproduce every
  // answer, the lane is the likelier coincidence (any of several lanes often would do).
  for (const bool lanes : {false, true})
    for (std::size_t r = 0; r < defs.size(); ++r)
      if (scores[r].exact && lane_specific(r) == lanes &&
          (!lanes || scores[r].vectors >= 2 || family.lane_readings.count(defs[r].text))) {
        dg.clauses.push_back({defs[r].clause, defs[r].text, scores[r].count, true, ""});
        dg.unexplained = 0;
        return dg;
      }
  // Failures only where the source predicate is negated, while the instruction without `!`
  // passes on two or more vectors: the negation is applied wrongly, whatever it does.
  if (std::find(f.clauses.begin(), f.clauses.end(), ClauseId::VoteNegate) != f.clauses.end()) {
    std::vector<uint8_t> fails(answers.size(), 0);
    for (const auto& p : pairs) fails[p.answer] = 1;
    bool only_negated = true;
    std::size_t plain_passing = 0;
    for (std::size_t n = 0; n < answers.size(); ++n) {
      const bool negated = answers[n].vector.instr.instr.negate;
      if (fails[n] && !negated) only_negated = false;
      bool any_compared = false;
      for (std::size_t k = 0; k < answers[n].expect.size() && k < answers[n].observed.size(); ++k)
        for (std::size_t i = 0; i < answers[n].expect[k].defined.size(); ++i)
          any_compared = any_compared || compared(answers[n], k, i);
      plain_passing += !fails[n] && !negated && any_compared;
    }
    if (only_negated &&
        ((plain_passing >= 2 && failing_vectors >= 2) || family.fails_only_negated)) {
      dg.clauses.push_back(
          {ClauseId::VoteNegate, "", pairs.size(), false,
           failing_vectors >= 2 && plain_passing >= 2
               ? "only where the source is negated (!a), and passes without it"
               : "only where the source is negated (!a), as the other forms of its family do, "
                 "and passes without it"});
      dg.unexplained = 0;
      return dg;
    }
  }
  // A reading that reproduces only a few failing vectors may do so by coincidence: it must
  // reproduce at least two, and a quarter of them.
  // The first reading must account for half of them; a second (another bug) for a quarter, and
  // be another kind of change (lane 0 left out here and lane 13 there is not one bug).
  std::vector<uint8_t> open(pairs.size(), 1);
  std::vector<Change> used;
  for (int part = 0; part < 2; ++part) {
    const std::size_t enough =
        std::max<std::size_t>(2, part == 0 ? (failing_vectors + 1) / 2 : (failing_vectors + 3) / 4);
    std::size_t best = defs.size();
    uint64_t best_count = 0;
    for (std::size_t r = 0; r < defs.size(); ++r) {
      if (scores[r].over || scores[r].vectors < enough) continue;
      if (std::find(used.begin(), used.end(), defs[r].change) != used.end()) continue;
      uint64_t c = 0;
      for (std::size_t q = 0; q < pairs.size(); ++q) c += open[q] && scores[r].explains[q];
      if (c > best_count) best = r, best_count = c;
    }
    if (best == defs.size()) break;
    used.push_back(defs[best].change);
    for (std::size_t q = 0; q < pairs.size(); ++q)
      if (scores[best].explains[q]) open[q] = 0;
    auto it = std::find_if(dg.clauses.begin(), dg.clauses.end(),
                           [&](const ClauseCharge& c) { return c.clause == defs[best].clause; });
    if (it == dg.clauses.end())
      dg.clauses.push_back({defs[best].clause, defs[best].text, best_count, false, ""});
    else
      it->explained += best_count, it->reading += "; " + defs[best].text;
  }
  dg.unexplained = static_cast<uint64_t>(std::count(open.begin(), open.end(), 1));
  if (dg.unexplained) {
    // Wrong p on lanes whose d is right (or open) breaks the predicate's own rule, not the
    // value's: match.all's predicate; a shuffle's in-range rule, or, where every such lane's d
    // is open, the rule that keeps p defined there.
    const bool shfl = f.family == Family::Shfl;
    bool p_only = shfl || std::find(f.clauses.begin(), f.clauses.end(), ClauseId::MatchAllPred) !=
                              f.clauses.end();
    bool all_open = true;
    for (std::size_t q = 0; q < pairs.size() && p_only; ++q) {
      if (!open[q]) continue;
      const auto& a = answers[pairs[q].answer];
      const auto k = pairs[q].round, i = pairs[q].lane;
      const bool d_open = !a.expect[k].d_defined[i];
      p_only = (d_open || same_d(a.observed[k], a.expect[k], i)) &&
               a.observed[k].p[i] != a.expect[k].p[i];
      all_open = all_open && d_open;
    }
    const auto p_clause = !shfl     ? ClauseId::MatchAllPred
                          : all_open ? ClauseId::ShflSourceUndefined
                                     : ClauseId::ShflInRange;
    // Wrong values that some other set of lanes gives, each of them, break the rule of who takes
    // part, though no one change of that rule reproduces them all.
    bool other_lanes = !p_only;
    for (std::size_t q = 0; q < pairs.size() && other_lanes; ++q) {
      if (!open[q]) continue;
      const auto given = some_lanes_give(answers[pairs[q].answer], pairs[q].round,
                                         static_cast<unsigned>(pairs[q].lane));
      other_lanes = given && *given;
    }
    // A shuffle's wrong d that no lane holds was not copied bit for bit.
    bool no_lane_holds = shfl && !p_only;
    for (std::size_t q = 0; q < pairs.size() && no_lane_holds; ++q) {
      if (!open[q]) continue;
      const auto& a = answers[pairs[q].answer];
      const auto k = pairs[q].round;
      // Whole: a 64-bit overload's high word from another lane than its low word is no lane's a.
      const uint64_t got = d_value(a.observed[k], pairs[q].lane);
      const uint64_t width = a.vector.instr.instr.wide ? ~0ull : 0xffffffffull;
      for (unsigned j = 0; j < 32 && no_lane_holds; ++j)
        no_lane_holds = (a.vector.rounds[k].warp.a[j] & width) != got;
    }
    const auto value = p_only          ? p_clause
                       : no_lane_holds ? ClauseId::ShflCopy
                       : other_lanes   ? participants_clause(f)
                                     : value_clause(f);
    auto it = std::find_if(dg.clauses.begin(), dg.clauses.end(),
                           [&](const ClauseCharge& c) { return c.clause == value; });
    if (it == dg.clauses.end())
      dg.clauses.push_back(
          {value, "", dg.unexplained, false,
           other_lanes ? "with values that other sets of lanes give: each wrong value is the "
                         "operation over some set of lanes with the lane in it, though no one "
                         "change of who takes part gives them all"
                       : ""});
  }
  return dg;
}

}  // namespace warpspec::vectors
