#pragma once
// What each catalogued mutant answers, written once over the value domain like the semantics it
// corrupts: `vectors`/`check` read it concretely (vectors/mutants.cpp), the witness search reads
// it over Z3 (checker/witness.cpp). A mutant starts from the specification's outcome for the
// round and changes the state, the instruction or the answer. Mutants that keep state between
// instructions (a ballot register, a block accumulator) thread it through `carry`, which starts
// at `initial_carry` and is passed from one round to the next.
#include <array>
#include <vector>

#include "spec/semantics.hpp"
#include "vectors/mutants.hpp"

namespace warpspec::vectors {

/// What an implementation with a warp-level bug reports for one round.
template <spec::Domain D>
struct WarpAnswer {
  std::array<typename D::W32, spec::kWarpSize> d;
  std::array<typename D::B, spec::kWarpSize> p;
  typename D::B ub;  ///< it reports the round undefined (or never completes it)
  /// The 64-bit shuffle overloads (Instr::wide): d's high word per lane; empty otherwise.
  std::vector<typename D::W32> d_hi{};
};

/// What an implementation with a block-barrier bug reports for one round: the value every
/// arriving thread gets.
template <spec::Domain D>
struct CtaAnswer {
  std::vector<typename D::W32> d;  ///< per thread
  typename D::B ub;                ///< the implementation hangs or reports UB
};

/// The state a mutant carries into the first round.
template <spec::Domain D>
typename D::W32 initial_carry(const D& d, MutantId m, spec::FormId form) {
  const bool and_mode = spec::form_info(form).mode == spec::Mode::And;
  return d.w32(m == MutantId::CtaNotReset && and_mode ? 1 : 0);
}

namespace detail {

template <spec::Domain D>
typename D::W32 exited_lanes(const D& d, const spec::WarpState<D>& w) {
  auto x = d.w32(0);
  for (unsigned i = 0; i < spec::kWarpSize; ++i) x = x | spec::bit_if(d, w.exited[i], i);
  return x;
}

template <spec::Domain D>
typename D::W32 member_mask(const D& d, const spec::Instr& in, const spec::WarpState<D>& w,
                            unsigned i) {
  return in.imm_mask ? d.w32(*in.imm_mask) : w.mask[i];
}

template <spec::Domain D>
WarpAnswer<D> as_answer(const D& d, const spec::Outcome<D>& o) {
  return {o.d, o.p, d.lit(false), o.d_hi};
}

// Floating-point equality of two operands as a value-comparing match sees it: +0.0 equals -0.0,
// a NaN equals nothing.
template <spec::Domain D>
typename D::B float_equal(const D& d, const typename D::W64& x, const typename D::W64& y,
                          bool wide) {
  if (!wide) {
    const auto a = d.lo32(x), b = d.lo32(y);
    return !spec::f32_is_nan(d, a) && !spec::f32_is_nan(d, b) &&
           (a == b || spec::is_zero(d, spec::f32_abs(d, a | b)));
  }
  const auto abs = d.w64(0x7fffffffffffffffull);
  return !spec::f64_is_nan(d, x) && !spec::f64_is_nan(d, y) &&
         (x == y || ((x | y) & abs) == d.w64(0));
}

// The participants' operands added without wrapping and clamped to the type's range: the sum
// is kept in 64 bits, where 32 operands of 32 bits cannot overflow.
template <spec::Domain D>
typename D::W32 saturating_sum(const D& d, const spec::WarpState<D>& w, const typename D::W32& part,
                               bool is_signed) {
  const auto low = d.w64(0xffffffffull), high = d.w64(0xffffffff00000000ull);
  auto sum = d.w64(0);
  for (unsigned j = 0; j < spec::kWarpSize; ++j) {
    auto x = w.a[j] & low;
    if (is_signed) x = x | d.ite(d.bit(d.lo32(w.a[j]), 31), high, d.w64(0));
    sum = sum + d.ite(d.bit(part, j), x, d.w64(0));
  }
  if (!is_signed) return d.ite((sum & high) == d.w64(0), d.lo32(sum), d.w32(0xffffffffu));
  // Biased by 2^31, an in-range sum has a zero high half and one below the range is negative.
  const auto biased = sum + d.w64(0x80000000ull);
  const auto below = (biased & d.w64(0x8000000000000000ull)) != d.w64(0);
  return d.ite((biased & high) == d.w64(0), d.lo32(sum),
               d.ite(below, d.w32(0x80000000u), d.w32(0x7fffffffu)));
}

// A shuffle whose lane arithmetic has bug `m` (spec::shfl_source, changed in one place): each
// lane's d is the a of the lane it picks (a pick beyond lane 31 is read modulo 32, as an array
// index masked to the warp would be), and p whether it took that pick as in range. A 64-bit
// overload moves both words from that lane, as its two shuffles share the bug.
template <spec::Domain D>
WarpAnswer<D> shfl_mutant(const D& d, MutantId m, const spec::Instr& in,
                          const spec::WarpState<D>& w, const spec::Outcome<D>& ref) {
  using M = MutantId;
  const auto mode = spec::form_info(in.form).mode;
  auto o = as_answer(d, ref);
  const auto high = in.wide ? spec::high_words(d, w) : w;
  auto value_of = [&](const typename D::W32& j) { return spec::lane_word(d, w, j); };
  auto high_of = [&](const typename D::W32& j) { return spec::lane_word(d, high, j); };
  for (unsigned i = 0; i < spec::kWarpSize; ++i) {
    const auto b = spec::operand_b(d, in, w, i);
    const auto c = spec::operand_c(d, in, w, i);
    const auto bval = m == M::ShflBNotMasked ? b : b & d.w32(0x1f);
    const auto seg = m == M::ShflSegmentIgnored ? d.w32(0) : spec::five_bits_at(d, c, 8);
    const auto clamp = m != M::ShflClampIgnored    ? c & d.w32(0x1f)
                       : mode == spec::Mode::Up    ? d.w32(0)
                                                   : d.w32(0x1f);
    const auto lane = d.w32(i), first = lane & seg, bound = first | (clamp & ~seg);
    auto j = lane;
    auto ok = d.lit(false);
    switch (mode) {
      case spec::Mode::Up:
        j = lane + (~bval + d.w32(1));
        ok = m == M::ShflUpUnsigned       ? !d.ult(j, bound)
             : m == M::ShflUpPredOffByOne ? d.slt(bound, j)
                                          : !d.slt(j, bound);
        break;
      case spec::Mode::Down:
        j = lane + bval;
        ok = !d.ult(bound, j);
        if (m == M::ShflDownWraps) {
          j = d.ite(ok, j, first | (j & ~seg & d.w32(0x1f)));
          ok = d.lit(true);
        }
        break;
      case spec::Mode::Bfly:
        j = lane ^ bval;
        if (m == M::ShflBflyWithinSegment) j = first | (j & ~seg);
        ok = !d.ult(bound, j);
        break;
      default:  // Idx
        j = m == M::ShflIdxNoWrap ? first + bval : first | (bval & ~seg);
        ok = !d.ult(bound, j);
        break;
    }
    const auto src = d.ite(ok, j, lane) & d.w32(0x1f);
    o.d[i] = m == M::ShflOutOfRangeZero ? d.ite(ok, value_of(src), d.w32(0)) : value_of(src);
    if (in.wide)
      o.d_hi[i] = m == M::ShflOutOfRangeZero ? d.ite(ok, high_of(src), d.w32(0)) : high_of(src);
    if (m == M::ShflCopyThroughFloat)
      o.d[i] = d.ite(spec::f32_is_nan(d, o.d[i]), d.w32(spec::kCanonicalNanF32),
                     d.ite(o.d[i] == d.w32(0x80000000u), d.w32(0), o.d[i]));
    o.p[i] = ref.executes[i] && (m == M::ShflPredAlwaysTrue || ok);
  }
  if (m == M::ShflMaskMustEqualActive) {
    auto executing = d.w32(0);
    for (unsigned i = 0; i < spec::kWarpSize; ++i)
      executing = executing | spec::bit_if(d, ref.executes[i], i);
    o = as_answer(d, ref);
    for (unsigned i = 0; i < spec::kWarpSize; ++i)
      o.ub = o.ub || (ref.executes[i] && member_mask(d, in, w, i) != executing);
  }
  return o;
}

// The elect.sync mutants. `carry` counts the elections so far (elect_rotates).
template <spec::Domain D>
WarpAnswer<D> elect_mutant(const D& d, MutantId m, const spec::Instr& in,
                           const spec::WarpState<D>& w, const spec::Outcome<D>& ref,
                           typename D::W32& carry) {
  using M = MutantId;
  constexpr int W = spec::kWarpSize;
  auto o = as_answer(d, ref);
  for (unsigned i = 0; i < W; ++i) {
    const auto mask = member_mask(d, in, w, i) & d.w32(spec::full_mask<W>());
    switch (m) {
      case M::ElectPredOnEveryLane:
        o.p[i] = d.lit(true);
        break;
      case M::ElectEachLaneAlone:
        o.d[i] = d.w32(i);
        o.p[i] = d.lit(true);
        break;
      case M::ElectRankForLane:
        o.d[i] = d.w32(0);
        break;
      default: {  // ElectRotates: the lowest lane at or above the counter, else the lowest
        const auto start = carry & d.w32(W - 1);
        auto above = d.w32(0);
        for (unsigned j = 0; j < W; ++j) above = above | spec::bit_if(d, !d.ult(d.w32(j), start), j);
        const auto pick = d.ite(spec::is_zero(d, mask & above), mask, mask & above);
        o.d[i] = spec::lowest_lane<D, W>(d, pick);
        o.p[i] = o.d[i] == d.w32(i);
      }
    }
  }
  if (m == M::ElectRotates) carry = carry + d.w32(1);
  return o;
}

}  // namespace detail

/// The answer of a warp form with bug `m` on one round; `ref` is the specification's outcome
/// for the same round. A mutant that does not apply to the instruction answers `ref`.
template <spec::Domain D>
WarpAnswer<D> warp_mutant(const D& d, MutantId m, const spec::Instr& in,
                          const spec::WarpState<D>& w, const spec::Outcome<D>& ref, bool pre_volta,
                          typename D::W32& carry) {
  using M = MutantId;
  const auto& f = spec::form_info(in.form);
  auto o = detail::as_answer(d, ref);
  if (!applies(m, in)) return o;
  const auto exited = detail::exited_lanes(d, w);
  auto part = [&](unsigned i) { return detail::member_mask(d, in, w, i) & ~exited; };
  auto eval = [&](const spec::Instr& i2, const spec::WarpState<D>& w2) {
    return spec::evaluate_warp(d, i2, w2, pre_volta);
  };
  if (auto c = changed_instr(m, in)) {
    const auto got = eval(*c, w);
    if (m == M::MatchAllAsAny)  // only `d` comes from match.any
      o.d = got.d;
    else
      o = detail::as_answer(d, got);
    return o;
  }
  switch (m) {
    case M::MembermaskIgnored: {
      auto w2 = w;
      auto executing = d.w32(0);
      for (unsigned i = 0; i < spec::kWarpSize; ++i)
        executing = executing | spec::bit_if(d, w.exec[i] && !w.exited[i], i);
      for (auto& mk : w2.mask) mk = executing;
      auto i2 = in;
      i2.imm_mask.reset();
      return detail::as_answer(d, eval(i2, w2));
    }
    case M::ExitedCounted: {
      auto w2 = w;
      for (unsigned i = 0; i < spec::kWarpSize; ++i) {
        w2.exec[i] = w.exec[i] || w.exited[i];
        w2.exited[i] = d.lit(false);
      }
      return detail::as_answer(d, eval(in, w2));
    }
    case M::Match64LowHalf:
    case M::ReduxBitwiseOnLogical:
    case M::F32ZeroOrderIgnored: {
      auto w2 = w;
      for (auto& a : w2.a) {
        const auto x = d.lo32(a);
        if (m == M::Match64LowHalf)
          a = a & d.w64(0xffffffffull);
        else if (m == M::ReduxBitwiseOnLogical)
          a = d.ite(spec::is_zero(d, x), d.w64(0), d.w64(1));
        else  // -0.0 read as +0.0
          a = d.ite(x == d.w32(0x80000000u), d.w64(0), a);
      }
      return detail::as_answer(d, eval(in, w2));
    }
    case M::StaleBallotBits: {
      // The warp's ballot register: this round's executing lanes refresh the bits of their
      // participants, and a lane sees every other bit as an earlier ballot left it.
      auto fresh = d.w32(0), covered = d.w32(0);
      for (unsigned i = 0; i < spec::kWarpSize; ++i) {
        fresh = fresh | d.ite(ref.executes[i], ref.d[i], d.w32(0));
        covered = covered | d.ite(ref.executes[i], part(i), d.w32(0));
      }
      carry = (carry & ~covered) | fresh;
      for (unsigned i = 0; i < spec::kWarpSize; ++i) o.d[i] = ref.d[i] | (carry & ~part(i));
      return o;
    }
    case M::FloatMatchByValue: {
      const bool wide = f.a_type == spec::OperandType::B64;
      for (unsigned i = 0; i < spec::kWarpSize; ++i) {
        auto eq = d.w32(0);
        for (unsigned j = 0; j < spec::kWarpSize; ++j)
          eq = eq | spec::bit_if(
                        d, d.bit(part(i), j) && detail::float_equal(d, w.a[j], w.a[i], wide), j);
        const auto all = eq == part(i);
        o.d[i] = f.mode == spec::Mode::Any ? eq : d.ite(all, part(i), d.w32(0));
        o.p[i] = all;
      }
      return o;
    }
    case M::MatchAnyWithoutSelf:
      for (unsigned i = 0; i < spec::kWarpSize; ++i) o.d[i] = ref.d[i] & ~spec::lane_bit(d, i);
      return o;
    case M::MatchAllPredInverted:
      for (auto& p : o.p) p = !p;
      return o;
    case M::MatchAllGivesMembermask:
      for (unsigned i = 0; i < spec::kWarpSize; ++i)
        o.d[i] = d.ite(ref.executes[i] && ref.p[i], detail::member_mask(d, in, w, i), ref.d[i]);
      return o;
    case M::VoteUniInverted:
      for (auto& x : o.d) x = d.ite(spec::is_zero(d, x), d.w32(1), d.w32(0));
      return o;
    case M::ReduxIdentityZero: {
      const bool s = f.a_type == spec::OperandType::S32;
      for (auto& x : o.d) {
        const auto below = s ? d.slt(x, d.w32(0)) : d.lit(false);
        x = f.mode == spec::Mode::Min ? d.ite(below, x, d.w32(0)) : d.ite(below, d.w32(0), x);
      }
      return o;
    }
    case M::ReduxAddSaturates: {
      const bool s = f.a_type == spec::OperandType::S32;
      for (unsigned i = 0; i < spec::kWarpSize; ++i)
        o.d[i] = detail::saturating_sum(d, w, part(i), s);
      return o;
    }
    case M::F32NanNotCanonical:
      // The lowest participant's NaN, as it reached the reduction, instead of the canonical one.
      for (unsigned i = 0; i < spec::kWarpSize; ++i) {
        auto first = ref.d[i];
        for (unsigned j = spec::kWarpSize; j-- > 0;) {
          auto x = d.lo32(w.a[j]);
          if (f.abs) x = spec::f32_abs(d, x);
          first = d.ite(d.bit(part(i), j) && spec::f32_is_nan(d, x), x, first);
        }
        o.d[i] =
            d.ite(ref.executes[i] && ref.d[i] == d.w32(spec::kCanonicalNanF32), first, ref.d[i]);
      }
      return o;
    case M::SyncwarpWaitsForExited:
      for (unsigned i = 0; i < spec::kWarpSize; ++i)
        o.ub = o.ub ||
               (ref.executes[i] && !spec::is_zero(d, detail::member_mask(d, in, w, i) & exited));
      return o;
    case M::ActivemaskAllOnes:
    case M::ActivemaskAliveLanes:
    case M::ActivemaskExitedCounted:
    case M::ActivemaskIgnoresSite:
    case M::ActivemaskSelfOnly: {
      auto executing = d.w32(0);
      for (unsigned i = 0; i < spec::kWarpSize; ++i)
        executing = executing | spec::bit_if(d, ref.executes[i], i);
      for (unsigned i = 0; i < spec::kWarpSize; ++i) {
        if (m == M::ActivemaskAllOnes) o.d[i] = d.w32(0xffffffffu);
        if (m == M::ActivemaskAliveLanes) o.d[i] = ~exited;
        if (m == M::ActivemaskExitedCounted) o.d[i] = ref.d[i] | exited;
        if (m == M::ActivemaskIgnoresSite) o.d[i] = executing;
        if (m == M::ActivemaskSelfOnly) o.d[i] = spec::lane_bit(d, i);
      }
      return o;
    }
    case M::ShflLowWordOnly:
      // The high word never moves: each lane keeps its own.
      for (unsigned i = 0; i < spec::kWarpSize; ++i) o.d_hi[i] = d.lo32(d.shr32(w.a[i]));
      return o;
    case M::ShflSegmentIgnored:
    case M::ShflClampIgnored:
    case M::ShflIdxNoWrap:
    case M::ShflUpPredOffByOne:
    case M::ShflUpUnsigned:
    case M::ShflBflyWithinSegment:
    case M::ShflDownWraps:
    case M::ShflOutOfRangeZero:
    case M::ShflBNotMasked:
    case M::ShflPredAlwaysTrue:
    case M::ShflMaskMustEqualActive:
    case M::ShflCopyThroughFloat:
      return detail::shfl_mutant(d, m, in, w, ref);
    case M::ElectPredOnEveryLane:
    case M::ElectEachLaneAlone:
    case M::ElectRankForLane:
    case M::ElectRotates:
      return detail::elect_mutant(d, m, in, w, ref, carry);
    default:  // the block-barrier mutants
      return o;
  }
}

namespace detail {

/// The block barrier's answer when it runs instruction `in` on state `c` as the specification
/// does: the bugs below change the instruction or the state and let it run.
template <spec::Domain D>
CtaAnswer<D> cta_as(const D& d, const spec::Instr& in, const spec::CtaState<D>& c) {
  auto o = spec::eval_cta(d, in, c);
  return {std::move(o.d), o.any_ub};
}

/// Whether some thread waiting at a barrier is left there when arrivals are counted per thread:
/// the live threads at its barrier must fill whole phases of the count.
template <spec::Domain D>
typename D::B stuck_counting_threads(const D& d, const spec::Instr& in,
                                     const spec::CtaState<D>& c) {
  const auto n = c.arrive.size();
  // Per barrier the mutant can see: the live threads there and whether they fill whole phases.
  std::vector<uint32_t> ks;
  if (in.imm_bar) ks.push_back(*in.imm_bar);
  else
    for (uint32_t k = 0; k < spec::kCtaBarriers; ++k) ks.push_back(k);
  std::vector<typename D::B> fills;
  for (uint32_t k : ks) {
    auto live = d.w32(0), cnt = d.w32(0);
    for (std::size_t u = n; u-- > 0;) {
      const auto at = c.arrive[u] && !c.exited[u] && spec::operand_bar(d, in, c, u) == d.w32(k);
      live = live + d.ite(at, d.w32(1), d.w32(0));
      cnt = d.ite(at, spec::operand_count(d, in, c, u), cnt);
    }
    fills.push_back(spec::fills_phases(d, cnt, live, (n + 31) / 32));
  }
  auto stuck = d.lit(false);
  for (std::size_t t = 0; t < n; ++t) {
    const auto here = c.arrive[t] && !c.exited[t];
    // bar.sync waits and its bar.arrive partners do not; bar.arrive's bar.sync partners wait.
    const auto waiting = in.form == spec::FormId::BarArrive ? here && c.partner[t]
                         : in.form == spec::FormId::BarSync ? here && !c.partner[t]
                                                             : here;
    auto ok = d.lit(false);
    for (std::size_t j = 0; j < ks.size(); ++j)
      ok = ok || (spec::operand_bar(d, in, c, t) == d.w32(ks[j]) && fills[j]);
    stuck = stuck || (waiting && !ok);
  }
  return stuck;
}

}  // namespace detail

/// The answer of a block barrier with bug `m` on one round; `ref` is the specification's
/// outcome for the same round.
template <spec::Domain D>
CtaAnswer<D> cta_mutant(const D& d, MutantId m, const spec::Instr& in, const spec::CtaState<D>& c,
                        const spec::CtaOutcome<D>& ref, typename D::W32& carry) {
  using M = MutantId;
  const auto mode = spec::form_info(in.form).mode;
  CtaAnswer<D> o{ref.d, d.lit(false)};
  if (!applies(m, in)) return o;
  const auto n = c.arrive.size();
  auto everywhere = [&](const typename D::W32& v) {
    for (std::size_t t = 0; t < n; ++t) o.d[t] = d.ite(ref.executes[t], v, d.w32(0));
  };
  switch (m) {
    case M::CtaNotReset: {
      // The accumulator is never cleared: this barrier's value is folded into the last one's.
      auto arriving = d.lit(false);
      auto now = d.w32(0);
      for (std::size_t t = n; t-- > 0;) {
        arriving = arriving || ref.executes[t];
        now = d.ite(ref.executes[t], ref.d[t], now);
      }
      const auto truth = [&](const typename D::W32& x) { return !spec::is_zero(d, x); };
      if (mode == spec::Mode::Popc)
        carry = carry + now;
      else if (mode == spec::Mode::And)
        carry = d.ite(truth(carry) && (!arriving || truth(now)), d.w32(1), d.w32(0));
      else
        carry = d.ite(truth(carry) || (arriving && truth(now)), d.w32(1), d.w32(0));
      everywhere(carry);
      return o;
    }
    case M::CtaExitedCounted: {
      auto c2 = c;
      for (std::size_t t = 0; t < n; ++t) {
        c2.arrive[t] = c.arrive[t] || c.exited[t];
        c2.exited[t] = d.lit(false);
      }
      o.d = spec::eval_cta(d, in, c2).d;
      return o;
    }
    case M::CtaCountSumsValues:
    case M::CtaAndBitwise: {
      auto sum = d.w32(0), all = d.w32(0xffffffffu);
      for (std::size_t t = 0; t < n; ++t) {
        const auto live = c.arrive[t] && !c.exited[t];
        const auto x =
            in.negate ? d.ite(spec::is_zero(d, c.pred[t]), d.w32(1), d.w32(0)) : c.pred[t];
        sum = sum + d.ite(live, x, d.w32(0));
        all = all & d.ite(live, x, d.w32(0xffffffffu));
      }
      everywhere(m == M::CtaCountSumsValues ? sum : d.ite(spec::is_zero(d, all), d.w32(0), d.w32(1)));
      return o;
    }
    case M::CtaWaitsForExited:
      // Without a count the whole block is awaited; with one, the warps that arrive.
      for (std::size_t t = 0; t < n; ++t) {
        auto awaited = d.lit(!in.has_count);
        for (std::size_t u = t / 32 * 32; u < n && u < t / 32 * 32 + 32; ++u)
          awaited = awaited || (c.arrive[u] && !c.exited[u]);
        o.ub = o.ub || (c.exited[t] && awaited);
      }
      return o;
    case M::CtaCountIgnored: {
      auto in2 = in;
      in2.has_count = false;
      in2.imm_count.reset();
      return detail::cta_as(d, in2, c);
    }
    case M::CtaArriveWaits: {
      auto in2 = in;
      in2.form = spec::FormId::BarSync;
      auto c2 = c;  // every thread now waits: bar.arrive's own and its bar.sync partners
      for (std::size_t t = 0; t < n; ++t) c2.partner[t] = d.lit(false);
      auto r = detail::cta_as(d, in2, c2);
      return {o.d, r.ub};
    }
    case M::CtaArrivalsPerThread:
      o.ub = detail::stuck_counting_threads(d, in, c);
      return o;
    case M::CtaBarrierNumberIgnored: {
      // One barrier for the block, with the count the first arriving thread gives (as an
      // implementation that reads a and b once per block does).
      auto c2 = c;
      auto first = d.w32(0);
      for (std::size_t t = n; t-- > 0;)
        first = d.ite(c.arrive[t] && !c.exited[t], spec::operand_count(d, in, c, t), first);
      for (std::size_t t = 0; t < n; ++t) {
        c2.bar[t] = d.w32(0);
        c2.count[t] = first;
      }
      return detail::cta_as(d, in, c2);
    }
    case M::CtaPartnerNotCounted: {
      auto c2 = c;
      for (std::size_t t = 0; t < n; ++t) c2.arrive[t] = c.arrive[t] && !c.partner[t];
      auto r = detail::cta_as(d, in, c2);
      return {o.d, r.ub};
    }
    default:  // the warp-level mutants
      return o;
  }
}

}  // namespace warpspec::vectors
