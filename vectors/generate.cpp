#include "vectors/generate.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <exception>
#include <functional>
#include <mutex>
#include <numeric>
#include <optional>
#include <set>
#include <thread>

#include "vectors/check.hpp"
#include "vectors/designs.hpp"

namespace warpspec::vectors {

namespace {

using spec::FormId;

spec::ParsedInstr parse(const std::string& text) {
  return std::get<spec::ParsedInstr>(spec::parse_instruction(text));
}

template <class T>
T pick(std::mt19937_64& rng, const std::vector<T>& xs) {
  return xs[rng() % xs.size()];
}

bool coin(std::mt19937_64& rng, double p) {
  return std::uniform_real_distribution<>(0, 1)(rng) < p;
}

// Corner values for an operand syntax.
std::vector<uint64_t> corner_pool(const spec::ValueSyntax& syn, std::mt19937_64& rng) {
  if (syn.is_pred) return {0, 1};
  if (syn.bits == 64) {
    const uint64_t base = rng() & 0xffffffffull;
    return {0,
            1,
            base,
            base | (1ull << 32),
            base | (0xffffffffull << 32),
            0x8000000000000000ull,
            0x7ff8000000000000ull,
            0x7ff8000000000001ull,
            0xffffffffffffffffull,
            rng()};
  }
  if (syn.is_float)
    return {0x00000000u, 0x80000000u,
            0x7fc00000u, 0x7fc00001u,
            0xffc00000u, 0x7f800000u,
            0xff800000u, 0x3f800000u,
            0xbf800000u, 0x40a00000u,
            0xc0a00000u, 0x00000001u,
            0x7fffffffu, static_cast<uint32_t>(rng())};
  return {0u,
          1u,
          2u,
          0x7fffffffu,
          0x80000000u,
          0xffffffffu,
          0xfffffffeu,
          0x80000000u >> 1,
          0x7fc00001u,
          static_cast<uint32_t>(rng() & 0xffff),
          static_cast<uint32_t>(rng())};
}

std::vector<uint64_t> draw_values(const spec::ValueSyntax& syn, std::mt19937_64& rng,
                                  std::size_t n) {
  auto pool = corner_pool(syn, rng);
  std::vector<uint64_t> chosen;
  const std::size_t k = pick<std::size_t>(rng, {1, 2, 2, 3, 4, 32});
  for (std::size_t i = 0; i < k; ++i) chosen.push_back(coin(rng, 0.75) ? pick(rng, pool) : rng());
  std::vector<uint64_t> out(n);
  const uint64_t width = syn.bits == 64 ? ~0ull : 0xffffffffull;
  for (auto& x : out) x = pick(rng, chosen) & width;
  if (syn.is_pred)
    for (auto& x : out) x &= 1;
  return out;
}

// A shuffle's operands: lane-distinct values half the time (so that a wrong source lane shows),
// b and c from the corners the lane arithmetic turns on (b past 31, the segment masks the
// intrinsics' widths give, odd segment masks and clamps), the same on every lane or lane by lane.
void draw_shuffle_operands(const spec::ParsedInstr& in, model::Warp& w, std::mt19937_64& rng) {
  if (coin(rng, 0.5))
    for (unsigned i = 0; i < 32; ++i)
      w.a[i] = coin(rng, 0.5) ? (0x100u * i + 0x1000u) : static_cast<uint32_t>(rng());
  // A value moved through a float register would change: signalling and quiet NaNs with
  // payloads, -0.0, a subnormal.
  if (coin(rng, 0.2))
    for (uint32_t x : {0x7f800001u, 0xff800003u, 0x7fc00005u, 0x80000000u, 0x00000003u})
      w.a[rng() % 32] = x;
  const bool up = spec::form_info(in.instr.form).mode == spec::Mode::Up;
  const auto b_pool = [&] {
    return std::vector<uint32_t>{0,  1,  2,  3,  4,  7,  8,          15,
                                 16, 17, 31, 32, 33, 63, 0xffffffffu, static_cast<uint32_t>(rng() % 32),
                                 static_cast<uint32_t>(rng())};
  };
  const auto c_pool = [&] {
    const uint32_t width = 1u << (rng() % 6);
    const uint32_t seg = (32 - width) << 8;
    return std::vector<uint32_t>{seg | (up ? 0u : 0x1fu), seg | (up ? 0u : 0x1fu),
                                 up ? 0u : 0x1fu,         seg | static_cast<uint32_t>(rng() % 32),
                                 static_cast<uint32_t>(rng() & 0x1f1f),
                                 static_cast<uint32_t>(rng())};
  };
  auto fill = [&](std::array<uint32_t, 32>& xs, const std::vector<uint32_t>& pool) {
    const auto style = rng() % 4;
    const uint32_t one = pick(rng, pool);
    for (unsigned i = 0; i < 32; ++i)
      xs[i] = style < 2 ? one : style == 2 ? pick(rng, pool) : static_cast<uint32_t>(rng() % 32);
  };
  fill(w.b, b_pool());
  fill(w.c, c_pool());
  if (coin(rng, 0.7)) w.c.fill(pick(rng, c_pool()));  // c is an immediate in most code
}

model::Cta random_cta(const spec::ParsedInstr& in, std::mt19937_64& rng, bool allow_ub) {
  const std::size_t n = pick<std::size_t>(rng, {32, 33, 64, 96, 128, 256});
  model::Cta c = model::make_cta(n);
  const double pe = pick<double>(rng, {0.0, 0.1, 0.5});
  for (std::size_t t = 0; t < n; ++t)
    if (coin(rng, pe)) {
      c.exited[t] = true;
      c.arrive[t] = false;
    }
  const auto style = rng() % 3;
  for (std::size_t t = 0; t < n; ++t) {
    const uint32_t v = pick<uint32_t>(rng, {0u, 1u, 2u, 0xffffffffu});
    c.pred[t] = style == 0 ? v : style == 1 ? 1u : (coin(rng, 0.9) ? 1u : v);
  }
  if (allow_ub && coin(rng, 0.2)) {
    const std::size_t t = rng() % n;
    c.exited[t] = false;
    c.arrive[t] = false;
  }
  if (!in.instr.has_count && in.instr.imm_bar) return c;
  // A named barrier: each warp arrives, arrives through the partner form, or is elsewhere; its
  // barrier number and count registers mostly agree with a count its arrivals fill.
  const std::size_t warps = (n + 31) / 32;
  const bool red = spec::form_info(in.instr.form).mode != spec::Mode::None;
  std::vector<int> role(warps);
  std::vector<bool> partner(warps), second(warps);
  std::size_t arriving = 0;
  for (std::size_t w = 0; w < warps; ++w) {
    role[w] = static_cast<int>(pick<uint32_t>(rng, {0u, 0u, 1u, 2u}));
    partner[w] = role[w] == 1 && coin(rng, red ? 0.1 : 0.8);
    second[w] = coin(rng, 0.05);  // at barrier 2 instead of 1
    if (role[w] != 2) ++arriving;
  }
  const uint32_t fit = static_cast<uint32_t>(32 * std::max<std::size_t>(arriving, 1));
  const uint32_t count = allow_ub && coin(rng, 0.2)
                             ? pick<uint32_t>(rng, {0u, 48u, fit + 32, 2048u})
                             : pick<uint32_t>(rng, {fit, fit, 32u});
  const bool bad_bar = allow_ub && coin(rng, 0.02);
  for (std::size_t t = 0; t < n; ++t) {
    const std::size_t w = t / 32;
    if (role[w] == 2 && !c.exited[t]) c.arrive[t] = false;
    c.partner[t] = partner[w];
    c.bar[t] = bad_bar ? 16u : second[w] ? 2u : 1u;
    c.count[t] = count;
  }
  return c;
}

model::Warp random_warp(const spec::ParsedInstr& in, std::mt19937_64& rng, bool allow_ub) {
  model::Warp w = model::make_warp(0);
  // Split the warp into groups; each group's executing lanes pass the group's lanes as mask.
  std::array<int, 32> group{};
  group.fill(-1);
  const auto style = rng() % 6;
  if (style == 0) {
    group.fill(0);
  } else if (style == 1) {
    const unsigned lo = rng() % 32, hi = lo + rng() % (32 - lo);
    for (unsigned i = lo; i <= hi; ++i) group[i] = 0;
  } else if (style == 2) {
    for (auto& g : group) g = coin(rng, 0.6) ? 0 : -1;
  } else if (style == 3) {
    group[rng() % 32] = 0;
  } else {
    const int groups = style == 4 ? 2 : 3;
    for (auto& g : group) g = coin(rng, 0.85) ? static_cast<int>(rng() % groups) : -1;
  }
  std::array<uint32_t, 4> masks{};
  for (unsigned i = 0; i < 32; ++i)
    if (group[i] >= 0) masks[group[i]] |= 1u << i;
  const double pe = pick<double>(rng, {0.0, 0.0, 0.15, 0.4});
  for (unsigned i = 0; i < 32; ++i) {
    const bool exited = group[i] >= 0 ? coin(rng, pe) : coin(rng, 0.3);
    model::set_status(w, i,
                      exited          ? model::LaneStatus::Exited
                      : group[i] >= 0 ? model::LaneStatus::Executes
                                      : model::LaneStatus::Inactive);
    w.mask[i] = group[i] >= 0 ? masks[group[i]] : static_cast<uint32_t>(rng());
  }
  const auto syn = spec::value_syntax(in);
  if (!syn.none) {
    auto vals = draw_values(syn, rng, 32);
    for (unsigned i = 0; i < 32; ++i) w.a[i] = vals[i];
  }
  if (spec::has_operands_bc(in.instr.form)) draw_shuffle_operands(in, w, rng);
  if (coin(rng, 0.15))
    for (auto& s : w.site) s = coin(rng, 0.5) ? 1 : 0;
  if (allow_ub && coin(rng, 0.25)) {
    std::vector<unsigned> execs;
    for (unsigned i = 0; i < 32; ++i)
      if (model::status(w, i) == model::LaneStatus::Executes) execs.push_back(i);
    if (!execs.empty()) {
      const unsigned i = pick(rng, execs);
      switch (rng() % 3) {
        case 0:
          w.mask[i] &= ~(1u << i);
          break;
        case 1: {
          const unsigned j = pick(rng, execs);
          if (j != i)
            model::set_status(w, j, model::LaneStatus::Inactive);
          else
            w.mask[i] |= 1u << ((i + 1) % 32);
          break;
        }
        default:
          w.mask[i] ^= 1u << ((i + 1 + rng() % 31) % 32);
          break;
      }
    }
  }
  return w;
}

// Boundary designs: states that the random draws reach only rarely.
std::vector<std::vector<Round>> boundary(const spec::ParsedInstr& in) {
  std::vector<std::vector<Round>> out;
  const auto& f = spec::form_info(in.instr.form);
  if (f.family == spec::Family::CtaBarrier) {
    // Two barriers in a row; the second one's threads are all false (catches carried state).
    model::Cta a = model::make_cta(64), b = model::make_cta(64);
    for (auto& p : a.pred) p = 1;
    a.exited[63] = b.exited[63] = true;
    a.arrive[63] = b.arrive[63] = false;
    a.pred[63] = 0;
    b.pred[63] = 1;  // an exited thread's last predicate must not count
    out.push_back({Round{{}, a}, Round{{}, b}});
    model::Cta c = model::make_cta(32);
    for (auto& p : c.pred) p = 2;
    c.pred[0] = 1;
    out.push_back({Round{{}, c}});
    // A named barrier: the designs of every count and number rule (vectors/designs.cpp).
    if (in.instr.has_count || !in.instr.imm_bar)
      for (auto& d : cover_designs(in)) out.push_back(std::move(d));
    return out;
  }
  auto warp = [](uint32_t mask, auto value) {
    model::Warp w = model::make_warp(mask);
    for (unsigned i = 0; i < 32; ++i) {
      w.a[i] = value(i);
      if (!((mask >> i) & 1u)) model::set_status(w, i, model::LaneStatus::Inactive);
    }
    return w;
  };
  // Two groups side by side, each with its own mask, holding the same values.
  model::Warp two = warp(0xffffffffu, [](unsigned i) { return uint64_t{i % 3 == 0}; });
  for (unsigned i = 0; i < 32; ++i) two.mask[i] = i < 16 ? 0x0000ffffu : 0xffff0000u;
  out.push_back({Round{two, {}}});
  // The worked example.
  out.push_back(
      {Round{warp(0xffffffffu, [](unsigned i) { return uint64_t{i > 1 ? 6u : 5u}; }), {}}});
  // Exited lanes inside the mask holding other values.
  model::Warp ex = warp(0xffffffffu, [](unsigned i) { return uint64_t{i >= 28 ? 0u : 1u}; });
  for (unsigned i = 28; i < 32; ++i) model::set_status(ex, i, model::LaneStatus::Exited);
  out.push_back({Round{ex, {}}});
  // The same elections twice: a membermask must elect the same lane again.
  if (f.family == spec::Family::Elect) out.push_back({Round{two, {}}, Round{two, {}}});
  if (f.mode == spec::Mode::Ballot) {
    // Everyone votes true with the full mask, then half the warp votes with its own mask.
    model::Warp first = warp(0xffffffffu, [](unsigned) { return uint64_t{1}; });
    model::Warp second = warp(0x0000ffffu, [](unsigned i) { return uint64_t{i % 2}; });
    out.push_back({Round{first, {}}, Round{second, {}}});
  }
  return out;
}

struct Candidate {
  Vector v;
  std::vector<Expected> e;
  std::set<std::pair<int, int>> covers;  // (kind 0 mutant / 1 ub clause, id)
};

// The clauses a vector covers, given what it kills: the violated clauses of those mutants, the
// UB clauses that fire, and clauses a vector can only exercise.
std::vector<spec::ClauseId> clauses_from(const Vector& v, const std::vector<Expected>& e,
                                         const std::vector<MutantId>& killed) {
  std::set<spec::ClauseId> out;
  for (auto m : killed) out.insert(violated_clause(m, v.instr.instr.form));
  for (const auto& r : e)
    for (const auto& u : r.ub) out.insert(u.first);
  // .uni cannot observe the negation (it computes the same either way): a negated .uni vector
  // on which some lane executes exercises the clause without a mutant to kill.
  bool executes = false;
  for (const auto& r : e)
    for (auto x : r.executes) executes = executes || x;
  if (v.instr.instr.negate && v.instr.instr.form == FormId::VoteUni && !has_ub(e) && executes)
    out.insert(spec::ClauseId::VoteNegate);
  // A clause that leaves d alone undefined is exercised by a defined round on which it does:
  // an implementation must still give p there, and may give any d.
  if (!has_ub(e))
    for (const auto& r : e)
      for (std::size_t i = 0; i < r.defined.size(); ++i)
        if (r.defined[i] && !r.d_defined[i]) out.insert(spec::ClauseId::ShflSourceUndefined);
  return {out.begin(), out.end()};
}

Candidate make_candidate(Vector v, spec::Target t, spec::PtxVersion p) {
  Candidate c{std::move(v), {}, {}};
  c.e = expected(c.v, t, p);
  std::vector<MutantId> killed;
  for (const auto& m : mutants())
    if (kills(m.id, c.v, c.e, t, p)) {
      killed.push_back(m.id);
      c.covers.insert({0, static_cast<int>(m.id)});
    }
  for (auto clause : clauses_from(c.v, c.e, killed)) c.covers.insert({1, static_cast<int>(clause)});
  return c;
}

Vector make_vector(const spec::ParsedInstr& in, std::vector<Round> rounds, std::string source) {
  Vector v;
  v.instr = in;
  v.rounds = std::move(rounds);
  // A form without a membermask (activemask) reads none, and its vector lines carry none.
  if (spec::is_warp_form(in.instr.form) && !spec::has_membermask(in.instr.form))
    for (auto& r : v.rounds) r.warp.mask.fill(0);
  v.source = std::move(source);
  return v;
}

std::vector<Round> random_rounds(const spec::ParsedInstr& in, std::mt19937_64& rng, bool allow_ub) {
  const auto& f = spec::form_info(in.instr.form);
  const bool stateful = f.mode == spec::Mode::Ballot ||
                        (f.family == spec::Family::CtaBarrier && f.mode != spec::Mode::None);
  std::vector<Round> rounds{random_round(in, rng, allow_ub)};
  if (stateful && coin(rng, 0.4)) rounds.push_back(random_round(in, rng, false));
  return rounds;
}

// Makes a vector smaller while `keep` holds: lanes leave the instruction (and every mask), then
// call sites and the operands no lane can read become 0. The smallest state that still shows a
// bug is the one a reader of the report can follow. The operands of executing and exited lanes
// stay as they were: 0 is the identity or the absorbing value of most operations, and operands
// zeroed to fit one bug would hide others (an exited lane read as 0, a mask ignored where the
// other group holds 0).
Vector shrink(const Vector& v, const std::function<bool(const Vector&)>& keep) {
  if (v.is_cta()) return v;
  Vector cur = v;
  auto attempt = [&](auto&& change) {
    Vector t = cur;
    if (!change(t) || !keep(t)) return false;
    cur = std::move(t);
    return true;
  };
  for (bool progress = true; progress;) {
    progress = false;
    for (std::size_t k = 0; k < cur.rounds.size(); ++k)
      for (unsigned i = 0; i < 32; ++i)
        progress |= attempt([&](Vector& t) {
          auto& w = t.rounds[k].warp;
          if (model::status(w, i) == model::LaneStatus::Inactive && w.mask[i] == 0 &&
              w.a[i] == 0 && w.b[i] == 0 && w.c[i] == 0)
            return false;
          model::set_status(w, i, model::LaneStatus::Inactive);
          for (auto& m : w.mask) m &= ~(1u << i);
          w.mask[i] = 0;
          w.a[i] = 0;
          w.site[i] = 0;
          w.b[i] = 0;
          w.c[i] = 0;
          return true;
        });
    for (std::size_t k = 0; k < cur.rounds.size(); ++k)
      for (unsigned i = 0; i < 32; ++i)
        progress |= attempt([&](Vector& t) {
          auto& w = t.rounds[k].warp;
          const bool read = model::status(w, i) != model::LaneStatus::Inactive;
          if ((read || w.a[i] == 0) && w.site[i] == 0) return false;
          if (!read) w.a[i] = 0;
          w.site[i] = 0;
          return true;
        });
  }
  return cur;
}

std::set<int> coverpoint_set(const Vector& v, const std::vector<Expected>& e, spec::Target t,
                             spec::PtxVersion p) {
  std::set<int> out;
  for (auto c : coverpoints_hit(v, e, t, p)) out.insert(static_cast<int>(c));
  return out;
}

using InstrFilter = std::function<bool(const spec::ParsedInstr&)>;

// __syncthreads' spelling of a block barrier: barrier 0 written as a number, no thread count.
bool plain_spelling(const spec::ParsedInstr& in) {
  return in.instr.imm_bar == 0u && !in.instr.has_count;
}

// The coverpoint cover: the form's reachable coverpoints that the vectors kept so far leave are
// searched among the candidates of the first cover, the coverpoint designs and, for what those
// miss too, seeded random states of a stream of their own (so that the first cover does not
// depend on this one). Greedy again: most new coverpoints first, then the smallest vector, each
// shrunk while it keeps the coverpoints it was chosen for.
void cover_coverpoints(FormId form, const std::vector<Candidate>& pool, std::vector<Vector>& chosen,
                       std::vector<Vector>& chosen_ub, const GenOptions& opt,
                       const InstrFilter& keep) {
  const auto t = opt.target;
  const auto p = opt.ptx;
  std::set<int> left;
  for (const auto& target : coverpoint_targets_of(form, t)) left.insert(target.second);
  for (const auto* list : {&chosen, &chosen_ub})
    for (const auto& v : *list)
      if (v.instr.instr.form == form && keep(v.instr))
        for (auto c : coverpoint_set(v, expected(v, t, p), t, p)) left.erase(c);
  if (left.empty()) return;
  struct Point {
    Vector v;
    std::vector<Expected> e;
    std::set<int> hits;
  };
  std::vector<Point> cands;
  std::set<int> reached;
  auto add = [&](Vector v, std::vector<Expected> e) {
    auto h = coverpoint_set(v, e, t, p);
    bool useful = false;
    for (auto c : h)
      if (left.count(c)) {
        useful = true;
        reached.insert(c);
      }
    if (useful) cands.push_back({std::move(v), std::move(e), std::move(h)});
  };
  auto ins = cover_instructions(form);
  std::erase_if(ins, [&](const spec::ParsedInstr& in) { return !keep(in); });
  for (const auto& c : pool)
    if (keep(c.v.instr)) add(c.v, c.e);
  for (const auto& in : ins)
    for (auto& rounds : cover_designs(in)) {
      auto v = make_vector(in, std::move(rounds), "boundary");
      auto e = expected(v, t, p);
      add(std::move(v), std::move(e));
    }
  std::mt19937_64 rng(opt.seed * 0xbf58476d1ce4e5b9ull + static_cast<uint64_t>(form) + 1);
  for (const int id : left) {
    if (reached.count(id)) continue;
    for (int tries = 0; tries < 4000 && !reached.count(id); ++tries) {
      const auto& in = ins[rng() % ins.size()];
      std::vector<Round> rounds{random_round(in, rng, true)};
      if (coin(rng, 0.3)) rounds.push_back(random_round(in, rng, false));
      auto v = make_vector(in, std::move(rounds), "random");
      auto e = expected(v, t, p);
      add(std::move(v), std::move(e));
    }
  }
  while (!left.empty()) {
    const Point* best = nullptr;
    std::size_t best_gain = 0;
    for (const auto& c : cands) {
      std::size_t gain = 0;
      for (auto h : c.hits) gain += left.count(h);
      if (gain > best_gain ||
          (gain == best_gain && gain > 0 && vector_size(c.v) < vector_size(best->v))) {
        best = &c;
        best_gain = gain;
      }
    }
    if (!best) break;
    std::set<int> gained;
    for (auto h : best->hits)
      if (left.erase(h)) gained.insert(h);
    auto small = shrink(best->v, [&](const Vector& x) {
      const auto h = coverpoint_set(x, expected(x, t, p), t, p);
      return std::includes(h.begin(), h.end(), gained.begin(), gained.end());
    });
    (has_ub(best->e) ? chosen_ub : chosen).push_back(std::move(small));
  }
}

}  // namespace

namespace {

// The membermasks of two or more lanes over which defined lanes of `v` hold an election.
std::set<uint32_t> election_masks(const Vector& v, spec::Target t, spec::PtxVersion p) {
  std::set<uint32_t> out;
  for (const auto& r : expected(v, t, p))
    for (std::size_t i = 0; i < r.defined.size(); ++i)
      if (r.defined[i] && std::popcount(r.choice[i]) >= 2) out.insert(r.choice[i]);
  return out;
}

// A membermask must elect the same lane however the instruction is spelled, and `check` compares
// elections across the whole file: so the suite's `d|p` and `_|p` vectors must elect over one
// common membermask of two or more lanes. Where the cover left them apart, the first `d|p` vector
// that holds such an election is added again, spelled `_|p`.
void share_election_masks(FormId form, std::vector<Vector>& chosen, const GenOptions& opt) {
  std::set<uint32_t> with_d, without_d;
  std::optional<Vector> first;
  for (const auto& v : chosen) {
    if (v.instr.instr.form != form) continue;
    const auto masks = election_masks(v, opt.target, opt.ptx);
    (v.instr.instr.write_d ? with_d : without_d).insert(masks.begin(), masks.end());
    if (v.instr.instr.write_d && !masks.empty() && !first) first = v;
  }
  for (auto m : with_d)
    if (without_d.count(m)) return;
  if (!first) return;
  for (const auto& in : instructions_for(form))
    if (!in.instr.write_d) {
      first->instr = in;
      first->source = "boundary";
      chosen.push_back(*first);
      return;
    }
}

}  // namespace

Round random_round(const spec::ParsedInstr& in, std::mt19937_64& rng, bool allow_ub) {
  if (!spec::is_warp_form(in.instr.form)) return Round{{}, random_cta(in, rng, allow_ub)};
  return Round{random_warp(in, rng, allow_ub), {}};
}

std::vector<spec::ParsedInstr> instructions_for(FormId form) {
  const auto& f = spec::form_info(form);
  const std::string name(f.name);
  switch (f.family) {
    case spec::Family::Match:
      return {parse(name + (f.optional_p ? " d|p, a, m;" : " d, a, m;"))};
    case spec::Family::Vote:
      return {parse(name + " d, a, m;"), parse(name + " d, !a, m;")};
    case spec::Family::Redux:
      return {parse(name + " d, a, m;")};
    case spec::Family::WarpBarrier:
      return {parse(name + " m;")};
    case spec::Family::Activemask:
      return {parse(name + " d;")};
    case spec::Family::Shfl:
      return {parse(name + " d|p, a, b, c, m;")};
    case spec::Family::Elect:
      return {parse(name + " d|p, m;"), parse(name + " _|p, m;")};
    case spec::Family::CtaBarrier: {
      // __syncthreads' spelling (not for bar.arrive, which needs a count), a named barrier with
      // an immediate count, and both operands from registers.
      const std::string d = f.mode == spec::Mode::None ? " " : " d, ";
      const std::string a = f.mode == spec::Mode::None ? ";" : ", a;";
      std::vector<spec::ParsedInstr> out;
      if (form != FormId::BarArrive) out.push_back(parse(name + d + "0" + a));
      out.push_back(parse(name + d + "1, 64" + a));
      out.push_back(parse(name + d + "%bar, %count" + a));
      return out;
    }
  }
  return {};
}

// Every clause of the form counts, but the sm_6x clauses only on sm_6x targets.
std::set<CoverTarget> targets_of(FormId form, spec::Target t) {
  std::set<CoverTarget> out;
  for (const auto& in : instructions_for(form))
    for (const auto& m : mutants())
      if (applies(m.id, in)) out.insert({0, static_cast<int>(m.id)});
  for (auto c : spec::form_info(form).clauses) {
    const bool sm6x = c == spec::ClauseId::VoteUbSm6xConvergence ||
                      c == spec::ClauseId::SyncwarpUbSm6xConvergence ||
                      c == spec::ClauseId::ShflUbSm6xConvergence;
    if (!sm6x || spec::is_pre_volta(t)) out.insert({1, static_cast<int>(c)});
  }
  if (spec::is_pre_volta(t)) {
    // Before Volta an exited lane named in a __syncwarp mask already breaks the union rule, so
    // "exited lanes need not arrive" cannot be observed without undefined behaviour.
    out.erase({1, static_cast<int>(spec::ClauseId::SyncwarpExitedOk)});
    out.erase({0, static_cast<int>(MutantId::SyncwarpWaitsForExited)});
  }
  return out;
}

std::set<CoverTarget> coverpoint_targets_of(FormId form, spec::Target t) {
  std::set<CoverTarget> out;
  for (const auto& c : coverpoints_of(form, t))
    if (c.unreachable.empty()) out.insert({kTargetCoverpoint, static_cast<int>(c.id)});
  return out;
}

std::set<CoverTarget> covers_of(const Vector& v, spec::Target t, spec::PtxVersion p) {
  return make_candidate(v, t, p).covers;
}

Vector shrink_keeping(const Vector& v, const std::set<CoverTarget>& need, spec::Target t,
                      spec::PtxVersion p) {
  return shrink(v, [&](const Vector& x) {
    const auto c = make_candidate(x, t, p);
    return std::includes(c.covers.begin(), c.covers.end(), need.begin(), need.end());
  });
}

std::vector<spec::ClauseId> covered_clauses(const Vector& v, spec::Target t, spec::PtxVersion p) {
  const auto e = expected(v, t, p);
  std::vector<MutantId> killed;
  for (const auto& m : mutants())
    if (kills(m.id, v, e, t, p)) killed.push_back(m.id);
  return clauses_from(v, e, killed);
}

std::map<FormId, FormCoverage> coverage_of(const std::vector<Vector>& vectors, spec::Target t,
                                           spec::PtxVersion p) {
  std::map<FormId, FormCoverage> cov;
  for (const auto& v : vectors) {
    auto& fc = cov[v.instr.instr.form];
    ++fc.vectors;
    const auto e = expected(v, t, p);
    for (const auto& m : mutants())
      if (kills(m.id, v, e, t, p) &&
          std::find(fc.killed.begin(), fc.killed.end(), m.id) == fc.killed.end())
        fc.killed.push_back(m.id);
    for (auto c : covered_clauses(v, t, p))
      if (std::find(fc.covered.begin(), fc.covered.end(), c) == fc.covered.end())
        fc.covered.push_back(c);
    for (auto c : coverpoints_hit(v, e, t, p))
      if (std::find(fc.hit.begin(), fc.hit.end(), c) == fc.hit.end()) fc.hit.push_back(c);
  }
  for (auto& [form, fc] : cov) {
    const auto targets = targets_of(form, t);
    for (auto c : spec::form_info(form).clauses)
      if (targets.count({1, static_cast<int>(c)})) fc.clauses.push_back(c);
    for (const auto& [kind, id] : targets)
      if (kind == 0) fc.mutants.push_back(static_cast<MutantId>(id));
    // Only what can be observed on this target counts as covered.
    std::erase_if(fc.covered, [&](spec::ClauseId c) {
      return !targets.count({1, static_cast<int>(c)});
    });
    std::erase_if(fc.killed, [&](MutantId m) { return !targets.count({0, static_cast<int>(m)}); });
    std::sort(fc.killed.begin(), fc.killed.end());
    std::sort(fc.covered.begin(), fc.covered.end());
    for (const auto& c : coverpoints_of(form, t))
      (c.unreachable.empty() ? fc.coverpoints.push_back(c.id) : fc.unreachable.push_back(c));
    // A coverpoint that cannot be hit on the target is not counted, even where a vector shows
    // the situation (it would be undefined there).
    const auto& listed = fc.coverpoints;  // clang 14 cannot capture a structured binding
    std::erase_if(fc.hit, [&](CoverpointId c) {
      return std::find(listed.begin(), listed.end(), c) == listed.end();
    });
    std::sort(fc.hit.begin(), fc.hit.end());
  }
  return cov;
}

Suite generate(const GenOptions& opt) {
  Suite suite{{}, {}, opt.target, opt.ptx, opt.seed};
  std::vector<FormId> forms = opt.forms;
  if (forms.empty())
    for (const auto& f : spec::kForms)
      if (spec::check_availability(f.avail, opt.target, opt.ptx).available) forms.push_back(f.id);

  // Witness queries are independent per form (each builds its own solver state): run them on
  // every core. What each form gets does not depend on the order they finish in.
  std::vector<std::vector<Vector>> witnessed(forms.size());
  if (opt.witnesses && !forms.empty()) {
    // The block barriers' searches are the longest by far (5 to 15 s each, a warp form's under
    // one): started first, they do not leave one worker alone at the end.
    std::vector<std::size_t> order(forms.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_partition(order.begin(), order.end(),
                          [&](std::size_t k) { return !spec::is_warp_form(forms[k]); });
    std::size_t finished = 0;
    std::atomic<std::size_t> next{0};
    // After a failure no new form starts; the failure of the first form in order is reported,
    // whatever the order the workers met them in.
    std::size_t failed_at = forms.size();
    std::exception_ptr failure;
    std::mutex m;
    auto worker = [&] {
      for (std::size_t n; (n = next.fetch_add(1)) < forms.size();) {
        const std::size_t k = order[n];
        try {
          witnessed[k] = opt.witnesses(forms[k], opt.target, opt.ptx);
          std::lock_guard<std::mutex> lock(m);
          if (opt.on_witnessed) opt.on_witnessed(forms[k], ++finished, forms.size());
        } catch (...) {
          std::lock_guard<std::mutex> lock(m);
          if (k < failed_at) {
            failed_at = k;
            failure = std::current_exception();
          }
          next.store(forms.size());
        }
      }
    };
    const std::size_t n =
        std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, forms.size());
    {
      std::vector<std::jthread> threads;  // joined when this block ends, however it ends
      try {
        for (std::size_t k = 1; k < n; ++k) threads.emplace_back(worker);
      } catch (...) {
        // No thread to spare: the workers that started, and this one, do the rest.
      }
      worker();
    }
    if (failure) std::rethrow_exception(failure);
  }
  std::vector<Vector> chosen, chosen_ub, extra;
  for (std::size_t fi = 0; fi < forms.size(); ++fi) {
    const FormId form = forms[fi];
    // One generator per form, so a form's vectors do not depend on which other forms were asked.
    std::mt19937_64 rng(opt.seed * 0x9e3779b97f4a7c15ull + static_cast<uint64_t>(form) + 1);
    auto targets = targets_of(form, opt.target);
    std::vector<Candidate> pool;
    if (opt.witnesses)
      for (auto& v : witnessed[fi]) {
        v.source = "witness";
        pool.push_back(make_candidate(std::move(v), opt.target, opt.ptx));
      }
    const std::size_t witnesses = pool.size();  // pool[0, witnesses) came from the source
    for (const auto& in : instructions_for(form)) {
      for (auto& rounds : boundary(in))
        pool.push_back(make_candidate(make_vector(in, rounds, "boundary"), opt.target, opt.ptx));
      for (std::size_t k = 0; k < opt.pool; ++k)
        pool.push_back(make_candidate(make_vector(in, random_rounds(in, rng, true), "random"),
                                      opt.target, opt.ptx));
    }
    // An implementation of __syncthreads alone (the plain spelling: barrier 0, no count) must
    // meet the whole suite's power on its own: for the block barriers the selection runs first
    // over the plain spelling, then over every spelling for what that leaves.
    const auto all_ins = instructions_for(form);
    std::vector<InstrFilter> passes;
    if (!spec::is_warp_form(form) && plain_spelling(all_ins.front()))
      passes.push_back(plain_spelling);
    passes.push_back([](const spec::ParsedInstr&) { return true; });
    // One large vector per mutant that the mutant alone explains; a candidate that is the
    // largest for several mutants (or in both passes) is kept once.
    std::vector<Vector> telling;
    std::set<const Candidate*> told;
    for (const auto& keep : passes) {
      std::vector<spec::ParsedInstr> ins;
      for (const auto& in : all_ins)
        if (keep(in)) ins.push_back(in);
      auto usable = [&](const Candidate& c) { return keep(c.v.instr); };
      // Targets no candidate reaches get a longer search of their own; in the plain spelling's
      // pass only the last pass searches (many targets there need a count or a register).
      std::set<std::pair<int, int>> reached;
      for (const auto& c : pool)
        if (usable(c)) reached.insert(c.covers.begin(), c.covers.end());
      const bool last_pass = &keep == &passes.back();
      for (const auto& target : targets) {
        if (reached.count(target) || !last_pass) continue;
        for (int tries = 0; tries < 4000; ++tries) {
          const auto& in = ins[rng() % ins.size()];
          auto c = make_candidate(make_vector(in, random_rounds(in, rng, true), "random"),
                                  opt.target, opt.ptx);
          if (c.covers.count(target)) {
            reached.insert(c.covers.begin(), c.covers.end());
            pool.push_back(std::move(c));
            break;
          }
        }
      }
      // Greedy cover: the candidate covering most uncovered targets, then the smallest one; first
      // among the witnesses, then among every candidate for what they leave.
      std::set<std::pair<int, int>> left;
      for (const auto& t : targets)
        if (reached.count(t)) left.insert(t);
      for (const std::size_t limit : {witnesses, pool.size()})
        while (!left.empty()) {
          const Candidate* best = nullptr;
          std::size_t best_gain = 0;
          for (std::size_t ci = 0; ci < limit; ++ci) {
            const auto& c = pool[ci];
            if (!usable(c)) continue;
            std::size_t gain = 0;
            for (const auto& t : c.covers) gain += left.count(t);
            if (gain > best_gain ||
                (gain == best_gain && gain > 0 && vector_size(c.v) < vector_size(best->v))) {
              best = &c;
              best_gain = gain;
            }
          }
          if (!best) break;
          for (const auto& t : best->covers) left.erase(t);
          (has_ub(best->e) ? chosen_ub : chosen)
              .push_back(shrink_keeping(best->v, best->covers, opt.target, opt.ptx));
        }
      // Diagnosis: every mutant also gets a vector that it alone (of the catalog) explains, when
      // the pool has one, so `check` can name the bug rather than a set of suspects.
      for (const auto& [kind, id] : targets) {
        if (kind != 0) continue;
        const auto m = static_cast<MutantId>(id);
        bool applies_here = false;
        for (const auto& in : ins) applies_here = applies_here || applies(m, in);
        if (!applies_here) continue;
        auto unique = [&](const Vector& v) {
          auto why = explain_failure(v, run_mutant(m, v, opt.target, opt.ptx), opt.target, opt.ptx);
          return why.size() == 1 && why[0] == m;
        };
        // The smallest such state shows the bug to a reader; a large one, left as drawn, is
        // what tells the bug from a near one (a per-half compare beside a low-word compare, bit
        // 0 beside a bitwise AND), which a two-lane state often cannot.
        // Largest first, so that the (costly) question of who else explains it stops early.
        std::vector<const Candidate*> big;
        for (const auto& c : pool)
          if (usable(c) && c.covers.count({0, id}) && !has_ub(c.e)) big.push_back(&c);
        std::stable_sort(big.begin(), big.end(), [](const Candidate* a, const Candidate* b) {
          return vector_size(a->v) > vector_size(b->v);
        });
        const Candidate* largest = nullptr;
        for (const auto* c : big)
          if (unique(c->v)) {
            largest = c;
            break;
          }
        bool have = false;
        for (const auto* list : {&chosen, &chosen_ub})
          for (const auto& v : *list)
            if (!have && v.instr.instr.form == form && keep(v.instr) &&
                kills(m, v, expected(v, opt.target, opt.ptx), opt.target, opt.ptx) && unique(v))
              have = true;
        if (largest && told.insert(largest).second) telling.push_back(largest->v);
        if (have) continue;
        const Candidate* best = nullptr;
        for (const auto& c : pool)
          if (usable(c) && c.covers.count({0, id}) &&
              (!best || vector_size(c.v) < vector_size(best->v)) && unique(c.v))
            best = &c;
        if (!best) continue;
        const auto need = best->covers;
        auto small = shrink(best->v, [&](const Vector& v) {
          const auto c = make_candidate(v, opt.target, opt.ptx);
          return std::includes(c.covers.begin(), c.covers.end(), need.begin(), need.end()) &&
                 unique(v);
        });
        (has_ub(best->e) ? chosen_ub : chosen).push_back(std::move(small));
      }
      cover_coverpoints(form, pool, chosen, chosen_ub, opt, keep);
    }
    // Added after the covers, so that they take no vector's place there.
    chosen.insert(chosen.end(), telling.begin(), telling.end());
    if (spec::has_chosen_leader(form)) share_election_masks(form, chosen, opt);
    if (opt.boundary)
      for (const auto& in : instructions_for(form))
        for (auto& rounds : boundary(in)) extra.push_back(make_vector(in, rounds, "boundary"));
    for (std::size_t k = 0; k < opt.random_count; ++k) {
      const auto ins = instructions_for(form);
      const auto& in = ins[rng() % ins.size()];
      extra.push_back(make_vector(in, random_rounds(in, rng, true), "random"));
    }
  }
  // Defined vectors first, UB vectors kept apart at the end.
  std::vector<Vector> extra_ub;
  for (auto& v : extra) {
    const bool ub = has_ub(expected(v, opt.target, opt.ptx));
    (ub ? extra_ub : chosen).push_back(std::move(v));
  }
  chosen.insert(chosen.end(), chosen_ub.begin(), chosen_ub.end());
  chosen.insert(chosen.end(), extra_ub.begin(), extra_ub.end());
  uint64_t id = 1;
  for (auto& v : chosen) {
    v.id = id++;
    v.clauses = covered_clauses(v, opt.target, opt.ptx);
  }
  suite.vectors = std::move(chosen);
  suite.coverage = coverage_of(suite.vectors, opt.target, opt.ptx);
  return suite;
}

}  // namespace warpspec::vectors
