// Exhaustive checks at a small warp width. On every 3-lane warp state (each lane executing,
// exited or elsewhere, with each of the 8 possible membermasks; operands from small pools that hold
// the corners of each form; call sites for the sm_6x rules; the shuffles' b per lane from small
// pools that reach every lane, and one past the warp) three readings must agree:
//   the model (spec::evaluate_warp at width 3),
//   the fast algorithms' domain-generic text (fast::evaluate_lanes at width 3), and
//   the AVX-512 kernels, on the same state embedded in 32 lanes whose other lanes have exited.
// The shuffles' lane arithmetic is then checked on whole 32-lane warps, for every b[5:0] and every
// segment mask and clamp; the bit-matrix kernels against their generic twins on 32-lane matrices.
#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <vector>

#include "model/fast/avx512.hpp"
#include "model/fast/generic.hpp"
#include "spec/semantics.hpp"
#include "support/agreement.hpp"

namespace warpspec {
namespace {

using C = model::Concrete;
constexpr int kW = 3;
using Small = spec::WarpState<C, kW>;

std::string hex(uint64_t x) {
  std::ostringstream os;
  os << "0x" << std::hex << x;
  return os.str();
}

std::string show(const Small& s) {
  std::ostringstream os;
  for (unsigned i = 0; i < kW; ++i)
    os << "  lane " << i << ": "
       << (s.exited[i] ? "exited"
           : s.exec[i] ? "executes"
                       : "elsewhere")
       << ", mask " << hex(s.mask[i]) << ", a " << hex(s.a[i]) << ", site " << s.site[i] << ", b "
       << s.b[i] << ", c " << hex(s.c[i]) << "\n";
  return os.str();
}

// Empty when the fast lanes agree with the model's outcome at width 3 (Alive2's order).
std::string against_model(const spec::Outcome<C, kW>& ref, const fast::Lanes<C, kW>& got) {
  for (std::size_t k = 0; k < ref.ub.size(); ++k)
    if (ref.ub[k].lanes != got.ub[k])
      return std::string(spec::clause_info(ref.ub[k].clause).key) + ": model " +
             hex(ref.ub[k].lanes) + ", fast " + hex(got.ub[k]);
  const uint32_t execs = fast::pack<C, kW>(C{}, ref.executes);
  if (execs != got.executes) return "executing lanes differ";
  if (ref.loose_d_lanes(C{}) != got.loose_d)
    return "undefined d: model " + hex(ref.loose_d_lanes(C{})) + ", fast " + hex(got.loose_d);
  for (unsigned i = 0; i < kW; ++i) {
    if (ref.d_defined(C{}, i) && ref.d[i] != got.d[i])
      return "lane " + std::to_string(i) + ": model d " + hex(ref.d[i]) + ", fast " + hex(got.d[i]);
    if (ref.defined(C{}, i) && ref.p[i] != ((got.p >> i & 1u) != 0))
      return "lane " + std::to_string(i) + ": p differs";
  }
  return {};
}

// Empty when the kernels' answer on the embedded state agrees with the generic one on every lane
// the model defines (the kernels skip the values when UB leaves no lane defined).
std::string against_twin(const fast::Lanes<C, kW>& twin, const fast::WarpLanes& simd) {
  if (simd.ub != std::array<uint32_t, 4>{twin.ub[0], twin.ub[1], twin.ub[2], twin.ub[3]})
    return "UB lanes differ: kernels " + hex(simd.ub[0]) + "/" + hex(simd.ub[1]) + "/" +
           hex(simd.ub[2]) + "/" + hex(simd.ub[3]);
  if (simd.executes != twin.executes) return "executing lanes differ";
  // Lanes 3-31 of the embedding have exited: none executes, so none has a d left open.
  if (simd.loose_d != twin.loose_d)
    return "undefined d: generic " + hex(twin.loose_d) + ", kernels " + hex(simd.loose_d);
  for (unsigned i = 0; i < kW; ++i) {
    if ((twin.d_defined(C{}) >> i & 1u) && twin.d[i] != simd.d[i])
      return "lane " + std::to_string(i) + ": generic d " + hex(twin.d[i]) + ", kernels " +
             hex(simd.d[i]);
    if ((twin.defined(C{}) >> i & 1u) && ((twin.p ^ simd.p) >> i & 1u))
      return "lane " + std::to_string(i) + ": p differs";
  }
  return {};
}

model::Warp embed(const Small& s) {
  model::Warp w{};
  for (unsigned i = 0; i < 32; ++i) {
    const bool in = i < kW;
    w.exec[i] = in && s.exec[i];
    w.exited[i] = !in || s.exited[i];
    w.mask[i] = in ? s.mask[i] : 0;
    w.a[i] = in ? s.a[i] : 0;
    w.site[i] = in ? s.site[i] : 0;
    w.b[i] = in ? s.b[i] : 0;
    w.c[i] = in ? s.c[i] : 0;
  }
  return w;
}

// One exhaustive pass: a form's operand choices, a target rule, an operand pool, and for the
// shuffles a pool of b per lane and one c for the warp.
struct Pass {
  spec::Instr in;
  bool pre_volta = false;
  std::vector<uint64_t> pool{0};
  std::vector<uint32_t> b_pool{0};
  uint32_t c = 0;
  bool tag_lanes = false;  // give each lane's operand its lane number, so that copies show
};

// Visits every state of the pass: 27 status choices x 512 mask choices (1 with an immediate
// mask) x pool^3 operands x b_pool^3 shuffle offsets x 8 site patterns (1 unless sm_6x rules
// apply).
template <class F>
void for_each_state(const Pass& p, F&& f) {
  const int masks = p.in.imm_mask ? 1 : 512, sites = p.pre_volta ? 8 : 1;
  const auto n = static_cast<int>(p.pool.size()), nb = static_cast<int>(p.b_pool.size());
  Small s{};
  s.c.fill(p.c);
  for (int st = 0; st < 27; ++st)
    for (int mk = 0; mk < masks; ++mk)
      for (int v = 0; v < n * n * n; ++v)
        for (int bv = 0; bv < nb * nb * nb; ++bv)
          for (int si = 0; si < sites; ++si) {
            for (unsigned i = 0, st_i = static_cast<unsigned>(st), v_i = static_cast<unsigned>(v),
                          b_i = static_cast<unsigned>(bv);
                 i < kW; ++i, st_i /= 3, v_i /= static_cast<unsigned>(n),
                          b_i /= static_cast<unsigned>(nb)) {
              s.exec[i] = st_i % 3 == 0;
              s.exited[i] = st_i % 3 == 1;
              s.mask[i] = (static_cast<unsigned>(mk) >> (3 * i)) & 7u;
              s.a[i] = p.pool[v_i % static_cast<unsigned>(n)] ^ (p.tag_lanes ? 0x10u << i : 0u);
              s.site[i] = (static_cast<unsigned>(si) >> i) & 1u;
              s.b[i] = p.b_pool[b_i % static_cast<unsigned>(nb)];
            }
            f(s);
          }
}

// Runs a pass; returns the number of states checked.
long exhaust(const Pass& p) {
  const bool kernels = fast::isa_supported(fast::Isa::Avx512);
  long states = 0;
  int failures = 0;
  for_each_state(p, [&](const Small& s) {
    ++states;
    if (failures > 3) return;
    const auto ref = spec::evaluate_warp(C{}, p.in, s, p.pre_volta);
    const auto twin = fast::evaluate_lanes(C{}, p.in, s, p.pre_volta);
    std::string why = against_model(ref, twin);
    if (why.empty() && !fast::agrees_with_model(C{}, p.in, ref, twin))
      why = "agrees_with_model says no where the lane-by-lane comparison says yes";
    if (why.empty() && kernels) {
      const model::Warp w = embed(s);
      fast::WarpLanes simd;
      fast::avx512::evaluate(p.in, p.pre_volta, &w, 1, &simd);
      why = against_twin(twin, simd);
    }
    if (!why.empty()) {
      ++failures;
      ADD_FAILURE() << spec::form_info(p.in.form).name << (p.in.negate ? " !a" : "")
                    << (p.pre_volta ? " sm_6x" : "")
                    << (p.in.imm_mask ? " imm " + hex(*p.in.imm_mask) : "")
                    << (p.in.imm_b ? " b " + hex(*p.in.imm_b) : "")
                    << (p.in.imm_c ? " c " + hex(*p.in.imm_c) : "") << ": " << why << "\n"
                    << show(s);
    }
  });
  return states;
}

// Every pass of `forms`: both predicate senses where allowed, sm_6x where it changes the rules,
// and the immediate masks 0b101 and 0b111.
void exhaust_forms(std::initializer_list<spec::FormId> forms, std::vector<uint64_t> pool) {
  long states = 0;
  for (const auto form : forms) {
    const auto& f = spec::form_info(form);
    const bool sm6x_rules = f.family == spec::Family::Vote || f.family == spec::Family::WarpBarrier;
    for (const bool negate : {false, true}) {
      if (negate && !f.negatable) continue;
      for (const bool pre_volta : {false, true}) {
        if (pre_volta && !sm6x_rules) continue;
        for (const std::optional<uint32_t> imm :
             {std::optional<uint32_t>{}, std::optional<uint32_t>{5u},
              std::optional<uint32_t>{7u}}) {
          spec::Instr in;
          in.form = form;
          in.negate = negate;
          in.imm_mask = imm;
          states += exhaust({in, pre_volta, pool});
        }
      }
    }
  }
  testing::Test::RecordProperty("states", std::to_string(states));
}

using F = spec::FormId;

TEST(EveryThreeLaneWarp, match_agrees_across_model_generic_text_and_kernels) {
  // 0 and 1<<32 share their low half: equal for .b32, different for .b64.
  exhaust_forms({F::MatchAnyB32, F::MatchAnyB64, F::MatchAllB32, F::MatchAllB64},
                {0, uint64_t{1} << 32, 1});
}

TEST(EveryThreeLaneWarp, vote_and_syncwarp_agree_across_model_generic_text_and_kernels) {
  exhaust_forms({F::VoteAll, F::VoteAny, F::VoteUni, F::VoteBallot, F::BarWarpSync},
                {0, uint64_t{1} << 32});
}

TEST(EveryThreeLaneWarp, integer_redux_agrees_across_model_generic_text_and_kernels) {
  // Three words whose unsigned and signed orders differ, whose sum wraps, and whose bits mix.
  exhaust_forms({F::ReduxAddU32, F::ReduxAddS32, F::ReduxMinU32, F::ReduxMinS32, F::ReduxMaxU32,
                 F::ReduxMaxS32, F::ReduxAnd, F::ReduxOr, F::ReduxXor},
                {0x7fffffffu, 0x80000000u, 0xffffffffu});
}

TEST(EveryThreeLaneWarp, f32_redux_agrees_across_model_generic_text_and_kernels) {
  const auto forms = {F::ReduxMinF32, F::ReduxMinAbsF32, F::ReduxMinNanF32, F::ReduxMinAbsNanF32,
                      F::ReduxMaxF32, F::ReduxMaxAbsF32, F::ReduxMaxNanF32, F::ReduxMaxAbsNanF32};
  exhaust_forms(forms, {0x00000000u, 0x80000000u, 0xffc00001u});  // +0.0, -0.0, a negative NaN
  exhaust_forms(forms, {0xbf800000u, 0x3f800000u, 0x7f800000u});  // -1.0, +1.0, +inf
}

TEST(EveryThreeLaneWarp, shuffles_agree_across_model_generic_text_and_kernels) {
  // b per lane reaches each lane and, at 3, one past the warp; the two c of each mode move the
  // bound (c = 0x102: segment mask 1, clamp 2). Operands differ in their high halves too.
  long states = 0;
  const std::vector<uint32_t> offsets{0, 1, 3};
  for (const auto form : {F::ShflUp, F::ShflDown, F::ShflBfly, F::ShflIdx}) {
    const bool up = form == F::ShflUp;
    const uint32_t c0 = up ? 0x0u : 0x1fu, c1 = up ? 0x1u : 0x102u;
    spec::Instr in;
    in.form = form;
    const std::vector<uint64_t> pool{uint64_t{0xa} << 32};
    states += exhaust({in, false, pool, offsets, c0, true});
    states += exhaust({in, false, pool, offsets, c1, true});
    states += exhaust({in, true, pool, {1}, c0, true});
    auto imm = in;
    imm.imm_mask = 5u;
    states += exhaust({imm, false, pool, offsets, c1, true});
    imm.imm_mask = 7u;
    imm.imm_b = 2u;
    imm.imm_c = c1;
    states += exhaust({imm, true, pool, {0}, c0, true});
  }
  testing::Test::RecordProperty("states", std::to_string(states));
}

// On whole warps, every b[5:0] with every segment mask c[12:8] and clamp c[4:0] (bits around
// them set in one sweep, to be ignored), in the registers and as immediates: the model, the
// generic text and the kernels agree on a converged warp and on one whose holes (inactive lanes
// outside the mask, exited lanes inside it) leave some copies undefined.
TEST(EveryShuffleOperand, agrees_across_model_generic_text_and_kernels_on_whole_warps) {
  const bool kernels = fast::isa_supported(fast::Isa::Avx512);
  std::array<model::Warp, 2> warps{model::make_warp(), model::make_warp()};
  uint32_t execs = 0, exited = 0;
  for (unsigned i = 0; i < 32; ++i) {
    for (auto& w : warps) w.a[i] = uint64_t{0x5a00u + i} | uint64_t{i} << 40;
    if (i % 5 == 3) model::set_status(warps[1], i, model::LaneStatus::Inactive);
    if (i % 7 == 6) model::set_status(warps[1], i, model::LaneStatus::Exited);
    execs |= uint32_t{warps[1].exec[i] && !warps[1].exited[i]} << i;
    exited |= uint32_t{warps[1].exited[i]} << i;
  }
  warps[1].mask.fill(execs | exited);
  long cases = 0;
  int failures = 0;
  for (const auto form : {F::ShflUp, F::ShflDown, F::ShflBfly, F::ShflIdx})
    for (uint32_t b = 0; b < 64; ++b)
      for (uint32_t sc = 0; sc < 1024; ++sc)
        for (unsigned k = 0; k < warps.size(); ++k) {
          const bool junk = (sc + b) % 3 == 0, imm = (sc + b) % 2 == 0;
          const uint32_t c = (sc & 0x3e0u) << 3 | (sc & 0x1fu) | (junk ? 0xffffe0e0u : 0u);
          const uint32_t bb = b | (junk ? 0xffffffc0u : 0u);
          spec::Instr in;
          in.form = form;
          model::Warp w = warps[k];
          if (imm) {
            in.imm_b = bb;
            in.imm_c = c;
          } else {
            w.b.fill(bb);
            w.c.fill(c);
          }
          ++cases;
          const auto ref = model::evaluate(in, w);
          std::string why = test::disagreement(ref, fast::evaluate(in, w));
          fast::WarpLanes lanes;
          if (why.empty()) {
            lanes = fast::evaluate_lanes(C{}, in, w, false);
            why = test::disagreement(ref, fast::to_result(in, lanes, ref.availability));
          }
          if (why.empty() && kernels) {
            fast::avx512::evaluate(in, false, &w, 1, &lanes);
            why = test::disagreement(ref, fast::to_result(in, lanes, ref.availability));
          }
          if (!why.empty() && ++failures <= 3)
            ADD_FAILURE() << spec::form_info(form).name << " b " << hex(bb) << " c " << hex(c)
                          << (imm ? " (immediates)" : "") << " on warp " << k << ": " << why;
        }
  testing::Test::RecordProperty("cases", std::to_string(cases));
}

// ------------------------------------------------------------------------------- the relation

TEST(Equivalence, only_values_on_undefined_lanes_are_free) {
  spec::Instr in;
  in.form = spec::FormId::VoteBallot;
  // Lanes 0 and 1 vote together with mask 0b011, lane 2 alone: no UB, every lane defined.
  Small s{};
  s.exec = {true, true, true};
  s.mask = {3u, 3u, 4u};
  s.a = {1, 0, 1};
  auto ref = spec::evaluate_warp(C{}, in, s, false);
  auto fast = fast::evaluate_lanes(C{}, in, s, false);
  ASSERT_TRUE(ref.defined(C{}, 0) && ref.defined(C{}, 1) && ref.defined(C{}, 2));
  EXPECT_TRUE(fast::agrees_with_model(C{}, in, ref, fast));
  auto other = fast;
  other.d[0] ^= 1u;  // a defined lane's value is pinned down
  EXPECT_FALSE(fast::agrees_with_model(C{}, in, ref, other));
  other = fast;
  other.ub[2] = 1u;  // so is every UB finding
  EXPECT_FALSE(fast::agrees_with_model(C{}, in, ref, other));
  other = fast;
  other.executes ^= 4u;  // and which lanes execute
  EXPECT_FALSE(fast::agrees_with_model(C{}, in, ref, other));

  // Now lane 2 names lane 0, which passes another mask: lane 2's result is undefined.
  s.mask[2] = 5u;
  ref = spec::evaluate_warp(C{}, in, s, false);
  fast = fast::evaluate_lanes(C{}, in, s, false);
  ASSERT_FALSE(ref.defined(C{}, 2));
  EXPECT_TRUE(fast::agrees_with_model(C{}, in, ref, fast));
  other = fast;
  other.d[2] ^= 1u;  // an undefined lane may hold anything
  EXPECT_TRUE(fast::agrees_with_model(C{}, in, ref, other));
  other = fast;
  other.ub[2] = 0;  // but the finding must be there
  EXPECT_FALSE(fast::agrees_with_model(C{}, in, ref, other));
}

TEST(Equivalence, a_shuffle_pins_p_and_its_undefined_d_lanes_down) {
  spec::Instr in;
  in.form = spec::FormId::ShflIdx;
  // Every lane reads lane 2 (b = 2, c = 0x1f), which is elsewhere and outside the membermask
  // 0b011: no UB, every lane defined, p set, d undefined on lanes 0 and 1.
  Small s{};
  s.exec = {true, true, false};
  s.mask = {3u, 3u, 0u};
  s.a = {0x10, 0x20, 0x30};
  s.b.fill(2u);
  s.c.fill(0x1fu);
  const auto ref = spec::evaluate_warp(C{}, in, s, false);
  const auto fast = fast::evaluate_lanes(C{}, in, s, false);
  ASSERT_TRUE(ref.defined(C{}, 0) && ref.defined(C{}, 1) && ref.p[0] && ref.p[1]);
  ASSERT_EQ(ref.loose_d_lanes(C{}), 3u);
  ASSERT_FALSE(ref.d_defined(C{}, 0));
  EXPECT_TRUE(fast::agrees_with_model(C{}, in, ref, fast));
  auto other = fast;
  other.d[0] ^= 1u;  // a d the spec leaves open may hold anything
  EXPECT_TRUE(fast::agrees_with_model(C{}, in, ref, other));
  other = fast;
  other.p ^= 1u;  // but p is pinned down there
  EXPECT_FALSE(fast::agrees_with_model(C{}, in, ref, other));
  other = fast;
  other.loose_d = 1u;  // and so is the set of lanes whose d is open, either way
  EXPECT_FALSE(fast::agrees_with_model(C{}, in, ref, other));
  other.loose_d = 7u;
  EXPECT_FALSE(fast::agrees_with_model(C{}, in, ref, other));

  // Lane 1 now reads lane 0 (b = 0 for it): its d is pinned down.
  s.b[1] = 0u;
  const auto ref1 = spec::evaluate_warp(C{}, in, s, false);
  const auto fast1 = fast::evaluate_lanes(C{}, in, s, false);
  ASSERT_TRUE(ref1.d_defined(C{}, 1) && !ref1.d_defined(C{}, 0));
  EXPECT_TRUE(fast::agrees_with_model(C{}, in, ref1, fast1));
  other = fast1;
  other.d[1] ^= 1u;
  EXPECT_FALSE(fast::agrees_with_model(C{}, in, ref1, other));
}

// ------------------------------------------------------------------------------- the group walk

// The kernels' walk over the groups of a diverged warp (warp_words.hpp) against the model's
// mask-mismatch clause, on every 4-lane warp whose executing lanes are in their own masks:
// Z3 proves that a clean walk leaves no mismatch (fast.mismatch_walk_is_sound); this also
// checks the converse, on which only the kernels' speed depends.
TEST(EveryFourLaneWarp, the_group_walk_ends_clean_exactly_without_a_mask_mismatch) {
  constexpr int kW4 = 4;
  spec::Instr in;
  in.form = spec::FormId::ReduxAddU32;
  spec::WarpState<C, kW4> s{};
  long clean = 0, not_clean = 0;
  for (int st = 0; st < 81; ++st)
    for (int mk = 0; mk < (1 << 16); ++mk) {
      bool self_ok = true;
      for (unsigned i = 0, st_i = static_cast<unsigned>(st); i < kW4; ++i, st_i /= 3) {
        s.exec[i] = st_i % 3 == 0;
        s.exited[i] = st_i % 3 == 1;
        s.mask[i] = (static_cast<unsigned>(mk) >> (4 * i)) & 15u;
        self_ok = self_ok && (!s.exec[i] || (s.mask[i] >> i & 1u));
      }
      if (!self_ok) continue;
      const auto ref = spec::evaluate_warp(C{}, in, s, false);
      const bool mismatch = ref.ub[2].lanes != 0;
      ASSERT_EQ(ref.ub[2].clause, spec::ClauseId::ReduxUbMaskMismatch);
      const bool walked_clean =
          fast::mismatch_walk_certifies<C, kW4>(C{}, fast::lane_words<C, kW4>(C{}, s, in));
      ASSERT_EQ(walked_clean, !mismatch) << "statuses " << st << ", masks " << hex(mk);
      ++(walked_clean ? clean : not_clean);
    }
  // Both verdicts occur often: the exhaustion is not vacuous.
  EXPECT_GT(clean, 10000);
  EXPECT_GT(not_clean, 10000);
  testing::Test::RecordProperty("clean", std::to_string(clean));
  testing::Test::RecordProperty("not_clean", std::to_string(not_clean));
}

// ------------------------------------------------------------------------------- bit matrices

class Kernels : public testing::Test {
 protected:
  void SetUp() override {
    if (!fast::isa_supported(fast::Isa::Avx512)) GTEST_SKIP() << "no AVX-512 kernels on this CPU";
  }
  std::mt19937_64 rng{20240601};
};

TEST_F(Kernels, transpose_like_the_generic_transpose) {
  for (int round = 0; round < 2000; ++round) {
    fast::Rows<C, 32> rows{};
    for (auto& r : rows) r = round < 32 ? uint32_t{1} << round : static_cast<uint32_t>(rng());
    uint32_t got[32];
    fast::avx512::transpose32(rows.data(), got);
    const auto want = fast::transpose<C, 32>(C{}, rows);
    for (unsigned i = 0; i < 32; ++i)
      ASSERT_EQ(got[i], want[i]) << "row " << i << " round " << round;
  }
}

TEST_F(Kernels, equal_sets_like_the_generic_equal_sets) {
  for (int round = 0; round < 2000; ++round) {
    // Few distinct values, or all distinct, and for 64 bits pairs that differ only up high.
    const unsigned distinct = round % 3 == 0 ? 32u : 1u + static_cast<unsigned>(rng() % 4);
    std::array<uint64_t, 32> v{};
    for (auto& x : v) x = distinct == 32 ? rng() : (rng() % distinct) << (round % 2 ? 32 : 0);
    std::array<uint32_t, 32> low{};
    for (unsigned i = 0; i < 32; ++i) low[i] = static_cast<uint32_t>(v[i]);
    uint32_t got32[32], got64[32];
    fast::avx512::equal_sets32(low.data(), got32);
    fast::avx512::equal_sets64(v.data(), got64);
    const auto want32 =
        fast::equal_sets_of<C, 32>(C{}, [&](unsigned i, unsigned j) { return low[i] == low[j]; });
    const auto want64 =
        fast::equal_sets_of<C, 32>(C{}, [&](unsigned i, unsigned j) { return v[i] == v[j]; });
    for (unsigned i = 0; i < 32; ++i) {
      ASSERT_EQ(got32[i], want32[i]) << "b32 row " << i << " round " << round;
      ASSERT_EQ(got64[i], want64[i]) << "b64 row " << i << " round " << round;
    }
  }
}

}  // namespace
}  // namespace warpspec
