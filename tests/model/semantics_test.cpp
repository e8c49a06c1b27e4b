// One or more tests per catalog clause. Every expected value below follows from the rule quoted
// (in our words) in the clause's catalog entry, or from the worked example with real output that
// accompanies the CUDA match functions; none was produced by running the model.
#include <bit>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "model/clause_helpers.hpp"
#include "model/clause_test.hpp"
#include "model/eval.hpp"
#include "model/render.hpp"

namespace warpspec {
namespace {

// ------------------------------------------------------------------------------- match.sync

CLAUSE_TEST("match.any.result", MatchAnyWorkedExample) {
  // The worked example: lanes 0-1 hold 5, the rest 6, full mask.
  auto in = instr(FormId::MatchAnyB32);
  auto w = warp_with([](unsigned i) { return i > 1 ? 6u : 5u; });
  auto r = model::evaluate(in, w);
  for (unsigned i = 0; i < 32; ++i)
    EXPECT_EQ(r.outcome.d[i], i < 2 ? 0x3u : 0xfffffffcu) << show(in, w, r);
  EXPECT_TRUE(r.ub.empty());
}

CLAUSE_TEST("match.any.result", MatchAnyOnlyCountsLanesOfTheMask) {
  // Lanes 0-7 run with mask 0xff; lanes 8-31 hold the same value but are not named.
  auto in = instr(FormId::MatchAnyB32);
  auto w = warp_with([](unsigned i) { return i % 2; }, 0xffu);
  for (unsigned i = 8; i < 32; ++i) model::set_status(w, i, LaneStatus::Inactive);
  auto r = model::evaluate(in, w);
  for (unsigned i = 0; i < 8; ++i)
    EXPECT_EQ(r.outcome.d[i], i % 2 ? 0xaau : 0x55u) << show(in, w, r);
  EXPECT_TRUE(r.ub.empty()) << show(in, w, r);
}

CLAUSE_TEST("match.all.result", MatchAllWorkedExample) {
  auto in = instr(FormId::MatchAllB32);
  auto w = warp_with([](unsigned i) { return i > 1 ? 6u : 5u; });
  auto r = model::evaluate(in, w);
  for (unsigned i = 0; i < 32; ++i) EXPECT_EQ(r.outcome.d[i], 0u);
}

CLAUSE_TEST("match.all.result", MatchAllEqualGivesTheMask) {
  auto in = instr(FormId::MatchAllB64);
  auto w = warp_with([](unsigned) { return 0x123456789abcdef0ull; }, 0x0f0f0f0fu);
  for (unsigned i = 0; i < 32; ++i)
    if (!((0x0f0f0f0fu >> i) & 1)) model::set_status(w, i, LaneStatus::Inactive);
  auto r = model::evaluate(in, w);
  for (unsigned i = 0; i < 32; i += 8) EXPECT_EQ(r.outcome.d[i], 0x0f0f0f0fu) << show(in, w, r);
}

CLAUSE_TEST("match.all.pred", MatchAllPredicate) {
  auto in = instr(FormId::MatchAllB32);
  auto differ = warp_with([](unsigned i) { return i > 1 ? 6u : 5u; });
  auto same = warp_with([](unsigned) { return 7u; });
  auto r1 = model::evaluate(in, differ);
  auto r2 = model::evaluate(in, same);
  for (unsigned i = 0; i < 32; ++i) {
    EXPECT_FALSE(r1.outcome.p[i]);
    EXPECT_TRUE(r2.outcome.p[i]);
    EXPECT_EQ(r2.outcome.d[i], 0xffffffffu);
  }
}

CLAUSE_TEST("match.participants", MatchIgnoresExitedLanes) {
  // Lanes 28-31 exited holding other values: match.all still sees one value among the rest, and
  // the result mask leaves the exited lanes out. Exited lanes in the mask are not UB.
  auto w = warp_with([](unsigned i) { return i >= 28 ? 99u : 1u; });
  for (unsigned i = 28; i < 32; ++i) model::set_status(w, i, LaneStatus::Exited);
  auto all = model::evaluate(instr(FormId::MatchAllB32), w);
  auto any = model::evaluate(instr(FormId::MatchAnyB32), w);
  EXPECT_TRUE(all.ub.empty());
  for (unsigned i = 0; i < 28; ++i) {
    EXPECT_EQ(all.outcome.d[i], 0x0fffffffu);
    EXPECT_TRUE(all.outcome.p[i]);
    EXPECT_EQ(any.outcome.d[i], 0x0fffffffu);
  }
  for (unsigned i = 28; i < 32; ++i) EXPECT_FALSE(all.outcome.executes[i]);
}

CLAUSE_TEST("match.compare.bits", MatchB64ComparesTheHighHalf) {
  // Even and odd lanes differ only in bit 32.
  auto w = warp_with([](unsigned i) { return uint64_t{i % 2} << 32 | 5u; });
  auto r = model::evaluate(instr(FormId::MatchAnyB64), w);
  for (unsigned i = 0; i < 32; ++i) EXPECT_EQ(r.outcome.d[i], i % 2 ? 0xaaaaaaaau : 0x55555555u);
  auto all = model::evaluate(instr(FormId::MatchAllB64), w);
  EXPECT_FALSE(all.outcome.p[0]);
}

CLAUSE_TEST("match.compare.bits", MatchB32ComparesOnlyThe32BitOperand) {
  // A b32 operand is the low word; bits above it are not part of the operand.
  auto w = warp_with([](unsigned i) { return uint64_t{i} << 32 | 5u; });
  auto r = model::evaluate(instr(FormId::MatchAllB32), w);
  EXPECT_TRUE(r.outcome.p[0]);
  EXPECT_EQ(r.outcome.d[0], 0xffffffffu);
}

CLAUSE_TEST("match.compare.bits", MatchFloatComparesRepresentations) {
  // float values through __match_any_sync: +0.0 and -0.0 differ although they compare equal as
  // numbers; a NaN matches the same NaN bits but not another payload.
  std::array<uint32_t, 4> vals{f32(0.0f), f32(-0.0f), 0x7fc00001u, 0x7fc00002u};
  auto w = warp_with([&](unsigned i) { return vals[i % 4]; });
  auto r = model::evaluate(instr(FormId::MatchAnyB32), w);
  for (unsigned i = 0; i < 32; ++i) EXPECT_EQ(r.outcome.d[i], 0x11111111u << (i % 4));
  // double: the same holds for 64-bit patterns.
  auto wd = warp_with([](unsigned i) { return i % 2 ? f64(-0.0) : f64(0.0); });
  auto rd = model::evaluate(instr(FormId::MatchAnyB64), wd);
  EXPECT_EQ(rd.outcome.d[0], 0x55555555u);
  EXPECT_EQ(rd.outcome.d[1], 0xaaaaaaaau);
}

CLAUSE_TEST("match.ub.self_not_in_mask", MatchLaneOutsideItsOwnMask) {
  auto in = instr(FormId::MatchAnyB32);
  in.imm_mask = 0xfffffffeu;  // every lane passes a mask without lane 0, and lane 0 executes
  auto w = warp_with([](unsigned) { return 1u; });
  auto r = model::evaluate(in, w);
  EXPECT_TRUE(fires(r, ClauseId::MatchUbSelfNotInMask, 0x1u)) << show(in, w, r);
  // UB belongs to the whole instruction: lane 1 is left undefined too (on sm_90 lane 0 joins the
  // others' group or traps the kernel).
  EXPECT_FALSE(r.defined(0));
  EXPECT_FALSE(r.defined(1));
}

CLAUSE_TEST("match.ub.self_not_in_mask", UndefinedBehaviourOnOneLaneLeavesNoLaneDefined) {
  // Lanes 0-15 and 16-31 run as two groups; only lane 3 leaves itself out of its mask.
  auto in = instr(FormId::MatchAnyB32);
  auto w = warp_with([](unsigned) { return 1u; });
  for (unsigned i = 0; i < 32; ++i) w.mask[i] = i < 16 ? 0x0000ffffu : 0xffff0000u;
  w.mask[3] = 0x0000fff7u;
  auto r = model::evaluate(in, w);
  EXPECT_TRUE(fires(r, ClauseId::MatchUbSelfNotInMask, 0x8u)) << show(in, w, r);
  for (unsigned i = 0; i < 32; ++i) EXPECT_FALSE(r.defined(i)) << "lane " << i;
  w.mask[3] = 0x0000ffffu;
  auto ok = model::evaluate(in, w);
  for (unsigned i = 0; i < 32; ++i) EXPECT_TRUE(ok.defined(i)) << "lane " << i;
}

CLAUSE_TEST("match.ub.peer_absent", MatchNamedLaneThatDoesNotArrive) {
  auto in = instr(FormId::MatchAnyB32);
  auto w = warp_with([](unsigned) { return 1u; });
  model::set_status(w, 5, LaneStatus::Inactive);
  auto r = model::evaluate(in, w);
  EXPECT_TRUE(fires(r, ClauseId::MatchUbPeerAbsent, 0xffffffdfu)) << show(in, w, r);
  // The same lane having exited is no problem.
  model::set_status(w, 5, LaneStatus::Exited);
  EXPECT_TRUE(model::evaluate(in, w).ub.empty());
}

CLAUSE_TEST("match.ub.mask_mismatch", MatchLanesWithDifferentMasks) {
  auto in = instr(FormId::MatchAnyB32);
  auto w = warp_with([](unsigned) { return 1u; });
  for (unsigned i = 0; i < 16; ++i) w.mask[i] = 0x0000ffffu;  // lanes 16-31 keep 0xffffffff
  auto r = model::evaluate(in, w);
  // Lanes 16-31 name lanes 0-15, which pass another mask; lanes 0-15 only name each other.
  EXPECT_TRUE(fires(r, ClauseId::MatchUbMaskMismatch, 0xffff0000u)) << show(in, w, r);
  EXPECT_FALSE(r.defined(3));
}

// ------------------------------------------------------------------------------- vote.sync

CLAUSE_TEST("vote.all", VoteAll) {
  auto all_true = warp_with([](unsigned) { return 1u; });
  auto one_false = warp_with([](unsigned i) { return i == 17 ? 0u : 1u; });
  EXPECT_EQ(model::evaluate(instr(FormId::VoteAll), all_true).outcome.d[0], 1u);
  EXPECT_EQ(model::evaluate(instr(FormId::VoteAll), one_false).outcome.d[0], 0u);
}

CLAUSE_TEST("vote.any", VoteAny) {
  auto none = warp_with([](unsigned) { return 0u; });
  auto one = warp_with([](unsigned i) { return i == 17 ? 1u : 0u; });
  EXPECT_EQ(model::evaluate(instr(FormId::VoteAny), none).outcome.d[3], 0u);
  EXPECT_EQ(model::evaluate(instr(FormId::VoteAny), one).outcome.d[3], 1u);
}

CLAUSE_TEST("vote.uni", VoteUniIsTrueWhenAllAgree) {
  auto t = warp_with([](unsigned) { return 1u; });
  auto f = warp_with([](unsigned) { return 0u; });
  auto mixed = warp_with([](unsigned i) { return i == 0 ? 1u : 0u; });
  EXPECT_EQ(model::evaluate(instr(FormId::VoteUni), t).outcome.d[0], 1u);
  EXPECT_EQ(model::evaluate(instr(FormId::VoteUni), f).outcome.d[0], 1u);
  EXPECT_EQ(model::evaluate(instr(FormId::VoteUni), mixed).outcome.d[0], 0u);
  // Negating the source does not change .uni.
  EXPECT_EQ(model::evaluate(instr(FormId::VoteUni, true), mixed).outcome.d[0], 0u);
  EXPECT_EQ(model::evaluate(instr(FormId::VoteUni, true), f).outcome.d[0], 1u);
}

CLAUSE_TEST("vote.ballot", VoteBallotIsZeroOutsideTheMask) {
  // Lanes 16-31 are alive with true predicates but outside the mask: they contribute 0.
  auto w = warp_with([](unsigned i) { return i % 3 == 0 ? 1u : 0u; }, 0x0000ffffu);
  for (unsigned i = 16; i < 32; ++i) {
    model::set_status(w, i, LaneStatus::Inactive);
    w.a[i] = 1;
  }
  auto r = model::evaluate(instr(FormId::VoteBallot), w);
  EXPECT_EQ(r.outcome.d[0], 0x9249u);  // lanes 0,3,6,9,12,15
  EXPECT_TRUE(r.ub.empty());
}

CLAUSE_TEST("vote.negate", VoteNegatedSource) {
  auto w = warp_with([](unsigned i) { return i < 4 ? 1u : 0u; });
  EXPECT_EQ(model::evaluate(instr(FormId::VoteBallot, true), w).outcome.d[0], 0xfffffff0u);
  // .all of !a is "none": false here because lanes 0-3 are true...
  EXPECT_EQ(model::evaluate(instr(FormId::VoteAll, true), w).outcome.d[0], 0u);
  // ...and true when every predicate is false. .any of !a is "not all".
  auto none = warp_with([](unsigned) { return 0u; });
  EXPECT_EQ(model::evaluate(instr(FormId::VoteAll, true), none).outcome.d[0], 1u);
  EXPECT_EQ(model::evaluate(instr(FormId::VoteAny, true), w).outcome.d[0], 1u);
}

CLAUSE_TEST("vote.participants", VoteIgnoresExitedLanes) {
  // Lane 31 exited with a false predicate: .all stays true and the ballot has no bit for it.
  auto w = warp_with([](unsigned i) { return i == 31 ? 0u : 1u; });
  model::set_status(w, 31, LaneStatus::Exited);
  EXPECT_EQ(model::evaluate(instr(FormId::VoteAll), w).outcome.d[0], 1u);
  w.a[31] = 1;
  EXPECT_EQ(model::evaluate(instr(FormId::VoteBallot), w).outcome.d[0], 0x7fffffffu);
  EXPECT_TRUE(model::evaluate(instr(FormId::VoteBallot), w).ub.empty());
}

CLAUSE_TEST("vote.ub.self_not_in_mask", VoteLaneOutsideItsOwnMask) {
  auto in = instr(FormId::VoteAny);
  in.imm_mask = 0x7fffffffu;
  auto r = model::evaluate(in, warp_with([](unsigned) { return 1u; }));
  EXPECT_TRUE(fires(r, ClauseId::VoteUbSelfNotInMask, 0x80000000u));
}

CLAUSE_TEST("vote.ub.peer_absent", VoteNamedLaneThatDoesNotArrive) {
  auto w = warp_with([](unsigned) { return 1u; }, 0x3u);
  for (unsigned i = 1; i < 32; ++i) model::set_status(w, i, LaneStatus::Inactive);
  auto r = model::evaluate(instr(FormId::VoteBallot), w);
  EXPECT_TRUE(fires(r, ClauseId::VoteUbPeerAbsent, 0x1u));
}

CLAUSE_TEST("vote.ub.mask_mismatch", VoteLanesWithDifferentMasks) {
  auto w = warp_with([](unsigned) { return 1u; });
  w.mask[7] = 0x000000ffu;
  auto r = model::evaluate(instr(FormId::VoteAll), w);
  // Every lane but 7 names lane 7 (another mask); lane 7 names lanes 0-6 (another mask).
  EXPECT_TRUE(fires(r, ClauseId::VoteUbMaskMismatch, 0xffffffffu));
}

CLAUSE_TEST("vote.ub.sm6x_convergence", VoteDivergentOnlyMattersBeforeVolta) {
  auto w = warp_with([](unsigned) { return 1u; });
  for (unsigned i = 16; i < 32; ++i) w.site[i] = 1;  // two branches reach the same vote
  auto old = model::evaluate(instr(FormId::VoteBallot), w, spec::Target{60, 0}, {6, 0});
  EXPECT_TRUE(fires(old, ClauseId::VoteUbSm6xConvergence, 0xffffffffu));
  auto volta = model::evaluate(instr(FormId::VoteBallot), w, spec::Target{70, 0}, {6, 0});
  EXPECT_TRUE(volta.ub.empty());
  EXPECT_EQ(volta.outcome.d[0], 0xffffffffu);
}

// ------------------------------------------------------------------------------- redux.sync

uint32_t redux(FormId f, const Warp& w, spec::Target t = spec::kDefaultTarget) {
  auto r = model::evaluate(instr(f), w, t);
  EXPECT_TRUE(r.ub.empty());
  return r.outcome.d[0];
}

CLAUSE_TEST("redux.add", ReduxAddWraps) {
  EXPECT_EQ(redux(FormId::ReduxAddU32, warp_with([](unsigned) { return 0x80000000u; })), 0u);
  EXPECT_EQ(redux(FormId::ReduxAddU32, warp_with([](unsigned i) { return i; })), 496u);
  EXPECT_EQ(redux(FormId::ReduxAddS32, warp_with([](unsigned) { return 0xffffffffu; })),
            static_cast<uint32_t>(-32));
  EXPECT_EQ(redux(FormId::ReduxAddU32, warp_with([](unsigned i) {
                    return i == 0 ? 0xffffffffu : i == 1 ? 2u : 0u;
                  })),
            1u);
}

CLAUSE_TEST("redux.minmax.int", ReduxSignednessFollowsTheType) {
  auto w = warp_with([](unsigned i) { return i % 2 ? 0xffffffffu : 1u; });  // -1 and 1
  EXPECT_EQ(redux(FormId::ReduxMinS32, w), 0xffffffffu);
  EXPECT_EQ(redux(FormId::ReduxMinU32, w), 1u);
  EXPECT_EQ(redux(FormId::ReduxMaxS32, w), 1u);
  EXPECT_EQ(redux(FormId::ReduxMaxU32, w), 0xffffffffu);
  auto extremes = warp_with([](unsigned i) {
    return i == 3 ? 0x80000000u : i == 4 ? 0x7fffffffu : 0u;
  });
  EXPECT_EQ(redux(FormId::ReduxMinS32, extremes), 0x80000000u);
  EXPECT_EQ(redux(FormId::ReduxMaxS32, extremes), 0x7fffffffu);
  EXPECT_EQ(redux(FormId::ReduxMaxU32, extremes), 0x80000000u);
  EXPECT_EQ(redux(FormId::ReduxMinU32, extremes), 0u);
}

CLAUSE_TEST("redux.bitwise", ReduxAndOrXorWorkOnBits) {
  auto w = warp_with([](unsigned i) { return 0xf0f0f0f0u | (1u << i); });
  EXPECT_EQ(redux(FormId::ReduxAnd, w), 0xf0f0f0f0u);
  EXPECT_EQ(redux(FormId::ReduxOr, w), 0xffffffffu);
  // A bit of the 0xf0f0f0f0 pattern is set on all 32 lanes (even count: 0); any other bit b is
  // set only on lane b (odd count: 1).
  EXPECT_EQ(redux(FormId::ReduxXor, w), 0x0f0f0f0fu);
  // Logical values are not bits: 2 AND 1 is 0, not "true".
  auto two_one = warp_with([](unsigned i) { return i == 0 ? 2u : 1u; });
  EXPECT_EQ(redux(FormId::ReduxAnd, two_one), 0u);
}

CLAUSE_TEST("redux.participants", ReduxIgnoresExitedLanesAndLanesOutsideTheMask) {
  auto w = warp_with([](unsigned i) { return i < 8 ? 1u : 1000u; }, 0x0000ffffu);
  for (unsigned i = 8; i < 16; ++i) model::set_status(w, i, LaneStatus::Exited);
  for (unsigned i = 16; i < 32; ++i) model::set_status(w, i, LaneStatus::Inactive);
  EXPECT_EQ(redux(FormId::ReduxAddU32, w), 8u);
  EXPECT_EQ(redux(FormId::ReduxMaxU32, w), 1u);
}

const spec::Target kSm100a{100, 'a'};

CLAUSE_TEST("redux.f32.zero_order", ReduxF32OrdersNegativeZeroBelowPositiveZero) {
  auto w = warp_with([](unsigned i) { return i % 2 ? f32(-0.0f) : f32(0.0f); });
  EXPECT_EQ(redux(FormId::ReduxMaxF32, w, kSm100a), f32(0.0f));
  EXPECT_EQ(redux(FormId::ReduxMinF32, w, kSm100a), f32(-0.0f));
  auto mixed = warp_with([](unsigned i) {
    return i == 9 ? f32(-1.5f) : i == 10 ? f32(2.5f) : f32(0.0f);
  });
  EXPECT_EQ(redux(FormId::ReduxMinF32, mixed, kSm100a), f32(-1.5f));
  EXPECT_EQ(redux(FormId::ReduxMaxF32, mixed, kSm100a), f32(2.5f));
}

CLAUSE_TEST("redux.f32.abs", ReduxF32AbsClearsSigns) {
  auto w = warp_with([](unsigned i) { return i == 0 ? f32(-5.0f) : f32(3.0f); });
  EXPECT_EQ(redux(FormId::ReduxMaxAbsF32, w, kSm100a), f32(5.0f));
  EXPECT_EQ(redux(FormId::ReduxMinAbsF32, w, kSm100a), f32(3.0f));
  EXPECT_EQ(redux(FormId::ReduxMaxF32, w, kSm100a), f32(3.0f));
  EXPECT_EQ(redux(FormId::ReduxMinF32, w, kSm100a), f32(-5.0f));
}

CLAUSE_TEST("redux.f32.nan_skip", ReduxF32SkipsNaNsWithoutTheQualifier) {
  auto w = warp_with([](unsigned i) {
    return i == 0 ? 0x7fc00000u : i == 1 ? 0xffc00123u : f32(2.0f);
  });
  w.a[5] = f32(1.0f);
  EXPECT_EQ(redux(FormId::ReduxMinF32, w, kSm100a), f32(1.0f));
  EXPECT_EQ(redux(FormId::ReduxMaxF32, w, kSm100a), f32(2.0f));
  auto all_nan = warp_with([](unsigned i) { return 0x7f800001u + i; });
  EXPECT_EQ(redux(FormId::ReduxMaxF32, all_nan, kSm100a), spec::kCanonicalNanF32);
  EXPECT_EQ(redux(FormId::ReduxMinAbsF32, all_nan, kSm100a), spec::kCanonicalNanF32);
}

CLAUSE_TEST("redux.f32.nan_propagate", ReduxF32NaNQualifierPropagates) {
  auto w = warp_with([](unsigned i) { return i == 30 ? 0xff800001u : f32(1.0f); });
  EXPECT_EQ(redux(FormId::ReduxMinNanF32, w, kSm100a), spec::kCanonicalNanF32);
  EXPECT_EQ(redux(FormId::ReduxMaxAbsNanF32, w, kSm100a), spec::kCanonicalNanF32);
  // Infinity is not NaN.
  w.a[30] = f32(-INFINITY);
  EXPECT_EQ(redux(FormId::ReduxMinNanF32, w, kSm100a), f32(-INFINITY));
  EXPECT_EQ(redux(FormId::ReduxMaxAbsNanF32, w, kSm100a), f32(INFINITY));
}

CLAUSE_TEST("redux.ub.self_not_in_mask", ReduxLaneOutsideItsOwnMask) {
  auto in = instr(FormId::ReduxAddU32);
  in.imm_mask = 0x0000fffeu;
  auto w = warp_with([](unsigned) { return 1u; });
  for (unsigned i = 16; i < 32; ++i) model::set_status(w, i, LaneStatus::Inactive);
  auto r = model::evaluate(in, w);
  EXPECT_TRUE(fires(r, ClauseId::ReduxUbSelfNotInMask, 0x1u));
  EXPECT_FALSE(r.defined(1));
}

CLAUSE_TEST("redux.ub.peer_absent", ReduxNamedLaneThatDoesNotArrive) {
  auto w = warp_with([](unsigned) { return 1u; });
  model::set_status(w, 0, LaneStatus::Inactive);
  auto r = model::evaluate(instr(FormId::ReduxXor), w);
  EXPECT_TRUE(fires(r, ClauseId::ReduxUbPeerAbsent, 0xfffffffeu));
  EXPECT_FALSE(r.defined(1));
}

CLAUSE_TEST("redux.ub.mask_mismatch", ReduxLanesWithDifferentMasks) {
  auto w = warp_with([](unsigned) { return 1u; }, 0x3u);
  w.mask[1] = 0x7u;
  model::set_status(w, 2, LaneStatus::Exited);  // lane 1 names an exited lane: fine
  for (unsigned i = 3; i < 32; ++i) model::set_status(w, i, LaneStatus::Inactive);
  auto r = model::evaluate(instr(FormId::ReduxAddU32), w);
  EXPECT_TRUE(fires(r, ClauseId::ReduxUbMaskMismatch, 0x3u));
}

// ------------------------------------------------------------------------------- __syncwarp

CLAUSE_TEST("syncwarp.exited_ok", SyncwarpWithExitedLanes) {
  auto in = instr(FormId::BarWarpSync);
  auto w = model::make_warp();
  model::set_status(w, 30, LaneStatus::Exited);
  model::set_status(w, 31, LaneStatus::Exited);
  EXPECT_TRUE(model::evaluate(in, w).ub.empty());
}

CLAUSE_TEST("syncwarp.ub.self_not_in_mask", SyncwarpCallerOutsideItsMask) {
  auto w = model::make_warp(0x0000ffffu);
  for (unsigned i = 16; i < 32; ++i) w.mask[i] = 0xffff0000u;
  w.mask[20] = 0xffef0000u;  // lane 20 leaves itself out
  auto r = model::evaluate(instr(FormId::BarWarpSync), w);
  EXPECT_TRUE(fires(r, ClauseId::SyncwarpUbSelfNotInMask, 1u << 20));
}

CLAUSE_TEST("syncwarp.ub.peer_absent", SyncwarpNamedLaneMissing) {
  auto w = model::make_warp();
  model::set_status(w, 31, LaneStatus::Inactive);
  auto r = model::evaluate(instr(FormId::BarWarpSync), w);
  EXPECT_TRUE(fires(r, ClauseId::SyncwarpUbPeerAbsent, 0x7fffffffu));
}

CLAUSE_TEST("syncwarp.ub.mask_mismatch", SyncwarpDifferentMasks) {
  auto w = model::make_warp(0x3u);
  w.mask[1] = 0x2u;  // lane 0 names lane 1, which syncs with another mask
  for (unsigned i = 2; i < 32; ++i) model::set_status(w, i, LaneStatus::Inactive);
  auto r = model::evaluate(instr(FormId::BarWarpSync), w);
  EXPECT_TRUE(fires(r, ClauseId::SyncwarpUbMaskMismatch, 0x1u));
}

CLAUSE_TEST("syncwarp.ub.sm6x_convergence", SyncwarpUnionMustEqualTheActiveLanesBeforeVolta) {
  // Lanes 0-3 call with mask 0x1f; lane 4 has exited. Fine from sm_70 on; on sm_6x the union of
  // the masks (0x1f) is not the set of lanes executing it (0x0f).
  auto w = model::make_warp(0x1fu);
  model::set_status(w, 4, LaneStatus::Exited);
  for (unsigned i = 5; i < 32; ++i) model::set_status(w, i, LaneStatus::Inactive);
  auto old = model::evaluate(instr(FormId::BarWarpSync), w, spec::Target{61, 0}, {6, 0});
  EXPECT_TRUE(fires(old, ClauseId::SyncwarpUbSm6xConvergence, 0xfu));
  EXPECT_TRUE(model::evaluate(instr(FormId::BarWarpSync), w, spec::Target{70, 0}).ub.empty());
}

// ------------------------------------------------------------------------------- __syncthreads

model::CtaResult cta(FormId f, const model::Cta& c) {
  return model::evaluate_cta(instr(f), c);
}

CLAUSE_TEST("cta.count", SyncthreadsCountCountsNonZeroPredicates) {
  auto c = model::make_cta(64);
  c.pred[0] = 1;
  c.pred[1] = 2;
  c.pred[63] = static_cast<uint32_t>(-1);
  auto r = cta(FormId::BarRedPopc, c);
  EXPECT_EQ(r.outcome.d[0], 3u);
  EXPECT_TRUE(r.ub.empty());
}

CLAUSE_TEST("cta.and", SyncthreadsAnd) {
  auto c = model::make_cta(96);
  for (auto& p : c.pred) p = 7;
  EXPECT_EQ(cta(FormId::BarRedAnd, c).outcome.d[0], 1u);
  c.pred[95] = 0;
  EXPECT_EQ(cta(FormId::BarRedAnd, c).outcome.d[0], 0u);
}

CLAUSE_TEST("cta.or", SyncthreadsOr) {
  auto c = model::make_cta(33);
  EXPECT_EQ(cta(FormId::BarRedOr, c).outcome.d[0], 0u);
  c.pred[32] = 5;
  EXPECT_EQ(cta(FormId::BarRedOr, c).outcome.d[0], 1u);
}

CLAUSE_TEST("cta.participants", SyncthreadsIgnoresExitedThreads) {
  auto c = model::make_cta(64);
  for (auto& p : c.pred) p = 1;
  c.exited[10] = true;
  c.arrive[10] = false;
  c.pred[10] = 0;  // an exited thread's false predicate does not spoil the AND
  EXPECT_EQ(cta(FormId::BarRedAnd, c).outcome.d[0], 1u);
  EXPECT_EQ(cta(FormId::BarRedPopc, c).outcome.d[0], 63u);
  c.pred[10] = 1;
  c.pred[11] = 0;
  for (auto& p : c.pred) p = 0;
  c.pred[10] = 1;  // only the exited thread is true
  EXPECT_EQ(cta(FormId::BarRedOr, c).outcome.d[0], 0u);
  EXPECT_TRUE(cta(FormId::BarSync, c).ub.empty());
}

CLAUSE_TEST("cta.ub.not_reached", SyncthreadsThatSomeThreadSkips) {
  auto c = model::make_cta(64);
  c.arrive[40] = false;  // alive but in a branch without the barrier
  auto r = cta(FormId::BarSync, c);
  ASSERT_EQ(r.ub.size(), 1u);
  EXPECT_EQ(r.ub[0].clause, ClauseId::CtaUbNotReached);
  EXPECT_EQ(r.ub[0].threads.size(), 63u);
  EXPECT_FALSE(r.outcome.ub[0].threads[40]);
}

// ------------------------------------------------------------------------------- activemask

// The rule (PTX ISA, activemask): a lane executing the instruction contributes 1; a lane that has
// exited, is elsewhere (inactive) or is predicated off contributes 0. The state's call site tells
// which executing lanes run the instruction together.
CLAUSE_TEST("activemask.participants", ActivemaskLeavesOutExitedAndInactiveLanes) {
  auto in = instr(FormId::Activemask);
  Warp w = model::make_warp(0);
  for (unsigned i = 0; i < 32; ++i) {
    if (i % 4 == 1) model::set_status(w, i, LaneStatus::Exited);
    if (i % 4 == 2) model::set_status(w, i, LaneStatus::Inactive);
  }
  auto r = model::evaluate(in, w);
  EXPECT_TRUE(r.ub.empty()) << show(in, w, r);
  for (unsigned i = 0; i < 32; ++i) {
    const bool runs = i % 4 == 0 || i % 4 == 3;
    EXPECT_EQ(r.outcome.executes[i], runs) << i;
    if (runs) {
      EXPECT_EQ(r.outcome.d[i], 0x99999999u) << show(in, w, r);
    }
  }
}

CLAUSE_TEST("activemask.participants", ActivemaskLanesAtAnotherSiteAreNotTogether) {
  // Lanes 0-15 reach it from one branch, 16-31 from another: two instances, two words.
  auto in = instr(FormId::Activemask);
  Warp w = model::make_warp(0);
  for (unsigned i = 16; i < 32; ++i) w.site[i] = 1;
  model::set_status(w, 3, LaneStatus::Exited);
  model::set_status(w, 20, LaneStatus::Inactive);
  auto r = model::evaluate(in, w);
  for (unsigned i = 0; i < 32; ++i) {
    if (i == 3 || i == 20) continue;
    EXPECT_EQ(r.outcome.d[i], i < 16 ? 0x0000fff7u : 0xffef0000u) << i << show(in, w, r);
  }
}

CLAUSE_TEST("activemask.result", ActivemaskHasNoMembermaskAndNoUndefinedCase) {
  // Whatever masks the lanes hold (none is read), a lone lane sees itself, every lane is defined
  // and no clause fires.
  auto in = instr(FormId::Activemask);
  Warp w = model::make_warp(0x00000001u);
  for (unsigned i = 0; i < 32; ++i)
    if (i != 9) model::set_status(w, i, LaneStatus::Inactive);
  auto r = model::evaluate(in, w);
  EXPECT_TRUE(r.ub.empty());
  EXPECT_TRUE(r.defined(9));
  EXPECT_EQ(r.outcome.d[9], 1u << 9) << show(in, w, r);
  auto all = model::evaluate(in, model::make_warp(0u));
  for (unsigned i = 0; i < 32; ++i) EXPECT_EQ(all.outcome.d[i], 0xffffffffu);
}

// ------------------------------------------------------------------------------- availability

bool available(FormId f, spec::Target t, spec::PtxVersion v) {
  return spec::check_availability(spec::form_info(f).avail, t, v).available;
}

TEST(Availability, FollowsTheTargetAndPtxNotes) {
  using T = spec::Target;
  EXPECT_TRUE(available(FormId::MatchAnyB32, T{70, 0}, {6, 0}));
  EXPECT_FALSE(available(FormId::MatchAnyB32, T{61, 0}, {6, 0}));
  EXPECT_FALSE(available(FormId::MatchAnyB32, T{70, 0}, {5, 0}));
  EXPECT_TRUE(available(FormId::VoteBallot, T{30, 0}, {6, 0}));
  EXPECT_TRUE(available(FormId::ReduxAddU32, T{80, 0}, {7, 0}));
  EXPECT_FALSE(available(FormId::ReduxAddU32, T{75, 0}, {7, 0}));
  EXPECT_FALSE(available(FormId::ReduxAddU32, T{80, 0}, {6, 5}));
  // .f32: sm_100a from PTX 8.6; sm_100f from 8.8; not on plain or other targets.
  EXPECT_TRUE(available(FormId::ReduxMinF32, T{100, 'a'}, {8, 6}));
  EXPECT_FALSE(available(FormId::ReduxMinF32, T{100, 'f'}, {8, 6}));
  EXPECT_TRUE(available(FormId::ReduxMinF32, T{100, 'f'}, {8, 8}));
  EXPECT_FALSE(available(FormId::ReduxMinF32, T{100, 0}, {8, 8}));
  EXPECT_FALSE(available(FormId::ReduxMinF32, T{90, 'a'}, {8, 8}));
  EXPECT_FALSE(available(FormId::ReduxMinF32, T{103, 'f'}, {8, 8}));
  // .abs/.NaN: also later f targets of the sm_100 family.
  EXPECT_TRUE(available(FormId::ReduxMaxAbsNanF32, T{103, 'f'}, {8, 8}));
  EXPECT_FALSE(available(FormId::ReduxMaxAbsNanF32, T{120, 'f'}, {8, 8}));
  EXPECT_FALSE(available(FormId::ReduxMaxAbsNanF32, T{103, 'a'}, {8, 8}));
}

TEST(Availability, IsAVerdictNotUndefinedBehaviour) {
  auto r = model::evaluate(instr(FormId::ReduxAddU32), warp_with([](unsigned) { return 2u; }),
                           spec::Target{75, 0}, {7, 0});
  EXPECT_FALSE(r.availability.available);
  EXPECT_NE(r.availability.reason.find("sm_80"), std::string::npos) << r.availability.reason;
  EXPECT_TRUE(r.ub.empty());
  EXPECT_EQ(r.outcome.d[0], 64u);
}

// ------------------------------------------------------------------------------- the catalog

TEST(Catalog, EveryClauseHasATest) {
  for (const auto& c : spec::kClauses)
    EXPECT_TRUE(test::tested_clauses().count(std::string(c.key))) << "no test for clause " << c.key;
}

TEST(Catalog, EveryClauseKeyIsUniqueAndNamesItsFamily) {
  std::set<std::string_view> keys;
  for (const auto& c : spec::kClauses) {
    EXPECT_TRUE(keys.insert(c.key).second) << c.key;
    EXPECT_EQ(spec::find_clause(c.key), c.id);
  }
  for (const auto& f : spec::kForms)
    for (auto id : f.clauses) {
      auto key = spec::clause_info(id).key;
      auto family = key.substr(0, key.find('.'));
      static const std::map<spec::Family, std::string_view> expect{
          {spec::Family::Match, "match"},    {spec::Family::Vote, "vote"},
          {spec::Family::Redux, "redux"},    {spec::Family::WarpBarrier, "syncwarp"},
          {spec::Family::CtaBarrier, "cta"}, {spec::Family::Activemask, "activemask"},
          {spec::Family::Shfl, "shfl"},      {spec::Family::Elect, "elect"}};
      EXPECT_EQ(family, expect.at(f.family)) << f.name << " lists " << key;
    }
}

TEST(Catalog, FormNamesRoundTrip) {
  for (const auto& f : spec::kForms) EXPECT_EQ(spec::find_form(f.name), f.id);
  EXPECT_EQ(spec::kForms.size(), 37u);
}

TEST(Catalog, IntrinsicsLowerToFormsOfMatchingWidth) {
  for (const auto& i : spec::all_intrinsics()) {
    const auto& f = spec::form_info(i.form);
    if (f.family == spec::Family::Match) {
      EXPECT_EQ(spec::ctype_bits(i.value_type), f.a_type == spec::OperandType::B64 ? 64 : 32)
          << i.signature;
    }
    if (f.a_type == spec::OperandType::S32) {
      EXPECT_EQ(i.value_type, spec::CType::Int) << i.signature;
    }
    if (f.a_type == spec::OperandType::U32) {
      EXPECT_EQ(i.value_type, spec::CType::Unsigned) << i.signature;
    }
    // A shuffle moves 32 bits, or 64 as two b32 shuffles (Instr::wide) of the same form.
    if (f.family == spec::Family::Shfl)
      EXPECT_EQ(spec::is_wide_shuffle(i), spec::ctype_bits(i.value_type) == 64) << i.signature;
    else
      EXPECT_FALSE(spec::is_wide_shuffle(i)) << i.signature;
  }
}

TEST(Catalog, EveryShuffleIntrinsicHasEveryValueTypeOnce) {
  // The four shuffle intrinsics each take the eight value types CUDA gives them: int, unsigned
  // and float through the b32 form, the five 64-bit ones through it twice.
  std::map<std::string_view, std::set<spec::CType>> types;
  std::map<std::string_view, spec::FormId> form;
  std::size_t rows = 0, wide = 0;
  for (const auto& i : spec::all_intrinsics()) {
    if (spec::form_info(i.form).family != spec::Family::Shfl) continue;
    ++rows;
    wide += spec::is_wide_shuffle(i);
    EXPECT_TRUE(types[i.name].insert(i.value_type).second) << i.signature << " twice";
    EXPECT_TRUE(form.emplace(i.name, i.form).first->second == i.form) << i.signature;
  }
  // Every C type but void, of which those of 64 bits go through the form twice.
  std::size_t value_types = 0, wide_types = 0;
  for (int t = 0; t <= static_cast<int>(spec::CType::Double); ++t) {
    const auto ct = static_cast<spec::CType>(t);
    value_types += ct != spec::CType::Void;
    wide_types += spec::ctype_bits(ct) == 64;
  }
  EXPECT_EQ(form.size(), 4u);  // __shfl_sync, __shfl_up_sync, __shfl_down_sync, __shfl_xor_sync
  for (const auto& [name, ts] : types) {
    EXPECT_EQ(ts.size(), value_types) << name;
    EXPECT_FALSE(ts.count(spec::CType::Void)) << name;
  }
  EXPECT_EQ(rows, form.size() * value_types);
  EXPECT_EQ(wide, form.size() * wide_types);
}

}  // namespace
}  // namespace warpspec
