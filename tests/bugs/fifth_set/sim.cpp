// sim.cpp - a small, deliberately buggy emulator of NVIDIA warp-level and
// block-level synchronization primitives (sm_90 forms):
//
//   match.any.sync.b32/.b64, match.all.sync.b32/.b64      (match family)
//   vote.sync.all/any/uni.pred, vote.sync.ballot.b32      (vote family, {!}a)
//   redux.sync.{add,min,max}.{u32,s32}, redux.sync.{and,or,xor}.b32
//   bar.warp.sync                                          (__syncwarp)
//   bar.sync 0, bar.red.popc.u32 / .and.pred / .or.pred    (__syncthreads*)
//
// It was written from the PTX ISA / CUDA programming guide sections for these
// instructions and from the two file formats (warpspec-vectors/1 input,
// warpspec-results/1 output) alone.
//
// The emulator models a warp the way a cycle-level GPU simulator does: a
// per-warp set of exited lanes, a per-warp set of lanes executing the current
// instruction, per-lane membermasks and per-lane operands; a block barrier is
// a barrier unit that counts arrivals and keeps a reduction accumulator.
// State that a real implementation keeps between instructions (the ballot
// register, the reduction accumulator, the barrier accumulator) is kept
// between the rounds of a vector.
//
// Usage:
//   sim --list                      one line per injectable bug:
//                                   N <TAB> key <TAB> forms <TAB> description
//   sim VECTORS.jsonl N             run every vector with bug N active
//                                   (N = 0: the correct implementation) and
//                                   write a warpspec-results/1 file to stdout
//
// Every bug is a small local change of the correct code path, guarded by
// `bug == SOME_BUG`.

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using json = nlohmann::json;

// ---------------------------------------------------------------------------
// Bug catalogue
// ---------------------------------------------------------------------------

enum Bug : int {
    NO_BUG = 0,
    // match.sync
    MATCH_B64_LOW_HALF = 1,
    MATCH_ANY_SELF_EXCLUDED,
    MATCH_ANY_EXITED_IN_MASK,
    MATCH_ALL_D_MASK_ON_MISMATCH,
    MATCH_ALL_D_KEEPS_EXITED,
    MATCH_ALL_SKIPS_LAST_LANE,
    MATCH_ANY_LEADER_MASK,
    MATCH_ANY_DROPS_LANE31,
    MATCH_ALL_SITE_SPLIT,
    MATCH_B32_FLOAT_COMPARE,
    MATCH_ALL_ACTIVE_MASK,
    // vote.sync
    VOTE_PRED_BIT0,
    VOTE_ALL_EXITED_FALSE,
    VOTE_NEGATE_RESULT,
    VOTE_UNI_AS_ALL,
    VOTE_UNI_NEGATE_RESULT,
    VOTE_UNI_LANE0_REFERENCE,
    VOTE_BALLOT_EXITED_BITS,
    VOTE_BALLOT_NEGATE_COMPLEMENT,
    VOTE_BALLOT_STICKY,
    VOTE_BALLOT_DROPS_LANE31,
    VOTE_ANY_ACTIVE_MASK,
    VOTE_SITE_SPLIT,
    // redux.sync
    REDUX_ADD_S32_SATURATES,
    REDUX_MIN_S32_UNSIGNED,
    REDUX_MAX_U32_SIGNED,
    REDUX_MIN_S32_IDENTITY_M1,
    REDUX_MAX_S32_IDENTITY_ZERO,
    REDUX_AND_IDENTITY_INTMAX,
    REDUX_XOR_EXITED,
    REDUX_OR_ACTIVE_MASK,
    REDUX_LEADER_MASK,
    REDUX_ADD_STICKY,
    REDUX_MAX_DROPS_LANE31,
    REDUX_MIN_SITE_SPLIT,
    REDUX_ADD_RESULT_LEADER_ONLY,
    REDUX_MIN_U32_IDENTITY_INTMAX,
    // bar.warp.sync
    SYNCWARP_WAITS_EXITED,
    SYNCWARP_FULL_WARP,
    SYNCWARP_SITE_KEYED,
    SYNCWARP_ONE_MASK_PER_WARP,
    // bar.sync / barrier unit (all CTA forms)
    CTA_COUNTS_EXITED,
    CTA_PADS_LAST_WARP,
    CTA_WARP_GRANULAR,
    CTA_COUNTER_U8,
    // bar.red
    BARRED_POPC_BIT0,
    BARRED_POPC_10BIT,
    BARRED_POPC_NEGATE_TOTAL,
    BARRED_POPC_WARP_ANY,
    BARRED_AND_EXITED_FALSE,
    BARRED_AND_BITWISE,
    BARRED_BOOL_WARP_LOCAL,
    BARRED_BOOL_STICKY,
    BARRED_POPC_STICKY,
    BARRED_BOOL_NEGATE_RESULT,
    BARRED_OR_EXITED,
    BARRED_POPC_FULL_WARPS_ONLY,
    BUG_COUNT_PLUS_ONE
};

struct BugInfo {
    Bug id;
    const char* key;
    const char* forms;
    const char* description;
};

static const BugInfo kBugs[] = {
    {MATCH_B64_LOW_HALF, "match_b64_low_half", "match.any.sync.b64,match.all.sync.b64",
     "64-bit operands are compared on their low 32 bits only"},
    {MATCH_ANY_SELF_EXCLUDED, "match_any_self_excluded", "match.any.sync.b32,match.any.sync.b64",
     "match.any leaves the executing lane's own bit out of d"},
    {MATCH_ANY_EXITED_IN_MASK, "match_any_exited_in_mask", "match.any.sync.b32,match.any.sync.b64",
     "match.any does not remove exited lanes from membermask and compares their stale operands"},
    {MATCH_ALL_D_MASK_ON_MISMATCH, "match_all_d_mask_on_mismatch", "match.all.sync.b32,match.all.sync.b64",
     "match.all writes the participant mask to d even when the values differ (only p is cleared)"},
    {MATCH_ALL_D_KEEPS_EXITED, "match_all_d_keeps_exited", "match.all.sync.b32,match.all.sync.b64",
     "match.all returns the raw membermask in d, exited lanes included"},
    {MATCH_ALL_SKIPS_LAST_LANE, "match_all_skips_last_lane", "match.all.sync.b32,match.all.sync.b64",
     "match.all comparison loop stops before the highest participating lane"},
    {MATCH_ANY_LEADER_MASK, "match_any_leader_mask", "match.any.sync.b32,match.any.sync.b64",
     "match.any uses the leader lane's membermask for every executing lane"},
    {MATCH_ANY_DROPS_LANE31, "match_any_drops_lane31", "match.any.sync.b32,match.any.sync.b64",
     "match.any scans lanes 0..30 only: lane 31 never appears in d"},
    {MATCH_ALL_SITE_SPLIT, "match_all_site_split", "match.all.sync.b32,match.all.sync.b64",
     "match.all only groups lanes that reached it from the same call site"},
    {MATCH_B32_FLOAT_COMPARE, "match_b32_float_compare", "match.any.sync.b32,match.all.sync.b32",
     "32-bit operands are compared as floats (NaN never equal, +0 equals -0) instead of as bits"},
    {MATCH_ALL_ACTIVE_MASK, "match_all_active_mask", "match.all.sync.b32,match.all.sync.b64",
     "match.all compares across all executing lanes of the warp instead of the membermask"},

    {VOTE_PRED_BIT0, "vote_pred_bit0", "vote.sync.all.pred,vote.sync.any.pred,vote.sync.uni.pred,vote.sync.ballot.b32",
     "source predicate taken as bit 0 of the value instead of value != 0"},
    {VOTE_ALL_EXITED_FALSE, "vote_all_exited_false", "vote.sync.all.pred",
     "vote.all counts exited lanes of membermask as voting false"},
    {VOTE_NEGATE_RESULT, "vote_negate_result", "vote.sync.all.pred,vote.sync.any.pred",
     "!a applied to the reduced result instead of to each lane's predicate"},
    {VOTE_UNI_AS_ALL, "vote_uni_as_all", "vote.sync.uni.pred",
     "vote.uni is true only when every predicate is true (all-false not uniform)"},
    {VOTE_UNI_NEGATE_RESULT, "vote_uni_negate_result", "vote.sync.uni.pred",
     "vote.uni with !a returns the negated uniformity"},
    {VOTE_UNI_LANE0_REFERENCE, "vote_uni_lane0_reference", "vote.sync.uni.pred",
     "vote.uni compares every predicate with lane 0's, even when lane 0 does not participate"},
    {VOTE_BALLOT_EXITED_BITS, "vote_ballot_exited_bits", "vote.sync.ballot.b32",
     "ballot takes the stale predicates of exited lanes in membermask"},
    {VOTE_BALLOT_NEGATE_COMPLEMENT, "vote_ballot_negate_complement", "vote.sync.ballot.b32",
     "ballot with !a computed as ~ballot(a) & membermask, so exited lanes read as 1"},
    {VOTE_BALLOT_STICKY, "vote_ballot_sticky", "vote.sync.ballot.b32",
     "ballot register not cleared between instructions: stale bits of the previous ballot remain"},
    {VOTE_BALLOT_DROPS_LANE31, "vote_ballot_drops_lane31", "vote.sync.ballot.b32",
     "ballot scans lanes 0..30 only: bit 31 is never set"},
    {VOTE_ANY_ACTIVE_MASK, "vote_any_active_mask", "vote.sync.any.pred",
     "vote.any reduces over all executing lanes of the warp instead of the membermask"},
    {VOTE_SITE_SPLIT, "vote_site_split", "vote.sync.any.pred,vote.sync.ballot.b32",
     "vote.any and ballot only see lanes that reached them from the same call site"},

    {REDUX_ADD_S32_SATURATES, "redux_add_s32_saturates", "redux.sync.add.s32",
     "add.s32 saturates to INT32_MIN/INT32_MAX instead of truncating to 32 bits"},
    {REDUX_MIN_S32_UNSIGNED, "redux_min_s32_unsigned", "redux.sync.min.s32",
     "min.s32 compares the operands as unsigned"},
    {REDUX_MAX_U32_SIGNED, "redux_max_u32_signed", "redux.sync.max.u32",
     "max.u32 compares the operands as signed"},
    {REDUX_MIN_S32_IDENTITY_M1, "redux_min_s32_identity_m1", "redux.sync.min.s32",
     "min.s32 starts from 0xffffffff (the u32 identity, -1 as signed)"},
    {REDUX_MAX_S32_IDENTITY_ZERO, "redux_max_s32_identity_zero", "redux.sync.max.s32",
     "max.s32 starts from 0 instead of INT32_MIN"},
    {REDUX_AND_IDENTITY_INTMAX, "redux_and_identity_intmax", "redux.sync.and.b32",
     "and.b32 starts from 0x7fffffff instead of all ones, clearing bit 31"},
    {REDUX_XOR_EXITED, "redux_xor_exited", "redux.sync.xor.b32",
     "xor.b32 also folds in the stale operands of exited lanes in membermask"},
    {REDUX_OR_ACTIVE_MASK, "redux_or_active_mask", "redux.sync.or.b32",
     "or.b32 reduces over all executing lanes of the warp instead of the membermask"},
    {REDUX_LEADER_MASK, "redux_leader_mask",
     "redux.sync.add.u32,redux.sync.add.s32,redux.sync.min.u32,redux.sync.min.s32,redux.sync.max.u32,"
     "redux.sync.max.s32,redux.sync.and.b32,redux.sync.or.b32,redux.sync.xor.b32",
     "every lane uses the leader lane's membermask"},
    {REDUX_ADD_STICKY, "redux_add_sticky", "redux.sync.add.u32,redux.sync.add.s32",
     "add accumulator not reset between instructions: the previous sum is added in"},
    {REDUX_MAX_DROPS_LANE31, "redux_max_drops_lane31", "redux.sync.max.u32,redux.sync.max.s32",
     "max scans lanes 0..30 only: lane 31's operand is ignored"},
    {REDUX_MIN_SITE_SPLIT, "redux_min_site_split", "redux.sync.min.u32,redux.sync.min.s32",
     "min only reduces over lanes that reached it from the same call site"},
    {REDUX_ADD_RESULT_LEADER_ONLY, "redux_add_result_leader_only", "redux.sync.add.u32",
     "add.u32 result written to the lowest participant only; other lanes keep their operand"},
    {REDUX_MIN_U32_IDENTITY_INTMAX, "redux_min_u32_identity_intmax", "redux.sync.min.u32",
     "min.u32 starts from 0x7fffffff (INT32_MAX) instead of 0xffffffff"},

    {SYNCWARP_WAITS_EXITED, "syncwarp_waits_exited", "bar.warp.sync",
     "bar.warp.sync waits for exited lanes named in membermask (hangs)"},
    {SYNCWARP_FULL_WARP, "syncwarp_full_warp", "bar.warp.sync",
     "bar.warp.sync waits for every non-exited lane of the warp, ignoring membermask"},
    {SYNCWARP_SITE_KEYED, "syncwarp_site_keyed", "bar.warp.sync",
     "bar.warp.sync barrier keyed by call site: lanes arriving from another site do not count"},
    {SYNCWARP_ONE_MASK_PER_WARP, "syncwarp_one_mask_per_warp", "bar.warp.sync",
     "one warp barrier per warp: lanes whose mask differs from the first arriving lane's are never released"},

    {CTA_COUNTS_EXITED, "cta_counts_exited", "bar.sync,bar.red.popc.u32,bar.red.and.pred,bar.red.or.pred",
     "barrier expects every thread of the block, exited threads included (hangs)"},
    {CTA_PADS_LAST_WARP, "cta_pads_last_warp", "bar.sync,bar.red.popc.u32,bar.red.and.pred,bar.red.or.pred",
     "expected arrivals = warps * 32, counting absent lanes of a partly filled last warp"},
    {CTA_WARP_GRANULAR, "cta_warp_granular", "bar.sync,bar.red.popc.u32,bar.red.and.pred,bar.red.or.pred",
     "barrier counts warps and expects every warp, so a fully exited warp never arrives"},
    {CTA_COUNTER_U8, "cta_counter_u8", "bar.sync,bar.red.popc.u32,bar.red.and.pred,bar.red.or.pred",
     "arrival counter is 8 bits wide: 256 or more arrivals never match the expected count"},

    {BARRED_POPC_BIT0, "barred_popc_bit0", "bar.red.popc.u32",
     "popc counts bit 0 of the predicate value instead of value != 0"},
    {BARRED_POPC_10BIT, "barred_popc_10bit", "bar.red.popc.u32",
     "popc result held in a 10-bit counter: a count of 1024 wraps to 0"},
    {BARRED_POPC_NEGATE_TOTAL, "barred_popc_negate_total", "bar.red.popc.u32",
     "popc with !a computed as threads - popc(a), counting exited threads as true"},
    {BARRED_POPC_WARP_ANY, "barred_popc_warp_any", "bar.red.popc.u32",
     "popc adds 1 per warp whose ballot is non-zero instead of the ballot's population count"},
    {BARRED_AND_EXITED_FALSE, "barred_and_exited_false", "bar.red.and.pred",
     "and treats exited threads as contributing false"},
    {BARRED_AND_BITWISE, "barred_and_bitwise", "bar.red.and.pred",
     "and reduces the integer predicate values bitwise and tests the result for non-zero"},
    {BARRED_BOOL_WARP_LOCAL, "barred_bool_warp_local", "bar.red.and.pred,bar.red.or.pred",
     "and/or reduce within each warp only, not across the block"},
    {BARRED_BOOL_STICKY, "barred_bool_sticky", "bar.red.and.pred,bar.red.or.pred",
     "and/or accumulator not reset when the barrier releases: the previous result sticks"},
    {BARRED_POPC_STICKY, "barred_popc_sticky", "bar.red.popc.u32",
     "popc counter not reset when the barrier releases: counts accumulate across barriers"},
    {BARRED_BOOL_NEGATE_RESULT, "barred_bool_negate_result", "bar.red.and.pred,bar.red.or.pred",
     "!a applied to the reduced result instead of to each thread's predicate"},
    {BARRED_OR_EXITED, "barred_or_exited", "bar.red.or.pred",
     "or also folds in the stale predicates of exited threads"},
    {BARRED_POPC_FULL_WARPS_ONLY, "barred_popc_full_warps_only", "bar.red.popc.u32",
     "popc sums threads/32 full warps only: a partly filled last warp is left out of the count"},
};

static constexpr int kBugCount = static_cast<int>(sizeof(kBugs) / sizeof(kBugs[0]));
static_assert(kBugCount == BUG_COUNT_PLUS_ONE - 1, "bug table and enum disagree");

static int bug = NO_BUG;  // the active bug

// ---------------------------------------------------------------------------
// Forms
// ---------------------------------------------------------------------------

enum class Family { Match, Vote, Redux, SyncWarp, Cta, Unknown };

struct Form {
    std::string name;
    Family family = Family::Unknown;
    // match
    bool match_all = false;
    bool b64 = false;
    // vote
    std::string vote_mode;  // all, any, uni, ballot
    // redux
    std::string redux_op;   // add, min, max, and, or, xor
    bool redux_signed = false;
    // cta
    std::string cta_op;     // sync, popc, and, or
    // {!}a
    bool negate = false;
};

static Form parse_form(const std::string& name, const std::string& instruction) {
    Form f;
    f.name = name;
    f.negate = instruction.find('!') != std::string::npos;
    auto starts = [&](const char* p) { return name.rfind(p, 0) == 0; };
    if (starts("match.")) {
        f.family = Family::Match;
        f.match_all = starts("match.all");
        f.b64 = name.find(".b64") != std::string::npos;
    } else if (starts("vote.sync.")) {
        f.family = Family::Vote;
        for (const char* m : {"all", "any", "uni", "ballot"})
            if (name.find(std::string(".") + m + ".") != std::string::npos) f.vote_mode = m;
    } else if (starts("redux.sync.")) {
        f.family = Family::Redux;
        for (const char* op : {"add", "min", "max", "and", "or", "xor"})
            if (name.find(std::string(".") + op + ".") != std::string::npos) f.redux_op = op;
        f.redux_signed = name.find(".s32") != std::string::npos;
        if (name.find(".f32") != std::string::npos) f.family = Family::Unknown;
    } else if (name == "bar.warp.sync") {
        f.family = Family::SyncWarp;
    } else if (name == "bar.sync" || name == "barrier.sync") {
        f.family = Family::Cta;
        f.cta_op = "sync";
    } else if (starts("bar.red.") || starts("barrier.red.")) {
        f.family = Family::Cta;
        if (name.find(".popc") != std::string::npos) f.cta_op = "popc";
        else if (name.find(".and") != std::string::npos) f.cta_op = "and";
        else if (name.find(".or") != std::string::npos) f.cta_op = "or";
    }
    return f;
}

// ---------------------------------------------------------------------------
// Parsing helpers
// ---------------------------------------------------------------------------

static uint64_t parse_u64(const json& v) {
    if (v.is_string()) {
        const std::string s = v.get<std::string>();
        if (s.rfind("0x", 0) == 0 || s.rfind("0X", 0) == 0) return std::stoull(s.substr(2), nullptr, 16);
        if (s == "true") return 1;
        if (s == "false") return 0;
        return static_cast<uint64_t>(std::stoll(s, nullptr, 0));
    }
    if (v.is_boolean()) return v.get<bool>() ? 1 : 0;
    if (v.is_number_unsigned()) return v.get<uint64_t>();
    if (v.is_number_integer()) return static_cast<uint64_t>(v.get<int64_t>());
    if (v.is_number_float()) return static_cast<uint64_t>(static_cast<int64_t>(v.get<double>()));
    return 0;
}

// A lane/thread set: "0x...." (warp word), "none", "all", or "1,4-7,9".
static std::vector<bool> parse_set(const json& v, int n) {
    std::vector<bool> out(static_cast<size_t>(n), false);
    if (v.is_null()) return out;
    if (!v.is_string()) {
        uint64_t w = parse_u64(v);
        for (int i = 0; i < n && i < 64; ++i) out[static_cast<size_t>(i)] = (w >> i) & 1;
        return out;
    }
    std::string s = v.get<std::string>();
    if (s.empty() || s == "none") return out;
    if (s == "all") {
        std::fill(out.begin(), out.end(), true);
        return out;
    }
    if (s.rfind("0x", 0) == 0) {
        uint64_t w = std::stoull(s.substr(2), nullptr, 16);
        for (int i = 0; i < n && i < 64; ++i) out[static_cast<size_t>(i)] = (w >> i) & 1;
        return out;
    }
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ',')) {
        if (item.empty()) continue;
        auto dash = item.find('-');
        int lo = 0, hi = 0;
        if (dash == std::string::npos) {
            lo = hi = std::stoi(item);
        } else {
            lo = std::stoi(item.substr(0, dash));
            hi = std::stoi(item.substr(dash + 1));
        }
        for (int i = lo; i <= hi; ++i)
            if (i >= 0 && i < n) out[static_cast<size_t>(i)] = true;
    }
    return out;
}

static uint32_t set_to_word(const std::vector<bool>& s) {
    uint32_t w = 0;
    for (size_t i = 0; i < s.size() && i < 32; ++i)
        if (s[i]) w |= 1u << i;
    return w;
}

template <class T>
static std::vector<T> per_lane(const json& r, const char* key, int n, T dflt) {
    std::vector<T> out(static_cast<size_t>(n), dflt);
    if (!r.contains(key)) return out;
    const json& v = r.at(key);
    if (v.is_array()) {
        for (size_t i = 0; i < v.size() && i < out.size(); ++i) out[i] = static_cast<T>(parse_u64(v[i]));
    } else {
        std::fill(out.begin(), out.end(), static_cast<T>(parse_u64(v)));
    }
    return out;
}

static std::string hex32(uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", v);
    return buf;
}

static inline bool bit(uint32_t w, int i) { return (w >> i) & 1u; }

// ---------------------------------------------------------------------------
// Warp state and results
// ---------------------------------------------------------------------------

constexpr int kWarp = 32;

struct WarpState {
    uint32_t exited = 0;
    uint32_t inactive = 0;
    std::array<uint32_t, kWarp> mask{};
    std::array<uint64_t, kWarp> a{};
    std::array<int, kWarp> site{};
    uint32_t executing() const { return ~exited & ~inactive; }
    int leader() const {  // lowest executing lane
        uint32_t e = executing();
        return e ? std::countr_zero(e) : 0;
    }
};

struct WarpResult {
    std::array<std::optional<uint32_t>, kWarp> d{};
    std::array<std::optional<int>, kWarp> p{};
    bool hang = false;  // some lane can never resume: the round does not complete
    bool ub = false;    // the round was diagnosed as undefined (see the deadlock check)
};

// State a real implementation keeps in the warp between instructions.
struct WarpCarry {
    uint32_t ballot_reg = 0;   // the ballot/vote result register
    uint32_t redux_acc = 0;    // the reduction unit's accumulator
};

static WarpState read_warp(const json& r) {
    WarpState s;
    s.exited = set_to_word(parse_set(r.value("exited", json("none")), kWarp));
    s.inactive = set_to_word(parse_set(r.value("inactive", json("none")), kWarp));
    auto m = per_lane<uint32_t>(r, "mask", kWarp, 0xffffffffu);
    auto a = per_lane<uint64_t>(r, "a", kWarp, 0);
    auto st = per_lane<int>(r, "site", kWarp, 0);
    for (int l = 0; l < kWarp; ++l) {
        s.mask[l] = m[l];
        s.a[l] = a[l];
        s.site[l] = st[l];
    }
    return s;
}

// Lanes lane `l` synchronizes with: the non-exited lanes of its membermask.
static uint32_t participants(const WarpState& s, int l) { return s.mask[l] & ~s.exited; }

static uint32_t same_site(const WarpState& s, int l) {
    uint32_t m = 0;
    for (int j = 0; j < kWarp; ++j)
        if (s.site[j] == s.site[l]) m |= 1u << j;
    return m;
}

// ---------------------------------------------------------------------------
// match.sync
// ---------------------------------------------------------------------------

static bool match_equal(const Form& f, uint64_t x, uint64_t y) {
    if (f.b64) {
        if (bug == MATCH_B64_LOW_HALF) return static_cast<uint32_t>(x) == static_cast<uint32_t>(y);
        return x == y;
    }
    if (bug == MATCH_B32_FLOAT_COMPARE) {
        float fx = std::bit_cast<float>(static_cast<uint32_t>(x));
        float fy = std::bit_cast<float>(static_cast<uint32_t>(y));
        return fx == fy;
    }
    return static_cast<uint32_t>(x) == static_cast<uint32_t>(y);
}

static WarpResult run_match(const Form& f, const WarpState& s) {
    WarpResult out;
    const uint32_t exec = s.executing();
    for (int l = 0; l < kWarp; ++l) {
        if (!bit(exec, l)) continue;
        uint32_t part = participants(s, l);
        if (!f.match_all) {
            if (bug == MATCH_ANY_EXITED_IN_MASK) part = s.mask[l];
            if (bug == MATCH_ANY_LEADER_MASK) part = participants(s, s.leader());
            const int last = (bug == MATCH_ANY_DROPS_LANE31) ? kWarp - 1 : kWarp;
            uint32_t d = 0;
            for (int j = 0; j < last; ++j)
                if (bit(part, j) && match_equal(f, s.a[j], s.a[l])) d |= 1u << j;
            if (bug == MATCH_ANY_SELF_EXCLUDED) d &= ~(1u << l);
            out.d[l] = d;
        } else {
            if (bug == MATCH_ALL_SITE_SPLIT) part &= same_site(s, l);
            if (bug == MATCH_ALL_ACTIVE_MASK) part = exec;
            int hi = part ? 31 - std::countl_zero(part) : -1;
            if (bug == MATCH_ALL_SKIPS_LAST_LANE) hi -= 1;
            bool all_equal = true;
            for (int j = 0; j <= hi; ++j)
                if (bit(part, j) && !match_equal(f, s.a[j], s.a[l])) all_equal = false;
            uint32_t d = all_equal ? part : 0;
            if (bug == MATCH_ALL_D_MASK_ON_MISMATCH) d = part;
            if (bug == MATCH_ALL_D_KEEPS_EXITED && all_equal) d = s.mask[l];
            out.d[l] = d;
            out.p[l] = all_equal ? 1 : 0;
        }
    }
    return out;
}

// ---------------------------------------------------------------------------
// vote.sync
// ---------------------------------------------------------------------------

static WarpResult run_vote(const Form& f, const WarpState& s, WarpCarry& carry) {
    WarpResult out;
    const uint32_t exec = s.executing();
    // {!}a is applied to each lane's predicate before the reduction.
    bool negate_inputs = f.negate;
    if (bug == VOTE_NEGATE_RESULT && (f.vote_mode == "all" || f.vote_mode == "any")) negate_inputs = false;
    if (bug == VOTE_UNI_NEGATE_RESULT && f.vote_mode == "uni") negate_inputs = false;
    if (bug == VOTE_BALLOT_NEGATE_COMPLEMENT && f.vote_mode == "ballot") negate_inputs = false;
    const bool negate_result = f.negate && !negate_inputs;
    auto pred = [&](int j) {
        bool v = (bug == VOTE_PRED_BIT0) ? (s.a[j] & 1u) != 0 : s.a[j] != 0;
        return negate_inputs ? !v : v;
    };
    // The ballot destination register is cleared before every instruction;
    // it keeps the last ballot written (only the sticky bug reads it back).
    uint32_t reg_base = (bug == VOTE_BALLOT_STICKY) ? carry.ballot_reg : 0;
    uint32_t last_written = carry.ballot_reg;
    for (int l = 0; l < kWarp; ++l) {
        if (!bit(exec, l)) continue;
        uint32_t part = participants(s, l);
        if (bug == VOTE_SITE_SPLIT && (f.vote_mode == "any" || f.vote_mode == "ballot")) part &= same_site(s, l);
        if (bug == VOTE_ANY_ACTIVE_MASK && f.vote_mode == "any") part = exec;
        uint32_t d = 0;
        if (f.vote_mode == "ballot") {
            uint32_t b = 0;
            uint32_t src = part;
            if (bug == VOTE_BALLOT_EXITED_BITS) src = s.mask[l];
            const int last = (bug == VOTE_BALLOT_DROPS_LANE31) ? kWarp - 1 : kWarp;
            for (int j = 0; j < last; ++j) {
                if (!bit(src, j)) continue;
                if (pred(j)) b |= 1u << j;
            }
            if (negate_result) b = ~b & s.mask[l];
            d = reg_base | b;
            last_written = d;
        } else if (f.vote_mode == "all") {
            bool r = true;
            for (int j = 0; j < kWarp; ++j)
                if (bit(part, j) && !pred(j)) r = false;
            if (bug == VOTE_ALL_EXITED_FALSE && (s.mask[l] & s.exited) != 0) r = false;
            if (negate_result) r = !r;
            d = r;
        } else if (f.vote_mode == "any") {
            bool r = false;
            for (int j = 0; j < kWarp; ++j)
                if (bit(part, j) && pred(j)) r = true;
            if (negate_result) r = !r;
            d = r;
        } else {  // uni
            int ref = part ? std::countr_zero(part) : l;
            if (bug == VOTE_UNI_LANE0_REFERENCE) ref = 0;
            bool r = true;
            for (int j = 0; j < kWarp; ++j)
                if (bit(part, j) && pred(j) != pred(ref)) r = false;
            if (bug == VOTE_UNI_AS_ALL) {
                for (int j = 0; j < kWarp; ++j)
                    if (bit(part, j) && !pred(j)) r = false;
            }
            if (negate_result) r = !r;
            d = r;
        }
        out.d[l] = d;
    }
    carry.ballot_reg = last_written;
    return out;
}

// ---------------------------------------------------------------------------
// redux.sync
// ---------------------------------------------------------------------------

static uint32_t redux_identity(const Form& f) {
    const std::string& op = f.redux_op;
    if (op == "add" || op == "or" || op == "xor") return 0;
    if (op == "and") return bug == REDUX_AND_IDENTITY_INTMAX ? 0x7fffffffu : 0xffffffffu;
    if (op == "min") {
        if (f.redux_signed) return bug == REDUX_MIN_S32_IDENTITY_M1 ? 0xffffffffu : 0x7fffffffu;
        return bug == REDUX_MIN_U32_IDENTITY_INTMAX ? 0x7fffffffu : 0xffffffffu;
    }
    // max
    if (f.redux_signed) return bug == REDUX_MAX_S32_IDENTITY_ZERO ? 0u : 0x80000000u;
    return 0;
}

static uint32_t redux_combine(const Form& f, uint32_t acc, uint32_t x) {
    const std::string& op = f.redux_op;
    if (op == "add") {
        if (f.redux_signed && bug == REDUX_ADD_S32_SATURATES) {
            int64_t s = static_cast<int64_t>(static_cast<int32_t>(acc)) + static_cast<int32_t>(x);
            s = std::clamp<int64_t>(s, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
            return static_cast<uint32_t>(static_cast<int32_t>(s));
        }
        return acc + x;
    }
    if (op == "and") return acc & x;
    if (op == "or") return acc | x;
    if (op == "xor") return acc ^ x;
    bool as_signed = f.redux_signed;
    if (op == "min" && f.redux_signed && bug == REDUX_MIN_S32_UNSIGNED) as_signed = false;
    if (op == "max" && !f.redux_signed && bug == REDUX_MAX_U32_SIGNED) as_signed = true;
    bool x_less;
    if (as_signed) x_less = static_cast<int32_t>(x) < static_cast<int32_t>(acc);
    else x_less = x < acc;
    if (op == "min") return x_less ? x : acc;
    return (!x_less && x != acc) ? x : acc;  // max
}

static WarpResult run_redux(const Form& f, const WarpState& s, WarpCarry& carry) {
    WarpResult out;
    const uint32_t exec = s.executing();
    // The accumulator is re-initialised to the identity for every
    // instruction; it keeps the last result (only the sticky bug reads it).
    const bool sticky = (bug == REDUX_ADD_STICKY && f.redux_op == "add");
    uint32_t last_result = carry.redux_acc;
    for (int l = 0; l < kWarp; ++l) {
        if (!bit(exec, l)) continue;
        uint32_t part = participants(s, l);
        if (bug == REDUX_LEADER_MASK) part = participants(s, s.leader());
        if (bug == REDUX_XOR_EXITED && f.redux_op == "xor") part = s.mask[l];
        if (bug == REDUX_OR_ACTIVE_MASK && f.redux_op == "or") part = exec;
        if (bug == REDUX_MIN_SITE_SPLIT && f.redux_op == "min") part &= same_site(s, l);
        const int last = (bug == REDUX_MAX_DROPS_LANE31 && f.redux_op == "max") ? kWarp - 1 : kWarp;
        uint32_t acc = sticky ? carry.redux_acc : redux_identity(f);
        for (int j = 0; j < last; ++j)
            if (bit(part, j)) acc = redux_combine(f, acc, static_cast<uint32_t>(s.a[j]));
        if (bug == REDUX_ADD_RESULT_LEADER_ONLY && f.redux_op == "add" && !f.redux_signed && part &&
            l != std::countr_zero(part))
            acc = static_cast<uint32_t>(s.a[l]);
        out.d[l] = acc;
        last_result = acc;
    }
    carry.redux_acc = last_result;
    return out;
}

// ---------------------------------------------------------------------------
// bar.warp.sync
// ---------------------------------------------------------------------------

// Every executing lane arrives; a lane resumes once every lane it waits for
// has arrived.  If some lane can never resume, the deadlock detector looks
// at why: a lane of some membermask that is alive but never executes the
// barrier is undefined behaviour (the round is reported as "ub" and the warp
// barrier is reset); anything else is a hang.
static bool syncwarp_peer_absent(const WarpState& s) {
    const uint32_t exec = s.executing();
    for (int l = 0; l < kWarp; ++l)
        if (bit(exec, l) && (participants(s, l) & ~exec) != 0) return true;
    return false;
}

static WarpResult run_syncwarp(const WarpState& s) {
    WarpResult out;
    const uint32_t exec = s.executing();
    const int first = s.leader();
    bool stuck = false;
    for (int l = 0; l < kWarp; ++l) {
        if (!bit(exec, l)) continue;
        uint32_t wait_for = participants(s, l);
        if (bug == SYNCWARP_WAITS_EXITED) wait_for = s.mask[l];
        if (bug == SYNCWARP_FULL_WARP) wait_for = ~s.exited;
        uint32_t arrived = exec;
        if (bug == SYNCWARP_SITE_KEYED) arrived &= same_site(s, l);
        bool released = (wait_for & ~arrived) == 0;
        if (bug == SYNCWARP_ONE_MASK_PER_WARP && s.mask[l] != s.mask[first]) released = false;
        if (!released) {
            stuck = true;
            continue;
        }
        out.d[l] = 1;
    }
    if (stuck) {
        if (syncwarp_peer_absent(s)) out.ub = true;
        else out.hang = true;
    }
    return out;
}

// ---------------------------------------------------------------------------
// bar.sync / bar.red (block barrier 0)
// ---------------------------------------------------------------------------

struct CtaState {
    int threads = 32;
    std::vector<bool> exited, inactive;
    std::vector<int64_t> a;
};

struct CtaResult {
    std::vector<std::optional<uint32_t>> d;
    bool hang = false;  // the barrier never releases: the round does not complete
    bool ub = false;    // deadlock diagnosed as a live thread never reaching the barrier
};

// The barrier unit's accumulator, kept between barrier instances.
struct CtaCarry {
    uint32_t popc = 0;
    bool all = true;
    bool any = false;
};

static CtaState read_cta(const json& r) {
    CtaState s;
    s.threads = r.value("threads", 32);
    if (s.threads < 1) s.threads = 1;
    if (s.threads > 4096) s.threads = 4096;
    s.exited = parse_set(r.value("exited", json("none")), s.threads);
    s.inactive = parse_set(r.value("inactive", json("none")), s.threads);
    auto a = per_lane<uint64_t>(r, "a", s.threads, 0);
    s.a.resize(static_cast<size_t>(s.threads));
    for (int t = 0; t < s.threads; ++t) s.a[static_cast<size_t>(t)] = static_cast<int64_t>(a[static_cast<size_t>(t)]);
    return s;
}

static CtaResult run_cta(const Form& f, const CtaState& s, CtaCarry& carry) {
    CtaResult out;
    const int n = s.threads;
    const int warps = (n + 31) / 32;
    out.d.assign(static_cast<size_t>(n), std::nullopt);
    auto exited = [&](int t) { return bool(s.exited[static_cast<size_t>(t)]); };
    auto arrives = [&](int t) { return !exited(t) && !s.inactive[static_cast<size_t>(t)]; };

    // --- barrier unit: count arrivals against the expected count ----------
    int n_exited = 0;
    for (int t = 0; t < n; ++t) n_exited += exited(t);
    bool released;
    if (bug == CTA_WARP_GRANULAR) {
        int warps_arrived = 0;
        for (int w = 0; w < warps; ++w) {
            bool any = false;
            for (int t = w * 32; t < std::min(n, w * 32 + 32); ++t) any |= arrives(t);
            warps_arrived += any;
        }
        released = warps_arrived == warps;
    } else {
        int expected = n - n_exited;
        if (bug == CTA_COUNTS_EXITED) expected = n;
        if (bug == CTA_PADS_LAST_WARP) expected = warps * 32 - n_exited;
        int arrived = 0;
        uint8_t arrived8 = 0;
        for (int t = 0; t < n; ++t)
            if (arrives(t)) {
                ++arrived;
                ++arrived8;
            }
        if (bug == CTA_COUNTER_U8) released = arrived8 == expected;
        else released = arrived == expected;
    }
    if (!released) {
        // Deadlock detector: a live thread that never reaches the barrier is
        // undefined behaviour; the barrier is then reset.  Otherwise the
        // barrier unit itself is stuck: a hang.
        bool not_reached = false;
        for (int t = 0; t < n; ++t) not_reached |= !exited(t) && !arrives(t);
        if (not_reached) {
            out.ub = true;
            carry = CtaCarry{};
        } else {
            out.hang = true;
        }
        return out;
    }

    // --- reduction ---------------------------------------------------------
    // {!}a is applied to each thread's predicate before the reduction.
    bool negate_inputs = f.negate;
    if (bug == BARRED_BOOL_NEGATE_RESULT && f.cta_op != "popc") negate_inputs = false;
    if (bug == BARRED_POPC_NEGATE_TOTAL && f.cta_op == "popc") negate_inputs = false;
    auto pred = [&](int t) {
        const int64_t x = s.a[static_cast<size_t>(t)];
        bool v = (bug == BARRED_POPC_BIT0 && f.cta_op == "popc") ? (x & 1) != 0 : x != 0;
        return negate_inputs ? !v : v;
    };
    auto contributes = [&](int t) {
        if (arrives(t)) return true;
        if (bug == BARRED_OR_EXITED && f.cta_op == "or" && exited(t)) return true;
        return false;
    };

    uint32_t popc = (bug == BARRED_POPC_STICKY) ? carry.popc : 0;
    bool all = (bug == BARRED_BOOL_STICKY) ? carry.all : true;
    bool any = (bug == BARRED_BOOL_STICKY) ? carry.any : false;
    int64_t bitwise_and = -1;
    const int popc_warps = (bug == BARRED_POPC_FULL_WARPS_ONLY) ? n / 32 : warps;
    for (int w = 0; w < warps; ++w) {
        uint32_t ballot = 0;
        for (int t = w * 32; t < std::min(n, w * 32 + 32); ++t) {
            if (!contributes(t)) {
                if (bug == BARRED_AND_EXITED_FALSE && f.cta_op == "and" && exited(t)) all = false;
                continue;
            }
            bool v = pred(t);
            if (v) ballot |= 1u << (t - w * 32);
            all = all && v;
            any = any || v;
            bitwise_and &= s.a[static_cast<size_t>(t)];
        }
        if (w < popc_warps) popc += (bug == BARRED_POPC_WARP_ANY) ? (ballot != 0) : std::popcount(ballot);
    }
    if (bug == BARRED_POPC_10BIT) popc &= 0x3ffu;
    if (bug == BARRED_POPC_NEGATE_TOTAL && f.negate && f.cta_op == "popc") popc = static_cast<uint32_t>(n) - popc;
    if (bug == BARRED_AND_BITWISE && f.cta_op == "and") all = f.negate ? all : (bitwise_and != 0);
    if (bug == BARRED_BOOL_NEGATE_RESULT && f.negate) {
        all = !all;
        any = !any;
    }

    for (int t = 0; t < n; ++t) {
        if (!arrives(t)) continue;
        uint32_t d = 1;
        if (f.cta_op == "popc") d = popc;
        if (f.cta_op == "and") d = all;
        if (f.cta_op == "or") d = any;
        if (bug == BARRED_BOOL_WARP_LOCAL && (f.cta_op == "and" || f.cta_op == "or")) {
            bool wall = true, wany = false;
            const int w = t / 32;
            for (int u = w * 32; u < std::min(n, w * 32 + 32); ++u)
                if (arrives(u)) {
                    wall = wall && pred(u);
                    wany = wany || pred(u);
                }
            d = (f.cta_op == "and") ? wall : wany;
        }
        out.d[static_cast<size_t>(t)] = d;
    }

    // The barrier released: its accumulator goes back to the identity.
    carry = CtaCarry{};
    if (bug == BARRED_POPC_STICKY) carry.popc = popc;
    if (bug == BARRED_BOOL_STICKY) {
        carry.all = all;
        carry.any = any;
    }
    return out;
}

// ---------------------------------------------------------------------------
// Driver
// ---------------------------------------------------------------------------

static json lanes_json(const std::vector<std::optional<uint32_t>>& v) {
    json arr = json::array();
    for (const auto& x : v) arr.push_back(x ? json(hex32(*x)) : json(nullptr));
    return arr;
}

static json run_vector(const json& v) {
    json res;
    res["id"] = v.at("id");
    const Form f = parse_form(v.value("form", std::string()), v.value("instruction", std::string()));
    if (f.family == Family::Unknown) {
        res["skipped"] = true;
        return res;
    }
    const json& rounds = v.at("rounds");
    json out_rounds = json::array();
    WarpCarry wcarry;
    CtaCarry ccarry;
    for (const json& r : rounds) {
        json ro;
        bool hang = false;
        if (f.family == Family::Cta) {
            CtaState s = read_cta(r);
            CtaResult cr = run_cta(f, s, ccarry);
            hang = cr.hang;
            if (cr.ub) ro["ub"] = true;
            if (!hang && !cr.ub) ro["d"] = lanes_json(cr.d);
        } else {
            WarpState s = read_warp(r);
            WarpResult wr;
            switch (f.family) {
                case Family::Match: wr = run_match(f, s); break;
                case Family::Vote: wr = run_vote(f, s, wcarry); break;
                case Family::Redux: wr = run_redux(f, s, wcarry); break;
                case Family::SyncWarp: wr = run_syncwarp(s); break;
                default: break;
            }
            hang = wr.hang;
            if (wr.ub) ro["ub"] = true;
            if (!hang) {
                std::vector<std::optional<uint32_t>> d(wr.d.begin(), wr.d.end());
                ro["d"] = lanes_json(d);
                if (f.family == Family::Match && f.match_all) {
                    json p = json::array();
                    for (const auto& x : wr.p) p.push_back(x ? json(*x) : json(nullptr));
                    ro["p"] = p;
                }
            }
        }
        if (hang) ro["hang"] = true;
        out_rounds.push_back(ro);
        if (hang) break;  // the rounds after a hang never run
    }
    if (rounds.size() <= 1) {
        for (auto it = out_rounds[0].begin(); it != out_rounds[0].end(); ++it) res[it.key()] = it.value();
    } else {
        res["rounds"] = out_rounds;
    }
    return res;
}

int main(int argc, char** argv) {
    if (argc == 2 && std::string(argv[1]) == "--list") {
        for (const BugInfo& b : kBugs)
            std::cout << static_cast<int>(b.id) << '\t' << b.key << '\t' << b.forms << '\t' << b.description << '\n';
        return 0;
    }
    if (argc != 3) {
        std::cerr << "usage: sim --list | sim VECTORS.jsonl N\n";
        return 64;
    }
    std::ifstream in(argv[1]);
    if (!in) {
        std::cerr << "sim: cannot open " << argv[1] << "\n";
        return 66;
    }
    bug = std::atoi(argv[2]);
    if (bug < 0 || bug > kBugCount) {
        std::cerr << "sim: bug number out of range (0.." << kBugCount << ")\n";
        return 64;
    }
    std::cout << R"({"schema":"warpspec-results/1"})" << '\n';
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        json v = json::parse(line);
        if (v.contains("schema")) continue;  // header
        json res;
        try {
            res = run_vector(v);
        } catch (const std::exception& e) {
            res = json{{"id", v.value("id", json(nullptr))}, {"skipped", true}};
        }
        std::cout << res.dump() << '\n';
    }
    return 0;
}
