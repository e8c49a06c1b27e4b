#pragma once
// redux.sync semantics.
#include "spec/warp_common.hpp"

namespace warpspec::spec {

/// The identity of a redux form's operator, where its reduction starts: 0 for add/or/xor, all
/// ones for and, the largest (smallest) value of the operand type for min (max). For `.f32` it
/// is the identity in order-key space: non-NaN keys lie strictly between 0 and 0xffffffff
/// (`f32_order_key`), so those two start the running maximum and minimum.
constexpr uint32_t redux_identity(const FormInfo& f) {
  const bool is_signed = f.a_type == OperandType::S32;
  switch (f.mode) {
    case Mode::And:
      return 0xffffffffu;
    case Mode::Min:
      return is_signed ? 0x7fffffffu : 0xffffffffu;
    case Mode::Max:
      return is_signed ? 0x80000000u : 0u;
    default:
      return 0;
  }
}

namespace detail {

/// Integer reduction of lane i: fold the operator over the taking-part lanes' low 32 bits,
/// starting from the operator's identity.
template <Domain D, int W>
typename D::W32 redux_int(const D& d, const FormInfo& f, const WarpState<D, W>& s,
                          const typename D::W32& part) {
  const bool is_signed = f.a_type == OperandType::S32;
  auto less = [&](const auto& x, const auto& y) { return is_signed ? d.slt(x, y) : d.ult(x, y); };
  auto acc = d.w32(redux_identity(f));
  for (unsigned j = 0; j < W; ++j) {
    auto x = d.lo32(s.a[j]);
    typename D::W32 next = acc;
    switch (f.mode) {
      case Mode::Add:
        next = acc + x;
        break;
      case Mode::And:
        next = acc & x;
        break;
      case Mode::Or:
        next = acc | x;
        break;
      case Mode::Xor:
        next = acc ^ x;
        break;
      case Mode::Min:
        next = d.ite(less(x, acc), x, acc);
        break;
      default:
        next = d.ite(less(acc, x), x, acc);
        break;  // Max
    }
    acc = d.ite(d.bit(part, j), next, acc);
  }
  return acc;
}

/// `.f32` min/max of lane i, over order keys (`f32_order_key`: the numeric order with -0.0 just
/// below +0.0), so that the float order is unsigned order on words. `.abs` clears signs first;
/// NaNs are skipped; the result is the canonical NaN when no non-NaN value is left or, with
/// `.NaN`, when any value is NaN.
template <Domain D, int W>
typename D::W32 redux_f32(const D& d, const FormInfo& f, const WarpState<D, W>& s,
                          const typename D::W32& part) {
  const bool max = f.mode == Mode::Max;
  auto acc = d.w32(redux_identity(f));
  auto have = d.lit(false), saw_nan = d.lit(false);
  for (unsigned j = 0; j < W; ++j) {
    auto x = d.lo32(s.a[j]);
    if (f.abs) x = f32_abs(d, x);
    auto in = d.bit(part, j);
    auto nan = f32_is_nan(d, x);
    auto k = f32_order_key(d, x);
    auto better = max ? d.ult(acc, k) : d.ult(k, acc);
    acc = d.ite(in && !nan && better, k, acc);
    have = have || (in && !nan);
    saw_nan = saw_nan || (in && nan);
  }
  auto give_nan = f.nan ? (saw_nan || !have) : !have;
  return d.ite(give_nan, d.w32(kCanonicalNanF32), f32_from_order_key(d, acc));
}

}  // namespace detail

/// PTX ISA 9.7.13.12, redux.sync. Lane i's result combines the 32-bit operands of the
/// non-exited lanes in its membermask: .add keeps the low 32 bits of the sum, .min/.max compare
/// unsigned for .u32 and signed for .s32, .and/.or/.xor work bit by bit, and .f32 follows
/// `detail::redux_f32`.
template <Domain D, int W>
Outcome<D, W> eval_redux(const D& d, const Instr& in, const WarpState<D, W>& s) {
  const FormInfo& f = form_info(in.form);
  const auto v = view_of(d, s, in);
  Outcome<D, W> out{lanes_of<W>([&](unsigned i) {
                      auto part = participants(d, v, i);
                      return f.a_type == OperandType::F32 ? detail::redux_f32(d, f, s, part)
                                                          : detail::redux_int(d, f, s, part);
                    }),
                    lanes_of<W>([&](unsigned) { return d.lit(false); }),
                    v.executes,
                    {},
                    {}};
  add_common_ub(d, v, out, kReduxUb);
  return out;
}

}  // namespace warpspec::spec
