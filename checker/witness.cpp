#include "checker/witness.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>

#include "checker/implementation.hpp"
#include "checker/solver.hpp"
#include "checker/symbolic_state.hpp"

namespace warpspec::checker {

namespace {

using spec::kWarpSize;
using vectors::CoverTarget;
using M = vectors::MutantId;

std::string target_name(const CoverTarget& t) {
  if (t.first == 0) return std::string(vectors::mutant_info(static_cast<M>(t.second)).key);
  return std::string(spec::clause_info(static_cast<spec::ClauseId>(t.second)).key);
}

/// What an implementation reports for one warp round, over Z3 terms.
struct SymObs {
  std::vector<z3::expr> d, p;
  z3::expr ub;
};

/// A warp whose lanes in `lanes` are free and whose other lanes are inactive, with mask, operand
/// and call site 0 (a free lane's mask may still name them): the witnesses stay small and the
/// queries fast.
SymWarp partial_warp(const Z3Domain& d, uint32_t lanes) {
  auto w = make_sym_warp(d, "w");
  for (unsigned i = 0; i < kWarpSize; ++i) {
    if ((lanes >> i) & 1u) continue;
    w.exec[i] = d.lit(false);
    w.exited[i] = d.lit(false);
    w.mask[i] = d.w32(0);
    w.a[i] = d.w64(0);
    w.site[i] = d.w32(0);
  }
  return w;
}

/// Operand values as the vector files write them: 32-bit forms hold 32 bits, predicates 0 or
/// 1, forms without an operand 0; call sites matter only before Volta.
z3::expr plausible(const Z3Domain& d, const SymWarp& w, const spec::ParsedInstr& in,
                   bool pre_volta) {
  const auto syn = spec::value_syntax(in);
  auto ok = well_formed(d, w);
  for (unsigned i = 0; i < kWarpSize; ++i) {
    if (syn.none)
      ok = ok && w.a[i] == d.w64(0);
    else if (syn.is_pred)
      ok = ok && z3::ule(w.a[i], d.w64(1));
    else if (syn.bits != 64)
      ok = ok && z3::ule(w.a[i], d.w64(0xffffffffull));
    if (!pre_volta) ok = ok && w.site[i] == d.w32(0);
  }
  return ok;
}

z3::expr any_of(const Z3Domain& d, const std::vector<z3::expr>& xs) {
  auto r = d.lit(false);
  for (const auto& x : xs) r = r || x;
  return r;
}

z3::expr lo32(const z3::expr& a) {
  return a.extract(31, 0);
}

z3::expr f32_nan(const Z3Domain& d, const z3::expr& x) {
  return z3::ugt(x & d.w32(0x7fffffffu), d.w32(0x7f800000u));
}

// Floating-point equality of two operands (+0.0 == -0.0, NaN equal to nothing), as
// float_match_by_value compares them.
z3::expr float_eq(const Z3Domain& d, const z3::expr& x, const z3::expr& y, bool wide) {
  if (!wide) {
    const auto a = lo32(x), b = lo32(y);
    return !f32_nan(d, a) && !f32_nan(d, b) &&
           (a == b || ((a | b) & d.w32(0x7fffffffu)) == d.w32(0));
  }
  const auto abs = d.w64(0x7fffffffffffffffull);
  auto nan = [&](const z3::expr& v) { return z3::ugt(v & abs, d.w64(0x7ff0000000000000ull)); };
  return !nan(x) && !nan(y) && (x == y || ((x | y) & abs) == d.w64(0));
}

SymObs observed(const spec::Outcome<Z3Domain>& o, const z3::expr& ub) {
  SymObs r{{o.d.begin(), o.d.end()}, {o.p.begin(), o.p.end()}, ub};
  return r;
}

/// The mutant's answer on one warp round, restated from vectors/mutants.cpp; nullopt for the
/// mutants of the block barriers.
std::optional<SymObs> warp_mutant(const Z3Domain& d, M m, const spec::Instr& in, const SymWarp& w,
                                  const spec::Outcome<Z3Domain>& ref, bool pv) {
  const auto& f = spec::form_info(in.form);
  const auto no = d.lit(false);
  auto eval = [&](const spec::Instr& i2, const SymWarp& w2) {
    return spec::evaluate_warp(d, i2, w2, pv);
  };
  auto exited = d.w32(0), executing = d.w32(0);
  for (unsigned i = 0; i < kWarpSize; ++i) {
    exited = exited | spec::bit_if(d, w.exited[i], i);
    executing = executing | spec::bit_if(d, w.exec[i] && !w.exited[i], i);
  }
  auto mask = [&](unsigned i) { return in.imm_mask ? d.w32(*in.imm_mask) : w.mask[i]; };
  auto part = [&](unsigned i) { return mask(i) & ~exited; };
  SymObs o = observed(ref, no);
  if (auto c = vectors::changed_instr(m, in)) {
    const auto got = eval(*c, w);
    if (m == M::MatchAllAsAny)
      o.d.assign(got.d.begin(), got.d.end());
    else
      o = observed(got, no);
    return o;
  }
  switch (m) {
    case M::MembermaskIgnored: {
      auto w2 = w;
      auto i2 = in;
      i2.imm_mask.reset();
      for (auto& mk : w2.mask) mk = executing;
      return observed(eval(i2, w2), no);
    }
    case M::ExitedCounted: {
      auto w2 = w;
      for (unsigned i = 0; i < kWarpSize; ++i) {
        w2.exec[i] = w.exec[i] || w.exited[i];
        w2.exited[i] = no;
      }
      return observed(eval(in, w2), no);
    }
    case M::Match64LowHalf:
    case M::ReduxBitwiseOnLogical:
    case M::F32ZeroOrderIgnored: {
      auto w2 = w;
      for (auto& a : w2.a) {
        const auto x = lo32(a);
        if (m == M::Match64LowHalf)
          a = a & d.w64(0xffffffffull);
        else if (m == M::ReduxBitwiseOnLogical)
          a = d.ite(x == d.w32(0), d.w64(0), d.w64(1));
        else
          a = d.ite(x == d.w32(0x80000000u), d.w64(0), a);
      }
      return observed(eval(in, w2), no);
    }
    case M::StaleBallotBits: {
      // One round: the register holds every executing lane's fresh ballot, and a lane sees the
      // bits of it that lie outside its own participants.
      auto reg = d.w32(0);
      for (unsigned i = 0; i < kWarpSize; ++i)
        reg = reg | d.ite(ref.executes[i], ref.d[i], d.w32(0));
      for (unsigned i = 0; i < kWarpSize; ++i) o.d[i] = ref.d[i] | (reg & ~part(i));
      return o;
    }
    case M::FloatMatchByValue: {
      const bool wide = f.a_type == spec::OperandType::B64;
      for (unsigned i = 0; i < kWarpSize; ++i) {
        auto eq = d.w32(0);
        for (unsigned j = 0; j < kWarpSize; ++j)
          eq = eq | spec::bit_if(d, d.bit(part(i), j) && float_eq(d, w.a[j], w.a[i], wide), j);
        const auto all = eq == part(i);
        o.d[i] = f.mode == spec::Mode::Any ? eq : d.ite(all, part(i), d.w32(0));
        o.p[i] = all;
      }
      return o;
    }
    case M::MatchAnyWithoutSelf:
      for (unsigned i = 0; i < kWarpSize; ++i) o.d[i] = ref.d[i] & ~spec::lane_bit(d, i);
      return o;
    case M::MatchAllPredInverted:
      for (auto& p : o.p) p = !p;
      return o;
    case M::MatchAllGivesMembermask:
      for (unsigned i = 0; i < kWarpSize; ++i)
        o.d[i] = d.ite(ref.executes[i] && ref.p[i], mask(i), ref.d[i]);
      return o;
    case M::VoteUniInverted:
      for (auto& x : o.d) x = d.ite(x == d.w32(0), d.w32(1), d.w32(0));
      return o;
    case M::ReduxIdentityZero: {
      const bool s = f.a_type == spec::OperandType::S32;
      for (auto& x : o.d) {
        const auto below = s ? z3::slt(x, d.w32(0)) : no;
        x = f.mode == spec::Mode::Min ? d.ite(below, x, d.w32(0)) : d.ite(below, d.w32(0), x);
      }
      return o;
    }
    case M::ReduxAddSaturates: {
      const bool s = f.a_type == spec::OperandType::S32;
      auto widen = [&](const z3::expr& a) {
        return s ? z3::sext(lo32(a), 32) : z3::zext(lo32(a), 32);
      };
      const auto lo = s ? d.w64(static_cast<uint64_t>(int64_t{INT32_MIN})) : d.w64(0);
      const auto hi = s ? d.w64(INT32_MAX) : d.w64(0xffffffffull);
      for (unsigned i = 0; i < kWarpSize; ++i) {
        auto sum = d.w64(0);
        for (unsigned j = 0; j < kWarpSize; ++j)
          sum = sum + d.ite(d.bit(part(i), j), widen(w.a[j]), d.w64(0));
        const auto clamped = d.ite(z3::slt(sum, lo), lo, d.ite(z3::sgt(sum, hi), hi, sum));
        o.d[i] = lo32(clamped);
      }
      return o;
    }
    case M::F32NanNotCanonical:
      for (unsigned i = 0; i < kWarpSize; ++i) {
        auto first = ref.d[i];
        for (unsigned j = kWarpSize; j-- > 0;) {
          auto x = lo32(w.a[j]);
          if (f.abs) x = x & d.w32(0x7fffffffu);
          first = d.ite(d.bit(part(i), j) && f32_nan(d, x), x, first);
        }
        o.d[i] =
            d.ite(ref.executes[i] && ref.d[i] == d.w32(spec::kCanonicalNanF32), first, ref.d[i]);
      }
      return o;
    case M::SyncwarpWaitsForExited: {
      std::vector<z3::expr> waits;
      for (unsigned i = 0; i < kWarpSize; ++i)
        waits.push_back(ref.executes[i] && !spec::is_zero(d, mask(i) & exited));
      o.ub = any_of(d, waits);
      return o;
    }
    default:
      return std::nullopt;
  }
}

/// The mutant departs from the specification on a round the specification defines.
z3::expr warp_kill(const Z3Domain& d, const spec::Instr& in, const spec::Outcome<Z3Domain>& ref,
                   const SymObs& o) {
  const auto& f = spec::form_info(in.form);
  const bool check_d = f.d_type != spec::ResultType::None && in.write_d;
  std::vector<z3::expr> differs{o.ub};
  for (unsigned i = 0; i < kWarpSize; ++i) {
    auto diff = d.lit(false);
    if (check_d) diff = diff || o.d[i] != ref.d[i];
    if (in.write_p) diff = diff || o.p[i] != ref.p[i];
    differs.push_back(ref.executes[i] && diff);
  }
  return spec::is_zero(d, ref.ub_lanes(d)) && any_of(d, differs);
}

/// A block mutant's answer: the value every arriving thread gets, and whether it reports UB.
struct CtaObs {
  z3::expr d, ub;
};

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
  const auto& f = spec::form_info(in.form);
  std::vector<Goal> goals;
  const auto r1 = spec::eval_cta(d, in, c[0]);
  const auto r2 = spec::eval_cta(d, in, c[1]);
  const bool has_d = f.d_type != spec::ResultType::None && in.write_d;
  auto kill = [&](const spec::CtaOutcome<Z3Domain>& ref, const CtaObs& o) {
    auto diff = o.ub;
    if (has_d) diff = diff || (arriving_any(d, ref) && o.d != ref.d);
    return !ref.any_ub && diff;
  };
  auto truth = [&](const z3::expr& x) {
    auto v = in.negate ? d.ite(x == d.w32(0), d.w32(1), d.w32(0)) : x;
    return v;
  };
  for (const auto& t : want) {
    if (t.first == 1) {
      // The block barriers have one UB clause: a thread that neither arrives nor has exited.
      if (static_cast<spec::ClauseId>(t.second) == spec::ClauseId::CtaUbNotReached)
        goals.push_back({t, r1.any_ub, true, 1});
      continue;
    }
    const auto m = static_cast<M>(t.second);
    if (!vectors::applies(m, pin)) continue;
    const auto no = d.lit(false);
    switch (m) {
      case M::CtaExitedCounted: {
        auto c2 = c[0];
        for (std::size_t k = 0; k < c2.arrive.size(); ++k) {
          c2.arrive[k] = c[0].arrive[k] || c[0].exited[k];
          c2.exited[k] = no;
        }
        goals.push_back({t, kill(r1, {spec::eval_cta(d, in, c2).d, no}), false, 1});
        break;
      }
      case M::CtaCountSumsValues:
      case M::CtaAndBitwise: {
        auto sum = d.w32(0), all = d.w32(0xffffffffu);
        for (std::size_t k = 0; k < c[0].arrive.size(); ++k) {
          const auto live = c[0].arrive[k] && !c[0].exited[k];
          const auto x = truth(c[0].pred[k]);
          sum = sum + d.ite(live, x, d.w32(0));
          all = all & d.ite(live, x, d.w32(0xffffffffu));
        }
        const auto v =
            m == M::CtaCountSumsValues ? sum : d.ite(all == d.w32(0), d.w32(0), d.w32(1));
        goals.push_back({t, kill(r1, {v, no}), false, 1});
        break;
      }
      case M::CtaWaitsForExited:
        goals.push_back({t, kill(r1, {r1.d, any_of(d, c[0].exited)}), false, 1});
        break;
      case M::CtaNotReset: {
        // Two barriers in a row: the second one's answer carries the first one's over.
        auto now = [&](const spec::CtaOutcome<Z3Domain>& r) {
          return d.ite(arriving_any(d, r), r.d, d.w32(0));
        };
        auto truthy = [&](const z3::expr& x) { return x != d.w32(0); };
        z3::expr acc = d.w32(0);
        if (f.mode == spec::Mode::Popc)
          acc = now(r1) + now(r2);
        else if (f.mode == spec::Mode::And)
          acc = d.ite(truthy(now(r1)) && truthy(now(r2)), d.w32(1), d.w32(0));
        else
          acc = d.ite(truthy(now(r1)) || truthy(now(r2)), d.w32(1), d.w32(0));
        goals.push_back({t, kill(r2, {acc, no}), false, 2});
        break;
      }
      default:
        throw std::logic_error("the mutant '" + target_name(t) +
                               "' applies to a block barrier but has no restatement over Z3");
    }
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
    const auto o = warp_mutant(d, m, in, w, ref, pv);
    if (!o)
      throw std::logic_error("the mutant '" + target_name(t) +
                             "' applies to a warp form but has no restatement over Z3");
    goals.push_back({t, warp_kill(d, in, ref, *o), false, 1});
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
  for (const auto& pin : vectors::instructions_for(form)) {
    z3::context ctx;
    Z3Domain d(ctx);
    std::vector<SymCta> ctas;
    std::optional<SymWarp> warp;
    z3::expr base = d.lit(true);
    std::vector<Goal> goals;
    if (cta) {
      for (const char* name : {"r1", "r2"}) {
        ctas.push_back(make_sym_cta(d, name, opt.threads));
        base = base && well_formed(d, ctas.back());
      }
      goals = cta_goals(d, pin, ctas, remaining);
    } else {
      warp = partial_warp(d, opt.lanes);
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
      auto r = s.check();
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

std::vector<Restated> restated_targets(const std::vector<vectors::Vector>& vs,
                                       spec::Target target) {
  std::vector<Restated> out;
  if (vs.empty()) return out;
  z3::context ctx;
  Z3Domain d(ctx);
  const auto& in = vs.front().instr;
  const auto want = vectors::targets_of(in.instr.form, target);
  auto read = [&](const std::vector<Goal>& goals, const vectors::Vector& v, auto&& value) {
    Restated r;
    for (const auto& g : goals) {
      if (g.rounds != v.rounds.size()) continue;  // a goal speaks of its own number of rounds
      r.asked.insert(g.target);
      const auto x = value(g.holds);
      if (!x.is_true() && !x.is_false())
        throw std::logic_error("a restated target did not fold to a constant: " +
                               target_name(g.target));
      if (x.is_true()) r.shown.insert(g.target);
    }
    return r;
  };
  if (vs.front().is_cta()) {
    // Blocks differ in size: their terms are built on constants and folded.
    for (const auto& v : vs) {
      std::vector<SymCta> c;
      for (std::size_t k = 0; k < 2; ++k) {
        const auto& r = v.rounds[std::min(k, v.rounds.size() - 1)].cta;
        SymCta s;
        for (std::size_t t = 0; t < r.arrive.size(); ++t) {
          s.arrive.push_back(d.lit(r.arrive[t]));
          s.exited.push_back(d.lit(r.exited[t]));
          s.pred.push_back(d.w32(r.pred[t]));
        }
        c.push_back(std::move(s));
      }
      out.push_back(
          read(cta_goals(d, v.instr, c, want), v, [](const z3::expr& e) { return e.simplify(); }));
    }
    return out;
  }
  // Warps: the goals are built once over a symbolic warp and read under each state as a model.
  const auto w = make_sym_warp(d, "w");
  const auto goals = warp_goals(d, in, w, spec::is_pre_volta(target), want);
  for (const auto& v : vs) {
    const auto& r = v.rounds.front().warp;
    z3::model m(ctx);
    for (unsigned i = 0; i < kWarpSize; ++i) {
      auto set = [&](const z3::expr& c, z3::expr val) {
        auto decl = c.decl();
        m.add_const_interp(decl, val);
      };
      set(w.exec[i], d.lit(r.exec[i]));
      set(w.exited[i], d.lit(r.exited[i]));
      set(w.mask[i], d.w32(r.mask[i]));
      set(w.a[i], d.w64(r.a[i]));
      set(w.site[i], d.w32(r.site[i]));
    }
    out.push_back(read(goals, v, [&](const z3::expr& e) { return m.eval(e, true); }));
  }
  return out;
}

vectors::WitnessSource z3_witness_source(const WitnessOptions& opt) {
  return [opt](spec::FormId form, spec::Target t, spec::PtxVersion p) {
    return z3_witnesses(form, t, p, opt);
  };
}

}  // namespace warpspec::checker
