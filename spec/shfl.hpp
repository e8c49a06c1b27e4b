#pragma once
// shfl.sync semantics.
#include "spec/warp_common.hpp"

namespace warpspec::spec {

/// Bits [lo, lo+5) of `x` as a word in 0..31, built bit by bit so that the domain needs no shift.
template <Domain D>
typename D::W32 five_bits_at(const D& d, const typename D::W32& x, unsigned lo) {
  auto acc = d.w32(0);
  for (unsigned k = 0; k < 5; ++k) acc = acc | d.ite(d.bit(x, lo + k), d.w32(1u << k), d.w32(0));
  return acc;
}

/// What one lane's shuffle computes from its own b and c: the lane it reads, and whether that
/// lane was in range (the predicate p).
template <Domain D>
struct ShflSource {
  typename D::W32 lane;
  typename D::B in_range;
};

/// PTX ISA 9.7.9.6, shfl.sync, the lane arithmetic. Only b[4:0], c[4:0] (the clamp) and c[12:8]
/// (the segment mask) count. The segment of lane i starts at i & segmask; its bound is that start
/// with the clamp's bits outside the segment mask. .up subtracts b and is in range at or above
/// the bound (the difference may be negative); .down adds b, .bfly xors it, .idx replaces the
/// lane's bits outside the segment mask with b's; those three are in range at or below the bound.
/// Out of range, the lane reads itself.
template <Domain D>
ShflSource<D> shfl_source(const D& d, Mode mode, unsigned i, const typename D::W32& b,
                          const typename D::W32& c) {
  const auto bval = b & d.w32(0x1f), clamp = c & d.w32(0x1f);
  const auto seg = five_bits_at(d, c, 8);
  const auto lane = d.w32(i);
  const auto first = lane & seg;
  const auto bound = first | (clamp & ~seg);
  typename D::W32 j = lane;
  typename D::B ok = d.lit(false);
  switch (mode) {
    case Mode::Up:
      j = lane + (~bval + d.w32(1));
      ok = !d.slt(j, bound);
      break;
    case Mode::Down:
      j = lane + bval;
      ok = !d.ult(bound, j);
      break;
    case Mode::Bfly:
      j = lane ^ bval;
      ok = !d.ult(bound, j);
      break;
    default:  // Idx
      j = first | (bval & ~seg);
      ok = !d.ult(bound, j);
      break;
  }
  return {d.ite(ok, j, lane), ok};
}

/// The 32-bit a of lane `j` (a lane number below W): the copy a shuffle makes.
template <Domain D, int W>
typename D::W32 lane_word(const D& d, const WarpState<D, W>& s, const typename D::W32& j) {
  auto x = d.lo32(s.a[0]);
  for (unsigned k = 1; k < W; ++k) x = d.ite(j == d.w32(k), d.lo32(s.a[k]), x);
  return x;
}

/// PTX ISA 9.7.9.6, shfl.sync. The named lanes meet as for the other warp-synchronous forms (the
/// same three UB conditions, and vote's sm_6x rule); then each executing lane copies the 32-bit
/// a of the lane `shfl_source` picks. That copy is undefined, with p still defined, when the lane
/// read does not execute the instruction or is not named in the reader's membermask.
template <Domain D, int W>
Outcome<D, W> eval_shfl(const D& d, const Instr& in, const WarpState<D, W>& s, bool pre_volta) {
  const Mode mode = form_info(in.form).mode;
  const auto v = view_of(d, s, in);
  auto sources = lanes_of<W>([&](unsigned i) {
    return shfl_source(d, mode, i, operand_b(d, in, s, i), operand_c(d, in, s, i));
  });
  auto result = [&](unsigned i) { return lane_word(d, s, sources[i].lane); };
  auto pred = [&](unsigned i) { return v.executes[i] && sources[i].in_range; };
  Outcome<D, W> out{lanes_of<W>(result), lanes_of<W>(pred), v.executes, {}, {}};
  add_common_ub(d, v, out, kShflUb);
  out.ub.push_back({kShflUb[3], ub_sm6x_named_converged(d, v, s, pre_volta)});
  auto loose = executing_lanes_where(d, v, [&](unsigned i) {
    auto readable = v.execs & v.mask[i];
    auto ok = d.lit(false);
    for (unsigned k = 0; k < W; ++k) ok = ok || (sources[i].lane == d.w32(k) && d.bit(readable, k));
    return !ok;
  });
  out.loose_d.push_back({ClauseId::ShflSourceUndefined, loose});
  return out;
}

/// The state the second shuffle of a 64-bit overload reads: each lane's a replaced by its high
/// word (in the low half, which is all a b32 shuffle reads).
template <Domain D, int W>
WarpState<D, W> high_words(const D& d, const WarpState<D, W>& s) {
  auto t = s;
  for (auto& x : t.a) x = d.shr32(x);
  return t;
}

/// CUDA's 64-bit shuffle overloads (CUDA headers: __shfl_sync, __shfl_up_sync, __shfl_down_sync
/// and __shfl_xor_sync on long, long long, double and the unsigned ones). The value is cut into
/// its low and high 32-bit words, each word goes through the b32 shuffle with the same b and c,
/// and the two results are put back together. With the same b and c both shuffles read the same
/// lane, so p, the UB findings and the lanes whose d is left undefined are the low word's
/// shuffle's; `d` is its result and `d_hi` the high word's.
template <Domain D, int W>
Outcome<D, W> eval_shfl_pair(const D& d, const Instr& in, const WarpState<D, W>& s,
                             bool pre_volta) {
  auto out = eval_shfl(d, in, s, pre_volta);
  const auto high = eval_shfl(d, in, high_words(d, s), pre_volta);
  out.d_hi.assign(high.d.begin(), high.d.end());
  return out;
}

}  // namespace warpspec::spec
