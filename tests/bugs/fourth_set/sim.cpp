// Independent emulator of warp-level primitives (match/vote/redux/bar.warp.sync/bar.sync/bar.red)
// with seeded bugs.  Reads warpspec-vectors/1, writes warpspec-results/1.
//   ./sim --list
//   ./sim VECTORS.jsonl BUG > RESULTS.jsonl     (BUG 0 = correct)
#include <nlohmann/json.hpp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using json = nlohmann::json;
using u32 = uint32_t;
using u64 = uint64_t;
using i32 = int32_t;
using i64 = int64_t;

// ----------------------------------------------------------------------------------------------
// Bug catalogue
// ----------------------------------------------------------------------------------------------
enum Bug : int {
  B_NONE = 0,
  MATCH_ANY_B64_LOW32,        // 1
  MATCH_ALL_B64_HIGH32,       // 2
  MATCH_ANY_EXITED_INCLUDED,  // 3
  MATCH_ALL_D_MEMBERMASK,     // 4
  MATCH_ALL_P_STICKY,         // 5
  MATCH_ANY_LANE31,           // 6
  MATCH_ANY_ACTIVE_MASK,      // 7
  MATCH_ALL_EXITED_COMPARED,  // 8
  VOTE_ALL_EXITED,            // 9
  VOTE_ANY_NEGATE_AFTER,      // 10
  VOTE_ALL_NEGATE_AFTER,      // 11
  VOTE_UNI_NEGATE_FLIPS,      // 12
  VOTE_UNI_REF_LANE0,         // 13
  VOTE_BALLOT_ACTIVE_MASK,    // 14
  VOTE_BALLOT_NEGATE_WORD,    // 15
  VOTE_BALLOT_STALE,          // 16
  VOTE_ANY_SKIP_LANE0,        // 17
  VOTE_MASK_FROM_LANE0,       // 18
  REDUX_ADD_EXITED,           // 19
  REDUX_MIN_S32_UNSIGNED,     // 20
  REDUX_MAX_S32_UNSIGNED,     // 21
  REDUX_MIN_U32_SIGNED,       // 22
  REDUX_MAX_S32_IDENTITY0,    // 23
  REDUX_MIN_U32_IDENTITY_INTMAX, // 24
  REDUX_AND_LANE31,           // 25
  REDUX_XOR_ACTIVE_MASK,      // 26
  REDUX_OR_MASK_FROM_LEADER,  // 27
  REDUX_ADD_S32_SATURATE,     // 28
  WARPSYNC_WAITS_EXITED,      // 29
  WARPSYNC_SM6X_RULE,         // 30
  WARPSYNC_STALE_ARRIVALS,    // 31
  BARSYNC_COUNTS_EXITED,      // 32
  BARSYNC_ROUND_UP_WARPS,     // 33
  BARSYNC_EXIT_WARP_GRANULAR, // 34
  BARRED_POPC_BIT0,           // 35
  BARRED_OR_LOWBYTE,          // 36
  BARRED_AND_EXITED_FALSE,    // 37
  BARRED_POPC_STALE,          // 38
  BARRED_POPC_NEGATE_TOTAL,   // 39
  BARRED_AND_PARTIAL_WARP,    // 40
  BARRED_POPC_U8,             // 41
  BARRED_AND_NEGATE_AFTER,    // 42
  MATCH_ANY_B64_VIA_DOUBLE,   // 43
  REDUX_MAX_U32_SIGNED,       // 44
  BARRED_OR_STALE_TRUE,       // 45
  BUG_COUNT
};

struct BugInfo { const char* key; const char* forms; const char* desc; };
static const BugInfo kBugs[BUG_COUNT] = {
  {"none", "-", "correct"},
  {"match_any_b64_low32", "match.any.sync.b64", "64-bit match.any compares only the low 32-bit halves"},
  {"match_all_b64_high32", "match.all.sync.b64", "64-bit match.all compares only the high 32-bit halves"},
  {"match_any_exited_included", "match.any.sync.b32,match.any.sync.b64", "match.any compares against exited lanes of membermask too (their stale operand)"},
  {"match_all_d_membermask", "match.all.sync.b32,match.all.sync.b64", "match.all returns the raw membermask instead of membermask minus exited lanes"},
  {"match_all_p_sticky", "match.all.sync.b32,match.all.sync.b64", "match.all predicate only ever set, never cleared: true from an earlier round sticks"},
  {"match_any_lane31", "match.any.sync.b32,match.any.sync.b64", "match.any lane loop stops at lane 30: lane 31 never appears in the result mask"},
  {"match_any_active_mask", "match.any.sync.b32,match.any.sync.b64", "match.any compares over all executing lanes instead of the membermask"},
  {"match_all_exited_compared", "match.all.sync.b32,match.all.sync.b64", "match.all requires exited lanes in membermask to hold the same value too"},
  {"vote_all_exited", "vote.sync.all.pred", "vote.all treats exited lanes of membermask as voting false"},
  {"vote_any_negate_after", "vote.sync.any.pred", "vote.any with !a negates the reduced result (not_any) instead of each source"},
  {"vote_all_negate_after", "vote.sync.all.pred", "vote.all with !a negates the reduced result (not_all) instead of each source"},
  {"vote_uni_negate_flips", "vote.sync.uni.pred", "vote.uni with !a returns the negated uniformity"},
  {"vote_uni_ref_lane0", "vote.sync.uni.pred", "vote.uni compares every participant with lane 0's predicate even if lane 0 does not participate"},
  {"vote_ballot_active_mask", "vote.sync.ballot.b32", "ballot takes bits from all executing lanes, not only lanes in membermask"},
  {"vote_ballot_negate_word", "vote.sync.ballot.b32", "ballot with !a complements the whole ballot word, setting bits of non-members"},
  {"vote_ballot_stale", "vote.sync.ballot.b32", "ballot accumulator not cleared between rounds: stale bits from earlier rounds"},
  {"vote_any_skip_lane0", "vote.sync.any.pred", "vote.any lane loop starts at lane 1: lane 0's predicate is ignored"},
  {"vote_mask_from_lane0", "vote.sync.all.pred,vote.sync.any.pred", "vote.all/any use the membermask of the lowest executing lane for every lane"},
  {"redux_add_exited", "redux.sync.add.u32,redux.sync.add.s32", "redux.add sums the operand of exited lanes in membermask too"},
  {"redux_min_s32_unsigned", "redux.sync.min.s32", "redux.min.s32 compares as unsigned"},
  {"redux_max_s32_unsigned", "redux.sync.max.s32", "redux.max.s32 compares as unsigned"},
  {"redux_min_u32_signed", "redux.sync.min.u32", "redux.min.u32 compares as signed"},
  {"redux_max_s32_identity0", "redux.sync.max.s32", "redux.max.s32 starts from identity 0 instead of INT_MIN"},
  {"redux_min_u32_identity_intmax", "redux.sync.min.u32", "redux.min.u32 starts from identity 0x7fffffff instead of 0xffffffff"},
  {"redux_and_lane31", "redux.sync.and.b32", "redux.and lane loop stops at lane 30: lane 31's operand is dropped"},
  {"redux_xor_active_mask", "redux.sync.xor.b32", "redux.xor reduces over all executing lanes instead of the membermask"},
  {"redux_or_mask_from_leader", "redux.sync.or.b32", "redux.or uses the membermask of the lowest executing lane for every lane"},
  {"redux_add_s32_saturate", "redux.sync.add.s32", "redux.add.s32 saturates on signed overflow instead of truncating"},
  {"warpsync_waits_exited", "bar.warp.sync", "bar.warp.sync waits for exited lanes named in the mask (hangs)"},
  {"warpsync_sm6x_rule", "bar.warp.sync", "bar.warp.sync only releases when the mask equals the whole non-exited active set (sm_6x rule)"},
  {"warpsync_stale_arrivals", "bar.warp.sync", "bar.warp.sync arrival set not cleared between rounds; release tests arrived == expected exactly"},
  {"barsync_counts_exited", "bar.sync", "bar.sync expects all threads of the block, exited ones included (hangs)"},
  {"barsync_round_up_warps", "bar.sync", "bar.sync expected count rounded up to whole warps (hangs when threads % 32 != 0)"},
  {"barsync_exit_warp_granular", "bar.sync,bar.red.popc.u32,bar.red.and.pred,bar.red.or.pred", "block barrier counts exited threads only when the whole warp has exited"},
  {"barred_popc_bit0", "bar.red.popc.u32", "bar.red.popc reads predicate truth from bit 0 of the int"},
  {"barred_or_lowbyte", "bar.red.or.pred", "bar.red.or truncates the predicate int to 8 bits before testing"},
  {"barred_and_exited_false", "bar.red.and.pred", "bar.red.and counts exited threads as voting false"},
  {"barred_popc_stale", "bar.red.popc.u32", "bar.red.popc count not reset between rounds"},
  {"barred_popc_negate_total", "bar.red.popc.u32", "bar.red.popc with !a returns threads - popc(a), counting exited threads"},
  {"barred_and_partial_warp", "bar.red.and.pred", "bar.red.and includes phantom lanes of a partial last warp as false"},
  {"barred_popc_u8", "bar.red.popc.u32", "bar.red.popc counter is 8 bits wide"},
  {"barred_and_negate_after", "bar.red.and.pred", "bar.red.and with !a negates the reduced result instead of each predicate"},
  {"match_any_b64_via_double", "match.any.sync.b64", "64-bit match.any compares values converted to double: low bits of large values lost"},
  {"redux_max_u32_signed", "redux.sync.max.u32", "redux.max.u32 compares as signed (0x80000000 and up lose)"},
  {"barred_or_stale_true", "bar.red.or.pred", "bar.red.or result flag not reset between rounds: once true stays true"},
};

static int g_bug = 0;
static inline bool B(Bug b) { return g_bug == (int)b; }

// ----------------------------------------------------------------------------------------------
// Parsing helpers
// ----------------------------------------------------------------------------------------------
static u64 parse_u64(const json& v) {
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    return std::stoull(s, nullptr, 0);
  }
  if (v.is_boolean()) return v.get<bool>() ? 1 : 0;
  if (v.is_number_unsigned()) return v.get<u64>();
  if (v.is_number_integer()) return (u64)v.get<i64>();
  return 0;
}

static std::vector<u64> per_lane(const json& v, int n) {
  std::vector<u64> out(n, 0);
  if (v.is_null()) return out;
  if (v.is_array()) {
    for (int i = 0; i < n && i < (int)v.size(); i++) out[i] = parse_u64(v[i]);
  } else {
    u64 x = parse_u64(v);
    for (int i = 0; i < n; i++) out[i] = x;
  }
  return out;
}

static std::vector<bool> parse_ranges(const json& v, int n) {
  std::vector<bool> out(n, false);
  if (v.is_null()) return out;
  std::string s = v.get<std::string>();
  if (s == "none" || s.empty()) return out;
  if (s == "all") { std::fill(out.begin(), out.end(), true); return out; }
  std::stringstream ss(s);
  std::string tok;
  while (std::getline(ss, tok, ',')) {
    auto d = tok.find('-');
    int lo, hi;
    if (d == std::string::npos) { lo = hi = std::stoi(tok); }
    else { lo = std::stoi(tok.substr(0, d)); hi = std::stoi(tok.substr(d + 1)); }
    for (int i = lo; i <= hi && i < n; i++) if (i >= 0) out[i] = true;
  }
  return out;
}

static std::string hex32(u32 x) {
  char b[16];
  snprintf(b, sizeof b, "0x%08x", x);
  return b;
}

// ----------------------------------------------------------------------------------------------
// Round result
// ----------------------------------------------------------------------------------------------
struct RoundOut {
  bool hang = false;
  std::vector<std::optional<u32>> d;
  std::vector<std::optional<u32>> p;
  bool has_p = false;
  bool has_d_value = true;  // false for barriers (resume marks)
};

// State carried between rounds of a single vector (where stale-state bugs live).
struct VecState {
  u32 ballot_acc = 0;
  u32 p_sticky = 0;
  u32 warpsync_arrived = 0;
  u64 popc_acc = 0;
  bool or_flag = false;
};

static inline int popcnt(u32 x) { return __builtin_popcount(x); }

// ----------------------------------------------------------------------------------------------
// Warp-level forms
// ----------------------------------------------------------------------------------------------
struct WarpRound {
  u32 exited, inactive, exec;
  std::vector<u32> mask;
  std::vector<u64> a;
};

static int lowest(u32 x) { return x ? __builtin_ctz(x) : 0; }

// correct completion: every non-exited lane of membermask is executing.
static bool lane_completes(const WarpRound& r, int i, u32 m) {
  u32 need = m & ~r.exited;
  return (need & ~r.exec) == 0;
}

static RoundOut run_match(const WarpRound& r, bool all, bool b64, VecState& st) {
  RoundOut o;
  o.d.assign(32, std::nullopt);
  if (all) { o.p.assign(32, std::nullopt); o.has_p = true; }
  u32 pround = 0;
  for (int i = 0; i < 32; i++) {
    if (!((r.exec >> i) & 1)) continue;
    u32 m = r.mask[i];
    if (!lane_completes(r, i, m)) continue;
    u32 parts = m & ~r.exited;
    auto val = [&](int j) -> u64 {
      u64 v = r.a[j];
      if (!b64) v &= 0xffffffffull;
      return v;
    };
    auto eq = [&](int x, int y) -> bool {
      u64 vx = val(x), vy = val(y);
      if (b64 && !all && B(MATCH_ANY_B64_LOW32)) return (u32)vx == (u32)vy;
      if (b64 && all && B(MATCH_ALL_B64_HIGH32)) return (u32)(vx >> 32) == (u32)(vy >> 32);
      if (b64 && !all && B(MATCH_ANY_B64_VIA_DOUBLE)) return (double)vx == (double)vy;
      return vx == vy;
    };
    if (!all) {
      u32 cmpset = parts;
      if (B(MATCH_ANY_EXITED_INCLUDED)) cmpset = m;
      if (B(MATCH_ANY_ACTIVE_MASK)) cmpset = r.exec;
      int lim = B(MATCH_ANY_LANE31) ? 31 : 32;
      u32 d = 0;
      for (int j = 0; j < lim; j++)
        if (((cmpset >> j) & 1) && eq(i, j)) d |= 1u << j;
      o.d[i] = d;
    } else {
      u32 cmpset = parts;
      if (B(MATCH_ALL_EXITED_COMPARED)) cmpset = m;
      bool same = true;
      for (int j = 0; j < 32; j++)
        if (((cmpset >> j) & 1) && !eq(i, j)) same = false;
      u32 dm = B(MATCH_ALL_D_MEMBERMASK) ? m : parts;
      o.d[i] = same ? dm : 0;
      bool p = same;
      if (B(MATCH_ALL_P_STICKY)) p = p || ((st.p_sticky >> i) & 1);
      if (p) pround |= 1u << i;
      o.p[i] = p ? 1 : 0;
    }
  }
  if (all && B(MATCH_ALL_P_STICKY)) st.p_sticky |= pround;
  return o;
}

enum VoteMode { V_ALL, V_ANY, V_UNI, V_BALLOT };

static RoundOut run_vote(const WarpRound& r, VoteMode mode, bool neg, VecState& st) {
  RoundOut o;
  o.d.assign(32, std::nullopt);
  auto pred = [&](int j) -> bool {
    bool v = r.a[j] != 0;
    return neg ? !v : v;
  };
  auto raw = [&](int j) -> bool { return r.a[j] != 0; };
  u32 ballot_round = 0;
  for (int i = 0; i < 32; i++) {
    if (!((r.exec >> i) & 1)) continue;
    u32 m = r.mask[i];
    if (!lane_completes(r, i, m)) continue;
    if (B(VOTE_MASK_FROM_LANE0) && (mode == V_ALL || mode == V_ANY)) m = r.mask[lowest(r.exec)];
    u32 parts = m & ~r.exited;
    switch (mode) {
      case V_ALL: {
        u32 set = B(VOTE_ALL_EXITED) ? m : parts;
        bool res = true;
        if (B(VOTE_ALL_NEGATE_AFTER) && neg) {
          for (int j = 0; j < 32; j++) if (((set >> j) & 1) && !raw(j)) res = false;
          res = !res;
        } else {
          for (int j = 0; j < 32; j++) {
            if (!((set >> j) & 1)) continue;
            bool v = ((r.exited >> j) & 1) ? false : pred(j);
            if (!v) res = false;
          }
        }
        o.d[i] = res;
        break;
      }
      case V_ANY: {
        bool res = false;
        int start = B(VOTE_ANY_SKIP_LANE0) ? 1 : 0;
        if (B(VOTE_ANY_NEGATE_AFTER) && neg) {
          for (int j = start; j < 32; j++) if (((parts >> j) & 1) && raw(j)) res = true;
          res = !res;
        } else {
          for (int j = start; j < 32; j++) if (((parts >> j) & 1) && pred(j)) res = true;
        }
        o.d[i] = res;
        break;
      }
      case V_UNI: {
        int ref = B(VOTE_UNI_REF_LANE0) ? 0 : lowest(parts);
        bool res = true;
        for (int j = 0; j < 32; j++)
          if (((parts >> j) & 1) && pred(j) != pred(ref)) res = false;
        if (B(VOTE_UNI_NEGATE_FLIPS) && neg) res = !res;
        o.d[i] = res;
        break;
      }
      case V_BALLOT: {
        u32 set = B(VOTE_BALLOT_ACTIVE_MASK) ? (parts | r.exec) : parts;
        u32 d = 0;
        if (B(VOTE_BALLOT_NEGATE_WORD) && neg) {
          for (int j = 0; j < 32; j++) if (((set >> j) & 1) && raw(j)) d |= 1u << j;
          d = ~d;
        } else {
          for (int j = 0; j < 32; j++) if (((set >> j) & 1) && pred(j)) d |= 1u << j;
        }
        if (B(VOTE_BALLOT_STALE)) { d |= st.ballot_acc; ballot_round |= d; }
        o.d[i] = d;
        break;
      }
    }
  }
  if (B(VOTE_BALLOT_STALE)) st.ballot_acc |= ballot_round;
  return o;
}

enum ReduxOp { R_ADD, R_MIN, R_MAX, R_AND, R_OR, R_XOR };

static RoundOut run_redux(const WarpRound& r, ReduxOp op, bool sgn, VecState&) {
  RoundOut o;
  o.d.assign(32, std::nullopt);
  for (int i = 0; i < 32; i++) {
    if (!((r.exec >> i) & 1)) continue;
    u32 m = r.mask[i];
    if (!lane_completes(r, i, m)) continue;
    if (B(REDUX_OR_MASK_FROM_LEADER) && op == R_OR) m = r.mask[lowest(r.exec)];
    u32 set = m & ~r.exited;
    if (B(REDUX_ADD_EXITED) && op == R_ADD) set = m;
    if (B(REDUX_XOR_ACTIVE_MASK) && op == R_XOR) set = r.exec | set;
    int lim = (B(REDUX_AND_LANE31) && op == R_AND) ? 31 : 32;
    u32 acc;
    switch (op) {
      case R_ADD: acc = 0; break;
      case R_MIN: acc = sgn ? 0x7fffffffu : 0xffffffffu; break;
      case R_MAX: acc = sgn ? 0x80000000u : 0u; break;
      case R_AND: acc = 0xffffffffu; break;
      default: acc = 0; break;
    }
    if (B(REDUX_MAX_S32_IDENTITY0) && op == R_MAX && sgn) acc = 0;
    if (B(REDUX_MIN_U32_IDENTITY_INTMAX) && op == R_MIN && !sgn) acc = 0x7fffffffu;
    i64 sat = 0;
    for (int j = 0; j < lim; j++) {
      if (!((set >> j) & 1)) continue;
      u32 v = (u32)r.a[j];
      switch (op) {
        case R_ADD:
          acc += v;
          sat += (i64)(i32)v;
          break;
        case R_MIN: {
          bool signed_cmp = sgn;
          if (B(REDUX_MIN_S32_UNSIGNED) && sgn) signed_cmp = false;
          if (B(REDUX_MIN_U32_SIGNED) && !sgn) signed_cmp = true;
          bool lt = signed_cmp ? (i32)v < (i32)acc : v < acc;
          if (lt) acc = v;
          break;
        }
        case R_MAX: {
          bool signed_cmp = sgn;
          if (B(REDUX_MAX_S32_UNSIGNED) && sgn) signed_cmp = false;
          bool gt;
          if (B(REDUX_MAX_U32_SIGNED) && !sgn) signed_cmp = true;
          gt = signed_cmp ? (i32)v > (i32)acc : v > acc;
          if (gt) acc = v;
          break;
        }
        case R_AND: acc &= v; break;
        case R_OR: acc |= v; break;
        case R_XOR: acc ^= v; break;
      }
    }
    if (B(REDUX_ADD_S32_SATURATE) && op == R_ADD && sgn) {
      if (sat > INT32_MAX) acc = 0x7fffffffu;
      else if (sat < INT32_MIN) acc = 0x80000000u;
    }
    o.d[i] = acc;
  }
  return o;
}

static RoundOut run_warpsync(const WarpRound& r, VecState& st) {
  RoundOut o;
  o.has_d_value = false;
  o.d.assign(32, std::nullopt);
  u32 live = ~r.exited;
  u32 arrived_before = st.warpsync_arrived;
  for (int i = 0; i < 32; i++) {
    if (!((r.exec >> i) & 1)) continue;
    u32 m = r.mask[i];
    bool ok = lane_completes(r, i, m);
    if (B(WARPSYNC_WAITS_EXITED) && (m & r.exited)) { o.hang = true; continue; }
    if (B(WARPSYNC_SM6X_RULE) && ok && (m & live) != (r.exec & live)) { o.hang = true; continue; }
    if (B(WARPSYNC_STALE_ARRIVALS) && ok) {
      u32 expected = m & ~r.exited;
      u32 arrived = (arrived_before | r.exec) & m;
      // arrived set carries lanes from earlier rounds; exited lanes that arrived before stay in it
      if (arrived != expected) { o.hang = true; continue; }
    }
    if (!ok) continue;
    o.d[i] = 0;
  }
  if (B(WARPSYNC_STALE_ARRIVALS)) st.warpsync_arrived |= r.exec;
  return o;
}

// ----------------------------------------------------------------------------------------------
// Block-level forms
// ----------------------------------------------------------------------------------------------
struct BlockRound {
  int n;
  std::vector<bool> exited, inactive;
  std::vector<i64> a;
};

enum BarKind { K_SYNC, K_POPC, K_AND, K_OR };

static RoundOut run_block(const BlockRound& r, BarKind k, bool neg, VecState& st) {
  RoundOut o;
  o.d.assign(r.n, std::nullopt);
  o.has_d_value = (k != K_SYNC);
  int n = r.n;
  // does the barrier release?
  int expected = 0, arrived = 0;
  for (int t = 0; t < n; t++) {
    if (!r.exited[t]) expected++;
    if (!r.exited[t] && !r.inactive[t]) arrived++;
  }
  bool release = (arrived == expected);
  bool bughang = false;
  if (release) {
    if (B(BARSYNC_COUNTS_EXITED) && k == K_SYNC && expected != n) bughang = true;
    if (B(BARSYNC_ROUND_UP_WARPS) && k == K_SYNC && (n % 32) != 0) bughang = true;
    if (B(BARSYNC_EXIT_WARP_GRANULAR)) {
      int nw = (n + 31) / 32;
      for (int w = 0; w < nw; w++) {
        int lo = w * 32, hi = std::min(n, lo + 32);
        int ex = 0;
        for (int t = lo; t < hi; t++) ex += r.exited[t];
        if (ex > 0 && ex < hi - lo) bughang = true;
      }
    }
  }
  if (bughang) { o.hang = true; return o; }
  if (!release) return o;  // every executing thread waits (nulls)

  auto truth = [&](int t) -> bool {
    i64 v = r.a[t];
    bool b = v != 0;
    if (B(BARRED_POPC_BIT0) && k == K_POPC) b = (v & 1) != 0;
    if (B(BARRED_OR_LOWBYTE) && k == K_OR) b = (v & 0xff) != 0;
    return neg ? !b : b;
  };
  u32 val = 0;
  switch (k) {
    case K_SYNC: val = 0; break;
    case K_POPC: {
      u64 c = 0;
      uint8_t c8 = 0;
      for (int t = 0; t < n; t++)
        if (!r.exited[t]) {
          bool b = truth(t);
          if (B(BARRED_POPC_NEGATE_TOTAL) && neg) b = !b;  // count raw predicate
          if (b) { c++; c8++; }
        }
      if (B(BARRED_POPC_NEGATE_TOTAL) && neg) c = (u64)n - c;
      if (B(BARRED_POPC_U8)) c = c8;
      if (B(BARRED_POPC_STALE)) { st.popc_acc += c; c = st.popc_acc; }
      val = (u32)c;
      break;
    }
    case K_AND: {
      bool res = true;
      if (B(BARRED_AND_NEGATE_AFTER) && neg) {
        for (int t = 0; t < n; t++) if (!r.exited[t] && !(r.a[t] != 0)) res = false;
        res = !res;
      } else {
        for (int t = 0; t < n; t++) {
          if (r.exited[t]) { if (B(BARRED_AND_EXITED_FALSE)) res = false; continue; }
          if (!truth(t)) res = false;
        }
      }
      if (B(BARRED_AND_PARTIAL_WARP) && (n % 32) != 0) res = false;
      val = res;
      break;
    }
    case K_OR: {
      bool res = false;
      for (int t = 0; t < n; t++) if (!r.exited[t] && truth(t)) res = true;
      if (B(BARRED_OR_STALE_TRUE)) { res = res || st.or_flag; st.or_flag = res; }
      val = res;
      break;
    }
  }
  for (int t = 0; t < n; t++)
    if (!r.exited[t] && !r.inactive[t]) o.d[t] = val;
  return o;
}

// ----------------------------------------------------------------------------------------------
// Driver
// ----------------------------------------------------------------------------------------------
static json round_json(const RoundOut& o) {
  json j = json::object();
  if (o.hang) { j["hang"] = true; return j; }
  bool any = false;
  json d = json::array();
  for (auto& x : o.d) {
    if (x) { d.push_back(hex32(*x)); any = true; }
    else d.push_back(nullptr);
  }
  if (any || o.has_d_value) j["d"] = d;
  if (o.has_p) {
    json p = json::array();
    for (auto& x : o.p) { if (x) p.push_back((int)*x); else p.push_back(nullptr); }
    j["p"] = p;
  }
  return j;
}

static json run_vector(const json& v) {
  std::string form = v.at("form").get<std::string>();
  // Forms this emulation does not implement are skipped.
  static const char* kKnown[] = {"match.", "vote.", "redux.", "bar."};
  if (std::none_of(std::begin(kKnown), std::end(kKnown),
                   [&](const char* p) { return form.rfind(p, 0) == 0; }))
    return json{{"id", v.at("id")}, {"skipped", true}};
  if (form == "bar.arrive") return json{{"id", v.at("id")}, {"skipped", true}};  // newer than the set
  std::string ins = v.at("instruction").get<std::string>();
  bool neg = ins.find('!') != std::string::npos;
  VecState st;
  std::vector<RoundOut> outs;
  for (auto& rj : v.at("rounds")) {
    RoundOut o;
    if (form.rfind("bar.sync", 0) == 0 || form.rfind("bar.red", 0) == 0) {
      BlockRound br;
      br.n = rj.at("threads").get<int>();
      br.exited = parse_ranges(rj.value("exited", json("none")), br.n);
      br.inactive = parse_ranges(rj.value("inactive", json("none")), br.n);
      br.a.assign(br.n, 0);
      if (rj.contains("a")) {
        auto& a = rj["a"];
        for (int t = 0; t < br.n; t++) {
          const json& x = a.is_array() ? a[t] : a;
          br.a[t] = x.is_boolean() ? (i64)x.get<bool>() : x.is_string() ? (i64)parse_u64(x) : x.get<i64>();
        }
      }
      BarKind k = K_SYNC;
      if (form == "bar.red.popc.u32") k = K_POPC;
      else if (form == "bar.red.and.pred") k = K_AND;
      else if (form == "bar.red.or.pred") k = K_OR;
      o = run_block(br, k, neg, st);
    } else {
      WarpRound wr;
      wr.exited = (u32)parse_u64(rj.at("exited"));
      wr.inactive = (u32)parse_u64(rj.at("inactive"));
      wr.exec = ~(wr.exited | wr.inactive);
      auto m = per_lane(rj.at("mask"), 32);
      wr.mask.assign(32, 0);
      for (int i = 0; i < 32; i++) wr.mask[i] = (u32)m[i];
      wr.a = rj.contains("a") ? per_lane(rj["a"], 32) : std::vector<u64>(32, 0);
      if (form.rfind("match.", 0) == 0) {
        o = run_match(wr, form.find(".all.") != std::string::npos, form.ends_with("b64"), st);
      } else if (form.rfind("vote.", 0) == 0) {
        VoteMode md = V_ALL;
        if (form.find(".any.") != std::string::npos) md = V_ANY;
        else if (form.find(".uni.") != std::string::npos) md = V_UNI;
        else if (form.find(".ballot.") != std::string::npos) md = V_BALLOT;
        o = run_vote(wr, md, neg, st);
      } else if (form.rfind("redux.", 0) == 0) {
        ReduxOp op = R_ADD;
        if (form.find(".min.") != std::string::npos) op = R_MIN;
        else if (form.find(".max.") != std::string::npos) op = R_MAX;
        else if (form.find(".and.") != std::string::npos) op = R_AND;
        else if (form.find(".or.") != std::string::npos) op = R_OR;
        else if (form.find(".xor.") != std::string::npos) op = R_XOR;
        o = run_redux(wr, op, form.ends_with(".s32"), st);
      } else if (form == "bar.warp.sync") {
        o = run_warpsync(wr, st);
      } else {
        return json{{"id", v.at("id")}, {"skipped", true}};
      }
    }
    outs.push_back(o);
    if (o.hang) break;
  }
  json res = json::object();
  res["id"] = v.at("id");
  if (v.at("rounds").size() == 1) {
    json r = round_json(outs[0]);
    for (auto& [k, x] : r.items()) res[k] = x;
  } else {
    json rr = json::array();
    for (auto& o : outs) rr.push_back(round_json(o));
    res["rounds"] = rr;
  }
  return res;
}

int main(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "--list") {
    for (int i = 1; i < BUG_COUNT; i++)
      printf("%d\t%s\t%s\t%s\n", i, kBugs[i].key, kBugs[i].forms, kBugs[i].desc);
    return 0;
  }
  if (argc < 3) {
    fprintf(stderr, "usage: %s --list | %s VECTORS.jsonl BUG\n", argv[0], argv[0]);
    return 64;
  }
  g_bug = atoi(argv[2]);
  if (g_bug < 0 || g_bug >= BUG_COUNT) { fprintf(stderr, "bad bug number\n"); return 64; }
  std::ifstream in(argv[1]);
  if (!in) { fprintf(stderr, "cannot open %s\n", argv[1]); return 66; }
  std::string line;
  bool header = true;
  std::cout << "{\"schema\":\"warpspec-results/1\"}\n";
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    json v = json::parse(line);
    if (header) { header = false; if (v.contains("schema")) continue; }
    std::cout << run_vector(v).dump() << "\n";
  }
  return 0;
}
