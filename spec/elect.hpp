#pragma once
// elect.sync semantics.
#include "spec/warp_common.hpp"

namespace warpspec::spec {

/// The lowest lane named in `mask` (0 when none is): the leader the model elects. The text
/// leaves the choice open; sm_90 elects this lane (docs/observed-behaviour.md), and `check`
/// accepts any choice `elect_choice_admissible` allows.
template <Domain D, int W>
typename D::W32 lowest_lane(const D& d, const typename D::W32& mask) {
  auto acc = d.w32(0);
  for (unsigned j = W; j-- > 0;) acc = d.ite(d.bit(mask, j), d.w32(j), acc);
  return acc;
}

/// `leader` is the number of a lane that `mask` names.
template <Domain D, int W>
typename D::B names_a_lane_of(const D& d, const typename D::W32& mask,
                              const typename D::W32& leader) {
  auto named = d.lit(false);
  for (unsigned j = 0; j < W; ++j) named = named || (leader == d.w32(j) && d.bit(mask, j));
  return named;
}

/// What the text allows one lane `i` of an election over `mask` to return: d names a lane of
/// the membermask, and p says whether that lane is `i` itself. That every lane of the election
/// names the same lane, and that a membermask always elects the same lane, are relations
/// between answers, checked where several answers are seen together (vectors::compare).
template <Domain D, int W>
typename D::B elect_choice_admissible(const D& d, const typename D::W32& mask, unsigned i,
                                      const typename D::W32& leader, const typename D::B& p) {
  return names_a_lane_of<D, W>(d, mask, leader) && (p == (leader == d.w32(i)));
}

/// UB for elect.sync: a lane named in the executing lane's membermask does not execute it. The
/// text makes every named lane wait for all the others and, unlike match, vote, redux and
/// shfl, does not leave exited lanes out of that wait.
template <Domain D, int W>
typename D::W32 ub_named_lane_missing(const D& d, const WarpView<D, W>& v) {
  return executing_lanes_where(d, v, [&](unsigned i) { return !is_zero(d, v.mask[i] & ~v.execs); });
}

/// PTX ISA 9.7.13, elect.sync (PTX 8.0, sm_90). The lanes that pass one membermask elect one of
/// the lanes it names; every one of them gets the leader's lane number in d, and p is true on
/// the leader alone. The same membermask always elects the same lane, but which lane is not
/// said: the model takes the lowest. Every named lane must execute the instruction (exited ones
/// included), each lane must name itself, and the text is silent on lanes that name each other
/// with different membermasks, read here as UB as for the other warp forms (sm_90 can hang
/// there: docs/observed-behaviour.md).
template <Domain D, int W>
Outcome<D, W> eval_elect(const D& d, const Instr& in, const WarpState<D, W>& s) {
  const auto v = view_of(d, s, in);
  auto leader = [&](unsigned i) { return lowest_lane<D, W>(d, v.mask[i]); };
  Outcome<D, W> out{lanes_of<W>(leader),
                    lanes_of<W>([&](unsigned i) { return leader(i) == d.w32(i); }), v.executes,
                    {}, {}};
  out.ub.push_back({kElectUb[0], ub_self_not_in_mask(d, v)});
  out.ub.push_back({kElectUb[1], ub_named_lane_missing(d, v)});
  out.ub.push_back({kElectUb[2], ub_mask_mismatch(d, v)});
  return out;
}

}  // namespace warpspec::spec
