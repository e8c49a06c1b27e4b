#include "checker/witness.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>

#include "checker/implementation.hpp"
#include "checker/solver.hpp"
#include "checker/symbolic_state.hpp"
#include "vectors/mutant_semantics.hpp"

namespace warpspec::checker {

namespace {

using spec::kWarpSize;
using vectors::CoverTarget;
using M = vectors::MutantId;

std::string target_name(const CoverTarget& t) {
  if (t.first == 0) return std::string(vectors::mutant_info(static_cast<M>(t.second)).key);
  return std::string(spec::clause_info(static_cast<spec::ClauseId>(t.second)).key);
}

/// A warp whose lanes in `lanes` are free and whose other lanes are inactive, with mask, operand
/// and call site 0 (a free lane's mask may still name them): the witnesses stay small and the
/// queries fast.
SymWarp partial_warp(const Z3Domain& d, uint32_t lanes, spec::FormId form) {
  auto w = make_sym_warp(d, "w");
  // A form without b and c reads none: they stay out of its queries altogether.
  if (!spec::has_operands_bc(form))
    for (unsigned i = 0; i < kWarpSize; ++i) w.b[i] = w.c[i] = d.w32(0);
  for (unsigned i = 0; i < kWarpSize; ++i) {
    if ((lanes >> i) & 1u) continue;
    w.exec[i] = d.lit(false);
    w.exited[i] = d.lit(false);
    w.mask[i] = d.w32(0);
    w.a[i] = d.w64(0);
    w.site[i] = d.w32(0);
    w.b[i] = d.w32(0);
    w.c[i] = d.w32(0);
  }
  return w;
}

/// Operand values as the vector files write them: 32-bit forms hold 32 bits, predicates 0 or
/// 1, forms without an operand 0; membermasks 0 where the form has none; call sites 0 where they
/// do not matter (they matter before Volta, and to activemask everywhere: there 0 or 1).
z3::expr plausible(const Z3Domain& d, const SymWarp& w, const spec::ParsedInstr& in,
                   bool pre_volta) {
  const auto syn = spec::value_syntax(in);
  const bool sites = pre_volta || spec::form_info(in.instr.form).family == spec::Family::Activemask;
  const bool masks = spec::has_membermask(in.instr.form);
  auto ok = well_formed(d, w);
  for (unsigned i = 0; i < kWarpSize; ++i) {
    if (syn.none)
      ok = ok && w.a[i] == d.w64(0);
    else if (syn.is_pred)
      ok = ok && z3::ule(w.a[i], d.w64(1));
    else if (syn.bits != 64)
      ok = ok && z3::ule(w.a[i], d.w64(0xffffffffull));
    if (!sites)
      ok = ok && w.site[i] == d.w32(0);
    else if (!pre_volta)
      ok = ok && z3::ule(w.site[i], d.w32(1));
    if (!masks) ok = ok && w.mask[i] == d.w32(0);
  }
  return ok;
}

z3::expr any_of(const Z3Domain& d, const std::vector<z3::expr>& xs) {
  auto r = d.lit(false);
  for (const auto& x : xs) r = r || x;
  return r;
}

/// The mutant departs from the specification on a round the specification defines.
z3::expr warp_kill(const Z3Domain& d, const spec::Instr& in, const spec::Outcome<Z3Domain>& ref,
                   const vectors::WarpAnswer<Z3Domain>& o) {
  const bool check_d = spec::writes_d(in);
  // A UB report or a hang shows only on a round where some lane executes (vectors::compare passes
  // the others over).
  std::vector<z3::expr> differs{
      o.ub && any_of(d, std::vector<z3::expr>(ref.executes.begin(), ref.executes.end()))};
  for (unsigned i = 0; i < kWarpSize; ++i) {
    auto diff = d.lit(false);
    // d departs only where the specification pins it (a shuffle may leave it open); a form
    // without such a clause keeps the plain comparison, and its queries stay as they were.
    if (check_d) {
      // Both words of a 64-bit shuffle overload's d.
      auto d_differs = o.d[i] != ref.d[i];
      if (!ref.d_hi.empty()) d_differs = d_differs || o.d_hi[i] != ref.d_hi[i];
      diff =
          diff || (ref.loose_d.empty() ? d_differs : !d.bit(ref.loose_d_lanes(d), i) && d_differs);
    }
    if (in.write_p) diff = diff || o.p[i] != ref.p[i];
    differs.push_back(ref.executes[i] && diff);
  }
  return spec::is_zero(d, ref.ub_lanes(d)) && any_of(d, differs);
}

z3::expr arriving_any(const Z3Domain& d, const spec::CtaOutcome<Z3Domain>& o) {
  return any_of(d, o.executes);
}

/// A condition on one or two block rounds that a target shows.
struct Goal {
  CoverTarget target;
  z3::expr holds;
  bool ub = false;      ///< the goal needs UB (never asked together with one that excludes it)
  unsigned rounds = 1;  ///< rounds of the state it speaks of
};

std::vector<Goal> cta_goals(const Z3Domain& d, const spec::ParsedInstr& pin,
                            const std::vector<SymCta>& c, const std::set<CoverTarget>& want) {
  const auto& in = pin.instr;
  std::vector<Goal> goals;
  const auto r1 = spec::eval_cta(d, in, c[0]);
  const auto r2 = spec::eval_cta(d, in, c[1]);
  const bool has_d = spec::writes_d(in);
  auto kill = [&](const spec::CtaOutcome<Z3Domain>& ref, const vectors::CtaAnswer<Z3Domain>& o) {
    auto diff = o.ub;
    if (has_d)
      for (std::size_t t = 0; t < ref.d.size(); ++t)
        diff = diff || (ref.executes[t] && o.d[t] != ref.d[t]);
    // A round on which no thread executes promises nothing (vectors::compare passes it over).
    return !ref.any_ub && arriving_any(d, ref) && diff;
  };
  for (const auto& t : want) {
    if (t.first == 1) {
      // A UB clause: some thread on which it fires.
      for (const auto& u : r1.ub)
        if (u.clause == static_cast<spec::ClauseId>(t.second))
          goals.push_back({t, any_of(d, u.threads), true, 1});
      continue;
    }
    const auto m = static_cast<M>(t.second);
    if (!vectors::applies(m, pin)) continue;
    // A mutant that carries state from one barrier to the next starts from a harmless value:
    // it shows on the second of two barriers.
    auto carry = vectors::initial_carry(d, m, in.form);
    const auto first = vectors::cta_mutant(d, m, in, c[0], r1, carry);
    if (vectors::mutant_info(m).carries_state)
      goals.push_back({t, kill(r2, vectors::cta_mutant(d, m, in, c[1], r2, carry)), false, 2});
    else
      goals.push_back({t, kill(r1, first), false, 1});
  }
  return goals;
}

std::vector<Goal> warp_goals(const Z3Domain& d, const spec::ParsedInstr& pin, const SymWarp& w,
                             bool pv, const std::set<CoverTarget>& want) {
  const auto& in = pin.instr;
  const auto ref = spec::evaluate_warp(d, in, w, pv);
  const auto ub_free = spec::is_zero(d, ref.ub_lanes(d));
  std::vector<Goal> goals;
  for (const auto& t : want) {
    if (t.first == 1) {
      const auto c = static_cast<spec::ClauseId>(t.second);
      if (spec::clause_info(c).kind == spec::ClauseKind::Undefined) {
        for (const auto& u : ref.ub)
          if (u.clause == c) goals.push_back({t, !spec::is_zero(d, u.lanes), true, 1});
      } else if (spec::clause_info(c).kind == spec::ClauseKind::UndefinedValue) {
        // Exercised by a defined round on which the clause leaves some lane's d open.
        for (const auto& u : ref.loose_d)
          if (u.clause == c) goals.push_back({t, ub_free && !spec::is_zero(d, u.lanes), false, 1});
      } else if (c == spec::ClauseId::VoteNegate && in.negate &&
                 spec::form_info(in.form).mode == spec::Mode::Uni) {
        // A clause with no mutant to kill here: exercised by any defined negated call.
        goals.push_back(
            {t,
             ub_free && any_of(d, std::vector<z3::expr>(ref.executes.begin(), ref.executes.end())),
             false, 1});
      }
      continue;
    }
    const auto m = static_cast<M>(t.second);
    if (!vectors::applies(m, pin)) continue;
    // One round: a mutant's carried state starts empty, which already shows a stale ballot.
    auto carry = vectors::initial_carry(d, m, in.form);
    goals.push_back(
        {t, warp_kill(d, in, ref, vectors::warp_mutant(d, m, in, w, ref, pv, carry)), false, 1});
    // Failing that, the same state twice: a mutant whose carried state changes its second answer
    // (an election that rotates its leader) shows there.
    if (vectors::mutant_info(m).carries_state)
      goals.push_back(
          {t, warp_kill(d, in, ref, vectors::warp_mutant(d, m, in, w, ref, pv, carry)), false, 2});
  }
  return goals;
}

}  // namespace

std::vector<vectors::Vector> z3_witnesses(spec::FormId form, spec::Target target,
                                          spec::PtxVersion ptx, const WitnessOptions& opt,
                                          WitnessStats* stats) {
  WitnessStats local;
  WitnessStats& st = stats ? *stats : local;
  const bool pv = spec::is_pre_volta(target);
  const bool cta = !spec::is_warp_form(form);
  auto remaining = vectors::targets_of(form, target);
  std::set<CoverTarget> asked_about;
  std::map<CoverTarget, std::string> why;  // the last failed query of each target
  std::vector<vectors::Vector> out;
  auto search = [&](const spec::ParsedInstr& pin, unsigned threads) {
    z3::context ctx;
    Z3Domain d(ctx);
    std::vector<SymCta> ctas;
    std::optional<SymWarp> warp;
    z3::expr base = d.lit(true);
    std::vector<Goal> goals;
    std::vector<z3::expr> narrow;  // register operands kept small (block barriers)
    if (cta) {
      for (const char* name : {"r1", "r2"}) {
        ctas.push_back(make_sym_cta(d, name, threads));
        base = base && well_formed(d, ctas.back());
      }
      auto wanted = remaining;
      if (threads != opt.threads)  // the larger block is asked for the mutants alone
        std::erase_if(wanted, [](const CoverTarget& t) { return t.first != 0; });
      goals = cta_goals(d, pin, ctas, wanted);
      if (!pin.instr.imm_bar || (pin.instr.has_count && !pin.instr.imm_count))
        for (const auto& c : ctas)
          for (std::size_t t = 0; t < c.arrive.size(); ++t)
            narrow.push_back(d.ult(c.bar[t], d.w32(2)) &&
                             (c.count[t] == d.w32(32) || c.count[t] == d.w32(64)));
    } else {
      warp = partial_warp(d, opt.lanes, pin.instr.form);
      base = plausible(d, *warp, pin, pv);
      goals = warp_goals(d, pin, *warp, pv, remaining);
    }
    for (const auto& g : goals) asked_about.insert(g.target);
    for (std::size_t gi = 0; gi < goals.size(); ++gi) {
      const auto& g = goals[gi];
      if (!remaining.count(g.target)) continue;
      Solver s(ctx, Limits{opt.timeout_ms, opt.rlimit});
      s.add(base);
      s.add(g.holds);
      ++st.queries;
      // A mutant on a barrier number or count in registers is asked first among two barriers
      // and the counts of one and two warps, where it shows if anywhere a reader can follow;
      // the whole space is asked only when that narrow one has no witness.
      auto r = [&] {
        if (narrow.empty() || g.ub) return s.check();
        s.push();
        for (const auto& n : narrow) s.add(n);
        auto first = s.check();
        if (first.sat()) return first;
        s.pop();
        ++st.queries;
        return s.check();
      }();
      if (!r.sat()) {
        why[g.target] = target_name(g.target) + " (" + pin.text +
                        "): " + (r.unsat() ? std::string("unsat") : "unknown, " + r.reason);
        continue;
      }
      // Coverage-directed: add every other open goal this state can show as well.
      z3::model model = *r.model;
      std::set<CoverTarget> asked{g.target};
      unsigned rounds = g.rounds;
      s.set_limits(Limits{opt.timeout_ms, opt.add_rlimit});
      for (std::size_t gj = gi + 1; gj < goals.size(); ++gj) {
        const auto& h = goals[gj];
        if (!remaining.count(h.target) || h.ub != g.ub) continue;
        s.push();
        s.add(h.holds);
        ++st.queries;
        if (auto more = s.check(); more.sat()) {
          model = *more.model;
          asked.insert(h.target);
          rounds = std::max(rounds, h.rounds);
        } else {
          s.pop();
        }
      }
      vectors::Vector v;
      v.instr = pin;
      v.source = "witness";
      for (unsigned k = 0; k < rounds; ++k) {
        vectors::Round round;
        if (cta)
          round.cta = concretize(model, ctas[k]);
        else
          round.warp = concretize(model, *warp);
        v.rounds.push_back(std::move(round));
      }
      // Replay: the concrete model and mutants must agree that the state shows what Z3 says.
      const auto shown = vectors::covers_of(v, target, ptx);
      for (const auto& t : asked)
        if (!shown.count(t))
          throw std::logic_error("the Z3 witness for " + target_name(t) + " on '" + pin.text +
                                 "' does not replay through the concrete model and mutants");
      v = vectors::shrink_keeping(v, shown, target, ptx);
      for (const auto& t : shown) remaining.erase(t);
      out.push_back(std::move(v));
    }
  };
  for (const auto& pin : vectors::instructions_for(form)) search(pin, opt.threads);
  // A mutant that merges barriers shows on bar.sync only where a third warp's barrier is left
  // with a count the merged arrivals do not fill: a larger block is asked for what is left.
  if (cta && opt.wide_threads > opt.threads)
    for (const auto& pin : vectors::instructions_for(form)) {
      bool open = false;
      for (const auto& t : remaining)
        open = open || (t.first == 0 && vectors::applies(static_cast<M>(t.second), pin));
      if (open) search(pin, opt.wide_threads);
    }
  st.targets = asked_about.size();
  for (const auto& t : asked_about) st.shown += !remaining.count(t);
  // A query that failed for one instruction may be settled by another's witness.
  for (const auto& [t, text] : why)
    if (remaining.count(t)) st.missed.push_back(text);
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return vectors::vector_size(a) < vectors::vector_size(b);
  });
  return out;
}

vectors::WitnessSource z3_witness_source(const WitnessOptions& opt) {
  return [opt](spec::FormId form, spec::Target t, spec::PtxVersion p) {
    return z3_witnesses(form, t, p, opt);
  };
}

}  // namespace warpspec::checker
