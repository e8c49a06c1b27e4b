#include "checker/prover.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include "checker/lane_table.hpp"
#include "checker/smt2.hpp"
#include "checker/solver.hpp"
#include "model/output.hpp"

namespace warpspec::checker {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// Everything a property's symbolic reading produced, in one context.
struct Query {
  Z3Domain d;
  SymWarp w0, w1;
  SymCta cta;
  Env<Z3Domain> env;
  z3::expr hypothesis;

  Query(z3::context& ctx, const Property& p)
      : d(ctx),
        w0(make_sym_warp(d, "w0")),
        w1(make_sym_warp(d, "w1")),
        cta(make_sym_cta(d, "b")),
        env(d, *p.subject, *model_implementation(), w0, w1, cta),
        hypothesis(d.lit(true)) {
    p.symbolic(env);
    hypothesis = well_formed(d, w0) && well_formed(d, w1) && well_formed(d, cta);
    for (const auto& a : env.assumptions) hypothesis = hypothesis && a;
    // A lemma holds of every state, so a claim that is literally one of its claims on these
    // states (and that it states without assumptions) is discharged by it; the runner withholds
    // "proved" unless the lemma itself is proved.
    for (const auto& lemma : p.lemmas) {
      Env<Z3Domain> le(d, *p.subject, *model_implementation(), w0, w1, cta);
      lemma.symbolic(le);
      if (le.assumptions.empty())
        for (const auto& c : le.claims) lemma_claims.push_back(c);
    }
  }

  /// True when claim `k` is a claim of one of the property's lemmas.
  bool by_lemma(std::size_t k) const {
    for (const auto& c : lemma_claims)
      if (z3::eq(c, env.claims[k])) return true;
    return false;
  }

  std::vector<z3::expr> lemma_claims;

  z3::expr_vector whole() const {
    z3::expr_vector v(d.ctx());
    v.push_back(hypothesis);
    auto all = d.lit(true);
    for (const auto& c : env.claims) all = all && c;
    v.push_back(!all);
    return v;
  }
};

/// Replays a model of the negated claim `k` through the concrete reading. Fills the verdict's
/// counterexample, or its error when the concrete model does not show the violation.
void replay(const Property& p, const Query& q, const z3::model& m, std::size_t k, Verdict& v) {
  const auto c0 = concretize(m, q.w0);
  const auto c1 = concretize(m, q.w1);
  const auto cb = concretize(m, q.cta);
  Env<model::Concrete> env(model::Concrete{}, *p.subject, *model_implementation(), c0, c1, cb);
  p.concrete(env);
  v.counterexample = format_replay(env);
  v.counterexample_json = replay_json(env);
  for (std::size_t a = 0; a < env.assumptions.size(); ++a)
    if (!env.assumptions[a]) {
      v.error = "the counterexample to " + p.name + " breaks assumption " + std::to_string(a) +
                " when replayed through the concrete model";
      return;
    }
  if (env.claims.size() != q.env.claims.size() || env.claims[k]) {
    v.error = "the counterexample to " + p.name + " (" + q.env.labels[k] +
              ") does not reproduce when replayed through the concrete model";
  }
}

/// Each of `claims` after Z3's rewriting, from one call that shares the rewriter's cache.
std::vector<z3::expr> simplified_together(z3::context& ctx, const std::vector<z3::expr>& claims) {
  std::vector<z3::expr> out;
  if (claims.empty()) return out;
  z3::sort_vector domain(ctx);
  z3::expr_vector args(ctx);
  for (const auto& c : claims) {
    domain.push_back(ctx.bool_sort());
    args.push_back(c);
  }
  const auto all = ctx.function("claims", domain, ctx.bool_sort());
  const auto r = all(args).simplify();
  for (unsigned k = 0; k < r.num_args(); ++k) out.push_back(r.arg(k));
  return out;
}

/// A check of one claim against the query's hypotheses in a fresh QF_BV solver, within the
/// property's deadline (and `budget_ms` when non-zero).
struct Solve {
  z3::context& ctx;
  const Query& q;
  const ProveOptions& opt;
  Clock::time_point deadline;
  /// Z3's step count in the context after the latest check (the count is the context's own, so
  /// the latest is the whole property's so far).
  mutable uint64_t steps = 0;

  /// The limits of a check that may take `budget_ms` (0: the rest of the deadline), or nothing
  /// when the deadline has passed.
  std::optional<Limits> limits(unsigned budget_ms) const {
    unsigned limit = budget_ms;
    if (opt.timeout_ms) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) return std::nullopt;
      limit = limit ? std::min<unsigned>(limit, static_cast<unsigned>(left))
                    : static_cast<unsigned>(left);
    }
    return Limits{limit, static_cast<unsigned>(opt.rlimit)};
  }

  /// Checks `claim` within `budget_ms` and, when non-zero, `budget_steps` of Z3's steps.
  Outcome check(const z3::expr& claim, unsigned budget_ms, unsigned budget_steps = 0) const {
    auto lim = limits(budget_ms);
    if (!lim) return timed_out();
    if (budget_steps && (!lim->rlimit || budget_steps < lim->rlimit)) lim->rlimit = budget_steps;
    // A fresh solver per query: the QF_BV tactic bit-blasts it on its own and never falls back
    // to the incremental core, which is much slower on most of these problems.
    Solver s(ctx, *lim);
    s.add(q.hypothesis);
    s.add(!claim);
    return counted(s, s.check());
  }

  /// Checks claim `k` on `inc`, a solver that holds the hypotheses and keeps what it learns from
  /// one claim to the next: for many claims on the same large terms (a block's per-thread
  /// claims), cheaper than bit-blasting the hypotheses again for each.
  Outcome check_on(Solver& inc, std::size_t k, unsigned budget_ms) const {
    const auto lim = limits(budget_ms);
    if (!lim) return timed_out();
    inc.set_limits(*lim);
    const auto assumed = ctx.bool_const(("claim " + std::to_string(k) + " fails").c_str());
    inc.add(z3::implies(assumed, !q.env.claims[k]));
    return counted(inc, inc.check(assumed));
  }

  Outcome counted(Solver& s, Outcome o) const {
    steps = std::max(steps, s.steps());
    return o;
  }

  static Outcome timed_out() {
    Outcome o;
    o.reason = "timeout";
    return o;
  }
};

/// How much work a group of claims may take as one query before its claims are tried one by
/// one: Z3's steps, so that the choice does not depend on how busy the machine is (a wall-clock
/// budget gave up on twice as many groups when another process shared the cores). Groups that
/// settle take up to 6.5 M steps; those that do not go on far beyond. The wall-clock limit only
/// guards against a query whose steps come unusually slowly (2-9 M steps/s here).
constexpr unsigned kGroupBudgetSteps = 7'000'000;
constexpr unsigned kGroupBudgetMs = 6000;
/// How many claims of a group that does not settle as a whole are tried together.
constexpr std::size_t kSlice = 8;
/// How long a claim is tried on the group's incremental solver before it gets a fresh one (and
/// the group's remaining claims do too).
constexpr unsigned kIncrementalBudgetMs = 2000;

}  // namespace

std::string_view status_name(Status s) {
  switch (s) {
    case Status::Proved:
      return "proved";
    case Status::Refuted:
      return "refuted";
    case Status::Unknown:
      return "unknown";
  }
  return "?";
}

std::string property_smt2(const Property& p) {
  z3::context ctx;
  Query q(ctx, p);
  return to_smt2(ctx, q.whole());
}

Verdict prove(const Property& p, const ProveOptions& opt) {
  // Every term the property builds goes as soon as it is dead, and the context's deletion at the
  // end is quick.
  const ReleaseMovedOverTerms release;
  const auto t0 = Clock::now();
  Verdict v;
  v.name = p.name;
  try {
    z3::context ctx;
    Query q(ctx, p);
    v.claims = q.env.claims.size();
    if (!opt.smt2_path.empty()) {
      const std::string path =
          opt.smt2_is_dir ? (std::filesystem::path(opt.smt2_path) / (p.name + ".smt2")).string()
                          : opt.smt2_path;
      // A file that cannot be written is the output's failure, not the proof's.
      try {
        model::write_output(path, to_smt2(ctx, q.whole()));
      } catch (const model::OutputError& e) {
        v.output_error = e.what();
      }
    }
    const auto deadline = t0 + std::chrono::milliseconds(opt.timeout_ms);
    v.status = Status::Proved;
    // The claims left after folding, in groups of one label (a claim per lane, typically).
    std::vector<std::vector<std::size_t>> groups;
    std::vector<z3::expr> queued;
    std::string last;
    // Claims whose two sides are one term after Z3's rewriting need no search; skipping the
    // solver also skips bit-blasting the hypotheses, which dominates for such claims. The claims
    // are rewritten together, as the arguments of one uninterpreted application, so that the
    // terms they share are rewritten once.
    const auto rewritten = simplified_together(ctx, q.env.claims);
    for (std::size_t k = 0; k < q.env.claims.size(); ++k) {
      const auto& claim = q.env.claims[k];
      if (claim.is_true() || q.by_lemma(k)) continue;  // folded away, or a lemma's claim
      if (rewritten[k].is_true()) continue;
      // Forms of one family share their UB terms, so many claims recur verbatim: prove once.
      if (std::any_of(queued.begin(), queued.end(),
                      [&](const z3::expr& c) { return z3::eq(c, claim); }))
        continue;
      queued.push_back(claim);
      const auto& label = q.env.labels[k];
      auto group = label.substr(0, std::min(label.find(" (lane "), label.find(" (thread ")));
      if (groups.empty() || group != last) groups.emplace_back();
      groups.back().push_back(k);
      last = group;
    }
    v.work.build_seconds = seconds_since(t0);
    const auto count = [](QueryTally& kind, Clock::time_point since) {
      ++kind.queries;
      kind.seconds += seconds_since(since);
    };
    Solve solve{ctx, q, opt, deadline};
    for (const auto& g : groups) {
      // One query for the whole group first, briefly: one bit-blasting of the hypotheses for
      // many claims. If it does not settle quickly, each claim gets its own query, which keeps
      // every SAT problem small.
      // A large group that does not settle is tried again in slices of kSlice claims, which
      // share the bit-blasting of the terms their claims have in common at a fraction of the
      // whole group's search. The first slice that does not settle either ends the slicing:
      // where one does not, the others rarely do.
      std::vector<std::size_t> left;
      auto settle = [&](const std::vector<std::size_t>& part) {
        auto all = q.d.lit(true);
        for (auto k : part) all = all && q.env.claims[k];
        const auto asked = Clock::now();
        auto r = solve.check(all, kGroupBudgetMs, kGroupBudgetSteps);
        count(r.unknown() ? v.work.abandoned : v.work.grouped, asked);
        if (r.unsat()) return true;
        if (r.sat())
          for (auto k : part)
            if (r.model->eval(q.env.claims[k], true).is_false()) {
              v.status = Status::Refuted;
              v.reason = q.env.labels[k];
              replay(p, q, *r.model, k, v);
              break;
            }
        return false;
      };
      if (g.size() > 1 && !p.claims_alone) {
        if (settle(g)) continue;
        if (v.status == Status::Refuted) break;
        bool slicing = g.size() > kSlice;
        for (std::size_t b = 0; b < g.size(); b += kSlice) {
          const std::vector<std::size_t> part(g.begin() + b,
                                              g.begin() + std::min(g.size(), b + kSlice));
          if (slicing && settle(part)) continue;
          if (v.status == Status::Refuted) break;
          slicing = false;
          left.insert(left.end(), part.begin(), part.end());
        }
        if (v.status == Status::Refuted) break;
      } else {
        left = g;
      }
      // Then claim by claim: on one incremental solver while it keeps up (where the property
      // asks for it), else each on its own.
      std::optional<Solver> inc;
      if (left.size() > 1 && p.claims_incremental) {
        inc.emplace(Solver::incremental(ctx));
        inc->add(q.hypothesis);
      }
      for (auto k : left) {
        Outcome r;
        const auto asked = Clock::now();
        if (inc) {
          r = solve.check_on(*inc, k, kIncrementalBudgetMs);
          if (r.unknown()) inc.reset();
        }
        if (!inc) r = solve.check(q.env.claims[k], 0);
        count(v.work.single, asked);
        if (r.unsat()) continue;
        if (r.unknown()) {
          v.status = Status::Unknown;
          v.reason = r.reason + " (" + q.env.labels[k] + ")";
        } else {
          v.status = Status::Refuted;
          v.reason = q.env.labels[k];
          replay(p, q, *r.model, k, v);
        }
        break;
      }
      if (v.status != Status::Proved) break;
    }
    v.steps = solve.steps;
  } catch (const z3::exception& e) {
    v.status = Status::Unknown;
    v.error = std::string("Z3 error: ") + e.msg();
  } catch (const std::exception& e) {
    v.status = Status::Unknown;
    v.error = e.what();
  }
  v.seconds = seconds_since(t0);
  return v;
}

std::vector<const Property*> with_lemmas(const std::vector<Property>& lib,
                                         const std::vector<const Property*>& chosen) {
  std::vector<const Property*> out;
  auto add = [&](const Property* p) {
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  };
  for (const auto* p : chosen)
    for (const auto& lemma : p->lemmas)
      for (const auto& q : lib)
        if (q.name == lemma.name) add(&q);
  for (const auto* p : chosen) add(p);
  return out;
}

std::vector<Verdict> prove_all(const std::vector<const Property*>& props, const ProveOptions& opt,
                               const std::function<void(const Verdict&)>& on_done) {
  if (opt.memory_mb && opt.memory_mb < kMinMemoryMb)
    throw std::invalid_argument("a Z3 memory ceiling of " + std::to_string(opt.memory_mb) +
                                " MiB: Z3 cannot start in less than " +
                                std::to_string(kMinMemoryMb) + " MiB");
  if (opt.memory_mb) z3::set_param("memory_max_size", static_cast<int>(opt.memory_mb));
  std::vector<Verdict> out(props.size());
  std::atomic<std::size_t> next{0};
  std::mutex done_mutex;
  auto worker = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < props.size();) {
      out[i] = prove(*props[i], opt);
      if (on_done) {
        std::lock_guard<std::mutex> lock(done_mutex);
        on_done(out[i]);
      }
    }
  };
  const unsigned jobs =
      std::max(1u, std::min<unsigned>(opt.jobs, static_cast<unsigned>(props.size())));
  std::vector<std::thread> threads;
  for (unsigned j = 1; j < jobs; ++j) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  // A property proved from lemmas is proved only if they are.
  for (std::size_t i = 0; i < props.size(); ++i) {
    if (out[i].status != Status::Proved) continue;
    for (const auto& lemma : props[i]->lemmas) {
      bool ok = false;
      for (std::size_t j = 0; j < props.size(); ++j)
        ok = ok || (props[j]->name == lemma.name && out[j].status == Status::Proved);
      if (!ok) {
        out[i].status = Status::Unknown;
        out[i].reason = "relies on lemma " + lemma.name + ", which this run did not prove";
        break;
      }
    }
  }
  return out;
}

}  // namespace warpspec::checker
