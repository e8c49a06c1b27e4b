// sim.cpp -- "barrier unit": a block simulator's named barriers (bar.sync,
// bar.arrive, bar.red.popc/.and/.or and their barrier{.cta} spellings).
//
// Written from the manual section alone (PTX ISA 9.7.13.1, "bar, barrier")
// and from the warpspec-vectors/1 and warpspec-results/1 file formats.
//
// What the section says, in short: a block has 16 barriers, 0 to 15.  Operand
// b is the number of threads that take part, a multiple of 32; without b every
// thread of the block takes part.  Each of these instructions first waits for
// the non-exited threads of its own warp and then marks the warp's arrival at
// barrier a; bar.sync and bar.red then wait until the other participating warps
// have arrived, bar.arrive does not.  A completed barrier is reinitialised at
// once, so it can be used again.  bar.red combines the predicate c (or !c) of
// the participating threads (.popc: how many are true; .and: all true; .or:
// any true) and writes the result to every thread waiting at the barrier.  Warps
// may mix bar.sync and bar.arrive on one barrier with one thread count; mixing
// bar.red with either is unpredictable.
//
// Simulator story.  Each round of a vector is one phase of the block: every
// executing thread issues its instruction once (the vector's form, or the
// partner form for the threads the vector names: bar.arrive beside bar.sync,
// bar.sync beside bar.arrive or bar.red).  A "warp gate" lets a warp through
// once all its non-exited threads have issued; the warp then posts one arrival
// to the "barrier unit" of the barrier its threads name, in warp order.  The
// unit holds, per barrier, the expected number of warp arrivals (b / 32, or the
// number of warps that still have a live thread when b is absent), a counter
// and a reduction accumulator; when the counter reaches the expected number it
// releases the waiting warps of that group, hands them the accumulator, and
// clears itself.  At the end of the round, a thread still waiting means the
// round hung: the harness reports {"hang": true} for it and runs no later round
// (the barrier state is per vector: a fresh block for every vector).
//
// The wrong variants ("bugs") are mistakes such a simulator makes in the gate,
// in the unit's expected count, in its counter, or in the accumulator.  Each is
// one change against the correct simulator (variant 0).  The variants marked
// NOT A BUG change only what the text leaves open (rounds whose behaviour is
// undefined: a barrier number above 15, a count that is not a multiple of 32 or
// zero, bar.red mixed with bar.sync, more bar.red warps than the count admits, a
// live thread of an arriving warp that is elsewhere; and lanes with no defined
// result): a conformance checker must let them pass.
//
// Usage:  sim --list
//         sim VECTORS.jsonl N [--continue-after-hang]   (N = 0: the correct simulator)
// Vectors of other forms (the warp-level ones, bar.warp.sync included) are
// answered {"skipped": true}.

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

using json = nlohmann::json;
using u32 = uint32_t;
using u64 = uint64_t;
using i64 = int64_t;

namespace {

enum Variant : int {
  CORRECT = 0,
  // the expected count
  COUNT_IGNORED = 1,          // b ignored: every live warp of the block is awaited
  BARRIER_ID_IGNORED,         // one barrier for the block: a ignored
  ARRIVE_BLOCKS,              // bar.arrive waits for the barrier to complete
  COUNT_VS_THREADS,           // b compared with the number of arriving threads
  EXITED_WARPS_EXPECTED,      // without b, fully exited warps are still awaited
  PARTIAL_WARP_NOT_EXPECTED,  // without b, live warps counted over blockDim/32 warps only
  COUNT_OFF_BY_ONE_WARP,      // b converted to warps as (b - 1) / 32
  COMPLETE_ON_EXCEED,         // completes when the arrivals exceed the expected count
  NO_PHASES,                  // a barrier that completed ignores later arrivals in the round
  ARRIVE_NOT_COUNTED,         // bar.arrive's warps are not counted as arrivals
  EXITED_WAITED,              // the warp gate waits for exited threads as well
  REGS_FROM_FIRST_THREAD,     // a and b registers read from the block's first executing thread
  // the reduction
  RED_NOT_RESET,              // the accumulator is not cleared when the barrier completes
  RED_WHOLE_BLOCK,            // combines every live thread of the block, wherever it is
  POPC_SUMS_VALUES,           // .popc adds the predicate registers instead of counting truths
  NEGATION_IGNORED,           // {!}c read as c
  EXITED_PREDS_COUNTED,       // exited threads of an arriving warp vote with their stale c
  AND_AS_POPC_EQ_COUNT,       // .and computed as popc == b (or blockDim without b)
  RESULT_PARTIAL_PER_WARP,    // each warp gets the accumulator as it stood when it arrived
  PRED_BIT0,                  // a predicate register read as its bit 0
  // changes the text allows (NOT A BUG)
  NB_BARRIER_MOD16,           // barrier number taken modulo 16
  NB_COUNT_ROUNDED,           // b rounded up to a multiple of 32; b = 0 means the whole block
  NB_INACTIVE_NOT_WAITED,     // the warp gate does not wait for live threads that are elsewhere
  NB_TRAP_ON_UB,              // undefined operands and mixes trap: the round reports ub + hang
  NB_REVERSE_ORDER,           // warps post their arrivals from the highest warp down
  NB_JUNK_UNDEFINED,          // junk results on lanes the text does not define
  NB_RED_PHASES_MERGED,       // too many bar.red warps: all of them reduce together
  NB_NO_DEADLOCK_DETECT,      // waiting threads are released at the end of the round
  VARIANT_COUNT
};

struct Info {
  int n;
  const char* key;
  const char* forms;
  const char* desc;
};

const Info kVariants[] = {
    {CORRECT, "correct", "bar.*", "the correct simulator, as the text reads"},
    {COUNT_IGNORED, "count_ignored", "bar.sync,bar.arrive,bar.red",
     "the thread count b is ignored: every warp of the block with a live thread is awaited"},
    {BARRIER_ID_IGNORED, "barrier_id_ignored", "bar.sync,bar.arrive,bar.red",
     "the barrier number a is ignored: one barrier for the whole block"},
    {ARRIVE_BLOCKS, "arrive_blocks", "bar.arrive,bar.sync",
     "bar.arrive waits for the barrier to complete, as bar.sync does"},
    {COUNT_VS_THREADS, "count_vs_threads", "bar.sync,bar.arrive,bar.red",
     "b is compared with the number of threads that arrived (non-exited), not with 32 per warp"},
    {EXITED_WARPS_EXPECTED, "exited_warps_expected", "bar.sync,bar.red",
     "without b, the expected arrivals are all warps of the block, fully exited ones included"},
    {PARTIAL_WARP_NOT_EXPECTED, "partial_warp_not_expected", "bar.sync,bar.red",
     "without b, live warps are counted over blockDim/32 warps: a partial last warp is not awaited"},
    {COUNT_OFF_BY_ONE_WARP, "count_off_by_one_warp", "bar.sync,bar.arrive,bar.red",
     "b converted to warps as (b - 1) / 32 (at least 1): one warp short for every b"},
    {COMPLETE_ON_EXCEED, "complete_on_exceed", "bar.sync,bar.arrive,bar.red",
     "the barrier completes when the arrivals exceed the expected count, not when they reach it"},
    {NO_PHASES, "no_phases", "bar.sync,bar.arrive",
     "a barrier is reinitialised only at the end of the round: after it completes, later "
     "arrivals are dropped and their waiting threads stay"},
    {ARRIVE_NOT_COUNTED, "arrive_not_counted", "bar.sync,bar.arrive",
     "the warps that arrive by bar.arrive are not counted towards completion"},
    {EXITED_WAITED, "exited_waited", "bar.sync,bar.arrive,bar.red",
     "the warp gate waits for every thread of the warp, exited ones included"},
    {REGS_FROM_FIRST_THREAD, "regs_from_first_thread", "bar.sync,bar.arrive,bar.red",
     "a and b in registers are read from the block's first executing thread, for every warp"},
    {RED_NOT_RESET, "red_not_reset", "bar.red",
     "the reduction accumulator is not cleared when the barrier completes"},
    {RED_WHOLE_BLOCK, "red_whole_block", "bar.red",
     "bar.red combines the predicates of every live thread of the block, wherever it is"},
    {POPC_SUMS_VALUES, "popc_sums_values", "bar.red.popc",
     "bar.red.popc adds the predicate registers' values (mod 2^32) instead of counting true ones"},
    {NEGATION_IGNORED, "negation_ignored", "bar.red", "the ! on c is dropped"},
    {EXITED_PREDS_COUNTED, "exited_preds_counted", "bar.red",
     "the exited threads of an arriving warp take part in the reduction with their stale c"},
    {AND_AS_POPC_EQ_COUNT, "and_as_popc_eq_count", "bar.red.and",
     "bar.red.and computed as popc == b (blockDim without b), not as 'every arriving thread true'"},
    {RESULT_PARTIAL_PER_WARP, "result_partial_per_warp", "bar.red",
     "each warp is handed the accumulator as it stood when that warp arrived, not the final one"},
    {PRED_BIT0, "pred_bit0", "bar.red", "a predicate register is read as its bit 0"},
    {NB_BARRIER_MOD16, "nb_barrier_mod16", "-",
     "NOT A BUG: the barrier number is taken modulo 16 (above 15 is undefined)"},
    {NB_COUNT_ROUNDED, "nb_count_rounded", "-",
     "NOT A BUG: b is rounded up to a multiple of 32, and b = 0 means the whole block "
     "(both undefined)"},
    {NB_INACTIVE_NOT_WAITED, "nb_inactive_not_waited", "-",
     "NOT A BUG: the warp gate does not wait for live threads that are elsewhere "
     "(a waiting warp's thread elsewhere is undefined)"},
    {NB_TRAP_ON_UB, "nb_trap_on_ub", "-",
     "NOT A BUG: a round with a barrier number above 15, a count not a multiple of 32, zero or "
     "above the block, counts that differ at one barrier, bar.red beside another form on one "
     "barrier, or more bar.red warps than the count admits, reports ub and a hang"},
    {NB_REVERSE_ORDER, "nb_reverse_order", "-",
     "NOT A BUG: warps post their arrivals from the highest warp down (which warps are left "
     "over only matters where the round is undefined)"},
    {NB_JUNK_UNDEFINED, "nb_junk_undefined", "-",
     "NOT A BUG: junk results (0xdeadbeef, true, 'resumed') on lanes with no defined result"},
    {NB_RED_PHASES_MERGED, "nb_red_phases_merged", "-",
     "NOT A BUG: when more bar.red warps arrive than the count admits, they all reduce together"},
    {NB_NO_DEADLOCK_DETECT, "nb_no_deadlock_detect", "-",
     "NOT A BUG: no deadlock detection: threads still waiting at the end of the round are "
     "released with the accumulator as it stands"},
};
static_assert(sizeof(kVariants) / sizeof(kVariants[0]) == VARIANT_COUNT);

int V = 0;
bool is(Variant v) { return V == v; }
// --continue-after-hang: the harness times a hung round out and runs the vector's later rounds
// anyway (the results format says the rounds after a hang did not run; this is for the suites
// whose vectors have a defined round after an undefined one).
bool CONTINUE_AFTER_HANG = false;

// ---------------------------------------------------------------- the instruction

enum class Kind { Sync, Arrive, Red };
enum class Op { None, Popc, And, Or };

struct Operand {
  bool present = false;
  bool imm = false;
  u64 value = 0;  // the immediate
};

struct Instr {
  Kind kind = Kind::Sync;
  Op op = Op::None;
  Operand a, b;
  bool negate = false;
};

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

Operand operand(const std::string& text) {
  Operand o;
  o.present = true;
  std::string t = trim(text);
  if (!t.empty() && (std::isdigit(static_cast<unsigned char>(t[0])))) {
    o.imm = true;
    o.value = std::stoull(t, nullptr, 0);
  }
  return o;
}

std::optional<Instr> parse(const std::string& text) {
  std::string s = trim(text);
  if (!s.empty() && s.back() == ';') s.pop_back();
  size_t sp = s.find_first_of(" \t");
  std::string opcode = s.substr(0, sp);
  std::string rest = sp == std::string::npos ? "" : s.substr(sp + 1);
  std::vector<std::string> mods;
  {
    size_t p = 0;
    while (p <= opcode.size()) {
      size_t q = opcode.find('.', p);
      if (q == std::string::npos) q = opcode.size();
      mods.push_back(opcode.substr(p, q - p));
      p = q + 1;
    }
  }
  if (mods.empty() || (mods[0] != "bar" && mods[0] != "barrier")) return std::nullopt;
  auto has = [&](const char* m) { return std::find(mods.begin(), mods.end(), m) != mods.end(); };
  if (has("warp")) return std::nullopt;
  Instr in;
  if (has("sync")) in.kind = Kind::Sync;
  else if (has("arrive")) in.kind = Kind::Arrive;
  else if (has("red")) in.kind = Kind::Red;
  else return std::nullopt;
  if (in.kind == Kind::Red) {
    if (has("popc")) in.op = Op::Popc;
    else if (has("and")) in.op = Op::And;
    else if (has("or")) in.op = Op::Or;
    else return std::nullopt;
  }
  std::vector<std::string> ops;
  {
    size_t p = 0;
    while (p <= rest.size()) {
      size_t q = rest.find(',', p);
      if (q == std::string::npos) q = rest.size();
      std::string o = trim(rest.substr(p, q - p));
      if (!o.empty()) ops.push_back(o);
      p = q + 1;
    }
  }
  if (in.kind == Kind::Red) {
    if (ops.size() < 3) return std::nullopt;
    std::string c = ops.back();
    if (!c.empty() && c[0] == '!') in.negate = true;
    ops.erase(ops.begin());  // d
    ops.pop_back();          // c
  }
  if (ops.empty()) return std::nullopt;
  in.a = operand(ops[0]);
  if (ops.size() > 1) in.b = operand(ops[1]);
  return in;
}

// ---------------------------------------------------------------- the state

std::vector<bool> thread_set(const json& j, int n) {
  std::vector<bool> s(n, false);
  if (j.is_null()) return s;
  std::string t = j.get<std::string>();
  if (t == "none" || t.empty()) return s;
  if (t.rfind("0x", 0) == 0) {  // a warp's hex word (not expected for blocks, read anyway)
    u64 w = std::stoull(t, nullptr, 16);
    for (int i = 0; i < n && i < 64; ++i) s[i] = (w >> i) & 1;
    return s;
  }
  size_t p = 0;
  while (p < t.size()) {
    size_t q = t.find(',', p);
    if (q == std::string::npos) q = t.size();
    std::string r = trim(t.substr(p, q - p));
    size_t dash = r.find('-');
    int lo, hi;
    if (dash == std::string::npos) lo = hi = std::stoi(r);
    else {
      lo = std::stoi(r.substr(0, dash));
      hi = std::stoi(r.substr(dash + 1));
    }
    for (int i = lo; i <= hi && i < n; ++i)
      if (i >= 0) s[i] = true;
    p = q + 1;
  }
  return s;
}

u64 word(const json& j) {
  if (j.is_boolean()) return j.get<bool>() ? 1 : 0;
  if (j.is_string()) {
    std::string s = j.get<std::string>();
    if (s.rfind("0x", 0) == 0 || s.rfind("0X", 0) == 0) return std::stoull(s, nullptr, 16);
    return static_cast<u64>(std::stoll(s));
  }
  if (j.is_number_unsigned()) return j.get<u64>();
  if (j.is_number_integer()) return static_cast<u64>(j.get<i64>());
  return 0;
}

std::vector<u32> per_thread(const json& r, const char* key, int n) {
  std::vector<u32> v(n, 0);
  if (!r.contains(key)) return v;
  const json& j = r[key];
  if (j.is_array()) {
    for (int i = 0; i < n && i < static_cast<int>(j.size()); ++i) v[i] = static_cast<u32>(word(j[i]));
  } else {
    u32 x = static_cast<u32>(word(j));
    std::fill(v.begin(), v.end(), x);
  }
  return v;
}

// Per-vector barrier unit state (a fresh block for every vector).
struct Unit {
  u64 acc_popc[16] = {};
  bool acc_and[16];
  bool acc_or[16] = {};
  Unit() { std::fill(std::begin(acc_and), std::end(acc_and), true); }
};

constexpr u64 kNoCount = ~0ull;

struct Arrival {
  int warp;
  u64 barrier;
  u64 count;  // kNoCount: without b
  std::vector<int> threads;  // the warp's executing threads at this barrier
  bool waits;                // some thread of it waits (bar.sync / bar.red)
};

// ---------------------------------------------------------------- one round

json run_round(const Instr& in, const json& r, Unit& unit, bool& hang) {
  const int n = static_cast<int>(word(r["threads"]));
  const int warps = (n + 31) / 32;
  const std::vector<bool> exited = thread_set(r.value("exited", json("none")), n);
  const std::vector<bool> inactive = thread_set(r.value("inactive", json("none")), n);
  const std::vector<bool> partner = thread_set(r.value("partner", json("none")), n);
  const std::vector<u32> apred = per_thread(r, "a", n);
  const std::vector<u32> bar_reg = per_thread(r, "bar", n);
  const std::vector<u32> cnt_reg = per_thread(r, "count", n);

  const Kind partner_kind = in.kind == Kind::Sync ? Kind::Arrive : Kind::Sync;
  auto executes = [&](int t) {
    if (exited[t]) return false;
    if (inactive[t]) return false;
    return true;
  };
  auto kind_of = [&](int t) { return partner[t] ? partner_kind : in.kind; };

  int first_exec = -1;
  for (int t = 0; t < n; ++t)
    if (executes(t)) {
      first_exec = t;
      break;
    }
  auto reg_thread = [&](int t) { return is(REGS_FROM_FIRST_THREAD) && first_exec >= 0 ? first_exec : t; };

  std::vector<u64> bid(n, 0), cnt(n, kNoCount);
  bool ub = false;  // only for NB_TRAP_ON_UB
  for (int t = 0; t < n; ++t) {
    if (!executes(t)) continue;
    u64 a = in.a.imm ? in.a.value : bar_reg[reg_thread(t)];
    if (a > 15) ub = true;
    if (is(NB_BARRIER_MOD16)) a &= 15;
    if (is(BARRIER_ID_IGNORED)) a = 0;
    bid[t] = a;
    if (in.b.present) {
      u64 b = in.b.imm ? in.b.value : cnt_reg[reg_thread(t)];
      if (b == 0 || b % 32 != 0 || b > static_cast<u64>(warps) * 32) ub = true;
      if (is(NB_COUNT_ROUNDED)) b = b == 0 ? kNoCount : (b + 31) / 32 * 32;
      cnt[t] = b;
    } else if (kind_of(t) == Kind::Arrive) {
      ub = true;  // bar.arrive needs a non-zero count; the partner form has none
      cnt[t] = is(NB_COUNT_ROUNDED) ? kNoCount : 0;
    }
    if (is(COUNT_IGNORED)) cnt[t] = kNoCount;
  }

  // Which threads are still waiting; which resumed; their d.
  std::vector<bool> waiting(n, false), resumed(n, false);
  std::vector<u64> result(n, 0);
  for (int t = 0; t < n; ++t)
    if (executes(t)) waiting[t] = true;

  // The warp gate.
  std::vector<Arrival> arrivals;
  std::vector<int> order;
  for (int w = 0; w < warps; ++w) order.push_back(w);
  if (is(NB_REVERSE_ORDER)) std::reverse(order.begin(), order.end());
  for (int w : order) {
    bool any = false, ready = true;
    for (int t = 32 * w; t < std::min(n, 32 * w + 32); ++t) {
      if (executes(t)) any = true;
      else if (exited[t]) {
        if (is(EXITED_WAITED)) ready = false;
      } else if (!is(NB_INACTIVE_NOT_WAITED)) {
        ready = false;  // a live thread of the warp is elsewhere
      }
    }
    if (!any || !ready) continue;
    std::map<u64, Arrival> by_barrier;
    for (int t = 32 * w; t < std::min(n, 32 * w + 32); ++t) {
      if (!executes(t)) continue;
      auto it = by_barrier.find(bid[t]);
      if (it == by_barrier.end())
        it = by_barrier.emplace(bid[t], Arrival{w, bid[t], cnt[t], {}, false}).first;
      it->second.threads.push_back(t);
      bool waits = kind_of(t) != Kind::Arrive || is(ARRIVE_BLOCKS);
      if (waits) it->second.waits = true;
      else {
        waiting[t] = false;  // bar.arrive goes on at once
        resumed[t] = true;
      }
    }
    for (auto& [b, arr] : by_barrier) arrivals.push_back(arr);
  }

  // Expected arrivals without b.
  int live_warps = 0;
  for (int w = 0; w < warps; ++w) {
    bool live = false;
    for (int t = 32 * w; t < std::min(n, 32 * w + 32); ++t)
      if (!exited[t] && !(is(NB_INACTIVE_NOT_WAITED) && inactive[t])) live = true;
    if (is(EXITED_WARPS_EXPECTED)) live = true;
    if (is(PARTIAL_WARP_NOT_EXPECTED) && 32 * w + 32 > n) live = false;
    if (live) ++live_warps;
  }

  auto pred = [&](int t) {
    u32 v = apred[t];
    bool p = is(PRED_BIT0) ? (v & 1) != 0 : v != 0;
    if (in.negate && !is(NEGATION_IGNORED)) p = !p;
    return p;
  };
  auto pred_value = [&](int t) -> u64 {  // POPC_SUMS_VALUES: what gets added
    u32 v = apred[t];
    if (in.negate) return v == 0 ? 1 : 0;
    return v;
  };

  // The barrier unit, barrier by barrier, arrivals in the order they were posted.
  std::map<u64, std::vector<const Arrival*>> per_barrier;
  for (const auto& a : arrivals) per_barrier[a.barrier].push_back(&a);

  // Red-mixed and count-mixed detection for the trap variant.
  for (auto& [b, list] : per_barrier) {
    bool red = false, other = false;
    std::set<u64> counts;
    for (const Arrival* a : list) {
      counts.insert(a->count);
      for (int t : a->threads) (kind_of(t) == Kind::Red ? red : other) = true;
    }
    if (red && other) ub = true;
    if (counts.size() > 1) ub = true;
  }

  for (auto& [b, list] : per_barrier) {
    const u64 count = list.front()->count;
    u64 expected;
    if (count == kNoCount) expected = static_cast<u64>(live_warps);
    else if (is(COUNT_VS_THREADS)) expected = count;  // in threads, see below
    else if (is(COUNT_OFF_BY_ONE_WARP)) expected = std::max<u64>(1, (count - 1) / 32);
    else expected = count / 32;
    if (is(COUNT_VS_THREADS) && count == kNoCount) {
      expected = 0;
      for (int t = 0; t < n; ++t)
        if (!exited[t]) ++expected;
    }
    const bool in_threads = is(COUNT_VS_THREADS);
    const size_t slot = b & 15;

    bool red_here = false;
    for (const Arrival* a : list)
      for (int t : a->threads)
        if (kind_of(t) == Kind::Red) red_here = true;
    if (red_here && !in_threads && expected > 0 && list.size() > expected) {
      if (is(NB_TRAP_ON_UB)) ub = true;
      if (is(NB_RED_PHASES_MERGED)) expected = list.size();
    }

    std::vector<const Arrival*> group;
    u64 got = 0;
    bool done_once = false;
    auto reset = [&] {
      if (!is(RED_NOT_RESET)) {
        unit.acc_popc[slot] = 0;
        unit.acc_and[slot] = true;
        unit.acc_or[slot] = false;
      }
    };
    auto value_now = [&]() -> u64 {
      switch (in.op) {
        case Op::Popc: return unit.acc_popc[slot] & 0xffffffffu;
        case Op::And: return unit.acc_and[slot] ? 1 : 0;
        case Op::Or: return unit.acc_or[slot] ? 1 : 0;
        default: return 0;
      }
    };
    std::map<int, u64> snapshot;  // RESULT_PARTIAL_PER_WARP: the accumulator at each warp's arrival
    auto vote = [&](int t, bool p) {
      unit.acc_popc[slot] += is(POPC_SUMS_VALUES) ? pred_value(t) : (p ? 1 : 0);
      unit.acc_and[slot] = unit.acc_and[slot] && p;
      unit.acc_or[slot] = unit.acc_or[slot] || p;
    };
    u64 group_threads = 0;  // for AND_AS_POPC_EQ_COUNT, the b it compares with
    for (const Arrival* a : list) {
      if (is(NO_PHASES) && done_once) continue;  // dropped: its waiters stay
      if (is(ARRIVE_NOT_COUNTED)) {
        bool any_wait = false;
        for (int t : a->threads)
          if (kind_of(t) != Kind::Arrive) any_wait = true;
        if (!any_wait) continue;
      }
      group.push_back(a);
      if (in_threads) got += a->threads.size();
      else got += 1;
      for (int t : a->threads)
        if (kind_of(t) == Kind::Red) vote(t, pred(t));
      if (is(EXITED_PREDS_COUNTED))
        for (int t = 32 * a->warp; t < std::min(n, 32 * a->warp + 32); ++t)
          if (exited[t]) vote(t, pred(t));
      snapshot[a->warp] = value_now();
      bool complete = is(COMPLETE_ON_EXCEED) ? got > expected : got >= expected;
      if (expected == 0) complete = false;  // a count of no threads never completes
      if (complete) {
        u64 v = value_now();
        if (in.op == Op::And && is(AND_AS_POPC_EQ_COUNT)) {
          u64 want = count == kNoCount ? static_cast<u64>(n) : count;
          v = unit.acc_popc[slot] == want ? 1 : 0;
        }
        for (const Arrival* g : group)
          for (int t : g->threads) {
            if (!waiting[t]) continue;
            waiting[t] = false;
            resumed[t] = true;
            result[t] = is(RESULT_PARTIAL_PER_WARP) ? snapshot[g->warp] : v;
          }
        group.clear();
        got = 0;
        done_once = true;
        reset();
        if (is(AND_AS_POPC_EQ_COUNT)) unit.acc_popc[slot] = 0;
      }
    }
    (void)group_threads;
    if (is(NB_NO_DEADLOCK_DETECT) && !group.empty()) {
      u64 v = value_now();
      for (const Arrival* g : group)
        for (int t : g->threads)
          if (waiting[t]) {
            waiting[t] = false;
            resumed[t] = true;
            result[t] = v;
          }
      reset();
    }
  }

  // RED_WHOLE_BLOCK: the value handed out is computed over every live thread of the block.
  if (is(RED_WHOLE_BLOCK) && in.kind == Kind::Red) {
    u64 popc = 0;
    bool all = true, any = false;
    for (int t = 0; t < n; ++t) {
      if (exited[t]) continue;
      bool p = pred(t);
      popc += p;
      all = all && p;
      any = any || p;
    }
    u64 v = in.op == Op::Popc ? popc : in.op == Op::And ? all : any;
    for (int t = 0; t < n; ++t)
      if (resumed[t]) result[t] = v;
  }

  if (is(NB_NO_DEADLOCK_DETECT))
    for (int t = 0; t < n; ++t)
      if (waiting[t]) {
        waiting[t] = false;
        resumed[t] = true;
      }

  bool stuck = false;
  for (int t = 0; t < n; ++t)
    if (waiting[t]) stuck = true;
  if (is(NB_TRAP_ON_UB) && ub) {
    hang = true;
    return json{{"hang", true}, {"ub", true}};
  }
  if (stuck) {
    hang = true;
    return json{{"hang", true}};
  }

  json d = json::array();
  for (int t = 0; t < n; ++t) {
    bool mine = executes(t) && !partner[t];
    if (!mine || !resumed[t]) {
      if (is(NB_JUNK_UNDEFINED)) {
        if (in.kind != Kind::Red) d.push_back(0);
        else if (in.op == Op::Popc) d.push_back("0xdeadbeef");
        else d.push_back(true);
      } else {
        d.push_back(nullptr);
      }
      continue;
    }
    if (in.kind != Kind::Red) d.push_back(0);
    else if (in.op == Op::Popc) {
      char buf[16];
      std::snprintf(buf, sizeof buf, "0x%08x", static_cast<u32>(result[t]));
      d.push_back(buf);
    } else {
      d.push_back(result[t] != 0);
    }
  }
  return json{{"d", d}};
}

json run_vector(const json& v) {
  const std::string form = v.value("form", "");
  std::optional<Instr> in;
  if (form.rfind("bar.", 0) == 0 || form.rfind("barrier", 0) == 0)
    in = parse(v.value("instruction", ""));
  if (!in) return json{{"id", v["id"]}, {"skipped", true}};
  Unit unit;
  json rounds = json::array();
  bool hang = false;
  for (const auto& r : v["rounds"]) {
    rounds.push_back(run_round(*in, r, unit, hang));
    if (hang && !CONTINUE_AFTER_HANG) break;  // the rounds after a hang do not run
    if (hang) unit = Unit();                  // the harness starts a fresh block
    hang = false;
  }
  return json{{"id", v["id"]}, {"rounds", rounds}};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "--list") {
    for (const auto& b : kVariants) std::printf("%d\t%s\t%s\t%s\n", b.n, b.key, b.forms, b.desc);
    return 0;
  }
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s --list | %s VECTORS.jsonl N\n", argv[0], argv[0]);
    return 2;
  }
  V = std::atoi(argv[2]);
  if (argc >= 4 && std::string(argv[3]) == "--continue-after-hang") CONTINUE_AFTER_HANG = true;
  if (V < 0 || V >= VARIANT_COUNT) {
    std::fprintf(stderr, "no variant %d (0..%d)\n", V, VARIANT_COUNT - 1);
    return 2;
  }
  std::ifstream f(argv[1]);
  if (!f) {
    std::fprintf(stderr, "cannot open %s\n", argv[1]);
    return 2;
  }
  std::cout << json{{"schema", "warpspec-results/1"}}.dump() << "\n";
  std::string line;
  bool first = true;
  while (std::getline(f, line)) {
    if (line.empty()) continue;
    json v = json::parse(line);
    if (first) {
      first = false;
      if (v.contains("schema")) continue;
    }
    if (!v.contains("rounds")) continue;
    std::cout << run_vector(v).dump() << "\n";
  }
  return 0;
}
