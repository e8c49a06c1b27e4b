// Laws of match.sync: .all against .any and the live mask, bit-pattern comparison, the classes
// .any forms, and the two operand widths.
#include "checker/laws.hpp"

namespace warpspec::checker::laws {

namespace {

/// Lane i's and lane j's operands are equal at the width of `form`.
template <class D>
typename D::B same_value(const D& d, FormId form, const spec::WarpState<D>& s, unsigned i,
                         unsigned j) {
  if (spec::form_info(form).a_type == spec::OperandType::B64) return s.a[i] == s.a[j];
  return d.lo32(s.a[i]) == d.lo32(s.a[j]);
}

/// Every live lane of lane i holds lane i's value.
template <class D>
typename D::B live_uniform(const D& d, FormId form, const spec::WarpState<D>& s, unsigned i) {
  auto part = live(d, s, i);
  auto ok = d.lit(true);
  for (unsigned j = 0; j < spec::kWarpSize; ++j)
    if (j != i) ok = ok && implies(d, d.bit(part, j), same_value(d, form, s, i, j));
  return ok;
}

/// `term` with lane `j`'s membermask and operand (at the width of `form`) rewritten to lane
/// `i`'s (`Env::rewrite`): the same value wherever the two lanes pass one mask and hold one
/// value, and one term with lane i's own result when it is a function of these alone.
template <class E, class T>
T as_seen_by(const E& e, FormId form, const T& term, unsigned j, unsigned i) {
  const auto& s = e.w0;
  const auto t = e.rewrite(term, s.mask[j], s.mask[i]);
  if (spec::form_info(form).a_type == spec::OperandType::B64) return e.rewrite(t, s.a[j], s.a[i]);
  return e.rewrite(t, e.d.lo32(s.a[j]), e.d.lo32(s.a[i]));
}

constexpr FormId kAny[] = {FormId::MatchAnyB32, FormId::MatchAnyB64};
constexpr FormId kAll[] = {FormId::MatchAllB32, FormId::MatchAllB64};

}  // namespace

void add_match_laws(std::vector<Property>& out, const Subject& subject) {
  auto add = [&](const char* name, const char* doc, unsigned uses, auto body) {
    out.push_back(make_property(name, doc, uses, body, subject));
  };

  add("match.all_nonzero_iff_live_lanes_agree",
      "On a lane in its own mask, match.all is non-zero exactly when every live lane holds the "
      "lane's "
      "value, and then it and match.any both equal the live mask.",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        for (int w = 0; w < 2; ++w) {
          auto all = e.eval(instr(kAll[w]), e.w0);
          auto any = e.eval(instr(kAny[w]), e.w0);
          e.claim_lanes(std::string(spec::form_info(kAll[w]).name), [&](unsigned i) {
            auto nz = truthy(d, all.d[i]);
            auto lv = live(d, e.w0, i);
            return implies(d, takes_part(d, e.w0, i),
                           nz == live_uniform(d, kAll[w], e.w0, i) &&
                               implies(d, nz, all.d[i] == lv && any.d[i] == lv));
          });
        }
      });

  add("match.all_predicate_is_nonzero_result",
      "On a lane in its own mask, match.all's predicate p holds exactly when its d is non-zero.",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        for (auto f : kAll) {
          auto all = e.eval(instr(f), e.w0);
          e.claim_lanes(std::string(spec::form_info(f).name), [&](unsigned i) {
            return implies(d, takes_part(d, e.w0, i), all.p[i] == truthy(d, all.d[i]));
          });
        }
      });

  add("match.all_is_any_when_any_is_full",
      "match.all equals the live mask when match.any does, and 0 otherwise, on lanes in their own "
      "mask.",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        for (int w = 0; w < 2; ++w) {
          auto all = e.eval(instr(kAll[w]), e.w0);
          auto any = e.eval(instr(kAny[w]), e.w0);
          e.claim_lanes(std::string(spec::form_info(kAll[w]).name), [&](unsigned i) {
            auto lv = live(d, e.w0, i);
            return implies(d, takes_part(d, e.w0, i),
                           all.d[i] == d.ite(any.d[i] == lv, lv, d.w32(0)));
          });
        }
      });

  add("match.any_contains_own_lane",
      "On a lane in its own mask, match.any always includes the lane itself.", kUsesWarp,
      [](auto& e) {
        const auto& d = e.d;
        for (auto f : kAny) {
          auto any = e.eval(instr(f), e.w0);
          e.claim_lanes(std::string(spec::form_info(f).name), [&](unsigned i) {
            return implies(d, takes_part(d, e.w0, i), d.bit(any.d[i], i));
          });
        }
      });

  add("match.any_within_live_mask",
      "match.any never names a lane outside the live mask (exited and unnamed lanes).", kUsesWarp,
      [](auto& e) {
        const auto& d = e.d;
        for (auto f : kAny) {
          auto any = e.eval(instr(f), e.w0);
          e.claim_lanes(std::string(spec::form_info(f).name),
                        [&](unsigned i) { return spec::is_zero(d, any.d[i] & ~live(d, e.w0, i)); });
        }
      });

  add("match.any_compares_bit_patterns",
      "A live lane j is in lane i's match.any exactly when their operands have equal bits at the "
      "operand width (so +0.0 and -0.0 differ and equal NaN payloads match).",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        for (auto f : kAny) {
          auto any = e.eval(instr(f), e.w0);
          e.claim_lanes(std::string(spec::form_info(f).name), [&](unsigned i) {
            auto ok = d.lit(true);
            auto lv = live(d, e.w0, i);
            for (unsigned j = 0; j < spec::kWarpSize; ++j)
              ok = ok &&
                   implies(d, d.bit(lv, j), d.bit(any.d[i], j) == same_value(d, f, e.w0, i, j));
            return ok;
          });
        }
      });

  add("match.any_classes_partition_live_lanes",
      "On lanes of one mask that take part, two lanes holding one value get the same match.any "
      "set and a lane holding another value is not in it, so the sets are the classes of equal "
      "values (equal or disjoint, by transitivity of equality); on a defined lane, each live lane "
      "is in its own set, so with match.any_within_live_mask the sets cover the live mask.",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        for (auto f : kAny) {
          auto any = e.eval(instr(f), e.w0);
          e.claim_lanes(std::string(spec::form_info(f).name), [&](unsigned i) {
            auto ok = d.lit(true);
            for (unsigned j = 0; j < spec::kWarpSize; ++j) {
              if (j == i) continue;
              auto together =
                  takes_part(d, e.w0, i) && takes_part(d, e.w0, j) && e.w0.mask[i] == e.w0.mask[j];
              ok = ok && implies(d, together,
                                 d.ite(same_value(d, f, e.w0, i, j),
                                       any.d[i] == as_seen_by(e, f, any.d[j], j, i),
                                       !d.bit(any.d[i], j)));
              // When lane i is defined, every live lane executes with lane i's mask.
              ok = ok && implies(d, any.defined(d, i) && d.bit(live(d, e.w0, i), j),
                                 d.bit(any.d[j], j));
            }
            return ok && implies(d, any.defined(d, i), d.bit(any.d[i], i));
          });
        }
      });

  add("match.uniform_across_a_mask",
      "match.all gives the same result on all lanes in their own mask that pass one membermask: "
      "lanes holding one value get one result, and a lane whose value another one does not hold "
      "gets 0.",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        for (auto f : kAll) {
          auto in = instr(f);
          in.write_p = true;
          auto all = e.eval(in, e.w0);
          e.claim_lanes(std::string(spec::form_info(f).name), [&](unsigned i) {
            auto ok = d.lit(true);
            for (unsigned j = 0; j < spec::kWarpSize; ++j) {
              if (j == i) continue;
              auto same_result = all.d[i] == as_seen_by(e, f, all.d[j], j, i) &&
                                 all.p[i] == as_seen_by(e, f, all.p[j], j, i);
              auto zero = spec::is_zero(d, all.d[i]) && !all.p[i];
              ok = ok && implies(d,
                                 takes_part(d, e.w0, i) && takes_part(d, e.w0, j) &&
                                     e.w0.mask[i] == e.w0.mask[j],
                                 d.ite(same_value(d, f, e.w0, i, j), same_result, zero));
            }
            return ok;
          });
        }
      });

  add("match.b64_refines_b32",
      "match.any.b64 is a subset of match.any.b32, and match.all.b64 non-zero implies "
      "match.all.b32 non-zero.",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        auto any32 = e.eval(instr(FormId::MatchAnyB32), e.w0);
        auto any64 = e.eval(instr(FormId::MatchAnyB64), e.w0);
        auto all32 = e.eval(instr(FormId::MatchAllB32), e.w0);
        auto all64 = e.eval(instr(FormId::MatchAllB64), e.w0);
        e.claim_lanes("b64/b32", [&](unsigned i) {
          return spec::is_zero(d, any64.d[i] & ~any32.d[i]) &&
                 implies(d, truthy(d, all64.d[i]), truthy(d, all32.d[i]));
        });
      });

  add("match.b32_ignores_high_operand_bits",
      "Changing the high 32 bits of any operand changes no .b32 match result.",
      kUsesWarp | kUsesTwoWarps, [](auto& e) {
        const auto& d = e.d;
        auto t = with_values(e.w0, [&](unsigned j) {
          return (e.w0.a[j] & d.w64(0xffffffffu)) | (e.w1.a[j] & d.w64(0xffffffff00000000u));
        });
        for (auto f : {FormId::MatchAnyB32, FormId::MatchAllB32}) {
          auto a = e.eval(instr(f), e.w0);
          auto b = e.eval(instr(f), t);
          e.claim_lanes(std::string(spec::form_info(f).name),
                        [&](unsigned i) { return a.d[i] == b.d[i] && a.p[i] == b.p[i]; });
        }
      });
}

}  // namespace warpspec::checker::laws
