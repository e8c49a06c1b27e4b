// The fast implementation agrees with the model on every form of the catalog: the same UB
// findings (clause and lanes), the same executing lanes, the same lanes whose d alone is
// undefined, and the same d (and p) wherever the model's result is defined. One property per
// form, over the corner-leaning states of tests/support/generators.hpp, for every instruction set
// this CPU can run.
#include "support/agreement.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <vector>

#include "model/fast/avx512.hpp"
#include "model/fast/fast.hpp"
#include "support/generators.hpp"
#include "support/show.hpp"

namespace warpspec {
namespace {

std::vector<spec::FormId> forms(bool warp) {
  std::vector<spec::FormId> out;
  for (const auto& f : spec::kForms)
    if (spec::is_warp_form(f.id) == warp) out.push_back(f.id);
  return out;
}

std::string form_test_name(const testing::TestParamInfo<spec::FormId>& info) {
  std::string s(spec::form_info(info.param).name);
  std::replace(s.begin(), s.end(), '.', '_');
  return s;
}

std::vector<fast::Isa> usable_isas() {
  std::vector<fast::Isa> out{fast::Isa::Portable};
  if (fast::isa_supported(fast::Isa::Avx512)) out.push_back(fast::Isa::Avx512);
  return out;
}

// A warp of the usual shapes whose executing lanes are in their own masks, where the group walk
// is used.
model::Warp warp_in_own_masks() {
  auto w = *test::gen::warp_shape();
  for (unsigned i = 0; i < 32; ++i)
    if (w.exec[i] && !w.exited[i]) w.mask[i] |= uint32_t{1} << i;
  return w;
}

class EveryWarpForm : public testing::TestWithParam<spec::FormId> {};
class EveryBlockForm : public testing::TestWithParam<spec::FormId> {};

// RC_GTEST_PROP cannot take a test parameter; this is the check it expands to.
template <class Property>
void check_property(Property&& p) {
  rc::detail::checkGTest(std::forward<Property>(p));
}

TEST_P(EveryWarpForm, fast_agrees_with_the_model) {
  const spec::FormId form = GetParam();
  check_property([form] {
    const auto c = *test::gen::warp_case(form);
    const auto ref = model::evaluate(c.instr, c.warp, c.target, c.ptx);
    RC_CLASSIFY(ref.ub.empty(), "no UB");
    RC_CLASSIFY(ref.outcome.loose_d_lanes(model::Concrete{}) != 0, "some d undefined");
    for (const fast::Isa isa : usable_isas()) {
      fast::WarpLanes lanes;
      const auto verdict = fast::evaluate_batch(c.instr, std::span(&c.warp, 1),
                                                std::span(&lanes, 1), c.target, c.ptx, isa);
      const auto diff = test::disagreement(ref, fast::to_result(c.instr, lanes, verdict));
      if (!diff.empty()) RC_FAIL(std::string(fast::isa_name(isa)) + " kernels: " + diff);
    }
    const auto diff = test::disagreement(ref, fast::evaluate(c.instr, c.warp, c.target, c.ptx));
    if (!diff.empty()) RC_FAIL("fast::evaluate: " + diff);
  });
}

TEST_P(EveryWarpForm, a_batch_answers_each_warp_as_if_it_were_alone) {
  const spec::FormId form = GetParam();
  check_property([form] {
    const auto in = *test::gen::instr(form);
    const auto warps = *rc::gen::container<std::vector<model::Warp>>(
        static_cast<std::size_t>(*rc::gen::inRange(1, 9)),
        rc::gen::exec([form] { return (*test::gen::warp_case(form)).warp; }));
    std::vector<fast::WarpLanes> batch(warps.size());
    fast::evaluate_batch(in, warps, batch);
    for (std::size_t k = 0; k < warps.size(); ++k) {
      fast::WarpLanes alone;
      fast::evaluate_batch(in, std::span(&warps[k], 1), std::span(&alone, 1));
      const auto def = alone.lanes_without_ub() & ~alone.loose_d;
      RC_ASSERT(batch[k].executes == alone.executes);
      RC_ASSERT(batch[k].ub == alone.ub);
      RC_ASSERT(batch[k].loose_d == alone.loose_d);
      RC_ASSERT((batch[k].p & alone.lanes_without_ub()) == (alone.p & alone.lanes_without_ub()));
      for (unsigned i = 0; i < 32; ++i)
        if (def >> i & 1u) RC_ASSERT(batch[k].d[i] == alone.d[i]);
    }
  });
}

// CUDA's 64-bit shuffle overloads: the fast implementation runs its b32 path once on the low
// words and once on spec::high_words; both words of d must be the model's.
RC_GTEST_PROP(WideShuffles, fast_agrees_with_the_model_on_both_words, ()) {
  const auto form = *rc::gen::element(spec::FormId::ShflUp, spec::FormId::ShflDown,
                                      spec::FormId::ShflBfly, spec::FormId::ShflIdx);
  auto c = *test::gen::warp_case(form);
  c.instr.wide = true;
  c.warp.a = *test::gen::operands(spec::OperandType::B64);
  const auto ref = model::evaluate(c.instr, c.warp, c.target, c.ptx);
  RC_ASSERT(ref.outcome.d_hi.size() == std::size_t{spec::kWarpSize});
  RC_CLASSIFY(ref.ub.empty(), "no UB");
  const auto diff = test::disagreement(ref, fast::evaluate(c.instr, c.warp, c.target, c.ptx));
  if (!diff.empty()) RC_FAIL("fast::evaluate: " + diff);
}

TEST_P(EveryBlockForm, fast_agrees_with_the_model) {
  const spec::FormId form = GetParam();
  check_property([form] {
    const auto c = *test::gen::cta_case(form);
    const auto ref = model::evaluate_cta(c.instr, c.cta, c.target, c.ptx);
    RC_CLASSIFY(ref.ub.empty(), "no UB");
    const auto diff = test::disagreement(ref, fast::evaluate_cta(c.instr, c.cta, c.target, c.ptx));
    if (!diff.empty()) RC_FAIL(diff);
  });
}

// The group walk the kernels use on diverged warps in place of the mask-equality matrix, on
// 32-lane warps whose executing lanes are in their own masks: it ends clean exactly when the
// model finds no mask mismatch. One direction is what makes the kernels right (and Z3 proves
// it); the other, that a well-synchronised warp is never sent to the matrix, is what makes
// them fast.
RC_GTEST_PROP(GroupWalk, ends_clean_exactly_when_no_lane_has_a_mask_mismatch, ()) {
  const auto w = warp_in_own_masks();
  spec::Instr in;
  in.form = spec::FormId::ReduxAddU32;
  const auto ref = model::evaluate(in, w);
  const bool mismatch = std::any_of(ref.ub.begin(), ref.ub.end(), [](const model::UbFinding& u) {
    return u.clause == spec::ClauseId::ReduxUbMaskMismatch;
  });
  RC_CLASSIFY(mismatch, "mask mismatch");
  const bool clean = fast::mismatch_walk_certifies<model::Concrete, 32>(
      model::Concrete{}, fast::lane_words<model::Concrete, 32>(model::Concrete{}, w, in));
  RC_ASSERT(clean == !mismatch);
}

// The kernels' own copy of the walk (a loop until no lane is left, the leader found with a
// trailing-zero count) against the generic text above; and, where no UB clause fires, its
// groups are the participant sets of the executing lanes, each lane in exactly one, which is
// what the reductions rely on.
RC_GTEST_PROP(GroupWalk, the_kernels_walk_like_the_generic_text, ()) {
  if (!fast::isa_supported(fast::Isa::Avx512)) return;
  const auto w = warp_in_own_masks();
  spec::Instr in;
  in.form = spec::FormId::ReduxAddU32;
  const auto v = fast::lane_words<model::Concrete, 32>(model::Concrete{}, w, in);
  uint32_t groups[32];
  unsigned n = 0;
  const bool clean = fast::avx512::walk_groups32(w, groups, &n);
  const bool generic = fast::mismatch_walk_certifies<model::Concrete, 32>(model::Concrete{}, v);
  RC_ASSERT(clean == generic);
  if (!model::evaluate(in, w).ub.empty()) return;
  RC_TAG("no UB");
  uint32_t covered = 0;
  for (unsigned k = 0; k < n; ++k) {
    RC_ASSERT((covered & groups[k]) == 0u);
    covered |= groups[k];
    for (unsigned i = 0; i < 32; ++i)
      if (groups[k] >> i & 1u) RC_ASSERT((v.mask[i] & ~v.exited) == groups[k]);
  }
  RC_ASSERT(covered == v.execs);
}

INSTANTIATE_TEST_SUITE_P(Catalog, EveryWarpForm, testing::ValuesIn(forms(true)), form_test_name);
INSTANTIATE_TEST_SUITE_P(Catalog, EveryBlockForm, testing::ValuesIn(forms(false)), form_test_name);

TEST(FastApi, refuses_what_the_model_refuses) {
  spec::Instr bar;
  bar.form = spec::FormId::BarSync;
  EXPECT_THROW(fast::evaluate(bar, model::make_warp()), std::invalid_argument);
  spec::Instr vote;
  vote.form = spec::FormId::VoteAny;
  EXPECT_THROW(fast::evaluate_cta(vote, model::make_cta(32)), std::invalid_argument);
  EXPECT_THROW(fast::evaluate_cta(bar, model::make_cta(0)), std::invalid_argument);
  std::vector<model::Warp> two(2, model::make_warp());
  std::vector<fast::WarpLanes> one(1);
  EXPECT_THROW(fast::evaluate_batch(vote, two, one), std::invalid_argument);
}

}  // namespace
}  // namespace warpspec
