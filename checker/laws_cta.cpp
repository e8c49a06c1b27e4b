// Laws of the __syncthreads family over a block of kCtaThreads threads: the three reductions
// against each other, who counts, when the barrier is undefined, and a one-warp block against
// the warp votes.
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
          auto any = e.eval_cta(instr(FormId::BarRedOr, neg), e.cta);
          auto count = e.eval_cta(instr(FormId::BarRedPopc, neg), e.cta);
          e.claim(neg ? "!a" : "a", truthy(d, any.d) == truthy(d, count.d));
        }
      });

  add("cta.and_is_count_of_all_arrivals",
      "__syncthreads_and is non-zero exactly when __syncthreads_count equals the number of "
      "arriving threads.",
      kUsesCta, [](auto& e) {
        const auto& d = e.d;
        auto all = e.eval_cta(instr(FormId::BarRedAnd), e.cta);
        auto count = e.eval_cta(instr(FormId::BarRedPopc), e.cta);
        e.claim("and", truthy(d, all.d) == (count.d == arrivals(d, e.cta)));
      });

  add("cta.and_of_negation_is_not_or",
      "__syncthreads_and of !p is the negation of __syncthreads_or of p.", kUsesCta, [](auto& e) {
        const auto& d = e.d;
        auto none = e.eval_cta(instr(FormId::BarRedAnd, true), e.cta);
        auto any = e.eval_cta(instr(FormId::BarRedOr), e.cta);
        e.claim("none", truthy(d, none.d) == !truthy(d, any.d));
      });

  add("cta.count_of_true_predicates_is_arrivals",
      "When every thread passes a non-zero predicate, __syncthreads_count is the number of "
      "arriving threads and __syncthreads_count(!p) is 0.",
      kUsesCta, [](auto& e) {
        const auto& d = e.d;
        auto t = e.cta;
        for (auto& p : t.pred) p = d.w32(1);
        auto pos = e.eval_cta(instr(FormId::BarRedPopc), t);
        auto neg = e.eval_cta(instr(FormId::BarRedPopc, true), t);
        e.claim("count", pos.d == arrivals(d, t) && neg.d == d.w32(0));
      });

  add("cta.count_at_most_block_size",
      "__syncthreads_count never exceeds the number of threads in the block.", kUsesCta,
      [](auto& e) {
        const auto& d = e.d;
        auto count = e.eval_cta(instr(FormId::BarRedPopc), e.cta);
        e.claim("bound", !d.ult(d.w32(static_cast<uint32_t>(e.cta.arrive.size())), count.d));
      });

  add("cta.and_or_return_predicates", "__syncthreads_and and __syncthreads_or return 0 or 1.",
      kUsesCta, [](auto& e) {
        const auto& d = e.d;
        for (auto f : {FormId::BarRedAnd, FormId::BarRedOr})
          for (bool neg : {false, true}) {
            auto o = e.eval_cta(instr(f, neg), e.cta);
            e.claim(std::string(spec::form_info(f).name) + (neg ? " !a" : ""),
                    d.ult(o.d, d.w32(2)));
          }
      });

  add("cta.ub_iff_a_live_thread_is_missing",
      "A block barrier is undefined exactly when some non-exited thread does not arrive, and then "
      "on every arriving thread; all forms agree.",
      kUsesCta, [](auto& e) {
        const auto& d = e.d;
        auto missing = d.lit(false);
        for (std::size_t t = 0; t < e.cta.arrive.size(); ++t)
          missing = missing || (!e.cta.arrive[t] && !e.cta.exited[t]);
        auto here = arriving(d, e.cta);
        for (auto f : cta_forms(false)) {
          auto o = e.eval_cta(instr(f), e.cta);
          auto ok = o.any_ub == missing;
          for (std::size_t t = 0; t < here.size(); ++t)
            ok = ok && o.ub_not_reached[t] == (here[t] && missing) && o.executes[t] == here[t];
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
            e.claim(std::string(spec::form_info(f).name) + (neg ? " !a" : ""), a.d == b.d);
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
              any.d[i] == bor.d && all.d[i] == band.d && d.popcount(bal.d[i]) == bcount.d);
        });
      });
}

}  // namespace warpspec::checker::laws
