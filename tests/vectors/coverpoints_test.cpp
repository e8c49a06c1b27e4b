// Coverpoints: every predicate says yes on a hand-made state that shows its situation and no on
// one that just misses it; the catalog is well formed and documented. The suites that hit them
// and the coverpoints no state reaches: coverpoint_suites_test.cpp.
#include "vectors/coverpoints.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <map>

#include "vectors/designs.hpp"
#include "vectors/generate.hpp"

namespace warpspec::vectors {
namespace {

using model::LaneStatus;

// ---------------------------------------------------------------- hand-made states

// A warp whose lanes are alive but inactive until told otherwise.
struct WarpB {
  model::Warp w = [] {
    model::Warp x = model::make_warp(0);
    for (unsigned i = 0; i < 32; ++i) model::set_status(x, i, LaneStatus::Inactive);
    return x;
  }();
  WarpB& run(uint32_t lanes, uint32_t mask) {
    for (unsigned i = 0; i < 32; ++i)
      if ((lanes >> i) & 1u) {
        model::set_status(w, i, LaneStatus::Executes);
        w.mask[i] = mask;
      }
    return *this;
  }
  WarpB& exit(uint32_t lanes) {
    for (unsigned i = 0; i < 32; ++i)
      if ((lanes >> i) & 1u) model::set_status(w, i, LaneStatus::Exited);
    return *this;
  }
  WarpB& mask_at(unsigned lane, uint32_t m) {
    w.mask[lane] = m;
    return *this;
  }
  // Operands cycling through `xs` over the lanes.
  WarpB& vals(std::vector<uint64_t> xs) {
    for (unsigned i = 0; i < 32; ++i) w.a[i] = xs[i % xs.size()];
    return *this;
  }
  WarpB& a(const std::function<uint64_t(unsigned)>& f) {
    for (unsigned i = 0; i < 32; ++i) w.a[i] = f(i);
    return *this;
  }
  WarpB& a_at(unsigned lane, uint64_t x) {
    w.a[lane] = x;
    return *this;
  }
  WarpB& site(uint32_t lanes, uint32_t s) {
    for (unsigned i = 0; i < 32; ++i)
      if ((lanes >> i) & 1u) w.site[i] = s;
    return *this;
  }
  // A shuffle's b and c on every lane, and lane by lane.
  WarpB& bc(uint32_t b, uint32_t c) {
    w.b.fill(b);
    w.c.fill(c);
    return *this;
  }
  WarpB& b_at(unsigned lane, uint32_t b) {
    w.b[lane] = b;
    return *this;
  }
  WarpB& c_at(unsigned lane, uint32_t c) {
    w.c[lane] = c;
    return *this;
  }
};

WarpB full() {
  return WarpB{}.run(~0u, ~0u);
}
WarpB lanes(uint32_t l) {
  return WarpB{}.run(l, l);
}

// A block of n threads that all arrive with predicate `pred`.
struct CtaB {
  model::Cta c;
  explicit CtaB(std::size_t n, uint32_t pred = 1) : c(model::make_cta(n)) {
    for (auto& p : c.pred) p = pred;
  }
  CtaB& exit(std::size_t t, uint32_t stale = 0) {
    c.exited[t] = true;
    c.arrive[t] = false;
    c.pred[t] = stale;
    return *this;
  }
  CtaB& exit_all_but(std::size_t keep) {
    for (std::size_t t = 0; t < c.arrive.size(); ++t)
      if (t != keep) exit(t);
    return *this;
  }
  CtaB& missing(std::size_t t) {
    c.arrive[t] = false;
    return *this;
  }
  CtaB& pred(std::size_t t, uint32_t p) {
    c.pred[t] = p;
    return *this;
  }
  // Threads [from, to) stand at barrier `bar` with thread count `count` and predicate `p`
  // (the register operands of a named barrier).
  CtaB& named(std::size_t from, std::size_t to, uint32_t bar, uint32_t count, uint32_t p = 1) {
    for (std::size_t t = from; t < to; ++t) c.bar[t] = bar, c.count[t] = count, c.pred[t] = p;
    return *this;
  }
};

Vector make(const std::string& text, std::vector<Round> rounds) {
  Vector v;
  v.instr = std::get<spec::ParsedInstr>(spec::parse_instruction(text));
  v.rounds = std::move(rounds);
  return v;
}
Vector warp(const std::string& text, std::initializer_list<WarpB> rounds) {
  std::vector<Round> rs;
  for (const auto& r : rounds) rs.push_back(Round{r.w, {}});
  return make(text, rs);
}
Vector block(const std::string& text, std::initializer_list<CtaB> rounds) {
  std::vector<Round> rs;
  for (const auto& r : rounds) rs.push_back(Round{{}, r.c});
  return make(text, rs);
}

const std::string kAddU = "redux.sync.add.u32 d, a, m;", kAddS = "redux.sync.add.s32 d, a, m;",
                  kMinU = "redux.sync.min.u32 d, a, m;", kMaxU = "redux.sync.max.u32 d, a, m;",
                  kAnd = "redux.sync.and.b32 d, a, m;", kOr = "redux.sync.or.b32 d, a, m;",
                  kXor = "redux.sync.xor.b32 d, a, m;", kAny32 = "match.any.sync.b32 d, a, m;",
                  kAny64 = "match.any.sync.b64 d, a, m;", kAll32 = "match.all.sync.b32 d|p, a, m;",
                  kVAll = "vote.sync.all.pred d, a, m;", kVAllN = "vote.sync.all.pred d, !a, m;",
                  kVAny = "vote.sync.any.pred d, a, m;", kVUni = "vote.sync.uni.pred d, a, m;",
                  kBallot = "vote.sync.ballot.b32 d, a, m;",
                  kBallotN = "vote.sync.ballot.b32 d, !a, m;", kSync = "bar.warp.sync m;",
                  kBar = "bar.sync 0;", kPopc = "bar.red.popc.u32 d, 0, a;",
                  kPopcN = "bar.red.popc.u32 d, 0, !a;", kBAnd = "bar.red.and.pred d, 0, a;",
                  kMinF = "redux.sync.min.f32 d, a, m;", kMaxF = "redux.sync.max.f32 d, a, m;",
                  kMaxAbsF = "redux.sync.max.abs.f32 d, a, m;";

constexpr uint64_t kOne = 0x3f800000u, kNan = 0x7fc00001u;
constexpr spec::Target kSm90 = spec::kDefaultTarget, kSm100a{100, 'a'}, kSm60{60, 0};

struct Case {
  std::string key;
  Vector v;
  bool hit;
  spec::Target target = kSm90;
};

std::vector<Case> cases() {
  std::vector<Case> c;
  auto yes = [&](std::string k, Vector v, spec::Target t = kSm90) {
    c.push_back({std::move(k), std::move(v), true, t});
  };
  auto no = [&](std::string k, Vector v, spec::Target t = kSm90) {
    c.push_back({std::move(k), std::move(v), false, t});
  };
  const auto ub_mismatch = full().mask_at(3, 0x0000ffffu);
  const auto ub_self = full().mask_at(0, 0xfffffffeu);
  const auto ub_absent = WarpB{}.run(0x0000ffffu, ~0u);

  yes("mask.full", warp(kAddU, {full()}));
  no("mask.full", warp(kAddU, {lanes(0xffff)}));
  no("mask.full", warp(kAddU, {ub_self}));  // a UB vector shows no defined situation
  yes("mask.one_lane", warp(kAddU, {lanes(1u << 5)}));
  no("mask.one_lane", warp(kAddU, {full()}));
  yes("mask.lane31_alone", warp(kSync, {lanes(0x80000000u)}));
  no("mask.lane31_alone", warp(kSync, {lanes(1u << 5)}));
  yes("mask.contiguous_low", warp(kAddU, {lanes(0xffff)}));
  no("mask.contiguous_low", warp(kAddU, {lanes(0xffff0000u)}));
  no("mask.contiguous_low", warp(kAddU, {full()}));
  yes("mask.contiguous_high", warp(kAddU, {lanes(0xffff0000u)}));
  no("mask.contiguous_high", warp(kAddU, {lanes(0xffff)}));
  no("mask.contiguous_high", warp(kAddU, {lanes(0x80000000u)}));
  yes("mask.contiguous_middle", warp(kAddU, {lanes(0x00ffff00u)}));
  no("mask.contiguous_middle", warp(kAddU, {lanes(0x0000ffffu)}));
  yes("mask.holes", warp(kAddU, {lanes(0x55555555u)}));
  no("mask.holes", warp(kAddU, {lanes(0x00ffff00u)}));
  yes("mask.two_groups", warp(kAddU, {WarpB{}.run(0xffff, 0xffff).run(0xffff0000u, 0xffff0000u)}));
  no("mask.two_groups", warp(kAddU, {full()}));
  yes("mask.interleaved_groups",
      warp(kSync, {WarpB{}.run(0x55555555u, 0x55555555u).run(0x2aaaaaaau, 0x2aaaaaaau)}));
  no("mask.interleaved_groups",  // as many lanes in each
     warp(kSync, {WarpB{}.run(0x55555555u, 0x55555555u).run(0xaaaaaaaau, 0xaaaaaaaau)}));
  no("mask.interleaved_groups",
     warp(kSync, {WarpB{}.run(0xffff, 0xffff).run(0xffff0000u, 0xffff0000u)}));
  no("mask.interleaved_groups", warp(kSync, {full()}));
  yes("mask.differs_between_lanes", warp(kAddU, {ub_mismatch}));
  no("mask.differs_between_lanes", warp(kAddU, {full()}));
  no("mask.differs_between_lanes", warp(kAddU, {ub_absent}));
  yes("mask.self_missing", warp(kAddU, {ub_self}));
  no("mask.self_missing", warp(kAddU, {ub_absent}));
  yes("mask.names_absent_lane", warp(kAddU, {ub_absent}));
  no("mask.names_absent_lane", warp(kAddU, {ub_mismatch}));

  yes("status.exited_in_mask", warp(kAddU, {full().exit(0xf0000000u)}));
  no("status.exited_in_mask", warp(kAddU, {lanes(0xffff0000u).exit(0xffff)}));
  yes("status.exited_outside_mask", warp(kAddU, {lanes(0xffff0000u).exit(0xffff)}));
  no("status.exited_outside_mask", warp(kAddU, {full().exit(0xf0000000u)}));
  yes("status.inactive", warp(kAddU, {lanes(0xffff)}));
  no("status.inactive", warp(kAddU, {full().exit(0xffff0000u)}));
  yes("status.all_execute", warp(kAddU, {full()}));
  no("status.all_execute", warp(kAddU, {full().exit(1)}));
  yes("status.sole_survivor", warp(kAddU, {WarpB{}.run(1u << 17, ~0u).exit(~(1u << 17))}));
  no("status.sole_survivor", warp(kAddU, {lanes(1u << 17)}));
  // On sm_6x a __syncwarp mask that names an exited lane is undefined.
  yes("status.exited_in_mask", warp(kSync, {full().exit(1)}), kSm90);
  no("status.exited_in_mask", warp(kSync, {full().exit(1)}), kSm60);

  yes("result.participants_exclude_lane0", warp(kAddU, {lanes(0xffff0000u)}));
  no("result.participants_exclude_lane0", warp(kAddU, {full()}));
  yes("result.participants_exclude_lane0", warp(kAddU, {full().exit(1)}));
  no("result.participants_exclude_lane0", warp(kAddU, {full().exit(2)}));
  yes("result.participants_exclude_lane31", warp(kAddU, {lanes(0xffff)}));
  no("result.participants_exclude_lane31", warp(kAddU, {full()}));
  yes("result.one_participant", warp(kVAll, {WarpB{}.run(1u << 17, ~0u).exit(~(1u << 17))}));
  no("result.one_participant", warp(kVAll, {lanes(0x3)}));
  yes("result.group_not_power_of_two", warp(kAddU, {lanes(0x7).vals({3})}));
  yes("result.group_not_power_of_two", warp(kAddU, {full().vals({3}).exit(1)}));
  no("result.group_not_power_of_two", warp(kAddU, {lanes(0x7).vals({3}).a_at(1, 0)}));
  no("result.group_not_power_of_two", warp(kAddU, {lanes(0xf).vals({3})}));
  no("result.group_not_power_of_two", warp(kAddU, {full().vals({3})}));
  no("result.group_not_power_of_two", warp(kAddU, {lanes(0x3).vals({3})}));
  yes("status.exited_operand_matters", warp(kAddU, {full().vals({1}).exit(0xf0000000u)}));
  no("status.exited_operand_matters",
     warp(kAddU, {full().a([](unsigned i) { return i < 28 ? 1 : 0; }).exit(0xf0000000u)}));
  yes("status.exited_operand_matters", warp(kAll32, {full().vals({1}).exit(1)}));
  // Stale operands of 0 in a .min: taking part with them or with zeros is the same.
  no("status.exited_operand_matters",
     warp(kMinU, {full().a([](unsigned i) { return i < 28 ? 5 : 0; }).exit(0xf0000000u)}));
  yes("status.exited_operand_matters",
      warp(kMinU, {full().a([](unsigned i) { return i < 28 ? 5 : 3; }).exit(0xf0000000u)}));
  no("status.exited_operand_matters", warp(kAll32, {lanes(0xfffe).vals({1}).exit(1)}));
  // Every lane decides another lane's result somewhere: here each lane's non-zero term of a sum.
  yes("result.every_lane_matters", warp(kAddU, {full().a([](unsigned i) { return i + 1; })}));
  no("result.every_lane_matters",  // lane 5 holds the identity: leaving it out changes nothing
     warp(kAddU, {full().a([](unsigned i) { return i + 1; }).a_at(5, 0)}));
  // Sixteen pairs; the one true vote of each pair decides .any, then the other lane's does.
  const auto pairs = [] {
    WarpB w;
    for (unsigned i = 0; i < 32; i += 2) w.run(3u << i, 3u << i);
    return w;
  };
  yes("result.every_lane_matters",
      warp(kVAny, {pairs().a([](unsigned i) { return i % 2; }),
                   pairs().a([](unsigned i) { return 1 - i % 2; })}));
  no("result.every_lane_matters", warp(kVAny, {pairs().a([](unsigned i) { return i % 2; })}));
  // Exited lanes read as 0 (a slot never written): they join the lanes that hold 0.
  yes("status.exited_zero_matters", warp(kAny32, {full().vals({0}).exit(0xf0000000u)}));
  no("status.exited_zero_matters", warp(kAny32, {full().vals({1}).exit(0xf0000000u)}));
  yes("status.exited_zero_matters", warp(kMinU, {full().vals({5}).exit(0xf0000000u)}));
  no("status.exited_zero_matters", warp(kMinU, {full().vals({0, 5}).exit(0xf0000000u)}));
  no("status.exited_zero_matters", warp(kMinU, {lanes(0xffff).vals({5}).exit(0xf0000000u)}));
  // A full-mask lane whose answer the exited lanes' stale operands would change; the same with a
  // mask that leaves them out, or with stale operands that change nothing, misses.
  yes("status.exited_matter_under_full_mask", warp(kOr, {full().vals({1}).exit(1).a_at(0, 6)}));
  no("status.exited_matter_under_full_mask", warp(kOr, {full().vals({1}).exit(1)}));
  no("status.exited_matter_under_full_mask",
     warp(kOr, {lanes(0xfffffffe).vals({1}).exit(1).a_at(0, 6)}));

  yes("a.all_equal", warp(kAddU, {full().vals({7})}));
  no("a.all_equal", warp(kAddU, {full().a([](unsigned i) { return i; })}));
  no("a.all_equal", warp(kAddU, {lanes(1u << 4).vals({7})}));  // one lane: nothing to compare
  yes("a.two_classes", warp(kAddU, {full().vals({1, 2})}));
  no("a.two_classes", warp(kAddU, {full().vals({1, 2, 3})}));
  no("a.two_classes", warp(kAddU, {full().vals({2}).a_at(0, 1)}));
  yes("a.more_than_16_distinct", warp(kAny32, {full().a([](unsigned i) { return i % 17; })}));
  no("a.more_than_16_distinct", warp(kAny32, {full().a([](unsigned i) { return i % 16; })}));
  yes("a.32_distinct", warp(kAny32, {full().a([](unsigned i) { return i; })}));
  no("a.32_distinct", warp(kAny32, {full().a([](unsigned i) { return i % 31; })}));
  no("a.32_distinct", warp(kAny32, {lanes(0x7fffffffu).a([](unsigned i) { return i; })}));
  yes("a.signed_boundaries",
      warp(kAddS, {full().vals({0, 0xffffffffu, 0x80000000u, 0x7fffffffu})}));
  no("a.signed_boundaries", warp(kAddS, {full().vals({0, 0xffffffffu, 0x80000000u})}));
  yes("a.signed_boundaries", warp(kAny64, {full().vals({0, ~0ull, 1ull << 63, (1ull << 63) - 1})}));
  no("a.signed_boundaries",
     warp(kAny64, {full().vals({0, 0xffffffffu, 0x80000000u, 0x7fffffffu})}));
  yes("a.low_bits_agree", warp(kXor, {full().vals({0x1234, 0x11234})}));
  no("a.low_bits_agree", warp(kXor, {full().vals({0x1234, 0x1235})}));
  // Sixteen pairs a round, each pair differing in one bit: bits 0-15, then 16-31.
  const auto one_bit_pairs = [](unsigned first) {
    WarpB w;
    for (unsigned j = 0; j < 16; ++j) {
      w.run(3u << (2 * j), 3u << (2 * j));
      w.a_at(2 * j, 0x5a5a5a5au).a_at(2 * j + 1, 0x5a5a5a5au ^ (1u << (first + j)));
    }
    return w;
  };
  yes("a.every_bit_decides", warp(kAny32, {one_bit_pairs(0), one_bit_pairs(16)}));
  no("a.every_bit_decides", warp(kAny32, {one_bit_pairs(0), one_bit_pairs(0)}));  // 16-31 never
  no("a.every_bit_decides", warp(kAny64, {one_bit_pairs(0), one_bit_pairs(16)}));  // 32-63 never
  yes("a.sign_bit_only", warp(kMaxU, {full().vals({5, 0x80000005u})}));
  no("a.sign_bit_only", warp(kMaxU, {full().vals({5, 0x80000004u})}));
  yes("a.sign_bit_only", warp(kAny64, {full().vals({5, 0x8000000000000005ull})}));
  no("a.sign_bit_only", warp(kAny64, {full().vals({5, 0x80000005u})}));
  yes("a.b64_equal_low_differ_high", warp(kAny64, {full().vals({7, 7 | 1ull << 32})}));
  no("a.b64_equal_low_differ_high", warp(kAny64, {full().vals({7, 8})}));
  yes("a.b64_equal_high_differ_low", warp(kAny64, {full().vals({7ull << 32, 7ull << 32 | 1})}));
  no("a.b64_equal_high_differ_low", warp(kAny64, {full().vals({7, 7 | 1ull << 32})}));
  yes("a.nan_bits_equal", warp(kAny32, {full().vals({kNan})}));
  no("a.nan_bits_equal", warp(kAny32, {full().a([](unsigned i) { return kNan + i; })}));
  yes("a.nan_bits_equal", warp(kAny64, {full().vals({0x7ff8000000000001ull})}));
  no("a.nan_bits_equal", warp(kAny64, {full().vals({kNan})}));  // not a double NaN
  yes("a.signed_zeros", warp(kAny32, {full().vals({0, 0x80000000u})}));
  no("a.signed_zeros", warp(kAny32, {full().vals({0, 1})}));
  yes("a.signed_zeros", warp(kMinF, {full().vals({0, 0x80000000u})}), kSm100a);
  no("a.signed_zeros", warp(kMinF, {full().vals({0x80000000u})}), kSm100a);

  yes("result.any_self_only", warp(kAny32, {full().vals({1}).a_at(5, 9)}));
  no("result.any_self_only", warp(kAny32, {full().vals({1})}));
  no("result.any_self_only", warp(kAny32, {lanes(1u << 5)}));
  yes("result.any_three_classes", warp(kAny32, {full().vals({1, 2, 3})}));
  no("result.any_three_classes", warp(kAny32, {full().vals({1, 2})}));
  yes("result.all_agree", warp(kAll32, {full().vals({4})}));
  no("result.all_agree", warp(kAll32, {full().vals({1, 2})}));
  no("result.all_agree", warp(kAll32, {lanes(1u << 5)}));
  yes("result.all_differ", warp(kAll32, {full().vals({1, 2})}));
  no("result.all_differ", warp(kAll32, {full().vals({4})}));

  yes("a.mixed_predicates", warp(kVAll, {full().vals({0, 1})}));
  no("a.mixed_predicates", warp(kVAll, {full().vals({1})}));
  yes("result.true", warp(kVAll, {full().vals({1})}));
  no("result.true", warp(kVAll, {full().vals({0, 1})}));
  yes("result.true", block(kBAnd, {CtaB(64, 1)}));
  no("result.true", block(kBAnd, {CtaB(64, 1).pred(3, 0)}));
  yes("result.false", warp(kVAny, {full().vals({0})}));
  no("result.false", warp(kVAny, {full().vals({0, 1})}));
  yes("result.ballot_empty", warp(kBallot, {full().vals({0})}));
  yes("result.ballot_empty", warp(kBallotN, {full().vals({1})}));
  no("result.ballot_empty", warp(kBallot, {full().vals({1})}));
  yes("result.ballot_full", warp(kBallot, {full().vals({1})}));
  no("result.ballot_full", warp(kBallot, {full().vals({1}).a_at(31, 0)}));
  yes("result.ballot_bits_in_idle_group",
      warp(kBallot, {full().vals({1}), full().vals({1}).exit(0xff000000u)}));
  no("result.ballot_bits_in_idle_group",  // lane 31 still executes in that group of 8
     warp(kBallot, {full().vals({1}), full().vals({1}).exit(0x7f000000u)}));
  no("result.ballot_bits_in_idle_group",  // no mask names the group's lanes
     warp(kBallot, {full().vals({1}), lanes(0x00ffffffu).vals({1}).exit(0xff000000u)}));
  yes("result.ballot_bit31", warp(kBallot, {full().a([](unsigned i) { return i == 31; })}));
  no("result.ballot_bit31", warp(kBallot, {full().vals({1})}));
  no("result.ballot_bit31", warp(kBallot, {full().a([](unsigned i) { return i == 0; })}));
  const auto uni_exited = [](uint64_t stale) {
    return full().exit(0xf0000000u).a([=](unsigned i) { return i < 28 ? 1 : stale; });
  };
  yes("result.uni_true_with_exited_in_mask", warp(kVUni, {uni_exited(0)}));
  no("result.uni_true_with_exited_in_mask", warp(kVUni, {uni_exited(1)}));
  no("result.uni_true_with_exited_in_mask",
     warp(kVUni, {full().exit(0xf0000000u).a([](unsigned i) { return i < 28 ? i % 2 : 0; })}));
  yes("result.true_over_exited_in_mask", warp(kVAll, {uni_exited(1)}));
  yes("result.true_over_exited_in_mask", warp(kVUni, {uni_exited(1)}));
  no("result.true_over_exited_in_mask", warp(kVUni, {uni_exited(0)}));  // the stale one differs
  no("result.true_over_exited_in_mask",  // true, but over false predicates
     warp(kVUni, {full().exit(0xf0000000u).a([](unsigned i) { return i < 28 ? 0 : 1; })}));
  no("result.true_over_exited_in_mask", warp(kVAll, {full().vals({1})}));
  no("result.true_over_exited_in_mask",  // one exited lane's stale predicate is false
     warp(kVAll, {full().exit(0xf0000000u).a([](unsigned i) { return i == 31 ? 0 : 1; })}));
  yes("a.single_true", warp(kVAny, {full().a([](unsigned i) { return i == 9; })}));
  no("a.single_true", warp(kVAny, {full().a([](unsigned i) { return i % 16 == 9; })}));
  no("a.single_true", warp(kVAny, {lanes(1u << 9).vals({1})}));  // one lane takes part
  yes("a.single_true_lane0", warp(kVAny, {full().a([](unsigned i) { return i == 0; })}));
  no("a.single_true_lane0", warp(kVAny, {full().a([](unsigned i) { return i == 9; })}));
  no("a.single_true_lane0", warp(kVAny, {full().a([](unsigned i) { return i < 2; })}));
  no("a.single_true_lane0", warp(kVAny, {lanes(1u).vals({1})}));  // lane 0 alone takes part
  yes("instr.negated_exited", warp(kBallotN, {full().vals({1}).exit(1u << 30)}));
  no("instr.negated_exited", warp(kBallot, {full().vals({1}).exit(1u << 30)}));
  no("instr.negated_exited", warp(kBallotN, {lanes(0xffff).vals({1}).exit(1u << 30)}));
  yes("instr.negated_exited", block(kPopcN, {CtaB(64).exit(3)}));
  no("instr.negated_exited", block(kPopcN, {CtaB(64)}));
  yes("instr.negated_mixed", warp(kVAllN, {full().vals({0, 1})}));
  no("instr.negated_mixed", warp(kVAllN, {full().vals({1})}));
  no("instr.negated_mixed", warp(kVAll, {full().vals({0, 1})}));
  yes("instr.negated_mixed", block(kPopcN, {CtaB(64).pred(3, 0)}));
  no("instr.negated_mixed", block(kPopcN, {CtaB(64)}));
  // Dropping the ! changes a count unless as many predicates are true as false.
  yes("instr.negation_matters", block(kPopcN, {CtaB(64).pred(3, 0)}));
  no("instr.negation_matters", block(kPopcN, {CtaB(2).pred(1, 0)}));
  no("instr.negation_matters", block(kPopc, {CtaB(64).pred(3, 0)}));
  yes("instr.negation_matters", warp(kVAllN, {full().vals({1})}));
  no("instr.negation_matters", warp(kVAllN, {full().vals({0, 1})}));
  // Predicates given as integers are true when non-zero.
  yes("a.pred_bit0_misleads", warp(kVAll, {full().vals({2})}));
  no("a.pred_bit0_misleads", warp(kVAll, {full().vals({3})}));
  yes("a.pred_bit0_misleads", block(kPopc, {CtaB(32, 2)}));
  no("a.pred_bit0_misleads", block(kPopc, {CtaB(32, 3)}));
  yes("a.pred_low_byte_misleads", warp(kVAny, {full().vals({0x100})}));
  no("a.pred_low_byte_misleads", warp(kVAny, {full().vals({0x101})}));
  yes("a.pred_sign_bit_decides", warp(kVAny, {full().vals({0x80000000u, 0})}));
  no("a.pred_sign_bit_decides", warp(kVAny, {full().vals({0x80000001u, 0})}));
  no("a.pred_sign_bit_decides", warp(kVAny, {full().vals({0x80000000u, 1})}));  // 1 decides
  yes("instr.negated", warp(kVAllN, {full().vals({1})}));
  no("instr.negated", warp(kVAll, {full().vals({1})}));
  yes("instr.negated", block(kPopcN, {CtaB(32)}));
  no("instr.negated", block(kPopc, {CtaB(32)}));

  yes("result.add_wraps", warp(kAddU, {full().vals({0xffffffffu})}));
  no("result.add_wraps", warp(kAddS, {full().vals({0xffffffffu})}));  // -32 fits an int32
  yes("result.add_wraps", warp(kAddS, {full().vals({0x7fffffffu})}));
  no("result.add_wraps", warp(kAddS, {full().vals({0x7fffffffu, 0x80000001u})}));
  no("result.add_wraps", warp(kAddU, {full().vals({1})}));
  yes("result.minmax_sign_matters", warp(kMinU, {full().vals({5, 0xfffffff0u})}));
  no("result.minmax_sign_matters", warp(kMinU, {full().vals({5, 6})}));
  // A 0 among the values would win: min.u32 over 5 and 6 with every lane taking part; not when a
  // lane is left out, nor when 0 is there already.
  yes("result.zero_would_change_whole_warp", warp(kMinU, {full().vals({5, 6})}));
  no("result.zero_would_change_whole_warp", warp(kMinU, {full().vals({0, 6})}));
  no("result.zero_would_change_whole_warp", warp(kMinU, {lanes(0x7fffffffu).vals({5, 6})}));
  yes("result.at_identity", warp(kMinU, {full().vals({0xffffffffu})}));
  no("result.at_identity", warp(kMinU, {full().vals({5})}));
  yes("result.at_identity", warp(kAnd, {full().vals({0xffffffffu})}));
  no("result.at_identity", warp(kAnd, {full().vals({1})}));
  no("result.at_identity", warp(kAnd, {lanes(1u << 3).vals({0xffffffffu})}));  // one lane alone
  yes("result.winner_last_lane_only", warp(kMaxU, {full().a([](unsigned i) { return i; })}));
  no("result.winner_last_lane_only", warp(kMaxU, {full().a([](unsigned i) { return 31 - i; })}));
  no("result.winner_last_lane_only", warp(kMaxU, {full().a([](unsigned i) { return i / 2; })}));
  // Magnitudes growing with the lane, odd lanes negative: with .abs lane 31 wins, without it
  // lane 30 does.
  const auto growing = full().a([](unsigned i) -> uint64_t {
    return (i % 2 ? 0x80000000u : 0u) | (0x3f800000u + (i << 20));
  });
  yes("result.winner_last_lane_only", warp(kMaxAbsF, {growing}), kSm100a);
  no("result.winner_last_lane_only", warp(kMaxF, {growing}), kSm100a);
  yes("result.bitwise_new_value", warp(kOr, {full().vals({3, 6})}));
  no("result.bitwise_new_value", warp(kOr, {full().vals({1, 3})}));
  yes("result.and_zero_from_nonzero", warp(kAnd, {full().vals({1, 2})}));
  no("result.and_zero_from_nonzero", warp(kAnd, {full().vals({0, 1})}));
  yes("result.xor_zero_from_nonzero", warp(kXor, {full().vals({5})}));
  no("result.xor_zero_from_nonzero", warp(kXor, {lanes(0x7fffffffu).vals({5})}));
  no("result.xor_zero_from_nonzero", warp(kXor, {full().vals({0})}));

  auto f32 = [&](bool expect, const std::string& key, const std::string& text, WarpB w) {
    c.push_back({key, warp(text, {w}), expect, kSm100a});
  };
  f32(true, "a.nan_payload", kMinF, full().vals({0x7fc00123u, kOne}));
  f32(false, "a.nan_payload", kMinF, full().vals({0x7fffffffu, kOne}));
  f32(true, "a.negative_nan", kMinF, full().vals({0xffc00000u, kOne}));
  f32(false, "a.negative_nan", kMinF, full().vals({0x7fc00000u, 0xbf800000u}));
  f32(true, "a.all_nan", kMinF, full().vals({kNan, 0xffc00002u}));
  f32(false, "a.all_nan", kMinF, full().vals({kNan, kOne}));
  f32(false, "a.all_nan", kMinF, lanes(1u << 5).vals({kNan}));
  f32(true, "a.nan_among_numbers", kMinF, full().vals({kNan, kOne}));
  f32(false, "a.nan_among_numbers", kMinF, full().vals({kNan}));
  f32(true, "a.infinity", kMinF, full().vals({0xff800000u, kOne}));
  f32(false, "a.infinity", kMinF, full().vals({0x7f800001u, kOne}));
  f32(true, "a.subnormal", kMinF, full().vals({1, kOne}));
  f32(false, "a.subnormal", kMinF, full().vals({0x00800000u, 0}));
  f32(true, "a.negative_numbers", kMinF, full().vals({0xbf800000u}));
  f32(false, "a.negative_numbers", kMinF, full().vals({0x80000000u, 0xffc00000u}));
  f32(true, "result.zero_sign_decides", kMinF, full().vals({0, 0x80000000u}));
  f32(false, "result.zero_sign_decides", kMinF, full().vals({0, 0x80000000u, 0xbf800000u}));
  f32(true, "result.abs_changes_answer", kMaxAbsF, full().vals({0xc0400000u, 0x40000000u}));
  f32(false, "result.abs_changes_answer", kMaxAbsF, full().vals({kOne, 0x40000000u}));
  f32(true, "result.nan_qualifier_decides", kMinF, full().vals({kNan, kOne}));
  f32(false, "result.nan_qualifier_decides", kMinF, full().vals({kOne, 0x40000000u}));

  for (std::size_t n : {32, 33, 64, 96, 256, 1024}) {
    const auto key = "block.threads_" + std::to_string(n);
    yes(key, block(kBar, {CtaB(n)}));
    no(key, block(kBar, {CtaB(n == 32 ? 48 : n - 1)}));
  }
  yes("block.partial_last_warp", block(kBar, {CtaB(33)}));
  no("block.partial_last_warp", block(kBar, {CtaB(64)}));
  yes("block.all_arrive", block(kBar, {CtaB(64)}));
  no("block.all_arrive", block(kBar, {CtaB(64).exit(5)}));
  yes("block.exited_in_every_warp", block(kBar, {CtaB(64).exit(31).exit(63)}));
  no("block.exited_in_every_warp", block(kBar, {CtaB(64).exit(31)}));
  yes("block.exited_in_every_warp", block(kBar, {CtaB(33).exit(0).exit(32)}));
  yes("block.one_arrives", block(kBar, {CtaB(64).exit_all_but(7)}));
  auto two_arrive = CtaB(64).exit_all_but(7);
  two_arrive.c.exited[8] = false;
  two_arrive.c.arrive[8] = true;
  no("block.one_arrives", block(kBar, {two_arrive}));
  no("block.one_arrives", block(kBar, {CtaB(64).exit_all_but(7).exit(7)}));
  auto none_arrive = CtaB(64);
  for (std::size_t t = 0; t < 64; ++t) none_arrive.missing(t);
  yes("block.none_arrive", block(kBar, {none_arrive}));
  no("block.none_arrive", block(kBar, {CtaB(64).missing(1)}));
  no("block.none_arrive", block(kBar, {CtaB(64).exit_all_but(0).exit(0)}));  // all exited
  yes("block.thread_missing", block(kBar, {CtaB(64).missing(1)}));
  no("block.thread_missing", block(kBar, {none_arrive}));
  yes("block.whole_warp_exited", block(kBar, {[] {
                                         CtaB b(96);
                                         for (std::size_t t = 32; t < 64; ++t) b.exit(t);
                                         return b;
                                       }()}));
  no("block.whole_warp_exited", block(kBar, {CtaB(64).exit(31).exit(63)}));
  no("block.whole_warp_exited", block(kBar, {CtaB(33).exit(32).exit(5)}));  // warp 0 partly
  yes("block.whole_warp_exited", block(kBar, {CtaB(33).exit(32)}));
  no("block.whole_warp_exited", block(kBar, {CtaB(32).exit_all_but(0).exit(0)}));  // none arrive
  yes("block.and_true_over_exited", block(kBAnd, {CtaB(64, 1).exit(5, 1)}));
  no("block.and_true_over_exited", block(kBAnd, {CtaB(64, 1).exit(5, 0)}));
  no("block.and_true_over_exited", block(kBAnd, {CtaB(64, 1)}));
  // 2 and 3 share bit 1 (true either way); 2 and 1 share none; all 3s have no even one.
  yes("block.and_shared_bit_even", block(kBAnd, {CtaB(32, 3).pred(4, 2)}));
  no("block.and_shared_bit_even", block(kBAnd, {CtaB(32, 1).pred(4, 2)}));
  no("block.and_shared_bit_even", block(kBAnd, {CtaB(32, 3)}));
  yes("block.exited_pred_matters", block(kBAnd, {CtaB(64, 1).exit(5, 0)}));
  no("block.exited_pred_matters", block(kBAnd, {CtaB(64, 1).exit(5, 1)}));
  yes("block.pred_not_bool", block(kPopc, {CtaB(32, 1).pred(0, 2)}));
  no("block.pred_not_bool", block(kPopc, {CtaB(32, 1).pred(0, 0)}));
  no("block.pred_not_bool", block(kPopc, {CtaB(32, 1).exit(0, 2)}));  // exited: not passed
  yes("block.pred_even_nonzero", block(kPopc, {CtaB(32, 0x80000000u)}));
  no("block.pred_even_nonzero", block(kPopc, {CtaB(32, 3)}));
  yes("block.low_byte_misleads", block(kPopc, {CtaB(32, 0x100u)}));
  yes("block.low_byte_misleads", block(kBAnd, {CtaB(32, 0x80000000u)}));
  no("block.low_byte_misleads", block(kPopc, {CtaB(32, 0x101u)}));
  no("block.low_byte_misleads", block(kPopc, {CtaB(32, 0)}));
  yes("block.exited_zero_matters", block(kBAnd, {CtaB(64, 1).exit(5, 1)}));
  no("block.exited_zero_matters", block(kBAnd, {CtaB(64, 1).pred(3, 0).exit(5, 1)}));
  yes("block.partial_warp_matters", block(kPopc, {CtaB(33, 1)}));
  no("block.partial_warp_matters", block(kPopc, {CtaB(33, 1).pred(32, 0)}));
  no("block.partial_warp_matters", block(kPopc, {CtaB(64, 1)}));
  yes("block.phantom_threads_matter", block(kBAnd, {CtaB(33, 1)}));
  yes("block.phantom_threads_matter", block(kPopcN, {CtaB(33, 1)}));
  no("block.phantom_threads_matter", block(kBAnd, {CtaB(33, 1).pred(0, 0)}));
  no("block.phantom_threads_matter", block(kBAnd, {CtaB(64, 1)}));
  yes("block.count_above_511", block(kPopc, {CtaB(512, 1)}));
  no("block.count_above_511", block(kPopc, {CtaB(512, 1).pred(0, 0)}));
  yes("block.count_1024", block(kPopc, {CtaB(1024, 1)}));
  no("block.count_1024", block(kPopc, {CtaB(1024, 1).pred(3, 0)}));
  yes("block.count_above_255", block(kPopc, {CtaB(256, 1)}));
  no("block.count_above_255", block(kPopc, {CtaB(256, 1).pred(0, 0)}));
  yes("result.count_zero", block(kPopc, {CtaB(64, 0)}));
  no("result.count_zero", block(kPopc, {CtaB(64, 0).pred(9, 1)}));
  yes("result.count_all", block(kPopc, {CtaB(64, 1)}));
  // Named barriers: numbers and counts in registers.
  const std::string kPopcReg = "bar.red.popc.u32 d, %bar, %count, a;",
                    kOrReg = "bar.red.or.pred d, %bar, %count, a;";
  yes("block.count_operand_above_511", block(kPopcReg, {CtaB(1024).named(0, 1024, 1, 1024)}));
  no("block.count_operand_above_511", block(kPopcReg, {CtaB(256).named(0, 256, 1, 256)}));
  no("block.count_operand_above_511", block(kPopc, {CtaB(1024)}));  // no count at all
  // Barriers 1 and 9 (warps interleaved) answer 0 and 64; 1 and 2 do not alias.
  const auto interleaved = [](uint32_t other) {
    return CtaB(128)
        .named(0, 32, 1, 64, 0)
        .named(32, 64, other, 64, 1)
        .named(64, 96, 1, 64, 0)
        .named(96, 128, other, 64, 1);
  };
  yes("block.barrier_numbers_alias", block(kPopcReg, {interleaved(9)}));
  yes("block.barrier_numbers_alias", block(kOrReg, {interleaved(9)}));
  no("block.barrier_numbers_alias", block(kPopcReg, {interleaved(2)}));
  no("block.barrier_numbers_alias", block(kPopcReg, {CtaB(128).named(0, 128, 9, 128)}));
  // Barrier 1 (two warps, count 64) and barrier 2 (one warp, count 32): barrier 2 given 64
  // never fills. With equal counts nothing changes.
  yes("block.barriers_differ_in_count",
      block(kPopcReg, {CtaB(96).named(0, 64, 1, 64).named(64, 96, 2, 32)}));
  no("block.barriers_differ_in_count",
     block(kPopcReg, {CtaB(128).named(0, 64, 1, 64).named(64, 128, 2, 64)}));
  no("result.count_all", block(kPopc, {CtaB(32, 1)}));
  no("result.count_all", block(kPopc, {CtaB(64, 1).pred(9, 0)}));

  yes("seq.two_rounds_stale_would_show",
      warp(kBallot, {full().vals({1}), lanes(0xffff).vals({0, 1})}));
  no("seq.two_rounds_stale_would_show", warp(kBallot, {full().vals({1}), full().vals({1})}));
  no("seq.two_rounds_stale_would_show", warp(kBallot, {full().vals({1})}));
  yes("seq.two_rounds_stale_would_show", block(kPopc, {CtaB(64, 1), CtaB(64, 0)}));
  no("seq.two_rounds_stale_would_show", block(kPopc, {CtaB(64, 1), CtaB(64, 1)}));
  yes("seq.result_bit_cleared", warp(kBallot, {full().vals({1}), lanes(0xffff).vals({1})}));
  no("seq.result_bit_cleared", warp(kBallot, {lanes(0xffff).vals({1}), full().vals({1})}));
  yes("seq.result_bit_cleared", warp(kVAny, {full().vals({1}), full().vals({0})}));
  no("seq.result_bit_cleared", warp(kVAny, {full().vals({0}), full().vals({1})}));
  yes("seq.result_bit_set", warp(kVAny, {full().vals({0}), full().vals({1})}));
  no("seq.result_bit_set", warp(kVAny, {full().vals({1}), full().vals({0})}));
  yes("seq.result_bit_set", block(kPopc, {CtaB(64, 0), CtaB(64, 1)}));
  no("seq.result_bit_set", block(kPopc, {CtaB(64, 1), CtaB(64, 1)}));
  yes("seq.exit_between_rounds", warp(kSync, {full(), full().exit(1)}));
  no("seq.exit_between_rounds", warp(kSync, {full().exit(1), full().exit(1)}));
  yes("seq.exited_still_named", warp(kSync, {full(), full().exit(1)}));
  no("seq.exited_still_named", warp(kSync, {full().exit(1), full().exit(1)}));
  no("seq.exited_still_named", warp(kSync, {full(), lanes(~1u).exit(1)}));  // no mask names lane 0
  yes("seq.exit_between_rounds", block(kBar, {CtaB(64), CtaB(64).exit(40)}));
  no("seq.exit_between_rounds", block(kBar, {CtaB(64).exit(40), CtaB(64).exit(40)}));
  yes("seq.mask_changes", warp(kSync, {full(), lanes(0xffff)}));
  no("seq.mask_changes", warp(kSync, {full(), full()}));
  yes("seq.exited_last_operand_matters",
      warp(kAddU, {full().vals({1}), full().vals({1}).exit(1).a_at(0, 0)}));
  no("seq.exited_last_operand_matters",  // its earlier operand, 0, adds nothing
     warp(kAddU, {full().vals({0}), full().vals({1}).exit(1)}));
  no("seq.exited_last_operand_matters", warp(kAddU, {full().vals({1}).exit(1)}));
  yes("seq.exited_last_operand_matters", block(kPopc, {CtaB(64, 1), CtaB(64, 1).exit(5, 0)}));
  no("seq.exited_last_operand_matters",
     block(kPopc, {CtaB(64, 1).pred(5, 0), CtaB(64, 1).exit(5, 1)}));
  {
    // Warp 1 votes false at the first barrier and has exited by the second.
    CtaB gone(64, 1);
    for (std::size_t t = 32; t < 64; ++t) gone.exit(t, 0);
    yes("seq.warp_gone_last_operands_matter", block(kBAnd, {CtaB(64, 1).pred(40, 0), gone}));
    no("seq.warp_gone_last_operands_matter", block(kBAnd, {CtaB(64, 1), gone}));  // true anyway
    // One thread of warp 1 has gone, the warp still arrives: no warp has gone.
    no("seq.warp_gone_last_operands_matter",
       block(kBAnd, {CtaB(64, 1).pred(40, 0), CtaB(64, 1).exit(40, 0)}));
  }
  yes("seq.call_site_split", warp(kAddU, {full().vals({1}).site(0xffff0000u, 1)}));
  no("seq.call_site_split", warp(kAddU, {full().vals({1})}));
  // The sites combine, but keeping them apart would change no result: a sum of zeros.
  no("seq.call_site_split", warp(kAddU, {full().vals({0}).site(0xffff0000u, 1)}));
  yes("seq.call_site_split", warp(kSync, {full().site(0xffff0000u, 1)}));
  no("seq.call_site_split",
     warp(kAddU, {WarpB{}.run(0xffff, 0xffff).run(0xffff0000u, 0xffff0000u).site(0xffff0000u, 1)}));
  // On sm_6x split call sites are undefined: the defined coverpoint is not hit there.
  const auto halves = full().a([](unsigned i) { return i < 16; }).site(0xffff0000u, 1);
  yes("seq.call_site_split", warp(kVAll, {halves}), kSm90);
  no("seq.call_site_split", warp(kVAll, {halves}), kSm60);
  const std::string kActive = "activemask.b32 d;";
  // An activemask kept from the round before would show.
  yes("seq.two_rounds_stale_would_show", warp(kActive, {full(), lanes(0xffff)}));
  no("seq.two_rounds_stale_would_show", warp(kActive, {full(), full()}));
  yes("activemask.exited_lane", warp(kActive, {full().exit(0x80000001u)}));
  no("activemask.exited_lane", warp(kActive, {full()}));
  no("activemask.exited_lane", warp(kActive, {lanes(0xffff)}));  // elsewhere, not exited
  yes("activemask.two_sites", warp(kActive, {full().site(0xffff0000u, 1)}));
  no("activemask.two_sites", warp(kActive, {full()}));
  // Lanes at site 1 that do not execute split nothing.
  no("activemask.two_sites", warp(kActive, {lanes(0xffff).site(0xffff0000u, 1)}));
  yes("activemask.lone_lane", warp(kActive, {lanes(0x100)}));
  no("activemask.lone_lane", warp(kActive, {lanes(0x300)}));
  // Alone, but only because every other lane has exited: nobody is elsewhere.
  no("activemask.lone_lane", warp(kActive, {lanes(0x100).exit(~0x100u)}));
  const std::string kElect = "elect.sync d|p, m;";
  const auto halves_elect = WarpB{}.run(0xffff, 0xffff).run(0xffff0000u, 0xffff0000u);
  yes("elect.leader_not_lowest_executing", warp(kElect, {halves_elect}));  // the upper half: 16
  no("elect.leader_not_lowest_executing", warp(kElect, {full()}));
  no("elect.leader_not_lowest_executing", warp(kElect, {lanes(0xff00)}));  // 8 runs lowest too
  yes("elect.mask_elects_again", warp(kElect, {full(), full()}));
  no("elect.mask_elects_again", warp(kElect, {full()}));
  no("elect.mask_elects_again", warp(kElect, {lanes(0xffff), lanes(0xffff0000u)}));
  yes("elect.exited_below_leader", warp(kElect, {lanes(0xffffff00u).exit(0xffu)}));
  no("elect.exited_below_leader", warp(kElect, {lanes(0x00ffffffu).exit(0xff000000u)}));
  yes("elect.leader_then_follower", warp(kElect, {lanes(0xffff0000u), full()}));
  no("elect.leader_then_follower", warp(kElect, {full(), full()}));
  yes("elect.mask_returns_after_another", warp(kElect, {full(), lanes(0xffff), full()}));
  no("elect.mask_returns_after_another", warp(kElect, {full(), full(), full()}));
  no("elect.mask_returns_after_another", warp(kElect, {full(), lanes(0xffff)}));

  // The shuffles, over lanes holding 100 + i (a value names the lane it came from).
  const std::string kUp = "shfl.sync.up.b32 d|p, a, b, c, m;", kDown = "shfl.sync.down.b32 d|p, a, b, c, m;";
  const std::string kBfly = "shfl.sync.bfly.b32 d|p, a, b, c, m;", kIdx = "shfl.sync.idx.b32 d|p, a, b, c, m;";
  const auto named = [](WarpB w) { return w.a([](unsigned i) { return 100u + i; }); };
  const auto same = [](WarpB w) { return w.vals({7}); };
  yes("shfl.b_beyond_31", warp(kDown, {named(full()).bc(33, 0x1f)}));
  no("shfl.b_beyond_31", warp(kDown, {named(full()).bc(1, 0x1f)}));
  yes("shfl.up_below_zero", warp(kUp, {named(full()).bc(1, 0)}));
  no("shfl.up_below_zero", warp(kUp, {named(full()).bc(0, 0)}));
  yes("shfl.segment_below_warp", warp(kIdx, {named(full()).bc(2, 0x181f)}));
  no("shfl.segment_below_warp", warp(kIdx, {named(full()).bc(2, 0x1f)}));
  yes("shfl.odd_segment_mask", warp(kIdx, {named(full()).bc(0, 0x0a1f)}));
  no("shfl.odd_segment_mask", warp(kIdx, {named(full()).bc(0, 0x181f)}));
  // Clamp 15 with no segment mask: lane 15 stops there, where the warp's edge would not.
  yes("shfl.clamp_cuts_segment", warp(kDown, {named(full()).bc(1, 0x0f)}));
  no("shfl.clamp_cuts_segment", warp(kDown, {named(full()).bc(1, 0x1f)}));
  yes("shfl.out_of_range", warp(kDown, {named(full()).bc(1, 0x1f)}));
  no("shfl.out_of_range", warp(kIdx, {named(full()).bc(3, 0x1f)}));
  yes("shfl.from_lower_segment", warp(kBfly, {named(full()).bc(16, 0x101f)}));
  no("shfl.from_lower_segment", warp(kBfly, {named(full()).bc(1, 0x1f)}));
  yes("shfl.idx_wraps", warp(kIdx, {named(full()).bc(10, 0x181f)}));
  no("shfl.idx_wraps", warp(kIdx, {named(full()).bc(2, 0x181f)}));
  const auto two_groups = named(WarpB{}.run(0xffff, 0xffff).run(0xffff0000u, 0xffff0000u));
  yes("shfl.source_outside_mask", warp(kDown, {WarpB(two_groups).bc(1, 0x1f)}));
  no("shfl.source_outside_mask", warp(kDown, {named(full()).bc(1, 0x1f)}));
  yes("shfl.source_not_executing", warp(kDown, {named(lanes(0xff)).bc(1, 0x1f)}));
  no("shfl.source_not_executing", warp(kDown, {named(full()).bc(1, 0x1f)}));
  yes("shfl.b_differs_between_lanes", warp(kDown, {named(full()).bc(1, 0x1f).b_at(5, 2)}));
  no("shfl.b_differs_between_lanes", warp(kDown, {named(full()).bc(1, 0x1f)}));
  yes("shfl.c_differs_between_lanes", warp(kDown, {named(full()).bc(1, 0x1f).c_at(5, 0x0f)}));
  no("shfl.c_differs_between_lanes", warp(kDown, {named(full()).bc(1, 0x1f)}));
  yes("shfl.copies_nan_or_negative_zero", warp(kIdx, {named(full()).a_at(0, 0x7fc00001u).bc(0, 0x1f)}));
  no("shfl.copies_nan_or_negative_zero", warp(kIdx, {named(full()).bc(0, 0x1f)}));
  yes("shfl.down_past_lane_31", warp(kDown, {named(full()).bc(1, 0x1f)}));
  no("shfl.down_past_lane_31", warp(kDown, {named(full()).bc(0, 0x1f)}));
  // c = 0x2f: a five-bit clamp of 15, a six-bit one of 47 that lets lane 15 read lane 16.
  yes("shfl.c_bit_beside_field", warp(kDown, {named(full()).bc(1, 0x2f)}));
  no("shfl.c_bit_beside_field", warp(kDown, {named(full()).bc(1, 0x0f)}));
  yes("shfl.reads_changed_lower_lane", warp(kUp, {named(full()).bc(1, 0)}));
  no("shfl.reads_changed_lower_lane", warp(kUp, {same(full()).bc(1, 0)}));
  yes("shfl.reads_changed_higher_lane", warp(kDown, {named(full()).bc(1, 0x1f)}));
  no("shfl.reads_changed_higher_lane", warp(kDown, {same(full()).bc(1, 0x1f)}));
  return c;
}

TEST(Coverpoints, EveryPredicateIsRightOnHandMadeStates) {
  for (const auto& c : cases()) {
    const auto id = find_coverpoint(c.key);
    ASSERT_TRUE(id) << c.key;
    const auto ptx = spec::kLatestPtx;
    ASSERT_TRUE(in_scope(coverpoint_info(*id).scope, c.v.instr.instr.form))
        << c.key << " is not listed for " << c.v.instr.text;
    const auto e = expected(c.v, c.target, ptx);
    EXPECT_EQ(hits(*id, c.v, e, c.target, ptx), c.hit)
        << c.key << " on " << c.v.instr.text << " (" << spec::to_string(c.target) << ")";
    // The list of hits says the same as the single question.
    const auto all = coverpoints_hit(c.v, e, c.target, ptx);
    EXPECT_EQ(std::find(all.begin(), all.end(), *id) != all.end(), c.hit) << c.key;
  }
}

TEST(Coverpoints, EveryCoverpointHasATrueAndAFalseHandMadeCase) {
  std::map<std::string, std::pair<int, int>> seen;
  for (const auto& c : cases()) (c.hit ? seen[c.key].first : seen[c.key].second)++;
  for (const auto& cp : coverpoints()) {
    EXPECT_GT(seen[std::string(cp.key)].first, 0) << cp.key << ": no state that hits it";
    EXPECT_GT(seen[std::string(cp.key)].second, 0) << cp.key << ": no state that misses it";
  }
}

TEST(Coverpoints, TheCatalogIsWellFormed) {
  std::set<std::string_view> keys;
  for (const auto& cp : coverpoints()) {
    EXPECT_TRUE(keys.insert(cp.key).second) << "duplicate key " << cp.key;
    EXPECT_EQ(find_coverpoint(cp.key), cp.id);
    EXPECT_FALSE(cp.description.empty()) << cp.key;
    bool listed = false;
    for (const auto& f : spec::kForms) listed |= in_scope(cp.scope, f.id);
    EXPECT_TRUE(listed) << cp.key << " is listed for no form";
  }
  for (const auto& f : spec::kForms) EXPECT_FALSE(coverpoints_of(f.id, kSm90).empty()) << f.name;
}

// docs/vectors.md lists the coverpoints per family: every key is there.
TEST(Coverpoints, TheDocsNameEveryCoverpoint) {
  std::ifstream in(std::string(WARPSPEC_SOURCE_DIR) + "/docs/vectors.md");
  ASSERT_TRUE(in);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const auto& cp : coverpoints()) {
    std::string key(cp.key);
    // The block sizes share one row: `block.threads_32`, `_33`, ...
    if (key.starts_with("block.threads_")) key = "_" + key.substr(14) + "`";
    EXPECT_NE(text.find(key), std::string::npos) << cp.key << " is not in docs/vectors.md";
  }
}

}  // namespace
}  // namespace warpspec::vectors
