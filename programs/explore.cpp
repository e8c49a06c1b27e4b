#include "programs/explore.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "programs/cfg.hpp"
#include "programs/machine_detail.hpp"

namespace warpspec::programs {
namespace {

// The choices on the way to a node, shared with its siblings: a path costs one link per
// node, not one copy of the whole path per node.
struct PathLink {
  Choice choice;
  std::shared_ptr<const PathLink> parent;
};

std::vector<Choice> path_of(const std::shared_ptr<const PathLink>& last) {
  std::vector<Choice> out;
  for (const PathLink* l = last.get(); l; l = l->parent.get()) out.push_back(l->choice);
  std::reverse(out.begin(), out.end());
  return out;
}

struct Node {
  Machine m;
  std::shared_ptr<const PathLink> path;
  bool widened = false;  // reached through the other warps' choices after a finding
  uint64_t digest = 0;   // of m, taken once
};

// About how many bytes a queued state holds: what bounds the frontier (ExploreOptions::
// max_frontier_bytes). The access logs' read lists grow and shrink; they are counted as found.
std::size_t approx_bytes(const Machine& m) {
  std::size_t n = sizeof(Node) + sizeof(PathLink);
  for (const Thread& t : m.threads)
    n += sizeof(Thread) + t.regs.capacity() * sizeof(uint64_t) + t.undef.capacity() +
         t.clock->capacity() * sizeof(uint32_t);
  for (const Buffer& b : m.buffers) {
    n += sizeof(Buffer) + b.bytes.capacity() + b.undef.capacity() + b.log.size() * sizeof(LogPage);
    for (const LogPage& page : b.log)
      for (const auto& a : page.at) n += a.reads.capacity() * sizeof(Epoch);
  }
  for (const std::vector<Arrival>& ph : m.phase)
    for (const auto& a : ph) n += sizeof(Arrival) + a.clock->capacity() * sizeof(uint32_t);
  for (const auto& s : m.stacks) n += s.capacity() * sizeof(PathEntry);
  return n;
}

// How far on the threads are: each step that takes no branch back adds to it (an instruction
// run, an arrival at a barrier), and only a branch back takes from it.
uint64_t progress(const Program& p, const Machine& m) {
  uint64_t sum = 0;
  for (const Thread& t : m.threads) {
    const uint64_t pc = t.status == Status::Exited ? p.code.size() : t.pc;
    sum += 2 * pc + (t.status == Status::AtBarrier ? 0 : 1);
  }
  return sum;
}

PathEnd end_of(const Program& p, const Launch& l, const ExploreOptions& o, const Machine& m) {
  PathEnd e;
  for (uint32_t r : o.registers) {
    std::vector<std::optional<uint64_t>> per_thread;
    for (const Thread& th : m.threads)
      per_thread.push_back(th.undef[r] ? std::nullopt : std::optional<uint64_t>(th.regs[r]));
    e.registers.push_back(std::move(per_thread));
  }
  if (m.stop) {
    e.kind = m.stop->key == clause_key(ProgramClause::DataRace)   ? PathEnd::Kind::Race
             : m.stop->key == clause_key(ProgramClause::RunsAway) ? PathEnd::Kind::GaveUp
                                                                  : PathEnd::Kind::Undefined;
    e.findings.push_back(*m.stop);
  } else if (std::any_of(m.threads.begin(), m.threads.end(),
                         [](const Thread& t) { return t.status != Status::Exited; })) {
    e.kind = PathEnd::Kind::Deadlock;
    e.findings = stuck(p, l, m);
  } else if (auto open = detail::open_phase_findings(p, l, m); !open.empty()) {
    // Every thread has finished, and a barrier phase is left that the model calls undefined
    // (a thread count of zero, one the block cannot reach, ...).
    e.kind = PathEnd::Kind::Undefined;
    e.findings = std::move(open);
  }
  std::size_t buf = 1;
  for (const auto& par : l.params) {
    std::vector<uint32_t> w;
    std::vector<uint8_t> u;
    if (par.is_buffer) {
      const Buffer& b = m.buffers[buf++];
      for (std::size_t i = 0; i + 4 <= b.bytes.size(); i += 4) {
        uint32_t v = 0;
        bool undef = false;
        for (unsigned k = 0; k < 4; ++k) {
          v |= uint32_t{b.bytes[i + k]} << (8 * k);
          undef = undef || b.undef[i + k];
        }
        w.push_back(v);
        u.push_back(undef);
      }
    }
    e.words.push_back(std::move(w));
    e.undefined.push_back(std::move(u));
    // A buffer whose bytes are all known again reads as one that never held a term.
    const auto& t = par.is_buffer ? m.buffers[buf - 1]->terms : std::vector<uint32_t>{};
    const bool any = std::any_of(t.begin(), t.end(), [](uint32_t x) { return x != 0; });
    e.terms.push_back(any ? t : std::vector<uint32_t>{});
  }
  return e;
}

bool same_end(const PathEnd& a, const PathEnd& b) {
  if (a.kind != b.kind || a.words != b.words || a.undefined != b.undefined ||
      a.registers != b.registers || a.terms != b.terms)
    return false;
  if (a.findings.size() != b.findings.size()) return false;
  for (std::size_t k = 0; k < a.findings.size(); ++k)
    if (a.findings[k].key != b.findings[k].key || a.findings[k].text != b.findings[k].text)
      return false;
  return true;
}

// Groups the threads whose traces are the same, each trace as runs of consecutive
// instructions, and says where each thread ended.
std::vector<ThreadTrace> group_traces(
    const Program& p, const Machine& m,
    const std::vector<std::vector<std::pair<uint32_t, uint32_t>>>& all_runs) {
  std::map<std::pair<std::vector<std::pair<uint32_t, uint32_t>>, std::string>,
           std::vector<unsigned>>
      groups;
  for (unsigned t = 0; t < all_runs.size(); ++t) {
    auto runs = all_runs[t];
    const bool cut = runs.size() > detail::kTraceRuns;
    if (cut) runs.pop_back();  // the empty run that marks the cut
    const auto& th = *m.threads[t];
    std::string end = th.status == Status::Exited      ? "exits"
                      : th.status == Status::Waits     ? "waits at " + detail::where(p, th.pc)
                      : th.status == Status::AtBarrier ? "stands before " + detail::where(p, th.pc)
                                                       : "stops at " + detail::where(p, th.pc);
    if (cut) end = "(trace cut after " + std::to_string(detail::kTraceRuns) + " runs) " + end;
    groups[{runs, std::move(end)}].push_back(t);
  }
  std::vector<ThreadTrace> out;
  for (auto& [key, ts] : groups) out.push_back({std::move(ts), key.first, key.second});
  std::sort(out.begin(), out.end(), [](const ThreadTrace& a, const ThreadTrace& b) {
    return a.threads.front() < b.threads.front();
  });
  return out;
}

// Runs `path` again from the start to tell its steps, and for an outcome with a finding each
// thread's trace. (Nothing to run for a path without choices and without a finding.)
void replay(const Program& p, const Launch& l, const std::vector<Choice>& path, uint64_t end,
            PathEnd& e, const std::shared_ptr<const KernelFacts>& facts) {
  const bool traced = !e.findings.empty();
  if (path.empty() && !traced) return;
  Machine m = start(p, l);
  m.facts = facts;
  if (traced)
    m.trace = std::make_shared<std::vector<std::vector<std::pair<uint32_t, uint32_t>>>>(l.threads);
  settle(p, l, m);
  for (const auto& c : path) {
    e.schedule.push_back(describe(p, m, c));
    apply(p, l, m, c);
  }
  // The schedule shown must be one that leads to the end it is shown for.
  if (digest(m) != end)
    throw std::logic_error("replaying the schedule of an outcome of " + p.name +
                           " did not reach the state the walk ended in");
  if (traced) e.trace = group_traces(p, m, *m.trace);
}

// A hash of what `same_end` compares, so that an end is compared with the outcomes that may
// be the same only (a walk may find tens of thousands of outcomes).
uint64_t end_hash(const PathEnd& e) {
  auto bytes = [](const auto& v) {
    return std::hash<std::string_view>{}(
        {reinterpret_cast<const char*>(v.data()), v.size() * sizeof(v[0])});
  };
  uint64_t h = static_cast<uint64_t>(e.kind);
  auto mix = [&](uint64_t v) { h = (h ^ v) * 0x9e3779b97f4a7c15ull; };
  for (const auto& w : e.words) mix(bytes(w));
  for (const auto& u : e.undefined) mix(bytes(u));
  for (const auto& t : e.terms) mix(bytes(t));
  for (const auto& per_thread : e.registers)
    for (const auto& r : per_thread) mix(r ? *r : 0x5bd1e995ull);
  for (const auto& f : e.findings) mix(std::hash<std::string>{}(f.key + f.text));
  return h;
}

// Counts the end `e`; returns true when it is an outcome not seen before. `index` holds each
// outcome's position under its end_hash.
bool record(const Program& p, const Launch& l, Exploration& x,
            std::unordered_multimap<uint64_t, std::size_t>& index, PathEnd e,
            const std::shared_ptr<const PathLink>& path, uint64_t end,
            const std::shared_ptr<const KernelFacts>& facts) {
  const uint64_t h = end_hash(e);
  for (auto [it, last] = index.equal_range(h); it != last; ++it)
    if (auto& o = x.outcomes[it->second]; same_end(o, e)) {
      o.paths++;
      return false;
    }
  index.emplace(h, x.outcomes.size());
  e.paths = 1;
  replay(p, l, path_of(path), end, e, facts);
  x.outcomes.push_back(std::move(e));
  return true;
}

}  // namespace

std::string_view kind_name(PathEnd::Kind k) {
  switch (k) {
    case PathEnd::Kind::Completed:
      return "completed";
    case PathEnd::Kind::Deadlock:
      return "deadlock";
    case PathEnd::Kind::Undefined:
      return "undefined";
    case PathEnd::Kind::Race:
      return "race";
    case PathEnd::Kind::GaveUp:
      return "gave up";
  }
  return "";
}

bool Exploration::any(PathEnd::Kind k) const {
  return std::any_of(outcomes.begin(), outcomes.end(),
                     [&](const PathEnd& e) { return e.kind == k; });
}

bool Exploration::any_undefined() const {
  for (const auto& o : outcomes)
    for (const auto& f : o.findings)
      if (is_undefined(f.key)) return true;
  return false;
}

bool Exploration::any_finding(std::string_view key) const {
  for (const auto& o : outcomes)
    for (const auto& f : o.findings)
      if (f.key == key) return true;
  return false;
}

Exploration explore(const Program& p, const Launch& l, const ExploreOptions& o) {
  Exploration x;
  std::unordered_multimap<uint64_t, std::size_t> index;  // outcomes by end_hash
  Node root{start(p, l), nullptr, false};
  // Under independent scheduling each thread's state is its own: states that differ only in
  // registers no later step reads are one state. (Lockstep paths keep pcs of their own.) The
  // plain walk, the reference the reductions are tested against, tells every state apart.
  if (!root.m.reconverge && o.reduce) {
    KernelFacts f;
    f.live = live_registers(p, o.registers);
    f.ahead = instructions_ahead(p, detail::is_activemask);
    // Only where a thread stands after reading an __activemask is it asked for.
    f.barriers_next.resize(p.code.size() + 1);
    for (uint32_t pc = 0; pc < p.code.size(); ++pc)
      if (detail::is_activemask(p.code[pc]))
        f.barriers_next[pc + 1] = first_reached(p, pc + 1, detail::is_aligned_barrier);
    root.m.facts = std::make_shared<const KernelFacts>(std::move(f));
  }
  const auto root_facts = root.m.facts;
  settle(p, l, root.m);
  root.digest = digest(root.m);
  x.steps = root.m.steps;
  // Breadth first, so that the first path found to each outcome is a shortest one, while the
  // frontier fits its budget; depth first beyond it (the newest state next), which keeps the
  // frontier to about the length of a path times the choices at each step.
  const std::size_t node_bytes = approx_bytes(root.m);
  const std::size_t budget = std::max<std::size_t>(1, o.max_frontier_bytes / node_bytes);
  std::deque<Node> queue;
  queue.push_back(std::move(root));
  std::unordered_set<uint64_t> seen;
  bool bounded = false, one_order = false, strong_order = false;
  while (!queue.empty()) {
    const bool deep = o.depth_first || queue.size() > budget / 2;
    x.shortest = x.shortest && !deep;
    Node n = std::move(deep ? queue.back() : queue.front());
    if (deep)
      queue.pop_back();
    else
      queue.pop_front();
    if (!seen.insert(n.digest).second) continue;
    if (++x.states % 1000 == 0 && o.progress) o.progress(x.states);
    one_order = one_order || n.m.one_order;
    strong_order = strong_order || n.m.strong_order;
    const auto cs = choices(p, n.m, o.activemask_limit, bounded, o.reduce);
    if (cs.empty()) {
      auto e = end_of(p, l, o, n.m);
      const bool fresh = record(p, l, x, index, std::move(e), n.path, n.digest, root_facts);
      if (fresh && o.enough && o.enough(x.outcomes.back())) {
        x.complete = false;
        x.limits.push_back("stopped at the first outcome that answers the question asked");
        break;
      }
      continue;
    }
    if (x.states >= o.max_states) {
      x.complete = false;
      x.limits.push_back("stopped after " + std::to_string(x.states) +
                         " states (--max-states); the outcomes below are those found so far");
      break;
    }
    std::vector<Node> next;
    auto follow = [&](const Choice& c, bool widened) {
      Node child{n.m, std::make_shared<const PathLink>(PathLink{c, n.path}), widened};
      apply(p, l, child.m, c);
      child.digest = digest(child.m);
      x.steps += child.m.steps - n.m.steps;
      next.push_back(std::move(child));
    };
    for (const auto& c : cs) follow(c, n.widened);
    // A choice is offered when it is one of `cs` or a group that one of `cs` executes in turn
    // with others (Choice::parts).
    auto offered = [&](const Choice& c) {
      return std::any_of(cs.begin(), cs.end(), [&](const Choice& d) {
        return d.kind == c.kind && ((d.threads == c.threads && d.parts == c.parts) ||
                                    (c.parts.empty() && std::find(d.parts.begin(), d.parts.end(),
                                                                  c.threads) != d.parts.end()));
      });
    };
    // A path ends at its first finding. Where one of the first warp's choices ends it, the
    // other warps' choices are followed from here too, once on a path, so that what they
    // would find (a race, another clause) is not hidden behind it; arrivals at counted
    // barriers, which wait until nothing else is left, are followed then on every path.
    // Where every choice leads back to a state already seen (the threads cycle), the other
    // choices are followed too, so that the arrivals and other warps waiting behind the cycle
    // are not starved (the cycle proviso of partial-order reduction).
    const bool stops =
        std::any_of(next.begin(), next.end(), [](const Node& c) { return c.m.stop; });
    // A step that moves no thread back over a loop leaves the threads further on than it found
    // them, so it cannot close a cycle: a state whose choices all lead to states already seen,
    // each of them further on, is only where paths join.
    const bool cycles =
        std::all_of(next.begin(), next.end(),
                    [&](const Node& c) { return seen.count(c.digest); }) &&
        std::any_of(next.begin(), next.end(), [&, here = progress(p, n.m)](const Node& c) {
          return progress(p, c.m) <= here;
        });
    if (o.reduce && (stops || cycles))
      for (const auto& c : choices(p, n.m, o.activemask_limit, bounded, false))
        if (!offered(c) && (cycles || !n.widened || c.kind == Choice::Kind::Arrive))
          follow(c, n.widened || (stops && !cycles && c.kind != Choice::Kind::Arrive));
    // Depth first, the first choice is taken first: the one that keeps threads together.
    if (deep) std::reverse(next.begin(), next.end());
    for (auto& c : next) queue.push_back(std::move(c));
    if (queue.size() > budget) {
      x.complete = false;
      x.limits.push_back("the states waiting to be explored outgrew " +
                         std::to_string(o.max_frontier_bytes >> 20) +
                         " MiB even depth first; the outcomes below are those found so far");
      break;
    }
  }
  if (x.outcomes.empty() && x.limits.empty()) {
    // The walk ran out of states to visit, yet every path came back to a state already seen:
    // the threads cycle (a livelock), and no schedule that the walk followed ends.
    x.complete = false;
    x.limits.push_back(
        "no path reached an end: every choice led back to a state already seen (the threads "
        "cycle without finishing)");
  }
  if (x.any(PathEnd::Kind::GaveUp)) {
    x.complete = false;
    x.limits.push_back(
        "on some path a thread ran without reaching a synchronisation "
        "(program.runs_away): what follows on that path is not known");
  }
  if (bounded) {
    x.complete = false;
    x.limits.push_back("more than " + std::to_string(o.activemask_limit) +
                       " threads stood at one __activemask: not every grouping of them was "
                       "explored, only all together and each set that took the same branches "
                       "(--activemask-limit)");
  }
  if (strong_order) {
    x.complete = false;
    x.limits.push_back(
        "threads made volatile accesses to one location that nothing orders: not a data race, "
        "but they were taken in one order, and another order may give another result");
  }
  if (one_order) {
    x.complete = false;
    x.limits.push_back(
        "warps arrived at a barrier with a thread count in one order only (a thread spun while "
        "others stood before the barrier, or, in lockstep, a phase completed while other "
        "threads could still have come)");
  }
  return x;
}

}  // namespace warpspec::programs
