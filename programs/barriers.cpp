// Block barriers in the step semantics. Each barrier number keeps the arrivals of its open phase
// in order, several per thread where a thread arrives again (bar.arrive goes on). A warp arrives
// once every live thread of it has arrived: its n-th arrival is formed when each of its live
// threads has arrived n times, and a thread at bar.arrive waits for that (it waits for its own
// warp, not for the block). A phase completes, by the model's rule, when every warp with a live
// thread has arrived (no thread count) or when the warps that have arrived hold the count b;
// it takes the warp arrivals in the order they formed, b/32 of them, and leaves the rest for the
// next phase. `model::evaluate_cta` judges the phase taken (its UB clauses and bar.red's
// results), and a phase left open when nothing can move is judged the same way.
#include <algorithm>
#include <array>
#include <bit>
#include <climits>
#include <map>

#include "model/eval.hpp"
#include "programs/machine.hpp"
#include "programs/machine_detail.hpp"
#include "spec/cta.hpp"

namespace warpspec::programs::detail {
namespace {

// One formed warp arrival: its warp, which of its arrivals (0 the first), and the index in the
// phase of the arrival that completed it.
struct WarpArrival {
  unsigned warp, nth;
  std::size_t formed_at;
};

// The lanes of each warp that have not exited (live_lanes): read once per look at the barriers,
// as no thread exits while barriers complete.
struct LiveLanes {
  std::array<uint32_t, 32> warp{};
  explicit LiveLanes(const Machine& m) {
    for (unsigned w = 0; w * kWarp < m.threads.size(); ++w) warp[w] = live_lanes(m, w);
  }
  bool has(unsigned t) const { return (warp[t / kWarp] >> (t % kWarp) & 1) != 0; }
};

// Per thread, its arrivals in an open phase; per warp, how many arrivals the phase holds formed:
// how many every live thread of it has made (the fewest), or where none is live, the most any
// thread made. (Taken on every settle for every open phase: the counts stay on the stack.)
struct FormedCounts {
  std::array<uint16_t, 1024> made;
  std::array<unsigned, 32> whole;
  unsigned total = 0;
};

void count_formed(const Machine& m, const std::vector<Arrival>& ph, const LiveLanes& live,
                  FormedCounts& c) {
  const auto n = static_cast<unsigned>(m.threads.size());
  const unsigned warps = (n + kWarp - 1) / kWarp;
  std::fill_n(c.made.begin(), n, uint16_t{0});
  for (const auto& a : ph) ++c.made[a.thread];
  std::array<unsigned, 32> most;
  c.whole.fill(UINT_MAX);
  most.fill(0);
  for (unsigned t = 0; t < n; ++t) {
    most[t / kWarp] = std::max<unsigned>(most[t / kWarp], c.made[t]);
    if (live.has(t)) c.whole[t / kWarp] = std::min<unsigned>(c.whole[t / kWarp], c.made[t]);
  }
  c.total = 0;
  for (unsigned w = 0; w < warps; ++w) {
    if (c.whole[w] == UINT_MAX) c.whole[w] = most[w];
    c.total += c.whole[w];
  }
}

// The warp arrivals formed in the open phase `ph`, in the order they formed.
std::vector<WarpArrival> formed(const Machine& m, const std::vector<Arrival>& ph,
                                const LiveLanes& live) {
  std::vector<WarpArrival> out;
  if (ph.empty()) return out;
  FormedCounts c;
  count_formed(m, ph, live, c);
  const auto n = static_cast<unsigned>(m.threads.size());
  const unsigned warps = (n + kWarp - 1) / kWarp;
  auto& made = c.made;
  const auto& whole = c.whole;
  const unsigned total = c.total;
  if (total == 0) return out;
  // The n-th arrival of a warp forms at the phase index of the last thread's n-th arrival:
  // at[first[w] + nth], one flat table.
  std::array<unsigned, 32> first;
  for (unsigned w = 0, sum = 0; w < warps; ++w) {
    first[w] = sum;
    sum += whole[w];
  }
  std::vector<std::size_t> at(total, 0);
  std::fill_n(made.begin(), n, uint16_t{0});
  for (std::size_t i = 0; i < ph.size(); ++i) {
    const unsigned t = ph[i].thread, w = t / kWarp, nth = made[t]++;
    if (nth < whole[w]) at[first[w] + nth] = std::max(at[first[w] + nth], i);
  }
  out.reserve(total);
  for (unsigned w = 0; w < warps; ++w)
    for (unsigned nth = 0; nth < whole[w]; ++nth) out.push_back({w, nth, at[first[w] + nth]});
  std::sort(out.begin(), out.end(),
            [](const WarpArrival& a, const WarpArrival& b) { return a.formed_at < b.formed_at; });
  return out;
}

// The warp arrivals a phase of `ph` takes if it completes now; empty when it does not.
std::vector<WarpArrival> completing(const Machine& m, const std::vector<Arrival>& ph,
                                    const LiveLanes& live) {
  if (ph.empty()) return {};
  // Most calls find the phase still short, which each warp's count of arrivals tells: a warp
  // has formed at most that count over its live threads (every live thread arrives in each).
  std::array<unsigned, 32> arrivals{};
  for (const auto& a : ph) ++arrivals[a.thread / kWarp];
  const unsigned block_warps = static_cast<unsigned>((m.threads.size() + kWarp - 1) / kWarp);
  unsigned at_most = 0;
  for (unsigned w = 0; w < block_warps; ++w) {
    const auto n = static_cast<unsigned>(std::popcount(live.warp[w]));
    if (!ph.front().counted && n > 0 && arrivals[w] < n) return {};
    at_most += n > 0 ? arrivals[w] / n : arrivals[w];
  }
  if (ph.front().counted &&
      (ph.front().count == 0 || at_most < (ph.front().count + kWarp - 1) / kWarp))
    return {};
  const auto all = formed(m, ph, live);
  if (!ph.front().counted) {
    // Every warp with a live thread must have arrived; each arrives once in the phase.
    std::vector<WarpArrival> take;
    for (unsigned w = 0; w * kWarp < m.threads.size(); ++w) {
      auto it = std::find_if(all.begin(), all.end(),
                             [&](const WarpArrival& a) { return a.warp == w && a.nth == 0; });
      if (it != all.end())
        take.push_back(*it);
      else if (live.warp[w] != 0)
        return {};
    }
    return take;
  }
  const uint32_t b = ph.front().count;
  const std::size_t warps = (b + kWarp - 1) / kWarp;
  if (b == 0 || all.size() < warps) return {};
  return {all.begin(), all.begin() + static_cast<std::ptrdiff_t>(warps)};
}

// Splits `ph` into the arrivals the warp arrivals `take` consist of, and the rest.
std::vector<Arrival> take_out(std::vector<Arrival>& ph, const std::vector<WarpArrival>& take) {
  std::vector<Arrival> taken, rest;
  std::map<unsigned, unsigned> seen;  // per thread, its arrivals met so far
  for (auto& a : ph) {
    const unsigned w = a.thread / kWarp, nth = seen[a.thread]++;
    const bool in = std::any_of(take.begin(), take.end(),
                                [&](const WarpArrival& x) { return x.warp == w && x.nth == nth; });
    (in ? taken : rest).push_back(std::move(a));
  }
  ph = std::move(rest);
  return taken;
}

// The model's verdict on a phase made of `arrivals`: the block state it sees and the result.
model::CtaResult judge(const Program& p, const Launch& l, const Machine& m,
                       const std::vector<Arrival>& arrivals, const Arrival*& lead) {
  // The instruction evaluated: a bar.red's where there is one (the model's partner of bar.red
  // is bar.sync, so a phase that mixes them is judged cta.ub.red_mixed), else the first waiting
  // thread's (bar.arrive only when none waits).
  lead = &arrivals.front();
  for (const auto& a : arrivals)
    if (m.threads[a.thread]->status == Status::Waits &&
        p.code[a.pc].collective->parsed.instr.form != spec::FormId::BarArrive) {
      lead = &a;
      break;
    }
  for (const auto& a : arrivals)
    if (spec::form_info(p.code[a.pc].collective->parsed.instr.form).mode != spec::Mode::None) {
      lead = &a;  // the block barriers with a mode are bar.red's
      break;
    }
  spec::Instr instr = p.code[lead->pc].collective->parsed.instr;
  model::Cta cta = model::make_cta(l.threads);
  for (unsigned t = 0; t < l.threads; ++t) {
    cta.arrive[t] = false;
    cta.exited[t] = m.threads[t]->status == Status::Exited;
  }
  for (const auto& a : arrivals) {
    const auto& c = *p.code[a.pc].collective;
    cta.arrive[a.thread] = true;
    cta.exited[a.thread] = false;
    cta.partner[a.thread] = c.parsed.instr.form != instr.form;
    cta.bar[a.thread] = a.bar;
    cta.count[a.thread] = a.count;
    cta.pred[a.thread] = a.pred;
  }
  // Each thread's operands are in the state; the instruction keeps no immediate of its own.
  instr.imm_bar.reset();
  instr.imm_count.reset();
  return model::evaluate_cta(instr, cta, l.target);
}

std::optional<Finding> ub_of(const Program& p, const model::CtaResult& r,
                             const std::vector<Arrival>& arrivals, const Arrival* lead) {
  if (r.ub.empty()) return std::nullopt;
  // The most specific clause: "never gets through" only where nothing says why.
  const auto& u = r.ub.size() > 1 && r.ub.front().clause == spec::ClauseId::CtaUbNotReached
                      ? r.ub[1]
                      : r.ub.front();
  uint32_t pc = lead->pc;
  for (const auto& a : arrivals)
    if (a.thread == u.threads.front()) pc = a.pc;
  return finding(std::string(spec::clause_info(u.clause).key),
                 thread_ranges(u.threads) + " at " + where(p, pc) + ": " +
                     std::string(spec::clause_info(u.clause).text),
                 u.threads, {p.code[pc].loc});
}

// CUDA allows __syncthreads in conditional code only where the condition is the same in the
// whole block: then every thread meets it at one instruction. The PTX ISA asks the same of every
// .aligned barrier (all bar spellings); barrier without .aligned may be reached from different
// instructions.
std::optional<Finding> divergent(const Program& p, std::size_t k, const std::vector<Arrival>& ph) {
  if (ph.front().counted) return std::nullopt;
  if (std::all_of(ph.begin(), ph.end(), [&](const Arrival& a) { return a.pc == ph.front().pc; }))
    return std::nullopt;
  if (!any_aligned(p, ph)) return std::nullopt;
  std::map<uint32_t, std::vector<unsigned>> at;
  std::vector<unsigned> ts;
  std::vector<SourceLoc> locs;
  for (const auto& b : ph) {
    at[b.pc].push_back(b.thread);
    ts.push_back(b.thread);
  }
  std::string text = "barrier " + std::to_string(k) + " is reached by ";
  for (const auto& [pc, group] : at) {
    if (!locs.empty()) text += " and by ";
    text += thread_ranges(group) + " at " + where(p, pc);
    locs.push_back(p.code[pc].loc);
  }
  return finding(std::string(clause_key(ProgramClause::BarrierDivergent)), text, ts, locs);
}

// Completes one phase of barrier slot k, made of `taken`.
void complete(const Program& p, const Launch& l, Machine& m, std::size_t k,
              const std::vector<Arrival>& taken) {
  const Arrival* lead = nullptr;
  const auto r = judge(p, l, m, taken, lead);
  if (auto f = ub_of(p, r, taken, lead)) {
    m.stop = *f;
    return;
  }
  if (auto f = divergent(p, k, taken)) {
    m.stop = *f;
    return;
  }
  // Which warps form a counted phase depends on which arrived first, and other live threads
  // could still have come. Under independent scheduling that order is a choice (a thread stops
  // before a counted barrier, Status::AtBarrier); lockstep takes it as the threads ran.
  if (taken.front().counted && !m.stacks.empty())
    for (unsigned t = 0; t < l.threads; ++t)
      if (m.threads[t]->status != Status::Exited &&
          std::none_of(taken.begin(), taken.end(), [&](const Arrival& a) { return a.thread == t; }))
        m.one_order = true;
  // Every arrival happens before every waiting thread goes on.
  std::vector<uint32_t> joined(m.threads.size(), 0);
  for (const auto& a : taken)
    for (std::size_t i = 0; i < joined.size(); ++i) joined[i] = std::max(joined[i], (*a.clock)[i]);
  for (const auto& a : taken) {
    // A thread that arrived through bar.arrive has gone on; one that waits is released.
    if (m.threads[a.thread]->status != Status::Waits || m.threads[a.thread]->pc != a.pc ||
        p.code[a.pc].collective->parsed.instr.form == spec::FormId::BarArrive)
      continue;
    auto& th = m.threads[a.thread].mut();
    auto& clock = th.clock.mut();
    for (std::size_t i = 0; i < joined.size(); ++i) clock[i] = std::max(clock[i], joined[i]);
    clock[a.thread]++;
    const auto& c = *p.code[th.pc].collective;
    if (c.d) {
      th.regs[*c.d] = r.outcome.d[a.thread];
      forget_term(th, *c.d);
      th.undef[*c.d] = 0;
    }
    th.status = Status::Runs;
    th.path = 0;
    th.pc++;
  }
}

// Threads at bar.arrive whose warp has formed their latest arrival go on.
bool release_arrivers(const Program& p, Machine& m, const LiveLanes& live) {
  bool moved = false;
  for (std::size_t k = 0; k < m.phase.size(); ++k) {
    const auto& ph = *m.phase[k];
    if (std::none_of(ph.begin(), ph.end(), [&](const Arrival& a) {
          const auto& th = *m.threads[a.thread];
          return th.status == Status::Waits && th.pc == a.pc &&
                 p.code[a.pc].collective->parsed.instr.form == spec::FormId::BarArrive;
        }))
      continue;
    std::map<unsigned, unsigned> count, formed_n;
    for (const auto& a : ph) count[a.thread]++;
    for (const auto& w : formed(m, ph, live))
      formed_n[w.warp] = std::max(formed_n[w.warp], w.nth + 1);
    for (const auto& [t, n] : count) {
      const auto& cur = *m.threads[t];
      if (cur.status != Status::Waits || !is_block_barrier(p.code[cur.pc]) ||
          p.code[cur.pc].collective->parsed.instr.form != spec::FormId::BarArrive)
        continue;
      if (formed_n[t / kWarp] < n) continue;
      auto& th = m.threads[t].mut();
      th.status = Status::Runs;
      th.pc++;
      moved = true;
    }
  }
  return moved;
}

}  // namespace

// The PTX ISA asks a warp to reach an .aligned barrier (every bar spelling, __syncthreads)
// together: the condition that leads there must be the same in the whole warp. Threads that
// execute a warp collective (or read __activemask) while others of their warp wait at such a
// barrier may still come to it (the warp reconverges before the barrier), so they are marked as
// owing it (Thread::owes); one that exits or arrives at another barrier instead was split from
// the others by a condition that was not the same. The H100 then let the waiting threads
// through early (docs/observed-behaviour.md).
void owe_split_barrier(const Program& p, Machine& m, const std::vector<unsigned>& group) {
  const auto [lo, hi] =
      warp_threads(static_cast<unsigned>(m.threads.size()), group.front() / kWarp);
  for (unsigned t = lo; t < hi; ++t) {
    const auto& th = *m.threads[t];
    if ((th.status == Status::Waits || th.status == Status::AtBarrier) &&
        is_aligned_barrier(p.code[th.pc]) && !std::binary_search(group.begin(), group.end(), t)) {
      for (unsigned u : group)
        if (m.threads[u]->owes == kOwesNothing) m.threads[u].mut().owes = th.pc;
      return;
    }
  }
}

namespace {

Finding owed_barrier(const Program& p, const Machine& m, unsigned t, const std::string& instead) {
  const uint32_t at = m.threads[t]->owes;
  return finding(std::string(clause_key(ProgramClause::BarrierDivergent)),
                 "thread " + std::to_string(t) + " executed a warp collective while threads of " +
                     "its warp waited at " + where(p, at) +
                     ", an .aligned barrier a warp must reach together, and then " + instead,
                 {t}, {p.code[at].loc});
}

}  // namespace

void exit_owing(const Program& p, Machine& m, unsigned t) {
  if (m.threads[t]->owes != kOwesNothing && !m.stop)
    m.stop = owed_barrier(p, m, t, "exits without reaching it");
}

bool arrive_at_barrier(const Program& p, Machine& m, unsigned t) {
  auto& th = m.threads[t].mut();
  const auto& in = p.code[th.pc];
  const auto& c = *in.collective;
  if (th.owes != kOwesNothing) {
    if (th.owes != th.pc) {
      m.stop = owed_barrier(p, m, t, "arrives at " + where(p, th.pc) + " instead");
      return false;
    }
    th.owes = kOwesNothing;
  }
  const Val k = reg_or(th, c.bar, c.parsed.instr.imm_bar, 0);
  const Val n = reg_or(th, c.count, c.parsed.instr.imm_count, 0);
  const Val pred = c.a ? Val{th.regs[*c.a] != 0, th.undef[*c.a] != 0} : Val{};
  if (k.undef || n.undef || pred.undef) {
    m.stop =
        finding(std::string(clause_key(ProgramClause::UndefinedControl)),
                "a barrier operand is an undefined value at " + where(p, th.pc), {t}, {in.loc});
    return false;
  }
  // A number past the last barrier gets a phase of its own, where the model's clause for it
  // fires when the phase is judged.
  const std::size_t slot = std::min<uint64_t>(k.v, spec::kCtaBarriers);
  m.phase[slot].mut().push_back({t, th.pc, static_cast<uint32_t>(k.v), static_cast<uint32_t>(n.v),
                                 static_cast<uint32_t>(pred.v), c.parsed.instr.has_count,
                                 th.clock});
  // What the thread does after bar.arrive is not released by this arrival.
  if (c.parsed.instr.form == spec::FormId::BarArrive) th.clock.mut()[t]++;
  th.status = Status::Waits;
  return true;
}

void canonical_phases(Machine& m) {
  // An open phase with a thread count holds fewer formed warp arrivals than it needs (it
  // completes the moment it has them), so which warps it takes does not depend on the order of
  // its arrivals: sorted by thread (each thread's own arrivals in their order), states that
  // differ only in that order are one.
  auto by_thread = [](const Arrival& a, const Arrival& b) { return a.thread < b.thread; };
  for (auto& shared : m.phase) {
    const std::vector<Arrival>& ph = shared;
    if (!ph.empty() && ph.front().counted && !std::is_sorted(ph.begin(), ph.end(), by_thread)) {
      auto& sorted = shared.mut();
      std::stable_sort(sorted.begin(), sorted.end(), by_thread);
    }
  }
}

bool complete_barriers(const Program& p, const Launch& l, Machine& m) {
  // Called after every thread's run: with no arrival anywhere there is nothing to look at.
  if (std::all_of(m.phase.begin(), m.phase.end(), [](const auto& ph) { return ph->empty(); }))
    return false;
  const LiveLanes live(m);
  bool moved = release_arrivers(p, m, live);
  for (std::size_t k = 0; k < m.phase.size() && !m.stop; ++k)
    for (auto take = completing(m, m.phase[k], live); !take.empty() && !m.stop;
         take = completing(m, m.phase[k], live)) {
      complete(p, l, m, k, take_out(m.phase[k].mut(), take));
      moved = release_arrivers(p, m, live) || true;
    }
  return moved;
}

std::vector<Finding> open_phase_findings(const Program& p, const Launch& l, const Machine& m) {
  std::vector<Finding> out;
  for (std::size_t k = 0; k < m.phase.size(); ++k) {
    if (m.phase[k]->empty()) continue;
    const Arrival* lead = nullptr;
    const auto r = judge(p, l, m, m.phase[k], lead);
    if (auto f = ub_of(p, r, m.phase[k], lead)) out.push_back(*f);
  }
  return out;
}

}  // namespace warpspec::programs::detail
