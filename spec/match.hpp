#pragma once
// match.sync semantics.
#include "spec/warp_common.hpp"

namespace warpspec::spec {

/// PTX ISA 9.7.13.10, match.sync. The lanes taking part in lane i's instruction are the
/// non-exited lanes of its membermask. `.any` gives each lane the taking-part lanes holding its own
/// value; `.all` gives the whole taking-part set (and p = true) when every taking-part lane holds
/// one value, else 0 (and p = false). Values are compared as bit patterns of the operand width.
template <Domain D, int W>
Outcome<D, W> eval_match(const D& d, const Instr& in, const WarpState<D, W>& s) {
  const FormInfo& f = form_info(in.form);
  const bool wide = f.a_type == OperandType::B64;
  const auto v = view_of(d, s, in);
  auto same = [&](unsigned i, unsigned j) {
    return wide ? s.a[i] == s.a[j] : d.lo32(s.a[i]) == d.lo32(s.a[j]);
  };
  // Lanes of the warp holding lane i's value.
  auto equal_set = lanes_of<W>([&](unsigned i) {
    auto acc = lane_bit(d, i);
    for (unsigned j = 0; j < W; ++j)
      if (j != i) acc = acc | bit_if(d, same(i, j), j);
    return acc;
  });
  const bool all = f.mode == Mode::All;
  Outcome<D, W> out{lanes_of<W>([&](unsigned i) {
                      auto part = participants(d, v, i);
                      if (!all) return part & equal_set[i];
                      return d.ite(is_zero(d, part & ~equal_set[i]), part, d.w32(0));
                    }),
                    lanes_of<W>([&](unsigned i) {
                      return all ? is_zero(d, participants(d, v, i) & ~equal_set[i]) : d.lit(false);
                    }),
                    v.executes,
                    {},
                    {}};
  add_common_ub(d, v, out, kMatchUb);
  return out;
}

}  // namespace warpspec::spec
