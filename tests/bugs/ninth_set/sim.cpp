// sim.cpp -- "RingBus" warp-primitive emulator, written from the PTX ISA sections for
// match.sync, vote.sync, redux.sync, bar.warp.sync and the block barriers, the CUDA
// programming guide's synchronization/match-function text, and the file-format
// sections (warpspec-vectors/1, warpspec-results/1) alone.
//
// Micro-architecture story.  The emulator runs on a CPU host and models each warp as a
// token ring: a token starts at lane 0 and visits the lanes in order, latching each
// lane's presence bit into a 64-bit host word and carrying an accumulator along.  The
// match unit is a sorted-array unit: (value, lane) entries are sorted by value and runs
// of equal keys are turned into lane masks through a small run table.  Reductions are
// folded on the token (or, for xor, by a pairwise tree over the compacted entries).
// Block barriers are modelled by a CTA scoreboard that counts arrivals and folds the
// block-reduction predicate warp by warp.  Bugs are the mistakes such an emulator
// plausibly makes; bug 0 is the intended correct implementation.
//
// Usage:  sim --list            one line per bug:  N<TAB>key<TAB>forms<TAB>description
//         sim VECTORS.jsonl N   results (warpspec-results/1) with bug N active, to stdout

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

using json = nlohmann::json;

// ---------------------------------------------------------------------------------
// Bug table
// ---------------------------------------------------------------------------------
#define BUG_LIST(X)                                                                                 \
  /* ---- match ---- */                                                                            \
  X(match_any_b64_low32_key, "match.any.sync.b64",                                                 \
    "sorted-array match unit keys its entries on the low 32 bits of a .b64 value")                 \
  X(match_any_b64_halves_or, "match.any.sync.b64",                                                 \
    ".b64 lowered to two .b32 matches whose lane masks are combined with OR instead of AND")       \
  X(match_all_b64_low32, "match.all.sync.b64",                                                     \
    "match.all .b64 compares only the low 32 bits of each lane's value")                           \
  X(match_any_exited_zero, "match.any.sync.b32,match.any.sync.b64",                                \
    "exited lanes of membermask enter the sorted array with a zeroed register and match value 0")  \
  X(match_any_run_end_drop, "match.any.sync.b32,match.any.sync.b64",                               \
    "run detection never flushes the last entry of the sorted array into its run mask")            \
  X(match_any_ring_stops_30, "match.any.sync.b32,match.any.sync.b64",                              \
    "ring that fills the sorted array stops at lane 30: lane 31 missing from other lanes' masks")  \
  X(match_any_sentinel_empty, "match.any.sync.b32",                                                \
    "sorted array uses 0xffffffff as its empty-slot sentinel, so lanes holding it match nobody")   \
  X(match_any_run_table_31, "match.any.sync.b32,match.any.sync.b64",                               \
    "run table has 31 entries: with 32 distinct values the last two runs share one slot")          \
  X(match_any_mask_lowest_lane, "match.any.sync.b32,match.any.sync.b64",                           \
    "membermask read once from the lowest executing lane and used for every lane")                 \
  X(match_any_float_compare, "__match_any_sync(float/double)",                                     \
    "intrinsic with a float/double value compares numerically (+0==-0, NaN!=NaN) not bitwise")     \
  X(match_all_returns_membermask, "match.all.sync.b32,match.all.sync.b64",                         \
    "match.all writes membermask itself into d, exited lanes included")                            \
  X(match_all_single_false, "match.all.sync.b32,match.all.sync.b64",                               \
    "uniformity check needs two entries: a single non-exited participant gets p=false, d=0")       \
  X(match_all_ref_lane0, "match.all.sync.b32,match.all.sync.b64",                                  \
    "match.all compares every participant against lane 0's register, even if lane 0 is not one")  \
  X(match_all_sticky_flag, "match.all.sync.b32,match.all.sync.b64",                                \
    "per-lane all-equal latch is never reset between instructions (sticky false)")                 \
  X(match_all_d_not_zeroed, "match.all.sync.b32,match.all.sync.b64",                               \
    "match.all clears only p on a mismatch and leaves d as the participant mask")                  \
  /* ---- vote ---- */                                                                             \
  X(vote_all_exited_false, "vote.sync.all.pred",                                                   \
    "exited lanes of membermask read as a false predicate in vote.all")                            \
  X(vote_all_negate_after, "vote.sync.all.pred",                                                   \
    "vote.all with !a negates the reduced result (not_all) instead of each input (none)")          \
  X(vote_all_uses_activemask, "vote.sync.all.pred",                                                \
    "vote.all reduces over every executing lane instead of the lanes of membermask")               \
  X(vote_any_ignores_negate, "vote.sync.any.pred",                                                 \
    "vote.any drops the ! on the source predicate")                                                \
  X(vote_any_pred_low_byte, "vote.sync.any.pred",                                                  \
    "vote.any reads the predicate from the low byte of the source register only")                  \
  X(vote_any_stale_latch, "vote.sync.any.pred",                                                    \
    "vote.any OR-latch is not cleared between instructions")                                       \
  X(vote_uni_negate_inverts, "vote.sync.uni.pred",                                                 \
    "vote.uni with !a inverts the result")                                                         \
  X(vote_uni_ref_lane0, "vote.sync.uni.pred",                                                      \
    "vote.uni compares against lane 0's predicate even when lane 0 is not a participant")          \
  X(vote_uni_exited_false, "vote.sync.uni.pred",                                                   \
    "exited lanes of membermask take part in vote.uni with a false predicate")                     \
  X(vote_ballot_pred_bit0, "vote.sync.ballot.b32",                                                 \
    "ballot takes bit 0 of the source register as the predicate")                                  \
  X(vote_ballot_ring_mod31, "vote.sync.ballot.b32",                                                \
    "ring position computed modulo 31: lane 31's ballot bit lands in bit 0")                       \
  X(vote_ballot_nonmember_bits, "vote.sync.ballot.b32",                                            \
    "ballot collects the predicate of every executing lane, membermask applied only to waiting")   \
  X(vote_ballot_negate_exited, "vote.sync.ballot.b32",                                             \
    "with !a the negation is applied before masking by presence: exited members contribute 1")     \
  X(vote_ballot_mask_lowest_lane, "vote.sync.ballot.b32",                                          \
    "ballot uses the membermask of the lowest executing lane for every lane")                      \
  X(vote_ballot_fullmask_fastpath, "vote.sync.ballot.b32",                                         \
    "full-mask fast path reads the predicate register of all 32 lanes, exited lanes included")     \
  /* ---- redux ---- */                                                                            \
  X(redux_add_s32_saturate, "redux.sync.add.s32",                                                  \
    "signed add folded with the host's saturating add instead of wrapping to 32 bits")             \
  X(redux_add_u32_untruncated, "redux.sync.add.u32",                                               \
    "unsigned add kept in the 64-bit host accumulator: carry out of bit 31 written to d")          \
  X(redux_add_exited_stale, "redux.sync.add.u32,redux.sync.add.s32",                               \
    "exited lanes of membermask add their stale register value")                                   \
  X(redux_add_stale_acc, "redux.sync.add.u32,redux.sync.add.s32",                                  \
    "add accumulator carried on the token is not reset between instructions")                      \
  X(redux_min_s32_unsigned_cmp, "redux.sync.min.s32",                                              \
    "min.s32 compares as unsigned")                                                                \
  X(redux_min_s32_neg_max, "redux.sync.min.s32",                                                   \
    "min.s32 computed as -max(-x) in 32 bits: wrong when INT_MIN is an input")                     \
  X(redux_min_u32_identity_intmax, "redux.sync.min.u32",                                           \
    "min.u32 starts from the signed identity 0x7fffffff")                                          \
  X(redux_max_u32_signed_cmp, "redux.sync.max.u32",                                                \
    "max.u32 compares as signed")                                                                  \
  X(redux_max_s32_identity_zero, "redux.sync.max.s32",                                             \
    "max.s32 starts its accumulator at 0")                                                         \
  X(redux_max_s32_seed_lane0, "redux.sync.max.s32",                                                \
    "max.s32 seeds the accumulator with lane 0's register whether or not lane 0 participates")     \
  X(redux_and_identity_intmax, "redux.sync.and.b32",                                               \
    "and starts from 0x7fffffff instead of all ones: bit 31 always cleared")                       \
  X(redux_and_mask_lowest_lane, "redux.sync.and.b32",                                              \
    "and uses the membermask of the lowest executing lane for every lane")                         \
  X(redux_or_ring_stops_30, "redux.sync.or.b32",                                                   \
    "or token ring stops at lane 30: lane 31's value never folded")                                \
  X(redux_or_fullmask_fastpath, "redux.sync.or.b32",                                               \
    "full-mask fast path ORs all 32 registers, exited lanes included")                             \
  X(redux_xor_exited_stale, "redux.sync.xor.b32",                                                  \
    "exited lanes of membermask fold their stale register into xor")                               \
  X(redux_xor_tree_odd_drop, "redux.sync.xor.b32",                                                 \
    "pairwise xor tree drops the unpaired last entry of a level with an odd count")                \
  X(redux_f32_zero_sign_equal, "redux.sync.min.f32,redux.sync.max.f32",                            \
    "f32 min/max treat -0.0 and +0.0 as equal (first one seen wins)")                              \
  X(redux_f32_nan_first, "redux.sync.min.f32,redux.sync.max.f32",                                  \
    "without .NaN a NaN in the first participant sticks (a<b?a:b fold)")                           \
  X(redux_f32_abs_sign_kept, "redux.sync.min.abs.f32,redux.sync.max.abs.f32",                      \
    ".abs selects by magnitude but writes the winner's original signed value")                     \
  X(redux_f32_nan_payload, "redux.sync.min.NaN.f32,redux.sync.max.NaN.f32",                        \
    ".NaN returns the first NaN input's payload instead of the canonical NaN")                     \
  X(redux_f32_default_qnan, "redux.sync.min.f32,redux.sync.max.f32",                               \
    "NaN results use the host default quiet NaN 0x7fc00000 instead of canonical 0x7fffffff")       \
  /* ---- bar.warp.sync ---- */                                                                    \
  X(warpsync_waits_exited, "bar.warp.sync",                                                        \
    "bar.warp.sync waits for exited lanes of membermask too (hangs)")                              \
  X(warpsync_full_warp, "bar.warp.sync",                                                           \
    "bar.warp.sync waits for every non-exited lane of the warp, ignoring membermask")              \
  X(warpsync_lane31_presence, "bar.warp.sync",                                                     \
    "presence word built from lanes 0..30: a mask naming lane 31 never releases")                  \
  X(warpsync_mask_lowest_lane, "bar.warp.sync",                                                    \
    "barrier tracks only the group of the lowest executing lane; other groups never release")      \
  /* ---- block barriers ---- */                                                                   \
  X(bar_sync_threads_roundup, "bar.sync",                                                          \
    "expected arrivals rounded up to whole warps: blocks not a multiple of 32 threads hang")       \
  X(bar_sync_exited_expected, "bar.sync",                                                          \
    "exited threads still counted as expected arrivals (hang)")                                    \
  X(bar_sync_partial_warp_exit, "bar.sync",                                                        \
    "exited threads discounted only when their whole warp exited (hang otherwise)")                \
  X(bar_red_popc_counter8, "bar.red.popc.u32",                                                     \
    "popc arrival counter is 8 bits wide and wraps at 256")                                        \
  X(bar_red_popc_per_warp, "bar.red.popc.u32",                                                     \
    "popc returns the count of the thread's own warp, not of the whole block")                     \
  X(bar_red_popc_negate_ignored, "bar.red.popc.u32",                                               \
    "popc drops the ! on the predicate operand")                                                   \
  X(bar_red_popc_lane31_dropped, "bar.red.popc.u32",                                               \
    "per-warp ballot built from lanes 0..30: lane 31 of each warp never counted")                  \
  X(bar_red_and_exited_false, "bar.red.and.pred",                                                  \
    "exited threads take part in bar.red.and with a false predicate")                              \
  X(bar_red_and_padding_false, "bar.red.and.pred",                                                 \
    "padding lanes of a partial last warp feed 0 into the and: false unless threads%32==0")        \
  X(bar_red_and_negate_after, "bar.red.and.pred",                                                  \
    "and with !c negates the reduced result instead of each input")                                \
  X(bar_red_or_pred_bit0, "bar.red.or.pred",                                                       \
    "or reads bit 0 of the predicate register only")                                               \
  X(bar_red_or_stale, "bar.red.or.pred",                                                           \
    "block or accumulator is not reset between barrier instances")                                 \
  X(bar_red_exited_expected, "bar.red.popc.u32,bar.red.and.pred,bar.red.or.pred",                  \
    "bar.red counts exited threads as expected arrivals (hang)")

enum BugId : int {
  NO_BUG = 0,
#define X_ENUM(k, f, d) k,
  BUG_LIST(X_ENUM)
#undef X_ENUM
      BUG_COUNT
};

struct BugInfo {
  const char* key;
  const char* forms;
  const char* desc;
};
static const BugInfo kBugs[] = {
    {"correct", "all", "correct implementation"},
#define X_INFO(k, f, d) {#k, f, d},
    BUG_LIST(X_INFO)
#undef X_INFO
};

static int g_bug = 0;
static inline bool bug(BugId b) { return g_bug == (int)b; }

// ---------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------
static std::string lower(std::string s) {
  for (auto& c : s) c = (char)std::tolower((unsigned char)c);
  return s;
}
static bool has(const std::string& s, const char* t) { return s.find(t) != std::string::npos; }

static uint64_t to_u64(const json& v) {
  if (v.is_null()) return 0;
  if (v.is_boolean()) return v.get<bool>() ? 1 : 0;
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.is_number_integer()) return (uint64_t)v.get<int64_t>();
  if (v.is_number_float()) return (uint64_t)(int64_t)v.get<double>();
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    if (s.empty()) return 0;
    bool neg = false;
    size_t i = 0;
    if (s[0] == '-') { neg = true; i = 1; }
    uint64_t x = std::strtoull(s.c_str() + i, nullptr, 0);
    return neg ? (uint64_t)(-(int64_t)x) : x;
  }
  return 0;
}

static std::string hex32(uint32_t x) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", x);
  return b;
}
static std::string hex64(uint64_t x) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", (unsigned long long)x);
  return b;
}

// lane/thread sets: hex word ("0x..."), "none", ranges "a-b,c"
static std::vector<char> parse_set(const json& v, int n) {
  std::vector<char> out(n, 0);
  if (v.is_null()) return out;
  if (v.is_number()) {
    uint64_t m = to_u64(v);
    for (int i = 0; i < n && i < 64; i++) out[i] = (m >> i) & 1;
    return out;
  }
  if (v.is_array()) {
    for (auto& e : v) {
      if (e.is_number()) {
        int64_t i = (int64_t)to_u64(e);
        if (i >= 0 && i < n) out[i] = 1;
      } else {
        auto sub = parse_set(e, n);
        for (int i = 0; i < n; i++) out[i] |= sub[i];
      }
    }
    return out;
  }
  if (!v.is_string()) return out;
  std::string s = lower(v.get<std::string>());
  std::string t;
  for (char c : s)
    if (!std::isspace((unsigned char)c)) t += c;
  if (t.empty() || t == "none" || t == "-") return out;
  if (t == "all") {
    for (int i = 0; i < n; i++) out[i] = 1;
    return out;
  }
  if (t.rfind("0x", 0) == 0) {
    uint64_t m = std::strtoull(t.c_str(), nullptr, 16);
    for (int i = 0; i < n && i < 64; i++) out[i] = (m >> i) & 1;
    return out;
  }
  size_t pos = 0;
  while (pos <= t.size()) {
    size_t c = t.find(',', pos);
    std::string part = t.substr(pos, c == std::string::npos ? std::string::npos : c - pos);
    if (!part.empty()) {
      size_t d = part.find('-');
      long lo, hi;
      if (d == std::string::npos) {
        lo = hi = std::strtol(part.c_str(), nullptr, 10);
      } else {
        lo = std::strtol(part.substr(0, d).c_str(), nullptr, 10);
        hi = std::strtol(part.substr(d + 1).c_str(), nullptr, 10);
      }
      for (long i = lo; i <= hi; i++)
        if (i >= 0 && i < n) out[i] = 1;
    }
    if (c == std::string::npos) break;
    pos = c + 1;
  }
  return out;
}

// ---------------------------------------------------------------------------------
// Instruction classification
// ---------------------------------------------------------------------------------
enum Kind { K_UNKNOWN, K_MATCH_ANY, K_MATCH_ALL, K_VOTE_ALL, K_VOTE_ANY, K_VOTE_UNI, K_VOTE_BALLOT,
            K_REDUX, K_WARPSYNC, K_BARSYNC, K_BARRED };
enum RedOp { R_ADD, R_MIN, R_MAX, R_AND, R_OR, R_XOR, R_POPC };

struct Op {
  Kind kind = K_UNKNOWN;
  int width = 32;
  bool writes_p = false;
  bool d_sink = false;
  bool negate = false;
  bool is_float = false;  // match intrinsic on float/double
  RedOp rop = R_ADD;
  bool sgn = false, f32 = false, abs = false, nan = false;
  long bar_count = -1;
  bool block = false;
};

static std::vector<std::string> operands_after_mnemonic(const std::string& instr) {
  // "bar.sync 0, 64;"  -> {"0","64"}
  std::vector<std::string> out;
  std::string s = instr;
  size_t sc = s.find(';');
  if (sc != std::string::npos) s = s.substr(0, sc);
  size_t sp = s.find_first_of(" \t");
  if (sp == std::string::npos) return out;
  s = s.substr(sp + 1);
  size_t pos = 0;
  while (true) {
    size_t c = s.find(',', pos);
    std::string p = s.substr(pos, c == std::string::npos ? std::string::npos : c - pos);
    std::string t;
    for (char ch : p)
      if (!std::isspace((unsigned char)ch)) t += ch;
    out.push_back(t);
    if (c == std::string::npos) break;
    pos = c + 1;
  }
  return out;
}

static bool is_literal(const std::string& t, long& v) {
  if (t.empty()) return false;
  char* e = nullptr;
  v = std::strtol(t.c_str(), &e, 0);
  return e && *e == 0;
}

static Op classify(const std::string& form, const std::string& instr) {
  Op op;
  std::string f = lower(form), in = lower(instr);
  std::string s = f + " | " + in;
  if (has(s, "match")) {
    op.kind = (has(s, "match.all") || has(s, "match_all")) ? K_MATCH_ALL : K_MATCH_ANY;
    if (has(s, "b64") || has(s, "64") || has(s, "long") || has(s, "double")) op.width = 64;
    op.is_float = has(s, "float") || has(s, "double");
    if (op.kind == K_MATCH_ALL)
      op.writes_p = has(in, "|") || has(in, "&") || has(in, "pred") || has(in, "__match_all");
    op.d_sink = has(in, "_|") || has(in, "_ |");
    return op;
  }
  if (has(s, "vote") || has(s, "__all_sync") || has(s, "__any_sync") || has(s, "__uni_sync") ||
      has(s, "__ballot_sync")) {
    if (has(s, "ballot")) op.kind = K_VOTE_BALLOT;
    else if (has(s, "uni")) op.kind = K_VOTE_UNI;
    else if (has(s, ".all") || has(s, "_all")) op.kind = K_VOTE_ALL;
    else op.kind = K_VOTE_ANY;
    op.negate = has(in, "!");
    return op;
  }
  if (has(s, "redux") || has(s, "__reduce_")) {
    op.kind = K_REDUX;
    if (has(s, "add")) op.rop = R_ADD;
    else if (has(s, "min")) op.rop = R_MIN;
    else if (has(s, "max")) op.rop = R_MAX;
    else if (has(s, "xor")) op.rop = R_XOR;
    else if (has(s, "and")) op.rop = R_AND;
    else op.rop = R_OR;
    op.f32 = has(s, "f32") || has(s, "float");
    op.abs = has(s, ".abs") || has(s, "abs");
    op.nan = has(s, ".nan");
    if (has(s, "s32")) op.sgn = true;
    else if (has(s, "u32")) op.sgn = false;
    else {
      std::string t = s;
      for (const char* u : {"unsigned int", "unsigned"}) {
        size_t p;
        while ((p = t.find(u)) != std::string::npos) t.erase(p, std::strlen(u));
      }
      op.sgn = has(t, "int");
    }
    return op;
  }
  if (has(s, "bar.warp") || has(s, "barrier.warp") || has(s, "syncwarp")) {
    op.kind = K_WARPSYNC;
    return op;
  }
  if (has(s, "bar.red") || has(s, "barrier.red") || has(s, "barrier.cta.red") ||
      has(s, "bar.cta.red") || has(s, "__syncthreads_")) {
    op.kind = K_BARRED;
    op.block = true;
    if (has(s, "popc") || has(s, "count")) op.rop = R_POPC;
    else if (has(s, "and")) op.rop = R_AND;
    else op.rop = R_OR;
    op.negate = has(in, "!");
    auto ops = operands_after_mnemonic(instr);
    long v;
    if (ops.size() == 4 && is_literal(ops[2], v)) op.bar_count = v;
    return op;
  }
  if (has(s, "bar") || has(s, "__syncthreads")) {
    op.kind = K_BARSYNC;
    op.block = true;
    auto ops = operands_after_mnemonic(instr);
    long v;
    if (ops.size() == 2 && is_literal(ops[1], v)) op.bar_count = v;
    return op;
  }
  return op;
}

// ---------------------------------------------------------------------------------
// Round state and result
// ---------------------------------------------------------------------------------
struct RState {
  int n = 32;
  std::vector<char> exited, inactive, exec;
  std::vector<uint32_t> mask;
  std::vector<uint64_t> a;
  bool hex64 = false;
};

struct RResult {
  std::vector<json> d;  // null for lanes without result
  std::vector<json> p;
  bool with_p = false;
  bool hang = false;
};

// State that a ring emulator keeps between instructions (per vector); the correct
// implementation clears it at the start of every instruction.
struct Latches {
  std::vector<char> match_all_flag = std::vector<char>(32, 1);
  std::vector<char> vote_any_or = std::vector<char>(32, 0);
  std::vector<uint64_t> redux_add_acc = std::vector<uint64_t>(32, 0);
  bool bar_or = false;
  void reset() {
    std::fill(match_all_flag.begin(), match_all_flag.end(), 1);
    std::fill(vote_any_or.begin(), vote_any_or.end(), 0);
    std::fill(redux_add_acc.begin(), redux_add_acc.end(), 0);
    bar_or = false;
  }
};

static RState parse_round(const json& r, const Op& op, int threads) {
  RState st;
  st.n = op.block ? std::max(threads, 0) : 32;
  int n = st.n;
  st.exited = parse_set(r.contains("exited") ? r["exited"] : json(), n);
  st.inactive = parse_set(r.contains("inactive") ? r["inactive"] : json(), n);
  st.exec.assign(n, 0);
  for (int i = 0; i < n; i++) st.exec[i] = !st.exited[i] && !st.inactive[i];
  st.mask.assign(n, 0xffffffffu);
  if (r.contains("mask")) {
    const json& m = r["mask"];
    if (m.is_array()) {
      for (int i = 0; i < n && i < (int)m.size(); i++) st.mask[i] = (uint32_t)to_u64(m[i]);
    } else {
      uint32_t v = (uint32_t)to_u64(m);
      for (int i = 0; i < n; i++) st.mask[i] = v;
    }
  }
  st.a.assign(n, 0);
  if (r.contains("a")) {
    const json& a = r["a"];
    auto note = [&](const json& e) {
      if (e.is_string()) {
        std::string s = e.get<std::string>();
        if (s.size() > 10 && s.rfind("0x", 0) == 0) st.hex64 = true;
      }
    };
    if (a.is_array()) {
      for (int i = 0; i < n && i < (int)a.size(); i++) {
        st.a[i] = to_u64(a[i]);
        note(a[i]);
      }
    } else {
      uint64_t v = to_u64(a);
      note(a);
      for (int i = 0; i < n; i++) st.a[i] = v;
    }
  }
  return st;
}

static uint32_t bits_of(const std::vector<char>& v) {
  uint32_t m = 0;
  for (int i = 0; i < 32 && i < (int)v.size(); i++)
    if (v[i]) m |= 1u << i;
  return m;
}

static int lowest_exec(const RState& st) {
  for (int i = 0; i < st.n; i++)
    if (st.exec[i]) return i;
  return 0;
}

// Collectives (match/vote/redux) are evaluated once every executing lane has arrived;
// the result is formed from the non-exited lanes named in each lane's membermask.

// ---------------------------------------------------------------------------------
// match.sync
// ---------------------------------------------------------------------------------
static uint64_t match_key(const Op& op, uint64_t v) {
  if (op.width == 32) return v & 0xffffffffull;
  if (bug(match_any_b64_low32_key)) return v & 0xffffffffull;
  return v;
}

static bool float_equal(const Op& op, uint64_t x, uint64_t y) {
  if (op.width == 64) {
    double a, b;
    std::memcpy(&a, &x, 8);
    std::memcpy(&b, &y, 8);
    return a == b;
  }
  uint32_t xs = (uint32_t)x, ys = (uint32_t)y;
  float a, b;
  std::memcpy(&a, &xs, 4);
  std::memcpy(&b, &ys, 4);
  return a == b;
}

static void do_match_any(const Op& op, const RState& st, RResult& res) {
  uint32_t exited = bits_of(st.exited);
  int low = lowest_exec(st);
  for (int L = 0; L < 32; L++) {
    if (!st.exec[L]) continue;
    uint32_t m = bug(match_any_mask_lowest_lane) ? st.mask[low] : st.mask[L];
    uint32_t part = m & ~exited;

    struct Entry { uint64_t key; int lane; };
    std::vector<Entry> arr;
    int ring_end = bug(match_any_ring_stops_30) ? 31 : 32;
    for (int j = 0; j < ring_end; j++) {
      if (!((part >> j) & 1)) continue;
      uint64_t k = match_key(op, st.a[j]);
      if (bug(match_any_sentinel_empty) && op.width == 32 && k == 0xffffffffull) continue;
      arr.push_back({k, j});
    }
    if (bug(match_any_exited_zero))
      for (int j = 0; j < 32; j++)
        if (((m & exited) >> j) & 1) arr.push_back({0, j});

    uint64_t mykey = match_key(op, st.a[L]);
    uint32_t d = 0;
    if (bug(match_any_b64_halves_or) && op.width == 64) {
      for (auto& e : arr)
        if ((uint32_t)e.key == (uint32_t)mykey || (uint32_t)(e.key >> 32) == (uint32_t)(mykey >> 32))
          d |= 1u << e.lane;
      d |= 1u << L;
      res.d[L] = hex32(d);
      continue;
    }
    if (bug(match_any_float_compare) && op.is_float) {
      for (auto& e : arr)
        if (float_equal(op, e.key, mykey)) d |= 1u << e.lane;
      res.d[L] = hex32(d);
      continue;
    }

    std::stable_sort(arr.begin(), arr.end(), [](const Entry& x, const Entry& y) {
      return x.key < y.key || (x.key == y.key && x.lane < y.lane);
    });
    // run table
    std::vector<int> run(arr.size(), 0);
    int r = 0;
    for (size_t i = 0; i < arr.size(); i++) {
      if (i > 0 && arr[i].key != arr[i - 1].key) r++;
      run[i] = r;
      if (bug(match_any_run_table_31) && run[i] > 30) run[i] = 30;
    }
    std::vector<uint32_t> runmask(arr.size() + 1, 0);
    size_t flush_end = arr.size();
    if (bug(match_any_run_end_drop) && flush_end > 0) flush_end--;
    for (size_t i = 0; i < flush_end; i++) runmask[run[i]] |= 1u << arr[i].lane;

    int myidx = -1;
    for (size_t i = 0; i < arr.size(); i++)
      if (arr[i].lane == L && ((part >> L) & 1)) { myidx = (int)i; break; }
    if (myidx >= 0) {
      d = runmask[run[myidx]];
    } else {
      for (auto& e : arr)
        if (e.key == mykey) d |= 1u << e.lane;
      d |= 1u << L;
    }
    res.d[L] = hex32(d);
  }
}

static void do_match_all(const Op& op, const RState& st, RResult& res, Latches& lt) {
  uint32_t exited = bits_of(st.exited);
  res.with_p = op.writes_p;
  for (int L = 0; L < 32; L++) {
    if (!st.exec[L]) continue;
    uint32_t m = st.mask[L];
    uint32_t part = m & ~exited;
    auto key = [&](uint64_t v) -> uint64_t {
      if (op.width == 32) return v & 0xffffffffull;
      if (bug(match_all_b64_low32)) return v & 0xffffffffull;
      return v;
    };
    int first = -1;
    int cnt = 0;
    for (int j = 0; j < 32; j++)
      if ((part >> j) & 1) { if (first < 0) first = j; cnt++; }
    if (first < 0) first = L;
    uint64_t ref = bug(match_all_ref_lane0) ? key(st.a[0]) : key(st.a[first]);
    bool eq = true;
    for (int j = 0; j < 32; j++)
      if (((part >> j) & 1) && key(st.a[j]) != ref) eq = false;
    if (bug(match_all_single_false) && cnt == 1) eq = false;
    if (bug(match_all_sticky_flag)) {
      lt.match_all_flag[L] = lt.match_all_flag[L] && eq;
      eq = lt.match_all_flag[L];
    }
    uint32_t d;
    if (eq) d = bug(match_all_returns_membermask) ? m : part;
    else d = bug(match_all_d_not_zeroed) ? part : 0;
    if (op.d_sink) d = 0;
    res.d[L] = hex32(d);
    res.p[L] = eq ? 1 : 0;
  }
}

// ---------------------------------------------------------------------------------
// vote.sync
// ---------------------------------------------------------------------------------
static void do_vote(const Op& op, const RState& st, RResult& res, Latches& lt) {
  uint32_t exited = bits_of(st.exited);
  uint32_t execb = bits_of(st.exec);
  int low = lowest_exec(st);
  auto raw = [&](int j) -> bool {
    uint32_t v = (uint32_t)st.a[j];
    if (op.kind == K_VOTE_BALLOT && bug(vote_ballot_pred_bit0)) return v & 1;
    if (op.kind == K_VOTE_ANY && bug(vote_any_pred_low_byte)) return (v & 0xff) != 0;
    return v != 0;
  };
  bool neg = op.negate;
  if (op.kind == K_VOTE_ANY && bug(vote_any_ignores_negate)) neg = false;
  auto eff = [&](int j) -> bool { return neg ? !raw(j) : raw(j); };

  for (int L = 0; L < 32; L++) {
    if (!st.exec[L]) continue;
    uint32_t m = st.mask[L];
    if (op.kind == K_VOTE_BALLOT && bug(vote_ballot_mask_lowest_lane)) m = st.mask[low];
    uint32_t part = m & ~exited;
    switch (op.kind) {
      case K_VOTE_ALL: {
        uint32_t set = bug(vote_all_uses_activemask) ? execb : part;
        bool r = true;
        if (bug(vote_all_negate_after) && neg) {
          bool all = true;
          for (int j = 0; j < 32; j++)
            if (((set >> j) & 1) && !raw(j)) all = false;
          r = !all;
        } else {
          for (int j = 0; j < 32; j++)
            if (((set >> j) & 1) && !eff(j)) r = false;
          if (bug(vote_all_exited_false) && (m & exited) && !neg) r = false;
        }
        res.d[L] = r ? 1 : 0;
        break;
      }
      case K_VOTE_ANY: {
        bool r = false;
        for (int j = 0; j < 32; j++)
          if (((part >> j) & 1) && eff(j)) r = true;
        if (bug(vote_any_stale_latch)) {
          lt.vote_any_or[L] = lt.vote_any_or[L] || r;
          r = lt.vote_any_or[L];
        }
        res.d[L] = r ? 1 : 0;
        break;
      }
      case K_VOTE_UNI: {
        int first = -1;
        for (int j = 0; j < 32; j++)
          if ((part >> j) & 1) { first = j; break; }
        if (first < 0) first = L;
        bool ref = bug(vote_uni_ref_lane0) ? eff(0) : eff(first);
        bool r = true;
        for (int j = 0; j < 32; j++)
          if (((part >> j) & 1) && eff(j) != ref) r = false;
        if (bug(vote_uni_exited_false)) {
          bool ex = neg ? true : false;
          for (int j = 0; j < 32; j++)
            if ((((m & exited) >> j) & 1) && ex != ref) r = false;
        }
        if (bug(vote_uni_negate_inverts) && neg) r = !r;
        res.d[L] = r ? 1 : 0;
        break;
      }
      case K_VOTE_BALLOT: {
        uint32_t d = 0;
        uint32_t from = part & execb;
        if (bug(vote_ballot_nonmember_bits)) from = execb;
        if (bug(vote_ballot_fullmask_fastpath) && m == 0xffffffffu) from = execb | exited;
        for (int j = 0; j < 32; j++) {
          if (!((from >> j) & 1)) continue;
          if (eff(j)) {
            int pos = bug(vote_ballot_ring_mod31) ? (j % 31) : j;
            d |= 1u << pos;
          }
        }
        if (bug(vote_ballot_negate_exited) && neg) d |= (m & exited);
        res.d[L] = hex32(d);
        break;
      }
      default: break;
    }
  }
}

// ---------------------------------------------------------------------------------
// redux.sync
// ---------------------------------------------------------------------------------
static bool f_isnan(uint32_t x) { return (x & 0x7f800000u) == 0x7f800000u && (x & 0x007fffffu); }
static float f_of(uint32_t x) { float f; std::memcpy(&f, &x, 4); return f; }

// true when x orders strictly before y (for min), with -0 < +0
static bool f_less(uint32_t x, uint32_t y) {
  float a = f_of(x), b = f_of(y);
  if (a < b) return true;
  if (a > b) return false;
  if (bug(redux_f32_zero_sign_equal)) return false;
  // equal values: only zeros of different sign differ
  return (x >> 31) && !(y >> 31);
}

static std::string redux_f32(const Op& op, const std::vector<int>& lanes, const RState& st) {
  const uint32_t canon = bug(redux_f32_default_qnan) ? 0x7fc00000u : 0x7fffffffu;
  bool have = false, nan_seen = false;
  uint32_t best = 0, best_orig = 0, first_nan = 0;
  bool first = true;
  for (int j : lanes) {
    uint32_t orig = (uint32_t)st.a[j];
    uint32_t x = op.abs ? (orig & 0x7fffffffu) : orig;
    if (f_isnan(x)) {
      if (!nan_seen) first_nan = x;
      nan_seen = true;
      if (first && bug(redux_f32_nan_first) && !op.nan) {
        best = x; best_orig = orig; have = true;
      }
      first = false;
      continue;
    }
    first = false;
    if (!have) { best = x; best_orig = orig; have = true; continue; }
    if (f_isnan(best)) continue;  // sticky (bug path only)
    bool take = (op.rop == R_MIN) ? f_less(x, best) : f_less(best, x);
    if (take) { best = x; best_orig = orig; }
  }
  if (op.nan && nan_seen) return hex32(bug(redux_f32_nan_payload) ? first_nan : canon);
  if (!have) return hex32(canon);
  if (f_isnan(best)) return hex32(best);
  if (op.abs && bug(redux_f32_abs_sign_kept)) return hex32(best_orig);
  return hex32(best);
}

static void do_redux(const Op& op, const RState& st, RResult& res, Latches& lt) {
  uint32_t exited = bits_of(st.exited);
  int low = lowest_exec(st);
  for (int L = 0; L < 32; L++) {
    if (!st.exec[L]) continue;
    uint32_t m = st.mask[L];
    if (op.rop == R_AND && bug(redux_and_mask_lowest_lane)) m = st.mask[low];
    uint32_t part = m & ~exited;
    uint32_t from = part;
    if (op.rop == R_OR && bug(redux_or_ring_stops_30)) from &= 0x7fffffffu;
    if (op.rop == R_OR && bug(redux_or_fullmask_fastpath) && m == 0xffffffffu) from |= exited;
    if (op.rop == R_XOR && bug(redux_xor_exited_stale)) from |= (m & exited);
    if (op.rop == R_ADD && bug(redux_add_exited_stale)) from |= (m & exited);
    std::vector<int> lanes;
    for (int j = 0; j < 32; j++)
      if ((from >> j) & 1) lanes.push_back(j);
    auto v = [&](int j) { return (uint32_t)st.a[j]; };

    if (op.f32 && (op.rop == R_MIN || op.rop == R_MAX)) {
      res.d[L] = redux_f32(op, lanes, st);
      continue;
    }
    switch (op.rop) {
      case R_ADD: {
        uint64_t acc = 0;
        if (bug(redux_add_s32_saturate) && op.sgn) {
          int64_t s = 0;
          for (int j : lanes) {
            s += (int32_t)v(j);
            if (s > INT32_MAX) s = INT32_MAX;
            if (s < INT32_MIN) s = INT32_MIN;
          }
          acc = (uint32_t)(int32_t)s;
        } else {
          for (int j : lanes) acc += v(j);
        }
        if (bug(redux_add_stale_acc)) {
          lt.redux_add_acc[L] += acc;
          acc = lt.redux_add_acc[L];
        }
        if (bug(redux_add_u32_untruncated) && !op.sgn) res.d[L] = hex64(acc);
        else res.d[L] = hex32((uint32_t)acc);
        break;
      }
      case R_MIN:
      case R_MAX: {
        bool is_min = op.rop == R_MIN;
        bool sgn = op.sgn;
        if (is_min && sgn && bug(redux_min_s32_unsigned_cmp)) sgn = false;
        if (!is_min && !sgn && bug(redux_max_u32_signed_cmp)) sgn = true;
        auto less = [&](uint32_t x, uint32_t y) { return sgn ? (int32_t)x < (int32_t)y : x < y; };
        if (is_min && op.sgn && bug(redux_min_s32_neg_max)) {
          uint32_t acc = 0;
          bool have = false;
          for (int j : lanes) {
            uint32_t n = (uint32_t)(0u - v(j));
            if (!have || (int32_t)n > (int32_t)acc) acc = n;
            have = true;
          }
          res.d[L] = hex32((uint32_t)(0u - acc));
          break;
        }
        bool have = false;
        uint32_t acc = 0;
        if (is_min && !op.sgn && bug(redux_min_u32_identity_intmax)) { acc = 0x7fffffffu; have = true; }
        if (!is_min && op.sgn && bug(redux_max_s32_identity_zero)) { acc = 0; have = true; }
        if (!is_min && op.sgn && bug(redux_max_s32_seed_lane0)) { acc = v(0); have = true; }
        for (int j : lanes) {
          uint32_t x = v(j);
          if (!have) { acc = x; have = true; continue; }
          if (is_min ? less(x, acc) : less(acc, x)) acc = x;
        }
        res.d[L] = hex32(acc);
        break;
      }
      case R_AND: {
        uint32_t acc = bug(redux_and_identity_intmax) ? 0x7fffffffu : 0xffffffffu;
        for (int j : lanes) acc &= v(j);
        res.d[L] = hex32(acc);
        break;
      }
      case R_OR: {
        uint32_t acc = 0;
        for (int j : lanes) acc |= v(j);
        res.d[L] = hex32(acc);
        break;
      }
      case R_XOR: {
        std::vector<uint32_t> level;
        for (int j : lanes) level.push_back(v(j));
        while (level.size() > 1) {
          std::vector<uint32_t> next;
          for (size_t i = 0; i + 1 < level.size(); i += 2) next.push_back(level[i] ^ level[i + 1]);
          if ((level.size() & 1) && !bug(redux_xor_tree_odd_drop)) next.push_back(level.back());
          level.swap(next);
        }
        res.d[L] = hex32(level.empty() ? 0u : level[0]);
        break;
      }
      default: break;
    }
  }
}

// ---------------------------------------------------------------------------------
// bar.warp.sync
// ---------------------------------------------------------------------------------
static void do_warpsync(const RState& st, RResult& res) {
  uint32_t exited = bits_of(st.exited);
  uint32_t present = bits_of(st.exec);
  if (bug(warpsync_lane31_presence)) present &= 0x7fffffffu;
  int low = lowest_exec(st);
  for (int L = 0; L < 32; L++) {
    if (!st.exec[L]) continue;
    uint32_t need = st.mask[L] & ~exited;
    if (bug(warpsync_waits_exited)) need = st.mask[L];
    if (bug(warpsync_full_warp)) need = ~exited;
    bool ok = (need & ~present) == 0;
    if (bug(warpsync_mask_lowest_lane) && !((st.mask[low] >> L) & 1)) ok = false;
    if (ok) res.d[L] = true;
    else res.hang = true;
  }
}

// ---------------------------------------------------------------------------------
// Block barriers
// ---------------------------------------------------------------------------------
static void do_block(const Op& op, const RState& st, RResult& res, Latches& lt) {
  int n = st.n;
  // Scoreboard: does the barrier complete?
  long expected = 0, arrived = 0;
  for (int t = 0; t < n; t++) {
    if (st.exec[t]) arrived++;
    bool counts = !st.exited[t];
    if (op.kind == K_BARSYNC && bug(bar_sync_exited_expected)) counts = true;
    if (op.kind == K_BARRED && bug(bar_red_exited_expected)) counts = true;
    if (op.kind == K_BARSYNC && bug(bar_sync_partial_warp_exit) && st.exited[t]) {
      int w0 = (t / 32) * 32, w1 = std::min(n, w0 + 32);
      for (int u = w0; u < w1; u++)
        if (!st.exited[u]) counts = true;
    }
    if (counts) expected++;
  }
  if (op.kind == K_BARSYNC && bug(bar_sync_threads_roundup)) expected += (32 - n % 32) % 32;
  bool complete;
  if (op.bar_count >= 0) complete = arrived >= op.bar_count;
  else complete = arrived >= expected;
  if (!complete) {
    res.hang = true;
    return;
  }
  if (op.kind == K_BARSYNC) {
    for (int t = 0; t < n; t++)
      if (st.exec[t]) res.d[t] = true;
    return;
  }
  auto raw = [&](int t) -> bool {
    uint32_t v = (uint32_t)st.a[t];
    if (op.rop == R_OR && bug(bar_red_or_pred_bit0)) return v & 1;
    return v != 0;
  };
  bool neg = op.negate;
  if (op.rop == R_POPC && bug(bar_red_popc_negate_ignored)) neg = false;
  auto eff = [&](int t) { return neg ? !raw(t) : raw(t); };

  if (op.rop == R_POPC) {
    std::vector<uint32_t> warp_count((n + 31) / 32 + 1, 0);
    uint32_t total = 0;
    for (int t = 0; t < n; t++) {
      if (!st.exec[t] || !eff(t)) continue;
      if (bug(bar_red_popc_lane31_dropped) && t % 32 == 31) continue;
      total++;
      warp_count[t / 32]++;
    }
    if (bug(bar_red_popc_counter8)) total &= 0xff;
    for (int t = 0; t < n; t++)
      if (st.exec[t]) res.d[t] = bug(bar_red_popc_per_warp) ? warp_count[t / 32] : total;
    return;
  }
  bool r;
  if (op.rop == R_AND) {
    if (bug(bar_red_and_negate_after) && neg) {
      bool all = true;
      for (int t = 0; t < n; t++)
        if (st.exec[t] && !raw(t)) all = false;
      r = !all;
    } else {
      r = true;
      for (int t = 0; t < n; t++)
        if (st.exec[t] && !eff(t)) r = false;
      if (bug(bar_red_and_exited_false) && !neg)
        for (int t = 0; t < n; t++)
          if (st.exited[t]) r = false;
      if (bug(bar_red_and_padding_false) && n % 32 != 0) r = false;
    }
  } else {
    r = false;
    for (int t = 0; t < n; t++)
      if (st.exec[t] && eff(t)) r = true;
    if (bug(bar_red_or_stale)) {
      lt.bar_or = lt.bar_or || r;
      r = lt.bar_or;
    }
  }
  for (int t = 0; t < n; t++)
    if (st.exec[t]) res.d[t] = r ? 1 : 0;
}

// ---------------------------------------------------------------------------------
// Driver
// ---------------------------------------------------------------------------------
static json round_json(const RResult& r, bool no_dest) {
  json o = json::object();
  bool any = false;
  for (auto& x : r.d)
    if (!x.is_null()) any = true;
  if (any || !no_dest) o["d"] = r.d;
  if (r.with_p) o["p"] = r.p;
  if (r.hang) o["hang"] = true;
  return o;
}

int main(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "--list") {
    for (int i = 1; i < BUG_COUNT; i++)
      std::printf("%d\t%s\t%s\t%s\n", i, kBugs[i].key, kBugs[i].forms, kBugs[i].desc);
    return 0;
  }
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s --list | %s VECTORS.jsonl N\n", argv[0], argv[0]);
    return 2;
  }
  g_bug = std::atoi(argv[2]);
  if (g_bug < 0 || g_bug >= BUG_COUNT) {
    std::fprintf(stderr, "no bug %d\n", g_bug);
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", argv[1]);
    return 2;
  }
  std::cout << "{\"schema\":\"warpspec-results/1\"}\n";
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r\n") == std::string::npos) continue;
    json v = json::parse(line);
    if (v.contains("schema")) continue;
    json out = json::object();
    out["id"] = v["id"];
    std::string form = v.value("form", std::string());
    std::string instr = v.value("instruction", std::string());
    Op op = classify(form, instr);
    int threads = v.contains("threads") ? (int)to_u64(v["threads"]) : 32;
    if (v.contains("threads")) op.block = true;
    if (v.contains("rounds") && v["rounds"].is_array())
      for (auto& rj : v["rounds"])
        if (rj.contains("threads")) op.block = true;
    if (op.kind == K_UNKNOWN || !v.contains("rounds") || !v["rounds"].is_array()) {
      out["skipped"] = true;
      std::cout << out.dump() << "\n";
      continue;
    }
    Latches lt;
    std::vector<json> rounds;
    json carried = json::object();  // a round inherits the fields it does not restate
    for (auto& rj0 : v["rounds"]) {
      json rj = carried;
      for (auto& [k, val] : rj0.items()) rj[k] = val;
      carried = rj;
      int rthreads = rj.contains("threads") ? (int)to_u64(rj["threads"]) : threads;
      RState st = parse_round(rj, op, rthreads);
      Op rop = op;
      if ((rop.kind == K_MATCH_ANY || rop.kind == K_MATCH_ALL) && st.hex64 && rop.width == 32 &&
          !has(lower(form + instr), "b32"))
        rop.width = 64;
      RResult res;
      res.d.assign(st.n, json());
      res.p.assign(st.n, json());
      if (!bug(match_all_sticky_flag) && !bug(vote_any_stale_latch) && !bug(redux_add_stale_acc) &&
          !bug(bar_red_or_stale))
        lt.reset();
      switch (rop.kind) {
        case K_MATCH_ANY: do_match_any(rop, st, res); break;
        case K_MATCH_ALL: do_match_all(rop, st, res, lt); break;
        case K_VOTE_ALL:
        case K_VOTE_ANY:
        case K_VOTE_UNI:
        case K_VOTE_BALLOT: do_vote(rop, st, res, lt); break;
        case K_REDUX: do_redux(rop, st, res, lt); break;
        case K_WARPSYNC: do_warpsync(st, res); break;
        case K_BARSYNC:
        case K_BARRED: do_block(rop, st, res, lt); break;
        default: break;
      }
      bool no_dest = rop.kind == K_WARPSYNC || rop.kind == K_BARSYNC;
      rounds.push_back(round_json(res, no_dest));
      if (res.hang) break;
    }
    if (v["rounds"].size() <= 1 && rounds.size() == 1) {
      for (auto& [k, val] : rounds[0].items()) out[k] = val;
    } else {
      out["rounds"] = rounds;
    }
    std::cout << out.dump() << "\n";
  }
  return 0;
}
