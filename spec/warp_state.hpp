#pragma once
// Warp and block states over a value domain, and the instruction instance being evaluated.
#include <array>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "spec/catalog.hpp"
#include "spec/domain.hpp"

namespace warpspec::spec {

/// The warp width of the hardware; semantics take the width as a parameter so that small widths
/// can be checked exhaustively.
inline constexpr int kWarpSize = 32;

/// Builds `std::array{f(0), ..., f(W-1)}` without default-constructing elements (symbolic
/// domains have no default value).
template <int W, class F>
auto lanes_of(F&& f) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return std::array{f(static_cast<unsigned>(I))...};
  }
  (std::make_index_sequence<W>{});
}

/// All lanes of a width-W warp as a mask.
template <int W>
constexpr uint32_t full_mask() {
  return W >= 32 ? 0xffffffffu : (uint32_t{1} << W) - 1;
}

/// A warp as one instruction sees it: per lane, whether it executes the instruction or has
/// exited (neither: alive but elsewhere), the membermask it passes, its source operand, the
/// call site it reaches the instruction from, and the shuffles' two further operands.
template <Domain D, int W = kWarpSize>
struct alignas(std::is_arithmetic_v<typename D::W32> ? 64 : alignof(typename D::W64)) WarpState {
  std::array<typename D::B, W> exec;    ///< the lane executes this instruction
  std::array<typename D::B, W> exited;  ///< the lane has exited (takes precedence over exec)
  std::array<typename D::W32, W> mask;  ///< the membermask the lane passes
  std::array<typename D::W64, W> a;     ///< source operand: low 32 bits for 32-bit forms,
                                        ///< non-zero means true for predicates
  std::array<typename D::W32, W> site;  ///< call site id; lanes at different sites are not
                                        ///< converged (matters on sm_6x only)
  std::array<typename D::W32, W> b;     ///< shuffles: source lane or lane offset (0 elsewhere)
  std::array<typename D::W32, W> c;     ///< shuffles: segment mask c[12:8], clamp c[4:0]
};

/// A thread block at a block barrier (bar.sync, bar.red, bar.arrive), as one phase of the
/// barriers it uses: per thread, whether it reaches a barrier in this phase or has exited (neither:
/// alive but elsewhere), its predicate, the barrier number and thread count it passes when the
/// instruction takes them from registers, and whether it reaches the barrier through the
/// instruction's partner form instead of the instruction itself (bar.arrive beside bar.sync or
/// bar.red, bar.sync beside bar.arrive: the producer/consumer pattern), with the same operands.
template <Domain D>
struct CtaState {
  std::vector<typename D::B> arrive;   ///< the thread reaches a barrier instruction
  std::vector<typename D::B> exited;   ///< the thread has exited (takes precedence)
  std::vector<typename D::W32> pred;   ///< bar.red's predicate c (non-zero means true)
  std::vector<typename D::W32> bar;    ///< barrier number a, when a is a register
  std::vector<typename D::W32> count;  ///< thread count b, when b is a register
  std::vector<typename D::B> partner;  ///< reaches the barrier through the partner form
};

/// The instruction instance: a form plus the operand choices that are not part of the state.
struct Instr {
  FormId form = FormId::MatchAnyB32;
  bool negate = false;                 ///< `!a` (vote and bar.red forms)
  bool write_d = true;                 ///< false when `d` is the sink `_` (match.all)
  bool write_p = false;                ///< `d|p` (match.all)
  std::optional<uint32_t> imm_mask{};  ///< membermask written as an immediate: overrides the state
  std::optional<uint32_t> imm_b{};  ///< shuffles: b written as an immediate (overrides the state)
  std::optional<uint32_t> imm_c{};  ///< shuffles: c written as an immediate (overrides the state)
  /// Shuffles: one of CUDA's 64-bit overloads (long, long long, double and the unsigned ones),
  /// which runs the form twice, on a's low word and on its high word (spec::eval_shfl_pair);
  /// d then has 64 bits (Outcome::d_hi). Only an intrinsic call sets it.
  bool wide = false;
  /// Block barriers: the barrier number a written as an immediate (else each thread's
  /// CtaState::bar), whether the thread count b is written at all, and b as an immediate (else
  /// each thread's CtaState::count).
  std::optional<uint32_t> imm_bar{};
  bool has_count = false;
  std::optional<uint32_t> imm_count{};
};

/// Whether the instruction writes d: every form with a result, unless d is the sink `_`.
inline bool writes_d(const Instr& in) {
  return form_info(in.form).d_type != ResultType::None && in.write_d;
}

/// Lane i's b as the instruction reads it: the immediate when the text writes one, else the
/// lane's own (shuffles).
template <Domain D, int W>
typename D::W32 operand_b(const D& d, const Instr& in, const WarpState<D, W>& s, unsigned i) {
  return in.imm_b ? d.w32(*in.imm_b) : s.b[i];
}
/// Lane i's c as the instruction reads it (shuffles), likewise.
template <Domain D, int W>
typename D::W32 operand_c(const D& d, const Instr& in, const WarpState<D, W>& s, unsigned i) {
  return in.imm_c ? d.w32(*in.imm_c) : s.c[i];
}

}  // namespace warpspec::spec
