// Block states for the named barriers (bar.sync, bar.red and bar.arrive with a barrier number and
// a thread count): the main set, the leftover set and the probes. A state is planned warp by warp
// (which barrier a warp arrives at, with which count, through which form, or whether it sits
// elsewhere or has exited), then made into a record; the model checks every state before it is
// kept, so the main sets hold no UB and each probe fires the clause it is about.
#include <algorithm>
#include <bit>
#include <numeric>
#include <stdexcept>

#include "capture/generate.hpp"
#include "capture/generate_detail.hpp"
#include "model/eval.hpp"
#include "spec/cta.hpp"

namespace warpspec::capture {

namespace {
using detail::Rng;
using spec::ClauseId;
constexpr unsigned kW = spec::kWarpSize;

constexpr CtaSet kCtaSets[] = {CtaSet::Main,
                               CtaSet::Leftover,
                               CtaSet::ProbeCountNotWarpMultiple,
                               CtaSet::ProbeCountZero,
                               CtaSet::ProbeBarrierRange,
                               CtaSet::ProbeCountUnreachable,
                               CtaSet::ProbeCountMixed,
                               CtaSet::ProbeNotGathered,
                               CtaSet::ProbeTooFew,
                               CtaSet::ProbeRedPhases,
                               CtaSet::ProbeRedMixed};

/// One warp of a planned block.
struct WarpPlan {
  enum Kind : uint8_t { Arrive, Elsewhere, Exited } kind = Arrive;
  uint32_t bar = 0, count = 0;  ///< arriving warps: the a and b every thread passes
  bool partner = false;         ///< arrives through the partner form
  uint32_t exited = 0;          ///< lanes that have exited (arriving or elsewhere warps)
  uint32_t away = 0;            ///< lanes of an arriving warp that sit elsewhere (a probe)
};

/// The lanes warp `w` of an `n`-thread block has (all 32 but in a partial last warp).
uint32_t lanes_of_warp(unsigned n, unsigned w) {
  const unsigned k = std::min(kW, n - w * kW);
  return k >= kW ? ~0u : (1u << k) - 1;
}

/// A block size of `warps` warps: whole most of the time, else a partial last warp.
unsigned size_of(Rng& g, unsigned warps) {
  switch (g.below(10)) {
    case 0:
    case 1:
    case 2:
      return warps * kW - 1 - g.below(kW - 1);  // a partial last warp of 1 to 31 threads
    case 3:
      return warps * kW - (kW - 1);  // a last warp of one thread
    default:
      return warps * kW;
  }
}

/// Lanes of a warp with lanes `have` that exit: one, the lowest, the highest, a half, all but one
/// or a random half; never all of them.
uint32_t exit_pattern(Rng& g, uint32_t have) {
  uint32_t m = 0;
  switch (g.below(6)) {
    case 0:
      m = 1u << g.lane_in(have);
      break;
    case 1:
      m = have & (0u - have);
      break;
    case 2:
      m = 1u << (31 - std::countl_zero(have));
      break;
    case 3:
      m = have & (g.chance(50) ? 0x0000ffffu : 0xffff0000u);
      break;
    case 4:
      m = have & ~(1u << g.lane_in(have));
      break;
    default:
      m = g.subset(have, 50);
      break;
  }
  if (m == have) m &= ~(1u << g.lane_in(have));
  return m;
}

/// A barrier number: 0, 1 or 15 often, else any.
uint32_t barrier_number(Rng& g) {
  return g.chance(40) ? g.pick({0u, 1u, 15u}) : g.below(spec::kCtaBarriers);
}

/// Warps per phase of a count: one or two most often, up to the whole block now and then.
unsigned warps_per_phase(Rng& g) {
  switch (g.below(20)) {
    case 0:
    case 1:
    case 2:
    case 3:
    case 4:
      return 1;
    case 5:
    case 6:
    case 7:
    case 8:
      return 2;
    case 9:
    case 10:
      return 3;
    case 11:
    case 12:
      return 4;
    case 13:
    case 14:
    case 15:
      return 1 + g.below(8);
    case 16:
    case 17:
      return 1 + g.below(16);
    case 18:
      return 16;
    default:
      return 32;
  }
}

/// How many phases of its count a barrier sees: one mostly, up to six.
unsigned phases(Rng& g) {
  const unsigned x = g.below(100);
  return x < 60 ? 1 : x < 85 ? 2 : x < 95 ? 3 : 4 + g.below(3);
}

/// The warps of a plan in a random order, so that any of them may be the partial last one.
std::vector<unsigned> shuffled(Rng& g, unsigned n) {
  std::vector<unsigned> order(n);
  std::iota(order.begin(), order.end(), 0u);
  for (unsigned i = n; i > 1; --i) std::swap(order[i - 1], order[g.below(i)]);
  return order;
}

/// The text of an immediate variant with its pair written in: "bar.sync A, B;" -> "bar.sync 3,
/// 128;".
std::string with_immediates(std::string_view text, uint32_t a, uint32_t b) {
  std::string s(text);
  const auto at = s.find("A, B");
  if (at == std::string::npos) throw std::logic_error("no 'A, B' in " + s);
  return s.replace(at, 4, std::to_string(a) + ", " + std::to_string(b));
}

/// The record of a planned block of `n` threads. Operands of threads that do not arrive are
/// never read: half the time they hold one junk word, to show that.
CtaRecord block_of(Rng& g, const Variant& v, unsigned n, const std::vector<WarpPlan>& plan) {
  CtaRecord r;
  detail::set_invocation(r, v);
  r.exited.assign(n, false);
  r.elsewhere.assign(n, false);
  r.partner.assign(n, false);
  r.pred.assign(n, 0);
  r.d.assign(n, 0);
  const bool reg_a = v.operands != NamedOperands::Immediates;
  const bool reg_b = v.operands == NamedOperands::Registers;
  if (reg_a) r.bar.assign(n, 0);
  if (reg_b) r.count.assign(n, 0);
  const uint32_t junk = g.chance(50) ? g.u32() : 0;
  for (unsigned t = 0; t < n; ++t) {
    const WarpPlan& p = plan[t / kW];
    const unsigned i = t % kW;
    const bool ex = p.kind == WarpPlan::Exited || ((p.exited >> i) & 1u);
    const bool away = !ex && (p.kind == WarpPlan::Elsewhere || ((p.away >> i) & 1u));
    r.exited[t] = ex;
    r.elsewhere[t] = away;
    r.partner[t] = !ex && !away && p.partner;
    const bool arrives = !ex && !away;
    if (reg_a) r.bar[t] = arrives ? p.bar : junk;
    if (reg_b) r.count[t] = arrives ? p.count : junk;
  }
  if (v.operands == NamedOperands::Immediates) {
    uint32_t a = 0, b = 0;
    for (const auto& p : plan)
      if (p.kind == WarpPlan::Arrive) a = p.bar, b = p.count;
    r.instr = with_immediates(v.text, a, b);
  }
  return r;
}

bool reduces(const Variant& v) {
  return spec::form_info(v.form).mode != spec::Mode::None;
}

/// The predicates of a bar.red state; returns the style ("" for the other forms).
std::string fill_preds(Rng& g, const Variant& v, CtaRecord& r) {
  return reduces(v) ? detail::fill_block_preds(g, r.pred) : "";
}

/// Flags of a plan for the tag: "+partners", "+elsewhere", "+exited-warps", "+exited-in-warp",
/// "+partial".
std::string plan_flags(unsigned n, const std::vector<WarpPlan>& plan) {
  bool partners = false, away = false, gone = false, inside = false;
  for (const auto& p : plan) {
    partners = partners || (p.kind == WarpPlan::Arrive && p.partner);
    away = away || p.kind == WarpPlan::Elsewhere;
    gone = gone || p.kind == WarpPlan::Exited;
    inside = inside || (p.kind == WarpPlan::Arrive && p.exited);
  }
  std::string s;
  if (partners) s += "+partners";
  if (away) s += "+elsewhere";
  if (gone) s += "+exited-warps";
  if (inside) s += "+exited-in-warp";
  if (n % kW) s += "+partial";
  return s;
}

/// Exits lanes inside one to three arriving warps, and now and then inside warps elsewhere.
void exit_inside(Rng& g, unsigned n, std::vector<WarpPlan>& plan) {
  std::vector<unsigned> arriving;
  for (unsigned w = 0; w < plan.size(); ++w)
    if (plan[w].kind == WarpPlan::Arrive) arriving.push_back(w);
  if (!arriving.empty() && g.chance(45))
    for (unsigned k = 0, m = 1 + g.below(3); k < m; ++k) {
      const unsigned w = arriving[g.below(static_cast<unsigned>(arriving.size()))];
      plan[w].exited |= exit_pattern(g, lanes_of_warp(n, w) & ~plan[w].exited);
    }
  for (unsigned w = 0; w < plan.size(); ++w)
    if (plan[w].kind == WarpPlan::Elsewhere && g.chance(20))
      plan[w].exited = exit_pattern(g, lanes_of_warp(n, w));
}

// ---------------------------------------------------------------- the main set

/// bar.sync a / bar.red d, a, c: every non-exited thread of the block at one barrier.
CtaRecord whole_block_state(Rng& g, const Variant& v) {
  const unsigned warps = g.chance(60) ? 1 + g.below(4) : 1 + g.below(32);
  const unsigned n = size_of(g, warps);
  const uint32_t k = barrier_number(g);
  std::vector<WarpPlan> plan(warps);
  for (auto& p : plan) p.bar = k;
  if (warps > 1 && g.chance(25))
    for (unsigned w = 0, m = 1 + g.below(warps - 1); w < m; ++w)
      plan[g.below(warps)].kind = WarpPlan::Exited;
  if (std::none_of(plan.begin(), plan.end(),
                   [](const WarpPlan& p) { return p.kind == WarpPlan::Arrive; }))
    plan[g.below(warps)].kind = WarpPlan::Arrive;
  exit_inside(g, n, plan);
  CtaRecord r = block_of(g, v, n, plan);
  const std::string style = fill_preds(g, v, r);
  r.tag = std::to_string(n) + "/block-at-" + std::to_string(k) + plan_flags(n, plan) +
          (style.empty() ? "" : "/" + style);
  return r;
}

/// A barrier of a plan: its number, warps per phase of its count, and phases.
struct BarPlan {
  uint32_t k;
  unsigned m, p;
};

/// One or two barriers with counts (immediate variants: one pair of kNamedImmediates), whole
/// phases of arrivals at each, partner warps, warps elsewhere or exited, exited threads inside
/// arriving warps, partial last warps.
CtaRecord counted_state(Rng& g, const Variant& v) {
  const bool red = reduces(v);
  std::vector<BarPlan> bars;
  if (v.operands == NamedOperands::Immediates) {
    const auto imm = g.pick(kNamedImmediates);
    bars.push_back({imm.a, imm.b / kW, red ? 1u : phases(g)});
  } else {
    const uint32_t k = barrier_number(g);
    bars.push_back({k, warps_per_phase(g), red ? 1u : phases(g)});
    if (g.chance(30)) {
      const uint32_t k2 = (k + 1 + g.below(spec::kCtaBarriers - 1)) % spec::kCtaBarriers;
      bars.push_back({k2, warps_per_phase(g), red ? 1u : phases(g)});
    }
  }
  auto arrivals = [&] {
    unsigned a = 0;
    for (const auto& b : bars) a += b.m * b.p;
    return a;
  };
  // At most 32 warps: fewer phases first, then smaller counts (an immediate count stays).
  while (arrivals() > kW) {
    auto& b = *std::max_element(bars.begin(), bars.end(), [](const BarPlan& x, const BarPlan& y) {
      return x.m * x.p < y.m * y.p;
    });
    if (b.p > 1)
      --b.p;
    else if (v.operands != NamedOperands::Immediates)
      b.m = std::max(1u, b.m / 2);
    else
      bars.pop_back();
  }
  const unsigned room = kW - arrivals();
  const unsigned extra = g.chance(45) || room == 0 ? 0 : 1 + g.below(std::min(4u, room));
  const unsigned warps = arrivals() + extra;
  const unsigned n = size_of(g, warps);
  std::vector<WarpPlan> plan(warps);
  const auto order = shuffled(g, warps);
  unsigned at = 0;
  for (const auto& b : bars)
    for (unsigned k = 0; k < b.m * b.p; ++k) {
      WarpPlan& p = plan[order[at++]];
      p.bar = b.k;
      p.count = b.m * kW;
    }
  while (at < warps) plan[order[at++]].kind = g.chance(65) ? WarpPlan::Elsewhere : WarpPlan::Exited;
  // Partners (not for bar.red, where they are UB): whole warps through the other form, and at
  // least one warp through the instruction itself.
  if (!red && g.chance(45)) {
    std::vector<unsigned> arriving;
    for (unsigned w = 0; w < warps; ++w)
      if (plan[w].kind == WarpPlan::Arrive) {
        arriving.push_back(w);
        plan[w].partner = g.chance(45);
      }
    if (std::all_of(arriving.begin(), arriving.end(), [&](unsigned w) { return plan[w].partner; }))
      plan[arriving[g.below(static_cast<unsigned>(arriving.size()))]].partner = false;
  }
  exit_inside(g, n, plan);
  CtaRecord r = block_of(g, v, n, plan);
  const std::string style = fill_preds(g, v, r);
  std::string counts;
  for (const auto& b : bars)
    counts += (counts.empty() ? "" : "+") + std::string("a") + std::to_string(b.k) + "-b" +
              std::to_string(b.m * kW) + "x" + std::to_string(b.p);
  r.tag = std::to_string(n) + "/" + (bars.size() > 1 ? "two-bars" : "one-bar") +
          plan_flags(n, plan) + "/" + counts + (style.empty() ? "" : "/" + style);
  return r;
}

/// bar.arrive alone: the arrivals are no whole number of phases of the count, so the barrier is
/// left part-filled; no thread waits, so every one comes back.
CtaRecord leftover_state(Rng& g, const Variant& v) {
  const unsigned m = 2 + g.below(7);
  unsigned a = 1 + g.below(std::min(3 * m, kW));
  if (a % m == 0) a = a > 1 ? a - 1 : 1;
  const unsigned extra = g.chance(50) ? 0 : g.below(std::min(3u, kW - a) + 1);
  const unsigned warps = std::max(a + extra, m);  // the count stays reachable
  const unsigned n = size_of(g, warps);
  const uint32_t k = barrier_number(g);
  std::vector<WarpPlan> plan(warps);
  const auto order = shuffled(g, warps);
  for (unsigned i = 0; i < warps; ++i) {
    WarpPlan& p = plan[order[i]];
    if (i < a) {
      p.bar = k;
      p.count = m * kW;
    } else {
      p.kind = g.chance(65) ? WarpPlan::Elsewhere : WarpPlan::Exited;
    }
  }
  exit_inside(g, n, plan);
  CtaRecord r = block_of(g, v, n, plan);
  r.tag = std::to_string(n) + "/leftover" + plan_flags(n, plan) + "/a" + std::to_string(k) + "-b" +
          std::to_string(m * kW) + "-arrivals" + std::to_string(a * kW);
  return r;
}

// ---------------------------------------------------------------- probes

/// A probe's block: `arriving` warps at barrier `k` with count `b`, then `extra` warps elsewhere,
/// in a random order; a partner warp where `partner` asks for one (never all of them).
std::vector<WarpPlan> probe_plan(Rng& g, unsigned arriving, unsigned extra, uint32_t k, uint32_t b,
                                 bool partner, std::vector<unsigned>* arrive_at = nullptr) {
  const unsigned warps = arriving + extra;
  std::vector<WarpPlan> plan(warps);
  const auto order = shuffled(g, warps);
  for (unsigned i = 0; i < warps; ++i) {
    WarpPlan& p = plan[order[i]];
    if (i < arriving) {
      p.bar = k;
      p.count = b;
    } else {
      p.kind = WarpPlan::Elsewhere;
    }
  }
  std::vector<unsigned> at;
  for (unsigned w = 0; w < warps; ++w)
    if (plan[w].kind == WarpPlan::Arrive) at.push_back(w);
  if (partner && at.size() > 1) plan[at[g.below(static_cast<unsigned>(at.size()))]].partner = true;
  if (arrive_at) *arrive_at = at;
  return plan;
}

std::optional<CtaRecord> probe_state(Rng& g, const Variant& v, CtaSet set) {
  const bool red = reduces(v);
  const bool arrive_form = v.form == spec::FormId::BarArrive;
  // bar.arrive waits for no one: a waiting partner makes a hang possible where one is meant.
  const bool partner = !red && (arrive_form || g.chance(30));
  const uint32_t k = 1 + g.below(spec::kCtaBarriers - 1);
  std::vector<WarpPlan> plan;
  std::string shape;  // the tag's last part, where a probe has several shapes
  switch (set) {
    case CtaSet::ProbeCountNotWarpMultiple: {
      const unsigned a = 1 + g.below(4);
      const int delta = g.pick({1, -1, 16, -16, 31, -31});
      const uint32_t b = static_cast<uint32_t>(static_cast<int>(a * kW) + delta);
      const unsigned warps = std::max(a, (b + kW - 1) / kW) + g.below(2);
      plan = probe_plan(g, a, warps - a, k, b, partner);
      break;
    }
    case CtaSet::ProbeCountZero: {
      const unsigned a = 1 + g.below(3);
      plan = probe_plan(g, a, g.below(2), k, 0, partner);
      break;
    }
    case CtaSet::ProbeBarrierRange: {
      const unsigned a = 1 + g.below(3);
      const uint32_t bad = g.pick({16u, 16u, 17u, 31u, 32u, 0x100u, 0x80000000u, 0xffffffffu});
      plan = probe_plan(g, a, g.below(2), bad, a * kW, partner && !arrive_form);
      break;
    }
    case CtaSet::ProbeCountUnreachable: {
      const unsigned warps = 1 + g.below(4);
      const uint32_t b = g.chance(30) ? 1024 : (warps + 1 + g.below(3)) * kW;
      plan = probe_plan(g, warps, 0, k, b, partner);
      break;
    }
    case CtaSet::ProbeCountMixed: {
      // The lowest thread's count decides the model's reading: "first-larger" gives it the
      // whole arrival (the barrier then completes once); "first-smaller" gives it one warp (whole
      // phases of it complete; bar.red would also break red_phases, so it takes the first shape).
      const unsigned a = 2 + g.below(3);
      const bool larger = red || g.chance(50);
      plan = probe_plan(g, a, g.below(2), k, kW, partner);
      for (auto& p : plan)
        if (p.kind == WarpPlan::Arrive) {
          p.count = larger ? a * kW : kW;
          break;
        }
      if (!larger)
        for (auto it = plan.rbegin(); it != plan.rend(); ++it)
          if (it->kind == WarpPlan::Arrive) {
            it->count = a * kW;
            break;
          }
      shape = larger ? "first-larger" : "first-smaller";
      break;
    }
    case CtaSet::ProbeNotGathered: {
      const unsigned a = 1 + g.below(3);
      plan = probe_plan(g, a, g.below(2), k, a * kW, partner && a > 1);
      shape = g.chance(50) ? "elsewhere" : "split";
      break;
    }
    case CtaSet::ProbeTooFew: {
      const unsigned a = arrive_form ? 2 + g.below(2) : 1 + g.below(3);
      const uint32_t b = (a + 1 + g.below(2)) * kW;
      const unsigned warps = b / kW + g.below(2);
      plan = probe_plan(g, a, warps - a, k, b, partner);
      break;
    }
    case CtaSet::ProbeRedPhases: {
      const unsigned m = 1 + g.below(3), p = 2 + g.below(2);
      plan = probe_plan(g, m * p, g.below(2), k, m * kW, false);
      break;
    }
    case CtaSet::ProbeRedMixed: {
      const unsigned a = 2 + g.below(3);
      std::vector<unsigned> at;
      plan = probe_plan(g, a, g.below(2), k, a * kW, false, &at);
      unsigned partners = 0;
      for (unsigned w : at)
        if (g.chance(40)) plan[w].partner = true, ++partners;
      if (partners == 0) plan[at.back()].partner = true, ++partners;
      if (partners == at.size()) plan[at.front()].partner = false, --partners;
      break;
    }
    default:
      return std::nullopt;
  }
  const unsigned n = size_of(g, static_cast<unsigned>(plan.size()));
  // Not gathered: one warp through the instruction itself has some of its lanes elsewhere, or
  // naming the next barrier.
  int odd = -1;
  uint32_t lanes = 0;
  if (set == CtaSet::ProbeNotGathered) {
    std::vector<unsigned> own;
    for (unsigned w = 0; w < plan.size(); ++w)
      if (plan[w].kind == WarpPlan::Arrive && !plan[w].partner) own.push_back(w);
    odd = static_cast<int>(own[g.below(static_cast<unsigned>(own.size()))]);
    lanes = exit_pattern(g, lanes_of_warp(n, static_cast<unsigned>(odd)));
    if (!lanes) return std::nullopt;  // a warp of one thread cannot be split
    if (shape == "elsewhere") plan[odd].away = lanes;
  }
  CtaRecord r = block_of(g, v, n, plan);
  if (shape == "split")
    for (unsigned i = 0; i < kW; ++i)
      if ((lanes >> i) & 1u) r.bar[odd * kW + i] = (k + 1) % spec::kCtaBarriers;
  fill_preds(g, v, r);
  // The tag names the rule broken and the shape; the numbers are in the record itself.
  bool partners = false;
  for (const auto& p : plan) partners = partners || (p.kind == WarpPlan::Arrive && p.partner);
  r.tag = "probe/" + std::string(cta_set_name(set)).substr(6) + (shape.empty() ? "" : "/" + shape) +
          (partners && set != CtaSet::ProbeRedMixed ? "/partner" : "");
  return r;
}

/// True when the model's verdict on a state fits its set.
bool fits(const CtaRecord& r, CtaSet set) {
  const auto res = model::evaluate_cta(instr_of(r), cta_of(r));
  if (!is_cta_probe(set)) return res.ub.empty();
  bool own = false;
  for (const auto& f : res.ub) {
    if (!cta_probe_fires(set, f.clause)) return false;
    own = own || f.clause == cta_probe_clause(set);
  }
  return own;
}

}  // namespace

std::string_view cta_set_name(CtaSet s) {
  switch (s) {
    case CtaSet::Main:
      return "main";
    case CtaSet::Leftover:
      return "leftover";
    case CtaSet::ProbeCountNotWarpMultiple:
      return "probe-count-not-warp-multiple";
    case CtaSet::ProbeCountZero:
      return "probe-count-zero";
    case CtaSet::ProbeBarrierRange:
      return "probe-barrier-range";
    case CtaSet::ProbeCountUnreachable:
      return "probe-count-unreachable";
    case CtaSet::ProbeCountMixed:
      return "probe-count-mixed";
    case CtaSet::ProbeNotGathered:
      return "probe-not-gathered";
    case CtaSet::ProbeTooFew:
      return "probe-too-few";
    case CtaSet::ProbeRedPhases:
      return "probe-red-phases";
    case CtaSet::ProbeRedMixed:
      return "probe-red-mixed";
  }
  return "?";
}

std::optional<CtaSet> find_cta_set(std::string_view name) {
  for (auto s : kCtaSets)
    if (cta_set_name(s) == name) return s;
  return std::nullopt;
}

bool is_cta_probe(CtaSet s) {
  return s != CtaSet::Main && s != CtaSet::Leftover;
}

std::optional<spec::ClauseId> cta_probe_clause(CtaSet s) {
  switch (s) {
    case CtaSet::ProbeCountNotWarpMultiple:
      return ClauseId::CtaUbCountNotWarpMultiple;
    case CtaSet::ProbeCountZero:
      return ClauseId::CtaUbCountZero;
    case CtaSet::ProbeBarrierRange:
      return ClauseId::CtaUbBarrierRange;
    case CtaSet::ProbeCountUnreachable:
      return ClauseId::CtaUbCountUnreachable;
    case CtaSet::ProbeCountMixed:
      return ClauseId::CtaUbCountMixed;
    case CtaSet::ProbeNotGathered:
    case CtaSet::ProbeTooFew:
      return ClauseId::CtaUbNotReached;
    case CtaSet::ProbeRedPhases:
      return ClauseId::CtaUbRedPhases;
    case CtaSet::ProbeRedMixed:
      return ClauseId::CtaUbRedMixed;
    default:
      return std::nullopt;
  }
}

bool cta_probe_fires(CtaSet set, spec::ClauseId clause) {
  if (!is_cta_probe(set)) return false;
  // On bar.red a count of 0, or one below the arrivals, is also more phases than one.
  const bool small_count =
      set == CtaSet::ProbeCountZero || set == CtaSet::ProbeCountNotWarpMultiple;
  return clause == cta_probe_clause(set) || clause == ClauseId::CtaUbNotReached ||
         (small_count && clause == ClauseId::CtaUbRedPhases);
}

std::vector<CtaSet> cta_sets(const Variant& v) {
  std::vector<CtaSet> out{CtaSet::Main};
  if (!is_named(v)) return out;
  const bool registers = v.operands == NamedOperands::Registers;
  if (v.form == spec::FormId::BarArrive && registers) out.push_back(CtaSet::Leftover);
  if (!registers || !v.text.starts_with("bar.") || v.negate) return out;
  const bool red = reduces(v);
  if (!red || v.form == spec::FormId::BarRedPopc)
    out.insert(out.end(), {CtaSet::ProbeCountNotWarpMultiple, CtaSet::ProbeCountZero,
                           CtaSet::ProbeBarrierRange, CtaSet::ProbeCountUnreachable,
                           CtaSet::ProbeCountMixed, CtaSet::ProbeNotGathered, CtaSet::ProbeTooFew});
  if (red) out.insert(out.end(), {CtaSet::ProbeRedPhases, CtaSet::ProbeRedMixed});
  return out;
}

std::vector<CtaRecord> generate_cta_states(const Variant& v, CtaSet set, uint64_t seed,
                                           std::size_t n) {
  if (!is_named(v)) {
    if (set != CtaSet::Main) throw std::invalid_argument(std::string(v.name) + " has only main");
    return generate_cta_states(v, seed, n);
  }
  const auto sets = cta_sets(v);
  if (std::find(sets.begin(), sets.end(), set) == sets.end())
    throw std::invalid_argument(std::string(v.name) + " is not captured in " +
                                std::string(cta_set_name(set)));
  Rng g{std::mt19937_64(seed)};
  std::vector<CtaRecord> out;
  std::size_t refused = 0;
  while (out.size() < n) {
    std::optional<CtaRecord> r;
    if (set == CtaSet::Main)
      r = v.operands == NamedOperands::RegisterNoCount ? whole_block_state(g, v)
                                                       : counted_state(g, v);
    else if (set == CtaSet::Leftover)
      r = leftover_state(g, v);
    else
      r = probe_state(g, v, set);
    if (r && !hang_risk(*r) && fits(*r, set)) {
      out.push_back(std::move(*r));
      refused = 0;
    } else if (++refused > 1000) {
      throw std::logic_error(std::string(v.name) + " " + std::string(cta_set_name(set)) +
                             ": the generator draws no state that fits its set");
    }
  }
  return out;
}

}  // namespace warpspec::capture
