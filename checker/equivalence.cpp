// Equivalence of an implementation with the model, one property per catalog form, compared in
// Alive2's order: UB first (clause by clause), then who executes, then the lanes whose d alone is
// undefined (clause by clause), then values where defined.
#include "checker/laws.hpp"
#include "checker/library.hpp"

namespace warpspec::checker {

namespace {

using laws::implies;
using laws::instr;
using laws::ub_of;

/// The lanes whose d the clause (kind UndefinedValue) leaves undefined in `o`; 0 when `o` does not
/// list it.
template <class D>
typename D::W32 loose_d_of(const D& d, const spec::Outcome<D>& o, spec::ClauseId c) {
  for (const auto& t : o.loose_d)
    if (t.clause == c) return t.lanes;
  return d.w32(0);
}

/// The instruction variants a form admits that change its meaning: `!a`, for match.all whether
/// `p` is written, and for the block barriers how b is written (absent, an immediate, a
/// register). The block barriers' barrier number is an immediate here: with a register, the
/// sixteen barriers a symbolic block can spread over make the query too large to decide in
/// reasonable time, so that path is held to the model by the random agreement tests instead
/// (tests/fast/agreement_test.cpp, states from test::gen::cta_case).
std::vector<spec::Instr> variants(spec::FormId f) {
  const auto& info = spec::form_info(f);
  if (!spec::is_warp_form(f)) {
    std::vector<spec::Instr> r;
    for (bool neg : info.negatable ? std::vector{false, true} : std::vector{false})
      for (int shape = 0; shape < 3; ++shape) {
        if (shape == 0 && f == spec::FormId::BarArrive) continue;  // it requires a count
        auto in = instr(f, neg);
        in.imm_bar = shape == 0 ? 0u : 3u;
        in.has_count = shape >= 1;
        if (shape == 1) in.imm_count = 64;
        r.push_back(in);
      }
    return r;
  }
  std::vector<spec::Instr> r{instr(f)};
  if (info.negatable) r.push_back(instr(f, true));
  if (info.optional_p) {
    auto in = instr(f);
    in.write_p = true;
    r.push_back(in);
  }
  return r;
}

std::string variant_name(const spec::Instr& in, bool pre_volta) {
  std::string s(spec::form_info(in.form).name);
  if (in.negate) s += " !a";
  if (in.write_p) s += " d|p";
  if (!spec::is_warp_form(in.form)) {
    s += in.imm_bar ? " " + std::to_string(*in.imm_bar) : " %bar";
    if (in.has_count) s += in.imm_count ? ", " + std::to_string(*in.imm_count) : ", %count";
  }
  if (pre_volta) s += " sm_6x";
  return s;
}

template <class E>
void claim_warp_equivalence(E& e, spec::FormId form) {
  const auto& d = e.d;
  for (const auto& in : variants(form))
    for (bool pv : {false, true}) {
      auto ref = e.reference(in, e.w0, pv);
      auto got = e.eval(in, e.w0, pv);
      const auto name = variant_name(in, pv);
      for (const auto& t : ref.ub)
        e.claim(name + ": UB " + std::string(spec::clause_info(t.clause).key),
                ub_of(d, got, t.clause) == t.lanes);
      for (const auto& t : got.ub) {  // a clause the model does not list must never fire
        bool listed = false;
        for (const auto& r : ref.ub) listed = listed || r.clause == t.clause;
        if (!listed)
          e.claim(
              name + ": UB " + std::string(spec::clause_info(t.clause).key) + " (not in the model)",
              spec::is_zero(d, t.lanes));
      }
      e.claim_lanes(name + ": executes",
                    [&](unsigned i) { return got.executes[i] == ref.executes[i]; });
      for (const auto& t : ref.loose_d)
        e.claim(name + ": undefined d " + std::string(spec::clause_info(t.clause).key),
                loose_d_of(d, got, t.clause) == t.lanes);
      for (const auto& t : got.loose_d) {
        bool listed = false;
        for (const auto& r : ref.loose_d) listed = listed || r.clause == t.clause;
        if (!listed)
          e.claim(name + ": undefined d " + std::string(spec::clause_info(t.clause).key) +
                      " (not in the model)",
                  spec::is_zero(d, t.lanes));
      }
      const bool has_p = spec::form_info(form).optional_p;
      // p is pinned down on every defined lane; d only where no clause leaves it open.
      e.claim_lanes(name + ": value", [&](unsigned i) {
        auto same = implies(d, ref.d_defined(d, i), got.d[i] == ref.d[i]);
        if (has_p) same = same && got.p[i] == ref.p[i];
        return implies(d, ref.defined(d, i), same);
      });
    }
}

}  // namespace

std::vector<Property> equivalence_library(std::shared_ptr<const Implementation> candidate) {
  std::vector<Property> lib;
  // The three UB clauses every warp form shares depend on masks and statuses alone, so both
  // implementations compute each as one term for all forms: prove each equality once, as a lemma
  // the per-form properties assume (their UB claims are then the lemma's own atoms).
  struct Shared {
    const char* key;
    spec::ClauseId clause;  // as the representative form names it
  };
  static constexpr Shared kShared[] = {
      {"self_not_in_mask", spec::ClauseId::ReduxUbSelfNotInMask},
      {"peer_absent", spec::ClauseId::ReduxUbPeerAbsent},
      {"mask_mismatch", spec::ClauseId::ReduxUbMaskMismatch},
  };
  std::vector<Lemma> lemmas;
  for (const auto& sh : kShared) {
    const auto clause = sh.clause;
    lib.push_back(make_property(
        candidate->name + "_eq_model.ub." + sh.key,
        "The " + candidate->name + " implementation fires the '" + sh.key +
            "' UB clause (shared by every warp form) on exactly the model's lanes.",
        kUsesWarp,
        [clause](auto& e) {
          const auto& d = e.d;
          const auto in = instr(spec::FormId::ReduxAddU32);
          auto got = e.eval(in, e.w0);
          auto ref = e.reference(in, e.w0);
          e.claim("UB", ub_of(d, got, clause) == ub_of(d, ref, clause));
        },
        candidate));
    lemmas.push_back(as_lemma(lib.back()));
  }
  for (const auto& info : spec::kForms) {
    const auto form = info.id;
    const std::string name = candidate->name + "_eq_model." + std::string(info.name);
    const std::string doc = "The " + candidate->name + " implementation of " +
                            std::string(info.name) +
                            " has the model's UB lanes per clause, executing lanes and values on "
                            "defined lanes, over every state.";
    if (spec::is_warp_form(form)) {
      lib.push_back(make_property(
          name, doc, kUsesWarp, [form](auto& e) { claim_warp_equivalence(e, form); }, candidate));
      lib.back().lemmas = lemmas;
    } else {
      lib.push_back(make_property(
          name, doc, kUsesCta,
          [form](auto& e) {
            const auto& d = e.d;
            for (const auto& in : variants(form)) {
              auto ref = e.reference_cta(in, e.cta);
              auto got = e.eval_cta(in, e.cta);
              const auto vn = variant_name(in, false);
              e.claim(vn + ": clause lists", d.lit(got.ub.size() == ref.ub.size()));
              for (std::size_t c = 0; c < ref.ub.size() && c < got.ub.size(); ++c) {
                auto ub = d.lit(got.ub[c].clause == ref.ub[c].clause);
                for (std::size_t t = 0; t < ref.ub[c].threads.size(); ++t)
                  ub = ub && got.ub[c].threads[t] == ref.ub[c].threads[t];
                e.claim(vn + ": UB " + std::string(spec::clause_info(ref.ub[c].clause).key), ub);
              }
              auto ex = d.lit(true), val = d.lit(true);
              for (std::size_t t = 0; t < ref.executes.size(); ++t) {
                ex = ex && got.executes[t] == ref.executes[t];
                val = val && implies(d, ref.defined(t), got.d[t] == ref.d[t]);
              }
              e.claim(vn + ": executes", ex);
              e.claim(vn + ": value", val);
            }
          },
          candidate));
    }
  }
  return lib;
}

}  // namespace warpspec::checker
