// sim.cpp -- "lanebits": a host-side lowering of warp and block collectives.
//
// Written from the manual sections (PTX ISA: match.sync, vote.sync, redux.sync;
// CUDA C++ guide: __match_*_sync, __syncthreads*, __syncwarp) and from the
// warpspec-vectors/1 and warpspec-results/1 file formats alone.
//
// Micro-architecture story.  This models a compiler back end that runs GPU
// kernels on a CPU: every collective is lowered into a scalar loop over a
// 64-bit host-integer "lane bitmap".  Warp state lives in bitmaps (exited,
// executing, per-lane membermask); participants are walked with
// ctz / clear-lowest-set-bit (b &= b - 1), counted with popcount, and split
// into two 16-lane halves with pext/pdep when a collective is vectorised.
// Block barriers are lowered to an arrival counter plus per-warp ballots.
// The deliberately wrong variants ("bugs") are the mistakes such a lowering
// pass makes: sign-extended 32-bit masks in 64-bit bitmaps, loops that stop at
// the sign bit, identities and compares of the wrong signedness, narrow
// counters, scratch registers that are not re-initialised between launches of
// the same instruction, per-half or per-call-site splitting, and so on.
//
// Usage:  sim --list
//         sim VECTORS.jsonl N      (N = 0: the correct implementation)

#include <nlohmann/json.hpp>

#include <bit>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using json = nlohmann::json;
using u32 = uint32_t;
using u64 = uint64_t;
using i32 = int32_t;
using i64 = int64_t;

static int BUG = 0;
static inline bool B(int n) { return BUG == n; }

// ---------------------------------------------------------------------------
// Bug catalogue
// ---------------------------------------------------------------------------
struct BugInfo { int n; const char* key; const char* forms; const char* desc; };
static const BugInfo kBugs[] = {
  // match.any
  {1, "matchany_leader_mask", "match.any.b32,match.any.b64", "membermask read once from the lowest executing lane and used for every lane"},
  {2, "matchany_exited_lanes", "match.any.b32,match.any.b64", "participant bitmap is the raw membermask: exited lanes' stale values still match"},
  {3, "matchany_b64_low_word", "match.any.b64", "64-bit key compared on its low register only"},
  {4, "matchany_b64_fold_key", "match.any.b64", "CAM key is lo^hi fold of the 64-bit value, no verify on hit (collisions match)"},
  {5, "matchany_lane31_loop", "match.any.b32,match.any.b64", "compare loop runs j < 31: lane 31 never sets a bit"},
  {6, "matchany_site_split", "match.any.b32,match.any.b64", "lowered per basic block: lanes arriving from different call sites never match each other"},
  // match.all
  {7, "matchall_d_membermask", "match.all.b32,match.all.b64", "on success d is the membermask itself, exited lanes not removed"},
  {8, "matchall_exited_values", "match.all.b32,match.all.b64", "equality walk covers the raw membermask: exited lanes' stale values can break the match"},
  {9, "matchall_b64_low_word", "match.all.b64", "64-bit values compared on the low word only"},
  {10, "matchall_p_sticky", "match.all.b32,match.all.b64", "per-lane 'all equal' flag is AND-accumulated and never re-initialised between executions"},
  {11, "matchall_ref_lane0", "match.all.b32,match.all.b64", "reference value taken from lane 0's register even when lane 0 does not participate"},
  {12, "matchall_per_half", "match.all.b32,match.all.b64", "vectorised in two 16-lane halves; each half checked uniform but halves never compared"},
  {13, "matchall_single_lane", "match.all.b32,match.all.b64", "'all equal' computed as 'some other lane equal': a lone participant gets d=0, p=0"},
  // vote.all / any / uni
  {14, "voteall_exited_lanes", "vote.all,vote.all.not", "vote.all walks the raw membermask: exited lanes' stale predicates count"},
  {15, "voteall_negate_result", "vote.all.not", "!a lowered as negating the reduction result (not_all) instead of each predicate (none)"},
  {16, "voteany_negate_result", "vote.any.not", "!a lowered as negating the reduction result (none) instead of each predicate (not_all)"},
  {17, "voteany_exec_bitmap", "vote.any,vote.any.not", "vote.any reduces over the warp's executing bitmap, ignoring the membermask"},
  {18, "voteuni_negate_result", "vote.uni.not", "!a applied to the uni result (generic 'negated vote flips result' rule)"},
  {19, "voteuni_exited_lanes", "vote.uni,vote.uni.not", "vote.uni compares exited lanes' stale predicates too"},
  {20, "voteuni_popc_vs_mask", "vote.uni,vote.uni.not", "uni computed as popc(ballot) in {0, popc(membermask)}: exited lanes make it false"},
  {21, "vote_pred_low_byte", "vote.all,vote.any,vote.uni (+not)", "predicate materialised from the low byte of the register (0x100 reads false)"},
  {22, "voteall_site_split", "vote.all,vote.all.not", "vote.all lowered per call site: lanes from another branch are left out"},
  // vote.ballot
  {23, "ballot_pred_bit0", "vote.ballot,vote.ballot.not", "ballot takes bit 0 of the predicate register (2 reads false)"},
  {24, "ballot_not_complement", "vote.ballot.not", "ballot(!a) lowered as ~ballot(a): lanes outside membermask get 1"},
  {25, "ballot_not_complement_mask", "vote.ballot.not", "ballot(!a) lowered as ~ballot(a) & membermask: exited lanes get 1"},
  {26, "ballot_half_mask_one_lane", "vote.ballot,vote.ballot.not", "each 16-lane half uses the membermask of its first executing lane"},
  {27, "ballot_stale_scratch", "vote.ballot,vote.ballot.not", "warp ballot scratch bitmap OR-accumulated, never cleared between executions"},
  // redux
  {28, "reduxadd_s32_saturate", "redux.add.s32", "signed add lowered to a saturating vector add instead of wrapping"},
  {29, "reduxadd_exited_lanes", "redux.add.s32,redux.add.u32", "add walks the raw membermask: exited lanes' stale values are summed"},
  {30, "reduxmin_s32_unsigned_cmp", "redux.min.s32", "min.s32 uses an unsigned compare"},
  {31, "reduxmax_u32_signed_cmp", "redux.max.u32", "max.u32 uses a signed compare"},
  {32, "reduxmin_u32_identity_intmax", "redux.min.u32", "min.u32 identity is INT_MAX (0x7fffffff) instead of 0xffffffff"},
  {33, "reduxmax_s32_identity_zero", "redux.max.s32", "max.s32 identity is 0 instead of INT_MIN"},
  {34, "reduxand_identity_intmax", "redux.and.b32", "and identity is 0x7fffffff: bit 31 always cleared"},
  {35, "reduxxor_leader_twice", "redux.xor.b32", "accumulator seeded with the leader's value and the loop visits the leader again"},
  {36, "reduxor_signed_loop", "redux.or.b32", "participant loop 'while ((int)b > 0)': lane 31 in the set stops the walk at once"},
  {37, "reduxmin_s32_leader_mask", "redux.min.s32", "membermask read from the lowest executing lane for all lanes"},
  {38, "reduxadd_s32_sext_result", "redux.add.s32", "sum kept in a 64-bit host integer and written back without truncation"},
  {39, "reduxand_exited_lanes", "redux.and.b32", "and walks the raw membermask: exited lanes' stale values are ANDed"},
  {40, "reduxxor_site_split", "redux.xor.b32", "xor lowered per call site: lanes from another branch are left out"},
  {41, "reduxmax_u32_stale_acc", "redux.max.u32", "per-lane max accumulator not re-initialised between executions"},
  {42, "reduxmin_u32_seed_exited", "redux.min.u32", "accumulator seeded from lane ctz(membermask), which may have exited"},
  {43, "reduxmin_s32_negate_max", "redux.min.s32", "min lowered as -max(-x): INT_MIN negates to itself and is lost"},
  {44, "reduxadd_u32_uniform_shift", "redux.add.u32", "uniform-value fast path computes v << floor(log2(count))"},
  {45, "reduxand_half_combine", "redux.and.b32", "high-half partial combined only when lane 16 participates"},
  // bar.warp.sync
  {46, "warpsync_wait_exited", "bar.warp.sync", "waits for every lane in membermask, exited lanes included (hangs)"},
  {47, "warpsync_exact_arrival", "bar.warp.sync", "releases only when the arrival bitmap equals the lane's membermask exactly"},
  {48, "warpsync_mask_sext", "bar.warp.sync", "membermask sign-extended into the 64-bit bitmap: bit 31 demands lanes 32..63"},
  {49, "warpsync_half_counter4", "bar.warp.sync", "per-half arrival counter is 4 bits: a full 16-lane half wraps to 0"},
  {50, "warpsync_site_split", "bar.warp.sync", "one barrier object per call site: lanes from another branch never arrive"},
  // bar.sync
  {51, "barsync_expect_all_threads", "bar.sync", "expected arrivals is the block size: exited threads are waited for"},
  {52, "barsync_round_up_warps", "bar.sync", "expected arrivals counts whole warps (ceil(T/32)*32)"},
  {53, "barsync_warp_exit_granular", "bar.sync", "exited threads leave the expected count only when their whole warp exited"},
  {54, "barsync_counter_not_reset", "bar.sync", "arrival counter not reset after release: the next execution never matches"},
  {55, "barsync_count_10bit", "bar.sync", "expected count kept in a 10-bit field: 1024 arrivals expected as 0"},
  // bar.red.popc
  {56, "popc_u8_counter", "bar.red.popc,bar.red.popc.not", "population count accumulated in an 8-bit counter"},
  {57, "popc_exited_threads", "bar.red.popc,bar.red.popc.not", "exited threads' stale predicates are counted"},
  {58, "popc_not_block_minus", "bar.red.popc.not", "popc(!a) lowered as T - popc(a), T the block size"},
  {59, "popc_pred_bit0", "bar.red.popc,bar.red.popc.not", "predicate read from bit 0 of the register"},
  {60, "popc_tail_warp_dropped", "bar.red.popc,bar.red.popc.not", "warp loop runs w < T/32: a partial last warp is dropped"},
  {61, "popc_per_warp_result", "bar.red.popc,bar.red.popc.not", "cross-warp step missing: each thread gets its own warp's count"},
  // bar.red.and / or
  {62, "redand_exited_false", "bar.red.and,bar.red.and.not", "exited threads contribute false to the AND"},
  {63, "redand_negate_result", "bar.red.and.not", "!a applied to the AND result instead of each predicate"},
  {64, "redand_pred_low_byte", "bar.red.and,bar.red.and.not", "predicate from the register's low byte"},
  {65, "redand_tail_full_mask", "bar.red.and,bar.red.and.not", "per-warp ballot compared with 0xffffffff even for the partial last warp"},
  {66, "redor_negate_result", "bar.red.or.not", "!a applied to the OR result instead of each predicate"},
  {67, "redor_stale_acc", "bar.red.or,bar.red.or.not", "block OR accumulator not cleared between executions"},
  {68, "redor_exited_threads", "bar.red.or,bar.red.or.not", "exited threads' stale predicates are ORed in"},
  {69, "redor_leader_lane0", "bar.red.or,bar.red.or.not", "a warp contributes only via lane 0; a warp whose lane 0 exited is skipped"},
};

// ---------------------------------------------------------------------------
// Parsing helpers
// ---------------------------------------------------------------------------
static u64 parse_u64(const json& v) {
  if (v.is_number_unsigned()) return v.get<u64>();
  if (v.is_number_integer()) return (u64)v.get<i64>();
  if (v.is_boolean()) return v.get<bool>() ? 1 : 0;
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    if (s.rfind("0x", 0) == 0 || s.rfind("0X", 0) == 0) return std::stoull(s.substr(2), nullptr, 16);
    if (!s.empty() && s[0] == '-') return (u64)std::stoll(s);
    return std::stoull(s, nullptr, 0);
  }
  return 0;
}

static std::vector<u64> per_lane(const json& v, int n) {
  std::vector<u64> out(n, 0);
  if (v.is_null()) return out;
  if (v.is_array()) {
    for (int i = 0; i < n && i < (int)v.size(); ++i) out[i] = parse_u64(v[i]);
  } else {
    u64 x = parse_u64(v);
    for (auto& e : out) e = x;
  }
  return out;
}

// lane set: hex word (warps) or ranges "1,3-7" / "none" (blocks)
static std::vector<bool> lane_set(const json& v, int n) {
  std::vector<bool> out(n, false);
  if (v.is_null()) return out;
  if (v.is_number()) {
    u64 w = parse_u64(v);
    for (int i = 0; i < n && i < 64; ++i) out[i] = (w >> i) & 1;
    return out;
  }
  std::string s = v.get<std::string>();
  if (s.rfind("0x", 0) == 0) {
    u64 w = std::stoull(s.substr(2), nullptr, 16);
    for (int i = 0; i < n && i < 64; ++i) out[i] = (w >> i) & 1;
    return out;
  }
  if (s == "none" || s.empty()) return out;
  if (s == "all") { for (int i = 0; i < n; ++i) out[i] = true; return out; }
  std::stringstream ss(s);
  std::string tok;
  while (std::getline(ss, tok, ',')) {
    if (tok.empty()) continue;
    auto dash = tok.find('-');
    int lo, hi;
    if (dash == std::string::npos) lo = hi = std::stoi(tok);
    else { lo = std::stoi(tok.substr(0, dash)); hi = std::stoi(tok.substr(dash + 1)); }
    for (int i = lo; i <= hi; ++i) if (i >= 0 && i < n) out[i] = true;
  }
  return out;
}

// ---------------------------------------------------------------------------
// Instruction decoding
// ---------------------------------------------------------------------------
enum class Kind { MatchAny, MatchAll, VoteAll, VoteAny, VoteUni, Ballot, Redux, WarpSync, BarSync, BarPopc, BarAnd, BarOr, Unknown };
enum class ROp { Add, Min, Max, And, Or, Xor };

struct Insn {
  Kind kind = Kind::Unknown;
  int width = 32;        // match: 32 or 64
  ROp rop = ROp::Add;
  bool is_signed = false;
  bool neg = false;      // {!}a
};

static Insn decode(const std::string& form, const std::string& text) {
  Insn in;
  in.neg = text.find("!a") != std::string::npos;
  auto has = [&](const char* s) { return form.find(s) != std::string::npos || text.find(s) != std::string::npos; };
  if (has("match.any")) in.kind = Kind::MatchAny;
  else if (has("match.all")) in.kind = Kind::MatchAll;
  else if (has("vote")) {
    if (has(".ballot")) in.kind = Kind::Ballot;
    else if (has(".all")) in.kind = Kind::VoteAll;
    else if (has(".any")) in.kind = Kind::VoteAny;
    else if (has(".uni")) in.kind = Kind::VoteUni;
  } else if (has("redux")) {
    in.kind = Kind::Redux;
    if (has(".add")) in.rop = ROp::Add;
    else if (has(".min")) in.rop = ROp::Min;
    else if (has(".max")) in.rop = ROp::Max;
    else if (has(".and")) in.rop = ROp::And;
    else if (has(".or")) in.rop = ROp::Or;
    else if (has(".xor")) in.rop = ROp::Xor;
    in.is_signed = has(".s32");
  } else if (has("bar.warp.sync")) in.kind = Kind::WarpSync;
  else if (has("bar.red")) {
    if (has(".popc")) in.kind = Kind::BarPopc;
    else if (has(".and")) in.kind = Kind::BarAnd;
    else if (has(".or")) in.kind = Kind::BarOr;
  } else if (has("bar.sync") || has("barrier.sync")) in.kind = Kind::BarSync;
  if (has(".b64")) in.width = 64;
  return in;
}

// ---------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------
struct RoundOut {
  bool hang = false;
  bool has_p = false;
  std::vector<std::optional<u64>> d;
  std::vector<std::optional<int>> p;
  bool d_is_pred = false;
  bool d_wide = false;  // 64-bit print
};

static json dval(const RoundOut& r, const std::optional<u64>& v) {
  if (!v) return nullptr;
  if (r.d_is_pred) return (int)(*v != 0);
  char buf[40];
  if (r.d_wide) std::snprintf(buf, sizeof buf, "0x%016llx", (unsigned long long)*v);
  else std::snprintf(buf, sizeof buf, "0x%08x", (unsigned)(*v & 0xffffffffu));
  return std::string(buf);
}

static json round_json(const RoundOut& r) {
  json o = json::object();
  if (r.hang) { o["hang"] = true; return o; }
  json d = json::array();
  for (auto& v : r.d) d.push_back(dval(r, v));
  o["d"] = d;
  if (r.has_p) {
    json p = json::array();
    for (auto& v : r.p) p.push_back(v ? json(*v) : json(nullptr));
    o["p"] = p;
  }
  return o;
}

// ---------------------------------------------------------------------------
// Lane-bitmap machinery
// ---------------------------------------------------------------------------
struct WarpState {
  u64 exited = 0;      // bitmap
  u64 exec = 0;        // executing lanes
  u32 mask[32] = {};
  u64 a[32] = {};
  int site[32] = {};
};

// scratch registers of the lowered program, kept for the whole vector
struct Scratch {
  bool matchall_flag[32];
  u32 ballot_scratch = 0;
  u32 max_acc[32] = {};
  u64 bar_counter = 0;
  bool bar_or_acc = false;
  Scratch() { for (auto& f : matchall_flag) f = true; }
};

static inline int ctz64(u64 b) { return std::countr_zero(b); }
static inline int popc64(u64 b) { return std::popcount(b); }
static inline u64 bit(int j) { return 1ull << j; }

static inline bool pred_of(u64 a) { return (u32)a != 0; }

// the participant bitmap of lane l: membermask minus exited lanes
static u64 participants(const WarpState& w, int l) {
  return (u64)w.mask[l] & ~w.exited & 0xffffffffull;
}

static int lowest_exec(const WarpState& w) { return w.exec ? ctz64(w.exec) : 0; }

// would lane l wait forever (non-exited lanes in its mask that do not execute)?
static bool lane_hangs(const WarpState& w, int l) {
  u64 need = participants(w, l);
  return (need & ~w.exec) != 0;
}

// ---------------------------------------------------------------------------
// match
// ---------------------------------------------------------------------------
static u64 match_key(const Insn& in, u64 a) {
  if (in.width == 32) return (u32)a;
  if (B(3) || B(9)) return (u32)a;                    // low register only
  if (B(4)) return (u32)a ^ (u32)(a >> 32);           // folded CAM key
  return a;
}

static void do_match_any(const Insn& in, const WarpState& w, RoundOut& r) {
  for (int l = 0; l < 32; ++l) {
    if (!(w.exec & bit(l))) continue;
    u64 part = participants(w, l);
    if (B(1)) part = (u64)w.mask[lowest_exec(w)] & ~w.exited & 0xffffffffull;
    if (B(2)) part = (u64)w.mask[l];
    u64 mine = match_key(in, w.a[l]);
    u64 d = 0;
    if (B(5)) {
      for (int j = 0; j < 31; ++j)
        if ((part >> j) & 1)
          if (match_key(in, w.a[j]) == mine) d |= bit(j);
    } else {
      for (u64 b = part; b; b &= b - 1) {
        int j = ctz64(b);
        if (B(6) && w.site[j] != w.site[l]) continue;
        if (match_key(in, w.a[j]) == mine) d |= bit(j);
      }
    }
    r.d[l] = d;
  }
}

static void do_match_all(const Insn& in, const WarpState& w, RoundOut& r, Scratch& s) {
  r.has_p = true;
  for (int l = 0; l < 32; ++l) {
    if (!(w.exec & bit(l))) continue;
    u64 part = participants(w, l);
    u64 walk = part;
    if (B(8)) walk = (u64)w.mask[l];
    u64 ref = match_key(in, w.a[l]);
    if (B(11)) ref = match_key(in, w.a[0]);
    bool all = true;
    if (B(12)) {
      // two halves, each compared against its own first participant
      for (int h = 0; h < 2; ++h) {
        u64 half = walk & (0xffffull << (16 * h));
        if (!half) continue;
        u64 href = match_key(in, w.a[ctz64(half)]);
        for (u64 b = half; b; b &= b - 1)
          if (match_key(in, w.a[ctz64(b)]) != href) all = false;
      }
    } else if (B(13)) {
      bool other_equal = false;
      bool other_diff = false;
      for (u64 b = walk & ~bit(l); b; b &= b - 1) {
        if (match_key(in, w.a[ctz64(b)]) == ref) other_equal = true;
        else other_diff = true;
      }
      all = other_equal && !other_diff;
    } else {
      for (u64 b = walk; b; b &= b - 1)
        if (match_key(in, w.a[ctz64(b)]) != ref) all = false;
    }
    if (B(10)) { s.matchall_flag[l] = s.matchall_flag[l] && all; all = s.matchall_flag[l]; }
    u64 d = all ? part : 0;
    if (B(7) && all) d = w.mask[l];
    r.d[l] = d;
    r.p[l] = all ? 1 : 0;
  }
}

// ---------------------------------------------------------------------------
// vote
// ---------------------------------------------------------------------------
static bool vote_pred(const Insn& in, u64 a) {
  bool v;
  if (B(21) && in.kind != Kind::Ballot) v = (a & 0xff) != 0;
  else if (B(23) && in.kind == Kind::Ballot) v = (a & 1) != 0;
  else v = pred_of(a);
  return v;
}

static void do_vote(const Insn& in, const WarpState& w, RoundOut& r, Scratch& s) {
  if (in.kind != Kind::Ballot) r.d_is_pred = true;
  // negation applied per predicate (lowering may instead apply it elsewhere)
  bool neg_on_result = false;
  if (in.neg && B(15) && in.kind == Kind::VoteAll) neg_on_result = true;
  if (in.neg && B(16) && in.kind == Kind::VoteAny) neg_on_result = true;
  if (in.neg && B(18) && in.kind == Kind::VoteUni) neg_on_result = true;
  bool neg_per_lane = in.neg && !neg_on_result;
  bool ballot_complement = in.kind == Kind::Ballot && in.neg && (B(24) || B(25));
  if (ballot_complement) neg_per_lane = false;

  auto P = [&](int j) { bool v = vote_pred(in, w.a[j]); return neg_per_lane ? !v : v; };

  // warp-wide ballot of this execution (stale scratch variant keeps old bits)
  u32 round_bits = 0;
  for (u64 b = w.exec; b; b &= b - 1) { int j = ctz64(b); if (P(j)) round_bits |= (u32)bit(j); }
  if (B(27) && in.kind == Kind::Ballot) { s.ballot_scratch |= round_bits; }

  for (int l = 0; l < 32; ++l) {
    if (!(w.exec & bit(l))) continue;
    u64 part = participants(w, l);
    switch (in.kind) {
      case Kind::VoteAll: {
        u64 walk = B(14) ? (u64)w.mask[l] : part;
        bool res = true;
        for (u64 b = walk; b; b &= b - 1) {
          int j = ctz64(b);
          if (B(22) && w.site[j] != w.site[l]) continue;
          if (!P(j)) res = false;
        }
        if (neg_on_result) res = !res;
        r.d[l] = res;
        break;
      }
      case Kind::VoteAny: {
        u64 walk = B(17) ? w.exec : part;
        bool res = false;
        for (u64 b = walk; b; b &= b - 1) if (P(ctz64(b))) res = true;
        if (neg_on_result) res = !res;
        r.d[l] = res;
        break;
      }
      case Kind::VoteUni: {
        bool res;
        if (B(20)) {
          u64 bal = 0;
          for (u64 b = part; b; b &= b - 1) { int j = ctz64(b); if (P(j)) bal |= bit(j); }
          res = popc64(bal) == 0 || popc64(bal) == std::popcount(w.mask[l]);
        } else {
          u64 walk = B(19) ? (u64)w.mask[l] : part;
          bool any_t = false, any_f = false;
          for (u64 b = walk; b; b &= b - 1) { if (P(ctz64(b))) any_t = true; else any_f = true; }
          res = !(any_t && any_f);
        }
        if (neg_on_result) res = !res;
        r.d[l] = res;
        break;
      }
      case Kind::Ballot: {
        u64 m = part;
        if (B(26)) {
          int half = l / 16;
          u64 hexec = w.exec & (0xffffull << (16 * half));
          int src = hexec ? ctz64(hexec) : l;
          m = (u64)w.mask[src] & ~w.exited & 0xffffffffull;
        }
        u64 bal = 0;
        if (B(27)) {
          bal = s.ballot_scratch & m;
        } else {
          for (u64 b = m; b; b &= b - 1) { int j = ctz64(b); if (P(j)) bal |= bit(j); }
        }
        if (ballot_complement) {
          if (B(24)) bal = ~bal & 0xffffffffull;
          else bal = ~bal & (u64)w.mask[l];
        }
        r.d[l] = bal;
        break;
      }
      default: break;
    }
  }
}

// ---------------------------------------------------------------------------
// redux
// ---------------------------------------------------------------------------
static u32 redux_identity(const Insn& in) {
  switch (in.rop) {
    case ROp::Add: return 0;
    case ROp::Min:
      if (in.is_signed) return 0x7fffffffu;
      return B(32) ? 0x7fffffffu : 0xffffffffu;
    case ROp::Max:
      if (in.is_signed) return B(33) ? 0u : 0x80000000u;
      return 0;
    case ROp::And: return B(34) ? 0x7fffffffu : 0xffffffffu;
    case ROp::Or: return 0;
    case ROp::Xor: return 0;
  }
  return 0;
}

static u32 redux_combine(const Insn& in, u32 acc, u32 v) {
  switch (in.rop) {
    case ROp::Add:
      if (B(28) && in.is_signed) {
        i64 s = (i64)(i32)acc + (i64)(i32)v;
        if (s > INT32_MAX) s = INT32_MAX;
        if (s < INT32_MIN) s = INT32_MIN;
        return (u32)(i32)s;
      }
      return acc + v;
    case ROp::Min:
      if (in.is_signed && !B(30)) return (i32)v < (i32)acc ? v : acc;
      return v < acc ? v : acc;
    case ROp::Max:
      if (!in.is_signed && !B(31)) return v > acc ? v : acc;
      return (i32)v > (i32)acc ? v : acc;
    case ROp::And: return acc & v;
    case ROp::Or: return acc | v;
    case ROp::Xor: return acc ^ v;
  }
  return acc;
}

static void do_redux(const Insn& in, const WarpState& w, RoundOut& r, Scratch& s) {
  for (int l = 0; l < 32; ++l) {
    if (!(w.exec & bit(l))) continue;
    u64 part = participants(w, l);
    if (B(29) && in.rop == ROp::Add) part = w.mask[l];
    if (B(39) && in.rop == ROp::And) part = w.mask[l];
    if (B(37) && in.rop == ROp::Min && in.is_signed)
      part = (u64)w.mask[lowest_exec(w)] & ~w.exited & 0xffffffffull;

    u32 acc = redux_identity(in);
    bool wide = false;
    i64 wide_sum = 0;

    if (B(43) && in.rop == ROp::Min && in.is_signed) {
      // min(x) = -max(-x), in 32-bit arithmetic
      u32 m = 0x80000000u;
      for (u64 b = part; b; b &= b - 1) {
        u32 nv = (u32)(-(i64)(i32)(u32)w.a[ctz64(b)]);
        if ((i32)nv > (i32)m) m = nv;
      }
      acc = (u32)(-(i64)(i32)m);
    } else if (B(44) && in.rop == ROp::Add && !in.is_signed && part &&
               [&] { u32 v0 = (u32)w.a[ctz64(part)];
                     for (u64 b = part; b; b &= b - 1) if ((u32)w.a[ctz64(b)] != v0) return false;
                     return true; }()) {
      u32 v0 = (u32)w.a[ctz64(part)];
      int lg = 63 - std::countl_zero((u64)popc64(part));
      acc = v0 << lg;
    } else if (B(45) && in.rop == ROp::And) {
      u32 lo = 0xffffffffu, hi = 0xffffffffu;
      for (u64 b = part & 0xffffull; b; b &= b - 1) lo &= (u32)w.a[ctz64(b)];
      for (u64 b = part & 0xffff0000ull; b; b &= b - 1) hi &= (u32)w.a[ctz64(b)];
      acc = lo;
      if (part & bit(16)) acc &= hi;
      if (!(part & 0xffffull)) acc = (part & bit(16)) ? hi : 0xffffffffu;
    } else if (B(36) && in.rop == ROp::Or) {
      for (u64 b = part; (i32)(u32)b > 0; b &= b - 1) acc |= (u32)w.a[ctz64(b)];
    } else {
      if (B(35) && in.rop == ROp::Xor && part) acc = (u32)w.a[ctz64(part)];
      if (B(42) && in.rop == ROp::Min && !in.is_signed && w.mask[l]) acc = (u32)w.a[std::countr_zero(w.mask[l])];
      if (B(41) && in.rop == ROp::Max && !in.is_signed) acc = s.max_acc[l];
      for (u64 b = part; b; b &= b - 1) {
        int j = ctz64(b);
        if (B(40) && in.rop == ROp::Xor && w.site[j] != w.site[l]) continue;
        u32 v = (u32)w.a[j];
        acc = redux_combine(in, acc, v);
        if (B(38) && in.rop == ROp::Add && in.is_signed) { wide = true; wide_sum += (i32)v; }
      }
      if (B(41) && in.rop == ROp::Max && !in.is_signed) s.max_acc[l] = acc;
    }
    if (wide) { r.d_wide = true; r.d[l] = (u64)wide_sum; }
    else r.d[l] = acc;
  }
}

// ---------------------------------------------------------------------------
// bar.warp.sync
// ---------------------------------------------------------------------------
static void do_warpsync(const WarpState& w, RoundOut& r) {
  u64 arrived = w.exec;
  bool hang = false;
  for (int l = 0; l < 32; ++l) {
    if (!(w.exec & bit(l))) continue;
    u64 need = participants(w, l);
    if (B(46)) need = w.mask[l];
    if (B(48)) need = (u64)(i64)(i32)w.mask[l] & ~w.exited;
    bool ok;
    if (B(47)) {
      ok = (arrived & ~w.exited) == ((u64)w.mask[l] & ~w.exited);
    } else if (B(49)) {
      ok = true;
      for (int h = 0; h < 2; ++h) {
        u64 hm = 0xffffull << (16 * h);
        unsigned cnt = (unsigned)popc64(arrived & need & hm) & 0xf;
        if (cnt != (unsigned)popc64(need & hm)) ok = false;
      }
    } else if (B(50)) {
      u64 same_site = 0;
      for (int j = 0; j < 32; ++j) if ((arrived & bit(j)) && w.site[j] == w.site[l]) same_site |= bit(j);
      ok = (need & ~same_site) == 0;
    } else {
      ok = (need & ~arrived) == 0;
    }
    if (!ok) hang = true;
    r.d[l] = 1;
  }
  r.hang = hang;
}

// ---------------------------------------------------------------------------
// block barriers
// ---------------------------------------------------------------------------
struct BlockState {
  int T = 0;
  std::vector<bool> exited, inactive;
  std::vector<u64> a;
};

static bool bar_pred(const Insn& in, u64 a) {
  bool v;
  if (B(59) && in.kind == Kind::BarPopc) v = (a & 1) != 0;
  else if (B(64) && in.kind == Kind::BarAnd) v = (a & 0xff) != 0;
  else v = pred_of(a);
  return in.neg ? !v : v;
}

static void do_block(const Insn& in, const BlockState& bs, RoundOut& r, Scratch& s) {
  const int T = bs.T;
  int nwarps = (T + 31) / 32;
  u64 n_exited = 0, n_arrive = 0;
  for (int t = 0; t < T; ++t) {
    if (bs.exited[t]) ++n_exited;
    else if (!bs.inactive[t]) ++n_arrive;
  }
  // expected arrivals
  u64 expected = (u64)T - n_exited;
  if (B(51) && in.kind == Kind::BarSync) expected = T;
  if (B(52) && in.kind == Kind::BarSync) expected = (u64)nwarps * 32 - n_exited;
  if (B(53) && in.kind == Kind::BarSync) {
    expected = T;
    for (int wi = 0; wi < nwarps; ++wi) {
      int lo = wi * 32, hi = std::min(T, lo + 32);
      bool all_ex = true;
      for (int t = lo; t < hi; ++t) if (!bs.exited[t]) all_ex = false;
      if (all_ex) expected -= (hi - lo);
    }
  }
  if (B(55) && in.kind == Kind::BarSync) expected &= 0x3ff;
  u64 counter = n_arrive;
  if (B(54) && in.kind == Kind::BarSync) { s.bar_counter += n_arrive; counter = s.bar_counter; }
  if (n_arrive == 0) {
    // no thread executes the barrier: nothing waits, nothing resumes
    return;
  }
  if (counter != expected) { r.hang = true; return; }

  if (in.kind == Kind::BarSync) {
    for (int t = 0; t < T; ++t) if (!bs.exited[t] && !bs.inactive[t]) r.d[t] = 1;
    return;
  }

  // reductions, lowered as per-warp ballots combined across warps
  std::vector<u32> ballot(nwarps, 0), contrib(nwarps, 0);
  for (int t = 0; t < T; ++t) {
    int wi = t / 32, ln = t % 32;
    bool counts = !bs.exited[t];
    if ((B(57) && in.kind == Kind::BarPopc) || (B(68) && in.kind == Kind::BarOr)) counts = !bs.inactive[t];
    if (!counts) continue;
    contrib[wi] |= 1u << ln;
    if (bar_pred(in, bs.a[t])) ballot[wi] |= 1u << ln;
  }
  // threads that do not exist in a partial last warp are never contributors
  u64 result = 0;
  std::vector<u64> warp_result(nwarps, 0);
  if (in.kind == Kind::BarPopc) {
    uint8_t c8 = 0;
    u64 c = 0;
    int wlim = B(60) ? T / 32 : nwarps;
    for (int wi = 0; wi < wlim; ++wi) {
      c += std::popcount(ballot[wi]);
      c8 = (uint8_t)(c8 + std::popcount(ballot[wi]));
      warp_result[wi] = std::popcount(ballot[wi]);
    }
    result = B(56) ? c8 : c;
    if (B(58) && in.neg) {
      u64 cpos = 0;
      for (int t = 0; t < T; ++t) if (!bs.exited[t] && pred_of(bs.a[t])) ++cpos;
      result = (u64)T - cpos;
    }
  } else if (in.kind == Kind::BarAnd) {
    bool res = true;
    for (int wi = 0; wi < nwarps; ++wi) {
      u32 want = contrib[wi];
      if (B(65)) {
        u32 ex = 0;
        for (int ln = 0; ln < 32 && wi * 32 + ln < T; ++ln) if (bs.exited[wi * 32 + ln]) ex |= 1u << ln;
        want = 0xffffffffu & ~ex;
      }
      if (B(62)) {
        // exited threads vote false
        for (int ln = 0; ln < 32 && wi * 32 + ln < T; ++ln) if (bs.exited[wi * 32 + ln]) want |= 1u << ln;
      }
      if ((ballot[wi] & want) != want) res = false;
    }
    if (B(63) && in.neg) {
      bool r2 = true;
      for (int t = 0; t < T; ++t) if (!bs.exited[t] && !pred_of(bs.a[t])) r2 = false;
      res = !r2;
    }
    result = res;
    r.d_is_pred = true;
  } else if (in.kind == Kind::BarOr) {
    bool res = false;
    for (int wi = 0; wi < nwarps; ++wi) {
      if (B(69) && (bs.exited[wi * 32])) continue;
      if (ballot[wi]) res = true;
    }
    if (B(66) && in.neg) {
      bool r2 = false;
      for (int t = 0; t < T; ++t) if (!bs.exited[t] && pred_of(bs.a[t])) r2 = true;
      res = !r2;
    }
    if (B(67)) { s.bar_or_acc = s.bar_or_acc || res; res = s.bar_or_acc; }
    result = res;
    r.d_is_pred = true;
  }
  for (int t = 0; t < T; ++t) {
    if (bs.exited[t] || bs.inactive[t]) continue;
    r.d[t] = (B(61) && in.kind == Kind::BarPopc) ? warp_result[t / 32] : result;
  }
}

// ---------------------------------------------------------------------------
// driver
// ---------------------------------------------------------------------------
static bool is_block(Kind k) { return k == Kind::BarSync || k == Kind::BarPopc || k == Kind::BarAnd || k == Kind::BarOr; }

static json run_vector(const json& v) {
  Insn in = decode(v.value("form", std::string()), v.value("instruction", std::string()));
  if (in.kind == Kind::Unknown) return json{{"id", v["id"]}, {"skipped", true}};  // not implemented
  Scratch s;
  std::vector<json> rounds;
  for (const json& rj : v["rounds"]) {
    RoundOut r;
    if (is_block(in.kind)) {
      BlockState bs;
      bs.T = rj.contains("threads") ? (int)parse_u64(rj["threads"]) : 32;
      bs.exited = lane_set(rj.value("exited", json("none")), bs.T);
      bs.inactive = lane_set(rj.value("inactive", json("none")), bs.T);
      bs.a = per_lane(rj.contains("a") ? rj["a"] : json(nullptr), bs.T);
      r.d.assign(bs.T, std::nullopt);
      if (in.kind == Kind::BarAnd || in.kind == Kind::BarOr) r.d_is_pred = true;
      do_block(in, bs, r, s);
    } else {
      WarpState w;
      auto ex = lane_set(rj.value("exited", json("0x0")), 32);
      auto ia = lane_set(rj.value("inactive", json("0x0")), 32);
      for (int l = 0; l < 32; ++l) {
        if (ex[l]) w.exited |= bit(l);
        else if (!ia[l]) w.exec |= bit(l);
      }
      auto m = per_lane(rj.contains("mask") ? rj["mask"] : json(0xffffffffu), 32);
      auto a = per_lane(rj.contains("a") ? rj["a"] : json(nullptr), 32);
      auto st = per_lane(rj.contains("site") ? rj["site"] : json(nullptr), 32);
      for (int l = 0; l < 32; ++l) { w.mask[l] = (u32)m[l]; w.a[l] = a[l]; w.site[l] = (int)st[l]; }
      r.d.assign(32, std::nullopt);
      r.p.assign(32, std::nullopt);
      switch (in.kind) {
        case Kind::MatchAny: do_match_any(in, w, r); break;
        case Kind::MatchAll: do_match_all(in, w, r, s); break;
        case Kind::VoteAll: case Kind::VoteAny: case Kind::VoteUni: case Kind::Ballot: do_vote(in, w, r, s); break;
        case Kind::Redux: do_redux(in, w, r, s); break;
        case Kind::WarpSync: do_warpsync(w, r); break;
        default: break;
      }
      if (in.kind == Kind::WarpSync && !r.hang) {
        // a lane waits at the barrier for non-exited lanes of its mask that never arrive
        for (int l = 0; l < 32; ++l)
          if ((w.exec & bit(l)) && lane_hangs(w, l)) r.hang = true;
      }
    }
    rounds.push_back(round_json(r));
    if (r.hang) break;
  }
  json out = json::object();
  out["id"] = v["id"];
  if (v["rounds"].size() <= 1) {
    for (auto& [k, val] : rounds[0].items()) out[k] = val;
  } else {
    out["rounds"] = rounds;
  }
  return out;
}

int main(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "--list") {
    for (const auto& b : kBugs) std::printf("%d\t%s\t%s\t%s\n", b.n, b.key, b.forms, b.desc);
    return 0;
  }
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s --list | %s VECTORS.jsonl N\n", argv[0], argv[0]);
    return 2;
  }
  BUG = std::atoi(argv[2]);
  std::ifstream f(argv[1]);
  if (!f) { std::fprintf(stderr, "cannot open %s\n", argv[1]); return 2; }
  std::string line;
  bool first = true;
  std::cout << json{{"schema", "warpspec-results/1"}}.dump() << "\n";
  while (std::getline(f, line)) {
    if (line.empty()) continue;
    json v = json::parse(line);
    if (first) { first = false; if (v.contains("schema")) continue; }
    if (!v.contains("rounds")) continue;
    std::cout << run_vector(v).dump() << "\n";
  }
  return 0;
}
