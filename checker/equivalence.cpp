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
/// register). A block barrier's number is an immediate unless `registers`; then it is a register
/// in every variant (the sixteen barriers a thread may name), so those variants make a property
/// of their own, proved thread by thread.
std::vector<spec::Instr> variants(spec::FormId f, bool registers = false) {
  const auto& info = spec::form_info(f);
  if (!spec::is_warp_form(f)) {
    std::vector<spec::Instr> r;
    for (bool neg : info.negatable ? std::vector{false, true} : std::vector{false})
      for (int shape = 0; shape < 3; ++shape) {
        if (shape == 0 && f == spec::FormId::BarArrive) continue;  // it requires a count
        auto in = instr(f, neg);
        if (registers)
          in.imm_bar.reset();
        else
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

/// One claim per thread and clause, so that a query stays within one thread's view of the block.
template <class E>
void claim_cta_equivalence(E& e, spec::FormId form, bool registers) {
  const auto& d = e.d;
  for (const auto& in : variants(form, registers)) {
    auto ref = e.reference_cta(in, e.cta);
    auto got = e.eval_cta(in, e.cta);
    const auto vn = variant_name(in, false);
    e.claim(vn + ": clause lists", d.lit(got.ub.size() == ref.ub.size()));
    for (std::size_t c = 0; c < ref.ub.size() && c < got.ub.size(); ++c) {
      const std::string key(spec::clause_info(ref.ub[c].clause).key);
      e.claim(vn + ": UB " + key + " listed", d.lit(got.ub[c].clause == ref.ub[c].clause));
      e.claim_threads(vn + ": UB " + key, ref.ub[c].threads.size(),
                      [&](std::size_t t) { return got.ub[c].threads[t] == ref.ub[c].threads[t]; });
    }
    e.claim_threads(vn + ": executes", ref.executes.size(),
                    [&](std::size_t t) { return got.executes[t] == ref.executes[t]; });
    // Every thread's value, defined or not: the fast text gives the model's value even where UB
    // leaves it open. That is more than equivalence asks, and far cheaper to decide than a claim
    // that carries the whole block's UB as its hypothesis.
    e.claim_threads(vn + ": value", ref.executes.size(),
                    [&](std::size_t t) { return got.d[t] == ref.d[t]; });
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
      const std::string block_doc = "The " + candidate->name + " implementation of " +
                                    std::string(info.name) +
                                    " with %s has the model's UB threads "
                                    "per clause, executing threads and every thread's value, "
                                    "over every block state.";
      auto with = [&](const char* operands) {
        auto s = block_doc;
        return s.replace(s.find("%s"), 2, operands);
      };
      lib.push_back(make_property(
          name, with("immediate barrier numbers (a count absent, immediate or in a register)"),
          kUsesCta, [form](auto& e) { claim_cta_equivalence(e, form, false); }, candidate));
      // With register operands a thread may name any of the sixteen barriers; one query over the
      // whole block does not finish in minutes, one per thread does.
      lib.push_back(make_property(
          name + ".register_operands",
          with("its barrier number in a register (a count absent, immediate or in a register)"),
          kUsesCta, [form](auto& e) { claim_cta_equivalence(e, form, true); }, candidate));
      lib.back().claims_incremental = true;
    }
  }
  return lib;
}

}  // namespace warpspec::checker
