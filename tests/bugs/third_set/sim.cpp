// sim.cpp -- a small warp/block emulator for NVIDIA warp-level primitives
// (match.sync, vote.sync, redux.sync, bar.warp.sync, bar.sync / bar.red),
// written from the PTX ISA / CUDA programming guide text only.
//
//   ./sim VECTORS.jsonl BUG > RESULTS.jsonl     BUG 0 = correct, 1..N = seeded bugs
//   ./sim --list                                N<TAB>key<TAB>forms<TAB>description
//
// Build: g++ -std=c++20 -O2 sim.cpp -o sim
#include <nlohmann/json.hpp>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
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

// ---------------------------------------------------------------------------
// Bug catalogue
// ---------------------------------------------------------------------------
enum Bug : int {
  NONE = 0,
  // match
  MATCH_B64_LO32 = 1,
  MATCH_B64_OR_HALVES,
  MATCH_FLOAT_COMPARE,
  MATCH_ALL_RAW_MASK,
  MATCH_ANY_EXITED_STALE,
  MATCH_ACTIVE_MASK,
  // vote
  BALLOT_NEGATE_AFTER,
  BALLOT_STALE_BITS,
  BALLOT_EXITED_STALE,
  VOTE_ALL_RAW_MASK,
  VOTE_UNI_POPC_RAW_MASK,
  VOTE_ANY_ACTIVE_MASK,
  VOTE_NEGATE_RESULT,
  VOTE_EXEC_PATH_ONLY,
  // redux
  REDUX_S32_UNSIGNED,
  REDUX_MIN_U32_IDENTITY0,
  REDUX_MAX_S32_IDENTITY0,
  REDUX_ADD_SATURATE,
  REDUX_TREE_ODD_DROP,
  REDUX_EXITED_STALE,
  REDUX_UNIFORM_MASK,
  // bar.warp.sync
  SYNCWARP_WAITS_EXITED,
  SYNCWARP_SINGLE_BARRIER,
  SYNCWARP_LANE31_LOOP,
  SYNCWARP_MASK16,
  SYNCWARP_SITE_SERIALIZED,
  // bar.sync / bar.red
  CTA_EXPECT_ALL_THREADS,
  CTA_COUNTER_U8,
  CTA_FULL_WARPS,
  CTA_RED_STALE,
  CTA_PRED_LOWBIT,
  CTA_RED_EXITED_STALE,
  CTA_NEGATE_BITWISE,
  CTA_AND_VIA_BLOCKDIM,
  BUG_COUNT
};

struct BugInfo { int id; const char* key; const char* forms; const char* desc; };
static const BugInfo kBugs[] = {
  {MATCH_B64_LO32, "match_b64_lo32", "match.any.sync.b64,match.all.sync.b64",
   "64-bit match lowered onto 32-bit lanes compares only the low halves of a"},
  {MATCH_B64_OR_HALVES, "match_b64_or_halves", "match.any.sync.b64,match.all.sync.b64",
   "64-bit match lowered as two 32-bit matches whose masks/predicates are combined with OR instead of AND"},
  {MATCH_FLOAT_COMPARE, "match_float_compare", "match.*",
   "values compared as float/double (NaN never equal, +0 == -0) instead of bit patterns"},
  {MATCH_ALL_RAW_MASK, "match_all_raw_mask", "match.all.sync.*",
   "match.all writes the raw membermask to d (exited lanes included) when all values agree"},
  {MATCH_ANY_EXITED_STALE, "match_any_exited_stale", "match.any.sync.*",
   "match.any compares against every lane of membermask, reading stale registers of exited lanes"},
  {MATCH_ACTIVE_MASK, "match_active_mask", "match.*",
   "match group taken from the warp's active mask (all executing lanes) instead of membermask"},
  {BALLOT_NEGATE_AFTER, "ballot_negate_after", "vote.sync.ballot.b32 (!a)",
   "ballot of !a lowered as ~ballot(a): negation applied to the 32-bit result, setting non-member bits"},
  {BALLOT_STALE_BITS, "ballot_stale_bits", "vote.sync.ballot.b32",
   "warp ballot register is OR-accumulated and never cleared between instructions"},
  {BALLOT_EXITED_STALE, "ballot_exited_stale", "vote.sync.ballot.b32",
   "ballot copies the stale predicate of exited lanes in membermask"},
  {VOTE_ALL_RAW_MASK, "vote_all_raw_mask", "vote.sync.all.pred",
   "vote.all computed as ballot == membermask; exited lanes in the mask make it false"},
  {VOTE_UNI_POPC_RAW_MASK, "vote_uni_popc_raw_mask", "vote.sync.uni.pred",
   "vote.uni computed as popc(ballot) in {0, popc(membermask)} with exited lanes counted in the mask"},
  {VOTE_ANY_ACTIVE_MASK, "vote_any_active_mask", "vote.sync.any.pred",
   "vote.any reduces over all executing lanes of the warp, ignoring membermask"},
  {VOTE_NEGATE_RESULT, "vote_negate_result", "vote.sync.all.pred,vote.sync.any.pred (!a)",
   "{!}a handled by negating the reduction result (!all(a) instead of all(!a))"},
  {VOTE_EXEC_PATH_ONLY, "vote_exec_path_only", "vote.sync.*",
   "SIMT-stack lowering: a vote sees only lanes on the same divergent path (call site) as the executing lane"},
  {REDUX_S32_UNSIGNED, "redux_s32_unsigned", "redux.sync.min.s32,redux.sync.max.s32",
   "signed min/max done with unsigned comparisons"},
  {REDUX_MIN_U32_IDENTITY0, "redux_min_u32_identity0", "redux.sync.min.u32",
   "32-lane loop pads non-members with identity 0 for min.u32 (should be 0xffffffff)"},
  {REDUX_MAX_S32_IDENTITY0, "redux_max_s32_identity0", "redux.sync.max.s32",
   "32-lane loop pads non-members with identity 0 for max.s32 (should be INT_MIN)"},
  {REDUX_ADD_SATURATE, "redux_add_saturate", "redux.sync.add.s32,redux.sync.add.u32",
   "add lowered onto saturating SIMD adds instead of truncating modulo 2^32"},
  {REDUX_TREE_ODD_DROP, "redux_tree_odd_drop", "redux.sync.*",
   "pairwise tree over the compacted participants drops the last element at odd-sized levels"},
  {REDUX_EXITED_STALE, "redux_exited_stale", "redux.sync.*",
   "reduction includes stale source registers of exited lanes in membermask"},
  {REDUX_UNIFORM_MASK, "redux_uniform_mask", "redux.sync.*",
   "membermask assumed warp-uniform (scalar register) and read from the lowest executing lane"},
  {SYNCWARP_WAITS_EXITED, "syncwarp_waits_exited", "bar.warp.sync",
   "barrier waits for every lane in membermask, including exited ones: hangs"},
  {SYNCWARP_SINGLE_BARRIER, "syncwarp_single_barrier", "bar.warp.sync",
   "one barrier slot per warp: a lane arriving with another mask while it is pending is never released"},
  {SYNCWARP_LANE31_LOOP, "syncwarp_lane31_loop", "bar.warp.sync",
   "release loop runs lanes 0..30 (i < 31): lane 31 never resumes"},
  {SYNCWARP_MASK16, "syncwarp_mask16", "bar.warp.sync",
   "membermask kept in 16 bits (SIMD16 subgroup mapping): lanes 16..31 flagged as not in their mask"},
  {SYNCWARP_SITE_SERIALIZED, "syncwarp_site_serialized", "bar.warp.sync",
   "pre-Volta serialization of divergent paths: lanes wait for mask peers on another path forever"},
  {CTA_EXPECT_ALL_THREADS, "cta_expect_all_threads", "bar.sync,bar.red.*",
   "expected arrival count is blockDim, counting exited threads: hangs"},
  {CTA_COUNTER_U8, "cta_counter_u8", "bar.sync,bar.red.*",
   "arrival counter and popc accumulator are 8-bit: wrap at 256 threads"},
  {CTA_FULL_WARPS, "cta_full_warps", "bar.sync,bar.red.*",
   "a warp counts as arrived only when 32 minus its exited lanes arrived: a partial last warp never completes"},
  {CTA_RED_STALE, "cta_red_stale", "bar.red.*",
   "block reduction accumulator not reset after the barrier releases"},
  {CTA_PRED_LOWBIT, "cta_pred_lowbit", "bar.red.*",
   "predicate operand tested with (a & 1) instead of a != 0"},
  {CTA_RED_EXITED_STALE, "cta_red_exited_stale", "bar.red.*",
   "reduction reads the stale predicate of exited threads"},
  {CTA_NEGATE_BITWISE, "cta_negate_bitwise", "bar.red.* (!a)",
   "!a computed as bitwise ~a on the 32-bit value, then tested non-zero"},
  {CTA_AND_VIA_BLOCKDIM, "cta_and_via_blockdim", "bar.red.and.pred",
   "and computed as popc == blockDim; exited threads count as false"},
};

static int BUG = 0;
static bool B(int b) { return BUG == b; }

// ---------------------------------------------------------------------------
// Parsing helpers
// ---------------------------------------------------------------------------
static u64 parseVal(const json& j) {
  if (j.is_string()) {
    std::string s = j.get<std::string>();
    if (s.rfind("0x", 0) == 0 || s.rfind("0X", 0) == 0) return std::stoull(s.substr(2), nullptr, 16);
    return (u64)std::stoll(s);
  }
  if (j.is_boolean()) return j.get<bool>() ? 1 : 0;
  if (j.is_number_unsigned()) return j.get<u64>();
  if (j.is_number_integer()) return (u64)j.get<i64>();
  return 0;
}

static std::vector<u64> perLane(const json& j, int n) {
  std::vector<u64> v(n, 0);
  if (j.is_null()) return v;
  if (j.is_array()) {
    for (int i = 0; i < n && i < (int)j.size(); ++i) v[i] = parseVal(j[i]);
  } else {
    u64 x = parseVal(j);
    for (int i = 0; i < n; ++i) v[i] = x;
  }
  return v;
}

// block lane set: "none", "39", "0-15,17-32"
static std::vector<bool> parseRanges(const json& j, int n) {
  std::vector<bool> s(n, false);
  if (!j.is_string()) return s;
  std::string t = j.get<std::string>();
  if (t == "none" || t.empty()) return s;
  if (t == "all") { s.assign(n, true); return s; }
  std::stringstream ss(t);
  std::string part;
  while (std::getline(ss, part, ',')) {
    if (part.empty()) continue;
    auto dash = part.find('-');
    int lo, hi;
    if (dash == std::string::npos) lo = hi = std::stoi(part);
    else { lo = std::stoi(part.substr(0, dash)); hi = std::stoi(part.substr(dash + 1)); }
    for (int i = lo; i <= hi && i < n; ++i) if (i >= 0) s[i] = true;
  }
  return s;
}

static u32 bit(int l) { return 1u << l; }
static bool has(u32 m, int l) { return (m >> l) & 1u; }

static std::string hex32(u64 v) {
  char buf[24];
  snprintf(buf, sizeof buf, "0x%08x", (unsigned)(v & 0xffffffffu));
  return buf;
}

// ---------------------------------------------------------------------------
// Instruction description
// ---------------------------------------------------------------------------
struct Form {
  std::string name;
  std::string fam;   // match, vote, redux, syncwarp, cta
  std::string op;    // any/all | all/any/uni/ballot | add/min/max/and/or/xor | sync/popc/and/or
  std::string type;  // b32 b64 u32 s32 f32 pred
  bool neg = false, abs = false, nan = false;
};

static Form parseForm(const std::string& form, const std::string& ins) {
  Form f;
  f.name = form;
  std::vector<std::string> parts;
  std::stringstream ss(form);
  std::string p;
  while (std::getline(ss, p, '.')) parts.push_back(p);
  f.neg = ins.find('!') != std::string::npos;
  if (parts[0] == "match") { f.fam = "match"; f.op = parts[1]; f.type = parts.back(); }
  else if (parts[0] == "vote") { f.fam = "vote"; f.op = parts[2]; f.type = parts.back(); }
  else if (parts[0] == "redux") {
    f.fam = "redux"; f.op = parts[2]; f.type = parts.back();
    for (auto& q : parts) { if (q == "abs") f.abs = true; if (q == "NaN") f.nan = true; }
  } else if (parts[0] == "bar" && parts.size() > 1 && parts[1] == "warp") { f.fam = "syncwarp"; f.op = "sync"; }
  else if (parts[0] == "bar" || parts[0] == "barrier") {
    f.fam = "cta";
    if (parts.size() > 1 && parts[1] == "red") { f.op = parts[2]; f.type = parts.back(); }
    else f.op = "sync";
  } else f.fam = "unknown";
  return f;
}

// ---------------------------------------------------------------------------
// Round results
// ---------------------------------------------------------------------------
struct RoundOut {
  bool hang = false;
  bool ub = false;
  std::vector<std::optional<u64>> d;
  std::vector<std::optional<int>> p;
  bool hasP = false;
};

// state that an emulator keeps between instructions of one program (one vector)
struct VecState {
  u32 ballotReg = 0;        // warp ballot staging register
  u64 ctaAccum = 0;         // block reduction accumulator
  bool ctaAccumInit = false;
};

// ---------------------------------------------------------------------------
// Warp model
// ---------------------------------------------------------------------------
struct Warp {
  u32 exited = 0, inactive = 0;
  u32 mask[32];
  u64 a[32];
  int site[32];
  u32 executing() const { return ~(exited | inactive); }
};

// UB per the spec: self not in mask, a non-exited peer in mask not executing,
// a peer executing with a different mask.
static bool warpUB(const Warp& w, u32 maskBits = 0xffffffffu) {
  u32 E = w.executing();
  for (int l = 0; l < 32; ++l) {
    if (!has(E, l)) continue;
    u32 m = w.mask[l] & maskBits;
    if (!has(m, l)) return true;
    u32 g = m & ~w.exited;
    if (g & w.inactive) return true;
    for (int j = 0; j < 32; ++j)
      if (has(g, j) && has(E, j) && (w.mask[j] & maskBits) != m) return true;
  }
  return false;
}

static int lowestLane(u32 m) { return m ? std::countr_zero(m) : -1; }

// the lane group a lane's collective runs over
static u32 groupOf(const Warp& w, const Form& f, int l) {
  u32 m = w.mask[l];
  u32 E = w.executing();
  if (f.fam == "match") {
    if (B(MATCH_ANY_EXITED_STALE) && f.op == "any") return m;
    if (B(MATCH_ACTIVE_MASK)) return E;
  }
  if (f.fam == "vote") {
    if (B(BALLOT_EXITED_STALE) && f.op == "ballot") return m;
    if (B(VOTE_ANY_ACTIVE_MASK) && f.op == "any") return E;
    if (B(VOTE_EXEC_PATH_ONLY)) {
      u32 g = m & ~w.exited, r = 0;
      for (int j = 0; j < 32; ++j)
        if (has(g, j) && (!has(E, j) || w.site[j] == w.site[l])) r |= bit(j);
      return r;
    }
  }
  if (f.fam == "redux") {
    if (B(REDUX_EXITED_STALE)) return m;
    if (B(REDUX_UNIFORM_MASK)) {
      int first = lowestLane(E);
      if (first >= 0) m = w.mask[first];
    }
  }
  return m & ~w.exited;
}

// ----- match ---------------------------------------------------------------
static bool matchEq(const Form& f, u64 x, u64 y) {
  bool b64 = f.type == "b64";
  if (!b64) { x &= 0xffffffffu; y &= 0xffffffffu; }
  if (B(MATCH_FLOAT_COMPARE)) {
    if (b64) { double dx, dy; memcpy(&dx, &x, 8); memcpy(&dy, &y, 8); return dx == dy; }
    u32 xx = (u32)x, yy = (u32)y; float fx, fy;
    memcpy(&fx, &xx, 4); memcpy(&fy, &yy, 4);
    return fx == fy;
  }
  if (b64 && B(MATCH_B64_LO32)) return (u32)x == (u32)y;
  return x == y;
}

static void runMatch(const Warp& w, const Form& f, RoundOut& out) {
  u32 E = w.executing();
  out.hasP = (f.op == "all");
  bool orHalves = B(MATCH_B64_OR_HALVES) && f.type == "b64";
  for (int l = 0; l < 32; ++l) {
    if (!has(E, l)) continue;
    u32 g = groupOf(w, f, l);
    if (f.op == "any") {
      u32 d = 0;
      if (orHalves) {
        for (int j = 0; j < 32; ++j)
          if (has(g, j) && ((u32)w.a[j] == (u32)w.a[l] || (u32)(w.a[j] >> 32) == (u32)(w.a[l] >> 32)))
            d |= bit(j);
      } else {
        for (int j = 0; j < 32; ++j)
          if (has(g, j) && matchEq(f, w.a[j], w.a[l])) d |= bit(j);
      }
      out.d[l] = d;
    } else {
      bool same = true;
      if (orHalves) {
        bool slo = true, shi = true;
        int first = lowestLane(g);
        for (int j = 0; j < 32; ++j) {
          if (!has(g, j)) continue;
          if ((u32)w.a[j] != (u32)w.a[first]) slo = false;
          if ((u32)(w.a[j] >> 32) != (u32)(w.a[first] >> 32)) shi = false;
        }
        same = slo || shi;
      } else {
        int first = lowestLane(g);
        for (int j = 0; j < 32; ++j)
          if (has(g, j) && !matchEq(f, w.a[j], w.a[first])) { same = false; break; }
      }
      u32 full = B(MATCH_ALL_RAW_MASK) ? w.mask[l] : g;
      out.d[l] = same ? full : 0;
      out.p[l] = same ? 1 : 0;
    }
  }
}

// ----- vote ----------------------------------------------------------------
static void runVote(const Warp& w, const Form& f, RoundOut& out, VecState& st) {
  u32 E = w.executing();
  auto pred = [&](int j) -> bool {
    bool v = w.a[j] != 0;  // a predicate given as an integer is true when non-zero
    if (f.op == "ballot" && B(BALLOT_NEGATE_AFTER)) return v;
    if ((f.op == "all" || f.op == "any") && B(VOTE_NEGATE_RESULT)) return v;
    return f.neg ? !v : v;
  };
  // the staging register of a lane-serial ballot
  u32 stage = B(BALLOT_STALE_BITS) ? st.ballotReg : 0;
  if (f.op == "ballot") {
    for (int j = 0; j < 32; ++j)
      if ((has(E, j) || (B(BALLOT_EXITED_STALE) && has(w.exited, j))) && pred(j)) stage |= bit(j);
    st.ballotReg = stage;
  }
  for (int l = 0; l < 32; ++l) {
    if (!has(E, l)) continue;
    u32 g = groupOf(w, f, l);
    u32 bal = 0;
    for (int j = 0; j < 32; ++j)
      if (has(g, j) && pred(j)) bal |= bit(j);
    if (f.op == "ballot") {
      u32 d = B(BALLOT_STALE_BITS) ? (stage & g) : bal;
      if (B(BALLOT_NEGATE_AFTER) && f.neg) d = ~d;
      out.d[l] = d;
    } else if (f.op == "all") {
      bool r;
      if (B(VOTE_ALL_RAW_MASK)) r = (bal == w.mask[l]);
      else r = (bal == g);
      if (B(VOTE_NEGATE_RESULT) && f.neg) r = !r;
      out.d[l] = r ? 1 : 0;
    } else if (f.op == "any") {
      bool r = bal != 0;
      if (B(VOTE_NEGATE_RESULT) && f.neg) r = !r;
      out.d[l] = r ? 1 : 0;
    } else {  // uni
      bool r;
      if (B(VOTE_UNI_POPC_RAW_MASK))
        r = std::popcount(bal) == 0 || std::popcount(bal) == std::popcount(w.mask[l]);
      else r = (bal == 0 || bal == g);
      out.d[l] = r ? 1 : 0;
    }
  }
}

// ----- redux ---------------------------------------------------------------
static const u32 kCanonNaN = 0x7fffffffu;
static bool isNaN32(u32 x) { return (x & 0x7f800000u) == 0x7f800000u && (x & 0x007fffffu); }

// total order on non-NaN floats with -0 < +0
static bool fLess(u32 x, u32 y) {
  auto key = [](u32 v) -> i64 { return (v & 0x80000000u) ? -(i64)(v & 0x7fffffffu) - 1 : (i64)v; };
  return key(x) < key(y);
}

static u32 combine(const Form& f, u32 x, u32 y) {
  const std::string& op = f.op;
  if (op == "add") {
    if (B(REDUX_ADD_SATURATE)) {
      if (f.type == "s32") {
        i64 s = (i64)(i32)x + (i64)(i32)y;
        if (s > INT32_MAX) s = INT32_MAX;
        if (s < INT32_MIN) s = INT32_MIN;
        return (u32)(i32)s;
      }
      u64 s = (u64)x + (u64)y;
      return s > 0xffffffffull ? 0xffffffffu : (u32)s;
    }
    return x + y;
  }
  if (op == "and") return x & y;
  if (op == "or") return x | y;
  if (op == "xor") return x ^ y;
  bool mn = op == "min";
  if (f.type == "f32") return (fLess(x, y) == mn) ? x : y;
  if (f.type == "s32" && !B(REDUX_S32_UNSIGNED)) {
    i32 a = (i32)x, b = (i32)y;
    return (u32)(mn ? std::min(a, b) : std::max(a, b));
  }
  return mn ? std::min(x, y) : std::max(x, y);
}

static u32 reduceList(const Form& f, std::vector<u32> v) {
  if (v.empty()) return 0;
  if (B(REDUX_TREE_ODD_DROP)) {
    while (v.size() > 1) {
      std::vector<u32> nx;
      for (size_t i = 0; i + 1 < v.size(); i += 2) nx.push_back(combine(f, v[i], v[i + 1]));
      v.swap(nx);
    }
    return v[0];
  }
  u32 acc = v[0];
  for (size_t i = 1; i < v.size(); ++i) acc = combine(f, acc, v[i]);
  return acc;
}

static u32 reduxF32(const Form& f, const std::vector<u32>& in) {
  std::vector<u32> v;
  bool anyNaN = false;
  for (u32 x : in) {
    if (f.abs) x &= 0x7fffffffu;
    if (isNaN32(x)) { anyNaN = true; continue; }
    v.push_back(x);
  }
  if (anyNaN && f.nan) return kCanonNaN;
  if (v.empty()) return kCanonNaN;
  return reduceList(f, v);
}

static void runRedux(const Warp& w, const Form& f, RoundOut& out) {
  u32 E = w.executing();
  for (int l = 0; l < 32; ++l) {
    if (!has(E, l)) continue;
    u32 g = groupOf(w, f, l);
    std::vector<u32> vals;
    for (int j = 0; j < 32; ++j)
      if (has(g, j)) vals.push_back((u32)w.a[j]);
    u32 r;
    if (f.type == "f32") r = reduxF32(f, vals);
    else {
      r = reduceList(f, vals);
      // lane-loop padding with a (wrong) identity for the non-members
      if (std::popcount(g) < 32) {
        if (B(REDUX_MIN_U32_IDENTITY0) && f.op == "min" && f.type == "u32") r = combine(f, r, 0u);
        if (B(REDUX_MAX_S32_IDENTITY0) && f.op == "max" && f.type == "s32") r = combine(f, r, 0u);
      }
    }
    out.d[l] = r;
  }
}

// ----- bar.warp.sync -------------------------------------------------------
static void runSyncwarp(const Warp& w, RoundOut& out) {
  u32 E = w.executing();
  u32 maskBits = B(SYNCWARP_MASK16) ? 0xffffu : 0xffffffffu;
  if (B(SYNCWARP_MASK16) && warpUB(w, maskBits)) out.ub = true;

  // wait sets
  for (int l = 0; l < 32; ++l) {
    if (!has(E, l)) continue;
    u32 m = w.mask[l] & maskBits;
    u32 wait = B(SYNCWARP_WAITS_EXITED) ? m : (m & ~w.exited);
    // a lane we wait for never arrives (absent peers are UB: reported, not waited on)
    if (out.ub) wait &= ~w.inactive;
    if ((wait & ~E & ~bit(l)) != 0) { out.hang = true; return; }
    if (B(SYNCWARP_SITE_SERIALIZED)) {
      for (int j = 0; j < 32; ++j)
        if (has(wait, j) && has(E, j) && w.site[j] != w.site[l]) { out.hang = true; return; }
    }
  }

  if (B(SYNCWARP_SINGLE_BARRIER)) {
    // lanes arrive in lane order at a single per-warp barrier slot
    u32 pendingMask = 0, arrived = 0;
    for (int l = 0; l < 32; ++l) {
      if (!has(E, l)) continue;
      if (arrived == 0) pendingMask = w.mask[l];
      else if (w.mask[l] != pendingMask) { out.hang = true; return; }
      arrived |= bit(l);
      u32 need = pendingMask & ~w.exited;
      if ((arrived & need) == need) arrived = 0;
    }
    if (arrived) { out.hang = true; return; }
  }

  int limit = B(SYNCWARP_LANE31_LOOP) ? 31 : 32;
  for (int l = 0; l < limit; ++l)
    if (has(E, l)) out.d[l] = 1;
}

static RoundOut runWarpRound(const Form& f, const json& r, VecState& st) {
  Warp w;
  w.exited = (u32)parseVal(r.value("exited", json("0x0")));
  w.inactive = (u32)parseVal(r.value("inactive", json("0x0")));
  auto m = perLane(r.value("mask", json("0xffffffff")), 32);
  auto a = perLane(r.contains("a") ? r["a"] : json(0), 32);
  auto s = perLane(r.contains("site") ? r["site"] : json(0), 32);
  for (int i = 0; i < 32; ++i) { w.mask[i] = (u32)m[i]; w.a[i] = a[i]; w.site[i] = (int)s[i]; }

  RoundOut out;
  out.d.assign(32, std::nullopt);
  out.p.assign(32, std::nullopt);
  if (warpUB(w)) out.ub = true;

  if (f.fam == "match") runMatch(w, f, out);
  else if (f.fam == "vote") runVote(w, f, out, st);
  else if (f.fam == "redux") runRedux(w, f, out);
  else runSyncwarp(w, out);
  return out;
}

// ---------------------------------------------------------------------------
// Block model: threads in warps of 32, one arrival counter for barrier 0
// ---------------------------------------------------------------------------
static RoundOut runCtaRound(const Form& f, const json& r, VecState& st) {
  int n = r.value("threads", 32);
  auto exited = parseRanges(r.value("exited", json("none")), n);
  auto inactive = parseRanges(r.value("inactive", json("none")), n);
  std::vector<i64> a(n, 0);
  if (r.contains("a")) {
    auto av = perLane(r["a"], n);
    for (int i = 0; i < n; ++i) a[i] = (i64)(i32)(u32)av[i];
  }
  RoundOut out;
  out.d.assign(n, std::nullopt);

  auto pred = [&](int t) -> bool {
    i64 v = a[t];
    if (f.neg && B(CTA_NEGATE_BITWISE)) return (~(u32)v) != 0;
    bool p = B(CTA_PRED_LOWBIT) ? ((v & 1) != 0) : (v != 0);
    return f.neg ? !p : p;
  };

  // expected arrivals
  int expected = 0;
  for (int t = 0; t < n; ++t) if (!exited[t]) ++expected;
  if (B(CTA_EXPECT_ALL_THREADS)) expected = n;

  bool ubNotReached = false;
  for (int t = 0; t < n; ++t) if (!exited[t] && inactive[t]) ubNotReached = true;
  if (ubNotReached) out.ub = true;

  // reduction accumulator
  u64 accum;
  if (f.op == "and") accum = 1; else accum = 0;
  if (B(CTA_RED_STALE) && st.ctaAccumInit) accum = st.ctaAccum;
  uint8_t cnt8 = 0;
  int cnt = 0;
  int popc = 0;
  for (int t = 0; t < n; ++t) {
    bool arrives = !exited[t] && !inactive[t];
    bool contributes = arrives || (B(CTA_RED_EXITED_STALE) && exited[t]);
    if (contributes && f.op != "sync") {
      bool p = pred(t);
      if (p) ++popc;
      if (f.op == "popc") accum += p ? 1 : 0;
      else if (f.op == "and") accum = accum && p;
      else if (f.op == "or") accum = accum || p;
    }
    if (arrives) { ++cnt; ++cnt8; }
  }
  if (B(CTA_COUNTER_U8)) { cnt = cnt8; if (f.op == "popc") accum &= 0xff; }
  if (B(CTA_AND_VIA_BLOCKDIM) && f.op == "and") accum = (popc == n) ? 1 : 0;
  st.ctaAccum = accum;
  st.ctaAccumInit = true;

  // a thread that never reaches the barrier is UB: report it and let the round go on
  if (ubNotReached) for (int t = 0; t < n; ++t) if (!exited[t] && inactive[t]) { ++cnt; ++cnt8; }
  if (B(CTA_COUNTER_U8)) cnt = cnt8;
  bool released = (cnt == expected);
  if (B(CTA_FULL_WARPS)) {
    // warp-granular completion: a warp is done when (32 - exited lanes) arrived
    int warps = (n + 31) / 32;
    for (int wi = 0; wi < warps; ++wi) {
      int arrivedW = 0, exitedW = 0;
      for (int t = wi * 32; t < wi * 32 + 32 && t < n; ++t) {
        if (exited[t]) ++exitedW;
        else if (!inactive[t]) ++arrivedW;
      }
      if (arrivedW != 32 - exitedW) released = false;
    }
  }
  if (!released) { out.hang = true; return out; }

  for (int t = 0; t < n; ++t) {
    if (exited[t] || inactive[t]) continue;
    if (f.op == "sync") out.d[t] = 1;
    else out.d[t] = (u32)accum;
  }
  return out;
}

// ---------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------
static json roundJson(const RoundOut& o) {
  json j = json::object();
  if (o.hang) { j["hang"] = true; if (o.ub) j["ub"] = true; return j; }
  json d = json::array();
  for (auto& v : o.d) d.push_back(v ? json(hex32(*v)) : json(nullptr));
  j["d"] = d;
  if (o.hasP) {
    json p = json::array();
    for (auto& v : o.p) p.push_back(v ? json(*v) : json(nullptr));
    j["p"] = p;
  }
  if (o.ub) j["ub"] = true;
  return j;
}

static void listBugs() {
  for (auto& b : kBugs) printf("%d\t%s\t%s\t%s\n", b.id, b.key, b.forms, b.desc);
}

int main(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "--list") { listBugs(); return 0; }
  if (argc < 3) {
    fprintf(stderr, "usage: %s VECTORS.jsonl BUG > RESULTS.jsonl | %s --list\n", argv[0], argv[0]);
    return 64;
  }
  BUG = std::atoi(argv[2]);
  if (BUG < 0 || BUG >= BUG_COUNT) { fprintf(stderr, "unknown bug %d\n", BUG); return 64; }
  std::ifstream in(argv[1]);
  if (!in) { fprintf(stderr, "cannot open %s\n", argv[1]); return 66; }
  std::string line;
  bool first = true;
  std::ios::sync_with_stdio(false);
  std::cout << "{\"schema\":\"warpspec-results/1\"}\n";
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    json v = json::parse(line);
    if (first) { first = false; if (v.contains("schema")) continue; }
    Form f = parseForm(v.value("form", std::string()), v.value("instruction", std::string()));
    json res = json::object();
    res["id"] = v["id"];
    if (f.fam == "unknown") { res["skipped"] = true; std::cout << res.dump() << "\n"; continue; }
    VecState st;
    json rounds = json::array();
    for (auto& r : v["rounds"]) {
      RoundOut o = (f.fam == "cta") ? runCtaRound(f, r, st) : runWarpRound(f, r, st);
      rounds.push_back(roundJson(o));
      if (o.hang) break;
    }
    if (v["rounds"].size() == 1) {
      for (auto& [k, val] : rounds[0].items()) res[k] = val;
    } else {
      res["rounds"] = rounds;
    }
    std::cout << res.dump() << "\n";
  }
  return 0;
}
