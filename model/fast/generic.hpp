#pragma once
// The fast implementation's algorithms, once, over the value domain: whole lane sets per step,
// never one lane pair at a time where a word operation will do. Instantiated with the concrete
// domain this is the portable path; instantiated symbolically it is what gets proved equal to
// the model. The AVX-512 kernels (avx512.cpp) compute the same words with vector instructions,
// with departures that the exhaustive small-width tests (tests/fast/twins_test.cpp) cover:
// when every executing lane passes one mask they take a scalar shortcut, they reduce (redux)
// once per group of lanes sharing a mask, with trees of minima where this text keeps a running
// one, and match.all compares each lane with its group's lowest lane.
//
// Equivalence with the model is Alive2's order: the same UB clauses on the same lanes, the same
// executing lanes, the same lanes whose d alone is left undefined (the shuffles), the same p on
// every lane the model defines (spec::Outcome::defined) and the same d on every lane whose d it
// defines (spec::Outcome::d_defined). The algorithms here deliver more: the model's d on every
// executing lane on which no UB clause fires and no clause leaves d open; where one computes a
// value only on such lanes, it says so.
#include <array>
#include <cstddef>
#include <memory_resource>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include "model/fast/warp_words.hpp"
#include "spec/cta.hpp"
#include "spec/redux.hpp"
#include "spec/shfl.hpp"

namespace warpspec::fast {

/// At most this many UB clauses belong to one warp form.
inline constexpr int kMaxUbTerms = static_cast<int>(spec::kMaxWarpUb);

/// The UB clauses of a warp form in the order the model reports them (`Lanes::ub` follows it).
constexpr std::span<const spec::ClauseId> ub_clauses(spec::FormId form) {
  return spec::warp_ub_clauses(form);
}

/// The clause of a warp form that leaves d alone undefined on some lanes (kind UndefinedValue;
/// the shuffles' source_undefined), or nothing. `Lanes::loose_d` carries its lanes.
constexpr std::optional<spec::ClauseId> loose_d_clause(spec::FormId form) {
  for (const auto c : spec::form_info(form).clauses)
    if (spec::clause_info(c).kind == spec::ClauseKind::UndefinedValue) return c;
  return std::nullopt;
}

// `Lanes` holds one word for such a clause: no form may state two.
static_assert([] {
  for (const auto& f : spec::kForms) {
    int n = 0;
    for (const auto c : f.clauses)
      n += spec::clause_info(c).kind == spec::ClauseKind::UndefinedValue;
    if (n > 1) return false;
  }
  return true;
}());

/// The lean result of one warp instruction: everything as words but the per-lane destination.
template <Domain D, int W>
struct Lanes {
  Rows<D, W> d;              ///< destination per lane (0/1 for predicates); see `d_defined`
  typename D::W32 p;         ///< match.all's and the shuffles' predicate, one bit per lane
  typename D::W32 executes;  ///< lanes that execute
  std::array<typename D::W32, kMaxUbTerms> ub;  ///< lanes per clause of `ub_clauses(form)`
  /// Lanes whose d the clause `loose_d_clause(form)` leaves undefined (p stays defined there);
  /// zero for a form without one.
  typename D::W32 loose_d;

  /// Lanes on which some UB clause fires.
  typename D::W32 ub_lanes() const {
    auto any = ub[0];
    for (int k = 1; k < kMaxUbTerms; ++k) any = any | ub[k];
    return any;
  }
  /// Executing lanes on which no UB clause fires. The generic algorithms compute the model's d
  /// on all of these (a superset of the defined lanes); the kernels skip values under any UB.
  typename D::W32 lanes_without_ub() const { return executes & ~ub_lanes(); }
  /// Lanes whose d (and p) the spec pins down, as spec::Outcome::defined reads it: they execute
  /// and no UB clause fires on any lane.
  typename D::W32 defined(const D& d = D{}) const {
    return d.ite(spec::is_zero(d, ub_lanes()), executes, d.w32(0));
  }
  /// Lanes whose d the spec pins down, as spec::Outcome::d_defined reads it: defined lanes
  /// outside `loose_d`.
  typename D::W32 d_defined(const D& d = D{}) const { return defined(d) & ~loose_d; }
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

/// PTX ISA 9.7.13.10, match.all: the taking-part set (and p) when all of it holds lane i's
/// value, else 0. The same equal-set matrix as match.any: a lane's row minus its equal set must
/// be empty. (The AVX-512 kernel compares each lane with its lowest taking-part lane instead,
/// one gather per lane; on lanes without UB the two agree, since every taking-part lane then
/// passes the same mask.)
template <Domain D, int W>
std::pair<Rows<D, W>, typename D::W32> match_all_rows(const D& d, const spec::WarpState<D, W>& s,
                                                      const LaneWords<D, W>& v, bool wide) {
  const auto eq = equal_sets_of<D, W>(d, [&](unsigned i, unsigned j) {
    return wide ? s.a[i] == s.a[j] : d.lo32(s.a[i]) == d.lo32(s.a[j]);
  });
  const auto part = participant_rows(d, v);
  const auto ok = spec::lanes_of<W>([&](unsigned i) { return spec::is_zero(d, part[i] & ~eq[i]); });
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

/// `x[0] op x[1] op ... op x[n-1]` as a balanced tree (the operator is associative).
template <class T, std::size_t N, class Op>
T tree_reduce(std::array<T, N> x, Op&& op) {
  // Each level pairs neighbours (an odd last one goes up alone) and is written over the front
  // of the one below: element k of a level reads elements 2k and 2k+1, never one already
  // overwritten, and no level needs storage of its own.
  for (std::size_t n = N; n > 1; n = (n + 1) / 2) {
    for (std::size_t j = 0; j + 1 < n; j += 2) x[j / 2] = op(x[j], x[j + 1]);
    if (n % 2) x[n / 2] = x[n - 1];
  }
  return x[0];
}

/// The running extreme over the lanes of `set`, in lane order: a lane's key replaces the
/// accumulator when it is strictly better. `start` is returned when `set` is empty.
template <Domain D, int W, class Better>
typename D::W32 running_extreme(const D& d, const Rows<D, W>& keys, const typename D::W32& set,
                                typename D::W32 start, Better&& better) {
  for (unsigned j = 0; j < W; ++j)
    start = d.ite(d.bit(set, j) && better(keys[j], start), keys[j], start);
  return start;
}

}  // namespace detail

/// PTX ISA 9.7.13.12, redux.sync on .u32/.s32/.b32. Per lane, its participant row selects
/// operands (the others become the operator's identity, a word operation per lane), then
/// add/and/or/xor reduce as a balanced tree, the shape of the AVX-512 kernel. min/max keep a
/// running extreme in lane order: the kernel's tree of minima is covered by the exhaustive
/// small-width twin tests, and the lane order makes the equivalence proof a rewrite instead of
/// a search over orders.
template <Domain D, int W>
Rows<D, W> redux_int_rows(const D& d, const spec::FormInfo& f, const spec::WarpState<D, W>& s,
                          const LaneWords<D, W>& v) {
  const bool is_signed = f.a_type == spec::OperandType::S32;
  const auto x = spec::lanes_of<W>([&](unsigned j) { return d.lo32(s.a[j]); });
  const auto part = participant_rows(d, v);
  const auto identity = d.w32(spec::redux_identity(f));
  auto selected = [&](const typename D::W32& set) {
    return spec::lanes_of<W>([&](unsigned j) { return d.ite(d.bit(set, j), x[j], identity); });
  };
  using W32 = typename D::W32;
  return spec::lanes_of<W>([&](unsigned i) {
    const auto set = part[i];
    switch (f.mode) {
      case spec::Mode::Add:
        return detail::tree_reduce(selected(set), [](const W32& a, const W32& b) { return a + b; });
      case spec::Mode::And:
        return detail::tree_reduce(selected(set), [](const W32& a, const W32& b) { return a & b; });
      case spec::Mode::Or:
        return detail::tree_reduce(selected(set), [](const W32& a, const W32& b) { return a | b; });
      case spec::Mode::Xor:
        return detail::tree_reduce(selected(set), [](const W32& a, const W32& b) { return a ^ b; });
      default: {  // Min, Max
        const bool max = f.mode == spec::Mode::Max;
        return detail::running_extreme<D, W>(
            d, x, set, identity, [&](const W32& k, const W32& acc) {
              const auto& [lo, hi] = max ? std::pair{acc, k} : std::pair{k, acc};
              return is_signed ? d.slt(lo, hi) : d.ult(lo, hi);
            });
      }
    }
  });
}

/// PTX ISA 9.7.13.12, redux.sync .f32 min/max: the extreme order key (`f32_order_key`, where
/// -0.0 < +0.0) over the non-NaN participants (one word: the row minus the NaN lanes), decoded
/// back to a bit pattern; the canonical NaN when no non-NaN value takes part or, with .NaN,
/// when any NaN does.
template <Domain D, int W>
Rows<D, W> redux_f32_rows(const D& d, const spec::FormInfo& f, const spec::WarpState<D, W>& s,
                          const LaneWords<D, W>& v) {
  const auto x = spec::lanes_of<W>([&](unsigned j) {
    const auto w = d.lo32(s.a[j]);
    return f.abs ? spec::f32_abs(d, w) : w;
  });
  const auto nan = pack_where<D, W>(d, [&](unsigned j) { return spec::f32_is_nan(d, x[j]); });
  const auto keys = spec::lanes_of<W>([&](unsigned j) { return spec::f32_order_key(d, x[j]); });
  const auto part = participant_rows(d, v);
  const bool max = f.mode == spec::Mode::Max;
  return spec::lanes_of<W>([&](unsigned i) {
    const auto numbers = part[i] & ~nan;
    const auto key = detail::running_extreme<D, W>(
        d, keys, numbers, d.w32(spec::redux_identity(f)),
        [&](const auto& k, const auto& acc) { return max ? d.ult(acc, k) : d.ult(k, acc); });
    const auto none = spec::is_zero(d, numbers);
    const auto give_nan = f.nan ? none || !spec::is_zero(d, part[i] & nan) : none;
    return d.ite(give_nan, d.w32(spec::kCanonicalNanF32), spec::f32_from_order_key(d, key));
  });
}

// ------------------------------------------------------------------------------- activemask

/// PTX ISA 9.7.13.11, activemask: each executing lane's row of same-site lanes, limited to the
/// executing ones (the same matrix the sm_6x convergence rule reads).
template <Domain D, int W>
Rows<D, W> activemask_rows(const D& d, const spec::WarpState<D, W>& s, const LaneWords<D, W>& v) {
  const auto site = same_site_rows(d, s);
  return spec::lanes_of<W>([&](unsigned i) { return site[i] & v.execs; });
}

// ------------------------------------------------------------------------------- shfl.sync

/// `1 << (x & 31)` without a shift: each of x's five low bits keeps the half of the lanes whose
/// own index agrees with it in that bit (the kernels' vpsllvd of 1 by the source lane).
template <Domain D>
typename D::W32 one_hot(const D& d, const typename D::W32& x) {
  constexpr uint32_t kOnes[5] = {0xaaaaaaaau, 0xccccccccu, 0xf0f0f0f0u, 0xff00ff00u, 0xffff0000u};
  auto acc = d.w32(0xffffffffu);
  for (unsigned k = 0; k < 5; ++k)
    acc = acc & d.ite(d.bit(x, k), d.w32(kOnes[k]), d.w32(~kOnes[k]));
  return acc;
}

/// What a shuffle gives: d per lane, p as a word, and the lanes whose d is left undefined.
template <Domain D, int W>
struct ShflWords {
  Rows<D, W> d;
  typename D::W32 p, loose_d;
};

/// PTX ISA 9.7.9.6, shfl.sync: each lane reads the low word of a source lane's a. What is per
/// lane in any reading is the spec's own text: the lane arithmetic (`shfl_source`, which the
/// kernels compute on 16-lane vectors) and the copy (`lane_word`, one vpermi2d per 16 lanes in
/// the kernels; both readings being one term, the proof spends nothing on it). The rest is words:
/// p is the in-range lanes among the executing ones, and d is undefined where the source lane's
/// bit misses the executing lanes the reader's membermask names.
template <Domain D, int W>
ShflWords<D, W> shfl_words(const D& d, const spec::Instr& in, const spec::WarpState<D, W>& s,
                           const LaneWords<D, W>& v) {
  const auto mode = spec::form_info(in.form).mode;
  const auto src = spec::lanes_of<W>([&](unsigned i) {
    return spec::shfl_source(d, mode, i, spec::operand_b(d, in, s, i),
                             spec::operand_c(d, in, s, i));
  });
  return {spec::lanes_of<W>([&](unsigned i) { return spec::lane_word(d, s, src[i].lane); }),
          v.execs & pack_where<D, W>(d, [&](unsigned i) { return src[i].in_range; }),
          v.execs & pack_where<D, W>(d, [&](unsigned i) {
            return spec::is_zero(d, one_hot(d, src[i].lane) & v.execs & v.mask[i]);
          })};
}

// ------------------------------------------------------------------------------- the forms

// ------------------------------------------------------------------------------- elect.sync

/// What elect.sync gives: d per lane and p as a word.
template <Domain D, int W>
struct ElectWords {
  Rows<D, W> d;
  typename D::W32 p;
};

/// PTX ISA 9.7.13, elect.sync, with the model's choice of leader (the lowest lane of the
/// membermask): m & -m keeps that lane's bit, and the count of the bits below it is its number.
/// p holds the executing lanes whose own bit that is.
template <Domain D, int W>
ElectWords<D, W> elect_words(const D& d, const LaneWords<D, W>& v) {
  const auto low =
      spec::lanes_of<W>([&](unsigned i) { return v.mask[i] & (~v.mask[i] + d.w32(1)); });
  return {spec::lanes_of<W>([&](unsigned i) {
            return d.ite(spec::is_zero(d, low[i]), d.w32(0), d.popcount(low[i] + d.w32(~0u)));
          }),
          v.execs & pack_where<D, W>(d, [&](unsigned i) { return d.bit(low[i], i); })};
}

/// Evaluates a warp form (any family but the block barriers) on a warp state; `pre_volta`
/// selects the sm_6x rules. Agrees with `spec::evaluate_warp` in the sense stated at the top of
/// this file.
template <Domain D, int W>
Lanes<D, W> evaluate_lanes(const D& d, const spec::Instr& in, const spec::WarpState<D, W>& s,
                           bool pre_volta) {
  const spec::FormInfo& f = spec::form_info(in.form);
  const auto v = lane_words(d, s, in);
  const auto zero = d.w32(0);
  // The three UB terms every rendezvous form carries (activemask waits for no one: none).
  const bool rendezvous = !ub_clauses(in.form).empty();
  Lanes<D, W> out{
      spec::lanes_of<W>([&](unsigned) { return zero; }),
      zero,
      v.execs,
      {rendezvous ? ub_self_not_in_mask(d, v) : zero, rendezvous ? ub_peer_absent(d, v) : zero,
       rendezvous ? ub_mask_mismatch(d, v) : zero, zero},
      zero};
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
      if (pre_volta) out.ub[3] = ub_sm6x_named_converged(d, s, v);
      break;
    case spec::Family::Shfl: {
      auto r = shfl_words(d, in, s, v);
      out.d = r.d;
      out.p = r.p;
      out.loose_d = r.loose_d;
      if (pre_volta) out.ub[3] = ub_sm6x_named_converged(d, s, v);
      break;
    }
    case spec::Family::Redux:
      out.d = f.a_type == spec::OperandType::F32 ? redux_f32_rows(d, f, s, v)
                                                 : redux_int_rows(d, f, s, v);
      break;
    case spec::Family::WarpBarrier:
      if (pre_volta)
        out.ub[3] = ub_not_converged(d, v, same_site_rows(d, s)) |
                    d.ite(union_of_masks(d, v) != v.execs, v.execs, zero);
      break;
    case spec::Family::Activemask:
      out.d = activemask_rows(d, s, v);
      break;
    case spec::Family::Elect: {
      auto r = elect_words(d, v);
      out.d = r.d;
      out.p = r.p;
      // Exited lanes are not excused from the wait (spec::ub_named_lane_missing).
      out.ub[1] = v.execs & pack_where<D, W>(d, [&](unsigned i) {
                    return !spec::is_zero(d, v.mask[i] & ~v.execs);
                  });
      break;
    }
    case spec::Family::CtaBarrier:
      break;  // evaluated by `evaluate_cta_words`
  }
  return out;
}

/// The equivalence the fast implementation promises, as one formula over the domain (Alive2's
/// order): every UB clause fires on the same lanes, the same lanes execute, the same lanes have
/// a d left undefined (shuffles), p agrees on every lane the model defines (match.all and the
/// shuffles) and d on every lane whose d it defines. A proof asserts its negation.
template <Domain D, int W>
typename D::B agrees_with_model(const D& d, const spec::Instr& in, const spec::Outcome<D, W>& model,
                                const Lanes<D, W>& fast) {
  auto ok = pack<D, W>(d, model.executes) == fast.executes;
  for (std::size_t k = 0; k < kMaxUbTerms; ++k)
    ok = ok &&
         (k < model.ub.size() ? model.ub[k].lanes == fast.ub[k] : spec::is_zero(d, fast.ub[k]));
  ok = ok && model.loose_d_lanes(d) == fast.loose_d;
  const bool has_p = spec::form_info(in.form).optional_p;
  for (unsigned i = 0; i < W; ++i) {
    if (has_p) {
      const auto p = d.bit(fast.p, i);
      ok = ok && (!model.defined(d, i) || (model.p[i] && p) || (!model.p[i] && !p));
    }
    ok = ok && (!model.d_defined(d, i) || model.d[i] == fast.d[i]);
  }
  return ok;
}

// ------------------------------------------------------------------------------- block barriers

/// The lean result of a block-wide barrier: threads as words of 32 (thread t is bit t % 32 of
/// word t / 32).
template <Domain D>
struct CtaLanes {
  std::vector<typename D::W32> d;         ///< per thread: the value its barrier gives
  std::vector<typename D::W32> executes;  ///< threads that execute this instruction
  /// Per UB clause of the form (spec::kCtaUb order, filtered by the form): its threads as words.
  std::vector<std::pair<spec::ClauseId, std::vector<typename D::W32>>> ub;
  typename D::B any_ub;
};

/// True for a domain whose words are plain integers: the block-barrier text then takes a few
/// shortcuts that compute the same words without a chain of selections per thread.
template <Domain D>
inline constexpr bool kConcrete = std::is_integral_v<typename D::W32>;

/// PTX ISA 9.7.13.1 (bar, barrier) one warp at a time: a warp's threads at barrier k are one
/// word, the warp has arrived when that word and its exited threads cover the warp, and the
/// barrier's arrivals are 32 per such warp. An immediate barrier number and count (the usual
/// spelling) keep every test a word test; register operands are compared thread by thread
/// (concrete words read a thread's barrier by its number).
template <Domain D>
CtaLanes<D> evaluate_cta_words(const D& d, const spec::Instr& in, const spec::CtaState<D>& s) {
  using B = typename D::B;
  using W = typename D::W32;
  // The working words live in a buffer on the stack (a heap block only past it), so that a
  // concrete evaluation of a small block allocates nothing but its answer. Concrete flags are
  // bytes: a vector<bool> would pay a shift and a mask on every read.
  using F = std::conditional_t<std::is_same_v<B, bool>, uint8_t, B>;
  std::array<std::byte, 8192> buffer;
  std::pmr::monotonic_buffer_resource arena(buffer.data(), buffer.size());
  auto vec = [&]<class T>(std::size_t count, const T& x) {
    return std::pmr::vector<T>(count, x, &arena);
  };
  const spec::FormInfo& f = spec::form_info(in.form);
  const bool red = f.mode != spec::Mode::None;
  const std::size_t n = s.arrive.size(), warps = (n + 31) / 32;
  const uint32_t nk = in.imm_bar ? 1u : spec::kCtaBarriers;
  auto k_of = [&](uint32_t j) { return in.imm_bar ? *in.imm_bar : j; };
  auto word = [&](std::size_t w, auto&& bit) {
    W x = d.w32(0);
    for (std::size_t t = w * 32; t < n && t < w * 32 + 32; ++t)
      x = x | spec::bit_if(d, bit(t), static_cast<unsigned>(t - w * 32));
    return x;
  };
  auto valid = [&](std::size_t w) {
    const std::size_t m = std::min<std::size_t>(32, n - w * 32);
    return d.w32(m == 32 ? 0xffffffffu : (1u << m) - 1u);
  };
  std::pmr::vector<W> here(&arena), exited(&arena), partner(&arena), truth(&arena);
  // One pass over the threads gathers the four words of each warp (for plain words, reading
  // each thread's flags once, in order).
  for (auto* x : {&here, &exited, &partner, &truth}) x->resize(warps, d.w32(0));
  for (std::size_t t = 0; t < n; ++t) {
    const std::size_t w = t / 32;
    const unsigned b = static_cast<unsigned>(t % 32);
    const B gone = s.exited[t];
    here[w] = here[w] | spec::bit_if(d, s.arrive[t] && !gone, b);
    exited[w] = exited[w] | spec::bit_if(d, gone, b);
    partner[w] = partner[w] | spec::bit_if(d, s.partner[t], b);
    truth[w] = truth[w] | spec::bit_if(d, s.pred[t] != d.w32(0), b);
  }
  if (in.negate)
    for (auto& x : truth) x = ~x;
  // at[j][w]: the warp's threads standing at barrier k_of(j). With concrete register operands,
  // from one pass that puts each thread's bit at the barrier it names and notes the lowest
  // thread at each (lowest[j], n when none).
  std::pmr::vector<std::pmr::vector<W>> at(nk, vec(warps, d.w32(0)), &arena);
  auto lowest = vec(nk, n);
  if (in.imm_bar || !kConcrete<D>) {
    for (uint32_t j = 0; j < nk; ++j)
      for (std::size_t w = 0; w < warps; ++w)
        at[j][w] = in.imm_bar
                       ? here[w]
                       : here[w] & word(w, [&](std::size_t t) { return s.bar[t] == d.w32(j); });
  } else if constexpr (kConcrete<D>) {
    for (std::size_t t = n; t-- > 0;)
      if (s.arrive[t] && !s.exited[t] && s.bar[t] < nk) {
        at[s.bar[t]][t / 32] |= 1u << (t % 32);
        lowest[s.bar[t]] = t;
      }
  }
  // Thread t stands at barrier k_of(j): the register path asks thread by thread.
  auto stands_at = [&](std::size_t t, uint32_t j) {
    return s.arrive[t] && !s.exited[t] && (in.imm_bar ? d.lit(true) : s.bar[t] == d.w32(j));
  };

  const W block = d.w32(static_cast<uint32_t>(32 * warps));
  auto ref = vec(nk, d.w32(0)), arrivals = vec(nk, d.w32(0)), popc = vec(nk, d.w32(0));
  auto complete = vec(nk, F(d.lit(false))), all = vec(nk, F(d.lit(true))),
       any = vec(nk, F(d.lit(false))), red_at = vec(nk, F(d.lit(false))),
       partner_at = vec(nk, F(d.lit(false)));
  // whole[w][j]: every live thread of warp w stands at barrier k_of(j).
  std::pmr::vector<std::pmr::vector<F>> whole_at(warps, &arena);
  for (uint32_t j = 0; j < nk; ++j) {
    B everyone = d.lit(true), red_here = d.lit(false), partner_here = d.lit(false);
    for (std::size_t w = 0; w < warps; ++w) {
      const W x = at[j][w];
      const B whole = ((x | exited[w]) & valid(w)) == valid(w);
      whole_at[w].push_back(whole);
      everyone = everyone && whole;
      arrivals[j] = arrivals[j] + d.ite(whole && x != d.w32(0), d.w32(32), d.w32(0));
      popc[j] = popc[j] + d.popcount(x & truth[w]);
      all[j] = all[j] && (x & ~truth[w]) == d.w32(0);
      any[j] = any[j] || (x & truth[w]) != d.w32(0);
      red_here = red_here || (x & ~partner[w]) != d.w32(0);
      partner_here = partner_here || (x & partner[w]) != d.w32(0);
    }
    if (in.has_count) {
      if (in.imm_count) {
        ref[j] = d.w32(*in.imm_count);
      } else if (!kConcrete<D> || in.imm_bar) {
        for (std::size_t t = n; t-- > 0;) ref[j] = d.ite(stands_at(t, j), s.count[t], ref[j]);
      } else if constexpr (kConcrete<D>) {
        // The count of the lowest thread there, as the selection chain above finds it.
        if (lowest[j] < n) ref[j] = s.count[lowest[j]];
      }
      complete[j] = spec::fills_phases(d, ref[j], arrivals[j], warps);
    } else {
      complete[j] = everyone;
    }
    red_at[j] = d.lit(red) && red_here;
    partner_at[j] = partner_here;
  }
  // With register operands, thread t reads a per-barrier fact through its own barrier number,
  // as the model does (spec::select_barrier).
  std::vector<uint32_t> numbers;  // the symbolic selection's barriers
  if constexpr (!kConcrete<D>)
    for (uint32_t j = 0; j < nk; ++j) numbers.push_back(j);
  auto of_mine = [&](std::size_t t, const auto& per_j, auto none) {
    // A concrete number indexes the table: the same value as the selection chain, whose
    // barriers are 0, 1, ... in order.
    if constexpr (kConcrete<D>)
      return s.bar[t] < nk ? decltype(none)(per_j[s.bar[t]]) : none;
    else
      return spec::select_barrier(d, s.bar[t], numbers, per_j, none);
  };

  CtaLanes<D> out{{}, {}, {}, d.lit(false)};
  out.executes.reserve(warps);
  out.d.reserve(n);
  std::pmr::vector<std::pmr::vector<W>> fires(std::size(spec::kCtaUb), vec(warps, d.w32(0)),
                                              &arena);
  for (std::size_t w = 0; w < warps; ++w) {
    out.executes.push_back(here[w] & ~partner[w]);
    // Per barrier: the warp's threads there and whether they wait (bar.arrive's do not).
    const W waiting =
        in.form == spec::FormId::BarArrive ? partner[w] : (red ? ~W(d.w32(0)) : ~partner[w]);
    if (in.imm_bar) {
      for (uint32_t j = 0; j < nk; ++j) {
        const W x = at[j][w];
        fires[0][w] = fires[0][w] | d.ite(whole_at[w][j], d.w32(0), x) |
                      d.ite(complete[j], d.w32(0), x & waiting);
        fires[6][w] = fires[6][w] | d.ite(red_at[j] && partner_at[j], x, d.w32(0));
        if (red && in.has_count)
          fires[7][w] = fires[7][w] | d.ite(d.ult(ref[j], arrivals[j]), x & ~partner[w], d.w32(0));
      }
      // A thread at no barrier 0-15 stands alone at a barrier of its own: the block never fills
      // it.
      const W nowhere = k_of(0) < spec::kCtaBarriers ? d.w32(0) : here[w];
      fires[0][w] = fires[0][w] | nowhere;
      fires[1][w] = nowhere;
    } else {
      for (std::size_t t = w * 32; t < n && t < w * 32 + 32; ++t) {
        const unsigned b = static_cast<unsigned>(t % 32);
        const B h = d.bit(here[w], b);
        const B nowhere = d.ult(d.w32(spec::kCtaBarriers - 1), s.bar[t]);
        const B stuck = (h && (!of_mine(t, whole_at[w], d.lit(false)) || nowhere)) ||
                        (h && d.bit(waiting, b) && !of_mine(t, complete, d.lit(false)));
        fires[0][w] = fires[0][w] | spec::bit_if(d, stuck, b);
        fires[1][w] = fires[1][w] | spec::bit_if(d, h && nowhere, b);
        fires[6][w] = fires[6][w] | spec::bit_if(d,
                                                 h && of_mine(t, red_at, d.lit(false)) &&
                                                     of_mine(t, partner_at, d.lit(false)),
                                                 b);
        if (red && in.has_count)
          fires[7][w] = fires[7][w] | spec::bit_if(d,
                                                   h && !d.bit(partner[w], b) &&
                                                       d.ult(of_mine(t, ref, d.w32(0)),
                                                             of_mine(t, arrivals, d.w32(0))),
                                                   b);
      }
    }
    const B split = (here[w] & partner[w]) != d.w32(0) && (here[w] & ~partner[w]) != d.w32(0);
    fires[8][w] = d.ite(split, here[w], d.w32(0));
    const W arrive_kind = in.form == spec::FormId::BarArrive ? ~partner[w]
                          : red                              ? d.w32(0)
                                                             : partner[w];
    if (in.imm_count) {
      const uint32_t c = *in.imm_count;
      fires[2][w] = d.ite(d.lit(c % 32 != 0), here[w], d.w32(0));
      fires[3][w] = d.ite(d.lit(c == 0), here[w], d.w32(0));
      fires[4][w] = d.ite(d.ult(block, d.w32(c)), here[w], d.w32(0));
    } else if (in.has_count) {
      for (std::size_t t = w * 32; t < n && t < w * 32 + 32; ++t) {
        const unsigned b = static_cast<unsigned>(t % 32);
        const B h = d.bit(here[w], b);
        const W c = s.count[t];
        fires[2][w] = fires[2][w] | spec::bit_if(d, h && (c & d.w32(31)) != d.w32(0), b);
        fires[3][w] = fires[3][w] | spec::bit_if(d, h && c == d.w32(0), b);
        fires[4][w] = fires[4][w] | spec::bit_if(d, h && d.ult(block, c), b);
        W mine = c;
        if (in.imm_bar)
          mine = d.ite(h, ref[0], c);
        else
          mine = of_mine(t, ref, c);
        fires[5][w] = fires[5][w] | spec::bit_if(d, h && c != mine, b);
      }
    } else {
      fires[3][w] = here[w] & arrive_kind;  // bar.arrive's partner without a count
    }
  }
  for (std::size_t c = 0; c < std::size(spec::kCtaUb); ++c) {
    const auto& cl = f.clauses;
    if (std::find(cl.begin(), cl.end(), spec::kCtaUb[c]) == cl.end()) continue;
    for (const auto& x : fires[c]) out.any_ub = out.any_ub || x != d.w32(0);
    out.ub.push_back({spec::kCtaUb[c], std::vector<W>(fires[c].begin(), fires[c].end())});
  }
  // Each barrier's value; an executing thread stands at its barrier, so the immediate's value is
  // the value, and a register's is the one its number selects.
  auto val = vec(nk, d.w32(0));
  for (uint32_t j = 0; j < nk; ++j) {
    if (f.mode == spec::Mode::Popc) val[j] = popc[j];
    if (f.mode == spec::Mode::And) val[j] = d.ite(all[j], d.w32(1), d.w32(0));
    if (f.mode == spec::Mode::Or) val[j] = d.ite(any[j], d.w32(1), d.w32(0));
  }
  for (std::size_t t = 0; t < n; ++t) {
    const std::size_t w = t / 32;
    const W v = in.imm_bar ? val[0] : of_mine(t, val, d.w32(0));
    out.d.push_back(d.ite(d.bit(out.executes[w], static_cast<unsigned>(t % 32)), v, d.w32(0)));
  }
  return out;
}

}  // namespace warpspec::fast
