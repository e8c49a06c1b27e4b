// sim.cpp -- a CPU-side, thread-per-lane emulator of NVIDIA's warp-level
// synchronisation and communication primitives, with selectable defects.
//
// The emulator is written the way a CUDA-to-CPU translation layer would do it:
// every lane of a warp is a software "thread" that, on reaching a collective
// (__match_any_sync, __ballot_sync, __reduce_add_sync, __syncwarp,
// __syncthreads_count, ...), publishes its operand into a per-warp slot array
// and arrives at a rendezvous object (arrival counter + generation number).
// When the last expected lane arrives the rendezvous releases its group and
// every released lane reads the other members' slots to form its result.
// Block barriers (bar.sync / bar.red) use one CTA-wide barrier with per-warp
// vote words.  The state (slots, vote words, counters, generations) lives for
// the whole vector, so multi-round vectors see whatever the previous rounds
// left behind, exactly as a long-running emulator would.
//
// Lanes are scheduled deterministically: all executing lanes arrive in lane
// order, then the released lanes compute their results.  A lane whose
// rendezvous never releases means the round would wait forever: it is
// reported as {"hang": true}.
//
// The program was written from the PTX ISA sections on match.sync, vote.sync,
// redux.sync, bar.warp.sync and bar.sync/bar.red, the CUDA guide's sections on
// warp match and synchronisation functions, and the two file formats alone.
//
// Usage:
//   sim --list                    one line per defect: N<TAB>key<TAB>forms<TAB>description
//   sim VECTORS.jsonl N           read warpspec-vectors/1, write warpspec-results/1 on stdout,
//                                 with defect N active (0: correct implementation)
//
// Every defect is a small local change to the correct path, guarded by bug == N.

#include <nlohmann/json.hpp>

#include <array>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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
// Defect catalogue
// ---------------------------------------------------------------------------

enum Bug : int {
    kNone = 0,
    // match.sync
    kMatchAnyExitedSlot,
    kMatchAllDIncludesExited,
    kMatchB64Low32,
    kMatchAnyB64Double,
    kMatchAllB32Float,
    kMatchAnySelfExcluded,
    kMatchAllActiveMask,
    kMatchAllRefLane0,
    kMatchAnyLowestMask,
    // vote.sync
    kVoteNegateResult,
    kVoteAllPopcMask,
    kVoteUniAsAll,
    kVoteUniRefLane0,
    kVoteUniBallotVsMask,
    kVoteAnyActiveMask,
    kVoteAnySiteConverged,
    kBallotStaleBits,
    kBallotActiveMask,
    kBallotPredBit0,
    kBallotLaneOffByOne,
    kBallotNegateResult,
    // redux.sync
    kReduxMinS32Unsigned,
    kReduxMaxU32Signed,
    kReduxMinU32IdentityIntMax,
    kReduxMaxS32IdentityZero,
    kReduxAddS32Saturate,
    kReduxAddU32LoopBound,
    kReduxAndExitedSlot,
    kReduxAndIdentity,
    kReduxXorActiveMask,
    kReduxXorOwnTwice,
    kReduxOrLowestMask,
    kReduxAddU32SiteConverged,
    kReduxMinU32SignExtend,
    kReduxMaxS32ExitedSlot,
    // bar.warp.sync
    kSyncwarpCountsExited,
    kSyncwarpSiteKeyed,
    kSyncwarpSingleBarrier,
    kSyncwarpActiveMaskCount,
    // bar.sync / bar.red
    kBarSyncCountsExited,
    kBarRoundedToWarps,
    kBarCountOnce,
    kBarRedPopcExited,
    kBarRedAndBit0,
    kBarRedOrLowByte,
    kBarRedNegateResult,
    kBarRedPopcComplement,
    kBarRedStaleVotes,
    kBarRedAndLastWarp,
    kBarRedPopcShift32,
    kBarRedOrExited,
    kBugCount
};

struct BugInfo {
    Bug id;
    const char* key;
    const char* forms;
    const char* description;
};

static const BugInfo kBugTable[] = {
    {kMatchAnyExitedSlot, "match_any_exited_slot", "match.any.sync.b32,match.any.sync.b64",
     "match.any compares against every lane of membermask, reading the never-cleared slot of exited lanes"},
    {kMatchAllDIncludesExited, "match_all_d_membermask", "match.all.sync.b32,match.all.sync.b64",
     "match.all returns the raw membermask on success, exited lanes included"},
    {kMatchB64Low32, "match_b64_low32_slot", "match.any.sync.b64,match.all.sync.b64",
     "64-bit operands are published through a 32-bit slot, so only the low halves are compared"},
    {kMatchAnyB64Double, "match_any_b64_as_double", "match.any.sync.b64",
     "match.any.b64 compares operands as double (NaN never matches, -0.0 matches +0.0)"},
    {kMatchAllB32Float, "match_all_b32_as_float", "match.all.sync.b32",
     "match.all.b32 compares operands as float (NaN never matches, -0.0 matches +0.0)"},
    {kMatchAnySelfExcluded, "match_any_self_excluded", "match.any.sync.b32,match.any.sync.b64",
     "match.any builds its mask from the other lanes only and never sets the caller's own bit"},
    {kMatchAllActiveMask, "match_all_activemask", "match.all.sync.b32,match.all.sync.b64",
     "match.all returns __activemask() (every executing lane) instead of the non-exited membermask lanes"},
    {kMatchAllRefLane0, "match_all_ref_lane0", "match.all.sync.b32,match.all.sync.b64",
     "match.all compares every member with lane 0's slot instead of with a member's slot"},
    {kMatchAnyLowestMask, "match_any_lowest_lane_mask", "match.any.sync.b32,match.any.sync.b64",
     "match.any uses the membermask of the lowest executing lane for every lane"},

    {kVoteNegateResult, "vote_negate_result", "vote.sync.all.pred,vote.sync.any.pred",
     "vote.all/any with !a negate the reduced result instead of each lane's operand"},
    {kVoteAllPopcMask, "vote_all_popc_membermask", "vote.sync.all.pred",
     "vote.all computed as popc(ballot) == popc(membermask), so an exited member makes it false"},
    {kVoteUniAsAll, "vote_uni_as_all", "vote.sync.uni.pred",
     "vote.uni computed as vote.all (uniformly false predicates give false)"},
    {kVoteUniRefLane0, "vote_uni_ref_lane0", "vote.sync.uni.pred",
     "vote.uni compares every member's predicate with lane 0's slot instead of a member's"},
    {kVoteUniBallotVsMask, "vote_uni_ballot_vs_membermask", "vote.sync.uni.pred",
     "vote.uni computed as ballot == 0 || ballot == membermask, exited members counted"},
    {kVoteAnyActiveMask, "vote_any_activemask", "vote.sync.any.pred",
     "vote.any reduces over __activemask() (all executing lanes) instead of membermask"},
    {kVoteAnySiteConverged, "vote_any_site_converged", "vote.sync.any.pred",
     "vote.any rendezvous keyed by call site and sized by the lanes converged there: lanes from another branch are left out"},
    {kBallotStaleBits, "ballot_stale_bits", "vote.sync.ballot.b32",
     "the shared ballot word is only ever ORed into, so a lane's 1 from an earlier instruction survives"},
    {kBallotActiveMask, "ballot_activemask", "vote.sync.ballot.b32",
     "ballot keeps the bits of every executing lane (__activemask()) instead of membermask lanes"},
    {kBallotPredBit0, "ballot_pred_bit0", "vote.sync.ballot.b32",
     "ballot takes bit 0 of the predicate value instead of testing it for non-zero"},
    {kBallotLaneOffByOne, "ballot_lane_off_by_one", "vote.sync.ballot.b32",
     "ballot numbers lanes from 1: each lane's bit lands one position too high and lane 31's is lost"},
    {kBallotNegateResult, "ballot_negate_result", "vote.sync.ballot.b32",
     "ballot with !a complements the whole result word instead of negating each operand"},

    {kReduxMinS32Unsigned, "redux_min_s32_unsigned", "redux.sync.min.s32",
     "redux.min.s32 compares operands as unsigned"},
    {kReduxMaxU32Signed, "redux_max_u32_signed", "redux.sync.max.u32",
     "redux.max.u32 compares operands as signed"},
    {kReduxMinU32IdentityIntMax, "redux_min_u32_identity_intmax", "redux.sync.min.u32",
     "redux.min.u32 starts from INT_MAX instead of UINT_MAX"},
    {kReduxMaxS32IdentityZero, "redux_max_s32_identity_zero", "redux.sync.max.s32",
     "redux.max.s32 starts from 0 instead of INT_MIN"},
    {kReduxAddS32Saturate, "redux_add_s32_saturate", "redux.sync.add.s32",
     "redux.add.s32 saturates to the int32 range instead of truncating to 32 bits"},
    {kReduxAddU32LoopBound, "redux_add_u32_loop_bound", "redux.sync.add.u32",
     "redux.add.u32 sums the slots with a loop bound of 31, so lane 31's operand is never added"},
    {kReduxAndExitedSlot, "redux_and_exited_slot", "redux.sync.and.b32",
     "redux.and reduces over every membermask lane, reading the stale/zero slot of exited lanes"},
    {kReduxAndIdentity, "redux_and_identity_intmax", "redux.sync.and.b32",
     "redux.and starts from 0x7fffffff instead of 0xffffffff"},
    {kReduxXorActiveMask, "redux_xor_activemask", "redux.sync.xor.b32",
     "redux.xor reduces over __activemask() (all executing lanes) instead of membermask"},
    {kReduxXorOwnTwice, "redux_xor_own_twice", "redux.sync.xor.b32",
     "redux.xor seeds the accumulator with the caller's value and then folds in all members again"},
    {kReduxOrLowestMask, "redux_or_lowest_lane_mask", "redux.sync.or.b32",
     "redux.or uses the membermask of the lowest executing lane for every lane"},
    {kReduxAddU32SiteConverged, "redux_add_u32_site_converged", "redux.sync.add.u32",
     "redux.add.u32 rendezvous keyed by call site and sized by the lanes converged there: lanes from another branch are left out"},
    {kReduxMinU32SignExtend, "redux_min_u32_sign_extend", "redux.sync.min.u32",
     "redux.min.u32 sign-extends operands into the 64-bit slot and compares them as signed"},
    {kReduxMaxS32ExitedSlot, "redux_max_s32_exited_slot", "redux.sync.max.s32",
     "redux.max.s32 reduces over every membermask lane, reading the stale/zero slot of exited lanes"},

    {kSyncwarpCountsExited, "syncwarp_counts_exited", "bar.warp.sync",
     "bar.warp.sync expects popc(membermask) arrivals, exited lanes included"},
    {kSyncwarpSiteKeyed, "syncwarp_site_keyed", "bar.warp.sync",
     "bar.warp.sync rendezvous keyed by call site, so lanes arriving from different branches never meet"},
    {kSyncwarpSingleBarrier, "syncwarp_single_barrier", "bar.warp.sync",
     "one barrier per warp whose expected count comes from the first arriving lane's membermask"},
    {kSyncwarpActiveMaskCount, "syncwarp_activemask_count", "bar.warp.sync",
     "bar.warp.sync expects popc(__activemask()) arrivals instead of the non-exited membermask lanes"},

    {kBarSyncCountsExited, "barsync_counts_exited", "bar.sync",
     "bar.sync expects one arrival per thread of the block, exited threads included"},
    {kBarRoundedToWarps, "bar_rounded_to_warps", "bar.sync,bar.red.popc.u32,bar.red.and.pred,bar.red.or.pred",
     "block barrier's expected arrival count is rounded up to a whole number of warps"},
    {kBarCountOnce, "bar_count_once", "bar.sync,bar.red.popc.u32,bar.red.and.pred,bar.red.or.pred",
     "block barrier's expected arrival count is computed at first use and never updated when threads exit"},
    {kBarRedPopcExited, "barred_popc_exited", "bar.red.popc.u32",
     "bar.red.popc counts the predicates of exited threads too"},
    {kBarRedAndBit0, "barred_and_bit0", "bar.red.and.pred",
     "bar.red.and takes bit 0 of the predicate value instead of testing it for non-zero"},
    {kBarRedOrLowByte, "barred_or_low_byte", "bar.red.or.pred",
     "bar.red.or takes the predicate as a byte (low 8 bits) instead of the whole value"},
    {kBarRedNegateResult, "barred_negate_result", "bar.red.and.pred,bar.red.or.pred",
     "bar.red.and/or with !a negate the reduced result instead of each thread's operand"},
    {kBarRedPopcComplement, "barred_popc_complement", "bar.red.popc.u32",
     "bar.red.popc with !a computed as threads - popc(a), exited threads counted"},
    {kBarRedStaleVotes, "barred_stale_votes", "bar.red.popc.u32,bar.red.and.pred,bar.red.or.pred",
     "bar.red's per-warp vote words are not cleared on release, so votes of an earlier instruction leak in"},
    {kBarRedAndLastWarp, "barred_and_last_warp", "bar.red.and.pred",
     "bar.red.and requires all 32 lanes of every warp, so a partly filled last warp reads as false"},
    {kBarRedPopcShift32, "barred_popc_shift32", "bar.red.popc.u32",
     "bar.red.popc masks each warp's votes with (1 << n) - 1, which is 0 for a full warp (shift by 32)"},
    {kBarRedOrExited, "barred_or_exited", "bar.red.or.pred",
     "bar.red.or reads the predicates of exited threads too"},
};

static int bug = 0;
static bool B(Bug b) { return bug == b; }

// ---------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------

static uint32_t bit(int lane) { return 1u << lane; }

static uint64_t toU64(const json& v) {
    if (v.is_string()) {
        std::string s = v.get<std::string>();
        if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) return std::stoull(s.substr(2), nullptr, 16);
        return static_cast<uint64_t>(std::stoll(s, nullptr, 10));
    }
    if (v.is_boolean()) return v.get<bool>() ? 1 : 0;
    if (v.is_number_unsigned()) return v.get<uint64_t>();
    if (v.is_number_integer()) return static_cast<uint64_t>(v.get<int64_t>());
    if (v.is_number_float()) return static_cast<uint64_t>(static_cast<int64_t>(v.get<double>()));
    return 0;
}

static std::string hex32(uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%08llx", static_cast<unsigned long long>(v));
    return buf;
}

// Per-lane values given as one value for all lanes or as a list.
template <class T>
static std::vector<T> perLane(const json& v, size_t n, T fallback, T (*conv)(const json&)) {
    std::vector<T> out(n, fallback);
    if (v.is_null()) return out;
    if (v.is_array()) {
        for (size_t i = 0; i < n && i < v.size(); ++i) out[i] = conv(v[i]);
    } else {
        T x = conv(v);
        for (auto& o : out) o = x;
    }
    return out;
}

static int64_t toI64(const json& v) { return static_cast<int64_t>(toU64(v)); }
static int toInt(const json& v) { return static_cast<int>(toU64(v)); }

// Block thread sets: "none", "all", or ranges such as "1-5,7,12".
static std::vector<bool> parseRanges(const json& v, int threads) {
    std::vector<bool> out(threads, false);
    if (!v.is_string()) return out;
    std::string s = v.get<std::string>();
    if (s == "none" || s.empty()) return out;
    if (s == "all") { out.assign(threads, true); return out; }
    std::stringstream ss(s);
    std::string part;
    while (std::getline(ss, part, ',')) {
        if (part.empty()) continue;
        size_t dash = part.find('-');
        int lo = std::stoi(part.substr(0, dash));
        int hi = dash == std::string::npos ? lo : std::stoi(part.substr(dash + 1));
        for (int t = lo; t <= hi; ++t)
            if (t >= 0 && t < threads) out[t] = true;
    }
    return out;
}

// ---------------------------------------------------------------------------
// Instruction decoding
// ---------------------------------------------------------------------------

enum class Family { Match, Vote, Redux, Syncwarp, BarSync, BarRed };
enum class Op { MatchAny, MatchAll, VoteAll, VoteAny, VoteUni, VoteBallot,
                AddU32, AddS32, MinU32, MinS32, MaxU32, MaxS32, And, Or, Xor,
                Syncwarp, BarSync, RedPopc, RedAnd, RedOr, Unknown };

struct Instr {
    std::string form;
    Family family = Family::Match;
    Op op = Op::Unknown;
    bool b64 = false;
    bool negate = false;
};

static Instr decode(const std::string& form, const std::string& text) {
    Instr in;
    in.form = form;
    in.negate = text.find('!') != std::string::npos;
    static const std::map<std::string, std::pair<Family, Op>> table = {
        {"match.any.sync.b32", {Family::Match, Op::MatchAny}},
        {"match.any.sync.b64", {Family::Match, Op::MatchAny}},
        {"match.all.sync.b32", {Family::Match, Op::MatchAll}},
        {"match.all.sync.b64", {Family::Match, Op::MatchAll}},
        {"vote.sync.all.pred", {Family::Vote, Op::VoteAll}},
        {"vote.sync.any.pred", {Family::Vote, Op::VoteAny}},
        {"vote.sync.uni.pred", {Family::Vote, Op::VoteUni}},
        {"vote.sync.ballot.b32", {Family::Vote, Op::VoteBallot}},
        {"redux.sync.add.u32", {Family::Redux, Op::AddU32}},
        {"redux.sync.add.s32", {Family::Redux, Op::AddS32}},
        {"redux.sync.min.u32", {Family::Redux, Op::MinU32}},
        {"redux.sync.min.s32", {Family::Redux, Op::MinS32}},
        {"redux.sync.max.u32", {Family::Redux, Op::MaxU32}},
        {"redux.sync.max.s32", {Family::Redux, Op::MaxS32}},
        {"redux.sync.and.b32", {Family::Redux, Op::And}},
        {"redux.sync.or.b32", {Family::Redux, Op::Or}},
        {"redux.sync.xor.b32", {Family::Redux, Op::Xor}},
        {"bar.warp.sync", {Family::Syncwarp, Op::Syncwarp}},
        {"bar.sync", {Family::BarSync, Op::BarSync}},
        {"bar.red.popc.u32", {Family::BarRed, Op::RedPopc}},
        {"bar.red.and.pred", {Family::BarRed, Op::RedAnd}},
        {"bar.red.or.pred", {Family::BarRed, Op::RedOr}},
    };
    auto it = table.find(form);
    if (it != table.end()) {
        in.family = it->second.first;
        in.op = it->second.second;
    }
    in.b64 = form.size() >= 3 && form.compare(form.size() - 3, 3, "b64") == 0;
    return in;
}

// ---------------------------------------------------------------------------
// Warp state: slot array and rendezvous objects, kept for the whole vector
// ---------------------------------------------------------------------------

struct Rendezvous {
    uint32_t expected = 0;     // arrivals this generation must see before release
    uint32_t arrived = 0;      // arrival counter
    uint32_t arrivedMask = 0;  // who has arrived in this generation
    uint64_t generation = 0;
};

struct Warp {
    std::array<uint64_t, 32> slot{};            // operand each lane published last
    uint32_t ballotWord = 0;                    // shared vote word
    std::map<uint64_t, Rendezvous> rendezvous;  // keyed by membermask
    Rendezvous warpBarrier;                     // single per-warp barrier (see kSyncwarpSingleBarrier)
};

// One round's state of a warp.
struct WarpRound {
    uint32_t exited = 0, inactive = 0, executing = 0;
    std::array<uint32_t, 32> mask{};
    std::array<uint64_t, 32> a{};
    std::array<int, 32> site{};
};

static WarpRound parseWarpRound(const json& r) {
    WarpRound w;
    w.exited = static_cast<uint32_t>(toU64(r.value("exited", json("0x0"))));
    w.inactive = static_cast<uint32_t>(toU64(r.value("inactive", json("0x0"))));
    w.executing = ~w.exited & ~w.inactive;
    auto masks = perLane<uint64_t>(r.value("mask", json("0xffffffff")), 32, 0xffffffffu, toU64);
    auto as = perLane<uint64_t>(r.value("a", json(0)), 32, 0, toU64);
    auto sites = perLane<int>(r.value("site", json(0)), 32, 0, toInt);
    for (int i = 0; i < 32; ++i) {
        w.mask[i] = static_cast<uint32_t>(masks[i]);
        w.a[i] = as[i];
        w.site[i] = sites[i];
    }
    return w;
}

static int lowestLane(uint32_t m) { return m ? std::countr_zero(m) : 0; }

// Lanes converged at a call site (what __activemask() gives inside that branch).
static uint32_t siteActive(const WarpRound& r, int site) {
    uint32_t m = 0;
    for (int j = 0; j < 32; ++j)
        if ((r.executing & bit(j)) && r.site[j] == site) m |= bit(j);
    return m;
}

static bool siteConvergedBug(const Instr& in) {
    return (B(kVoteAnySiteConverged) && in.op == Op::VoteAny) ||
           (B(kReduxAddU32SiteConverged) && in.op == Op::AddU32);
}

// Lanes whose operands lane `lane` reduces over: the non-exited lanes of its membermask.
static uint32_t members(const WarpRound& r, int lane, const Instr& in) {
    if (siteConvergedBug(in)) return r.mask[lane] & siteActive(r, r.site[lane]);
    return r.mask[lane] & ~r.exited;
}

static uint64_t rendezvousKey(const WarpRound& r, int lane, const Instr& in) {
    uint64_t key = r.mask[lane];
    if ((B(kSyncwarpSiteKeyed) && in.op == Op::Syncwarp) || siteConvergedBug(in))
        key |= static_cast<uint64_t>(static_cast<uint32_t>(r.site[lane]) + 1) << 32;
    return key;
}

static uint32_t expectedArrivals(const WarpRound& r, int lane, const Instr& in) {
    uint32_t m = r.mask[lane] & ~r.exited;
    if (B(kSyncwarpCountsExited) && in.op == Op::Syncwarp) m = r.mask[lane];
    if (B(kSyncwarpActiveMaskCount) && in.op == Op::Syncwarp) m = r.executing;
    if (siteConvergedBug(in)) m = members(r, lane, in);
    return static_cast<uint32_t>(std::popcount(m));
}

// Value a lane publishes into its slot.
static uint64_t publishedValue(const WarpRound& r, int lane, const Instr& in) {
    uint64_t v = r.a[lane];
    switch (in.family) {
    case Family::Match:
        if (!in.b64) v &= 0xffffffffu;
        if (B(kMatchB64Low32) && in.b64) v = static_cast<uint32_t>(v);
        return v;
    case Family::Vote: {
        bool p = v != 0;
        if (B(kBallotPredBit0) && in.op == Op::VoteBallot) p = (v & 1) != 0;
        bool negateOperand = in.negate;
        if (B(kVoteNegateResult) && (in.op == Op::VoteAll || in.op == Op::VoteAny)) negateOperand = false;
        if (B(kBallotNegateResult) && in.op == Op::VoteBallot) negateOperand = false;
        return (p != negateOperand) ? 1 : 0;
    }
    case Family::Redux:
        v &= 0xffffffffu;
        if (B(kReduxMinU32SignExtend) && in.op == Op::MinU32)
            v = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(v)));
        return v;
    default:
        return v;
    }
}

// Every executing lane publishes and arrives; returns the lanes released.
static uint32_t arriveAll(Warp& w, const WarpRound& r, const Instr& in) {
    uint32_t released = 0;
    for (int lane = 0; lane < 32; ++lane) {
        if (!(r.executing & bit(lane))) continue;
        // publish the operand
        uint64_t v = publishedValue(r, lane, in);
        w.slot[lane] = v;
        if (in.op == Op::VoteBallot) {
            int pos = lane;
            if (B(kBallotLaneOffByOne)) pos = lane + 1;
            uint32_t b = pos < 32 ? bit(pos) : 0;
            if (v) w.ballotWord |= b;
            else if (!B(kBallotStaleBits)) w.ballotWord &= ~b;
        }
        // arrive at the rendezvous
        bool single = B(kSyncwarpSingleBarrier) && in.op == Op::Syncwarp;
        Rendezvous& rv = single ? w.warpBarrier : w.rendezvous[rendezvousKey(r, lane, in)];
        if (rv.arrived == 0) rv.expected = expectedArrivals(r, lane, in);
        rv.arrived++;
        rv.arrivedMask |= bit(lane);
        if (rv.arrived == rv.expected) {
            released |= rv.arrivedMask;
            rv.arrived = 0;
            rv.arrivedMask = 0;
            rv.generation++;
        }
    }
    return released;
}

// ---------------------------------------------------------------------------
// Per-family result computation (each released lane reads the slots)
// ---------------------------------------------------------------------------

struct LaneResult {
    std::array<std::optional<uint64_t>, 32> d{};
    std::array<std::optional<int>, 32> p{};
};

static bool matchEqual(uint64_t x, uint64_t y, const Instr& in) {
    if (B(kMatchAnyB64Double) && in.op == Op::MatchAny && in.b64)
        return std::bit_cast<double>(x) == std::bit_cast<double>(y);
    if (B(kMatchAllB32Float) && in.op == Op::MatchAll && !in.b64)
        return std::bit_cast<float>(static_cast<uint32_t>(x)) == std::bit_cast<float>(static_cast<uint32_t>(y));
    return x == y;
}

static void matchFamily(const Warp& w, const WarpRound& r, const Instr& in, uint32_t released, LaneResult& out) {
    for (int i = 0; i < 32; ++i) {
        if (!(released & bit(i))) continue;
        uint32_t P = members(r, i, in);
        if (in.op == Op::MatchAny) {
            if (B(kMatchAnyExitedSlot)) P = r.mask[i];
            if (B(kMatchAnyLowestMask)) P = r.mask[lowestLane(r.executing)] & ~r.exited;
            uint32_t d = 0;
            for (int j = 0; j < 32; ++j) {
                if (!(P & bit(j))) continue;
                if (B(kMatchAnySelfExcluded) && j == i) continue;
                if (matchEqual(w.slot[j], w.slot[i], in)) d |= bit(j);
            }
            out.d[i] = d;
        } else {
            int ref = lowestLane(P);
            if (B(kMatchAllRefLane0)) ref = 0;
            bool same = true;
            for (int j = 0; j < 32; ++j)
                if ((P & bit(j)) && !matchEqual(w.slot[j], w.slot[ref], in)) same = false;
            uint32_t d = P;
            if (B(kMatchAllDIncludesExited)) d = r.mask[i];
            if (B(kMatchAllActiveMask)) d = r.executing;
            out.d[i] = same ? d : 0;
            out.p[i] = same ? 1 : 0;
        }
    }
}

static void voteFamily(const Warp& w, const WarpRound& r, const Instr& in, uint32_t released, LaneResult& out) {
    for (int i = 0; i < 32; ++i) {
        if (!(released & bit(i))) continue;
        uint32_t P = members(r, i, in);
        if (B(kVoteAnyActiveMask) && in.op == Op::VoteAny) P = r.executing;
        if (B(kBallotActiveMask) && in.op == Op::VoteBallot) P = r.executing;
        uint32_t ballot = 0;
        for (int j = 0; j < 32; ++j)
            if ((P & bit(j)) && w.slot[j]) ballot |= bit(j);
        uint64_t d = 0;
        switch (in.op) {
        case Op::VoteAll:
            d = ballot == P;
            if (B(kVoteAllPopcMask)) d = std::popcount(ballot) == std::popcount(r.mask[i]);
            if (B(kVoteNegateResult) && in.negate) d = !d;
            break;
        case Op::VoteAny:
            d = ballot != 0;
            if (B(kVoteNegateResult) && in.negate) d = !d;
            break;
        case Op::VoteUni: {
            d = ballot == 0 || ballot == P;
            if (B(kVoteUniAsAll)) d = ballot == P;
            if (B(kVoteUniBallotVsMask)) d = ballot == 0 || ballot == r.mask[i];
            if (B(kVoteUniRefLane0)) {
                bool same = true;
                for (int j = 0; j < 32; ++j)
                    if ((P & bit(j)) && w.slot[j] != w.slot[0]) same = false;
                d = same;
            }
            break;
        }
        case Op::VoteBallot:
            d = w.ballotWord & P;
            if (B(kBallotNegateResult) && in.negate) d = static_cast<uint32_t>(~d);
            break;
        default:
            break;
        }
        out.d[i] = d;
    }
}

static void reduxFamily(const Warp& w, const WarpRound& r, const Instr& in, uint32_t released, LaneResult& out) {
    for (int i = 0; i < 32; ++i) {
        if (!(released & bit(i))) continue;
        uint32_t P = members(r, i, in);
        if (B(kReduxAndExitedSlot) && in.op == Op::And) P = r.mask[i];
        if (B(kReduxMaxS32ExitedSlot) && in.op == Op::MaxS32) P = r.mask[i];
        if (B(kReduxXorActiveMask) && in.op == Op::Xor) P = r.executing;
        if (B(kReduxOrLowestMask) && in.op == Op::Or) P = r.mask[lowestLane(r.executing)] & ~r.exited;
        uint64_t d = 0;
        switch (in.op) {
        case Op::AddU32: {
            uint64_t acc = 0;
            const int lanes = B(kReduxAddU32LoopBound) ? 31 : 32;
            for (int j = 0; j < lanes; ++j)
                if (P & bit(j)) acc += w.slot[j];
            d = static_cast<uint32_t>(acc);
            break;
        }
        case Op::AddS32: {
            int64_t acc = 0;
            for (int j = 0; j < 32; ++j)
                if (P & bit(j)) acc += static_cast<int32_t>(static_cast<uint32_t>(w.slot[j]));
            if (B(kReduxAddS32Saturate)) {
                if (acc > std::numeric_limits<int32_t>::max()) acc = std::numeric_limits<int32_t>::max();
                if (acc < std::numeric_limits<int32_t>::min()) acc = std::numeric_limits<int32_t>::min();
            }
            d = static_cast<uint32_t>(acc);
            break;
        }
        case Op::MinU32: {
            if (B(kReduxMinU32SignExtend)) {
                int64_t acc = std::numeric_limits<int64_t>::max();
                for (int j = 0; j < 32; ++j)
                    if ((P & bit(j)) && static_cast<int64_t>(w.slot[j]) < acc) acc = static_cast<int64_t>(w.slot[j]);
                d = static_cast<uint32_t>(acc);
                break;
            }
            uint32_t acc = B(kReduxMinU32IdentityIntMax) ? 0x7fffffffu : 0xffffffffu;
            for (int j = 0; j < 32; ++j)
                if ((P & bit(j)) && static_cast<uint32_t>(w.slot[j]) < acc) acc = static_cast<uint32_t>(w.slot[j]);
            d = acc;
            break;
        }
        case Op::MinS32: {
            int32_t acc = std::numeric_limits<int32_t>::max();
            for (int j = 0; j < 32; ++j) {
                if (!(P & bit(j))) continue;
                int32_t v = static_cast<int32_t>(static_cast<uint32_t>(w.slot[j]));
                bool less = B(kReduxMinS32Unsigned) ? static_cast<uint32_t>(v) < static_cast<uint32_t>(acc) : v < acc;
                if (less) acc = v;
            }
            d = static_cast<uint32_t>(acc);
            break;
        }
        case Op::MaxU32: {
            uint32_t acc = 0;
            for (int j = 0; j < 32; ++j) {
                if (!(P & bit(j))) continue;
                uint32_t v = static_cast<uint32_t>(w.slot[j]);
                bool greater = B(kReduxMaxU32Signed) ? static_cast<int32_t>(v) > static_cast<int32_t>(acc) : v > acc;
                if (greater) acc = v;
            }
            d = acc;
            break;
        }
        case Op::MaxS32: {
            int32_t acc = B(kReduxMaxS32IdentityZero) ? 0 : std::numeric_limits<int32_t>::min();
            for (int j = 0; j < 32; ++j) {
                if (!(P & bit(j))) continue;
                int32_t v = static_cast<int32_t>(static_cast<uint32_t>(w.slot[j]));
                if (v > acc) acc = v;
            }
            d = static_cast<uint32_t>(acc);
            break;
        }
        case Op::And: {
            uint32_t acc = B(kReduxAndIdentity) ? 0x7fffffffu : 0xffffffffu;
            for (int j = 0; j < 32; ++j)
                if (P & bit(j)) acc &= static_cast<uint32_t>(w.slot[j]);
            d = acc;
            break;
        }
        case Op::Or: {
            uint32_t acc = 0;
            for (int j = 0; j < 32; ++j)
                if (P & bit(j)) acc |= static_cast<uint32_t>(w.slot[j]);
            d = acc;
            break;
        }
        case Op::Xor: {
            uint32_t acc = B(kReduxXorOwnTwice) ? static_cast<uint32_t>(w.slot[i]) : 0;
            for (int j = 0; j < 32; ++j)
                if (P & bit(j)) acc ^= static_cast<uint32_t>(w.slot[j]);
            d = acc;
            break;
        }
        default:
            break;
        }
        out.d[i] = d;
    }
}

static void syncwarpFamily(const WarpRound&, uint32_t released, LaneResult& out) {
    for (int i = 0; i < 32; ++i)
        if (released & bit(i)) out.d[i] = 1;
}

// Run one round of a warp-level instruction; returns the JSON for the round.
static json runWarpRound(Warp& w, const json& round, const Instr& in, bool& hang) {
    WarpRound r = parseWarpRound(round);
    uint32_t released = arriveAll(w, r, in);
    json res = json::object();
    if ((released & r.executing) != r.executing) {
        hang = true;
        res["hang"] = true;
        return res;
    }
    LaneResult out;
    switch (in.family) {
    case Family::Match: matchFamily(w, r, in, released, out); break;
    case Family::Vote: voteFamily(w, r, in, released, out); break;
    case Family::Redux: reduxFamily(w, r, in, released, out); break;
    case Family::Syncwarp: syncwarpFamily(r, released, out); break;
    default: break;
    }
    json d = json::array(), p = json::array();
    for (int i = 0; i < 32; ++i) {
        if (!out.d[i]) d.push_back(nullptr);
        else if (in.family == Family::Syncwarp) d.push_back(1);
        else d.push_back(hex32(*out.d[i]));
        if (out.p[i]) p.push_back(*out.p[i]);
        else p.push_back(nullptr);
    }
    res["d"] = d;
    if (in.op == Op::MatchAll) res["p"] = p;
    return res;
}

// ---------------------------------------------------------------------------
// Block barrier: one CTA-wide barrier 0 with per-warp vote words
// ---------------------------------------------------------------------------

struct Cta {
    int threads = 0;
    uint32_t expected = 0, arrived = 0;
    uint64_t generation = 0;
    bool expectedKnown = false;
    std::vector<uint32_t> voteWord, arrivedWord;
};

static bool blockPredicate(int64_t a, const Instr& in) {
    bool p = a != 0;
    if (B(kBarRedAndBit0) && in.op == Op::RedAnd) p = (a & 1) != 0;
    if (B(kBarRedOrLowByte) && in.op == Op::RedOr) p = (a & 0xff) != 0;
    bool negateOperand = in.negate;
    if (B(kBarRedNegateResult) && (in.op == Op::RedAnd || in.op == Op::RedOr)) negateOperand = false;
    if (B(kBarRedPopcComplement) && in.op == Op::RedPopc) negateOperand = false;
    return p != negateOperand;
}

static uint32_t warpValidMask(int threads, int warp) {
    int n = std::min(32, threads - 32 * warp);
    if (B(kBarRedPopcShift32)) return (1u << (n % 32)) - 1u;  // shift amount wraps like the hardware shifter
    return n >= 32 ? 0xffffffffu : (1u << n) - 1u;
}

// Reduced value of barrier 0 at release.
static uint64_t blockReduce(const Cta& c, const Instr& in, const std::vector<bool>& exited,
                            const std::vector<int64_t>& a) {
    int warps = (c.threads + 31) / 32;
    switch (in.op) {
    case Op::RedPopc: {
        uint64_t count = 0;
        for (int w = 0; w < warps; ++w) count += std::popcount(c.voteWord[w] & warpValidMask(c.threads, w));
        if (B(kBarRedPopcExited))
            for (int t = 0; t < c.threads; ++t)
                if (exited[t] && blockPredicate(a[t], in)) count++;
        if (B(kBarRedPopcComplement) && in.negate) count = static_cast<uint64_t>(c.threads) - count;
        return static_cast<uint32_t>(count);
    }
    case Op::RedAnd: {
        bool all = true;
        for (int w = 0; w < warps; ++w) {
            uint32_t need = c.arrivedWord[w];
            if (B(kBarRedAndLastWarp)) {
                need = 0xffffffffu;
                for (int l = 0; l < 32; ++l)
                    if (32 * w + l < c.threads && exited[32 * w + l]) need &= ~bit(l);
            }
            if ((c.voteWord[w] & need) != need) all = false;
        }
        if (B(kBarRedNegateResult) && in.negate) all = !all;
        return all ? 1 : 0;
    }
    case Op::RedOr: {
        bool any = false;
        for (int w = 0; w < warps; ++w)
            if (c.voteWord[w]) any = true;
        if (B(kBarRedOrExited))
            for (int t = 0; t < c.threads; ++t)
                if (exited[t] && blockPredicate(a[t], in)) any = true;
        if (B(kBarRedNegateResult) && in.negate) any = !any;
        return any ? 1 : 0;
    }
    default:
        return 0;
    }
}

static uint32_t blockExpected(const Cta& c, const Instr& in, const std::vector<bool>& exited) {
    uint32_t live = 0;
    for (int t = 0; t < c.threads; ++t)
        if (!exited[t]) live++;
    if (B(kBarSyncCountsExited) && in.op == Op::BarSync) live = static_cast<uint32_t>(c.threads);
    if (B(kBarRoundedToWarps)) live = (live + 31) / 32 * 32;
    return live;
}

static json runBlockRound(Cta& c, const json& round, const Instr& in, bool& hang) {
    int threads = round.value("threads", 32);
    if (threads < 1) threads = 1;
    if (threads > 4096) threads = 4096;
    int warps = (threads + 31) / 32;
    if (c.threads != threads) {
        c.threads = threads;
        c.voteWord.assign(warps, 0);
        c.arrivedWord.assign(warps, 0);
    }
    std::vector<bool> exited = parseRanges(round.value("exited", json("none")), threads);
    std::vector<bool> inactive = parseRanges(round.value("inactive", json("none")), threads);
    std::vector<int64_t> a = perLane<int64_t>(round.value("a", json(0)), threads, 0, toI64);

    std::vector<std::optional<uint64_t>> result(threads);
    std::vector<int> waiting;  // threads of the current generation
    for (int t = 0; t < threads; ++t) {
        if (exited[t] || inactive[t]) continue;
        if (c.arrived == 0) {
            if (!(B(kBarCountOnce) && c.expectedKnown)) c.expected = blockExpected(c, in, exited);
            c.expectedKnown = true;
        }
        if (in.family == Family::BarRed && blockPredicate(a[t], in)) c.voteWord[t / 32] |= bit(t % 32);
        c.arrivedWord[t / 32] |= bit(t % 32);
        c.arrived++;
        waiting.push_back(t);
        if (c.arrived == c.expected) {
            uint64_t v = in.family == Family::BarRed ? blockReduce(c, in, exited, a) : 1;
            for (int x : waiting) result[x] = v;
            waiting.clear();
            c.arrived = 0;
            c.generation++;
            std::fill(c.arrivedWord.begin(), c.arrivedWord.end(), 0);
            if (!B(kBarRedStaleVotes)) std::fill(c.voteWord.begin(), c.voteWord.end(), 0);
        }
    }
    json res = json::object();
    if (!waiting.empty()) {
        hang = true;
        res["hang"] = true;
        return res;
    }
    json d = json::array();
    for (int t = 0; t < threads; ++t) {
        if (!result[t]) d.push_back(nullptr);
        else if (in.family == Family::BarSync) d.push_back(1);
        else d.push_back(hex32(*result[t]));
    }
    res["d"] = d;
    return res;
}

// ---------------------------------------------------------------------------
// Driver
// ---------------------------------------------------------------------------

static void watchdogReset(Warp& w) {
    for (auto& [key, rv] : w.rendezvous) {
        if (rv.arrived == 0) continue;
        rv.arrived = 0;
        rv.arrivedMask = 0;
        rv.generation++;
    }
    if (w.warpBarrier.arrived != 0) {
        w.warpBarrier.arrived = 0;
        w.warpBarrier.arrivedMask = 0;
        w.warpBarrier.generation++;
    }
}

static void watchdogReset(Cta& c) {
    if (c.arrived == 0) return;
    c.arrived = 0;
    c.generation++;
    std::fill(c.arrivedWord.begin(), c.arrivedWord.end(), 0);
    if (!B(kBarRedStaleVotes)) std::fill(c.voteWord.begin(), c.voteWord.end(), 0);
}

static json runVector(const json& v) {
    json out = json::object();
    out["id"] = v.at("id");
    Instr in = decode(v.value("form", std::string()), v.value("instruction", std::string()));
    if (in.op == Op::Unknown) {
        out["skipped"] = true;
        return out;
    }
    const json& rounds = v.at("rounds");
    Warp warp;
    Cta cta;
    std::vector<json> results;
    for (const json& round : rounds) {
        bool hang = false;
        json r = (in.family == Family::BarSync || in.family == Family::BarRed) ? runBlockRound(cta, round, in, hang)
                                                                               : runWarpRound(warp, round, in, hang);
        results.push_back(r);
        if (hang) {
            // The harness's watchdog caught the time-out: it cancels the pending
            // barrier generation and relaunches the stuck lanes at the next instruction.
            watchdogReset(warp);
            watchdogReset(cta);
        }
    }
    if (rounds.size() <= 1 && results.size() == 1) {
        for (auto& [k, val] : results[0].items()) out[k] = val;
    } else {
        out["rounds"] = results;
    }
    return out;
}

static void listBugs() {
    for (int n = 1; n < kBugCount; ++n) {
        const BugInfo& b = kBugTable[n - 1];
        std::printf("%d\t%s\t%s\t%s\n", n, b.key, b.forms, b.description);
    }
}

int main(int argc, char** argv) {
    static_assert(sizeof(kBugTable) / sizeof(kBugTable[0]) == kBugCount - 1, "bug table out of step with enum");
    for (int n = 1; n < kBugCount; ++n)
        if (kBugTable[n - 1].id != n) {
            std::fprintf(stderr, "bug table entry %d out of order\n", n);
            return 70;
        }
    if (argc == 2 && std::strcmp(argv[1], "--list") == 0) {
        listBugs();
        return 0;
    }
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s --list | %s VECTORS.jsonl N\n", argv[0], argv[0]);
        return 64;
    }
    bug = std::atoi(argv[2]);
    if (bug < 0 || bug >= kBugCount) {
        std::fprintf(stderr, "no such bug: %s (0..%d)\n", argv[2], kBugCount - 1);
        return 64;
    }
    std::ifstream f(argv[1]);
    if (!f) {
        std::fprintf(stderr, "cannot open %s\n", argv[1]);
        return 66;
    }
    std::cout << json{{"schema", "warpspec-results/1"}}.dump() << "\n";
    std::string line;
    while (std::getline(f, line)) {
        if (line.empty()) continue;
        json v;
        try {
            v = json::parse(line);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "bad JSON line: %s\n", e.what());
            return 65;
        }
        if (v.contains("schema")) continue;
        json out;
        try {
            out = runVector(v);
        } catch (const std::exception& e) {
            out = json{{"id", v.value("id", json(nullptr))}, {"skipped", true}};
        }
        std::cout << out.dump() << "\n";
    }
    return 0;
}
