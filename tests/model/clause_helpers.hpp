#pragma once
// Small helpers the clause tests share: an instruction of a form, a warp whose lanes hold given
// values, whether a UB clause fires on given lanes, and the lane table a failure prints.
#include <bit>
#include <cstdint>
#include <string>

#include "model/eval.hpp"
#include "model/render.hpp"

namespace warpspec {

using model::LaneStatus;
using model::Warp;
using spec::ClauseId;
using spec::FormId;

/// The form with p written where the form has one, and `!a` when `negate`.
inline spec::Instr instr(FormId f, bool negate = false) {
  spec::Instr in;
  in.form = f;
  in.negate = negate;
  in.write_p = spec::form_info(f).optional_p;
  return in;
}

/// A warp of executing lanes with membermask `mask` whose lane i holds value(i).
template <class F>
Warp warp_with(F value, uint32_t mask = 0xffffffffu) {
  Warp w = model::make_warp(mask);
  for (unsigned i = 0; i < 32; ++i) w.a[i] = value(i);
  return w;
}

inline uint32_t f32(float x) {
  return std::bit_cast<uint32_t>(x);
}
inline uint64_t f64(double x) {
  return std::bit_cast<uint64_t>(x);
}

/// True when clause `c` fires on exactly `lanes` (0: does not fire).
inline bool fires(const model::WarpResult& r, ClauseId c, uint32_t lanes) {
  for (const auto& u : r.ub)
    if (u.clause == c) return u.lanes == lanes;
  return lanes == 0;
}

/// The lane table and findings, for a failure message.
inline std::string show(const spec::Instr& in, const Warp& w, const model::WarpResult& r) {
  return "\n" + model::lane_table(in, w, &r) + model::findings_text(r);
}

}  // namespace warpspec
