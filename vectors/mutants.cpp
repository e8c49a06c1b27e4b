#include "vectors/mutants.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace warpspec::vectors {

namespace {

using spec::ClauseId;
using spec::FormId;
using M = MutantId;

// clang-format off
constexpr MutantInfo kMutants[] = {
  {M::MembermaskIgnored, "membermask_ignored", "combines every lane executing the instruction, whatever the membermask says", ClauseId::MatchParticipants},
  {M::ExitedCounted, "exited_counted", "lets exited lanes of the membermask take part with stale operands", ClauseId::MatchParticipants},
  {M::StaleBallotBits, "stale_ballot_bits", "keeps ballot bits of lanes outside the membermask from an earlier ballot", ClauseId::VoteBallot},
  {M::FloatMatchByValue, "float_match_by_value", "compares match operands as floating-point values (+0.0 == -0.0, NaN != NaN)", ClauseId::MatchCompareBits},
  {M::Match64LowHalf, "match64_low_half", "compares only the low 32 bits of a 64-bit match operand", ClauseId::MatchCompareBits},
  {M::MatchAnyWithoutSelf, "match_any_without_self", "leaves the executing lane out of its own match.any result", ClauseId::MatchAnyResult},
  {M::MatchAllAsAny, "match_all_as_any", "returns the lanes equal to this lane's value from match.all even when values differ", ClauseId::MatchAllResult},
  {M::MatchAllPredInverted, "match_all_pred_inverted", "sets match.all's predicate when the values differ", ClauseId::MatchAllPred},
  {M::MatchAllGivesMembermask, "match_all_gives_membermask", "returns the whole membermask from match.all, exited lanes included", ClauseId::MatchParticipants},
  {M::NegationIgnored, "negation_ignored", "drops the ! on a vote source predicate", ClauseId::VoteNegate},
  {M::VoteAllAnySwapped, "vote_all_any_swapped", "computes vote.all as vote.any and vice versa", ClauseId::VoteAll},
  {M::VoteUniInverted, "vote_uni_inverted", "returns the negation of vote.uni", ClauseId::VoteUni},
  {M::MinMaxSignSwapped, "minmax_sign_swapped", "orders .u32 min/max as signed and .s32 as unsigned", ClauseId::ReduxMinMaxInt},
  {M::ReduxIdentityZero, "redux_identity_zero", "starts min/max from 0 instead of the operator's identity", ClauseId::ReduxMinMaxInt},
  {M::ReduxAddSaturates, "redux_add_saturates", "saturates redux.add instead of wrapping modulo 2^32", ClauseId::ReduxAdd},
  {M::ReduxBitwiseOnLogical, "redux_bitwise_on_logical", "applies .and/.or/.xor to logical (non-zero) values instead of bits", ClauseId::ReduxBitwise},
  {M::F32ZeroOrderIgnored, "f32_zero_order_ignored", "treats -0.0 and +0.0 as equal in .f32 min/max", ClauseId::ReduxF32ZeroOrder},
  {M::F32AbsIgnored, "f32_abs_ignored", "ignores the .abs qualifier", ClauseId::ReduxF32Abs},
  {M::F32NanQualifierSwapped, "f32_nan_qualifier_swapped", "propagates NaN without .NaN and skips it with .NaN", ClauseId::ReduxF32NanSkip},
  {M::F32NanNotCanonical, "f32_nan_not_canonical", "returns an input NaN's payload instead of the canonical NaN", ClauseId::ReduxF32NanPropagate},
  {M::SyncwarpWaitsForExited, "syncwarp_waits_for_exited", "treats an exited lane named in the mask as missing (hang or UB report)", ClauseId::SyncwarpExitedOk},
  {M::CtaNotReset, "cta_not_reset", "carries the block reduction over from the previous barrier", ClauseId::CtaCount},
  {M::CtaExitedCounted, "cta_exited_counted", "counts exited threads' last predicates in the block reduction", ClauseId::CtaParticipants},
  {M::CtaCountSumsValues, "cta_count_sums_values", "adds the predicate values instead of counting the non-zero ones", ClauseId::CtaCount},
  {M::CtaAndBitwise, "cta_and_bitwise", "ANDs the predicate bits instead of their truth values", ClauseId::CtaAnd},
  {M::CtaWaitsForExited, "cta_waits_for_exited", "waits for exited threads at the barrier (hang or UB report)", ClauseId::CtaParticipants},
};
// clang-format on
static_assert(std::size(kMutants) == static_cast<std::size_t>(kMutantCount),
              "every MutantId has one catalog row");

// Evaluates a changed copy of the vector and reports it on the original's executing lanes.
std::vector<Observed> run_changed(const Vector& changed, const std::vector<Expected>& orig,
                                  spec::Target t, spec::PtxVersion p) {
  auto obs = as_observed(expected(changed, t, p));
  for (std::size_t k = 0; k < obs.size(); ++k) {
    obs[k].present = orig[k].executes;
    obs[k].ub_reported = false;
  }
  return obs;
}

std::vector<Observed> silent(const std::vector<Expected>& e) {
  auto o = as_observed(e);
  for (auto& r : o) r.ub_reported = false;
  return o;
}

uint32_t participants(const model::Warp& w, const spec::Instr& in, unsigned i) {
  uint32_t exited = 0;
  for (unsigned j = 0; j < 32; ++j) exited |= uint32_t{w.exited[j]} << j;
  return (in.imm_mask ? *in.imm_mask : w.mask[i]) & ~exited;
}

uint32_t executing(const model::Warp& w) {
  uint32_t m = 0;
  for (unsigned j = 0; j < 32; ++j) m |= uint32_t{w.exec[j] && !w.exited[j]} << j;
  return m;
}

bool float_eq(uint64_t x, uint64_t y, bool wide) {
  if (wide) return std::bit_cast<double>(x) == std::bit_cast<double>(y);
  return std::bit_cast<float>(static_cast<uint32_t>(x)) ==
         std::bit_cast<float>(static_cast<uint32_t>(y));
}

FormId with_sign_swapped(FormId f) {
  switch (f) {
    case FormId::ReduxMinU32:
      return FormId::ReduxMinS32;
    case FormId::ReduxMinS32:
      return FormId::ReduxMinU32;
    case FormId::ReduxMaxU32:
      return FormId::ReduxMaxS32;
    case FormId::ReduxMaxS32:
      return FormId::ReduxMaxU32;
    default:
      return f;
  }
}

// The .f32 form with .abs/.NaN set as asked.
FormId f32_form(spec::Mode mode, bool abs, bool nan) {
  for (const auto& f : spec::kForms)
    if (f.a_type == spec::OperandType::F32 && f.mode == mode && f.abs == abs && f.nan == nan)
      return f.id;
  return FormId::ReduxMinF32;
}

}  // namespace

std::span<const MutantInfo> mutants() {
  return kMutants;
}

const MutantInfo& mutant_info(MutantId id) {
  return kMutants[static_cast<int>(id)];
}

std::optional<MutantId> find_mutant(std::string_view key) {
  for (const auto& m : kMutants)
    if (m.key == key) return m.id;
  return std::nullopt;
}

spec::ClauseId violated_clause(MutantId m, spec::FormId form) {
  const auto& f = spec::form_info(form);
  switch (m) {
    case M::MembermaskIgnored:
    case M::ExitedCounted:
      return spec::participants_clause(form);
    case M::VoteAllAnySwapped:
      return f.mode == spec::Mode::Any ? ClauseId::VoteAny : ClauseId::VoteAll;
    case M::F32NanQualifierSwapped:
    case M::F32NanNotCanonical:
      return f.nan ? ClauseId::ReduxF32NanPropagate : ClauseId::ReduxF32NanSkip;
    case M::CtaNotReset:
      if (f.mode == spec::Mode::And) return ClauseId::CtaAnd;
      if (f.mode == spec::Mode::Or) return ClauseId::CtaOr;
      return ClauseId::CtaCount;
    default:
      return mutant_info(m).clause;
  }
}

bool applies(MutantId m, const spec::ParsedInstr& p) {
  const auto& f = spec::form_info(p.instr.form);
  const bool warp_valued = f.family == spec::Family::Match || f.family == spec::Family::Vote ||
                           f.family == spec::Family::Redux;
  const bool is_f32 = f.a_type == spec::OperandType::F32;
  const bool cta_valued = f.family == spec::Family::CtaBarrier && f.mode != spec::Mode::None;
  switch (m) {
    case M::MembermaskIgnored:
    case M::ExitedCounted:
      return warp_valued;
    case M::StaleBallotBits:
      return f.mode == spec::Mode::Ballot;
    case M::FloatMatchByValue:
      return f.family == spec::Family::Match;
    case M::Match64LowHalf:
      return f.family == spec::Family::Match && f.a_type == spec::OperandType::B64;
    case M::MatchAnyWithoutSelf:
      return f.family == spec::Family::Match && f.mode == spec::Mode::Any;
    case M::MatchAllAsAny:
    case M::MatchAllGivesMembermask:
      return f.family == spec::Family::Match && f.mode == spec::Mode::All && p.instr.write_d;
    case M::MatchAllPredInverted:
      return f.family == spec::Family::Match && p.instr.write_p;
    // Negating every predicate leaves .uni unchanged, so that form cannot tell.
    case M::NegationIgnored:
      return f.family == spec::Family::Vote && p.instr.negate && f.mode != spec::Mode::Uni;
    case M::VoteAllAnySwapped:
      return f.family == spec::Family::Vote &&
             (f.mode == spec::Mode::All || f.mode == spec::Mode::Any);
    case M::VoteUniInverted:
      return f.family == spec::Family::Vote && f.mode == spec::Mode::Uni;
    case M::MinMaxSignSwapped:
      return f.family == spec::Family::Redux && !is_f32 &&
             (f.mode == spec::Mode::Min || f.mode == spec::Mode::Max);
    // 0 is the identity of .max.u32, so starting there changes nothing for that form.
    case M::ReduxIdentityZero:
      return f.family == spec::Family::Redux && !is_f32 &&
             (f.mode == spec::Mode::Min || f.id == FormId::ReduxMaxS32);
    case M::ReduxAddSaturates:
      return f.family == spec::Family::Redux && f.mode == spec::Mode::Add;
    case M::ReduxBitwiseOnLogical:
      return f.family == spec::Family::Redux &&
             (f.mode == spec::Mode::And || f.mode == spec::Mode::Or || f.mode == spec::Mode::Xor);
    // After .abs no -0.0 is left to order.
    case M::F32ZeroOrderIgnored:
      return is_f32 && !f.abs;
    case M::F32NanQualifierSwapped:
    case M::F32NanNotCanonical:
      return is_f32;
    case M::F32AbsIgnored:
      return is_f32 && f.abs;
    case M::SyncwarpWaitsForExited:
      return f.family == spec::Family::WarpBarrier;
    case M::CtaNotReset:
    case M::CtaExitedCounted:
      return cta_valued;
    case M::CtaCountSumsValues:
      return f.mode == spec::Mode::Popc;
    case M::CtaAndBitwise:
      return f.family == spec::Family::CtaBarrier && f.mode == spec::Mode::And;
    case M::CtaWaitsForExited:
      return f.family == spec::Family::CtaBarrier;
    case M::Count_:
      break;
  }
  return false;
}

std::optional<spec::Instr> changed_instr(MutantId m, const spec::Instr& in) {
  const auto& f = spec::form_info(in.form);
  spec::Instr c = in;
  switch (m) {
    case M::MatchAllAsAny:
      c.form = f.a_type == spec::OperandType::B64 ? FormId::MatchAnyB64 : FormId::MatchAnyB32;
      return c;
    case M::NegationIgnored:
      c.negate = false;
      return c;
    case M::VoteAllAnySwapped:
      c.form = f.mode == spec::Mode::All ? FormId::VoteAny : FormId::VoteAll;
      return c;
    case M::MinMaxSignSwapped:
      c.form = with_sign_swapped(f.id);
      return c;
    case M::F32AbsIgnored:
      c.form = f32_form(f.mode, false, f.nan);
      return c;
    case M::F32NanQualifierSwapped:
      c.form = f32_form(f.mode, f.abs, !f.nan);
      return c;
    default:
      return std::nullopt;
  }
}

std::vector<Observed> run_mutant(MutantId m, const Vector& v, spec::Target t, spec::PtxVersion p) {
  const auto e = expected(v, t, p);
  if (!applies(m, v.instr)) return silent(e);
  const auto& f = spec::form_info(v.instr.instr.form);
  Vector c = v;
  switch (m) {
    case M::MembermaskIgnored:
      c.instr.instr.imm_mask.reset();
      for (auto& r : c.rounds) {
        const auto ex = executing(r.warp);
        for (auto& mk : r.warp.mask) mk = ex;
      }
      return run_changed(c, e, t, p);
    case M::ExitedCounted:
      for (auto& r : c.rounds)
        for (unsigned i = 0; i < 32; ++i)
          if (r.warp.exited[i]) {
            r.warp.exited[i] = false;
            r.warp.exec[i] = true;
          }
      return run_changed(c, e, t, p);
    case M::StaleBallotBits: {
      auto o = silent(e);
      uint32_t reg = 0;  // the warp's ballot register, never cleared outside the membermask
      for (std::size_t k = 0; k < v.rounds.size(); ++k) {
        const auto& w = v.rounds[k].warp;
        uint32_t fresh = 0, covered = 0;
        for (unsigned i = 0; i < 32; ++i)
          if (e[k].executes[i]) {
            fresh |= e[k].d[i];
            covered |= participants(w, v.instr.instr, i);
          }
        reg = (reg & ~covered) | fresh;
        for (unsigned i = 0; i < 32; ++i)
          if (e[k].executes[i]) o[k].d[i] = e[k].d[i] | (reg & ~participants(w, v.instr.instr, i));
      }
      return o;
    }
    case M::FloatMatchByValue: {
      auto o = silent(e);
      const bool wide = f.a_type == spec::OperandType::B64;
      for (std::size_t k = 0; k < v.rounds.size(); ++k) {
        const auto& w = v.rounds[k].warp;
        for (unsigned i = 0; i < 32; ++i) {
          if (!e[k].executes[i]) continue;
          const uint32_t part = participants(w, v.instr.instr, i);
          uint32_t eq = 0;
          for (unsigned j = 0; j < 32; ++j)
            if ((part >> j) & 1u) eq |= uint32_t{float_eq(w.a[j], w.a[i], wide)} << j;
          const bool all = eq == part;
          if (f.mode == spec::Mode::Any)
            o[k].d[i] = eq;
          else
            o[k].d[i] = all ? part : 0;
          o[k].p[i] = all;
        }
      }
      return o;
    }
    case M::Match64LowHalf:
      for (auto& r : c.rounds)
        for (auto& a : r.warp.a) a &= 0xffffffffull;
      return run_changed(c, e, t, p);
    case M::MatchAnyWithoutSelf: {
      auto o = silent(e);
      for (auto& r : o)
        for (unsigned i = 0; i < r.d.size(); ++i) r.d[i] &= ~(1u << i);
      return o;
    }
    case M::MatchAllAsAny: {
      c.instr.instr = *changed_instr(m, v.instr.instr);
      auto any = run_changed(c, e, t, p);
      auto o = silent(e);
      for (std::size_t k = 0; k < o.size(); ++k) o[k].d = any[k].d;
      return o;
    }
    case M::MatchAllPredInverted: {
      auto o = silent(e);
      for (auto& r : o)
        for (auto& x : r.p) x = !x;
      return o;
    }
    case M::MatchAllGivesMembermask: {
      auto o = silent(e);
      for (std::size_t k = 0; k < o.size(); ++k)
        for (unsigned i = 0; i < 32; ++i)
          if (e[k].executes[i] && e[k].p[i])
            o[k].d[i] = v.instr.instr.imm_mask ? *v.instr.instr.imm_mask : v.rounds[k].warp.mask[i];
      return o;
    }
    case M::NegationIgnored:
    case M::VoteAllAnySwapped:
    case M::MinMaxSignSwapped:
    case M::F32AbsIgnored:
    case M::F32NanQualifierSwapped:
      c.instr.instr = *changed_instr(m, v.instr.instr);
      return run_changed(c, e, t, p);
    case M::VoteUniInverted: {
      auto o = silent(e);
      for (auto& r : o)
        for (auto& x : r.d) x = !x;
      return o;
    }
    case M::ReduxIdentityZero: {
      auto o = silent(e);
      const bool s = f.a_type == spec::OperandType::S32;
      for (auto& r : o)
        for (auto& x : r.d) {
          const bool x_below_zero = s ? static_cast<int32_t>(x) < 0 : false;
          if (f.mode == spec::Mode::Min && !x_below_zero) x = 0;
          if (f.mode == spec::Mode::Max && x_below_zero) x = 0;
        }
      return o;
    }
    case M::ReduxAddSaturates: {
      auto o = silent(e);
      const bool s = f.a_type == spec::OperandType::S32;
      for (std::size_t k = 0; k < o.size(); ++k) {
        const auto& w = v.rounds[k].warp;
        for (unsigned i = 0; i < 32; ++i) {
          if (!e[k].executes[i]) continue;
          const uint32_t part = participants(w, v.instr.instr, i);
          int64_t sum = 0;
          for (unsigned j = 0; j < 32; ++j)
            if ((part >> j) & 1u)
              sum += s ? int64_t{static_cast<int32_t>(w.a[j])}
                       : int64_t{static_cast<uint32_t>(w.a[j])};
          const int64_t lo = s ? INT32_MIN : 0, hi = s ? INT32_MAX : int64_t{UINT32_MAX};
          o[k].d[i] = static_cast<uint32_t>(std::clamp(sum, lo, hi));
        }
      }
      return o;
    }
    case M::ReduxBitwiseOnLogical:
      for (auto& r : c.rounds)
        for (auto& a : r.warp.a) a = (a & 0xffffffffull) != 0;
      return run_changed(c, e, t, p);
    case M::F32ZeroOrderIgnored:
      for (auto& r : c.rounds)
        for (auto& a : r.warp.a)
          if ((a & 0xffffffffull) == 0x80000000ull) a = 0;
      return run_changed(c, e, t, p);
    case M::F32NanNotCanonical: {
      auto o = silent(e);
      for (std::size_t k = 0; k < o.size(); ++k) {
        const auto& w = v.rounds[k].warp;
        for (unsigned i = 0; i < 32; ++i) {
          if (!e[k].executes[i] || e[k].d[i] != spec::kCanonicalNanF32) continue;
          const uint32_t part = participants(w, v.instr.instr, i);
          for (unsigned j = 0; j < 32; ++j) {
            uint32_t x = static_cast<uint32_t>(w.a[j]);
            if (f.abs) x &= 0x7fffffffu;
            if (((part >> j) & 1u) && spec::f32_is_nan(model::Concrete{}, x)) {
              o[k].d[i] = x;
              break;
            }
          }
        }
      }
      return o;
    }
    case M::SyncwarpWaitsForExited: {
      auto o = silent(e);
      for (std::size_t k = 0; k < o.size(); ++k) {
        const auto& w = v.rounds[k].warp;
        uint32_t exited = 0;
        for (unsigned j = 0; j < 32; ++j) exited |= uint32_t{w.exited[j]} << j;
        for (unsigned i = 0; i < 32; ++i)
          if (e[k].executes[i] &&
              ((v.instr.instr.imm_mask ? *v.instr.instr.imm_mask : w.mask[i]) & exited))
            o[k].ub_reported = true;
      }
      return o;
    }
    case M::CtaNotReset: {
      auto o = silent(e);
      uint32_t acc = f.mode == spec::Mode::And ? 1 : 0;
      for (std::size_t k = 0; k < o.size(); ++k) {
        uint32_t now = 0;
        for (std::size_t t2 = 0; t2 < e[k].executes.size(); ++t2)
          if (e[k].executes[t2]) now = e[k].d[t2];
        if (f.mode == spec::Mode::Popc) acc += now;
        if (f.mode == spec::Mode::And) acc = acc && now;
        if (f.mode == spec::Mode::Or) acc = acc || now;
        for (auto& x : o[k].d) x = acc;
      }
      return o;
    }
    case M::CtaExitedCounted:
      for (auto& r : c.rounds)
        for (std::size_t t2 = 0; t2 < r.cta.exited.size(); ++t2)
          if (r.cta.exited[t2]) {
            r.cta.exited[t2] = false;
            r.cta.arrive[t2] = true;
          }
      return run_changed(c, e, t, p);
    case M::CtaCountSumsValues:
    case M::CtaAndBitwise: {
      auto o = silent(e);
      for (std::size_t k = 0; k < o.size(); ++k) {
        const auto& cta = v.rounds[k].cta;
        uint32_t sum = 0, all = 0xffffffffu;
        for (std::size_t t2 = 0; t2 < cta.arrive.size(); ++t2)
          if (cta.arrive[t2] && !cta.exited[t2]) {
            uint32_t x = cta.pred[t2];
            if (v.instr.instr.negate) x = x == 0;
            sum += x;
            all &= x;
          }
        for (auto& x : o[k].d) x = m == M::CtaCountSumsValues ? sum : uint32_t{all != 0};
      }
      return o;
    }
    case M::CtaWaitsForExited: {
      auto o = silent(e);
      for (std::size_t k = 0; k < o.size(); ++k) {
        const auto& ex = v.rounds[k].cta.exited;
        o[k].ub_reported = std::find(ex.begin(), ex.end(), true) != ex.end();
      }
      return o;
    }
    case M::Count_:
      break;
  }
  return silent(e);
}

bool kills(MutantId m, const Vector& v, const std::vector<Expected>& e, spec::Target t,
           spec::PtxVersion p) {
  if (!applies(m, v.instr)) return false;
  return compare(v, e, run_mutant(m, v, t, p)).kind != Mismatch::Kind::None;
}

}  // namespace warpspec::vectors
