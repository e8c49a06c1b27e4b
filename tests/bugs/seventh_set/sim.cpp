// sim.cpp - a deliberately buggy emulator of the sm_90 warp-level primitives,
// written the way a translation (porting) layer would lower them.
//
// It was written from the PTX ISA sections for match.sync, vote.sync,
// redux.sync, bar.warp.sync and bar/barrier, the CUDA guide sections for the
// warp match functions and __syncthreads*/__syncwarp, and the two file formats
// (warpspec-vectors/1 in, warpspec-results/1 out) alone.
//
// The emulated machine is a 64-lane wavefront that runs one 32-lane warp: lanes
// 32..63 are padding lanes whose registers hold 0.  The primitives it has are a
// ballot over a lane set, a lane shuffle, __ffs/__popc, and shared-memory
// atomics.  Every warp primitive is lowered onto those:
//
//   match.any   loop: leader = __ffs(remaining)-1, broadcast its value (64-bit
//               values as two 32-bit halves), ballot the equal lanes, retire them
//   match.all   broadcast the leader's value, ballot the equal lanes, compare
//   vote.*      ballot of the predicate, then compares on the ballot word;
//               vote.ballot goes through a per-warp shared word (atomicOr)
//   redux.*     full warp: xor butterfly; partial group: a loop over __ffs (add),
//               an identity-padded butterfly (min/max) or a compacted shuffle-down
//               tree over the members' ranks (and/or/xor)
//   bar.warp.sync  per-warp arrival bitmask; each lane spins until every
//               non-exited lane of its membermask has arrived
//   bar.sync / bar.red  warp-granular arrival on a shared thread counter, a
//               sense-reversal flag (each arriving warp waits for it to flip), a
//               popc accumulator and per-warp partial flags for .and/.or that
//               the last arriving warp combines, publishes and resets
//
// State that a real implementation keeps between instructions (arrival words,
// counters, sense flags, partial buffers, the shared ballot word, a cached
// activemask) is kept between the rounds of a vector.  A round on which some
// lane would spin forever is reported as {"hang": true}; the next round then
// starts from a freshly launched state, as after a harness time-out.
//
// Usage:
//   sim --list                      one line per bug: N<TAB>key<TAB>forms<TAB>description
//   sim VECTORS.jsonl N > RESULTS   run every vector with bug N active (0: none)

#include <nlohmann/json.hpp>

#include <array>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using json = nlohmann::json;

// ---------------------------------------------------------------------------
// Bugs
// ---------------------------------------------------------------------------

enum Bug : int {
    NONE = 0,
    // match.sync
    MATCH_ANY_B64_LO_ONLY = 1,
    MATCH_B64_SIGNEXT_HI,
    MATCH_ALL_B64_HALVES_SWAPPED,
    MATCH_ANY_FFS_OFF_BY_ONE,
    MATCH_ANY_BALLOT_UNMASKED,
    MATCH_ANY_EXITED_VOTE,
    MATCH_ALL_D_MEMBERMASK,
    MATCH_ALL_POPC_MEMBERMASK,
    MATCH_ALL_PAD_LANES,
    MATCH_SITE_SPLIT,
    // vote.sync
    VOTE_PRED_LOWBIT,
    VOTE_NEGATE_BITWISE,
    VOTE_ALL_POPC_MEMBERMASK,
    VOTE_ANY_UNMASKED,
    VOTE_UNI_CONTIGUOUS,
    VOTE_BALLOT_UNMASKED,
    VOTE_BALLOT_WORD_STALE,
    VOTE_NEG_PADDING,
    // redux.sync
    REDUX_BUTTERFLY_HALF,
    REDUX_TREE_POW2,
    REDUX_RESULT_NOT_BROADCAST,
    REDUX_FFS_OFF_BY_ONE,
    REDUX_ADD_LEADER_TWICE,
    REDUX_ADD_S32_SATURATE,
    REDUX_SIGNED_AS_UNSIGNED,
    REDUX_UNSIGNED_AS_SIGNED,
    REDUX_SIGNED_IDENTITY,
    REDUX_UNSIGNED_IDENTITY,
    REDUX_STALE_ACTIVEMASK,
    // bar.warp.sync
    SYNCWARP_WAITS_EXITED,
    SYNCWARP_MASK_SIGNEXT,
    SYNCWARP_FIRST_CLEARS,
    SYNCWARP_PER_SITE,
    SYNCWARP_ARRIVE_FFS,
    // bar.sync / bar.red
    CTA_EXPECTED_PER_WARP,
    CTA_EXPECTED_ROUNDUP,
    CTA_COUNTER_NOT_RESET,
    CTA_FLIP_BEFORE_PUBLISH,
    CTA_POPC_NOT_CLEARED,
    CTA_PARTIAL_STALE,
    CTA_PRED_SIGNED,
    CTA_PHANTOM_LANES,
    CTA_NEGATE_AFTER,
    CTA_LAST_READS_EARLY,
    BUG_COUNT_PLUS_ONE
};

struct BugInfo {
    Bug id;
    const char* key;
    const char* forms;
    const char* description;
};

#define MATCH_ALL_FORMS "match.all.sync.b32,match.all.sync.b64"
#define MATCH_ANY_FORMS "match.any.sync.b32,match.any.sync.b64"
#define VOTE_FORMS "vote.sync.all.pred,vote.sync.any.pred,vote.sync.uni.pred,vote.sync.ballot.b32"
#define REDUX_FORMS                                                                       \
    "redux.sync.add.u32,redux.sync.add.s32,redux.sync.min.u32,redux.sync.min.s32,"        \
    "redux.sync.max.u32,redux.sync.max.s32,redux.sync.and.b32,redux.sync.or.b32,"          \
    "redux.sync.xor.b32"
#define BAR_RED_FORMS "bar.red.popc.u32,bar.red.and.pred,bar.red.or.pred"

static const BugInfo kBugs[] = {
    {MATCH_ANY_B64_LO_ONLY, "match_any_b64_lo_only", "match.any.sync.b64",
     "64-bit match.any compares only the low 32-bit halves; the high-half compare was dropped"},
    {MATCH_B64_SIGNEXT_HI, "match_b64_signext_hi", "match.any.sync.b64,match.all.sync.b64",
     "the leader's 64-bit value is rebuilt by sign-extending its low half instead of shuffling its high half"},
    {MATCH_ALL_B64_HALVES_SWAPPED, "match_all_b64_halves_swapped", "match.all.sync.b64",
     "match.all.b64 recombines the leader's two shuffled 32-bit halves in swapped order"},
    {MATCH_ANY_FFS_OFF_BY_ONE, "match_any_ffs_off_by_one", MATCH_ANY_FORMS,
     "match.any leader lane taken as __ffs(remaining) without the -1: the neighbour's value is broadcast and the loop spins when it matches no remaining lane"},
    {MATCH_ANY_BALLOT_UNMASKED, "match_any_ballot_unmasked", MATCH_ANY_FORMS,
     "match.any equality ballot is not ANDed with the member group: equal lanes of other groups show up in d"},
    {MATCH_ANY_EXITED_VOTE, "match_any_exited_vote", MATCH_ANY_FORMS,
     "match.any participants taken as membermask alone (no & activemask): exited lanes vote with their stale registers"},
    {MATCH_ALL_D_MEMBERMASK, "match_all_d_membermask", MATCH_ALL_FORMS,
     "match.all writes the raw membermask to d (exited lanes included) instead of the non-exited members"},
    {MATCH_ALL_POPC_MEMBERMASK, "match_all_popc_membermask", MATCH_ALL_FORMS,
     "match.all all-equal test compares popc(ballot) with popc(membermask), so an exited member makes it fail"},
    {MATCH_ALL_PAD_LANES, "match_all_pad_lanes", MATCH_ALL_FORMS,
     "match.all ballot runs with padding lanes 32-63 active and is popcounted as 64 bits: when the common value is 0 they count as extra matches"},
    {MATCH_SITE_SPLIT, "match_site_split", MATCH_ANY_FORMS "," MATCH_ALL_FORMS,
     "match lanes are grouped by (membermask, call site): members reaching the instruction from different branches are matched separately"},

    {VOTE_PRED_LOWBIT, "vote_pred_lowbit", VOTE_FORMS,
     "vote predicate taken from bit 0 of the source register instead of a != 0"},
    {VOTE_NEGATE_BITWISE, "vote_negate_bitwise", VOTE_FORMS,
     "vote !a implemented as a bitwise NOT of the 32-bit register (~a != 0), which is true for a = 1"},
    {VOTE_ALL_POPC_MEMBERMASK, "vote_all_popc_membermask", "vote.sync.all.pred",
     "vote.all compares the true count with popc(membermask), counting exited members as false"},
    {VOTE_ANY_UNMASKED, "vote_any_unmasked", "vote.sync.any.pred",
     "vote.any ballot taken over every executing lane of the warp, not only the member group"},
    {VOTE_UNI_CONTIGUOUS, "vote_uni_contiguous", "vote.sync.uni.pred",
     "vote.uni compares the ballot with (1<<n)-1, assuming the n members are lanes 0..n-1"},
    {VOTE_BALLOT_UNMASKED, "vote_ballot_unmasked", "vote.sync.ballot.b32",
     "vote.ballot gathers contributions from every executing lane of the warp; bits of lanes outside membermask are not cleared"},
    {VOTE_BALLOT_WORD_STALE, "vote_ballot_word_stale", "vote.sync.ballot.b32",
     "the per-warp shared ballot word is never cleared after it is read, so bits of earlier ballots stay set"},
    {VOTE_NEG_PADDING, "vote_neg_padding", "vote.sync.any.pred,vote.sync.uni.pred",
     "with !a the any/uni ballot runs on all 64 wavefront lanes: padding lanes (register 0) vote true and the 64-bit word is tested untruncated"},

    {REDUX_BUTTERFLY_HALF, "redux_butterfly_half", REDUX_FORMS,
     "full-warp butterfly starts at xor offset 8 (assumes 16-lane groups): each half of the warp gets its own result"},
    {REDUX_TREE_POW2, "redux_tree_pow2", "redux.sync.and.b32,redux.sync.or.b32,redux.sync.xor.b32",
     "partial-group and/or/xor tree starts at stride n/2, assuming a power-of-two member count: trailing members are dropped"},
    {REDUX_RESULT_NOT_BROADCAST, "redux_result_not_broadcast", "redux.sync.and.b32,redux.sync.or.b32,redux.sync.xor.b32",
     "partial-group and/or/xor tree result is not broadcast from rank 0: each member keeps its own partial value"},
    {REDUX_FFS_OFF_BY_ONE, "redux_ffs_off_by_one", "redux.sync.add.u32,redux.sync.add.s32",
     "partial-group add loop reads lane __ffs(m) instead of __ffs(m)-1: each member's upper neighbour is added (lane 32 is padding, 0)"},
    {REDUX_ADD_LEADER_TWICE, "redux_add_leader_twice", "redux.sync.add.u32,redux.sync.add.s32",
     "partial-group add loop is seeded with the leader's value and then visits the leader again"},
    {REDUX_ADD_S32_SATURATE, "redux_add_s32_saturate", "redux.sync.add.s32",
     "add.s32 lowered to saturating adds (add.sat.s32) instead of wrapping 32-bit adds"},
    {REDUX_SIGNED_AS_UNSIGNED, "redux_signed_as_unsigned", "redux.sync.min.s32,redux.sync.max.s32",
     "min.s32/max.s32 compare the operands as unsigned"},
    {REDUX_UNSIGNED_AS_SIGNED, "redux_unsigned_as_signed", "redux.sync.min.u32,redux.sync.max.u32",
     "min.u32/max.u32 compare the operands as signed"},
    {REDUX_SIGNED_IDENTITY, "redux_signed_identity", "redux.sync.min.s32,redux.sync.max.s32",
     "padded min/max butterfly gives non-members the unsigned identities (0xffffffff for min.s32, 0 for max.s32)"},
    {REDUX_UNSIGNED_IDENTITY, "redux_unsigned_identity", "redux.sync.min.u32,redux.sync.max.u32",
     "padded min/max butterfly gives non-members the signed identities (0x7fffffff for min.u32, 0x80000000 for max.u32)"},
    {REDUX_STALE_ACTIVEMASK, "redux_stale_activemask", REDUX_FORMS,
     "redux participants = membermask & an activemask cached from the previous instruction (all lanes at launch): exited lanes' stale registers are reduced"},

    {SYNCWARP_WAITS_EXITED, "syncwarp_waits_exited", "bar.warp.sync",
     "exited lanes are not counted as arrived: a membermask naming an exited lane spins forever"},
    {SYNCWARP_MASK_SIGNEXT, "syncwarp_mask_signext", "bar.warp.sync",
     "membermask sign-extended into the 64-bit wavefront word: with lane 31 in the mask the barrier waits for padding lanes 32-63"},
    {SYNCWARP_FIRST_CLEARS, "syncwarp_first_clears", "bar.warp.sync",
     "the first released lane clears the group's arrival bits before its peers have tested them; the peers spin forever"},
    {SYNCWARP_PER_SITE, "syncwarp_per_site", "bar.warp.sync",
     "arrival bitmask kept per call site: lanes reaching the barrier from different branches never meet"},
    {SYNCWARP_ARRIVE_FFS, "syncwarp_arrive_ffs", "bar.warp.sync",
     "own arrival bit computed as 1 << __ffs(lanemask_eq) (1-based): each lane marks its upper neighbour as arrived"},

    {CTA_EXPECTED_PER_WARP, "cta_expected_per_warp", "bar.sync," BAR_RED_FORMS,
     "exited threads decrement the barrier's expected count once per warp instead of once per thread"},
    {CTA_EXPECTED_ROUNDUP, "cta_expected_roundup", "bar.sync," BAR_RED_FORMS,
     "expected count taken as whole warps (ceil(threads/32)*32) minus exited threads: a partial last warp never completes the barrier"},
    {CTA_COUNTER_NOT_RESET, "cta_counter_not_reset", "bar.sync," BAR_RED_FORMS,
     "arrival counter not reset when the barrier releases: the next barrier overshoots the expected count and never releases"},
    {CTA_FLIP_BEFORE_PUBLISH, "cta_flip_before_publish", BAR_RED_FORMS,
     "the last arriver flips the sense flag before it stores the combined result: the spinning warps leave and read the previous result"},
    {CTA_POPC_NOT_CLEARED, "cta_popc_not_cleared", "bar.red.popc.u32",
     "popc accumulator not cleared at release: the next barrier adds to the old count"},
    {CTA_PARTIAL_STALE, "cta_partial_stale", "bar.red.and.pred,bar.red.or.pred",
     "per-warp partial flags not reset to the identity at release: warps that do not arrive at the next barrier contribute stale flags"},
    {CTA_PRED_SIGNED, "cta_pred_signed", BAR_RED_FORMS,
     "bar.red predicate tested as a > 0 (signed), so negative values count as false"},
    {CTA_PHANTOM_LANES, "cta_phantom_lanes", BAR_RED_FORMS,
     "the nonexistent lanes of a partial last warp take part in its ballot with predicate register 0"},
    {CTA_NEGATE_AFTER, "cta_negate_after", BAR_RED_FORMS,
     "bar.red !a applied to the reduced result instead of each predicate (.and/.or miss De Morgan's swap, .popc subtracts from the block size)"},
    {CTA_LAST_READS_EARLY, "cta_last_reads_early", BAR_RED_FORMS,
     "the last-arriving warp reads the result register before publishing the combined value, getting the previous barrier's result"},
};

static int g_bug = 0;
static bool bug(Bug b) { return g_bug == static_cast<int>(b); }

// ---------------------------------------------------------------------------
// Wavefront primitives
// ---------------------------------------------------------------------------

constexpr int kWave = 64;   // physical lanes of the wavefront
constexpr int kWarp = 32;   // emulated warp width (lanes 32..63 are padding)
constexpr uint64_t kLow32 = 0xffffffffull;
constexpr uint64_t kPadLanes = ~kLow32;

static inline uint64_t bit(int lane) { return lane >= 0 && lane < kWave ? (1ull << lane) : 0; }
static inline int ffs64(uint64_t v) { return v ? std::countr_zero(v) + 1 : 0; }  // like __ffsll
static inline int ffs32(uint32_t v) { return v ? std::countr_zero(v) + 1 : 0; }  // like __ffs
static inline int popc64(uint64_t v) { return std::popcount(v); }
static inline int popc32(uint32_t v) { return std::popcount(v); }

template <class F>
static uint64_t ballot(uint64_t lanes, F pred) {
    uint64_t r = 0;
    for (uint64_t m = lanes; m; m &= m - 1) {
        int l = std::countr_zero(m);
        if (pred(l)) r |= bit(l);
    }
    return r;
}

// Register file of one wavefront: 64-bit source register split as lo/hi halves.
struct Regs {
    std::array<uint32_t, kWave> lo{};
    std::array<uint32_t, kWave> hi{};
};

// ---------------------------------------------------------------------------
// Input parsing
// ---------------------------------------------------------------------------

static uint64_t parse_u64(const json& v) {
    if (v.is_string()) {
        std::string s = v.get<std::string>();
        return std::strtoull(s.c_str(), nullptr, 0);
    }
    if (v.is_boolean()) return v.get<bool>() ? 1 : 0;
    if (v.is_number_unsigned()) return v.get<uint64_t>();
    if (v.is_number_integer()) return static_cast<uint64_t>(v.get<int64_t>());
    return 0;
}

// One value for every lane, or a list.
static std::vector<uint64_t> per_lane(const json& v, int n) {
    std::vector<uint64_t> out(n, 0);
    if (v.is_null()) return out;
    if (v.is_array()) {
        for (int i = 0; i < n && i < (int)v.size(); ++i) out[i] = parse_u64(v[i]);
    } else {
        uint64_t x = parse_u64(v);
        for (auto& o : out) o = x;
    }
    return out;
}

// Lane set: a hex word ("0x..."), "none", or ranges ("0-3,7").
static std::vector<bool> lane_set(const json& v, int n) {
    std::vector<bool> out(n, false);
    if (!v.is_string()) return out;
    std::string s = v.get<std::string>();
    if (s.empty() || s == "none") return out;
    if (s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        uint64_t w = std::strtoull(s.c_str(), nullptr, 16);
        for (int i = 0; i < n && i < 64; ++i) out[i] = (w >> i) & 1;
        return out;
    }
    std::stringstream ss(s);
    std::string part;
    while (std::getline(ss, part, ',')) {
        if (part.empty()) continue;
        auto dash = part.find('-');
        long lo = std::strtol(part.c_str(), nullptr, 10);
        long hi = dash == std::string::npos ? lo : std::strtol(part.c_str() + dash + 1, nullptr, 10);
        for (long i = lo; i <= hi; ++i)
            if (i >= 0 && i < n) out[i] = true;
    }
    return out;
}

static uint32_t word_of(const std::vector<bool>& s) {
    uint32_t w = 0;
    for (int i = 0; i < kWarp && i < (int)s.size(); ++i)
        if (s[i]) w |= 1u << i;
    return w;
}

// ---------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------

struct RoundResult {
    bool hang = false;
    std::vector<std::optional<uint32_t>> d;   // per lane / thread
    std::vector<std::optional<int>> p;        // match.all only
    bool has_p = false;
    bool resume_only = false;                 // bar.warp.sync / bar.sync
};

static std::string hex32(uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", v);
    return buf;
}

static json round_json(const RoundResult& r) {
    json j = json::object();
    if (r.hang) {
        j["hang"] = true;
        return j;
    }
    json d = json::array();
    for (auto& v : r.d) {
        if (!v) d.push_back(nullptr);
        else if (r.resume_only) d.push_back(1);
        else d.push_back(hex32(*v));
    }
    j["d"] = d;
    if (r.has_p) {
        json p = json::array();
        for (auto& v : r.p) {
            if (v) p.push_back(*v);
            else p.push_back(nullptr);
        }
        j["p"] = p;
    }
    return j;
}

// ---------------------------------------------------------------------------
// Warp state and the round's decoded input
// ---------------------------------------------------------------------------

// What the emulator keeps per warp between instructions.
struct WarpState {
    uint64_t arrived = 0;                   // bar.warp.sync arrival bitmask
    std::map<int, uint64_t> arrived_site;   // (only used by a per-site lowering)
    uint32_t ballot_word = 0;               // shared word vote.ballot goes through
    uint32_t cached_activemask = 0xffffffffu;  // activemask left by the last instruction
};

struct WarpRound {
    uint32_t exited = 0;
    uint32_t inactive = 0;
    uint32_t exec = 0;                      // executing lanes
    std::array<uint32_t, kWarp> mask{};
    std::array<int, kWarp> site{};
    Regs r;                                 // source operand (lanes 32..63 stay 0)
};

static WarpRound decode_warp(const json& rd, bool wide) {
    WarpRound w;
    w.exited = word_of(lane_set(rd.value("exited", json("none")), kWarp));
    w.inactive = word_of(lane_set(rd.value("inactive", json("none")), kWarp));
    w.exec = ~(w.exited | w.inactive);
    auto m = per_lane(rd.value("mask", json()), kWarp);
    for (int l = 0; l < kWarp; ++l) w.mask[l] = static_cast<uint32_t>(m[l]);
    auto s = per_lane(rd.value("site", json()), kWarp);
    for (int l = 0; l < kWarp; ++l) w.site[l] = static_cast<int>(s[l]);
    auto a = per_lane(rd.value("a", json()), kWarp);
    for (int l = 0; l < kWarp; ++l) {
        w.r.lo[l] = static_cast<uint32_t>(a[l]);
        w.r.hi[l] = wide ? static_cast<uint32_t>(a[l] >> 32) : 0;
    }
    return w;
}

// A converged group: executing lanes that issued the instruction with the same
// membermask; the hardware's warp-sync unit forms these before the collective.
struct Group {
    uint32_t mask;     // the membermask they passed
    uint32_t lanes;    // executing lanes in this group
    uint32_t members;  // participants: membermask & activemask
};

static std::vector<Group> form_groups(const WarpRound& w, bool split_by_site) {
    std::vector<Group> gs;
    uint32_t left = w.exec;
    while (left) {
        int leader = ffs32(left) - 1;
        uint32_t m = w.mask[leader];
        uint32_t lanes = 0;
        for (uint32_t t = left; t; t &= t - 1) {
            int l = std::countr_zero(t);
            if (w.mask[l] != m) continue;
            if (split_by_site && w.site[l] != w.site[leader]) continue;
            lanes |= 1u << l;
        }
        left &= ~lanes;
        uint32_t members = m & w.exec;
        if (split_by_site) members &= lanes;
        gs.push_back({m, lanes, members});
    }
    return gs;
}

static RoundResult empty_warp_result() {
    RoundResult r;
    r.d.assign(kWarp, std::nullopt);
    return r;
}

// ---------------------------------------------------------------------------
// match.sync
// ---------------------------------------------------------------------------

static RoundResult run_match(const WarpRound& w, bool is_all, bool wide) {
    RoundResult res = empty_warp_result();
    if (is_all) {
        res.has_p = true;
        res.p.assign(kWarp, std::nullopt);
    }
    const Regs& R = w.r;

    // broadcast the 64-bit key of `leader` as two 32-bit shuffles
    auto shfl_key = [&](int leader, uint32_t& lo, uint32_t& hi) {
        lo = R.lo[leader];
        hi = wide ? R.hi[leader] : 0;
        if (wide && bug(MATCH_B64_SIGNEXT_HI)) hi = static_cast<uint32_t>(static_cast<int32_t>(lo) >> 31);
        if (wide && is_all && bug(MATCH_ALL_B64_HALVES_SWAPPED)) std::swap(lo, hi);
    };
    auto equal = [&](int l, uint32_t lo, uint32_t hi) {
        if (R.lo[l] != lo) return false;
        if (!wide) return true;
        if (!is_all && bug(MATCH_ANY_B64_LO_ONLY)) return true;
        return R.hi[l] == hi;
    };

    for (const Group& g : form_groups(w, bug(MATCH_SITE_SPLIT))) {
        uint32_t members = g.members;
        if (!is_all && bug(MATCH_ANY_EXITED_VOTE)) members = g.mask;
        if (members == 0) continue;  // (only in undefined states)

        if (!is_all) {
            // loop over the distinct values: one ballot per equivalence class
            uint32_t remaining = members;
            int spins = 0;
            while (remaining) {
                if (++spins > 2 * kWarp) { res.hang = true; return res; }
                int leader = ffs32(remaining) - 1;
                if (bug(MATCH_ANY_FFS_OFF_BY_ONE)) leader = ffs32(remaining);
                uint32_t lo, hi;
                shfl_key(leader, lo, hi);
                uint64_t voters = bug(MATCH_ANY_BALLOT_UNMASKED) ? uint64_t(w.exec) : uint64_t(members);
                uint32_t eq = static_cast<uint32_t>(ballot(voters, [&](int l) { return equal(l, lo, hi); }));
                for (uint32_t t = g.lanes & eq; t; t &= t - 1) res.d[std::countr_zero(t)] = eq;
                remaining &= ~eq;
            }
        } else {
            int leader = ffs32(members) - 1;
            uint32_t lo, hi;
            shfl_key(leader, lo, hi);
            uint64_t voters = members;
            if (bug(MATCH_ALL_PAD_LANES)) voters |= kPadLanes;  // padding lanes left on
            uint64_t eq = ballot(voters, [&](int l) { return equal(l, lo, hi); });
            bool all = (static_cast<uint32_t>(eq) == members);
            if (bug(MATCH_ALL_POPC_MEMBERMASK)) all = popc64(eq) == popc32(g.mask);
            if (bug(MATCH_ALL_PAD_LANES)) all = popc64(eq) == popc32(members);
            uint32_t d = all ? members : 0;
            if (bug(MATCH_ALL_D_MEMBERMASK)) d = all ? g.mask : 0;
            for (uint32_t t = g.lanes; t; t &= t - 1) {
                int l = std::countr_zero(t);
                res.d[l] = d;
                res.p[l] = all ? 1 : 0;
            }
        }
    }
    return res;
}

// ---------------------------------------------------------------------------
// vote.sync
// ---------------------------------------------------------------------------

enum class VoteMode { All, Any, Uni, Ballot };

static RoundResult run_vote(const WarpRound& w, WarpState& ws, VoteMode mode, bool negate) {
    RoundResult res = empty_warp_result();
    const Regs& R = w.r;

    // the predicate register each lane feeds into the ballot
    auto pred = [&](int l) -> bool {
        uint32_t a = R.lo[l];
        bool p = bug(VOTE_PRED_LOWBIT) ? (a & 1u) != 0 : a != 0;
        if (negate) p = bug(VOTE_NEGATE_BITWISE) ? (~a != 0u) : !p;
        return p;
    };

    for (const Group& g : form_groups(w, false)) {
        const uint32_t members = g.members;
        uint64_t voters = members;
        if (negate && bug(VOTE_NEG_PADDING) && (mode == VoteMode::Any || mode == VoteMode::Uni))
            voters |= kPadLanes;
        uint64_t bal = ballot(voters, pred);
        uint32_t d = 0;
        switch (mode) {
        case VoteMode::All:
            d = static_cast<uint32_t>(bal) == members;
            if (bug(VOTE_ALL_POPC_MEMBERMASK)) d = popc64(bal) == popc32(g.mask);
            break;
        case VoteMode::Any:
            if (bug(VOTE_ANY_UNMASKED)) bal = ballot(w.exec, pred);
            d = bal != 0;
            break;
        case VoteMode::Uni: {
            uint64_t all_true = members;
            if (bug(VOTE_UNI_CONTIGUOUS)) {
                int n = popc32(members);
                all_true = n >= 32 ? kLow32 : ((1ull << n) - 1);
            }
            d = (bal == 0) || (bal == all_true);
            break;
        }
        case VoteMode::Ballot: {
            // each member atomicOr's its bit into the warp's shared word,
            // the word is read back, then cleared for the next ballot
            uint32_t contrib = static_cast<uint32_t>(bal);
            if (bug(VOTE_BALLOT_UNMASKED)) contrib = static_cast<uint32_t>(ballot(w.exec, pred));
            ws.ballot_word |= contrib;
            d = ws.ballot_word;
            if (!bug(VOTE_BALLOT_WORD_STALE)) ws.ballot_word = 0;
            break;
        }
        }
        for (uint32_t t = g.lanes; t; t &= t - 1) res.d[std::countr_zero(t)] = d;
    }
    return res;
}

// ---------------------------------------------------------------------------
// redux.sync
// ---------------------------------------------------------------------------

enum class ReduxOp { Add, Min, Max, And, Or, Xor };

struct ReduxKind {
    ReduxOp op;
    bool is_signed;
};

static uint32_t redux_apply(ReduxKind k, uint32_t x, uint32_t y) {
    bool as_signed = k.is_signed;
    if ((k.op == ReduxOp::Min || k.op == ReduxOp::Max)) {
        if (k.is_signed && bug(REDUX_SIGNED_AS_UNSIGNED)) as_signed = false;
        if (!k.is_signed && bug(REDUX_UNSIGNED_AS_SIGNED)) as_signed = true;
    }
    auto less = [&](uint32_t p, uint32_t q) {
        return as_signed ? static_cast<int32_t>(p) < static_cast<int32_t>(q) : p < q;
    };
    switch (k.op) {
    case ReduxOp::Add:
        if (k.is_signed && bug(REDUX_ADD_S32_SATURATE)) {
            int64_t s = int64_t(static_cast<int32_t>(x)) + int64_t(static_cast<int32_t>(y));
            if (s > INT32_MAX) s = INT32_MAX;
            if (s < INT32_MIN) s = INT32_MIN;
            return static_cast<uint32_t>(static_cast<int32_t>(s));
        }
        return x + y;
    case ReduxOp::Min: return less(y, x) ? y : x;
    case ReduxOp::Max: return less(x, y) ? y : x;
    case ReduxOp::And: return x & y;
    case ReduxOp::Or: return x | y;
    case ReduxOp::Xor: return x ^ y;
    }
    return x;
}

static uint32_t redux_identity(ReduxKind k) {
    switch (k.op) {
    case ReduxOp::Min:
        if (k.is_signed) return bug(REDUX_SIGNED_IDENTITY) ? 0xffffffffu : 0x7fffffffu;
        return bug(REDUX_UNSIGNED_IDENTITY) ? 0x7fffffffu : 0xffffffffu;
    case ReduxOp::Max:
        if (k.is_signed) return bug(REDUX_SIGNED_IDENTITY) ? 0u : 0x80000000u;
        return bug(REDUX_UNSIGNED_IDENTITY) ? 0x80000000u : 0u;
    case ReduxOp::And: return 0xffffffffu;
    default: return 0u;
    }
}

static RoundResult run_redux(const WarpRound& w, WarpState& ws, ReduxKind k) {
    RoundResult res = empty_warp_result();
    const Regs& R = w.r;
    const uint32_t activemask = bug(REDUX_STALE_ACTIVEMASK) ? ws.cached_activemask : w.exec;

    for (const Group& g : form_groups(w, false)) {
        const uint32_t members = g.mask & activemask;
        std::array<uint32_t, kWave> v{};   // per-lane value register
        for (int l = 0; l < kWave; ++l) v[l] = R.lo[l];

        if (members == 0xffffffffu) {
            // full warp: xor butterfly, every lane ends with the result
            for (int off = bug(REDUX_BUTTERFLY_HALF) ? 8 : 16; off > 0; off >>= 1) {
                std::array<uint32_t, kWave> nv = v;
                for (int l = 0; l < kWarp; ++l) nv[l] = redux_apply(k, v[l], v[l ^ off]);
                v = nv;
            }
            for (uint32_t t = g.lanes; t; t &= t - 1) {
                int l = std::countr_zero(t);
                res.d[l] = v[l];
            }
            continue;
        }
        if (members == 0) {  // (only in undefined states)
            for (uint32_t t = g.lanes; t; t &= t - 1) res.d[std::countr_zero(t)] = redux_identity(k);
            continue;
        }

        switch (k.op) {
        case ReduxOp::Add: {
            // serial loop over the members with __ffs; leader broadcasts
            int leader = ffs32(members) - 1;
            uint32_t acc = 0;
            uint32_t m = members;
            if (bug(REDUX_ADD_LEADER_TWICE)) acc = v[leader];
            for (; m; m &= m - 1) {
                int src = bug(REDUX_FFS_OFF_BY_ONE) ? ffs32(m) : ffs32(m) - 1;
                acc = redux_apply(k, acc, v[src]);
            }
            for (uint32_t t = g.lanes; t; t &= t - 1) res.d[std::countr_zero(t)] = acc;
            break;
        }
        case ReduxOp::Min:
        case ReduxOp::Max: {
            // identity-padded butterfly over the whole warp
            const uint32_t id = redux_identity(k);
            for (int l = 0; l < kWarp; ++l)
                if (!((members >> l) & 1u)) v[l] = id;
            for (int off = 16; off > 0; off >>= 1) {
                std::array<uint32_t, kWave> nv = v;
                for (int l = 0; l < kWarp; ++l) nv[l] = redux_apply(k, v[l], v[l ^ off]);
                v = nv;
            }
            for (uint32_t t = g.lanes; t; t &= t - 1) {
                int l = std::countr_zero(t);
                res.d[l] = v[l];
            }
            break;
        }
        default: {
            // compacted shuffle-down tree over the members' ranks
            const int n = popc32(members);
            std::vector<uint32_t> val(n);
            std::array<int, kWarp> rank{};
            for (int l = 0; l < kWarp; ++l) {
                if (!((members >> l) & 1u)) continue;
                rank[l] = popc32(members & ((1u << l) - 1u));   // popc(lanemask_lt & members)
                val[rank[l]] = v[l];
            }
            int start = int(std::bit_ceil(unsigned(n))) / 2;
            if (bug(REDUX_TREE_POW2)) start = n / 2;
            for (int off = start; off > 0; off >>= 1) {
                std::vector<uint32_t> nv = val;
                for (int r = 0; r < n; ++r)
                    if (r + off < n) nv[r] = redux_apply(k, val[r], val[r + off]);
                val = nv;
            }
            for (uint32_t t = g.lanes; t; t &= t - 1) {
                int l = std::countr_zero(t);
                uint32_t out = val[0];
                if (bug(REDUX_RESULT_NOT_BROADCAST) && ((members >> l) & 1u)) out = val[rank[l]];
                res.d[l] = out;
            }
            break;
        }
        }
    }
    ws.cached_activemask = w.exec;
    return res;
}

// ---------------------------------------------------------------------------
// bar.warp.sync
// ---------------------------------------------------------------------------

static RoundResult run_syncwarp(const WarpRound& w, WarpState& ws) {
    RoundResult res = empty_warp_result();
    res.resume_only = true;
    const uint64_t exited64 = w.exited;
    auto word_for = [&](int lane) -> uint64_t& {
        return bug(SYNCWARP_PER_SITE) ? ws.arrived_site[w.site[lane]] : ws.arrived;
    };

    // arrival: every executing lane sets its bit in the warp's arrival word
    for (uint32_t t = w.exec; t; t &= t - 1) {
        int l = std::countr_zero(t);
        uint64_t own = bit(l);
        if (bug(SYNCWARP_ARRIVE_FFS)) own = bit(ffs64(bit(l)));
        word_for(l) |= own;
    }

    // spin: a lane leaves once every non-exited lane of its membermask arrived
    std::vector<uint64_t> to_clear;
    std::vector<int> clear_site;
    for (uint32_t t = w.exec; t; t &= t - 1) {
        int l = std::countr_zero(t);
        uint64_t need = w.mask[l];
        if (bug(SYNCWARP_MASK_SIGNEXT)) need = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(w.mask[l])));
        uint64_t seen = word_for(l);
        if (!bug(SYNCWARP_WAITS_EXITED)) seen |= exited64;
        if ((seen & need) == need) {
            res.d[l] = 1;
            if (bug(SYNCWARP_FIRST_CLEARS)) word_for(l) &= ~need;
            else {
                to_clear.push_back(need);
                clear_site.push_back(w.site[l]);
            }
        }
    }
    // the group's arrival bits are cleared once all of it has left
    for (size_t i = 0; i < to_clear.size(); ++i) {
        if (bug(SYNCWARP_PER_SITE)) ws.arrived_site[clear_site[i]] &= ~to_clear[i];
        else ws.arrived &= ~to_clear[i];
    }

    for (uint32_t t = w.exec; t; t &= t - 1)
        if (!res.d[std::countr_zero(t)]) res.hang = true;
    return res;
}

// ---------------------------------------------------------------------------
// bar.sync / bar.red (block barriers)
// ---------------------------------------------------------------------------

enum class CtaOp { Sync, Popc, And, Or };

constexpr int kMaxThreads = 1024;
constexpr int kMaxWarps = kMaxThreads / kWarp;

// The barrier object in shared memory.
struct BlockState {
    uint32_t count = 0;                         // arrivals (threads) this generation
    uint32_t sense = 0;                         // shared sense-reversal flag
    uint32_t popc_sum = 0;                      // .popc accumulator
    std::array<uint32_t, kMaxWarps> partial{};  // .and/.or per-warp flags
    uint32_t result = 0;                        // published reduction result
    bool initialised = false;
};

static uint32_t cta_identity(CtaOp op) { return op == CtaOp::And ? 1u : 0u; }

static void cta_launch(BlockState& b, CtaOp op) {
    b = BlockState{};
    b.partial.fill(cta_identity(op));
    b.initialised = true;
}

static RoundResult run_cta(const json& rd, BlockState& b, CtaOp op, bool negate) {
    RoundResult res;
    res.resume_only = (op == CtaOp::Sync);
    int threads = rd.value("threads", 32);
    if (threads < 1) threads = 1;
    if (threads > kMaxThreads) threads = kMaxThreads;
    res.d.assign(threads, std::nullopt);
    if (!b.initialised) cta_launch(b, op);

    const auto exited = lane_set(rd.value("exited", json("none")), threads);
    const auto inactive = lane_set(rd.value("inactive", json("none")), threads);
    const auto a = per_lane(rd.value("a", json()), threads);
    const int nwarps = (threads + kWarp - 1) / kWarp;

    // expected arrivals: the block size less its exited threads
    uint32_t n_exited = 0;
    uint32_t warps_with_exits = 0;
    for (int w = 0; w < nwarps; ++w) {
        bool any = false;
        for (int t = w * kWarp; t < std::min(threads, (w + 1) * kWarp); ++t)
            if (exited[t]) { ++n_exited; any = true; }
        if (any) ++warps_with_exits;
    }
    uint32_t expected = threads - n_exited;
    if (bug(CTA_EXPECTED_PER_WARP)) expected = threads - warps_with_exits;
    if (bug(CTA_EXPECTED_ROUNDUP)) expected = nwarps * kWarp - n_exited;

    // predicate of a 32-bit source register (nonexistent lanes hold 0)
    auto pred_of = [&](uint32_t v) -> bool {
        bool p = bug(CTA_PRED_SIGNED) ? static_cast<int32_t>(v) > 0 : v != 0;
        if (negate && !bug(CTA_NEGATE_AFTER)) p = !p;
        return p;
    };
    auto reg = [&](int t) -> uint32_t { return t < threads ? static_cast<uint32_t>(a[t]) : 0u; };

    enum class WarpPhase { Absent, Stalled, Waiting, Released };
    std::vector<WarpPhase> phase(nwarps, WarpPhase::Absent);
    std::vector<uint32_t> live_of(nwarps, 0);
    std::vector<uint32_t> my_sense(nwarps, 0);   // local sense of the warp's threads

    auto release_waiters = [&]() {
        for (int w = 0; w < nwarps; ++w) {
            if (phase[w] != WarpPhase::Waiting) continue;
            if (b.sense != my_sense[w]) continue;   // still spinning
            phase[w] = WarpPhase::Released;
            for (uint32_t t = live_of[w]; t; t &= t - 1) res.d[w * kWarp + std::countr_zero(t)] = b.result;
        }
    };

    for (int w = 0; w < nwarps; ++w) {
        const int base = w * kWarp;
        const int width = std::min(kWarp, threads - base);
        const uint32_t exists = width >= 32 ? 0xffffffffu : ((1u << width) - 1u);
        uint32_t live = 0, stalled = 0;
        for (int l = 0; l < width; ++l) {
            if (exited[base + l]) continue;
            live |= 1u << l;
            if (inactive[base + l]) stalled |= 1u << l;
        }
        live_of[w] = live;
        if (live == 0) continue;                  // whole warp exited: it never arrives
        if (stalled) { phase[w] = WarpPhase::Stalled; continue; }  // waits for its own lanes

        // warp-level reduction of the predicate, then one arrival per warp
        uint64_t voters = live;
        if (bug(CTA_PHANTOM_LANES)) voters = live | (~exists & 0xffffffffu);
        uint64_t bal = ballot(voters, [&](int l) { return pred_of(reg(base + l)); });
        if (op == CtaOp::Popc) b.popc_sum += popc64(bal);
        if (op == CtaOp::And) b.partial[w] = (bal == voters) ? 1u : 0u;
        if (op == CtaOp::Or) b.partial[w] = (bal != 0) ? 1u : 0u;

        my_sense[w] = b.sense ^ 1u;    // wait for the flag to flip
        b.count += popc32(live);
        phase[w] = WarpPhase::Waiting;

        if (b.count == expected) {
            // last arrival: combine, publish, reset, flip the shared sense
            uint32_t r = 0;
            if (op == CtaOp::Popc) r = b.popc_sum;
            if (op == CtaOp::And) { r = 1; for (auto f : b.partial) r &= f; }
            if (op == CtaOp::Or) { r = 0; for (auto f : b.partial) r |= f; }
            if (negate && bug(CTA_NEGATE_AFTER)) {
                if (op == CtaOp::Popc) r = threads - r;
                else r = !r;
            }
            if (bug(CTA_LAST_READS_EARLY)) {
                phase[w] = WarpPhase::Released;
                for (uint32_t t = live; t; t &= t - 1) res.d[base + std::countr_zero(t)] = b.result;
            }
            if (bug(CTA_FLIP_BEFORE_PUBLISH)) {
                b.sense = my_sense[w];
                release_waiters();
            }
            b.result = r;
            if (!bug(CTA_COUNTER_NOT_RESET)) b.count = 0;
            if (!bug(CTA_POPC_NOT_CLEARED)) b.popc_sum = 0;
            if (!bug(CTA_PARTIAL_STALE)) b.partial.fill(cta_identity(op));
            b.sense = my_sense[w];
        }
        release_waiters();
    }
    release_waiters();

    for (int w = 0; w < nwarps; ++w)
        if (phase[w] == WarpPhase::Waiting || phase[w] == WarpPhase::Stalled) res.hang = true;
    if (op == CtaOp::Sync)
        for (auto& v : res.d)
            if (v) v = 1;
    return res;
}

// ---------------------------------------------------------------------------
// Driver
// ---------------------------------------------------------------------------

static bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

static json run_vector(const json& v) {
    const std::string form = v.value("form", "");
    const std::string ins = v.value("instruction", "");
    const bool negate = ins.find("!a") != std::string::npos;
    const json& rounds = v["rounds"];

    WarpState ws;
    BlockState bs;
    std::vector<json> out;

    for (const json& rd : rounds) {
        RoundResult r;
        if (starts_with(form, "match.")) {
            bool wide = form.find(".b64") != std::string::npos;
            r = run_match(decode_warp(rd, wide), starts_with(form, "match.all"), wide);
        } else if (starts_with(form, "vote.")) {
            VoteMode m = VoteMode::Ballot;
            if (starts_with(form, "vote.sync.all")) m = VoteMode::All;
            else if (starts_with(form, "vote.sync.any")) m = VoteMode::Any;
            else if (starts_with(form, "vote.sync.uni")) m = VoteMode::Uni;
            r = run_vote(decode_warp(rd, false), ws, m, negate);
        } else if (starts_with(form, "redux.")) {
            ReduxKind k{ReduxOp::Add, false};
            if (form.find(".add.") != std::string::npos) k.op = ReduxOp::Add;
            else if (form.find(".min.") != std::string::npos) k.op = ReduxOp::Min;
            else if (form.find(".max.") != std::string::npos) k.op = ReduxOp::Max;
            else if (form.find(".and.") != std::string::npos) k.op = ReduxOp::And;
            else if (form.find(".or.") != std::string::npos) k.op = ReduxOp::Or;
            else if (form.find(".xor.") != std::string::npos) k.op = ReduxOp::Xor;
            k.is_signed = form.find(".s32") != std::string::npos;
            r = run_redux(decode_warp(rd, false), ws, k);
        } else if (form == "bar.warp.sync") {
            r = run_syncwarp(decode_warp(rd, false), ws);
        } else if (form == "bar.sync" || starts_with(form, "bar.red.")) {
            CtaOp op = CtaOp::Sync;
            if (form == "bar.red.popc.u32") op = CtaOp::Popc;
            else if (form == "bar.red.and.pred") op = CtaOp::And;
            else if (form == "bar.red.or.pred") op = CtaOp::Or;
            r = run_cta(rd, bs, op, negate);
        } else {
            return json{{"id", v["id"]}, {"skipped", true}};
        }
        if (r.hang) {   // the harness times out and relaunches
            ws = WarpState{};
            bs = BlockState{};
        }
        out.push_back(round_json(r));
    }

    json line = json::object();
    line["id"] = v["id"];
    if (out.size() == 1) {
        for (auto& [k, val] : out[0].items()) line[k] = val;
    } else {
        line["rounds"] = out;
    }
    return line;
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
    g_bug = std::atoi(argv[2]);
    if (g_bug < 0 || g_bug >= static_cast<int>(BUG_COUNT_PLUS_ONE)) {
        std::cerr << "sim: bug number out of range\n";
        return 64;
    }
    std::ifstream in(argv[1]);
    if (!in) {
        std::cerr << "sim: cannot open " << argv[1] << '\n';
        return 66;
    }
    std::string line;
    bool header_done = false;
    std::cout << json{{"schema", "warpspec-results/1"}}.dump() << '\n';
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        json v = json::parse(line, nullptr, false);
        if (v.is_discarded()) continue;
        if (!header_done && v.contains("schema")) {
            header_done = true;
            continue;
        }
        header_done = true;
        std::cout << run_vector(v).dump() << '\n';
    }
    return 0;
}
