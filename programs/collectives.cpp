// Warp collectives and __activemask in the step semantics: which groups of threads may execute
// together (the scheduler's choices), executing a group through the per-instruction model, and
// why threads that can never go on are stuck.
#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <set>

#include "model/eval.hpp"
#include "programs/machine.hpp"
#include "programs/machine_detail.hpp"

namespace warpspec::programs {
using namespace detail;
namespace {

// Threads meet at a warp collective when they execute the same form with the same qualifiers
// (from any instruction of the program); bar.warp.sync instructions all meet each other.
int meet_key(const Instruction& in) {
  const auto& pi = in.collective->parsed.instr;
  if (form_of(in).family == spec::Family::WarpBarrier) return -1;
  return static_cast<int>(pi.form) * 2 + (pi.negate ? 1 : 0);
}

bool waits_at_warp_collective(const Program& p, const Machine& m, unsigned t) {
  const auto& th = *m.threads[t];
  if (th.status != Status::Waits) return false;
  const auto& in = p.code[th.pc];
  return !is_block_barrier(in) && !is_activemask(in);
}

bool waits_at_block_barrier(const Program& p, const Machine& m, unsigned t) {
  const auto& th = *m.threads[t];
  return th.status == Status::Waits && is_block_barrier(p.code[th.pc]);
}

Val mask_of(const Program& p, const Thread& th) {
  const auto& c = *p.code[th.pc].collective;
  return reg_or(th, c.mask, c.parsed.instr.imm_mask, 0xffffffffu);
}

// The lanes a waiting thread's membermask names that exist and have not exited, as a mask.
uint32_t named_lanes(const Program& p, const Machine& m, unsigned t) {
  return static_cast<uint32_t>(mask_of(p, m.threads[t]).v) & live_lanes(m, t / kWarp);
}

// The same as thread numbers.
std::vector<unsigned> named(const Program& p, const Machine& m, unsigned t) {
  const unsigned base = t / kWarp * kWarp;
  std::vector<unsigned> out;
  for (uint32_t rest = named_lanes(p, m, t); rest; rest &= rest - 1)
    out.push_back(base + static_cast<unsigned>(std::countr_zero(rest)));
  return out;
}

// What the groups of one warp are built from, read once per warp and state: the lanes that exist
// and have not exited, and of the lanes waiting at a warp collective, where and with what mask.
struct WarpFacts {
  uint32_t live = 0, at_collective = 0;
  std::array<int, kWarp> key{};
  std::array<uint32_t, kWarp> pc{};
  std::array<Val, kWarp> mask{};
};

WarpFacts warp_facts(const Program& p, const Machine& m, unsigned w) {
  WarpFacts f;
  const auto [lo, hi] = warp_threads(static_cast<unsigned>(m.threads.size()), w);
  f.live = live_lanes(m, w);
  for (unsigned t = lo; t < hi; ++t) {
    const unsigned j = t - lo;
    if (!waits_at_warp_collective(p, m, t)) continue;
    f.at_collective |= uint32_t{1} << j;
    f.pc[j] = m.threads[t]->pc;
    f.key[j] = meet_key(p.code[f.pc[j]]);
    f.mask[j] = mask_of(p, m.threads[t]);
  }
  return f;
}

// The smallest group around lane `lane` (waiting at a warp collective) in which every thread's
// named threads wait at the same collective; empty when some named thread waits elsewhere, or at
// the same form at another instruction with another membermask value (the PTX ISA has a thread
// wait until the named threads have executed the instruction with the same qualifiers and the
// same membermask: a thread that passes another mask elsewhere does not release it, though it
// may come back with this one). A thread whose membermask is undefined forms a group of its own,
// whose execution reports it. The group as lanes of the warp (0: none).
uint32_t ready_group(const WarpFacts& f, unsigned lane) {
  const int key = f.key[lane];
  const Val mask = f.mask[lane];
  // Lanes, as masks: the group so far and those whose names are still to follow.
  uint32_t group = uint32_t{1} << lane, todo = group;
  while (todo) {
    const unsigned j = static_cast<unsigned>(std::countr_zero(todo));
    todo &= todo - 1;
    if (f.mask[j].undef) return j == lane ? uint32_t{1} << lane : 0;
    const uint32_t names = static_cast<uint32_t>(f.mask[j].v) & f.live;
    for (uint32_t fresh = names & ~group; fresh; fresh &= fresh - 1) {
      const unsigned u = static_cast<unsigned>(std::countr_zero(fresh));
      if (!(f.at_collective >> u & 1) || f.key[u] != key) return 0;
      // At one instruction threads meet whatever their masks, and the model judges a mismatch
      // (the H100 hangs on one: docs/observed-behaviour.md); from another instruction, only a
      // thread with the same mask releases this one.
      const Val other = f.mask[u];
      if (f.pc[u] != f.pc[lane] && !other.undef && !mask.undef && other.v != mask.v) return 0;
    }
    todo |= names & ~group;
    group |= names;
  }
  return group;
}

// The groups of `ts` (threads at one __activemask) offered: every non-empty subset when there
// are at most `limit`. Else a bounded few, chosen so that the states they lead to stay few: all
// of them together, and each set of threads that took the same branches since they last met.
std::vector<std::vector<unsigned>> groupings(const Machine& m, const std::vector<unsigned>& ts,
                                             unsigned limit, bool& bounded) {
  std::vector<std::vector<unsigned>> out;
  if (ts.size() <= limit) {
    for (uint32_t s = 1; s < (uint32_t{1} << ts.size()); ++s) {
      std::vector<unsigned> g;
      for (std::size_t k = 0; k < ts.size(); ++k)
        if (s >> k & 1) g.push_back(ts[k]);
      out.push_back(std::move(g));
    }
    return out;
  }
  bounded = true;
  out.push_back(ts);
  std::map<uint64_t, std::vector<unsigned>> by_path;
  for (unsigned t : ts) by_path[m.threads[t]->path].push_back(t);
  if (by_path.size() > 1)
    for (auto& [path, g] : by_path)
      if (g.size() > 1) out.push_back(std::move(g));
  return out;
}

}  // namespace

void detail::execute_group(const Program& p, const Launch& l, Machine& m,
                           const std::vector<unsigned>& group) {
  owe_split_barrier(p, m, group);
  const unsigned base = group.front() / kWarp * kWarp;
  const auto& lead = p.code[m.threads[group.front()]->pc];
  spec::Instr instr = lead.collective->parsed.instr;
  instr.imm_mask.reset();
  instr.imm_b.reset();
  instr.imm_c.reset();
  model::Warp w = model::make_warp();
  uint32_t undef_inputs = 0;  // lanes whose source operand is an undefined value
  std::array<uint32_t, kWarp> a_terms{}, d_terms{}, p_terms{};
  bool any_term = false;
  for (unsigned j = 0; j < kWarp; ++j) {
    const unsigned t = base + j;
    w.exec[j] = false;
    w.exited[j] = t >= m.threads.size() || m.threads[t]->status == Status::Exited;
  }
  for (unsigned t : group) {
    const auto& th = *m.threads[t];
    const auto& in = p.code[th.pc];
    const auto& c = *in.collective;
    const unsigned j = t - base;
    const Val mask = mask_of(p, th);
    if (mask.undef) {
      m.stop = finding(std::string(clause_key(ProgramClause::UndefinedControl)),
                       "the membermask is an undefined value at " + where(p, th.pc), {t}, {in.loc});
      return;
    }
    w.exec[j] = true;
    w.mask[j] = static_cast<uint32_t>(mask.v);
    w.site[j] = th.pc;
    if (c.a) {
      w.a[j] = th.regs[*c.a];
      if (th.undef[*c.a]) undef_inputs |= uint32_t{1} << j;
      if (!th.terms.empty() && th.terms[*c.a]) {
        a_terms[j] = th.terms[*c.a];
        any_term = true;
      }
    }
    const Val b = reg_or(th, c.b, c.parsed.instr.imm_b, 0),
              cc = reg_or(th, c.c, c.parsed.instr.imm_c, 0);
    if (b.undef || cc.undef) {
      m.stop = finding(std::string(clause_key(ProgramClause::UndefinedControl)),
                       "a shuffle's lane operand is an undefined value at " + where(p, th.pc), {t},
                       {in.loc});
      return;
    }
    w.b[j] = static_cast<uint32_t>(b.v);
    w.c[j] = static_cast<uint32_t>(cc.v);
  }
  const auto r = model::evaluate(instr, w, l.target);
  if (!r.availability.available) {
    m.stop = finding(std::string(clause_key(ProgramClause::Unavailable)),
                     std::string(spec::form_info(instr.form).name) + " is not available on " +
                         spec::to_string(l.target) + ": " + r.availability.reason,
                     group, {lead.loc});
    return;
  }
  // Which results an undefined source reaches (below) is worked out from the other sources'
  // values: where some of those have terms, they are pinned, and the results have none.
  if (any_term && undef_inputs != 0) {
    for (unsigned j = 0; j < kWarp; ++j)
      if (a_terms[j]) l.terms->pin(a_terms[j], w.a[j]);
    any_term = false;
  }
  if (any_term) l.terms->collective(instr, w, l.target, a_terms, r, d_terms, p_terms);
  if (!r.ub.empty()) {
    const auto& u = r.ub.front();
    std::vector<unsigned> ts;
    for (unsigned j = 0; j < kWarp; ++j)
      if (u.lanes >> j & 1) ts.push_back(base + j);
    m.stop = finding(std::string(spec::clause_info(u.clause).key),
                     thread_ranges(ts) + " at " + where(p, m.threads[ts.front()]->pc) + ": " +
                         std::string(spec::clause_info(u.clause).text),
                     ts, {p.code[m.threads[ts.front()]->pc].loc});
    return;
  }
  // Which results an undefined source reaches: the lanes whose d or p changes when those
  // sources take other values (two other values, so that a coincidence does not hide one).
  uint32_t tainted = 0;
  if (undef_inputs != 0)
    for (uint64_t flip : {uint64_t{0x5555555555555555}, ~uint64_t{0}}) {
      model::Warp other = w;
      for (unsigned j = 0; j < kWarp; ++j)
        if (undef_inputs >> j & 1) other.a[j] ^= flip;
      const auto r2 = model::evaluate(instr, other, l.target);
      for (unsigned j = 0; j < kWarp; ++j)
        if (r2.d_value(j) != r.d_value(j) || r2.outcome.p[j] != r.outcome.p[j])
          tainted |= uint32_t{1} << j;
    }
  if (form_of(lead).family == spec::Family::WarpBarrier) join_clocks(m, group, group);
  for (unsigned t : group) {
    auto& th = m.threads[t].mut();
    const auto& c = *p.code[th.pc].collective;
    const unsigned j = t - base;
    if (c.d) {
      th.regs[*c.d] = r.d_value(j);
      if (!th.terms.empty()) th.terms[*c.d] = d_terms[j];
      th.undef[*c.d] = (tainted >> j & 1) || !r.d_defined(j);
    }
    if (c.p) {
      th.regs[*c.p] = r.outcome.p[j] ? 1 : 0;
      if (!th.terms.empty()) th.terms[*c.p] = p_terms[j];
      th.undef[*c.p] = (tainted >> j & 1) || !r.defined(j);
    }
    th.status = Status::Runs;
    th.path = 0;
    th.pc++;
  }
}

namespace {

// The groups of `groups` that overlap no other, as one choice that executes each in turn
// (Choice::parts), or nothing.
std::optional<Choice> lone_groups(const std::vector<Choice>& groups) {
  Choice all{Choice::Kind::Collective, {}, {}};
  for (const auto& g : groups) {
    bool alone = true;
    for (const auto& h : groups)
      if (&h != &g)
        for (unsigned t : h.threads)
          alone = alone && !std::binary_search(g.threads.begin(), g.threads.end(), t);
    if (!alone) continue;
    all.threads.insert(all.threads.end(), g.threads.begin(), g.threads.end());
    all.parts.push_back(g.threads);
  }
  if (all.parts.empty()) return std::nullopt;
  std::sort(all.threads.begin(), all.threads.end());
  if (all.parts.size() == 1) all.parts.clear();
  return all;
}

// No live thread of threads [lo, hi) but those waiting at `pc` (an activemask) may still
// come to it: which of them read it together is a choice no other choice of the warp can
// change, and that changes no other choice (they wait there, so no collective can count on
// them), so it alone is offered: a persistent set. Without the kernel's facts: false.
bool met_by_none(const Machine& m, unsigned lo, unsigned hi, uint32_t pc) {
  if (!m.facts) return false;
  for (unsigned t = lo; t < hi; ++t) {
    const Thread& th = *m.threads[t];
    if (th.status == Status::Exited || (th.status == Status::Waits && th.pc == pc)) continue;
    if (th.pc >= m.facts->ahead.size()) continue;
    const auto& ahead = m.facts->ahead[th.pc];
    if (std::binary_search(ahead.begin(), ahead.end(), pc)) return false;
  }
  return true;
}

// The order in which groups read the activemask at `pc` may matter: a thread that has read it
// may come to it again (a loop), or it may wait at an .aligned block barrier while the groups
// after it read, which makes them owe that barrier, and they may then exit or come to another
// barrier (program.barrier_divergent). Where every path on comes to one such barrier first,
// the debt is paid there in any order.
bool order_matters(const Machine& m, uint32_t pc) {
  if (pc + 1 >= m.facts->ahead.size()) return false;
  const auto& ahead = m.facts->ahead[pc + 1];
  return std::binary_search(ahead.begin(), ahead.end(), pc) ||
         m.facts->barriers_next[pc + 1].size() > 1;
}

// Every partition of `ts` into groups, each group ascending, groups by their first thread.
std::vector<std::vector<std::vector<unsigned>>> partitions(const std::vector<unsigned>& ts) {
  std::vector<std::vector<std::vector<unsigned>>> out;
  std::vector<std::vector<unsigned>> parts;
  auto place = [&](auto& self, std::size_t k) -> void {
    if (k == ts.size()) {
      out.push_back(parts);
      return;
    }
    for (std::size_t g = 0; g < parts.size(); ++g) {  // by index: deeper calls add groups
      parts[g].push_back(ts[k]);
      self(self, k + 1);
      parts[g].pop_back();
    }
    parts.push_back({ts[k]});
    self(self, k + 1);
    parts.pop_back();
  };
  place(place, 0);
  return out;
}

std::string positions(const Program& p, const Machine& m, const std::vector<unsigned>& ts) {
  std::map<uint32_t, std::vector<unsigned>> at;
  for (unsigned t : ts) at[m.threads[t]->pc].push_back(t);
  std::string s;
  for (const auto& [pc, group] : at) {
    if (!s.empty()) s += "; ";
    s += thread_ranges(group) + " at " + where(p, pc);
  }
  return s;
}

}  // namespace

// The arrivals that threads standing before counted barriers can make, one group per warp and
// instruction.
std::vector<Choice> barrier_arrivals(const Machine& m) {
  std::map<std::pair<unsigned, uint32_t>, std::vector<unsigned>> groups;  // (warp, pc)
  for (unsigned t = 0; t < m.threads.size(); ++t)
    if (m.threads[t]->status == Status::AtBarrier)
      groups[{t / kWarp, m.threads[t]->pc}].push_back(t);
  std::vector<Choice> out;
  for (auto& [at, ts] : groups) out.push_back({Choice::Kind::Arrive, std::move(ts), {}});
  return out;
}

// Choices of different warps commute (their threads are disjoint, memory between
// synchronisations is race-checked, and a barrier without a count completes the same whichever
// warp came first), so only the first warp with a choice is offered: a persistent set. Arrivals
// at barriers with a thread count do not commute with each other (which warps fill a phase
// depends on their order), but every other choice commutes with them (it neither adds to a
// phase nor reads one), so they are offered, all of them, once nothing else is left; the
// explorer offers them sooner where the other choices only cycle or end their paths
// (explore.cpp). Within the first warp, the ready groups that overlap no other group simply
// execute, one after another. Waiting could only let a thread that arrives later join one, and
// such a thread names members whose masks do not name it: undefined behaviour whether it joins
// (the masks mismatch) or not (it waits for threads that have gone on), so no verdict is lost,
// only which of the two findings is shown. Then an __activemask that no other thread of the warp
// can still come to is offered alone (met_by_none), as whole partitions where the groups' order
// decides nothing (order_matters).
std::vector<Choice> choices(const Program& p, const Machine& m, unsigned activemask_limit,
                            bool& bounded, bool reduce) {
  if (m.stop) return {};
  if (!m.stacks.empty()) return lockstep_choices(m);
  std::vector<Choice> all;
  for (unsigned w = 0; w * kWarp < m.threads.size(); ++w) {
    const auto [lo, hi] = warp_threads(static_cast<unsigned>(m.threads.size()), w);
    std::vector<Choice> out;
    std::vector<uint32_t> seen;  // the groups offered, as lane masks
    std::map<uint32_t, std::vector<unsigned>> at_activemask;
    const WarpFacts facts = warp_facts(p, m, w);
    for (unsigned t = lo; t < hi; ++t) {
      const auto& th = *m.threads[t];
      if (th.status != Status::Waits) continue;
      const auto& in = p.code[th.pc];
      if (is_activemask(in)) {
        at_activemask[th.pc].push_back(t);
      } else if (!is_block_barrier(in)) {
        const uint32_t lanes = ready_group(facts, t - lo);
        if (lanes != 0 && std::find(seen.begin(), seen.end(), lanes) == seen.end()) {
          seen.push_back(lanes);
          out.push_back({Choice::Kind::Collective, threads_of(w, lanes), {}});
        }
      }
    }
    if (reduce) {
      if (auto lone = lone_groups(out)) return {std::move(*lone)};
      for (const auto& [pc, ts] : at_activemask)
        if (met_by_none(m, lo, hi, pc)) {
          std::vector<Choice> here;
          // Partitions outnumber single groups quickly (Bell(6) = 203, Bell(10) = 115,975
          // against 1,023 groups): past six threads one state would queue too many children.
          constexpr std::size_t kMostPartitioned = 6;
          if (ts.size() <= std::min<std::size_t>(activemask_limit, kMostPartitioned) &&
              !order_matters(m, pc)) {
            for (auto& parts : partitions(ts))
              here.push_back({Choice::Kind::Activemask, ts, std::move(parts)});
            return here;
          }
          for (auto& g : groupings(m, ts, activemask_limit, bounded))
            here.push_back({Choice::Kind::Activemask, std::move(g), {}});
          return here;
        }
    }
    for (const auto& [pc, ts] : at_activemask)
      for (auto& g : groupings(m, ts, activemask_limit, bounded))
        out.push_back({Choice::Kind::Activemask, std::move(g), {}});
    if (reduce && !out.empty()) return out;
    all.insert(all.end(), out.begin(), out.end());
  }
  for (auto& a : barrier_arrivals(m)) all.push_back(std::move(a));
  return all;
}

namespace {

// `group`, standing at one activemask, reads it together.
void read_activemask(const Program& p, Machine& m, const std::vector<unsigned>& group) {
  owe_split_barrier(p, m, group);
  uint32_t together = 0;
  for (unsigned t : group) together |= uint32_t{1} << (t % kWarp);
  for (unsigned t : group) {
    auto& th = m.threads[t].mut();
    const auto& col = *p.code[th.pc].collective;
    if (col.d) {
      th.regs[*col.d] = together;
      forget_term(th, *col.d);
      th.undef[*col.d] = 0;
    }
    th.status = Status::Runs;
    th.path = 0;
    th.pc++;
  }
}

}  // namespace

void apply(const Program& p, const Launch& l, Machine& m, const Choice& c) {
  if (c.kind == Choice::Kind::PathOrder) {
    order_paths(m, c);
  } else if (c.kind == Choice::Kind::Arrive) {
    for (unsigned t : c.threads)
      if (!m.stop) arrive_at_barrier(p, m, t);
    canonical_phases(m);
  } else if (!c.parts.empty()) {
    // Each group in turn, the threads running on after each as after any choice: this is the
    // path of single-group choices the plain walk would take in this order.
    for (const auto& g : c.parts) {
      if (m.stop) return;
      apply(p, l, m, {c.kind, g, {}});
    }
    return;
  } else if (c.kind == Choice::Kind::Collective) {
    execute_group(p, l, m, c.threads);
  } else {
    read_activemask(p, m, c.threads);
  }
  settle(p, l, m);
}

std::vector<Finding> stuck(const Program& p, const Launch& l, const Machine& m) {
  std::vector<Finding> out;
  // Warp collectives: per warp and meeting key, who waits and for whom.
  std::map<std::pair<unsigned, int>, std::vector<unsigned>> waiting;
  for (unsigned t = 0; t < m.threads.size(); ++t)
    if (waits_at_warp_collective(p, m, t))
      waiting[{t / kWarp, meet_key(p.code[m.threads[t]->pc])}].push_back(t);
  for (const auto& [key, ts] : waiting) {
    std::set<unsigned> missing;
    for (unsigned t : ts)
      for (unsigned u : named(p, m, t))
        if (!std::binary_search(ts.begin(), ts.end(), u) ||
            meet_key(p.code[m.threads[u]->pc]) != key.second)
          missing.insert(u);
    std::vector<unsigned> gone(missing.begin(), missing.end());
    // The per-instruction model names the clause: run it on the threads that are there.
    std::string clause(clause_key(ProgramClause::CollectivePeerElsewhere));
    Machine probe = m;
    execute_group(p, l, probe, ts);
    if (probe.stop && probe.stop->key.rfind("program.", 0) != 0) clause = probe.stop->key;
    std::vector<SourceLoc> locs{p.code[m.threads[ts.front()]->pc].loc};
    out.push_back(finding(
        clause,
        "deadlock: " + positions(p, m, ts) + (ts.size() == 1 ? " waits for " : " wait for ") +
            (gone.empty() ? std::string("threads that never arrive") : positions(p, m, gone)),
        ts, locs));
  }
  // Block barriers: per barrier, who waits and who never comes.
  const auto open = open_phase_findings(p, l, m);
  for (std::size_t k = 0; k < m.phase.size(); ++k) {
    std::vector<unsigned> ts, rest;
    for (const auto& a : *m.phase[k])
      if (waits_at_block_barrier(p, m, a.thread)) ts.push_back(a.thread);
    if (ts.empty()) continue;
    for (unsigned t = 0; t < m.threads.size(); ++t) {
      const bool in_phase = std::any_of(m.phase[k]->begin(), m.phase[k]->end(),
                                        [&](const Arrival& a) { return a.thread == t; });
      if (!in_phase && m.threads[t]->status != Status::Exited) rest.push_back(t);
    }
    // Without a thread count the barrier is __syncthreads: live threads that never come mean
    // its condition was not the same across the block, which CUDA leaves undefined.
    // With one, the model may have a clause of its own (a count the block cannot reach, ...).
    // Without .aligned, threads that never come make a deadlock, not a divergent barrier.
    std::string clause(clause_key(m.phase[k]->front().counted || !any_aligned(p, m.phase[k])
                                      ? ProgramClause::BarrierNeverCompletes
                                      : ProgramClause::BarrierDivergent));
    for (const auto& f : open)
      if (f.key != spec::clause_info(spec::ClauseId::CtaUbNotReached).key &&
          std::any_of(f.threads.begin(), f.threads.end(),
                      [&](unsigned t) { return std::find(ts.begin(), ts.end(), t) != ts.end(); }))
        clause = f.key;
    out.push_back(finding(
        clause,
        "deadlock: " + positions(p, m, ts) + (ts.size() == 1 ? " waits" : " wait") +
            " at barrier " + std::to_string(k) + "; " +
            (rest.empty() ? std::string("the other threads have exited") : positions(p, m, rest)),
        ts, {p.code[m.threads[ts.front()]->pc].loc}));
  }
  return out;
}

}  // namespace warpspec::programs
