#pragma once
// A warp state as words, and the undefined-behaviour clauses every warp-synchronous form shares,
// computed on whole lane sets at once. Each function states the clause it computes; the claim
// that it equals the model's lane-by-lane reading is what the property tests and the proofs check.
#include <type_traits>

#include "model/fast/words.hpp"
#include "spec/outcome.hpp"

namespace warpspec::fast {

/// The words one instruction reads from a warp state.
template <Domain D, int W>
struct LaneWords {
  typename D::W32 execs;   ///< lanes that execute (and have not exited)
  typename D::W32 exited;  ///< lanes that have exited
  Rows<D, W> mask;         ///< each lane's membermask, limited to the warp's lanes
};

/// Packs the status flags and limits the membermasks (an immediate mask overrides the state).
template <Domain D, int W>
LaneWords<D, W> lane_words(const D& d, const spec::WarpState<D, W>& s, const spec::Instr& in) {
  const auto lanes = d.w32(spec::full_mask<W>());
  return {pack_where<D, W>(d, [&](unsigned i) { return s.exec[i] && !s.exited[i]; }),
          pack<D, W>(d, s.exited), spec::lanes_of<W>([&](unsigned i) {
            return (in.imm_mask ? d.w32(*in.imm_mask) : s.mask[i]) & lanes;
          })};
}

/// Row i: the lanes lane i's instruction combines, the non-exited lanes of its membermask.
template <Domain D, int W>
Rows<D, W> participant_rows(const D&, const LaneWords<D, W>& v) {
  return spec::lanes_of<W>([&](unsigned i) { return v.mask[i] & ~v.exited; });
}

/// UB "self not in mask": executing lanes whose own bit is clear in their membermask. The
/// diagonal of the mask matrix, as a word, against the executing set.
template <Domain D, int W>
typename D::W32 ub_self_not_in_mask(const D& d, const LaneWords<D, W>& v) {
  const auto diagonal = pack_where<D, W>(d, [&](unsigned i) { return d.bit(v.mask[i], i); });
  return v.execs & ~diagonal;
}

/// UB "peer absent": executing lanes whose membermask names a lane that is neither exited nor
/// executing; one test of each row against the word of absent lanes.
template <Domain D, int W>
typename D::W32 ub_peer_absent(const D& d, const LaneWords<D, W>& v) {
  const auto absent = ~v.exited & ~v.execs;
  return v.execs &
         pack_where<D, W>(d, [&](unsigned i) { return !spec::is_zero(d, v.mask[i] & absent); });
}

/// UB "mask mismatch": executing lanes i whose membermask names an executing lane j != i that
/// passes another membermask. With the equal sets of the masks (row i: the lanes passing lane i's
/// mask, lane i included) this is one test per lane: does lane i name an executing lane outside
/// its row? The equal sets come from the earlier-equal matrix and its transpose, which is what
/// conflict detection and a bit-matrix transpose give the vector kernels.
template <Domain D, int W>
typename D::W32 ub_mask_mismatch(const D& d, const LaneWords<D, W>& v) {
  const auto same_mask =
      equal_sets_of<D, W>(d, [&](unsigned i, unsigned j) { return v.mask[i] == v.mask[j]; });
  return v.execs & pack_where<D, W>(d, [&](unsigned i) {
           return !spec::is_zero(d, v.mask[i] & v.execs & ~same_mask[i]);
         });
}

/// Where the vector kernels walk the groups of a diverged warp instead of building the
/// mask-equality matrix: `left` holds the executing lanes not yet visited, `bad` the lanes found
/// passing another mask word than their group's leader.
template <Domain D>
struct MismatchWalk {
  typename D::W32 left, bad;
};

/// A leader of the walk as a bit, its mask word and its group (the executing lanes that mask
/// names).
template <Domain D>
struct WalkLeader {
  typename D::W32 lead, m, group;
};

/// The lowest lane of `left`, which leads the next group (all 0 when `left` is empty). A
/// priority choice from the top lane down: the kernels' `left & -left` and indexed load.
template <Domain D, int W>
WalkLeader<D> mismatch_walk_leader(const D& d, const LaneWords<D, W>& v,
                                   const typename D::W32& left) {
  auto lead = d.w32(0), m = d.w32(0);
  for (unsigned i = W; i-- > 0;) {
    lead = d.ite(d.bit(left, i), spec::lane_bit(d, i), lead);
    m = d.ite(d.bit(left, i), v.mask[i], m);
  }
  return {lead, m, m & v.execs};
}

/// The walk after visiting leader `l`: lanes of the group passing another mask word than `l.m`
/// are bad; leader and group are visited.
template <Domain D, int W>
MismatchWalk<D> mismatch_walk_visit(const D& d, const LaneWords<D, W>& v,
                                    const MismatchWalk<D>& walk, const WalkLeader<D>& l) {
  const auto same = pack_where<D, W>(d, [&](unsigned j) { return v.mask[j] == l.m; });
  return {walk.left & ~l.lead & ~l.group, walk.bad | (l.group & ~same)};
}

/// One step of the walk: visit the lowest lane left. With `left` empty it changes nothing.
template <Domain D, int W>
MismatchWalk<D> mismatch_walk_step(const D& d, const LaneWords<D, W>& v,
                                   const MismatchWalk<D>& walk) {
  return mismatch_walk_visit<D, W>(d, v, walk, mismatch_walk_leader<D, W>(d, v, walk.left));
}

/// The walk from all executing lanes, W steps (enough: each step visits its leader). When
/// every executing lane is in its own mask, a walk that ends with no bad lane leaves no lane
/// with a mask mismatch (property `fast.mismatch_walk_is_sound`); conversely a warp without a
/// mismatch walks clean (tested). No step checks that its group avoids the lanes visited
/// before: a group whose lanes all pass the leader's mask word is the leader's whole class of
/// equal masks, and an earlier group holding one of its lanes would have held the leader.
template <Domain D, int W>
typename D::B mismatch_walk_certifies(const D& d, const LaneWords<D, W>& v) {
  MismatchWalk<D> walk{v.execs, d.w32(0)};
  for (unsigned step = 0; step < W; ++step) walk = mismatch_walk_step<D, W>(d, v, walk);
  return spec::is_zero(d, walk.bad);
}

/// sm_6x convergence, first half: executing lanes whose membermask names a non-exited lane that
/// is not executing this instruction from the lane's own call site. `same_site` row i holds the
/// lanes whose call site equals lane i's.
template <Domain D, int W>
typename D::W32 ub_not_converged(const D& d, const LaneWords<D, W>& v,
                                 const std::type_identity_t<Rows<D, W>>& same_site) {
  return v.execs & pack_where<D, W>(d, [&](unsigned i) {
           return !spec::is_zero(d, v.mask[i] & ~v.exited & ~(v.execs & same_site[i]));
         });
}

/// Union of the membermasks of the executing lanes.
template <Domain D, int W>
typename D::W32 union_of_masks(const D& d, const LaneWords<D, W>& v) {
  auto acc = d.w32(0);
  for (unsigned i = 0; i < W; ++i) acc = acc | d.ite(d.bit(v.execs, i), v.mask[i], d.w32(0));
  return acc;
}

/// Row i: lanes sharing lane i's call site.
template <Domain D, int W>
Rows<D, W> same_site_rows(const D& d, const spec::WarpState<D, W>& s) {
  return equal_sets_of<D, W>(d, [&](unsigned i, unsigned j) { return s.site[i] == s.site[j]; });
}

/// The sm_6x rule vote.sync and shfl.sync state: `ub_not_converged`, and executing lanes that no
/// executing lane's membermask names.
template <Domain D, int W>
typename D::W32 ub_sm6x_named_converged(const D& d, const spec::WarpState<D, W>& s,
                                        const LaneWords<D, W>& v) {
  return ub_not_converged(d, v, same_site_rows(d, s)) | (v.execs & ~union_of_masks(d, v));
}

}  // namespace warpspec::fast
