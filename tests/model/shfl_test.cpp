// The shuffle's clauses. Every expected value follows from the lane arithmetic of the PTX ISA's
// shfl.sync (as the catalog paraphrases it) worked out by hand for the state at hand; none was
// produced by running the model. Lane i holds 100 + i unless a test says otherwise, so the value
// a lane gets names the lane it read.
#include "model/clause_helpers.hpp"
#include "model/clause_test.hpp"

namespace warpspec {
namespace {

// A shuffle of `form` with every lane passing b and c, over lanes holding 100 + i.
struct Shuffle {
  spec::Instr in;
  Warp w;
  Shuffle(FormId form, uint32_t b, uint32_t c, uint32_t mask = 0xffffffffu)
      : in(instr(form)), w(warp_with([](unsigned i) { return 100u + i; }, mask)) {
    w.b.fill(b);
    w.c.fill(c);
  }
  model::WarpResult run(spec::Target t = spec::kDefaultTarget) const {
    return model::evaluate(in, w, t);
  }
};

// Each lane's (d, p) against the lane it should read (-1: out of range, reads itself).
void expect_reads(const Shuffle& s, const model::WarpResult& r, auto source_of) {
  for (unsigned i = 0; i < 32; ++i) {
    const int j = source_of(i);
    const unsigned read = j < 0 ? i : static_cast<unsigned>(j);
    ASSERT_TRUE(r.d_defined(i)) << "lane " << i << show(s.in, s.w, r);
    EXPECT_EQ(r.outcome.d[i], 100u + read) << "lane " << i << show(s.in, s.w, r);
    EXPECT_EQ(r.outcome.p[i], j >= 0) << "lane " << i << show(s.in, s.w, r);
  }
}

// The intrinsics' c for a width: segment mask 32 - width, clamp 31 (0 for .up).
uint32_t c_of_width(unsigned width, bool up) {
  return ((32u - width) << 8) | (up ? 0u : 0x1fu);
}

CLAUSE_TEST("shfl.source_lane", ShflEachModeReadsItsLane) {
  Shuffle down(FormId::ShflDown, 1, 0x1f);
  expect_reads(down, down.run(), [](unsigned i) { return i < 31 ? int(i + 1) : -1; });
  Shuffle up(FormId::ShflUp, 3, 0);
  expect_reads(up, up.run(), [](unsigned i) { return i >= 3 ? int(i - 3) : -1; });
  Shuffle bfly(FormId::ShflBfly, 5, 0x1f);
  expect_reads(bfly, bfly.run(), [](unsigned i) { return int(i ^ 5u); });
  Shuffle idx(FormId::ShflIdx, 7, 0x1f);
  expect_reads(idx, idx.run(), [](unsigned) { return 7; });
}

CLAUSE_TEST("shfl.source_lane", ShflReadsOnlyTheLowFiveBitsOfB) {
  // b = 33 is b = 1, and b = 39 names lane 7: a b past 31 is not out of range by itself.
  Shuffle down(FormId::ShflDown, 33, 0x1f);
  expect_reads(down, down.run(), [](unsigned i) { return i < 31 ? int(i + 1) : -1; });
  Shuffle idx(FormId::ShflIdx, 39, 0x1f);
  expect_reads(idx, idx.run(), [](unsigned) { return 7; });
  Shuffle up(FormId::ShflUp, 0xffffffe2u, 0);  // low five bits: 2
  expect_reads(up, up.run(), [](unsigned i) { return i >= 2 ? int(i - 2) : -1; });
}

CLAUSE_TEST("shfl.bound", ShflWidthSplitsTheWarpIntoSegments) {
  // Width 8: .idx with b = 2 reads lane 2 of the reader's own 8-lane segment; .down by 2 stays
  // within the segment; .up by 2 does not reach below the segment's first lane.
  Shuffle idx(FormId::ShflIdx, 2, c_of_width(8, false));
  expect_reads(idx, idx.run(), [](unsigned i) { return int((i & ~7u) + 2); });
  Shuffle down(FormId::ShflDown, 2, c_of_width(8, false));
  expect_reads(down, down.run(), [](unsigned i) { return i % 8 <= 5 ? int(i + 2) : -1; });
  Shuffle up(FormId::ShflUp, 2, c_of_width(8, true));
  expect_reads(up, up.run(), [](unsigned i) { return i % 8 >= 2 ? int(i - 2) : -1; });
}

CLAUSE_TEST("shfl.bound", ShflClampBoundsTheSourceLane) {
  // No segment mask, clamp 15: .down reads up to lane 15 and no further.
  Shuffle down(FormId::ShflDown, 1, 0x0f);
  expect_reads(down, down.run(), [](unsigned i) { return i + 1 <= 15 ? int(i + 1) : -1; });
  // .up with clamp 4: the bound is lane 4, so lane 6 may read lane 4 but lane 5 not lane 3.
  Shuffle up(FormId::ShflUp, 2, 0x04);
  expect_reads(up, up.run(), [](unsigned i) { return i >= 6 ? int(i - 2) : -1; });
}

CLAUSE_TEST("shfl.bound", ShflSegmentMaskNeedNotBeAWidth) {
  // Segment mask 0b01010 (no width gives it), clamp 31: .idx with b = 0 reads the lane whose
  // bits are the reader's bits 1 and 3; the bound, those bits with 1, 4, 16 set, is never below.
  Shuffle idx(FormId::ShflIdx, 0, (0x0au << 8) | 0x1f);
  expect_reads(idx, idx.run(), [](unsigned i) { return int(i & 0x0au); });
}

CLAUSE_TEST("shfl.in_range", ShflXorReachesLowerSegmentsOnly) {
  // Width 16, xor 16: the low half would read the high half, past its bound, and reads itself;
  // the high half reads the low half (below its bound: in range).
  Shuffle bfly(FormId::ShflBfly, 16, c_of_width(16, false));
  expect_reads(bfly, bfly.run(), [](unsigned i) { return i < 16 ? -1 : int(i - 16); });
}

CLAUSE_TEST("shfl.in_range", ShflUpBelowLaneZeroIsOutOfRange) {
  // lane - b is negative for lanes 0-4: out of range (compared signed), each reads itself.
  Shuffle up(FormId::ShflUp, 5, 0);
  expect_reads(up, up.run(), [](unsigned i) { return i >= 5 ? int(i - 5) : -1; });
}

CLAUSE_TEST("shfl.copy", ShflCopiesBitsNotValues) {
  // A NaN payload and -0.0 arrive unchanged.
  Shuffle idx(FormId::ShflIdx, 1, 0x1f);
  idx.w.a[0] = 0x80000000u;
  idx.w.a[1] = 0x7fc00001u;
  auto r = idx.run();
  for (unsigned i = 0; i < 32; ++i) EXPECT_EQ(r.outcome.d[i], 0x7fc00001u) << show(idx.in, idx.w, r);
  Shuffle down(FormId::ShflDown, 1, 0x1f);
  down.w.a[1] = 0x80000000u;
  auto r2 = down.run();
  EXPECT_EQ(r2.outcome.d[0], 0x80000000u) << show(down.in, down.w, r2);
}

CLAUSE_TEST("shfl.copy", ShflWideOverloadsMoveBothWordsFromTheLaneRead) {
  // __shfl_down_sync(m, (long long)x, 1, 8): lane i holds (0xa000 + i) in its high word and
  // 100 + i in its low word; each lane in a segment of 8 but the last reads lane i + 1, both
  // words of it, and the last of each segment keeps its own value (p false).
  auto parsed = std::get<spec::ParsedInstr>(
      spec::parse_instruction("__shfl_down_sync(0xffffffff, (long long)x, 1, 8)"));
  ASSERT_TRUE(parsed.instr.wide);
  Shuffle down(FormId::ShflDown, 1, 0);
  down.in = parsed.instr;
  for (unsigned i = 0; i < 32; ++i) down.w.a[i] = uint64_t{0xa000u + i} << 32 | (100u + i);
  const auto r = down.run();
  ASSERT_EQ(r.outcome.d_hi.size(), 32u);
  for (unsigned i = 0; i < 32; ++i) {
    const unsigned read = i % 8 == 7 ? i : i + 1;
    EXPECT_EQ(r.outcome.d[i], 100u + read) << "lane " << i << show(down.in, down.w, r);
    EXPECT_EQ(r.outcome.d_hi[i], 0xa000u + read) << "lane " << i << show(down.in, down.w, r);
    EXPECT_EQ(r.d_value(i), down.w.a[read]);
    EXPECT_EQ(r.outcome.p[i], i % 8 != 7);
  }
  // A high word alone that differs between lanes, and a double's NaN payload and -0.0, arrive
  // unchanged: __shfl_xor_sync(m, (double)x, 1) swaps neighbours.
  auto xr = std::get<spec::ParsedInstr>(
      spec::parse_instruction("__shfl_xor_sync(0xffffffff, (double)x, 1)"));
  Shuffle bfly(FormId::ShflBfly, 1, 0x1f);
  bfly.in = xr.instr;
  bfly.w.a[0] = 0x7ff8000000000001ull;
  bfly.w.a[1] = 0x8000000000000000ull;
  bfly.w.a[2] = 0x0000000100000000ull;
  bfly.w.a[3] = 0x0000000000000000ull;
  const auto r2 = bfly.run();
  EXPECT_EQ(r2.d_value(0), 0x8000000000000000ull) << show(bfly.in, bfly.w, r2);
  EXPECT_EQ(r2.d_value(1), 0x7ff8000000000001ull);
  EXPECT_EQ(r2.d_value(2), 0x0000000000000000ull);
  EXPECT_EQ(r2.d_value(3), 0x0000000100000000ull);
}

CLAUSE_TEST("shfl.source_undefined", ShflWideOverloadLeavesBothWordsOpenTogether) {
  // Two groups of 16 with their own masks, __shfl_down_sync(m, (unsigned long)x, 1): lane 15
  // reads lane 16, outside its mask, so its whole d is open (p true); every other d, both
  // words, is pinned, and the outcome is the 32-bit shuffle's but for the high words.
  auto parsed = std::get<spec::ParsedInstr>(
      spec::parse_instruction("__shfl_down_sync(m, (unsigned long)x, 1)"));
  Shuffle down(FormId::ShflDown, 1, 0x1f);
  for (unsigned i = 0; i < 32; ++i) {
    down.w.mask[i] = i < 16 ? 0x0000ffffu : 0xffff0000u;
    down.w.a[i] |= uint64_t{7u * i} << 32;
  }
  const auto narrow = down.run();
  down.in = parsed.instr;
  const auto r = down.run();
  EXPECT_TRUE(r.ub.empty()) << show(down.in, down.w, r);
  EXPECT_FALSE(r.d_defined(15));
  EXPECT_TRUE(r.outcome.p[15]);
  for (unsigned i = 0; i < 32; ++i) {
    EXPECT_EQ(r.d_defined(i), narrow.d_defined(i)) << i;
    EXPECT_EQ(r.outcome.p[i], narrow.outcome.p[i]) << i;
    EXPECT_EQ(r.outcome.d[i], narrow.outcome.d[i]) << i;
    if (!r.d_defined(i)) continue;
    EXPECT_EQ(r.outcome.d_hi[i], 7u * (i + (i != 31))) << i;
  }
}

CLAUSE_TEST("shfl.source_undefined", ShflSourceOutsideTheMaskLeavesDOpen) {
  // Two groups execute side by side with their own masks (defined): lane 15 reads lane 16,
  // which executes but is not in lane 15's mask, so its d is open while its p is true.
  Shuffle down(FormId::ShflDown, 1, 0x1f);
  for (unsigned i = 0; i < 32; ++i) down.w.mask[i] = i < 16 ? 0x0000ffffu : 0xffff0000u;
  auto r = down.run();
  EXPECT_TRUE(r.ub.empty()) << show(down.in, down.w, r);
  EXPECT_TRUE(r.defined(15));
  EXPECT_FALSE(r.d_defined(15)) << show(down.in, down.w, r);
  EXPECT_TRUE(r.outcome.p[15]);
  for (unsigned i = 0; i < 32; ++i) {
    if (i == 15) continue;
    EXPECT_TRUE(r.d_defined(i)) << i << show(down.in, down.w, r);
  }
}

CLAUSE_TEST("shfl.source_undefined", ShflInactiveOrExitedSourceLeavesDOpen) {
  // Lanes 0-7 execute with mask 0xff, lanes 8-31 are elsewhere: lane 7 reads lane 8.
  Shuffle down(FormId::ShflDown, 1, 0x1f, 0x000000ffu);
  for (unsigned i = 8; i < 32; ++i) model::set_status(down.w, i, LaneStatus::Inactive);
  auto r = down.run();
  EXPECT_TRUE(r.ub.empty()) << show(down.in, down.w, r);
  for (unsigned i = 0; i < 7; ++i) EXPECT_EQ(r.outcome.d[i], 101u + i);
  EXPECT_FALSE(r.d_defined(7));
  EXPECT_TRUE(r.outcome.p[7]);
  // A mask that names an exited lane: lane 8 has exited, lane 7 reads it.
  Shuffle ex(FormId::ShflDown, 1, 0x1f, 0x000001ffu);
  for (unsigned i = 8; i < 32; ++i)
    model::set_status(ex.w, i, i == 8 ? LaneStatus::Exited : LaneStatus::Inactive);
  auto r2 = ex.run();
  EXPECT_TRUE(r2.ub.empty()) << show(ex.in, ex.w, r2);
  EXPECT_FALSE(r2.d_defined(7));
  EXPECT_TRUE(r2.outcome.p[7]);
  // Out of range, a lane reads itself: never open.
  EXPECT_TRUE(r2.d_defined(0));
}

CLAUSE_TEST("shfl.participants", ShflDoesNotWaitForExitedLanes) {
  // The full mask names lanes 28-31, which have exited: no UB, and every executing lane whose
  // source executes has its d.
  Shuffle idx(FormId::ShflIdx, 3, 0x1f);
  for (unsigned i = 28; i < 32; ++i) model::set_status(idx.w, i, LaneStatus::Exited);
  auto r = idx.run();
  EXPECT_TRUE(r.ub.empty()) << show(idx.in, idx.w, r);
  for (unsigned i = 0; i < 28; ++i) EXPECT_EQ(r.outcome.d[i], 103u);
  EXPECT_FALSE(r.outcome.executes[30]);
}

CLAUSE_TEST("shfl.ub.self_not_in_mask", ShflLaneOutsideItsOwnMask) {
  Shuffle idx(FormId::ShflIdx, 0, 0x1f);
  idx.w.mask[4] = 0xffffffefu;
  EXPECT_TRUE(fires(idx.run(), ClauseId::ShflUbSelfNotInMask, 1u << 4));
}

CLAUSE_TEST("shfl.ub.peer_absent", ShflNamedLaneThatDoesNotArrive) {
  Shuffle idx(FormId::ShflIdx, 0, 0x1f);
  model::set_status(idx.w, 9, LaneStatus::Inactive);
  EXPECT_TRUE(fires(idx.run(), ClauseId::ShflUbPeerAbsent, ~(1u << 9)));
}

CLAUSE_TEST("shfl.ub.mask_mismatch", ShflLanesWithDifferentMasks) {
  Shuffle idx(FormId::ShflIdx, 0, 0x1f, 0x0000000fu);
  for (unsigned i = 4; i < 32; ++i) model::set_status(idx.w, i, LaneStatus::Inactive);
  idx.w.mask[2] = 0x00000007u;  // names lanes 0-2; lanes 0, 1, 3 name lane 2 with another mask
  EXPECT_TRUE(fires(idx.run(), ClauseId::ShflUbMaskMismatch, 0x0000000fu));
}

CLAUSE_TEST("shfl.ub.sm6x_convergence", ShflSplitCallSitesOnSm6x) {
  // The same state is defined on sm_90 and undefined on sm_60: the named lanes reach it from
  // two call sites.
  Shuffle idx(FormId::ShflIdx, 0, 0x1f);
  for (unsigned i = 16; i < 32; ++i) idx.w.site[i] = 1;
  EXPECT_TRUE(idx.run().ub.empty());
  EXPECT_TRUE(fires(idx.run(spec::Target{60, 0}), ClauseId::ShflUbSm6xConvergence, ~0u));
}

}  // namespace
}  // namespace warpspec
