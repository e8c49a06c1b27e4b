// The capture format, the state generator and the replay, without a GPU: the model stands in for
// the hardware, so a round trip must agree on every defined lane.
#include "capture/format.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <bit>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "capture/generate.hpp"
#include "capture/replay.hpp"
#include "capture/variants.hpp"
#include "spec/shfl.hpp"

namespace warpspec::capture {
namespace {

namespace fs = std::filesystem;

bool is_probe(StateSet s) {
  return s != StateSet::Main && s != StateSet::TwoSite;
}

/// Fills a record's observations with the model's answer (a stand-in for the GPU). Where a
/// shuffle's d is open, the model's d is the a of the lane read.
void simulate(WarpRecord& r) {
  const auto res = model::evaluate(instr_of(r), warp_of(r));
  for (unsigned i = 0; i < 32; ++i) {
    const bool exec = r.status[i] == model::LaneStatus::Executes;
    r.d[i] = exec ? res.outcome.d[i] : 0;
    r.p[i] = exec && res.outcome.p[i];
  }
}

void simulate(CtaRecord& r) {
  const auto res = model::evaluate_cta(instr_of(r), cta_of(r));
  for (std::size_t t = 0; t < r.exited.size(); ++t) r.d[t] = r.exited[t] ? 0 : res.outcome.d[t];
}

/// The same for a named-barrier record, as the harness writes it: every arriving thread comes
/// back where the state is defined; where UB fires, the threads that wait stay behind (only
/// bar.arrive goes on) and the launch is recorded as hung.
void simulate_named(CtaRecord& r) {
  const auto res = model::evaluate_cta(instr_of(r), cta_of(r));
  const bool arrive = r.form == spec::FormId::BarArrive;
  r.ran.emplace(r.exited.size(), false);
  r.fault.clear();
  for (std::size_t t = 0; t < r.exited.size(); ++t) {
    // bar.arrive's threads, and a bar.sync's bar.arrive partners, never wait.
    const bool waits = arrive == r.partner[t];
    (*r.ran)[t] = r.arrives(t) && (!res.outcome.any_ub || !waits);
    if (r.arrives(t) && !(*r.ran)[t]) r.fault = "hang (no return within 3 s)";
    r.d[t] = r.executes(t) && (*r.ran)[t] ? res.outcome.d[t] : 0;
  }
}

Header test_header(const std::string& set) {
  Header h;
  h.device = "simulated";
  h.sm = "sm_90";
  h.driver = h.runtime = "13.0";
  h.ptx = "9.0";
  h.set = set;
  h.seed = 7;
  return h;
}

fs::path temp_path(const std::string& name) {
  return fs::temp_directory_path() /
         ("warpspec-capture-test-" + std::to_string(::getpid()) + "-" + name);
}

TEST(CaptureGenerator, EveryStateIsSafeAndOnlyProbesAreUndefined) {
  for (const auto& v : kVariants) {
    if (static_cast<int>(v.id) >= kFirstCtaVariant) continue;
    for (StateSet set : state_sets(v)) {
      for (const auto& r : generate_warp_states(v, set, 11, 200)) {
        ASSERT_FALSE(hang_risk(r, set))
            << v.name << " " << state_set_name(set) << ": " << *hang_risk(r, set);
        const auto res = model::evaluate(instr_of(r), warp_of(r));
        if (!is_probe(set)) {
          EXPECT_TRUE(res.ub.empty()) << v.name << " " << state_set_name(set) << " tag " << r.tag;
          continue;
        }
        // A probe fires the clauses it is about and no other; the first three put exactly one
        // lane outside its own mask.
        ASSERT_FALSE(res.ub.empty()) << v.name << " " << state_set_name(set) << " tag " << r.tag;
        for (const auto& f : res.ub)
          EXPECT_TRUE(probe_fires(set, v.form, f.clause))
              << v.name << " " << state_set_name(set) << ": " << spec::clause_info(f.clause).key;
        if (set <= StateSet::ProbeExitedOnly) {
          EXPECT_TRUE(spec::clause_info(res.ub[0].clause).key.ends_with(".ub.self_not_in_mask"));
          EXPECT_EQ(std::popcount(res.ub[0].lanes), 1);
        }
      }
    }
  }
}

TEST(CaptureGenerator, ElectStatesLeanToTheCorners) {
  // The defined sets name no lane that does not execute, exited ones included, yet have exited
  // and inactive lanes around the groups; lane 31 alone, single lanes, several elections side by
  // side, holes, and (two-site) a mask's lowest lane arriving from the second branch. The probes:
  // an absent lane below the group's lowest one, and the chain of masks known to hang sm_90.
  const auto& v = variant_info(VariantId::ElectSync);
  std::size_t lane31 = 0, single = 0, elections2 = 0, holes = 0, exited = 0, inactive = 0;
  for (const auto& r : generate_warp_states(v, StateSet::Main, 3, 2000)) {
    std::set<uint32_t> masks;
    for (unsigned i = 0; i < 32; ++i) {
      if (r.status[i] != model::LaneStatus::Executes) continue;
      masks.insert(r.mask[i]);
      for (unsigned j = 0; j < 32; ++j)
        if ((r.mask[i] >> j) & 1u) {
          ASSERT_EQ(r.status[j], model::LaneStatus::Executes) << r.tag;
        }
    }
    lane31 += masks.count(0x80000000u);
    single +=
        std::any_of(masks.begin(), masks.end(), [](uint32_t m) { return std::has_single_bit(m); });
    elections2 += masks.size() >= 2;
    holes += r.tag.find("+holes") != std::string::npos;
    exited += std::count(r.status.begin(), r.status.end(), model::LaneStatus::Exited) > 0;
    inactive += std::count(r.status.begin(), r.status.end(), model::LaneStatus::Inactive) > 0;
  }
  EXPECT_GE(lane31, 100u);
  EXPECT_GE(single, 300u);
  EXPECT_GE(elections2, 500u);
  EXPECT_GE(holes, 300u);
  EXPECT_GE(exited, 500u);
  EXPECT_GE(inactive, 500u);
  std::size_t late_leader = 0;
  for (const auto& r : generate_warp_states(v, StateSet::TwoSite, 3, 600))
    for (unsigned i = 0; i < 32; ++i)
      late_leader += r.status[i] == model::LaneStatus::Executes && r.site[i] == 1 &&
                     std::countr_zero(r.mask[i]) == static_cast<int>(i);
  EXPECT_GE(late_leader, 100u);
  for (StateSet set : {StateSet::ProbeNamesExited, StateSet::ProbeNamesIdle}) {
    std::size_t below = 0;
    for (const auto& r : generate_warp_states(v, set, 3, 100)) below += r.tag.ends_with("/below");
    EXPECT_GE(below, 25u) << state_set_name(set);
  }
  bool known_hang = false;
  for (const auto& r : generate_warp_states(v, StateSet::ProbeMaskMismatch, 3, 30))
    known_hang = known_hang || r.tag == "probe/mask-mismatch/chain";
  EXPECT_TRUE(known_hang);
}

TEST(CaptureGenerator, CoversTheCorners) {
  // Across the main set of one form: exited lanes, inactive lanes, single-lane, full and holed
  // masks, two groups with different masks, and (two-site set) lanes from two branches.
  const auto& v = variant_info(VariantId::MatchAnyB64);
  bool exited = false, inactive = false, single = false, full = false, groups = false, hi = false;
  for (const auto& r : generate_warp_states(v, StateSet::Main, 3, 2000)) {
    uint32_t masks_seen = 0;
    std::set<uint32_t> masks;
    for (unsigned i = 0; i < 32; ++i) {
      exited |= r.status[i] == model::LaneStatus::Exited;
      inactive |= r.status[i] == model::LaneStatus::Inactive;
      if (r.status[i] == model::LaneStatus::Executes) masks.insert(r.mask[i]), ++masks_seen;
    }
    single |= masks_seen == 1;
    full |= masks.count(0xffffffffu) > 0;
    groups |= masks.size() >= 2;
    hi |= r.tag.ends_with("/high-half");
  }
  EXPECT_TRUE(exited && inactive && single && full && groups && hi);
  bool split = false;
  for (const auto& r : generate_warp_states(v, StateSet::TwoSite, 3, 50))
    for (unsigned i = 0; i < 32; ++i) split |= r.site[i] == 1;
  EXPECT_TRUE(split);
}

TEST(CaptureGenerator, ShufflesLeanToTheCorners) {
  // Per PTX shuffle, over its main set: lanes whose source is inactive, exited or outside the
  // reader's mask (d open, p defined), and many more with d pinned down; p both ways; b past 31
  // and large; c with the widths' segment masks, odd ones, bits that do not count, and lane by
  // lane; lane-distinct values. The intrinsics: widths per state and per lane, c made from them.
  for (const auto& v : kVariants) {
    if (!spec::has_operands_bc(v.form)) continue;
    const bool intrinsic = v.via == Via::Intrinsic;
    std::array<std::size_t, 3> open{};
    std::size_t pinned = 0, p_true = 0, p_false = 0, wide_b = 0, large_b = 0, b_lanes = 0,
                c_lanes = 0, odd_seg = 0, junk_c = 0, distinct = 0, two_groups = 0;
    std::set<uint32_t> widths;
    for (const auto& r : generate_warp_states(v, StateSet::Main, 17, 2000)) {
      const auto res = model::evaluate(instr_of(r), warp_of(r));
      ASSERT_TRUE(res.ub.empty()) << v.name << " " << r.tag;
      std::set<uint32_t> masks, bs, cs, values;
      for (unsigned i = 0; i < 32; ++i) {
        bs.insert(r.b[i]), cs.insert(r.c[i]), values.insert(static_cast<uint32_t>(r.a[i]));
        if (r.b[i] >= 32 && r.b[i] < 64) ++wide_b;
        if (r.b[i] >= 64) ++large_b;
        // A width's segment mask is high bits only (0, 16, 24, 28, 30, 31): its clear bits are
        // the low ones.
        const uint32_t clear = ~(r.c[i] >> 8) & 0x1f;
        if (clear & (clear + 1)) ++odd_seg;
        if (r.c[i] & ~0x1f1fu) ++junk_c;
        if (r.width) widths.insert((*r.width)[i]);
        if (r.status[i] != model::LaneStatus::Executes) continue;
        masks.insert(r.mask[i]);
        (res.outcome.p[i] ? p_true : p_false)++;
        if (res.d_defined(i)) {
          ++pinned;
          continue;
        }
        const unsigned j =
            spec::shfl_source(model::Concrete{}, spec::form_info(v.form).mode, i, r.b[i], r.c[i])
                .lane;
        ++open[r.status[j] == model::LaneStatus::Inactive ? 0
               : r.status[j] == model::LaneStatus::Exited ? 1
                                                          : 2];
      }
      b_lanes += bs.size() > 1;
      c_lanes += cs.size() > 1;
      distinct += values.size() == 32;
      two_groups += masks.size() >= 2;
    }
    SCOPED_TRACE(v.name);
    for (auto n : open) EXPECT_GE(n, 400u);
    EXPECT_GE(pinned, 2 * (open[0] + open[1] + open[2]));
    EXPECT_GE(p_true, 5000u);
    // __shfl_sync's clamp is the segment's last lane, which .idx never passes.
    if (v.id != VariantId::ShflIdxIntr) {
      EXPECT_GE(p_false, 5000u);
    }
    EXPECT_GE(wide_b, 5000u);
    EXPECT_GE(large_b, 5000u);
    EXPECT_GE(b_lanes, 500u);
    EXPECT_GE(c_lanes, 400u);
    EXPECT_GE(distinct, 1000u);
    EXPECT_GE(two_groups, 500u);
    if (intrinsic) {
      EXPECT_EQ(widths, (std::set<uint32_t>{1, 2, 4, 8, 16, 32}));
    } else {
      EXPECT_GE(odd_seg, 5000u);
      EXPECT_GE(junk_c, 5000u);
    }
  }
}

TEST(CaptureFormat, RoundTripAgreesWithTheModel) {
  for (const char* ext : {".jsonl", ".jsonl.gz"}) {
    const fs::path path = temp_path(std::string("round") + ext);
    std::vector<Record> written;
    {
      Writer w(path, test_header("mixed"));
      for (const auto& v : kVariants) {
        if (static_cast<int>(v.id) < kFirstCtaVariant) {
          for (StateSet set : state_sets(v))
            for (auto r : generate_warp_states(v, set, 5, 20)) {
              simulate(r);
              w.write(r);
              written.push_back(r);
            }
        } else {
          for (auto r : generate_cta_states(v, 5, 20)) {
            simulate(r);
            w.write(r);
            written.push_back(r);
          }
        }
      }
      w.close();
    }
    Reader rd(path);
    EXPECT_EQ(rd.header().device, "simulated");
    EXPECT_EQ(rd.header().seed, 7u);
    Record r;
    std::size_t k = 0;
    while (rd.next(r)) {
      ASSERT_LT(k, written.size());
      EXPECT_EQ(to_line(r), to_line(written[k])) << "record " << k << " at line " << rd.line();
      ++k;
    }
    EXPECT_EQ(k, written.size());

    Replayer rp;
    rp.add_file(path);
    const Tally t = rp.total();
    EXPECT_EQ(t.states, written.size());
    EXPECT_EQ(t.mismatched, 0u);
    EXPECT_GT(t.agreed, 0u);
    EXPECT_GT(t.undefined, 0u);  // the probes
    EXPECT_GT(t.d_open, 0u);     // shuffles reading a lane that does not take part
    for (const auto& [key, ob] : rp.open_d())
      EXPECT_EQ(ob.matched[static_cast<int>(OpenValue::Source)], ob.lanes) << key;
    for (const auto& [_, ob] : rp.observations()) {
      EXPECT_TRUE(ob.tag.starts_with("probe/")) << ob.tag;
      // The model stood in for the GPU, so its own formula reproduces every undefined lane.
      EXPECT_EQ(ob.reproduced[static_cast<int>(Reading::AsWritten)], ob.lanes);
    }
    fs::remove(path);
  }
}

TEST(CaptureFormat, AMismatchIsReportedWithItsLaneTable) {
  auto recs = generate_warp_states(variant_info(VariantId::ReduxAddU32), StateSet::Main, 9, 1);
  WarpRecord r = recs[0];
  simulate(r);
  unsigned lane = 0;
  while (r.status[lane] != model::LaneStatus::Executes) ++lane;
  r.d[lane] ^= 1;
  Replayer rp;
  rp.add_record(r, test_header("main"), "mem", 2);
  EXPECT_EQ(rp.total().mismatched, 1u);
  ASSERT_EQ(rp.mismatches().size(), 1u);
  const std::string table = lane_table(rp.mismatches()[0], false);
  EXPECT_NE(table.find("MISMATCH"), std::string::npos);
  EXPECT_NE(table.find("redux.add"), std::string::npos);
}

/// An empty hand-made record of a variant that writes d and p.
WarpRecord hand_made_record(VariantId id) {
  WarpRecord r;
  const Variant& v = variant_info(id);
  r.form = v.form;
  r.instr = v.text;
  r.has_d = r.has_p = true;
  r.tag = "hand-made";
  return r;
}

/// shfl.sync.idx on lanes 0-15 (mask 0x0000ffff; lanes 16-31 inactive): each lane reads the next
/// one within its group, except lane 0, which reads lane 20. The model's answers filled in.
WarpRecord hand_made_shuffle() {
  WarpRecord r = hand_made_record(VariantId::ShflIdx);
  for (unsigned i = 0; i < 32; ++i) {
    r.status[i] = i < 16 ? model::LaneStatus::Executes : model::LaneStatus::Inactive;
    r.mask[i] = i < 16 ? 0x0000ffffu : 0;
    r.a[i] = 0xa000u + i;
    r.b[i] = (i + 1) % 16;
    r.c[i] = 0x1f;
  }
  r.b[0] = 20;
  simulate(r);
  return r;
}

TEST(CaptureFormat, AShuffleMismatchOnADefinedLaneIsReported) {
  WarpRecord r = hand_made_shuffle();
  const Record back = parse_record(to_line(r), "mem", 1);
  EXPECT_EQ(to_line(back), to_line(r));
  EXPECT_EQ(std::get<WarpRecord>(back).b, r.b);
  r.d[3] ^= 0x100;
  Replayer rp;
  rp.add_record(r, test_header("main"), "mem", 2);
  EXPECT_EQ(rp.total().mismatched, 1u);
  EXPECT_EQ(rp.total().d_open, 1u);
  ASSERT_EQ(rp.mismatches().size(), 1u);
  const std::string table = lane_table(rp.mismatches()[0], true);
  EXPECT_NE(table.find("MISMATCH"), std::string::npos) << table;
  EXPECT_NE(table.find("p only"), std::string::npos) << table;
}

TEST(CaptureFormat, AShuffleDifferingOnlyWhereDIsOpenIsAnObservation) {
  WarpRecord r = hand_made_shuffle();
  r.d[0] = 0x12345678;  // not lane 20's a, nor anyone's: the spec leaves it open
  Replayer rp;
  rp.add_record(r, test_header("main"), "mem", 2);
  const Tally t = rp.total();
  EXPECT_EQ(t.mismatched, 0u);
  EXPECT_EQ(t.d_open, 1u);
  EXPECT_EQ(t.lanes, 16u);  // lane 0's p is still compared
  EXPECT_EQ(t.undefined, 0u);
  EXPECT_TRUE(rp.observations().empty());
  ASSERT_EQ(rp.open_d().size(), 1u);
  const OpenObservation& ob = rp.open_d().begin()->second;
  EXPECT_EQ(ob.form, "shfl.sync.idx.b32");
  EXPECT_EQ(ob.source, OpenSource::Inactive);
  EXPECT_EQ(ob.lanes, 1u);
  EXPECT_EQ(ob.none, 1u);
  ASSERT_EQ(ob.examples.size(), 1u);
  EXPECT_TRUE(ob.none_examples.empty());  // the one state is an example already
  EXPECT_NE(lane_table(ob.examples[0], true).find("?"), std::string::npos);
  EXPECT_NE(observations_json(rp).find("\"source\": \"inactive\""), std::string::npos);

  // Lane 0 returning its own value is read as such; a wrong p there is still a mismatch.
  r.d[0] = 0xa000;
  Replayer own;
  own.add_record(r, test_header("main"), "mem", 2);
  EXPECT_EQ(own.open_d().begin()->second.only[static_cast<int>(OpenValue::Own)], 1u);
  r.p[0] = !r.p[0];
  Replayer wrong_p;
  wrong_p.add_record(r, test_header("main"), "mem", 2);
  EXPECT_EQ(wrong_p.total().mismatched, 1u);
}

/// elect.sync with two elections side by side: lanes 0-7 pass 0x000000ff, lanes 8-15 pass
/// 0x0000ff00, the rest sit it out. Each election's leader is set to `first` and `second`.
WarpRecord hand_made_election(unsigned first, unsigned second) {
  WarpRecord r = hand_made_record(VariantId::ElectSync);
  for (unsigned i = 0; i < 32; ++i) {
    r.status[i] = i < 16 ? model::LaneStatus::Executes : model::LaneStatus::Inactive;
    r.mask[i] = i < 8 ? 0x000000ffu : i < 16 ? 0x0000ff00u : 0;
    const unsigned leader = i < 8 ? first : second;
    r.d[i] = i < 16 ? leader : 0;
    r.p[i] = i < 16 && i == leader;
  }
  return r;
}

TEST(CaptureFormat, AnElectionIsHeldToTheLeaderTheTextAllows) {
  // The model elects the lowest lane; the text allows any lane of the membermask, the same one
  // for a membermask every time. The highest lanes are as good an answer, and are counted so.
  Replayer rp;
  rp.add_record(hand_made_election(7, 15), test_header("main"), "mem", 2);
  EXPECT_EQ(rp.total().lanes, 16u);
  EXPECT_EQ(rp.total().agreed, 16u);
  EXPECT_EQ(rp.total().mismatched, 0u);
  ASSERT_EQ(rp.leaders().size(), 1u);
  const LeaderObservation& ob = rp.leaders().begin()->second;
  EXPECT_EQ(ob.elections, 2u);
  EXPECT_EQ(ob.highest, 2u);
  EXPECT_EQ(ob.lowest, 0u);
  EXPECT_NE(observations_json(rp).find("\"highest_lane\": 2"), std::string::npos);

  // The same membermask electing another lane later on the same device is a mismatch; on
  // another device it is not.
  rp.add_record(hand_made_election(0, 15), test_header("main"), "mem", 3);
  EXPECT_EQ(rp.total().mismatched, 8u);
  Header other = test_header("main");
  other.device = "another";
  rp.add_record(hand_made_election(0, 15), other, "mem", 4);
  EXPECT_EQ(rp.total().mismatched, 8u);

  // A leader outside the membermask, lanes of one election that disagree, p on a lane that is
  // not the leader: each a mismatch, even on a fresh replay.
  WarpRecord outside = hand_made_election(9, 15);
  WarpRecord split = hand_made_election(0, 8);
  split.d[3] = 5;
  WarpRecord wrong_p = hand_made_election(0, 8);
  wrong_p.p[1] = true;
  for (const WarpRecord* r : {&outside, &split, &wrong_p}) {
    Replayer fresh;
    fresh.add_record(*r, test_header("main"), "mem", 2);
    EXPECT_GT(fresh.total().mismatched, 0u) << to_line(*r);
    ASSERT_EQ(fresh.mismatches().size(), 1u);
    EXPECT_NE(lane_table(fresh.mismatches()[0], true).find("MISMATCH"), std::string::npos);
  }
}

TEST(CaptureFormat, ATrapIsAnObservationOnlyWhereSomeLaneHasUb) {
  const auto& v = variant_info(VariantId::MatchAllB32);
  WarpRecord probe = generate_warp_states(v, StateSet::ProbeSelfOutside, 4, 1)[0];
  WarpRecord plain = generate_warp_states(v, StateSet::Main, 4, 1)[0];
  for (WarpRecord* r : {&probe, &plain}) {
    r->fault = "cudaErrorIllegalInstruction";
    const Record back = parse_record(to_line(*r), "mem", 1);
    EXPECT_EQ(to_line(back), to_line(*r));
    EXPECT_EQ(std::get<WarpRecord>(back).fault, r->fault);
    EXPECT_TRUE(std::get<WarpRecord>(back).has_p);
  }
  auto executing = [](const WarpRecord& r) {
    std::size_t n = 0;
    for (auto s : r.status) n += s == model::LaneStatus::Executes;
    return n;
  };
  Replayer with_ub;
  with_ub.add_record(probe, test_header("probe"), "mem", 2);
  EXPECT_EQ(with_ub.total().mismatched, 0u);
  EXPECT_EQ(with_ub.total().undefined, executing(probe));
  ASSERT_EQ(with_ub.observations().size(), 1u);
  EXPECT_EQ(with_ub.observations().begin()->second.faulted_states, 1u);
  // UB leaves no lane of the instruction defined, so a trap takes no defined lane with it.
  EXPECT_EQ(with_ub.observations().begin()->second.lost_lanes, 0u);

  Replayer without_ub;
  without_ub.add_record(plain, test_header("main"), "mem", 2);
  EXPECT_EQ(without_ub.total().mismatched, executing(plain));
  ASSERT_EQ(without_ub.mismatches().size(), 1u);
  EXPECT_NE(lane_table(without_ub.mismatches()[0], false).find("the launch failed"),
            std::string::npos);
}

struct Malformed {
  std::string line;
  std::size_t column;
  std::string expect;  // the message after the place
};

TEST(CaptureFormat, MalformedRecordsNameTheLineColumnPathAndWhatWasExpected) {
  const std::string ok_head =
      R"({"form":"vote.sync.any.pred","via":"ptx","instr":"vote.sync.any.pred d, a, membermask;",)";
  std::vector<Malformed> cases{
      {"not json", 1, "expected a JSON object, found 'not'"},
      {"[1,2]", 1, "expected a JSON object, found an array"},
      {R"({"via":"ptx"})", 1, "missing field \"form\""},
      {R"({"form":"match.none.sync.b32"})", 9,
       "form: unknown form 'match.none.sync.b32': expected a catalog name such as "
       "match.any.sync.b32"},
      {ok_head + R"("executes":"0x3","exited":"0x1","mask":"0x3","a":"0x1","d":"0x1"})", 115,
       "exited: lanes 0x1 are both executing and exited"},
      {ok_head + R"("executes":"0x3","exited":"0x0","mask":"0x1ffffffff","a":"0x1","d":"0x1"})",
       128, "mask: value 0x1ffffffff does not fit in 32 bits"},
      {ok_head + R"("executes":"0x3","exited":"0x0","mask":"0xzz","a":"0x1","d":"0x1"})", 128,
       "mask: bad hex digit in \"0xzz\""},
      {ok_head + R"("executes":"0x3","exited":"0x0","mask":["0x3"],"a":"0x1","d":"0x1"})", 128,
       "mask: expected 32 entries, found 1"},
      {ok_head + R"("executes":"0x3","exited":"0x0","mask":"0x3","a":"0x1"})", 1,
       "a warp record needs an observed \"d\" or \"p\""},
      {ok_head + R"("executes":"0x3","exited":"0x0","mask":"0x3","a":"0x1","d":"0x1","p":1})", 158,
       "p: vote.sync.any.pred has no p result"},
      {R"({"form":"vote.sync.any.pred","via":"intrinsic","call":"__match_any_sync","ctype":"float","executes":"0x1","exited":"0x0","mask":"0x1","a":"0x0","d":"0x0"})",
       55, "call: intrinsic __match_any_sync(float) does not lower to vote.sync.any.pred"},
      {ok_head + R"("executes":"0x3","exited":"0x0","mask":"0x3","a":"0x1","fault":"x","d":"0x1"})",
       160, "d: a record with \"fault\" carries no d, p or active"},
      {ok_head +
           R"("executes":"0x3","exited":"0x0","mask":"0x3","a":"0x1","fault":"x","writes":"q"})",
       165, "writes: expected \"d\", \"p\" or \"d|p\", found \"q\""},
      {R"({"form":"bar.red.popc.u32","via":"intrinsic","call":"__syncthreads_count","ctype":"int","threads":64,"exited":["0x0"],"pred":"0x0","d":"0x0"})",
       111, "exited: expected an array of 2 lane words, one per warp"},
      {ok_head + R"("executes":"0x3","exited":"0x0","mask":"0x3","a":"0x1","d":"0x1","d":"0x1"})",
       154, "d: the member \"d\" is given twice"},
      {ok_head + R"("executes":"0x3","exited":"0x0","mask":"0x3","a":"0x1","d":[null,"0x1"]})", 149,
       "d[0]: null, but that lane or thread executes"},
      {ok_head + R"("executes":"0x3","exited":"0x0","mask":"0x3","a":"0x1","d":"0x1"} x)", 155,
       "unexpected text after the JSON object: 'x'"},
      {ok_head + R"("executes":"0x3","exited":"0x0","mask":"0x3","a":"0x1","d":"0x1")", 153,
       "expected ',' or '}', found the end of the line"},
  };
  const std::string shfl_head =
      R"({"form":"shfl.sync.idx.b32","via":"ptx","instr":"shfl.sync.idx.b32 d|p, a, b, c, membermask;",)";
  const std::string shfl_intr =
      R"({"form":"shfl.sync.down.b32","via":"intrinsic","call":"__shfl_down_sync","ctype":"int",)";
  const std::vector<Malformed> shuffle_cases{
      {shfl_head +
           R"("executes":"0x3","exited":"0x0","mask":"0x3","a":"0x1","b":"0x1","d":"0x1","p":1})",
       1, "missing field \"c\""},
      {ok_head + R"("executes":"0x3","exited":"0x0","mask":"0x3","a":"0x1","b":"0x1","d":"0x1"})",
       148, "b: vote.sync.any.pred has no b operand"},
      {shfl_head +
           R"("executes":"0x3","exited":"0x0","mask":"0x3","a":"0x1","b":"0x1","c":"0x1f","width":32,"d":"0x1"})",
       179, "width: only a shuffle intrinsic takes a width"},
      {shfl_intr +
           R"("executes":"0x3","exited":"0x0","mask":"0x3","a":"0x1","b":"0x1","c":"0x1f","width":8,"d":"0x1"})",
       157, "c: lane 0: c is 0x1f, but __shfl_down_sync passes 0x181f for width 8"},
      {shfl_intr +
           R"("executes":"0x3","exited":"0x0","mask":"0x3","a":"0x1","b":"0x1","c":"0x1f","d":"0x1"})",
       1, "missing field \"width\""},
      {shfl_intr +
           R"("executes":"0x3","exited":"0x0","mask":"0x3","a":"0x1","b":"0x1","c":"0x201f","width":[0,1],"d":"0x1"})",
       175, "width[0]: expected a width from 1 to 32, found '0'"},
      {R"({"form":"shfl.sync.down.b32","via":"intrinsic","call":"__shfl_sync","ctype":"int","executes":"0x1","exited":"0x0","mask":"0x1","a":"0x0","b":"0x0","c":"0x1f","width":32,"d":"0x0"})",
       55, "call: intrinsic __shfl_sync(int) does not lower to shfl.sync.down.b32"},
  };
  cases.insert(cases.end(), shuffle_cases.begin(), shuffle_cases.end());
  for (const auto& c : cases) {
    try {
      parse_record(c.line, "f.jsonl", 4);
      ADD_FAILURE() << "accepted: " << c.line;
    } catch (const FormatError& e) {
      EXPECT_EQ(e.line(), 4u);
      EXPECT_EQ(e.column(), c.column) << e.what();
      EXPECT_EQ(std::string(e.what()), "f.jsonl:4:" + std::to_string(c.column) + ": " + c.expect);
    }
  }
}

TEST(CaptureFormat, ReaderRejectsMissingFilesAndBadHeaders) {
  EXPECT_THROW(Reader(temp_path("absent.jsonl")), MissingFile);
  const fs::path p = temp_path("bad.jsonl");
  {
    std::ofstream(p)
        << R"({"schema":"warpspec-capture/2","device":"x","sm":"sm_90","driver":"1","runtime":"1"})"
        << "\n";
  }
  try {
    Reader r(p);
    ADD_FAILURE() << "accepted schema 2";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.line(), 1u);
    EXPECT_NE(std::string(e.what()).find("warpspec-capture/1"), std::string::npos);
  }
  fs::remove(p);
}

// A gzip file is read member by member to its very end: two members read as one file, and bytes
// after the last member, a cut-off member or a damaged one are errors, never silently dropped.
TEST(CaptureFormat, AGzipFileIsReadToItsEndAndNothingAfterItIsDropped) {
  const auto& v = variant_info(VariantId::VoteBallot);
  auto recs = generate_warp_states(v, StateSet::Main, 3, 40);
  for (auto& r : recs) simulate(r);
  const fs::path one = temp_path("one.jsonl.gz"), two = temp_path("two.jsonl.gz");
  for (const auto& path : {one, two}) {
    Writer w(path, test_header("main"));
    for (const auto& r : recs) w.write(r);
    w.close();
  }
  auto bytes = [](const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string a = bytes(one), b = bytes(two);
  auto count = [&](const std::string& content) {
    const fs::path p = temp_path("probe.jsonl.gz");
    std::ofstream(p, std::ios::binary) << content;
    Reader rd(p);
    Record r;
    std::size_t n = 0;
    while (rd.next(r)) ++n;
    fs::remove(p);
    return n;
  };
  EXPECT_EQ(count(a), recs.size());
  // The second member is read on: its header line is not a record, and is named, not skipped.
  try {
    count(a + b);
    ADD_FAILURE() << "a second header line was accepted as a record";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.line(), recs.size() + 2) << e.what();
  }
  auto message = [&](const std::string& content) {
    try {
      count(content);
    } catch (const FormatError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message(a + "garbage").find("data after the end of the gzip stream"),
            std::string::npos);
  EXPECT_NE(message(a + "\n").find("data after the end of the gzip stream"), std::string::npos);
  EXPECT_NE(message(a.substr(0, a.size() - 9)).find("truncated gzip stream"), std::string::npos);
  std::string damaged = a;
  damaged[damaged.size() / 2] = static_cast<char>(damaged[damaged.size() / 2] ^ 0x55);
  EXPECT_NE(message(damaged).find("gzip"), std::string::npos) << message(damaged);
  fs::remove(one);
  fs::remove(two);
}

// ---------------------------------------------------------------- named block barriers

/// Per barrier of a block record: the warps that arrive there whole (32 each, whatever their
/// exited threads) and the count its threads give.
struct BarrierLoad {
  std::map<uint32_t, uint32_t> arrivals, count;
};
BarrierLoad load_of(const CtaRecord& r) {
  const spec::Instr in = instr_of(r);
  BarrierLoad l;
  const std::size_t n = r.exited.size();
  for (std::size_t w = 0; w * 32 < n; ++w) {
    std::optional<uint32_t> k;
    for (std::size_t t = w * 32; t < n && t < w * 32 + 32; ++t)
      if (r.arrives(t)) {
        k = in.imm_bar ? *in.imm_bar : r.bar[t];
        l.count[*k] = in.imm_count ? *in.imm_count : r.count.empty() ? 0 : r.count[t];
      }
    if (k) l.arrivals[*k] += 32;
  }
  return l;
}

TEST(CaptureGenerator, NamedMainStatesAreDefinedAndLeanToTheCorners) {
  // Per named variant, over its main set: no UB anywhere, and the corners the brief of the set
  // names: partial last warps, exited threads inside arriving warps, whole warps elsewhere and
  // exited; with a count, counts equal to the arrivals and smaller than the block, and (not for
  // bar.red) several phases and partner warps; with a register a, two barriers side by side.
  for (const auto& v : kVariants) {
    if (!is_named(v)) continue;
    SCOPED_TRACE(v.name);
    const bool red = spec::form_info(v.form).mode != spec::Mode::None;
    const bool counted = v.operands != NamedOperands::RegisterNoCount;
    std::size_t partial = 0, inside = 0, away = 0, gone = 0, equal = 0, smaller = 0, phases = 0,
                partners = 0, two = 0;
    const auto recs = generate_cta_states(v, CtaSet::Main, 100 + static_cast<int>(v.id), 300);
    for (const auto& r : recs) {
      ASSERT_FALSE(hang_risk(r)) << r.tag;
      const auto res = model::evaluate_cta(instr_of(r), cta_of(r));
      ASSERT_TRUE(res.ub.empty()) << r.tag << ": " << spec::clause_info(res.ub[0].clause).key;
      const std::size_t n = r.exited.size();
      partial += n % 32 != 0;
      bool in_warp = false, warp_away = false, warp_gone = false;
      for (std::size_t w = 0; w * 32 < n; ++w) {
        std::size_t arriving = 0, exited = 0, elsewhere = 0, size = 0;
        for (std::size_t t = w * 32; t < n && t < w * 32 + 32; ++t, ++size) {
          arriving += r.arrives(t), exited += r.exited[t], elsewhere += r.elsewhere[t];
        }
        in_warp = in_warp || (arriving && exited);
        warp_away = warp_away || (elsewhere + exited == size && elsewhere);
        warp_gone = warp_gone || exited == size;
      }
      inside += in_warp, away += warp_away, gone += warp_gone;
      partners += std::count(r.partner.begin(), r.partner.end(), true) > 0;
      const auto load = load_of(r);
      two += load.arrivals.size() > 1;
      for (const auto& [k, a] : load.arrivals) {
        const uint32_t b = load.count.at(k);
        equal += counted && a == b;
        smaller += counted && b < 32 * ((n + 31) / 32);
        phases += counted && a > b;
      }
    }
    const std::size_t some = recs.size() / 10;
    EXPECT_GE(partial, some);
    EXPECT_GE(inside, some);
    EXPECT_GE(gone, some / 2);
    if (!counted) continue;
    EXPECT_GE(away, some);
    EXPECT_GE(equal, some);
    EXPECT_GE(smaller, some);
    if (!red) {
      EXPECT_GE(phases, some);
      EXPECT_GE(partners, some);
    } else {
      EXPECT_EQ(phases, 0u);
      EXPECT_EQ(partners, 0u);
    }
    if (v.operands == NamedOperands::Registers) {
      EXPECT_GE(two, some);
    }
    if (v.operands == NamedOperands::Immediates)
      for (const auto& r : recs) {
        // The text holds one compiled pair; no per-thread a or b.
        const auto in = instr_of(r);
        ASSERT_TRUE(in.imm_bar && in.imm_count) << r.instr;
        EXPECT_TRUE(std::any_of(
            std::begin(kNamedImmediates), std::end(kNamedImmediates),
            [&](const NamedImmediate& p) { return p.a == *in.imm_bar && p.b == *in.imm_count; }))
            << r.instr;
        EXPECT_TRUE(r.bar.empty() && r.count.empty());
      }
  }
}

TEST(CaptureGenerator, EveryNamedProbeFiresTheClauseItIsAbout) {
  std::size_t probes = 0;
  for (const auto& v : kVariants) {
    if (!is_named(v)) continue;
    for (CtaSet set : cta_sets(v)) {
      if (!is_cta_probe(set)) continue;
      SCOPED_TRACE(std::string(v.name) + " " + std::string(cta_set_name(set)));
      for (const auto& r : generate_cta_states(v, set, 3, 8)) {
        ASSERT_FALSE(hang_risk(r)) << r.tag;
        const std::string kind = "probe/" + std::string(cta_set_name(set)).substr(6);
        EXPECT_TRUE(r.tag == kind || r.tag.starts_with(kind + "/")) << r.tag;
        const auto res = model::evaluate_cta(instr_of(r), cta_of(r));
        bool own = false;
        for (const auto& f : res.ub) {
          EXPECT_TRUE(cta_probe_fires(set, f.clause))
              << r.tag << ": " << spec::clause_info(f.clause).key;
          own = own || f.clause == *cta_probe_clause(set);
        }
        EXPECT_TRUE(own) << r.tag;
        ++probes;
      }
    }
  }
  // bar.sync, bar.arrive and bar.red.popc: seven probes each and the two of bar.red; and and
  // or: the two of bar.red.
  EXPECT_EQ(probes, 8u * (7 + 7 + 9 + 2 + 2));
}

TEST(CaptureGenerator, LeftoverArrivalsLeaveTheBarrierPartFilled) {
  const auto& v = variant_info(VariantId::BarArrivePtx);
  for (const auto& r : generate_cta_states(v, CtaSet::Leftover, 5, 100)) {
    EXPECT_TRUE(model::evaluate_cta(instr_of(r), cta_of(r)).ub.empty()) << r.tag;
    EXPECT_EQ(std::count(r.partner.begin(), r.partner.end(), true), 0) << r.tag;
    const auto load = load_of(r);
    ASSERT_EQ(load.arrivals.size(), 1u) << r.tag;
    const auto [k, a] = *load.arrivals.begin();
    EXPECT_NE(a % load.count.at(k), 0u) << r.tag;
  }
}

TEST(CaptureFormat, NamedRecordsRoundTripAndGiveTheModelTheStateTheGpuRan) {
  std::size_t records = 0, with_fault = 0;
  for (const auto& v : kVariants) {
    if (!is_named(v)) continue;
    for (CtaSet set : cta_sets(v))
      for (auto r : generate_cta_states(v, set, 21, 6)) {
        simulate_named(r);
        with_fault += !r.fault.empty();
        const std::string line = to_line(r);
        const CtaRecord back = std::get<CtaRecord>(parse_record(line, "mem", 2));
        ASSERT_EQ(to_line(back), line);
        EXPECT_EQ(back.exited, r.exited);
        EXPECT_EQ(back.elsewhere, r.elsewhere);
        EXPECT_EQ(back.partner, r.partner);
        EXPECT_EQ(back.bar, r.bar);
        EXPECT_EQ(back.count, r.count);
        EXPECT_EQ(back.ran, r.ran);
        EXPECT_EQ(back.fault, r.fault);
        // The model sees exactly the state the record holds.
        const model::Cta a = cta_of(r), b = cta_of(back);
        EXPECT_EQ(a.arrive, b.arrive);
        EXPECT_EQ(a.exited, b.exited);
        EXPECT_EQ(a.partner, b.partner);
        EXPECT_EQ(a.bar, b.bar);
        EXPECT_EQ(a.count, b.count);
        EXPECT_EQ(a.pred, b.pred);
        const spec::Instr x = instr_of(back);
        EXPECT_EQ(x.form, v.form);
        EXPECT_EQ(x.negate, v.negate);
        EXPECT_EQ(!x.imm_bar, v.operands != NamedOperands::Immediates) << r.instr;
        EXPECT_EQ(x.has_count, v.operands != NamedOperands::RegisterNoCount) << r.instr;
        EXPECT_EQ(x.has_count && !x.imm_count, v.operands == NamedOperands::Registers) << r.instr;
        for (std::size_t t = 0; t < r.exited.size(); ++t) {
          EXPECT_EQ(a.arrive[t], !r.exited[t] && !r.elsewhere[t]);
          if (x.has_count && !x.imm_count) {
            EXPECT_EQ(a.count[t], r.count[t]);
          }
          if (!x.imm_bar) {
            EXPECT_EQ(a.bar[t], r.bar[t]);
          }
        }
        ++records;
      }
  }
  EXPECT_GT(with_fault, 0u);
  // A register a beside an immediate b, written by hand: bar holds each thread's a, count none.
  const std::string hand =
      R"({"bar":"0x2","d":"0x0","exited":["0x4"],"form":"bar.sync","instr":"bar.sync a, 32;","partner":["0x2"],"pred":"0x0","threads":3,"via":"ptx"})";
  const CtaRecord r = std::get<CtaRecord>(parse_record(hand, "mem", 1));
  EXPECT_EQ(to_line(r), hand);
  const auto in = instr_of(r);
  EXPECT_FALSE(in.imm_bar);
  EXPECT_EQ(in.imm_count, std::optional<uint32_t>(32));
  const model::Cta c = cta_of(r);
  EXPECT_EQ(c.bar, (std::vector<uint32_t>{2, 2, 2}));
  EXPECT_EQ(c.partner, (std::vector<bool>{false, true, false}));
  EXPECT_EQ(c.arrive, (std::vector<bool>{true, true, false}));
  // Thread 0 runs bar.sync, thread 1 bar.arrive, thread 2 has exited: one warp reaching the
  // barrier through two instructions is cta.ub.not_aligned (it hung on sm_90).
  const auto ub = model::evaluate_cta(in, c).ub;
  ASSERT_EQ(ub.size(), 1u);
  EXPECT_EQ(ub[0].clause, spec::ClauseId::CtaUbNotAligned);
  EXPECT_GT(records, 100u);
}

TEST(CaptureFormat, ASimulatedNamedCaptureReplaysWithoutAMismatch) {
  const fs::path path = temp_path("named.jsonl.gz");
  std::size_t written = 0;
  {
    Writer w(path, test_header("named"));
    for (const auto& v : kVariants) {
      if (!is_named(v)) continue;
      for (CtaSet set : cta_sets(v))
        for (auto r : generate_cta_states(v, set, 31, is_cta_probe(set) ? 8 : 40)) {
          simulate_named(r);
          w.write(r);
          ++written;
        }
    }
    w.close();
  }
  Replayer rp;
  rp.add_file(path);
  const Tally t = rp.total();
  EXPECT_EQ(t.states, written);
  EXPECT_EQ(t.mismatched, 0u);
  EXPECT_GT(t.agreed, 10000u);
  EXPECT_EQ(t.agreed, t.lanes);
  EXPECT_GT(t.undefined, 0u);
  for (const char* form :
       {"bar.sync", "bar.arrive", "bar.red.popc.u32", "bar.red.and.pred", "bar.red.or.pred"})
    EXPECT_GT(rp.per_form().at(form).agreed, 0u) << form;
  std::size_t hung = 0;
  for (const auto& [key, ob] : rp.observations()) {
    EXPECT_TRUE(ob.tag.starts_with("probe/")) << key;
    // Every arriving thread either came back or was left waiting; those that came back got what
    // the model's formula gives, since the model stood in for the GPU.
    EXPECT_EQ(ob.came_back + ob.stuck, ob.lanes) << key;
    hung += ob.faulted_states;
    for (const auto& f : ob.faults) EXPECT_TRUE(f.starts_with("hang")) << key;
  }
  EXPECT_GT(hung, 0u);
  const std::string facts = observations_json(rp);
  EXPECT_NE(facts.find("\"threads_stuck\""), std::string::npos);
  fs::remove(path);
}

TEST(CaptureFormat, ANamedMismatchIsReportedWithItsFileLineAndThreads) {
  // A wrong d on a thread of the instruction, and a thread that did not come back from a barrier
  // that completes (the launch called hung): both mismatches, shown with their place.
  auto recs = generate_cta_states(variant_info(VariantId::BarRedPopcNamed), CtaSet::Main, 9, 2);
  CtaRecord wrong_d = recs[0], stayed = recs[1];
  simulate_named(wrong_d);
  simulate_named(stayed);
  std::size_t t = 0;
  while (!wrong_d.executes(t)) ++t;
  wrong_d.d[t] += 1;
  std::size_t u = 0;
  while (!stayed.arrives(u)) ++u;
  (*stayed.ran)[u] = false;
  stayed.d[u] = 0;
  stayed.fault = "hang (no return within 3 s)";
  Replayer rp;
  rp.add_record(wrong_d, test_header("main"), "cta/x.jsonl.gz", 7);
  rp.add_record(parse_record(to_line(stayed), "cta/x.jsonl.gz", 8), test_header("main"),
                "cta/x.jsonl.gz", 8);
  EXPECT_EQ(rp.total().mismatched, 2u);
  ASSERT_EQ(rp.mismatches().size(), 2u);
  const std::string first = lane_table(rp.mismatches()[0], false);
  EXPECT_NE(first.find("cta/x.jsonl.gz:7"), std::string::npos) << first;
  EXPECT_NE(first.find("MISMATCH"), std::string::npos) << first;
  const std::string second = lane_table(rp.mismatches()[1], false);
  EXPECT_NE(second.find("cta/x.jsonl.gz:8"), std::string::npos) << second;
  EXPECT_NE(second.find("came back"), std::string::npos) << second;
  EXPECT_NE(second.find("the launch failed with hang"), std::string::npos) << second;

  // A corrupted line in a file: the reader names the file, the line and the column.
  const fs::path path = temp_path("corrupt.jsonl");
  CtaRecord bad = recs[0];
  simulate_named(bad);
  std::string line = to_line(bad);
  const auto at = line.find("\"ran\":[\"");
  ASSERT_NE(at, std::string::npos);
  line.replace(at + 8, line.find('"', at + 8) - (at + 8), "0x0");  // the first warp stayed
  {
    std::ofstream f(path);
    f << to_line(test_header("main")) << "\n" << to_line(recs[1]) << "\n" << line << "\n";
  }
  try {
    Replayer file_rp;
    file_rp.add_file(path);
    ADD_FAILURE() << "accepted a thread left behind without a fault";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.line(), 3u);
    EXPECT_TRUE(std::string(e.what()).starts_with(path.string() + ":3:")) << e.what();
    EXPECT_NE(std::string(e.what()).find("ran: thread "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("did not come back, but the record has no \"fault\""),
              std::string::npos)
        << e.what();
  }
  fs::remove(path);
}

TEST(CaptureFormat, MalformedNamedRecordsNameTheColumnAndWhatWasExpected) {
  const std::string head = R"({"form":"bar.sync","via":"ptx",)";
  // Column of the value of `key` in `line`, 1-based.
  auto col = [](const std::string& line, const std::string& key) {
    return line.find("\"" + key + "\":") + key.size() + 4;
  };
  struct Case {
    std::string line, key, expect;
  };
  const std::vector<Case> cases{
      {head +
           R"("instr":"bar.sync 1, 64;","threads":64,"exited":["0x0","0x0"],"bar":"0x1","pred":"0x0","d":"0x0"})",
       "bar", "the instruction writes a as the immediate 1: no per-thread \"bar\""},
      {head +
           R"("instr":"bar.sync a;","threads":32,"exited":["0x0"],"bar":"0x1","count":"0x20","pred":"0x0","d":"0x0"})",
       "count", "the instruction has no thread count b"},
      {head +
           R"("instr":"bar.sync a, 64;","threads":32,"exited":["0x0"],"bar":"0x1","count":"0x40","pred":"0x0","d":"0x0"})",
       "count", "the instruction writes b as the immediate 64: no per-thread \"count\""},
      {head +
           R"("instr":"bar.arrive a, b;","threads":32,"exited":["0x0"],"bar":"0x1","count":"0x20","pred":"0x0","d":"0x0"})",
       "instr", "\"bar.arrive a, b;\" is bar.arrive, not bar.sync"},
      {R"({"form":"bar.red.popc.u32","via":"ptx","instr":"bar.red.popc.u32 d, 1, 32, !c;","threads":32,"exited":["0x0"],"pred":"0x0","d":"0x0"})",
       "instr", "\"negate\" must be true: \"bar.red.popc.u32 d, 1, 32, !c;\" writes !c"},
      {head +
           R"("instr":"bar.sync 1, 32;","threads":32,"exited":["0x1"],"elsewhere":["0x2"],"partner":["0x2"],"pred":"0x0","d":"0x0"})",
       "partner", "thread 1 is elsewhere, not at a barrier"},
      {head +
           R"("instr":"bar.sync 1, 32;","threads":32,"exited":["0x1"],"ran":["0x3"],"fault":"x","pred":"0x0","d":"0x0"})",
       "ran", "thread 0 has exited"},
      {head +
           R"("instr":"bar.sync 1, 32;","threads":33,"exited":["0x0","0x0"],"elsewhere":["0x0","0x2"],"pred":"0x0","d":"0x0"})",
       "elsewhere", "bit set for thread 33 beyond the block"},
  };
  for (const auto& c : cases) {
    try {
      parse_record(c.line, "f.jsonl", 5);
      ADD_FAILURE() << "accepted: " << c.line;
    } catch (const FormatError& e) {
      std::size_t column = col(c.line, c.key);
      if (c.key == "elsewhere") column += 7;  // the second word of the array
      EXPECT_EQ(std::string(e.what()), "f.jsonl:5:" + std::to_string(column) + ": " + c.key +
                                           (c.key == "elsewhere" ? "[1]" : "") + ": " + c.expect);
    }
  }
  // A record of a register a without its values.
  try {
    parse_record(
        head + R"("instr":"bar.sync a, 64;","threads":32,"exited":["0x0"],"pred":"0x0","d":"0x0"})",
        "f.jsonl", 5);
    ADD_FAILURE() << "accepted a register a without \"bar\"";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("missing field \"bar\""), std::string::npos) << e.what();
  }
}

TEST(CaptureVariants, OnlyTheF32ReduxFormsAreLeftOut) {
  auto left = uncovered_forms();
  EXPECT_EQ(left.size(), 8u);
  for (auto f : left) EXPECT_EQ(spec::form_info(f).a_type, spec::OperandType::F32);
}

}  // namespace
}  // namespace warpspec::capture
