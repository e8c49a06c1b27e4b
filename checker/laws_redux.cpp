// Laws of redux.sync: reductions of 0/1 values against votes and ballots, the bitwise and
// integer operators, the .f32 rules, and what a reduction ignores.
#include "checker/laws.hpp"

namespace warpspec::checker::laws {

namespace {

bool is_f32(FormId f) {
  return spec::form_info(f).a_type == spec::OperandType::F32;
}

/// The .f32 forms, optionally only those with (or without) the .NaN qualifier.
std::vector<FormId> f32_forms() {
  std::vector<FormId> r;
  for (auto f : forms_of(spec::Family::Redux))
    if (is_f32(f)) r.push_back(f);
  return r;
}

/// The canonical NaN bit pattern as a word.
template <class D>
typename D::W32 canonical_nan(const D& d) {
  return d.w32(spec::kCanonicalNanF32);
}

}  // namespace

void add_redux_laws(std::vector<Property>& out, const Subject& subject) {
  auto add = [&](const char* name, const char* doc, unsigned uses, auto body) {
    out.push_back(make_property(name, doc, uses, body, subject));
  };

  add("redux.add_of_bits_is_popc_of_ballot",
      "redux.add of 0/1 values equals the population count of the ballot of those predicates.",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        auto bal = e.eval(instr(FormId::VoteBallot), e.w0);
        auto sum = e.eval(instr(FormId::ReduxAddU32), predicates_as_bits(d, e.w0));
        e.claim_lanes("popc", [&](unsigned i) {
          return implies(d, takes_part(d, e.w0, i), d.popcount(bal.d[i]) == sum.d[i]);
        });
      });

  add("redux.or_of_bits_is_vote_any",
      "redux.or of 0/1 values equals vote.any of the predicates on every lane in its own mask.",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        auto any = e.eval(instr(FormId::VoteAny), e.w0);
        auto r = e.eval(instr(FormId::ReduxOr), predicates_as_bits(d, e.w0));
        e.claim_lanes("or", [&](unsigned i) {
          return implies(d, takes_part(d, e.w0, i), r.d[i] == any.d[i]);
        });
      });

  add("redux.and_of_bits_is_vote_all",
      "redux.and of 0/1 values equals vote.all of the predicates on every lane in its own mask.",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        auto all = e.eval(instr(FormId::VoteAll), e.w0);
        auto r = e.eval(instr(FormId::ReduxAnd), predicates_as_bits(d, e.w0));
        e.claim_lanes("and", [&](unsigned i) {
          return implies(d, takes_part(d, e.w0, i), r.d[i] == all.d[i]);
        });
      });

  add("redux.xor_of_bits_is_ballot_parity",
      "redux.xor of 0/1 values is the parity of the ballot's population count.", kUsesWarp,
      [](auto& e) {
        const auto& d = e.d;
        auto bal = e.eval(instr(FormId::VoteBallot), e.w0);
        auto r = e.eval(instr(FormId::ReduxXor), predicates_as_bits(d, e.w0));
        e.claim_lanes("xor", [&](unsigned i) {
          return implies(d, takes_part(d, e.w0, i), r.d[i] == (d.popcount(bal.d[i]) & d.w32(1)));
        });
      });

  add("redux.min_max_of_bits_are_votes",
      "redux.min.u32 of 0/1 values is vote.all and redux.max.u32 of them is vote.any.", kUsesWarp,
      [](auto& e) {
        const auto& d = e.d;
        auto bits = predicates_as_bits(d, e.w0);
        auto all = e.eval(instr(FormId::VoteAll), e.w0);
        auto any = e.eval(instr(FormId::VoteAny), e.w0);
        auto mn = e.eval(instr(FormId::ReduxMinU32), bits);
        auto mx = e.eval(instr(FormId::ReduxMaxU32), bits);
        e.claim_lanes("min/max", [&](unsigned i) {
          return implies(d, takes_part(d, e.w0, i), mn.d[i] == all.d[i] && mx.d[i] == any.d[i]);
        });
      });

  add("redux.add_ignores_signedness",
      "redux.add.s32 and redux.add.u32 write the same bits (two's complement wraps alike).",
      kUsesWarp, [](auto& e) {
        auto s = e.eval(instr(FormId::ReduxAddS32), e.w0);
        auto u = e.eval(instr(FormId::ReduxAddU32), e.w0);
        e.claim_lanes("add", [&](unsigned i) { return s.d[i] == u.d[i]; });
      });

  add("redux.and_within_or",
      "On a lane in its own mask, every bit of redux.and is also set in redux.or.", kUsesWarp,
      [](auto& e) {
        const auto& d = e.d;
        auto a = e.eval(instr(FormId::ReduxAnd), e.w0);
        auto o = e.eval(instr(FormId::ReduxOr), e.w0);
        e.claim_lanes("and/or", [&](unsigned i) {
          return implies(d, takes_part(d, e.w0, i), spec::is_zero(d, a.d[i] & ~o.d[i]));
        });
      });

  add("redux.uniform_across_a_mask",
      "Every integer redux gives the same result on all defined lanes that pass one membermask.",
      kUsesWarp, [](auto& e) {
        for (auto f : forms_of(spec::Family::Redux))
          if (!is_f32(f))
            claim_uniform(e, std::string(spec::form_info(f).name), e.eval(instr(f), e.w0), e.w0);
      });

  add("redux.f32_uniform_across_a_mask",
      "Every .f32 redux gives the same result on all defined lanes that pass one membermask.",
      kUsesWarp, [](auto& e) {
        for (auto f : f32_forms())
          claim_uniform(e, std::string(spec::form_info(f).name), e.eval(instr(f), e.w0), e.w0);
      });

  add("redux.singleton_masks_return_own_value",
      "When every lane names only itself, each integer redux returns the lane's own value.",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        for (unsigned i = 0; i < spec::kWarpSize; ++i)
          e.assume(e.w0.mask[i] == spec::lane_bit(d, i));
        for (auto f : forms_of(spec::Family::Redux)) {
          if (is_f32(f)) continue;
          auto o = e.eval(instr(f), e.w0);
          e.claim_lanes(std::string(spec::form_info(f).name), [&](unsigned i) {
            return implies(d, takes_part(d, e.w0, i), o.d[i] == d.lo32(e.w0.a[i]));
          });
        }
      });

  add("redux.ignores_high_operand_bits",
      "Changing the high 32 bits of any operand changes no redux result.",
      kUsesWarp | kUsesTwoWarps, [](auto& e) {
        const auto& d = e.d;
        auto t = with_values(e.w0, [&](unsigned j) {
          return (e.w0.a[j] & d.w64(0xffffffffu)) | (e.w1.a[j] & d.w64(0xffffffff00000000u));
        });
        for (auto f : forms_of(spec::Family::Redux)) {
          auto a = e.eval(instr(f), e.w0);
          auto b = e.eval(instr(f), t);
          e.claim_lanes(std::string(spec::form_info(f).name),
                        [&](unsigned i) { return a.d[i] == b.d[i]; });
        }
      });

  add("redux.f32_abs_clears_sign",
      "Every .abs redux returns a value with the sign bit clear, NaN results included.", kUsesWarp,
      [](auto& e) {
        const auto& d = e.d;
        for (auto f : f32_forms()) {
          if (!spec::form_info(f).abs) continue;
          auto o = e.eval(instr(f), e.w0);
          e.claim_lanes(std::string(spec::form_info(f).name),
                        [&](unsigned i) { return !d.bit(o.d[i], 31); });
        }
      });

  add("redux.f32_nan_qualifier_propagates",
      "With .NaN, a NaN from any taking-part lane makes the result the canonical NaN.", kUsesWarp,
      [](auto& e) {
        const auto& d = e.d;
        for (auto f : f32_forms()) {
          if (!spec::form_info(f).nan) continue;
          auto o = e.eval(instr(f), e.w0);
          e.claim_lanes(std::string(spec::form_info(f).name), [&](unsigned i) {
            auto saw = d.lit(false);
            auto part = live(d, e.w0, i);
            for (unsigned j = 0; j < spec::kWarpSize; ++j)
              saw = saw || (d.bit(part, j) && spec::f32_is_nan(d, d.lo32(e.w0.a[j])));
            return implies(d, saw, o.d[i] == canonical_nan(d));
          });
        }
      });

  add("redux.f32_nan_qualifier_moot_without_nans",
      "When no taking-part value is NaN, each .f32 redux with .NaN equals the one without.",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        for (auto f : f32_forms()) {
          const auto& fi = spec::form_info(f);
          if (fi.nan) continue;
          auto with = f;
          for (auto g : f32_forms())
            if (spec::form_info(g).mode == fi.mode && spec::form_info(g).abs == fi.abs &&
                spec::form_info(g).nan)
              with = g;
          auto a = e.eval(instr(f), e.w0);
          auto b = e.eval(instr(with), e.w0);
          e.claim_lanes(std::string(fi.name), [&](unsigned i) {
            auto saw = d.lit(false);
            auto part = live(d, e.w0, i);
            for (unsigned j = 0; j < spec::kWarpSize; ++j)
              saw = saw || (d.bit(part, j) && spec::f32_is_nan(d, d.lo32(e.w0.a[j])));
            return implies(d, !saw, a.d[i] == b.d[i]);
          });
        }
      });

  add("redux.f32_all_nan_gives_canonical_nan",
      "When every taking-part value is NaN, every .f32 redux returns the canonical NaN.", kUsesWarp,
      [](auto& e) {
        const auto& d = e.d;
        for (auto f : f32_forms()) {
          auto o = e.eval(instr(f), e.w0);
          e.claim_lanes(std::string(spec::form_info(f).name), [&](unsigned i) {
            auto all_nan = d.lit(true);
            auto part = live(d, e.w0, i);
            for (unsigned j = 0; j < spec::kWarpSize; ++j)
              all_nan = all_nan && (!d.bit(part, j) || spec::f32_is_nan(d, d.lo32(e.w0.a[j])));
            return implies(d, all_nan, o.d[i] == canonical_nan(d));
          });
        }
      });

  add("redux.f32_signed_zeros_order",
      "When every operand is a zero, .f32 max returns +0.0 if some taking-part lane holds +0.0 "
      "and min returns -0.0 if some taking-part lane holds -0.0.",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        for (unsigned j = 0; j < spec::kWarpSize; ++j)
          e.assume(spec::is_zero(d, spec::f32_abs(d, d.lo32(e.w0.a[j]))));
        auto mx = e.eval(instr(FormId::ReduxMaxF32), e.w0);
        auto mn = e.eval(instr(FormId::ReduxMinF32), e.w0);
        e.claim_lanes("zeros", [&](unsigned i) {
          auto pos = d.lit(false), neg = d.lit(false);
          auto part = live(d, e.w0, i);
          for (unsigned j = 0; j < spec::kWarpSize; ++j) {
            auto in = d.bit(part, j);
            pos = pos || (in && !d.bit(d.lo32(e.w0.a[j]), 31));
            neg = neg || (in && d.bit(d.lo32(e.w0.a[j]), 31));
          }
          return implies(d, pos, mx.d[i] == d.w32(0)) &&
                 implies(d, neg, mn.d[i] == d.w32(0x80000000u));
        });
      });
}

}  // namespace warpspec::checker::laws
