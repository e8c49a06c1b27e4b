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

}  // namespace warpspec::fast
