// sim.cpp -- a small functional simulator of NVIDIA warp-level primitives
// (match.sync, vote.sync, redux.sync, bar.warp.sync, bar.sync / bar.red),
// driven by warpspec-vectors/1 files and writing warpspec-results/1 lines.
//
//   ./sim VECTORS.jsonl BUG > RESULTS.jsonl     BUG = 0: correct, 1..N: a seeded bug
//   ./sim --list                                 the bug table
//
// The simulator keeps a warp (32 lanes, each with a status, a membermask
// register and a source register) or a block (threads grouped in warps) and
// executes the instruction once per round.  Warp collectives are modelled as a
// convergence barrier: every executing lane arrives with its operands, a lane
// completes once every non-exited lane its membermask names has arrived, and
// the collective then combines the operands of the lanes it waited for.
// Block barriers are modelled as a hardware barrier slot with an arrival
// counter, an expected count and a reduction accumulator.
#include <nlohmann/json.hpp>

#include <array>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using json = nlohmann::json;

// ---------------------------------------------------------------------------
// Bug catalogue
// ---------------------------------------------------------------------------
enum Bug : int {
  OK = 0,
  // match
  MATCH_MASK_FROM_FIRST_LANE = 1,
  MATCH_ALL_D_ACTIVEMASK,
  MATCH_ANY_B64_OR_HALVES,
  MATCH_B32_NAN_CANON,
  MATCH_ANY_16_BUCKETS,
  MATCH_ALL_REF_LANE0,
  // vote
  BALLOT_BITS_REVERSED,
  VOTE_ALL_VS_MEMBERMASK,
  VOTE_UNI_VS_ACTIVEMASK,
  VOTE_NEGATE_RESULT,
  BALLOT_USES_ACTIVEMASK,
  BALLOT_NOT_FROM_RAW_MASK,
  VOTE_SKIPS_LANE31,
  // redux
  REDUX_MIN_U32_IDENTITY_INTMAX,
  REDUX_ADD_TREE_DROPS_ODD,
  REDUX_SELF_COUNTED_TWICE,
  REDUX_MIN_S32_VIA_NEG_MAX,
  REDUX_MAX_S32_UNSIGNED,
  REDUX_EXITED_AS_ZERO,
  REDUX_MASK_SIGNED_LOOP,
  // bar.warp.sync
  SYNCWARP_WHOLE_WARP,
  SYNCWARP_FULL_MASK_ALL32,
  SYNCWARP_ARRIVAL_EQ,
  // bar.sync / bar.red
  CTA_COUNT_WHOLE_WARPS,
  CTA_WARP_GRANULAR,
  CTA_POPC_U8,
  CTA_PRED_LOW_BIT,
  CTA_NEGATE_BITWISE,
  CTA_LAST_ARRIVAL_MISSED,
  CTA_PADDING_LANES_VOTE,
  CTA_EXPECTED_LATCHED,
  BUG_COUNT
};

struct BugInfo { int id; const char* key; const char* forms; const char* text; };
static const BugInfo kBugs[] = {
  {MATCH_MASK_FROM_FIRST_LANE, "match_mask_from_first_lane", "match.*",
   "membermask read once from the lowest executing lane and used for the whole warp (assumed warp-uniform)"},
  {MATCH_ALL_D_ACTIVEMASK, "match_all_d_activemask", "match.all.*",
   "on agreement d is the warp's active mask (every executing lane) instead of the non-exited lanes of membermask"},
  {MATCH_ANY_B64_OR_HALVES, "match_any_b64_or_halves", "match.any.sync.b64",
   "b64 lowered to two 32-bit match.any on the halves, combined with OR instead of AND"},
  {MATCH_B32_NAN_CANON, "match_b32_nan_canon", "match.*.b32",
   "operand moved through a float register: every NaN canonicalised to 0x7fc00000 before the bit compare"},
  {MATCH_ANY_16_BUCKETS, "match_any_16_buckets", "match.any.*",
   "values binned in a 16-entry table; the 17th and later distinct values share the last bucket"},
  {MATCH_ALL_REF_LANE0, "match_all_ref_lane0", "match.all.*",
   "reference value taken from warp lane 0's register instead of the first participating lane"},
  {BALLOT_BITS_REVERSED, "ballot_bits_reversed", "vote.sync.ballot.b32",
   "ballot built by shift-accumulating lanes 0..31 (d = d<<1 | p), so lane 0 lands in bit 31"},
  {VOTE_ALL_VS_MEMBERMASK, "vote_all_vs_membermask", "vote.sync.all.pred",
   ".all computed as ballot == membermask, so an exited lane named in the mask makes it false"},
  {VOTE_UNI_VS_ACTIVEMASK, "vote_uni_vs_activemask", "vote.sync.uni.pred",
   ".uni computed as ballot == 0 || ballot == activemask (all executing lanes of the warp, not the members)"},
  {VOTE_NEGATE_RESULT, "vote_negate_result", "vote.sync.{all,any,uni}.pred",
   "with !a the negation is applied to the reduced result instead of to each lane's source predicate"},
  {BALLOT_USES_ACTIVEMASK, "ballot_uses_activemask", "vote.sync.ballot.b32",
   "ballot gathers the predicate of every executing lane, members of other groups included"},
  {BALLOT_NOT_FROM_RAW_MASK, "ballot_not_from_raw_mask", "vote.sync.ballot.b32",
   "ballot(!a) computed as membermask & ~ballot(a): exited lanes named in the mask get a 1 bit"},
  {VOTE_SKIPS_LANE31, "vote_skips_lane31", "vote.sync.{all,any,uni}.pred",
   "participant loop runs for (lane = 0; lane < 31; ++lane): lane 31 never votes"},
  {REDUX_MIN_U32_IDENTITY_INTMAX, "redux_min_u32_identity_intmax", "redux.sync.min.u32",
   "min.u32 accumulator starts at numeric_limits<int>::max() (0x7fffffff) instead of 0xffffffff"},
  {REDUX_ADD_TREE_DROPS_ODD, "redux_add_tree_drops_odd", "redux.sync.add.*",
   "halving tree reduction (for s = n/2; s; s /= 2) over the packed participants drops the odd element"},
  {REDUX_SELF_COUNTED_TWICE, "redux_self_counted_twice", "redux.sync.{add,xor}.*",
   "d = own value op reduce(members), where the members already include the lane itself"},
  {REDUX_MIN_S32_VIA_NEG_MAX, "redux_min_s32_via_neg_max", "redux.sync.min.s32",
   "min.s32 lowered as -max(-x): INT_MIN negates to itself and wins as the 'maximum'"},
  {REDUX_MAX_S32_UNSIGNED, "redux_max_s32_unsigned", "redux.sync.max.s32",
   "max.s32 compares the 32-bit registers as unsigned"},
  {REDUX_EXITED_AS_ZERO, "redux_exited_as_zero", "redux.sync.*",
   "exited lanes named in the mask take part with a zeroed register (0 for and/min wins)"},
  {REDUX_MASK_SIGNED_LOOP, "redux_mask_signed_loop", "redux.sync.*",
   "member loop 'for (int m = mask; m > 0; m >>= 1)': a mask with bit 31 set yields no members (identity)"},
  {SYNCWARP_WHOLE_WARP, "syncwarp_whole_warp", "bar.warp.sync",
   "lowered to a whole-warp barrier: waits for every live lane of the warp, whatever the mask"},
  {SYNCWARP_FULL_MASK_ALL32, "syncwarp_full_mask_all32", "bar.warp.sync",
   "fast path for mask 0xffffffff waits for all 32 lanes, exited lanes included"},
  {SYNCWARP_ARRIVAL_EQ, "syncwarp_arrival_eq", "bar.warp.sync",
   "one warp-wide arrival set; a group releases when arrived == required (not a subset test), so interleaved groups hang"},
  {CTA_COUNT_WHOLE_WARPS, "cta_count_whole_warps", "bar.sync, bar.red.*",
   "expected count = warps*32 - exited: the missing threads of a partial last warp never arrive"},
  {CTA_WARP_GRANULAR, "cta_warp_granular", "bar.sync, bar.red.*",
   "barrier counts warps; a warp whose threads have all exited is still expected"},
  {CTA_POPC_U8, "cta_popc_u8", "bar.red.popc.u32",
   "popc accumulator is a uint8_t: counts above 255 wrap"},
  {CTA_PRED_LOW_BIT, "cta_pred_low_bit", "bar.red.*",
   "predicate taken from bit 0 of the integer (p = a & 1) instead of a != 0"},
  {CTA_NEGATE_BITWISE, "cta_negate_bitwise", "bar.red.* with !a",
   "!a evaluated as ~a != 0 (bitwise complement) instead of a == 0"},
  {CTA_LAST_ARRIVAL_MISSED, "cta_last_arrival_missed", "bar.red.*",
   "result snapshot taken before the releasing (last) thread's predicate is folded in"},
  {CTA_PADDING_LANES_VOTE, "cta_padding_lanes_vote", "bar.red.*",
   "lanes of a partial last warp beyond the block vote with register 0 (negated when !a)"},
  {CTA_EXPECTED_LATCHED, "cta_expected_latched", "bar.sync, bar.red.*",
   "expected count latched at the first barrier; later barriers after more exits (or a new size) hang"},
};

static int g_bug = 0;
static bool bug(int b) { return g_bug == b; }

// ---------------------------------------------------------------------------
// Instruction description
// ---------------------------------------------------------------------------
enum class Family { Match, Vote, Redux, SyncWarp, Cta };
enum class Op { Any, All, Uni, Ballot, Add, Min, Max, And, Or, Xor, Popc, Sync };
enum class Ty { B32, B64, U32, S32, Pred, None };

struct Instr {
  std::string form;
  Family fam{};
  Op op{};
  Ty ty = Ty::None;
  bool negate = false;
};

static Instr decode(const std::string& form, const std::string& text) {
  Instr in;
  in.form = form;
  in.negate = text.find("!a") != std::string::npos;
  auto has = [&](const char* s) { return form.find(s) != std::string::npos; };
  if (form.rfind("match.", 0) == 0) {
    in.fam = Family::Match;
    in.op = has(".any.") ? Op::Any : Op::All;
    in.ty = has(".b64") ? Ty::B64 : Ty::B32;
  } else if (form.rfind("vote.", 0) == 0) {
    in.fam = Family::Vote;
    in.op = has(".ballot") ? Op::Ballot : has(".all.") ? Op::All : has(".any.") ? Op::Any : Op::Uni;
    in.ty = in.op == Op::Ballot ? Ty::B32 : Ty::Pred;
  } else if (form.rfind("redux.", 0) == 0) {
    in.fam = Family::Redux;
    in.op = has(".add.") ? Op::Add : has(".min.") ? Op::Min : has(".max.") ? Op::Max
          : has(".and.") ? Op::And : has(".or.") ? Op::Or : Op::Xor;
    in.ty = has(".s32") ? Ty::S32 : has(".u32") ? Ty::U32 : Ty::B32;
  } else if (form == "bar.warp.sync") {
    in.fam = Family::SyncWarp;
    in.op = Op::Sync;
  } else if (form.rfind("bar.", 0) == 0) {
    in.fam = Family::Cta;
    in.op = has(".popc") ? Op::Popc : has(".and") ? Op::And : has(".or") ? Op::Or : Op::Sync;
  } else {
    throw std::runtime_error("unknown form " + form);
  }
  return in;
}

// ---------------------------------------------------------------------------
// Value parsing helpers
// ---------------------------------------------------------------------------
static uint64_t value_of(const json& v) {
  if (v.is_string()) return std::stoull(v.get<std::string>(), nullptr, 16);
  if (v.is_boolean()) return v.get<bool>() ? 1 : 0;
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.is_number_integer()) return static_cast<uint64_t>(v.get<int64_t>());
  return 0;
}

static std::vector<uint64_t> per_lane(const json& v, size_t n) {
  std::vector<uint64_t> out(n, 0);
  if (v.is_null()) return out;
  if (v.is_array()) {
    for (size_t i = 0; i < n && i < v.size(); ++i) out[i] = value_of(v[i]);
  } else {
    uint64_t x = value_of(v);
    for (auto& o : out) o = x;
  }
  return out;
}

// "none" / "0-15,17,20-31" for blocks
static std::vector<bool> parse_ranges(const json& v, size_t n) {
  std::vector<bool> out(n, false);
  if (!v.is_string()) return out;
  std::string s = v.get<std::string>();
  if (s == "none" || s.empty()) return out;
  std::stringstream ss(s);
  std::string part;
  while (std::getline(ss, part, ',')) {
    auto dash = part.find('-');
    size_t lo = std::stoul(part.substr(0, dash));
    size_t hi = dash == std::string::npos ? lo : std::stoul(part.substr(dash + 1));
    for (size_t i = lo; i <= hi && i < n; ++i) out[i] = true;
  }
  return out;
}

static std::string hex32(uint32_t x) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", x);
  return buf;
}

// ---------------------------------------------------------------------------
// Warp model
// ---------------------------------------------------------------------------
constexpr int kWarpSize = 32;
enum class Status { Active, Inactive, Exited };

struct Lane {
  Status status = Status::Active;
  uint32_t membermask = 0;  // the register passed as m
  uint64_t src = 0;         // source operand a (64-bit wide for .b64)
};

struct Warp {
  std::array<Lane, kWarpSize> lane;
  uint32_t mask_of(Status s) const {
    uint32_t m = 0;
    for (int l = 0; l < kWarpSize; ++l)
      if (lane[l].status == s) m |= 1u << l;
    return m;
  }
  uint32_t active() const { return mask_of(Status::Active); }
  uint32_t exited() const { return mask_of(Status::Exited); }
};

struct RoundOut {
  bool hang = false;
  bool ub = false;  // the simulator's deadlock detector saw a lane that can never arrive
  size_t n = 0;
  std::vector<std::optional<uint32_t>> d;
  std::vector<std::optional<int>> p;
  bool has_p = false;
};

// Each lane's effective membermask as this simulator reads the operand.
static uint32_t effective_mask(const Warp& w, const Instr& in, int l) {
  if (in.fam == Family::Match && bug(MATCH_MASK_FROM_FIRST_LANE)) {
    uint32_t act = w.active();
    return act ? w.lane[std::countr_zero(act)].membermask : 0;
  }
  return w.lane[l].membermask;
}

// --- match ----------------------------------------------------------------
static uint64_t match_key(const Instr& in, uint64_t v) {
  if (in.ty == Ty::B32) {
    uint32_t x = static_cast<uint32_t>(v);
    if (bug(MATCH_B32_NAN_CANON) && (x & 0x7f800000u) == 0x7f800000u && (x & 0x007fffffu))
      x = 0x7fc00000u;
    return x;
  }
  return v;
}

static void exec_match(const Warp& w, const Instr& in, int self, uint32_t members, RoundOut& out) {
  uint64_t mine = match_key(in, w.lane[self].src);
  if (in.op == Op::Any) {
    uint32_t d = 0;
    if (in.ty == Ty::B64 && bug(MATCH_ANY_B64_OR_HALVES)) {
      uint32_t lo = 0, hi = 0;
      for (int l = 0; l < kWarpSize; ++l) {
        if (!(members >> l & 1)) continue;
        uint64_t v = w.lane[l].src;
        if (static_cast<uint32_t>(v) == static_cast<uint32_t>(mine)) lo |= 1u << l;
        if ((v >> 32) == (mine >> 32)) hi |= 1u << l;
      }
      d = lo | hi;
    } else if (bug(MATCH_ANY_16_BUCKETS)) {
      std::vector<uint64_t> table;
      auto bucket = [&](uint64_t v) -> size_t {
        for (size_t i = 0; i < table.size(); ++i)
          if (table[i] == v) return i;
        if (table.size() < 16) { table.push_back(v); return table.size() - 1; }
        return 15;
      };
      std::array<size_t, kWarpSize> b{};
      for (int l = 0; l < kWarpSize; ++l)
        if (members >> l & 1) b[l] = bucket(match_key(in, w.lane[l].src));
      for (int l = 0; l < kWarpSize; ++l)
        if ((members >> l & 1) && b[l] == b[self]) d |= 1u << l;
    } else {
      for (int l = 0; l < kWarpSize; ++l)
        if ((members >> l & 1) && match_key(in, w.lane[l].src) == mine) d |= 1u << l;
    }
    out.d[self] = d;
    return;
  }
  // match.all
  int first = members ? std::countr_zero(members) : self;
  if (bug(MATCH_ALL_REF_LANE0)) first = 0;
  uint64_t ref = match_key(in, w.lane[first].src);
  bool same = true;
  for (int l = 0; l < kWarpSize; ++l)
    if ((members >> l & 1) && match_key(in, w.lane[l].src) != ref) same = false;
  uint32_t d = same ? members : 0;
  if (same && bug(MATCH_ALL_D_ACTIVEMASK)) d = w.active();
  out.d[self] = d;
  out.p[self] = same ? 1 : 0;
}

// --- vote -----------------------------------------------------------------
static void exec_vote(const Warp& w, const Instr& in, int self, uint32_t members, RoundOut& out) {
  auto pred = [&](int l) {
    bool p = w.lane[l].src != 0;
    if (in.negate && !(bug(VOTE_NEGATE_RESULT) && in.op != Op::Ballot)) p = !p;
    return p;
  };
  if (in.op == Op::Ballot) {
    uint32_t from = members;
    if (bug(BALLOT_USES_ACTIVEMASK)) from = w.active();
    uint32_t d = 0;
    if (bug(BALLOT_NOT_FROM_RAW_MASK) && in.negate) {
      uint32_t b = 0;
      for (int l = 0; l < kWarpSize; ++l)
        if ((from >> l & 1) && w.lane[l].src != 0) b |= 1u << l;
      d = w.lane[self].membermask & ~b;
    } else if (bug(BALLOT_BITS_REVERSED)) {
      for (int l = 0; l < kWarpSize; ++l) d = (d << 1) | ((from >> l & 1) && pred(l) ? 1u : 0u);
    } else {
      for (int l = 0; l < kWarpSize; ++l)
        if ((from >> l & 1) && pred(l)) d |= 1u << l;
    }
    out.d[self] = d;
    return;
  }
  int last = bug(VOTE_SKIPS_LANE31) ? kWarpSize - 1 : kWarpSize;
  uint32_t ballot = 0;
  int n = 0, ntrue = 0;
  for (int l = 0; l < last; ++l) {
    if (!(members >> l & 1)) continue;
    ++n;
    if (pred(l)) { ++ntrue; ballot |= 1u << l; }
  }
  bool r = false;
  switch (in.op) {
    case Op::All:
      r = bug(VOTE_ALL_VS_MEMBERMASK) ? ballot == w.lane[self].membermask : ntrue == n;
      break;
    case Op::Any: r = ntrue > 0; break;
    case Op::Uni:
      r = bug(VOTE_UNI_VS_ACTIVEMASK) ? (ballot == 0 || ballot == w.active())
                                      : (ntrue == 0 || ntrue == n);
      break;
    default: break;
  }
  if (in.negate && bug(VOTE_NEGATE_RESULT)) r = !r;
  out.d[self] = r ? 1u : 0u;
}

// --- redux ----------------------------------------------------------------
static uint32_t redux_identity(const Instr& in) {
  switch (in.op) {
    case Op::Add: case Op::Or: case Op::Xor: return 0;
    case Op::And: return 0xffffffffu;
    case Op::Min:
      if (in.ty == Ty::S32) return 0x7fffffffu;
      return bug(REDUX_MIN_U32_IDENTITY_INTMAX)
                 ? static_cast<uint32_t>(std::numeric_limits<int>::max()) : 0xffffffffu;
    case Op::Max: return in.ty == Ty::S32 ? 0x80000000u : 0u;
    default: return 0;
  }
}

static uint32_t redux_combine(const Instr& in, uint32_t x, uint32_t y) {
  switch (in.op) {
    case Op::Add: return x + y;
    case Op::And: return x & y;
    case Op::Or: return x | y;
    case Op::Xor: return x ^ y;
    case Op::Min:
      if (in.ty == Ty::S32) return static_cast<int32_t>(x) < static_cast<int32_t>(y) ? x : y;
      return x < y ? x : y;
    case Op::Max:
      if (in.ty == Ty::S32 && !bug(REDUX_MAX_S32_UNSIGNED))
        return static_cast<int32_t>(x) > static_cast<int32_t>(y) ? x : y;
      return x > y ? x : y;
    default: return x;
  }
}

static void exec_redux(const Warp& w, const Instr& in, int self, uint32_t members, RoundOut& out) {
  // gather the members' registers
  std::vector<uint32_t> vals;
  if (bug(REDUX_MASK_SIGNED_LOOP)) {
    int lane = 0;
    for (int32_t m = static_cast<int32_t>(members); m > 0; m >>= 1, ++lane)
      if (m & 1) vals.push_back(static_cast<uint32_t>(w.lane[lane].src));
  } else {
    for (int l = 0; l < kWarpSize; ++l)
      if (members >> l & 1) vals.push_back(static_cast<uint32_t>(w.lane[l].src));
  }
  if (bug(REDUX_EXITED_AS_ZERO)) {
    uint32_t ex = w.lane[self].membermask & w.exited();
    for (int l = 0; l < kWarpSize; ++l)
      if (ex >> l & 1) vals.push_back(0);
  }

  uint32_t acc;
  if (in.op == Op::Min && in.ty == Ty::S32 && bug(REDUX_MIN_S32_VIA_NEG_MAX)) {
    int32_t mx = std::numeric_limits<int32_t>::min();
    for (uint32_t v : vals) {
      int32_t neg = static_cast<int32_t>(0u - v);  // wraps: -INT_MIN == INT_MIN
      if (neg > mx) mx = neg;
    }
    acc = 0u - static_cast<uint32_t>(mx);
  } else if (in.op == Op::Add && bug(REDUX_ADD_TREE_DROPS_ODD)) {
    std::vector<uint32_t> t = vals;
    size_t n = t.size();
    for (size_t s = n / 2; s > 0; s /= 2)
      for (size_t i = 0; i < s; ++i) t[i] = redux_combine(in, t[i], t[i + s]);
    acc = t.empty() ? 0 : t[0];
  } else {
    acc = redux_identity(in);
    for (uint32_t v : vals) acc = redux_combine(in, acc, v);
  }
  if (bug(REDUX_SELF_COUNTED_TWICE) && (in.op == Op::Add || in.op == Op::Xor))
    acc = redux_combine(in, static_cast<uint32_t>(w.lane[self].src), acc);
  out.d[self] = acc;
}

// --- warp unit: arrival, completion, combination ---------------------------
struct WarpUnit {
  RoundOut run(const Warp& w, const Instr& in) {
    RoundOut out;
    out.n = kWarpSize;
    out.d.assign(kWarpSize, std::nullopt);
    out.p.assign(kWarpSize, std::nullopt);
    out.has_p = in.fam == Family::Match && in.op == Op::All;

    const uint32_t arrived = w.active();
    const uint32_t exited = w.exited();

    if (in.fam == Family::SyncWarp) return run_syncwarp(w, arrived, exited, out);

    for (int l = 0; l < kWarpSize; ++l) {
      if (!(arrived >> l & 1)) continue;
      uint32_t m = effective_mask(w, in, l);
      uint32_t wait_for = m & ~exited;
      if ((wait_for & arrived) != wait_for) {
        // a live lane named in the mask never executes this instruction: the
        // deadlock detector reports it and the collective goes on with the
        // lanes that did arrive
        out.ub = true;
        wait_for &= arrived;
      }
      switch (in.fam) {
        case Family::Match: exec_match(w, in, l, wait_for, out); break;
        case Family::Vote: exec_vote(w, in, l, wait_for, out); break;
        case Family::Redux: exec_redux(w, in, l, wait_for, out); break;
        default: break;
      }
    }
    return out;
  }

  RoundOut& run_syncwarp(const Warp& w, uint32_t arrived, uint32_t exited, RoundOut& out) {
    const uint32_t live = ~exited;
    if (bug(SYNCWARP_ARRIVAL_EQ)) {
      // lanes arrive in lane order into one warp-wide arrival set; after each
      // arrival, every waiting group whose requirement equals the set leaves.
      uint32_t set = 0, released = 0;
      for (int l = 0; l < kWarpSize; ++l) {
        if (!(arrived >> l & 1)) continue;
        set |= 1u << l;
        for (int k = 0; k < kWarpSize; ++k) {
          if (!(set >> k & 1)) continue;
          uint32_t req = w.lane[k].membermask & live;
          if (set == req) { released |= req; set &= ~req; }
        }
      }
      for (int l = 0; l < kWarpSize; ++l)
        if (arrived >> l & 1) {
          if (released >> l & 1) out.d[l] = 0; else out.hang = true;
        }
      return out;
    }
    for (int l = 0; l < kWarpSize; ++l) {
      if (!(arrived >> l & 1)) continue;
      uint32_t m = w.lane[l].membermask;
      uint32_t need = m & live;
      if (bug(SYNCWARP_WHOLE_WARP)) need = live;
      if (bug(SYNCWARP_FULL_MASK_ALL32) && m == 0xffffffffu) need = 0xffffffffu;
      if ((need & arrived) == need) { out.d[l] = 0; continue; }
      if (need & ~arrived & ~live) out.hang = true;  // waits for an exited lane: forever
      else { out.ub = true; out.d[l] = 0; }         // a live lane stays away: detected
    }
    return out;
  }
};

// ---------------------------------------------------------------------------
// Block model: threads, warps, one hardware barrier slot (barrier 0)
// ---------------------------------------------------------------------------
struct Thread {
  Status status = Status::Active;
  int64_t a = 0;
};

struct Block {
  std::vector<Thread> thread;
  int nthreads() const { return static_cast<int>(thread.size()); }
  int nwarps() const { return (nthreads() + kWarpSize - 1) / kWarpSize; }
};

struct BarrierSlot {
  // persistent across barriers of one kernel
  bool latched = false;
  int latched_expected = 0;
  // per generation
  int expected = 0;
  int arrived = 0;
  uint32_t popc = 0;
  uint8_t popc8 = 0;
  bool all = true, any = false;
  std::vector<int> waiting;
  std::vector<int> warp_left;  // CTA_WARP_GRANULAR: threads still to come per warp
  int warps_done = 0;

  void reset_generation() {
    arrived = 0; popc = 0; popc8 = 0; all = true; any = false; waiting.clear(); warps_done = 0;
  }
};

struct CtaUnit {
  BarrierSlot slot;

  bool predicate(const Instr& in, int64_t a) const {
    uint32_t r = static_cast<uint32_t>(a);
    if (in.negate) {
      if (bug(CTA_NEGATE_BITWISE)) r = ~r; else r = (r == 0);
    }
    if (bug(CTA_PRED_LOW_BIT)) return r & 1;
    return r != 0;
  }

  void fold(bool p) {
    if (p) { ++slot.popc; ++slot.popc8; }
    slot.all = slot.all && p;
    slot.any = slot.any || p;
  }

  uint32_t snapshot(const Instr& in) const {
    switch (in.op) {
      case Op::Popc: return bug(CTA_POPC_U8) ? slot.popc8 : slot.popc;
      case Op::And: return slot.all ? 1 : 0;
      case Op::Or: return slot.any ? 1 : 0;
      default: return 0;
    }
  }

  RoundOut run(const Block& b, const Instr& in) {
    RoundOut out;
    const int n = b.nthreads();
    out.n = n;
    out.d.assign(n, std::nullopt);
    out.p.assign(n, std::nullopt);

    int live = 0, exited = 0;
    for (const auto& t : b.thread) (t.status == Status::Exited ? exited : live)++;

    // expected arrivals for this barrier
    int expected = live;
    if (bug(CTA_COUNT_WHOLE_WARPS)) expected = b.nwarps() * kWarpSize - exited;
    if (bug(CTA_EXPECTED_LATCHED)) {
      if (!slot.latched) { slot.latched = true; slot.latched_expected = live; }
      expected = slot.latched_expected;
    }
    slot.expected = expected;
    slot.reset_generation();
    // the last warp votes as a whole: lanes past the end of the block hold 0
    if (bug(CTA_PADDING_LANES_VOTE) && in.op != Op::Sync)
      for (int t = n; t < b.nwarps() * kWarpSize; ++t) fold(predicate(in, 0));

    if (bug(CTA_WARP_GRANULAR)) {
      slot.expected = b.nwarps();
      slot.warp_left.assign(b.nwarps(), 0);
      for (int t = 0; t < n; ++t)
        if (b.thread[t].status != Status::Exited) slot.warp_left[t / kWarpSize]++;
    }

    // threads reach the barrier warp by warp, lane by lane
    for (int w = 0; w < b.nwarps(); ++w) {
      for (int l = 0; l < kWarpSize; ++l) {
        int t = w * kWarpSize + l;
        if (t >= n) break;
        const Thread& th = b.thread[t];
        if (th.status != Status::Active) continue;
        arrive(in, t, out);
      }
    }
    if (!slot.waiting.empty()) {
      // deadlock: if a live thread never reached the barrier the detector
      // reports it and releases the waiters; otherwise the block just hangs
      bool absent = false;
      for (const auto& t : b.thread) absent = absent || t.status == Status::Inactive;
      if (absent) {
        out.ub = true;
        for (int w : slot.waiting) out.d[w] = snapshot(in);
        slot.reset_generation();
      } else {
        out.hang = true;
      }
    }
    return out;
  }

  void arrive(const Instr& in, int t, RoundOut& out) {
    slot.waiting.push_back(t);
    ++slot.arrived;
    uint32_t before = snapshot(in);
    if (in.op != Op::Sync) fold(pred_of_[t]);
    bool release;
    if (bug(CTA_WARP_GRANULAR)) {
      int w = t / kWarpSize;
      if (--slot.warp_left[w] == 0) ++slot.warps_done;
      release = slot.warps_done == slot.expected;
    } else {
      release = slot.arrived == slot.expected;
    }
    if (!release) return;
    uint32_t r = bug(CTA_LAST_ARRIVAL_MISSED) ? before : snapshot(in);
    for (int w : slot.waiting) out.d[w] = r;
    slot.reset_generation();
    if (bug(CTA_WARP_GRANULAR)) slot.warp_left.assign(slot.warp_left.size(), 0);
  }

  // per-round predicate table filled before the arrivals
  std::vector<bool> pred_of_;

  RoundOut execute(const Block& b, const Instr& in) {
    pred_of_.assign(b.nthreads(), false);
    for (int t = 0; t < b.nthreads(); ++t) pred_of_[t] = predicate(in, b.thread[t].a);
    return run(b, in);
  }
};

// ---------------------------------------------------------------------------
// Driver
// ---------------------------------------------------------------------------
static json lane_list(const RoundOut& r, bool p) {
  json arr = json::array();
  for (size_t i = 0; i < r.n; ++i) {
    if (p) {
      if (r.p[i]) arr.push_back(*r.p[i]); else arr.push_back(nullptr);
    } else {
      if (r.d[i]) arr.push_back(hex32(*r.d[i])); else arr.push_back(nullptr);
    }
  }
  return arr;
}

static json run_vector(const json& v) {
  Instr in;
  try {
    in = decode(v.at("form").get<std::string>(), v.value("instruction", std::string()));
  } catch (const std::runtime_error&) {  // a form this emulation does not implement
    return json{{"id", v.at("id")}, {"skipped", true}};
  }
  json res;
  res["id"] = v.at("id");
  json rounds = json::array();
  WarpUnit wu;
  CtaUnit cu;
  for (const auto& rj : v.at("rounds")) {
    RoundOut out;
    if (in.fam == Family::Cta) {
      int n = rj.at("threads").get<int>();
      Block b;
      b.thread.resize(n);
      auto ex = parse_ranges(rj.value("exited", json("none")), n);
      auto ia = parse_ranges(rj.value("inactive", json("none")), n);
      auto a = per_lane(rj.contains("a") ? rj["a"] : json(), n);
      for (int t = 0; t < n; ++t) {
        b.thread[t].status = ex[t] ? Status::Exited : ia[t] ? Status::Inactive : Status::Active;
        b.thread[t].a = static_cast<int64_t>(a[t]);
      }
      out = cu.execute(b, in);
    } else {
      Warp w;
      uint32_t ex = static_cast<uint32_t>(value_of(rj.at("exited")));
      uint32_t ia = static_cast<uint32_t>(value_of(rj.at("inactive")));
      auto m = per_lane(rj.at("mask"), kWarpSize);
      auto a = per_lane(rj.contains("a") ? rj["a"] : json(), kWarpSize);
      for (int l = 0; l < kWarpSize; ++l) {
        w.lane[l].status = (ex >> l & 1) ? Status::Exited : (ia >> l & 1) ? Status::Inactive
                                                                          : Status::Active;
        w.lane[l].membermask = static_cast<uint32_t>(m[l]);
        w.lane[l].src = a[l];
      }
      out = wu.run(w, in);
    }
    json r;
    if (out.hang) {
      r["hang"] = true;
      rounds.push_back(r);
      break;  // the rounds after a hang never run
    }
    if (out.ub) r["ub"] = true;
    r["d"] = lane_list(out, false);
    if (out.has_p) r["p"] = lane_list(out, true);
    rounds.push_back(r);
  }
  res["rounds"] = rounds;
  return res;
}

static void list_bugs() {
  for (const auto& b : kBugs) std::printf("%d\t%s\t%s\t%s\n", b.id, b.key, b.forms, b.text);
}

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "--list") == 0) { list_bugs(); return 0; }
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s VECTORS.jsonl BUG  |  %s --list\n", argv[0], argv[0]);
    return 64;
  }
  g_bug = std::atoi(argv[2]);
  if (g_bug < 0 || g_bug >= BUG_COUNT) { std::fprintf(stderr, "no bug %d\n", g_bug); return 64; }
  std::ifstream f(argv[1]);
  if (!f) { std::fprintf(stderr, "cannot open %s\n", argv[1]); return 66; }
  std::string line;
  bool header = true;
  std::cout << json{{"schema", "warpspec-results/1"}}.dump() << '\n';
  while (std::getline(f, line)) {
    if (line.empty()) continue;
    json v = json::parse(line);
    if (header) {
      header = false;
      if (v.value("schema", "") != "warpspec-vectors/1") {
        std::fprintf(stderr, "not a warpspec-vectors/1 file\n");
        return 65;
      }
      continue;
    }
    std::cout << run_vector(v).dump() << '\n';
  }
  return 0;
}
