// elect.sync's clauses. Every expected value follows from the PTX ISA's elect.sync (as the
// catalog paraphrases it) worked out by hand for the state at hand. Where the text leaves the
// leader open, the model's choice is the lowest lane of the membermask (what sm_90 elects,
// docs/observed-behaviour.md); the tests that check a choice say so, and
// `spec::elect_choice_admissible` states what any choice must satisfy.
#include "model/clause_helpers.hpp"
#include "model/clause_test.hpp"
#include "spec/elect.hpp"

namespace warpspec {
namespace {

// Lanes of `lanes` execute with membermask `mask`; every other lane is alive and elsewhere.
void group(Warp& w, uint32_t lanes, uint32_t mask) {
  for (unsigned i = 0; i < 32; ++i)
    if ((lanes >> i) & 1u) {
      model::set_status(w, i, LaneStatus::Executes);
      w.mask[i] = mask;
    }
}

Warp idle() {
  Warp w = model::make_warp(0);
  for (unsigned i = 0; i < 32; ++i) model::set_status(w, i, LaneStatus::Inactive);
  return w;
}

model::WarpResult run(const Warp& w) {
  return model::evaluate(instr(FormId::ElectSync), w, spec::kDefaultTarget);
}

CLAUSE_TEST("elect.participants", ElectEachMembermaskHoldsItsOwnElection) {
  // Two groups with their own masks, and one lane alone: three elections, each among the
  // lanes its mask names (the model picks the lowest of each).
  Warp w = idle();
  group(w, 0x0000fff0u, 0x0000fff0u);
  group(w, 0x7fff0000u, 0x7fff0000u);
  group(w, 0x80000000u, 0x80000000u);
  const auto r = run(w);
  for (unsigned i = 0; i < 32; ++i) {
    if (i < 4) continue;  // inactive
    ASSERT_TRUE(r.defined(i)) << show(instr(FormId::ElectSync), w, r);
    const unsigned want = i < 16 ? 4 : i < 31 ? 16 : 31;
    EXPECT_EQ(r.outcome.d[i], want) << "lane " << i << show(instr(FormId::ElectSync), w, r);
  }
}

CLAUSE_TEST("elect.leader", ElectTheLeaderIsALaneOfTheMembermask) {
  // Mask 0x00f00f00 over exactly those lanes: every lane gets one lane number, a lane of the
  // mask (the model's choice, the lowest: 8).
  Warp w = idle();
  group(w, 0x00f00f00u, 0x00f00f00u);
  const auto r = run(w);
  for (unsigned i = 8; i < 24; ++i) {
    if (!((0x00f00f00u >> i) & 1u)) continue;
    ASSERT_TRUE(r.defined(i));
    EXPECT_EQ(r.outcome.d[i], 8u) << "lane " << i;
  }
  // What the text allows one lane to answer: any lane of the mask, with p set exactly when that
  // lane is itself.
  const model::Concrete d;
  using C = model::Concrete;
  EXPECT_TRUE((spec::elect_choice_admissible<C, 32>(d, 0x00f00f00u, 9, 22u, false)));
  EXPECT_TRUE((spec::elect_choice_admissible<C, 32>(d, 0x00f00f00u, 22, 22u, true)));
  EXPECT_FALSE((spec::elect_choice_admissible<C, 32>(d, 0x00f00f00u, 9, 12u, false)));  // 12 not named
  EXPECT_FALSE((spec::elect_choice_admissible<C, 32>(d, 0x00f00f00u, 9, 40u, false)));  // no lane
  EXPECT_FALSE((spec::elect_choice_admissible<C, 32>(d, 0x00f00f00u, 9, 22u, true)));   // p elsewhere
}

CLAUSE_TEST("elect.pred", ElectPIsTrueOnTheLeaderAlone) {
  Warp w = idle();
  group(w, 0xffff0000u, 0xffff0000u);
  group(w, 0x0000ffffu, 0x0000ffffu);
  const auto r = run(w);
  for (unsigned i = 0; i < 32; ++i)
    EXPECT_EQ(r.outcome.p[i], i == 0 || i == 16) << "lane " << i;
}

CLAUSE_TEST("elect.deterministic", ElectTheSameMembermaskElectsTheSameLaneWhateverSurroundsIt) {
  // Mask 0x0ff00000 elects lane 20 whether it runs alone, beside another group, or with every
  // other lane elsewhere.
  Warp alone = idle();
  group(alone, 0x0ff00000u, 0x0ff00000u);
  Warp beside = alone;
  group(beside, 0x000000ffu, 0x000000ffu);
  Warp sites = alone;
  for (unsigned i = 24; i < 28; ++i) sites.site[i] = 1;
  for (const auto* w : {&alone, &beside, &sites}) {
    const auto r = run(*w);
    for (unsigned i = 20; i < 28; ++i) {
      ASSERT_TRUE(r.defined(i)) << show(instr(FormId::ElectSync), *w, r);
      EXPECT_EQ(r.outcome.d[i], 20u);
      EXPECT_EQ(r.outcome.p[i], i == 20);
    }
  }
}

CLAUSE_TEST("elect.ub.self_not_in_mask", ElectALaneOutsideItsOwnMaskIsUndefined) {
  Warp w = idle();
  group(w, 0x3u, 0x3u);
  w.mask[0] = 0x2u;  // lane 0 names only lane 1
  const auto r = run(w);
  EXPECT_TRUE(fires(r, ClauseId::ElectUbSelfNotInMask, 0x1u)) << show(instr(FormId::ElectSync), w, r);
}

CLAUSE_TEST("elect.ub.peer_absent", ElectANamedLaneThatDoesNotExecuteIsUndefinedExitedOrNot) {
  // Lane 1 alive elsewhere, named by lane 0: undefined.
  Warp w = idle();
  group(w, 0x1u, 0x3u);
  auto r = run(w);
  EXPECT_TRUE(fires(r, ClauseId::ElectUbPeerAbsent, 0x1u)) << show(instr(FormId::ElectSync), w, r);
  // Lanes 16-31 exited under the full mask: still undefined, unlike match, vote, redux and shfl.
  Warp x = model::make_warp(0xffffffffu);
  for (unsigned i = 16; i < 32; ++i) model::set_status(x, i, LaneStatus::Exited);
  r = run(x);
  EXPECT_TRUE(fires(r, ClauseId::ElectUbPeerAbsent, 0x0000ffffu)) << show(instr(FormId::ElectSync), x, r);
  // The same warp under vote.sync is defined: the exemption elect.sync lacks.
  const auto v = model::evaluate(instr(FormId::VoteAny), x, spec::kDefaultTarget);
  EXPECT_TRUE(v.ub.empty());
}

CLAUSE_TEST("elect.ub.mask_mismatch", ElectLanesNamingEachOtherWithOtherMasksAreUndefined) {
  // Lane 0 names {0, 1}, lane 1 names {0, 1, 2}, lane 2 names {2}: lane 1 names lane 2, which
  // passes another mask, and lane 0 names lane 1 (sm_90 hangs on this state: observed).
  Warp w = idle();
  group(w, 0x1u, 0x3u);
  group(w, 0x2u, 0x7u);
  group(w, 0x4u, 0x4u);
  const auto r = run(w);
  EXPECT_TRUE(fires(r, ClauseId::ElectUbMaskMismatch, 0x3u)) << show(instr(FormId::ElectSync), w, r);
}

}  // namespace
}  // namespace warpspec
