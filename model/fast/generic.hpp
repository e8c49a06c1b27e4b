#pragma once
// The fast implementation's algorithms, once, over the value domain: whole lane sets per step,
// never one lane pair at a time where a word operation will do. Instantiated with the concrete
// domain this is the portable path; instantiated symbolically it is what gets proved equal to
// the model. The AVX-512 kernels (avx512.cpp) compute the same words with vector instructions,
// with two departures that the exhaustive small-width tests (tests/fast/twins_test.cpp) cover:
// when every executing lane passes one mask they take a scalar shortcut, and they reduce
// (redux) with one tree per group of lanes instead of the bit-sliced form below.
//
// Equivalence with the model is Alive2's order: the same UB clauses on the same lanes, the same
// executing lanes, and the same d (and p) on every lane the model defines
// (spec::Outcome::defined). The algorithms here deliver more: the model's d on every executing
// lane on which no UB clause fires; where one computes a value only on such lanes, it says so.
#include <span>
#include <vector>

#include "model/fast/warp_words.hpp"

namespace warpspec::fast {

/// At most this many UB clauses belong to one warp form.
inline constexpr int kMaxUbTerms = 4;

namespace detail {
using C = spec::ClauseId;
inline constexpr C kMatchUb[] = {C::MatchUbSelfNotInMask, C::MatchUbPeerAbsent,
                                 C::MatchUbMaskMismatch};
inline constexpr C kVoteUb[] = {C::VoteUbSelfNotInMask, C::VoteUbPeerAbsent, C::VoteUbMaskMismatch,
                                C::VoteUbSm6xConvergence};
inline constexpr C kReduxUb[] = {C::ReduxUbSelfNotInMask, C::ReduxUbPeerAbsent,
                                 C::ReduxUbMaskMismatch};
inline constexpr C kSyncwarpUb[] = {C::SyncwarpUbSelfNotInMask, C::SyncwarpUbPeerAbsent,
                                    C::SyncwarpUbMaskMismatch, C::SyncwarpUbSm6xConvergence};
}  // namespace detail

/// The UB clauses of a warp form in the order the model reports them (`Lanes::ub` follows it).
constexpr std::span<const spec::ClauseId> ub_clauses(spec::FormId form) {
  switch (spec::form_info(form).family) {
    case spec::Family::Match:
      return detail::kMatchUb;
    case spec::Family::Vote:
      return detail::kVoteUb;
    case spec::Family::Redux:
      return detail::kReduxUb;
    case spec::Family::WarpBarrier:
      return detail::kSyncwarpUb;
    case spec::Family::CtaBarrier:
      break;
  }
  return {};
}

/// The lean result of one warp instruction: everything as words but the per-lane destination.
template <Domain D, int W>
struct Lanes {
  Rows<D, W> d;              ///< destination per lane (0/1 for predicates); see `defined`
  typename D::W32 p;         ///< match.all's predicate, one bit per lane
  typename D::W32 executes;  ///< lanes that execute
  std::array<typename D::W32, kMaxUbTerms> ub;  ///< lanes per clause of `ub_clauses(form)`

  /// Lanes on which some UB clause fires.
  typename D::W32 ub_lanes() const { return ub[0] | ub[1] | ub[2] | ub[3]; }
  /// Executing lanes on which no UB clause fires. The generic algorithms compute the model's d
  /// on all of these (a superset of the defined lanes); the kernels skip values under any UB.
  typename D::W32 lanes_without_ub() const { return executes & ~ub_lanes(); }
  /// Lanes whose d (and p) the spec pins down, as spec::Outcome::defined reads it: they execute
  /// and no UB clause fires on any lane.
  typename D::W32 defined(const D& d = D{}) const {
    return d.ite(spec::is_zero(d, ub_lanes()), executes, d.w32(0));
  }
};

// ------------------------------------------------------------------------------- match.sync

/// PTX ISA 9.7.13.10, match.any: each lane gets the taking-part lanes holding its own bit
/// pattern. All lanes' equal sets come from one earlier-equal matrix and its transpose.
template <Domain D, int W>
Rows<D, W> match_any_rows(const D& d, const spec::WarpState<D, W>& s, const LaneWords<D, W>& v,
                          bool wide) {
  const auto eq = equal_sets_of<D, W>(d, [&](unsigned i, unsigned j) {
    return wide ? s.a[i] == s.a[j] : d.lo32(s.a[i]) == d.lo32(s.a[j]);
  });
  const auto part = participant_rows(d, v);
  return spec::lanes_of<W>([&](unsigned i) { return part[i] & eq[i]; });
}

/// PTX ISA 9.7.13.10, match.all: the taking-part set (and p) when all of it holds one value,
/// else 0. Exact on lanes without UB of their own: there every taking-part lane passes the same
/// mask, so
/// all of them share one leader (lowest taking-part lane), and "all equal" is "nobody differs
/// from their leader" — one gather and one compare per lane instead of W.
template <Domain D, int W>
std::pair<Rows<D, W>, typename D::W32> match_all_rows(const D& d, const spec::WarpState<D, W>& s,
                                                      const LaneWords<D, W>& v, bool wide) {
  const auto part = participant_rows(d, v);
  const auto leader = spec::lanes_of<W>([&](unsigned i) { return lowest_bit(d, part[i]); });
  const auto differs = pack_where<D, W>(d, [&](unsigned j) {
    const auto lead = select_by_bit<D, W>(d, leader[j], s.a, d.w64(0));
    return wide ? s.a[j] != lead : d.lo32(s.a[j]) != d.lo32(lead);
  });
  const auto ok =
      spec::lanes_of<W>([&](unsigned i) { return spec::is_zero(d, part[i] & differs); });
  return {spec::lanes_of<W>([&](unsigned i) { return d.ite(ok[i], part[i], d.w32(0)); }),
          pack<D, W>(d, ok)};
}

// ------------------------------------------------------------------------------- vote.sync

/// PTX ISA 9.7.13.9, vote.sync: the (optionally inverted) predicates become one word, and each
/// lane's vote is a test of its participant row against that word.
template <Domain D, int W>
Rows<D, W> vote_rows(const D& d, const spec::Instr& in, const spec::WarpState<D, W>& s,
                     const LaneWords<D, W>& v) {
  const auto mode = spec::form_info(in.form).mode;
  auto preds = pack_where<D, W>(d, [&](unsigned j) { return s.a[j] != d.w64(0); });
  if (in.negate) preds = ~preds & d.w32(spec::full_mask<W>());
  const auto part = participant_rows(d, v);
  auto as_word = [&](const typename D::B& b) { return d.ite(b, d.w32(1), d.w32(0)); };
  return spec::lanes_of<W>([&](unsigned i) {
    const auto none_false = spec::is_zero(d, part[i] & ~preds);
    const auto none_true = spec::is_zero(d, part[i] & preds);
    switch (mode) {
      case spec::Mode::All:
        return as_word(none_false);
      case spec::Mode::Any:
        return as_word(!none_true);
      case spec::Mode::Uni:
        return as_word(none_false || none_true);
      default:
        return part[i] & preds;  // ballot
    }
  });
}

// ------------------------------------------------------------------------------- redux.sync

namespace detail {

/// Bit planes of 32-bit words: plane b holds, as lane bits, bit b of every lane's word.
template <Domain D, int W>
std::array<typename D::W32, 32> planes(const D& d, const Rows<D, W>& x) {
  return spec::lanes_of<32>(
      [&](unsigned b) { return pack_where<D, W>(d, [&](unsigned j) { return d.bit(x[j], b); }); });
}

/// Bit-serial minimum (or maximum) over the lanes of `set`, most significant bit first: keep
/// the candidates holding a 0 (a 1) at this bit when there are any. All ones (zero) when `set`
/// is empty, the identity of the operator.
template <Domain D>
typename D::W32 bit_serial_extreme(const D& d, const std::array<typename D::W32, 32>& planes,
                                   typename D::W32 set, bool max) {
  auto result = d.w32(0);
  for (int b = 31; b >= 0; --b) {
    const auto keep = set & (max ? planes[b] : ~planes[b]);
    const auto some = !spec::is_zero(d, keep);
    set = d.ite(some, keep, set);
    result = result | spec::bit_if(d, max ? some : !some, static_cast<unsigned>(b));
  }
  return result;
}

}  // namespace detail

/// PTX ISA 9.7.13.12, redux.sync on .u32/.s32/.b32: bit-sliced. The lanes' words are turned
/// into 32 bit planes once; then a lane's sum is a weighted sum of popcounts of its participant
/// row against the planes, and/or/xor are one test per plane, and min/max are bit-serial
/// (signed order by flipping the sign bit, which maps it onto unsigned order).
template <Domain D, int W>
Rows<D, W> redux_int_rows(const D& d, const spec::FormInfo& f, const spec::WarpState<D, W>& s,
                          const LaneWords<D, W>& v) {
  const bool ordered = f.mode == spec::Mode::Min || f.mode == spec::Mode::Max;
  const auto flip = d.w32(ordered && f.a_type == spec::OperandType::S32 ? 0x80000000u : 0u);
  const auto keys = spec::lanes_of<W>([&](unsigned j) { return d.lo32(s.a[j]) ^ flip; });
  const auto pl = detail::planes<D, W>(d, keys);
  const auto part = participant_rows(d, v);
  return spec::lanes_of<W>([&](unsigned i) {
    const auto set = part[i];
    auto per_bit = [&](auto&& bit_of) {
      auto acc = d.w32(0);
      for (unsigned b = 0; b < 32; ++b) acc = acc | spec::bit_if(d, bit_of(pl[b]), b);
      return acc;
    };
    switch (f.mode) {
      case spec::Mode::Add: {
        auto acc = d.w32(0);  // Horner over the planes: doubling is adding to itself
        for (int b = 31; b >= 0; --b) acc = acc + acc + d.popcount(set & pl[b]);
        return acc;
      }
      case spec::Mode::And:
        return per_bit([&](const auto& p) { return spec::is_zero(d, set & ~p); });
      case spec::Mode::Or:
        return per_bit([&](const auto& p) { return !spec::is_zero(d, set & p); });
      case spec::Mode::Xor:
        return per_bit([&](const auto& p) { return d.bit(d.popcount(set & p), 0); });
      default:  // Min, Max
        return detail::bit_serial_extreme(d, pl, set, f.mode == spec::Mode::Max) ^ flip;
    }
  });
}

/// PTX ISA 9.7.13.12, redux.sync .f32 min/max: bit-sliced over the order keys (`f32_order_key`,
/// where -0.0 < +0.0) of the non-NaN participants, then decoded back to a bit pattern; the
/// canonical NaN when no non-NaN value takes part or, with .NaN, when any NaN does.
template <Domain D, int W>
Rows<D, W> redux_f32_rows(const D& d, const spec::FormInfo& f, const spec::WarpState<D, W>& s,
                          const LaneWords<D, W>& v) {
  const auto x = spec::lanes_of<W>([&](unsigned j) {
    const auto w = d.lo32(s.a[j]);
    return f.abs ? spec::f32_abs(d, w) : w;
  });
  const auto nan = pack_where<D, W>(d, [&](unsigned j) { return spec::f32_is_nan(d, x[j]); });
  const auto pl = detail::planes<D, W>(
      d, spec::lanes_of<W>([&](unsigned j) { return spec::f32_order_key(d, x[j]); }));
  const auto part = participant_rows(d, v);
  return spec::lanes_of<W>([&](unsigned i) {
    const auto numbers = part[i] & ~nan;
    const auto key = detail::bit_serial_extreme(d, pl, numbers, f.mode == spec::Mode::Max);
    const auto value = d.ite(d.bit(key, 31), key & d.w32(0x7fffffffu), ~key);
    const auto none = spec::is_zero(d, numbers);
    const auto give_nan = f.nan ? none || !spec::is_zero(d, part[i] & nan) : none;
    return d.ite(give_nan, d.w32(spec::kCanonicalNanF32), value);
  });
}

// ------------------------------------------------------------------------------- the forms

/// Evaluates a warp form (any family but the block barriers) on a warp state; `pre_volta`
/// selects the sm_6x rules. Agrees with `spec::evaluate_warp` in the sense stated at the top of
/// this file.
template <Domain D, int W>
Lanes<D, W> evaluate_lanes(const D& d, const spec::Instr& in, const spec::WarpState<D, W>& s,
                           bool pre_volta) {
  const spec::FormInfo& f = spec::form_info(in.form);
  const auto v = lane_words(d, s, in);
  const auto zero = d.w32(0);
  Lanes<D, W> out{spec::lanes_of<W>([&](unsigned) { return zero; }),
                  zero,
                  v.execs,
                  {ub_self_not_in_mask(d, v), ub_peer_absent(d, v), ub_mask_mismatch(d, v), zero}};
  const bool wide = f.a_type == spec::OperandType::B64;
  switch (f.family) {
    case spec::Family::Match:
      if (f.mode == spec::Mode::Any) {
        out.d = match_any_rows(d, s, v, wide);
      } else {
        auto [rows, p] = match_all_rows(d, s, v, wide);
        out.d = rows;
        out.p = p;
      }
      break;
    case spec::Family::Vote:
      out.d = vote_rows(d, in, s, v);
      if (pre_volta)
        out.ub[3] =
            ub_not_converged(d, v, same_site_rows(d, s)) | (v.execs & ~union_of_masks(d, v));
      break;
    case spec::Family::Redux:
      out.d = f.a_type == spec::OperandType::F32 ? redux_f32_rows(d, f, s, v)
                                                 : redux_int_rows(d, f, s, v);
      break;
    case spec::Family::WarpBarrier:
      if (pre_volta)
        out.ub[3] = ub_not_converged(d, v, same_site_rows(d, s)) |
                    d.ite(union_of_masks(d, v) != v.execs, v.execs, zero);
      break;
    case spec::Family::CtaBarrier:
      break;  // evaluated by `evaluate_cta_words`
  }
  return out;
}

/// The equivalence the fast implementation promises, as one formula over the domain (Alive2's
/// order): every UB clause fires on the same lanes, the same lanes execute, and on every lane the
/// model defines, d agrees (and p too, for match.all). A proof asserts its negation.
template <Domain D, int W>
typename D::B agrees_with_model(const D& d, const spec::Instr& in, const spec::Outcome<D, W>& model,
                                const Lanes<D, W>& fast) {
  auto ok = pack<D, W>(d, model.executes) == fast.executes;
  for (std::size_t k = 0; k < kMaxUbTerms; ++k)
    ok = ok &&
         (k < model.ub.size() ? model.ub[k].lanes == fast.ub[k] : spec::is_zero(d, fast.ub[k]));
  const bool has_p = spec::form_info(in.form).optional_p;
  for (unsigned i = 0; i < W; ++i) {
    auto same = model.d[i] == fast.d[i];
    if (has_p) {
      const auto p = d.bit(fast.p, i);
      same = same && ((model.p[i] && p) || (!model.p[i] && !p));
    }
    ok = ok && (!model.defined(d, i) || same);
  }
  return ok;
}

// ------------------------------------------------------------------------------- block barriers

/// The lean result of a block-wide barrier: threads as words of 32 (thread t is bit t % 32 of
/// word t / 32).
template <Domain D>
struct CtaLanes {
  typename D::W32 d;                      ///< the value every arriving thread receives
  std::vector<typename D::W32> executes;  ///< threads that pass the barrier with a result
  typename D::B any_ub;                   ///< some thread's barrier is undefined (then all are)
};

/// CUDA Programming Guide 10.6, __syncthreads{,_count,_and,_or} on 32 threads per word: the
/// count is a sum of popcounts, AND/OR are emptiness tests, and a missing non-exited thread
/// makes every arriving thread's barrier undefined.
template <Domain D>
CtaLanes<D> evaluate_cta_words(const D& d, const spec::Instr& in, const spec::CtaState<D>& s) {
  const spec::FormInfo& f = spec::form_info(in.form);
  const std::size_t n = s.arrive.size();
  auto count = d.w32(0);
  auto none_false = d.lit(true), some_true = d.lit(false), missing = d.lit(false);
  std::vector<typename D::W32> executes;
  for (std::size_t base = 0; base < n; base += 32) {
    auto here = d.w32(0), missing_here = d.w32(0), preds = d.w32(0);
    for (std::size_t t = base; t < n && t < base + 32; ++t) {
      const auto bit = static_cast<unsigned>(t - base);
      here = here | spec::bit_if(d, s.arrive[t] && !s.exited[t], bit);
      missing_here = missing_here | spec::bit_if(d, !s.arrive[t] && !s.exited[t], bit);
      preds = preds | spec::bit_if(d, s.pred[t] != d.w32(0), bit);
    }
    const auto p = in.negate ? ~preds : preds;
    count = count + d.popcount(here & p);
    none_false = none_false && spec::is_zero(d, here & ~p);
    some_true = some_true || !spec::is_zero(d, here & p);
    missing = missing || !spec::is_zero(d, missing_here);
    executes.push_back(here);
  }
  auto as_word = [&](const typename D::B& b) { return d.ite(b, d.w32(1), d.w32(0)); };
  auto value = d.w32(0);
  if (f.mode == spec::Mode::Popc) value = count;
  if (f.mode == spec::Mode::And) value = as_word(none_false);
  if (f.mode == spec::Mode::Or) value = as_word(some_true);
  return {value, std::move(executes), missing};
}

}  // namespace warpspec::fast
