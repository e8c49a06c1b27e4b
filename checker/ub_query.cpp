#include "checker/ub_query.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "checker/implementation.hpp"
#include "checker/lane_table.hpp"
#include "checker/smt2.hpp"
#include "checker/solver.hpp"
#include "checker/symbolic_state.hpp"
#include "model/output.hpp"

namespace warpspec::checker {

namespace {

using spec::kWarpSize;

// One check in a fresh solver with a time limit (the one solver layer's).
Outcome check(z3::context& ctx, const z3::expr& f, unsigned timeout_ms) {
  return solve(ctx, f, Limits{timeout_ms, 0});
}

z3::expr status_is(const Z3Domain& d, const z3::expr& exec, const z3::expr& exited,
                   model::LaneStatus s) {
  switch (s) {
    case model::LaneStatus::Executes:
      return exec && !exited;
    case model::LaneStatus::Exited:
      return exited && !exec;
    case model::LaneStatus::Inactive:
      break;
  }
  (void)d;
  return !exec && !exited;
}

z3::expr count_of(const Z3Domain& d, const std::vector<z3::expr>& flags) {
  auto n = d.w32(0);
  for (const auto& f : flags) n = n + d.ite(f, d.w32(1), d.w32(0));
  return n;
}

spec::Target target_of(bool pre_volta) {
  return pre_volta ? spec::Target{60, 0} : spec::kDefaultTarget;
}

/// Shrinks the witness of `fires` to the fewest executing lanes: binary search on a bound of
/// their count. Returns the best model and whether it is known to be the smallest.
std::pair<z3::model, bool> smallest(z3::context& ctx, const Z3Domain& d, const z3::expr& base,
                                    const z3::expr& count, z3::model best, unsigned timeout_ms,
                                    unsigned lo) {
  unsigned hi = static_cast<unsigned>(best.eval(count, true).get_numeral_uint64());
  unsigned step = 0;
  while (lo < hi) {
    // Witnesses are usually tiny: try the smallest counts first, then bisect.
    const unsigned mid = step++ < 2 ? lo : lo + (hi - lo) / 2;
    auto r = check(ctx, base && z3::ule(count, d.w32(mid)), timeout_ms);
    if (r.sat()) {
      best = *r.model;
      hi = static_cast<unsigned>(best.eval(count, true).get_numeral_uint64());
    } else if (r.unsat()) {
      lo = mid + 1;
    } else {
      return {best, false};
    }
  }
  return {best, true};
}

/// True for the forms with an sm_6x convergence clause (vote, shfl, __syncwarp): their family's
/// UB clauses go beyond the three every warp-synchronous form has.
bool has_sm6x_rule(spec::FormId f) {
  return spec::warp_ub_clauses(f).size() > 3;
}

/// The documented UB-free condition of a warp form, lane by lane (see the condition text):
/// own bit set, no named lane that is neither exited nor executing, no named executing lane with
/// another mask (and on sm_6x the call-site and union rules).
z3::expr warp_condition(const Z3Domain& d, const SymWarp& w, const spec::Instr& in,
                        bool pre_volta) {
  const auto fam = spec::form_info(in.form).family;
  const bool sm6x = pre_volta && has_sm6x_rule(in.form);
  auto mask = [&](unsigned i) { return in.imm_mask ? d.w32(*in.imm_mask) : w.mask[i]; };
  auto executing = [&](unsigned i) { return w.exec[i] && !w.exited[i]; };
  auto exited = d.w32(0), execs = d.w32(0);
  for (unsigned i = 0; i < kWarpSize; ++i) {
    exited = exited | spec::bit_if(d, w.exited[i], i);
    execs = execs | spec::bit_if(d, executing(i), i);
  }
  auto ok = d.lit(true);
  auto uni = d.w32(0);
  for (unsigned i = 0; i < kWarpSize; ++i) {
    auto lane_ok = d.bit(mask(i), i) && spec::is_zero(d, mask(i) & ~exited & ~execs);
    for (unsigned j = 0; j < kWarpSize; ++j) {
      if (j == i) continue;
      lane_ok = lane_ok && !(d.bit(mask(i), j) && executing(j) && mask(j) != mask(i));
      if (sm6x)
        lane_ok = lane_ok &&
                  !(d.bit(mask(i), j) && !w.exited[j] && !(executing(j) && w.site[j] == w.site[i]));
    }
    ok = ok && (!executing(i) || lane_ok);
    uni = uni | d.ite(executing(i), mask(i), d.w32(0));
  }
  if (pre_volta && fam == spec::Family::WarpBarrier) ok = ok && uni == execs;
  return ok;
}

std::vector<std::string> warp_condition_text(const spec::Instr& in, bool pre_volta) {
  const auto fam = spec::form_info(in.form).family;
  const bool sm6x = pre_volta && has_sm6x_rule(in.form);
  std::vector<std::string> t;
  t.push_back(in.imm_mask ? "every executing lane is in the immediate membermask " +
                                lane_list(*in.imm_mask) + " (lanes)"
                          : "every executing lane is in its own membermask, and");
  t.push_back(
      "for every executing lane, each non-exited lane its membermask names executes this "
      "instruction with the same membermask");
  if (sm6x) t.push_back("(sm_6x) and reaches it from the same call site");
  if (pre_volta && fam == spec::Family::WarpBarrier)
    t.push_back(
        "(sm_6x) and the union of the executing lanes' masks is exactly the executing "
        "lanes (no mask names an exited lane)");
  return t;
}

std::string hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

/// The symbolic side of a warp query, built in one context (each worker builds its own).
struct WarpQuery {
  Z3Domain d;
  SymWarp w;
  z3::expr h;
  spec::Outcome<Z3Domain> out;
  z3::expr count;
  z3::expr ub;

  WarpQuery(z3::context& ctx, const spec::Instr& in, bool pre_volta, const UbConstraints& c)
      : d(ctx),
        w(make_sym_warp(d, "w")),
        h(well_formed(d, w)),
        out(model_implementation()->warp_symbolic(d, in, w, pre_volta)),
        count(d.w32(0)),
        ub(out.ub_lanes(d)) {
    for (unsigned i = 0; i < kWarpSize; ++i) {
      const auto& f = c.lanes[i];
      if (f.status) h = h && status_is(d, w.exec[i], w.exited[i], *f.status);
      if (f.mask) h = h && w.mask[i] == d.w32(*f.mask);
      if (f.a) h = h && w.a[i] == d.w64(*f.a);
      if (f.site) h = h && w.site[i] == d.w32(*f.site);
      if (f.b) h = h && w.b[i] == d.w32(*f.b);
      if (f.c) h = h && w.c[i] == d.w32(*f.c);
    }
    std::vector<z3::expr> executing;
    for (unsigned i = 0; i < kWarpSize; ++i) executing.push_back(w.exec[i] && !w.exited[i]);
    count = count_of(d, executing);
  }
};

/// Runs `tasks` on two threads (the queries are independent; each builds its own context).
void run_parallel(std::vector<std::function<void()>>& tasks) {
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex m;
  auto worker = [&] {
    for (std::size_t k; (k = next.fetch_add(1)) < tasks.size();) {
      try {
        tasks[k]();
      } catch (...) {
        std::lock_guard<std::mutex> lock(m);
        if (!failure) failure = std::current_exception();
      }
    }
  };
  std::thread other(worker);
  worker();
  other.join();
  if (failure) std::rethrow_exception(failure);
}

/// Whether the findings `now` show the clause `k` on exactly the lanes (threads) `before` shows
/// it on, and no clause anywhere `before` does not: the same story, told by a plainer state.
template <class Findings, class Lanes>
bool tells_the_same(const Findings& before, const Findings& now, spec::ClauseId k, Lanes of) {
  auto lanes = [&](const Findings& fs, spec::ClauseId c) {
    for (const auto& f : fs)
      if (f.clause == c) return of(f);
    return decltype(of(fs.front())){};
  };
  if (lanes(now, k) != lanes(before, k)) return false;
  for (const auto& f : now) {
    const auto was = lanes(before, f.clause);
    for (auto x : of(f))
      if (std::find(was.begin(), was.end(), x) == was.end()) return false;
  }
  return true;
}

/// A function that applies a change to a copy of `state` and keeps it when the copy tells the
/// same story about clause `k` (`findings` lists what the model finds, `of` a finding's lanes).
template <class State, class Findings, class Of>
auto attempter(State& state, Findings findings, spec::ClauseId k, Of of) {
  return [&state, findings, k, of, before = findings(state)](auto&& change) {
    auto s = state;
    change(s);
    if (tells_the_same(before, findings(s), k, of)) state = s;
  };
}

/// Offers `attempt` element `i` of the field `field` of `state` (the state `attempt` changes)
/// at 0, then with each of its set bits cleared, highest first: the number left is as small and
/// as plain as the story allows.
template <class Attempt, class State, class Field>
void fewer_bits(Attempt& attempt, const State& state, Field field, std::size_t i) {
  attempt([&](State& s) { (s.*field)[i] = 0; });
  using T = std::remove_cvref_t<decltype((state.*field)[i])>;
  for (unsigned j = 8 * sizeof(T); j-- > 0;)
    if ((state.*field)[i] >> j & 1u) attempt([&](State& s) { (s.*field)[i] &= ~(T{1} << j); });
}

/// The solver's witness `w` made plainer where the constraints leave it free, each change kept
/// only if the state tells the same story (`tells_the_same`): a lane that does not execute
/// exits; operands, call site, b, c and membermask keep as few bits as they can. The
/// fewest executing lanes stay as the solver found them. Concrete evaluations only.
model::Warp plainer(const spec::Instr& in, bool pre_volta, const UbConstraints& c, spec::ClauseId k,
                    model::Warp w) {
  auto findings = [&](const model::Warp& s) {
    return model::evaluate(in, s, target_of(pre_volta)).ub;
  };
  auto lanes_of = [](const model::UbFinding& f) {
    std::vector<unsigned> v;
    for (unsigned i = 0; i < kWarpSize; ++i)
      if (f.lanes >> i & 1u) v.push_back(i);
    return v;
  };
  if (findings(w).empty()) return w;
  auto attempt = attempter(w, findings, k, lanes_of);
  for (unsigned i = 0; i < kWarpSize; ++i) {
    const auto& fix = c.lanes[i];
    if (!fix.status && !w.exec[i] && !w.exited[i])
      attempt([&](model::Warp& s) { model::set_status(s, i, model::LaneStatus::Exited); });
    if (!fix.a) fewer_bits(attempt, w, &model::Warp::a, i);
    if (!fix.site) fewer_bits(attempt, w, &model::Warp::site, i);
    if (!fix.b) fewer_bits(attempt, w, &model::Warp::b, i);
    if (!fix.c) fewer_bits(attempt, w, &model::Warp::c, i);
    if (!fix.mask) fewer_bits(attempt, w, &model::Warp::mask, i);
  }
  return w;
}

/// The same for a block: a thread that does not arrive exits; predicates, barrier numbers and
/// counts keep as few bits as they can, and the partner form goes, where the constraints leave
/// them free.
model::Cta plainer(const spec::Instr& in, const UbConstraints& c, spec::ClauseId k, model::Cta t) {
  auto findings = [&](const model::Cta& s) { return model::evaluate_cta(in, s).ub; };
  if (findings(t).empty()) return t;
  auto attempt = attempter(t, findings, k, [](const model::CtaFinding& f) { return f.threads; });
  for (std::size_t i = 0; i < t.arrive.size(); ++i) {
    // As analyse_cta reads the constraints: the first 32 threads from `lanes`, any from cta_*.
    const bool status_free =
        !(i < kWarpSize && c.lanes[i].status) && !(i < c.cta_status.size() && c.cta_status[i]);
    const bool pred_free =
        !(i < kWarpSize && c.lanes[i].a) && !(i < c.cta_pred.size() && c.cta_pred[i]);
    if (status_free && !t.arrive[i] && !t.exited[i])
      attempt([&](model::Cta& s) { s.exited[i] = true; });
    auto fixed = [&](const auto& v) { return i < v.size() && v[i].has_value(); };
    if (pred_free) fewer_bits(attempt, t, &model::Cta::pred, i);
    if (!in.imm_bar && !fixed(c.cta_bar)) fewer_bits(attempt, t, &model::Cta::bar, i);
    if (in.has_count && !in.imm_count && !fixed(c.cta_count))
      fewer_bits(attempt, t, &model::Cta::count, i);
    if (!fixed(c.cta_partner)) attempt([&](model::Cta& s) { s.partner[i] = false; });
  }
  return t;
}

/// Whether `happens` can hold, and whether it must (`spared()`, its absence, is unsatisfiable):
/// sets `a.verdict`, and `a.reason` where the solver gave up. Returns a model of `happens` when
/// it can hold, for the smallest witness. `spared` is built only after the first query, as
/// before: the terms a context holds when it solves steer which model it finds.
template <class Spared>
std::optional<z3::model> can_must(z3::context& ctx, const z3::expr& happens, Spared&& spared,
                                  unsigned timeout_ms, ClauseAnswer& a) {
  auto can = check(ctx, happens, timeout_ms);
  if (can.unknown()) {
    a.reason = can.reason;
    return std::nullopt;
  }
  if (can.unsat()) {
    a.verdict = Possibility::Cannot;
    return std::nullopt;
  }
  auto must = check(ctx, spared(), timeout_ms);
  a.verdict = must.unsat() ? Possibility::Must
              : must.sat() ? Possibility::Can
                           : Possibility::Unknown;
  if (must.unknown()) a.reason = must.reason;
  return *can.model;
}

void analyse_clause(const spec::Instr& in, bool pre_volta, const UbConstraints& c,
                    const UbOptions& opt, std::size_t index, ClauseAnswer& a) {
  z3::context ctx;
  WarpQuery q(ctx, in, pre_volta, c);
  const auto& d = q.d;
  const auto& t = q.out.ub[index];
  a.clause = t.clause;
  const auto fires = q.h && t.lanes != d.w32(0);
  const auto found = can_must(
      ctx, fires, [&] { return q.h && t.lanes == d.w32(0); }, opt.timeout_ms, a);
  if (!found) return;
  // Warp UB needs an executing lane.
  auto [m, least] = smallest(ctx, d, fires, q.count, *found, opt.timeout_ms, 1);
  auto wit = concretize(m, q.w);
  const auto r = model::evaluate(in, wit, target_of(pre_volta));
  for (const auto& f : r.ub)
    if (f.clause == t.clause) a.fires_on = f.lanes;
  if (!a.fires_on)
    throw std::runtime_error(std::string("the witness for ") +
                             std::string(spec::clause_info(t.clause).key) +
                             " does not fire when replayed through the concrete model");
  a.witness = plainer(in, pre_volta, c, t.clause, wit);
  a.smallest = least;
  a.witness_executing = static_cast<unsigned>(m.eval(q.count, true).get_numeral_uint64());
}

/// `m`, or a model of `f` that is easier to read, when one is found: lanes that do not execute
/// hold zero everywhere, and executing lanes pass the c that spans the whole warp (0 for .up,
/// 0x1f otherwise) and a b below 32, as most shuffles do, from call site 0.
z3::model tidier(z3::context& ctx, const WarpQuery& q, const spec::Instr& in, const z3::expr& f,
                 z3::model m, unsigned timeout_ms) {
  const auto& d = q.d;
  const bool up = spec::form_info(in.form).mode == spec::Mode::Up;
  auto quiet = d.lit(true), plain = d.lit(true);
  for (unsigned i = 0; i < kWarpSize; ++i) {
    const auto& w = q.w;
    const auto executing = w.exec[i] && !w.exited[i];
    quiet =
        quiet && (executing || (w.mask[i] == d.w32(0) && w.a[i] == d.w64(0) &&
                                w.site[i] == d.w32(0) && w.b[i] == d.w32(0) && w.c[i] == d.w32(0)));
    plain = plain && (!executing || (w.c[i] == d.w32(up ? 0 : 0x1f) && z3::ult(w.b[i], d.w32(32)) &&
                                     w.site[i] == d.w32(0)));
  }
  for (const auto& extra : {quiet && plain, quiet}) {
    auto r = check(ctx, f && extra, timeout_ms);
    if (r.sat()) return *r.model;
  }
  return m;
}

/// The UndefinedValue clause `index` of the form (the `loose_d` terms): can it leave some lane's
/// d undefined in a state free of UB, must it, and the smallest such state. States with UB are
/// left out: there every result is undefined anyway, and the question is what a defined
/// instruction still leaves open.
void analyse_loose(const spec::Instr& in, bool pre_volta, const UbConstraints& c,
                   const UbOptions& opt, std::size_t index, ClauseAnswer& a) {
  z3::context ctx;
  WarpQuery q(ctx, in, pre_volta, c);
  const auto& d = q.d;
  const auto& t = q.out.loose_d[index];
  a.clause = t.clause;
  const auto defined = q.h && q.ub == d.w32(0);
  const auto open = defined && t.lanes != d.w32(0);
  const auto found = can_must(
      ctx, open, [&] { return defined && t.lanes == d.w32(0); }, opt.timeout_ms, a);
  if (!found) return;
  // A lane whose d is undefined executes (it reads a lane that does not, or is unnamed).
  auto [m, least] = smallest(ctx, d, open, q.count, *found, opt.timeout_ms, 1);
  m = tidier(ctx, q, in, open && z3::ule(q.count, m.eval(q.count, true)), m, opt.timeout_ms);
  auto wit = concretize(m, q.w);
  const auto r = model::evaluate(in, wit, target_of(pre_volta));
  for (const auto& l : r.outcome.loose_d)
    if (l.clause == t.clause) a.fires_on = l.lanes;
  if (!r.ub.empty() || !a.fires_on)
    throw std::runtime_error(std::string("the witness for ") +
                             std::string(spec::clause_info(t.clause).key) +
                             " does not leave a d undefined, free of UB, when replayed through "
                             "the concrete model");
  a.witness = wit;
  a.smallest = least;
  a.witness_executing = static_cast<unsigned>(m.eval(q.count, true).get_numeral_uint64());
}

void analyse_free(const spec::Instr& in, bool pre_volta, const UbConstraints& c,
                  const UbOptions& opt, UbReport& rep) {
  z3::context ctx;
  WarpQuery q(ctx, in, pre_volta, c);
  const auto& d = q.d;
  const auto& h = q.h;
  const auto& ub = q.ub;
  if (!opt.smt2_path.empty()) {
    z3::expr_vector v(ctx);
    v.push_back(h);
    v.push_back(ub != d.w32(0));
    model::write_output(opt.smt2_path, to_smt2(ctx, v));
  }
  auto some = check(ctx, h && ub != d.w32(0), opt.timeout_ms);
  auto none = check(ctx, h && ub == d.w32(0), opt.timeout_ms);
  rep.any_ub = some.unsat()               ? Possibility::Cannot
               : none.unsat()             ? Possibility::Must
               : some.sat() && none.sat() ? Possibility::Can
                                          : Possibility::Unknown;
  if (none.answer != Answer::Sat) return;
  auto ex = concretize(*none.model, q.w);
  if (!model::evaluate(in, ex, target_of(pre_volta)).ub.empty())
    throw std::runtime_error("the UB-free example does not replay free of UB through the model");
  rep.free_example = ex;
  if (spec::warp_ub_clauses(in.form).empty()) {
    // No rendezvous (activemask): no UB clause, and nothing the state must satisfy.
    rep.free_condition = {"always: the form has no undefined case"};
    rep.condition_checked = some.unsat();
    return;
  }
  rep.free_condition = warp_condition_text(in, pre_volta);
  const auto cond = warp_condition(d, q.w, in, pre_volta);
  rep.condition_checked = check(ctx, h && (cond != (ub == d.w32(0))), opt.timeout_ms).unsat();

  // With every lane's status fixed, name the simplest masks that work, checked like the rest.
  bool statuses_fixed = true;
  for (const auto& l : c.lanes) statuses_fixed = statuses_fixed && l.status.has_value();
  if (!statuses_fixed || in.imm_mask) return;
  uint32_t execs = 0, exited = 0;
  for (unsigned i = 0; i < kWarpSize; ++i) {
    if (*c.lanes[i].status == model::LaneStatus::Executes) execs |= 1u << i;
    if (*c.lanes[i].status == model::LaneStatus::Exited) exited |= 1u << i;
  }
  for (uint32_t m : {execs, execs | exited}) {
    auto pinned = h;
    for (unsigned i = 0; i < kWarpSize; ++i)
      if ((execs >> i) & 1u) pinned = pinned && q.w.mask[i] == d.w32(m);
    if (check(ctx, pinned, opt.timeout_ms).answer != Answer::Sat) continue;
    if (check(ctx, pinned && ub != d.w32(0), opt.timeout_ms).answer != Answer::Unsat) continue;
    rep.free_condition.push_back("here: every executing lane passing " + hex32(m) +
                                 " is free of UB (checked)");
    break;
  }
}

void analyse_warp(const spec::Instr& in, bool pre_volta, const UbConstraints& c,
                  const UbOptions& opt, UbReport& rep) {
  std::size_t clauses = 0, loose = 0;
  {
    z3::context ctx;
    const auto o = model_implementation()->warp_symbolic(
        Z3Domain(ctx), in, make_sym_warp(Z3Domain(ctx), "w"), pre_volta);
    clauses = o.ub.size();
    loose = o.loose_d.size();
  }
  rep.clauses.resize(clauses);
  rep.undefined_values.resize(loose);
  std::vector<std::function<void()>> tasks;
  // The whole-call query first: it is the longest, so the clauses fill the other worker.
  tasks.push_back([&] { analyse_free(in, pre_volta, c, opt, rep); });
  for (std::size_t k = 0; k < clauses; ++k)
    tasks.push_back([&, k] { analyse_clause(in, pre_volta, c, opt, k, rep.clauses[k]); });
  for (std::size_t k = 0; k < loose; ++k)
    tasks.push_back([&, k] { analyse_loose(in, pre_volta, c, opt, k, rep.undefined_values[k]); });
  run_parallel(tasks);
}

void analyse_cta(z3::context& ctx, const spec::Instr& in, const UbConstraints& c,
                 const UbOptions& opt, UbReport& rep) {
  Z3Domain d(ctx);
  const unsigned n = c.threads;
  const auto s = make_sym_cta(d, "b", n);
  auto h = well_formed(d, s);
  for (unsigned t = 0; t < n; ++t) {
    std::optional<model::LaneStatus> st;
    std::optional<uint64_t> pred;
    if (t < kWarpSize) st = c.lanes[t].status, pred = c.lanes[t].a;
    if (t < c.cta_status.size() && c.cta_status[t]) st = c.cta_status[t];
    if (t < c.cta_pred.size() && c.cta_pred[t]) pred = c.cta_pred[t];
    if (st) h = h && status_is(d, s.arrive[t], s.exited[t], *st);
    if (pred) h = h && s.pred[t] == d.w32(static_cast<uint32_t>(*pred));
    if (t < c.cta_bar.size() && c.cta_bar[t]) h = h && s.bar[t] == d.w32(*c.cta_bar[t]);
    if (t < c.cta_count.size() && c.cta_count[t]) h = h && s.count[t] == d.w32(*c.cta_count[t]);
    if (t < c.cta_partner.size() && c.cta_partner[t])
      h = h && s.partner[t] == d.lit(*c.cta_partner[t]);
  }
  const auto out = model_implementation()->cta_symbolic(d, in, s);
  std::vector<z3::expr> arriving;
  for (unsigned t = 0; t < n; ++t) arriving.push_back(s.arrive[t] && !s.exited[t]);
  const auto count = count_of(d, arriving);
  if (!opt.smt2_path.empty()) {
    z3::expr_vector q(ctx);
    q.push_back(h);
    q.push_back(out.any_ub);
    model::write_output(opt.smt2_path, to_smt2(ctx, q));
  }
  // One answer per UB clause of the form, each witness the fewest arriving threads that let it
  // fire, replayed through the model; then the whole call.
  for (const auto& term : out.ub) {
    ClauseAnswer a;
    a.clause = term.clause;
    auto fires = d.lit(false);
    for (const auto& x : term.threads) fires = fires || x;
    auto can = check(ctx, h && fires, opt.timeout_ms);
    auto never = check(ctx, h && !fires, opt.timeout_ms);
    if (can.unsat())
      a.verdict = Possibility::Cannot;
    else if (can.sat())
      a.verdict = never.unsat() ? Possibility::Must
                  : never.sat() ? Possibility::Can
                                : Possibility::Unknown;
    else
      a.reason = can.reason;
    if (can.sat()) {
      auto [m, least] = smallest(ctx, d, h && fires, count, *can.model, opt.timeout_ms, 0);
      auto wit = concretize(m, s);
      bool replayed = false;
      for (const auto& f : model::evaluate_cta(in, wit).ub)
        replayed = replayed || f.clause == a.clause;
      if (!replayed)
        throw std::runtime_error("the witness for " + std::string(spec::clause_info(a.clause).key) +
                                 " does not fire when replayed through the concrete model");
      a.cta_witness = plainer(in, c, a.clause, wit);
      a.smallest = least;
      a.witness_executing = static_cast<unsigned>(m.eval(count, true).get_numeral_uint64());
    }
    rep.clauses.push_back(std::move(a));
  }
  ClauseAnswer whole;
  {
    auto can = check(ctx, h && out.any_ub, opt.timeout_ms);
    auto none = check(ctx, h && !out.any_ub, opt.timeout_ms);
    whole.verdict = can.unsat()    ? Possibility::Cannot
                    : !can.sat()   ? Possibility::Unknown
                    : none.unsat() ? Possibility::Must
                    : none.sat()   ? Possibility::Can
                                   : Possibility::Unknown;
    rep.any_ub = whole.verdict;
    if (none.answer == Answer::Sat) {
      auto ex = concretize(*none.model, s);
      if (!model::evaluate_cta(in, ex).ub.empty())
        throw std::runtime_error(
            "the UB-free example does not replay free of UB through the model");
      rep.free_cta_example = ex;
    }
  }
  if (in.has_count || !in.imm_bar) return;  // the plain spelling alone has a one-line condition
  const bool red = spec::partner_name(in.form) == "bar.sync";
  rep.free_condition = {
      red ? "every thread of the block that has not exited reaches the barrier, all through the "
            "instruction itself or all through bar.sync beside it, or no thread reaches it (then "
            "nothing waits)"
          : "every thread of the block that has not exited reaches the barrier through the "
            "instruction itself (a bar.arrive beside it would need a count), or no thread "
            "reaches it (then nothing waits)"};
  auto own = d.lit(true), other = d.lit(red), none = d.lit(true);
  for (unsigned t = 0; t < n; ++t) {
    own = own && (s.exited[t] || (s.arrive[t] && !s.partner[t]));
    other = other && (s.exited[t] || (s.arrive[t] && s.partner[t]));
    none = none && (!s.arrive[t] || s.exited[t]);
  }
  rep.condition_checked =
      check(ctx, h && ((own || other || none) != !out.any_ub), opt.timeout_ms).unsat();
}

}  // namespace

std::string_view possibility_name(Possibility p) {
  switch (p) {
    case Possibility::Cannot:
      return "cannot";
    case Possibility::Can:
      return "can";
    case Possibility::Must:
      return "must";
    case Possibility::Unknown:
      return "unknown";
  }
  return "?";
}

UbReport analyse_ub(const spec::Instr& in, bool pre_volta, const UbConstraints& c,
                    const UbOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  UbReport rep;
  rep.instr = in;
  rep.pre_volta = pre_volta;
  if (spec::is_warp_form(in.form)) {
    analyse_warp(in, pre_volta, c, opt, rep);
  } else {
    z3::context ctx;
    analyse_cta(ctx, in, c, opt, rep);
  }
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return rep;
}

}  // namespace warpspec::checker
