// Laws of the block barriers over a block of kCtaThreads threads: the three reductions against
// each other, who counts, when the barrier is undefined, a one-warp block against the warp votes,
// and the named barriers (a barrier number is only a name, a count of the whole block is no
// count, bar.arrive is bar.sync that does not wait).
#include "checker/laws.hpp"

namespace warpspec::checker::laws {

namespace {

/// Threads that arrive and have not exited.
template <class D>
std::vector<typename D::B> arriving(const D& d, const spec::CtaState<D>& s) {
  (void)d;
  std::vector<typename D::B> r;
  for (std::size_t t = 0; t < s.arrive.size(); ++t) r.push_back(s.arrive[t] && !s.exited[t]);
  return r;
}

/// The block as __syncthreads sees it: every thread at one barrier through the instruction
/// itself (no partner form), whatever the barrier-number and count registers hold.
template <class D>
spec::CtaState<D> plain(const D& d, spec::CtaState<D> s) {
  for (std::size_t t = 0; t < s.partner.size(); ++t) s.partner[t] = d.lit(false);
  return s;
}

/// `body(t)` on every thread the outcome executes.
template <class D, class F>
typename D::B each(const D& d, const spec::CtaOutcome<D>& o, F&& body) {
  auto ok = d.lit(true);
  for (std::size_t t = 0; t < o.executes.size(); ++t) ok = ok && implies(d, o.executes[t], body(t));
  return ok;
}

/// `in` with barrier number k and thread count b written as immediates (b = 0: no count).
inline spec::Instr named(spec::Instr in, uint32_t k, uint32_t b = 0) {
  in.imm_bar = k;
  in.has_count = b != 0;
  if (b) in.imm_count = b;
  return in;
}

/// How many threads arrive (and have not exited).
template <class D>
typename D::W32 arrivals(const D& d, const spec::CtaState<D>& s) {
  auto n = d.w32(0);
  for (const auto& here : arriving(d, s)) n = n + as_word(d, here);
  return n;
}

// The block-barrier forms from the catalog: all of them, or the reductions (bar.red) alone, so
// that a new block form is held to these laws without being listed here.
std::vector<FormId> cta_forms(bool reductions_only) {
  std::vector<FormId> out;
  for (const auto& f : spec::kForms)
    if (f.family == spec::Family::CtaBarrier && (!reductions_only || f.mode != spec::Mode::None))
      out.push_back(f.id);
  return out;
}

}  // namespace

void add_cta_laws(std::vector<Property>& out, const Subject& subject) {
  auto add = [&](const char* name, const char* doc, unsigned uses, auto body) {
    out.push_back(make_property(name, doc, uses, body, subject));
  };

  add("cta.or_is_count_positive",
      "__syncthreads_or is non-zero exactly when __syncthreads_count is positive (p and !p).",
      kUsesCta, [](auto& e) {
        const auto& d = e.d;
        for (bool neg : {false, true}) {
          const auto s = plain(d, e.cta);
          auto any = e.eval_cta(instr(FormId::BarRedOr, neg), s);
          auto count = e.eval_cta(instr(FormId::BarRedPopc, neg), s);
          e.claim(neg ? "!a" : "a", each(d, any, [&](std::size_t t) {
                    return truthy(d, any.d[t]) == truthy(d, count.d[t]);
                  }));
        }
      });

  add("cta.and_is_count_of_all_arrivals",
      "__syncthreads_and is non-zero exactly when __syncthreads_count equals the number of "
      "arriving threads.",
      kUsesCta, [](auto& e) {
        const auto& d = e.d;
        const auto s = plain(d, e.cta);
        auto all = e.eval_cta(instr(FormId::BarRedAnd), s);
        auto count = e.eval_cta(instr(FormId::BarRedPopc), s);
        e.claim("and", each(d, all, [&](std::size_t t) {
                  return truthy(d, all.d[t]) == (count.d[t] == arrivals(d, s));
                }));
      });

  add("cta.and_of_negation_is_not_or",
      "__syncthreads_and of !p is the negation of __syncthreads_or of p.", kUsesCta, [](auto& e) {
        const auto& d = e.d;
        auto none = e.eval_cta(instr(FormId::BarRedAnd, true), e.cta);
        auto any = e.eval_cta(instr(FormId::BarRedOr), e.cta);
        e.claim("none", each(d, none, [&](std::size_t t) {
                  return truthy(d, none.d[t]) == !truthy(d, any.d[t]);
                }));
      });

  add("cta.count_of_true_predicates_is_arrivals",
      "When every thread passes a non-zero predicate, __syncthreads_count is the number of "
      "arriving threads and __syncthreads_count(!p) is 0.",
      kUsesCta, [](auto& e) {
        const auto& d = e.d;
        auto t = plain(d, e.cta);
        for (auto& p : t.pred) p = d.w32(1);
        auto pos = e.eval_cta(instr(FormId::BarRedPopc), t);
        auto neg = e.eval_cta(instr(FormId::BarRedPopc, true), t);
        e.claim("count", each(d, pos, [&](std::size_t k) {
                  return pos.d[k] == arrivals(d, t) && neg.d[k] == d.w32(0);
                }));
      });

  add("cta.count_at_most_block_size",
      "__syncthreads_count never exceeds the number of threads in the block.", kUsesCta,
      [](auto& e) {
        const auto& d = e.d;
        auto count = e.eval_cta(instr(FormId::BarRedPopc), e.cta);
        const auto n = d.w32(static_cast<uint32_t>(e.cta.arrive.size()));
        e.claim("bound", each(d, count, [&](std::size_t t) { return !d.ult(n, count.d[t]); }));
      });

  add("cta.and_or_return_predicates", "__syncthreads_and and __syncthreads_or return 0 or 1.",
      kUsesCta, [](auto& e) {
        const auto& d = e.d;
        for (auto f : {FormId::BarRedAnd, FormId::BarRedOr})
          for (bool neg : {false, true}) {
            auto o = e.eval_cta(instr(f, neg), e.cta);
            e.claim(std::string(spec::form_info(f).name) + (neg ? " !a" : ""),
                    each(d, o, [&](std::size_t t) { return d.ult(o.d[t], d.w32(2)); }));
          }
      });

  add("cta.ub_iff_a_live_thread_is_missing",
      "A block barrier with some thread arriving is undefined exactly when some non-exited thread "
      "does not arrive, and then on every arriving thread; all forms agree.",
      kUsesCta, [](auto& e) {
        const auto& d = e.d;
        auto missing = d.lit(false);
        for (std::size_t t = 0; t < e.cta.arrive.size(); ++t)
          missing = missing || (!e.cta.arrive[t] && !e.cta.exited[t]);
        auto here = arriving(d, e.cta);
        auto some = d.lit(false);
        for (const auto& h : here) some = some || h;
        missing = missing && some;  // with no thread there, nothing waits
        const auto s = plain(d, e.cta);
        for (auto f : cta_forms(false)) {
          if (f == FormId::BarArrive) continue;  // takes a count; it never waits for the block
          auto o = e.eval_cta(instr(f), s);
          auto ok = o.any_ub == missing;
          for (std::size_t t = 0; t < here.size(); ++t)
            ok = ok && o.defined(t) == (here[t] && !missing) && o.executes[t] == here[t];
          e.claim(std::string(spec::form_info(f).name), ok);
        }
      });

  add("cta.ignores_exited_threads",
      "Changing the predicates of exited threads changes no block reduction.", kUsesCta,
      [](auto& e) {
        const auto& d = e.d;
        auto t = e.cta;
        for (std::size_t k = 0; k < t.pred.size(); ++k)
          t.pred[k] = d.ite(e.cta.exited[k], d.w32(0x5a5a5a5au) ^ e.cta.pred[k], e.cta.pred[k]);
        for (auto f : cta_forms(true))
          for (bool neg : {false, true}) {
            auto a = e.eval_cta(instr(f, neg), e.cta);
            auto b = e.eval_cta(instr(f, neg), t);
            e.claim(std::string(spec::form_info(f).name) + (neg ? " !a" : ""),
                    each(d, a, [&](std::size_t k) { return a.d[k] == b.d[k]; }));
          }
      });

  add("cta.one_warp_block_is_a_full_vote",
      "For one warp whose live lanes all arrive with the full mask, __syncthreads_or/and/count "
      "equal vote.any/vote.all and the ballot's population count.",
      kUsesWarp | kUsesCta, [](auto& e) {
        const auto& d = e.d;
        for (unsigned i = 0; i < spec::kWarpSize; ++i) {
          e.assume(e.w0.exec[i] || e.w0.exited[i]);
          e.assume(e.w0.mask[i] == d.w32(0xffffffffu));
        }
        spec::CtaState<std::decay_t<decltype(d)>> block;
        for (unsigned i = 0; i < spec::kWarpSize; ++i) {
          block.arrive.push_back(e.w0.exec[i]);
          block.exited.push_back(e.w0.exited[i]);
          block.pred.push_back(as_word(d, pred(d, e.w0, i)));
          block.bar.push_back(d.w32(0));
          block.count.push_back(d.w32(0));
          block.partner.push_back(d.lit(false));
        }
        auto any = e.eval(instr(FormId::VoteAny), e.w0);
        auto all = e.eval(instr(FormId::VoteAll), e.w0);
        auto bal = e.eval(instr(FormId::VoteBallot), e.w0);
        auto bor = e.eval_cta(instr(FormId::BarRedOr), block);
        auto band = e.eval_cta(instr(FormId::BarRedAnd), block);
        auto bcount = e.eval_cta(instr(FormId::BarRedPopc), block);
        e.claim_lanes("block", [&](unsigned i) {
          return implies(
              d, any.executes[i],
              any.d[i] == bor.d[i] && all.d[i] == band.d[i] &&
                  d.popcount(bal.d[i]) == bcount.d[i]);
        });
      });

  add("cta.barrier_number_is_a_name",
      "Moving every thread from barrier 0 to barrier 9 changes no block barrier's outcome.",
      kUsesCta, [](auto& e) {
        for (auto f : cta_forms(false))
          for (uint32_t b : {0u, 64u}) {
            if (f == FormId::BarArrive && b == 0) continue;
            auto x = e.eval_cta(named(instr(f), 0, b), e.cta);
            auto y = e.eval_cta(named(instr(f), 9, b), e.cta);
            auto same = x.any_ub == y.any_ub;
            for (std::size_t t = 0; t < x.d.size(); ++t)
              same = same && x.executes[t] == y.executes[t] && x.d[t] == y.d[t];
            e.claim(std::string(spec::form_info(f).name) + (b ? ", 64" : ""), same);
          }
      });

  add("cta.whole_block_count_is_no_count",
      "When no thread has exited, a thread count of the whole block (32 per warp) gives the same "
      "outcome as no count.",
      kUsesCta, [](auto& e) {
        const auto& d = e.d;
        for (const auto& x : e.cta.exited) e.assume(!x);
        const auto s = plain(d, e.cta);
        const auto whole = static_cast<uint32_t>(32 * ((s.arrive.size() + 31) / 32));
        for (auto f : cta_forms(false)) {
          if (f == FormId::BarArrive) continue;
          auto x = e.eval_cta(named(instr(f), 2), s);
          auto y = e.eval_cta(named(instr(f), 2, whole), s);
          auto same = x.any_ub == y.any_ub;
          for (std::size_t t = 0; t < x.d.size(); ++t)
            same = same && implies(d, x.defined(t), x.d[t] == y.d[t]);
          e.claim(std::string(spec::form_info(f).name), same);
        }
      });

  add("cta.arrive_is_sync_that_does_not_wait",
      "bar.arrive a, b and bar.sync a, b execute on the same threads and trip the same UB clauses "
      "on them, except that bar.arrive is left waiting only where its own warp never gathers.",
      kUsesCta, [](auto& e) {
        const auto& d = e.d;
        const auto s = plain(d, e.cta);
        auto in = instr(FormId::BarSync);
        in.has_count = true;  // from the count registers
        auto ar = in;
        ar.form = FormId::BarArrive;
        auto sy = e.eval_cta(in, s);
        auto av = e.eval_cta(ar, s);
        auto ok = d.lit(sy.ub.size() == av.ub.size());
        for (std::size_t c = 0; c < sy.ub.size() && c < av.ub.size(); ++c)
          for (std::size_t t = 0; t < s.arrive.size(); ++t) {
            const auto& a = av.ub[c].threads[t];
            const auto& b = sy.ub[c].threads[t];
            ok = ok && (sy.ub[c].clause == spec::ClauseId::CtaUbNotReached ? implies(d, a, b) : a == b);
          }
        for (std::size_t t = 0; t < s.arrive.size(); ++t)
          ok = ok && sy.executes[t] == av.executes[t] && av.d[t] == d.w32(0);
        e.claim("same threads, same UB", ok);
      });
}

}  // namespace warpspec::checker::laws
