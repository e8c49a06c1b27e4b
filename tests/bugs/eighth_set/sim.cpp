// sim.cpp - a cycle-level model of the warp-level synchronization and
// communication units of an sm_90-class streaming multiprocessor, with a
// catalogue of deliberately injected model bugs.
//
// The model was written from the PTX ISA sections on match.sync, vote.sync,
// redux.sync, bar.warp.sync and bar/barrier, the CUDA programming guide
// sections on the warp match functions and the synchronization functions,
// and the two file formats (warpspec-vectors/1 in, warpspec-results/1 out)
// alone.
//
// Micro-architecture being modelled
// ---------------------------------
//  * A warp of 32 lanes is processed by an 8-lane SIMD datapath in four
//    passes (pass 0: lanes 0-7, pass 1: 8-15, pass 2: 16-23, pass 3: 24-31).
//    Every unit produces one partial result per pass and merges the partials
//    at the end of the instruction.
//  * Lanes that name the same membermask form a "sync group"; the warp-sync
//    gate holds a group until every non-exited lane of its membermask has
//    arrived.  A group that can never complete trips the watchdog: the round
//    is reported as a hang and all unit state is reset.
//  * Match unit: a CAM of distinct values (tag = two 32-bit beats, so a .b64
//    operand moves as a low beat then a high beat) with a lane vector per
//    entry; every lane records the entry index (class id) it hit.
//  * Vote unit: a 32-bit ballot register assembled one byte per pass, then
//    masked per lane with its membermask.
//  * Reduction unit: per-pass partials over 8 lanes (idle lanes feed the
//    operation's identity), merged by a fixed left-to-right tree into an
//    accumulator register.  min/max use a bit-serial MSB-first comparator.
//  * Convergence barrier (bar.warp.sync): a per-warp arrival register and an
//    expected-mask register.
//  * Block barrier table (bar.sync / bar.red): per CTA, an arrival counter,
//    an expected-count register (block thread count less exited threads) and
//    reduction accumulators for bar.red.{popc,and,or}.
//
// Usage
//   sim --list                 one line per bug: N<TAB>key<TAB>forms<TAB>description
//   sim VECTORS.jsonl N        results for every vector with bug N active
//                              (N = 0: the correct model)

#include <nlohmann/json.hpp>

#include <array>
#include <bit>
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

// ---------------------------------------------------------------------------
// Bug catalogue
// ---------------------------------------------------------------------------

enum Bug : int {
    NONE = 0,
    // match unit
    MATCH_CAM_8_ENTRIES = 1,
    MATCH_ANY_B64_LO_BEAT_ONLY,
    MATCH_ALL_B64_HI_BEAT_ONLY,
    MATCH_B64_BEATS_SWAPPED_UPPER_HALF,
    MATCH_EXITED_LANES_IN_CAM,
    MATCH_ALL_D_KEEPS_EXITED,
    MATCH_CAM_NOT_FLUSHED_PER_GROUP,
    MATCH_ALL_PER_PASS_COMPARE,
    MATCH_ANY_EARLY_WRITEBACK,
    MATCH_SITE_SPLIT,
    // vote unit
    VOTE_BALLOT_ACCUMULATES,
    VOTE_BALLOT_IDLE_PASS_STALE,
    VOTE_BALLOT_UNMASKED,
    VOTE_BALLOT_NEGATE_LATE,
    VOTE_PRED_BIT0,
    VOTE_ALL_NEGATE_AFTER_REDUCE,
    VOTE_ANY_WHOLE_REGISTER,
    VOTE_ALL_READS_EXITED,
    VOTE_UNI_TRUE_ONLY,
    VOTE_BALLOT_PASS3_SHIFT,
    VOTE_ALL_PASS3_DROPPED,
    VOTE_SITE_SPLIT,
    // reduction unit
    REDUX_ADD_CARRY_LOST,
    REDUX_ADD_S32_SATURATES,
    REDUX_MINMAX_U32_UPPER16,
    REDUX_MINMAX_S32_NO_SIGN_FLIP,
    REDUX_MAX_S32_IDENTITY_ZERO,
    REDUX_MIN_U32_IDENTITY_SIGNED,
    REDUX_AND_IDLE_PASS_ZERO,
    REDUX_XOR_PASS0_TWICE,
    REDUX_OR_LANE8_DROPPED,
    REDUX_ADD_LANE23_TWICE,
    REDUX_ANDOR_READS_EXITED,
    REDUX_MAX_U32_PASS3_WRITEBACK,
    REDUX_ACC_NOT_CLEARED,
    REDUX_SITE_SPLIT,
    // convergence barrier (bar.warp.sync)
    BWS_EXPECTED_KEEPS_EXITED,
    BWS_RELEASE_FROM_LAST_LANE,
    BWS_EXPECTED_NOT_CLEARED,
    BWS_EXIT_BITS_PER_PASS,
    BWS_SITE_SPLIT,
    // block barrier table (bar.sync, bar.red)
    CTA_EXITED_WARP_GRANULARITY,
    CTA_EXPECTED_ROUNDED_TO_WARPS,
    CTA_EXPECTED_NOT_RELOADED,
    CTA_POPC_ACC_8BIT,
    CTA_POPC_ACC_NOT_CLEARED,
    CTA_AND_ACC_NOT_RESET,
    CTA_OR_NEGATE_AFTER_REDUCE,
    CTA_POPC_COUNTS_EXITED,
    CTA_PRED_POSITIVE_ONLY,
    CTA_POPC_NEGATE_FROM_THREADS,
    CTA_AND_SKIPS_WARPS_WITH_EXITS,
    CTA_ARRIVAL_COUNTER_10BIT,
    BUG_COUNT_PLUS_ONE
};

struct BugInfo {
    Bug id;
    const char* key;
    const char* forms;
    const char* description;
};

#define MATCH_ANY "match.any.sync.b32,match.any.sync.b64"
#define MATCH_ALL "match.all.sync.b32,match.all.sync.b64"
#define MATCH_FORMS MATCH_ANY "," MATCH_ALL
#define VOTE_FORMS "vote.sync.all.pred,vote.sync.any.pred,vote.sync.uni.pred,vote.sync.ballot.b32"
#define REDUX_FORMS                                                                      \
    "redux.sync.add.u32,redux.sync.add.s32,redux.sync.min.u32,redux.sync.min.s32,"       \
    "redux.sync.max.u32,redux.sync.max.s32,redux.sync.and.b32,redux.sync.or.b32,"        \
    "redux.sync.xor.b32"
#define CTA_RED "bar.red.popc.u32,bar.red.and.pred,bar.red.or.pred"
#define CTA_FORMS "bar.sync," CTA_RED

static const BugInfo kBugs[] = {
    {MATCH_CAM_8_ENTRIES, "match_cam_8_entries", MATCH_ANY,
     "the match CAM has only 8 entries; a new class arriving at a full CAM overwrites an entry round-robin and the evicted class is lost"},
    {MATCH_ANY_B64_LO_BEAT_ONLY, "match_any_b64_lo_beat_only", "match.any.sync.b64",
     "match.any.b64 stores only the low 32-bit beat in the CAM tag; the high beat is dropped"},
    {MATCH_ALL_B64_HI_BEAT_ONLY, "match_all_b64_hi_beat_only", "match.all.sync.b64",
     "match.all.b64 compares only the high 32-bit beat; the low beat is never latched"},
    {MATCH_B64_BEATS_SWAPPED_UPPER_HALF, "match_b64_beats_swapped_upper_half",
     "match.any.sync.b64,match.all.sync.b64",
     "lanes 16-31 deliver the two beats of a .b64 operand in swapped order (high beat first)"},
    {MATCH_EXITED_LANES_IN_CAM, "match_exited_lanes_in_cam", MATCH_FORMS,
     "exited lanes of the membermask are still read and entered into the CAM"},
    {MATCH_ALL_D_KEEPS_EXITED, "match_all_d_keeps_exited", MATCH_ALL,
     "match.all writes the raw membermask to d without clearing the exited lanes"},
    {MATCH_CAM_NOT_FLUSHED_PER_GROUP, "match_cam_not_flushed_per_group", MATCH_FORMS,
     "the CAM is flushed once per instruction, not per membermask group: later groups see earlier groups' classes"},
    {MATCH_ALL_PER_PASS_COMPARE, "match_all_per_pass_compare", MATCH_ALL,
     "match.all checks uniformity inside each 8-lane pass only; values are never compared across passes"},
    {MATCH_ANY_EARLY_WRITEBACK, "match_any_early_writeback", MATCH_ANY,
     "match.any writes d at the end of the lane's own pass, missing equal lanes of later passes"},
    {MATCH_SITE_SPLIT, "match_site_split", MATCH_FORMS,
     "the match unit keys its groups by call site too: lanes from different branches are never compared"},

    {VOTE_BALLOT_ACCUMULATES, "vote_ballot_accumulates", VOTE_FORMS,
     "the ballot register is never cleared and each pass ORs its byte in: bits of the previous vote survive"},
    {VOTE_BALLOT_IDLE_PASS_STALE, "vote_ballot_idle_pass_stale", "vote.sync.ballot.b32",
     "the ballot register is written only for passes that have an executing lane; idle passes keep the previous vote's bits"},
    {VOTE_BALLOT_UNMASKED, "vote_ballot_unmasked", "vote.sync.ballot.b32",
     "ballot returns the whole warp's ballot register without masking it with the lane's membermask"},
    {VOTE_BALLOT_NEGATE_LATE, "vote_ballot_negate_late", "vote.sync.ballot.b32",
     "ballot with !a inverts the assembled register instead of each predicate, so exited membermask lanes read as 1"},
    {VOTE_PRED_BIT0, "vote_pred_bit0", VOTE_FORMS,
     "the vote unit takes bit 0 of the predicate operand instead of testing it for non-zero"},
    {VOTE_ALL_NEGATE_AFTER_REDUCE, "vote_all_negate_after_reduce", "vote.sync.all.pred",
     "vote.all with !a negates the reduced result (not-all) instead of each source predicate (none)"},
    {VOTE_ANY_WHOLE_REGISTER, "vote_any_whole_register", "vote.sync.any.pred",
     "vote.any tests the whole ballot register, so true predicates of other membermask groups count"},
    {VOTE_ALL_READS_EXITED, "vote_all_reads_exited", "vote.sync.all.pred",
     "vote.all also reads the stale predicate registers of exited membermask lanes"},
    {VOTE_UNI_TRUE_ONLY, "vote_uni_true_only", "vote.sync.uni.pred",
     "vote.uni reports uniform only when every predicate is true, forgetting the all-false case"},
    {VOTE_BALLOT_PASS3_SHIFT, "vote_ballot_pass3_shift", "vote.sync.ballot.b32",
     "the ballot byte of pass 3 (lanes 24-31) is written with the shift of pass 2 (bits 16-23)"},
    {VOTE_ALL_PASS3_DROPPED, "vote_all_pass3_dropped", "vote.sync.all.pred",
     "vote.all's AND tree merges passes 0-2 only; lanes 24-31 are never checked"},
    {VOTE_SITE_SPLIT, "vote_site_split", VOTE_FORMS,
     "the vote unit keeps one ballot per call site: lanes from different branches do not see each other"},

    {REDUX_ADD_CARRY_LOST, "redux_add_carry_lost", "redux.sync.add.u32,redux.sync.add.s32",
     "the pass-merge adder is two 16-bit halves and the carry out of bit 15 is lost"},
    {REDUX_ADD_S32_SATURATES, "redux_add_s32_saturates", "redux.sync.add.s32",
     "add.s32 saturates at INT32_MIN/INT32_MAX instead of wrapping to 32 bits"},
    {REDUX_MINMAX_U32_UPPER16, "redux_minmax_u32_upper16", "redux.sync.min.u32,redux.sync.max.u32",
     "the bit-serial min/max counter is 4 bits wide: only bits 31-16 are compared, ties go to the first operand"},
    {REDUX_MINMAX_S32_NO_SIGN_FLIP, "redux_minmax_s32_no_sign_flip", "redux.sync.min.s32,redux.sync.max.s32",
     "the bit-serial comparator does not invert the sign bit for .s32, so it orders values as unsigned"},
    {REDUX_MAX_S32_IDENTITY_ZERO, "redux_max_s32_identity_zero", "redux.sync.max.s32",
     "idle lanes feed 0 (the .u32 identity) into max.s32 instead of INT32_MIN"},
    {REDUX_MIN_U32_IDENTITY_SIGNED, "redux_min_u32_identity_signed", "redux.sync.min.u32",
     "idle lanes feed 0x7fffffff (the .s32 identity) into min.u32 instead of 0xffffffff"},
    {REDUX_AND_IDLE_PASS_ZERO, "redux_and_idle_pass_zero", "redux.sync.and.b32",
     "an 8-lane pass with no participating lane outputs 0 instead of all-ones to the and merge"},
    {REDUX_XOR_PASS0_TWICE, "redux_xor_pass0_twice", "redux.sync.xor.b32",
     "the xor merge tree takes the partial of pass 0 twice, cancelling lanes 0-7"},
    {REDUX_OR_LANE8_DROPPED, "redux_or_lane8_dropped", "redux.sync.or.b32",
     "the or datapath's pass 1 lane select starts at lane 9: lane 8 is never read"},
    {REDUX_ADD_LANE23_TWICE, "redux_add_lane23_twice", "redux.sync.add.u32",
     "add.u32 reads lane 23 in pass 2 and again in pass 3 (pass window overlap at 23/24)"},
    {REDUX_ANDOR_READS_EXITED, "redux_andor_reads_exited", "redux.sync.and.b32,redux.sync.or.b32",
     "and/or read the stale source registers of exited membermask lanes"},
    {REDUX_MAX_U32_PASS3_WRITEBACK, "redux_max_u32_pass3_writeback", "redux.sync.max.u32",
     "max.u32 writes lanes 24-31 from pass 3's partial instead of the merged result"},
    {REDUX_ACC_NOT_CLEARED, "redux_acc_not_cleared", REDUX_FORMS,
     "the reduction accumulator is not re-initialised between membermask groups of one instruction"},
    {REDUX_SITE_SPLIT, "redux_site_split", REDUX_FORMS,
     "the reduction unit keys its groups by call site too: lanes from different branches reduce separately"},

    {BWS_EXPECTED_KEEPS_EXITED, "bws_expected_keeps_exited", "bar.warp.sync",
     "the expected-mask register is loaded from the membermask without clearing exited lanes (waits forever)"},
    {BWS_RELEASE_FROM_LAST_LANE, "bws_release_from_last_lane", "bar.warp.sync",
     "the expected-mask register is overwritten by each arriving lane; only the last lane's group is released"},
    {BWS_EXPECTED_NOT_CLEARED, "bws_expected_not_cleared", "bar.warp.sync",
     "the expected-mask register is not cleared after a release and keeps the previous barrier's lanes"},
    {BWS_EXIT_BITS_PER_PASS, "bws_exit_bits_per_pass", "bar.warp.sync",
     "exit bits are latched only for passes that issue; exited lanes in an idle pass stay expected"},
    {BWS_SITE_SPLIT, "bws_site_split", "bar.warp.sync",
     "arrivals are counted per call site: lanes of one membermask arriving from different branches never meet"},

    {CTA_EXITED_WARP_GRANULARITY, "cta_exited_warp_granularity", CTA_FORMS,
     "the expected count subtracts exited threads only for warps that have exited entirely"},
    {CTA_EXPECTED_ROUNDED_TO_WARPS, "cta_expected_rounded_to_warps", CTA_FORMS,
     "the expected count is computed from the warp count times 32, not the block's thread count"},
    {CTA_EXPECTED_NOT_RELOADED, "cta_expected_not_reloaded", CTA_FORMS,
     "the expected-count register is loaded at the first barrier only and never reloaded"},
    {CTA_POPC_ACC_8BIT, "cta_popc_acc_8bit", "bar.red.popc.u32",
     "the bar.red.popc accumulator is 8 bits wide and wraps at 256"},
    {CTA_POPC_ACC_NOT_CLEARED, "cta_popc_acc_not_cleared", "bar.red.popc.u32",
     "the bar.red.popc accumulator is not cleared when the barrier releases"},
    {CTA_AND_ACC_NOT_RESET, "cta_and_acc_not_reset", "bar.red.and.pred",
     "the bar.red.and accumulator is not reset to true when the barrier releases"},
    {CTA_OR_NEGATE_AFTER_REDUCE, "cta_or_negate_after_reduce", "bar.red.or.pred",
     "bar.red.or with !a negates the reduced result instead of each thread's predicate"},
    {CTA_POPC_COUNTS_EXITED, "cta_popc_counts_exited", "bar.red.popc.u32",
     "bar.red.popc also counts the stale predicates of exited threads"},
    {CTA_PRED_POSITIVE_ONLY, "cta_pred_positive_only", CTA_RED,
     "bar.red tests its predicate operand as signed > 0, so negative values read as false"},
    {CTA_POPC_NEGATE_FROM_THREADS, "cta_popc_negate_from_threads", "bar.red.popc.u32",
     "bar.red.popc with !a returns block threads minus popc(a), counting exited threads as true"},
    {CTA_AND_SKIPS_WARPS_WITH_EXITS, "cta_and_skips_warps_with_exits", "bar.red.and.pred",
     "bar.red.and drops the warp partial of any warp that has an exited thread"},
    {CTA_ARRIVAL_COUNTER_10BIT, "cta_arrival_counter_10bit", CTA_FORMS,
     "the arrival counter is 10 bits wide, so a 1024-thread block never reaches its expected count"},
};

static int g_bug = 0;
static inline bool bug(Bug b) { return g_bug == static_cast<int>(b); }

// ---------------------------------------------------------------------------
// Machine constants and small helpers
// ---------------------------------------------------------------------------

constexpr int kWarp = 32;
constexpr int kPassWidth = 8;
constexpr int kPasses = kWarp / kPassWidth;
constexpr int kCamEntries = 32;

static inline uint32_t bit(int lane) { return 1u << lane; }
static inline bool has(uint32_t m, int lane) { return (m >> lane) & 1u; }
static inline uint32_t pass_bits(int p) { return 0xffu << (kPassWidth * p); }

[[noreturn]] static void die(const std::string& msg) {
    std::cerr << "sim: " << msg << "\n";
    std::exit(65);
}

static uint64_t parse_u64(const json& v) {
    if (v.is_number_unsigned()) return v.get<uint64_t>();
    if (v.is_number_integer()) return static_cast<uint64_t>(v.get<int64_t>());
    if (v.is_boolean()) return v.get<bool>() ? 1 : 0;
    if (v.is_number_float()) return static_cast<uint64_t>(static_cast<int64_t>(v.get<double>()));
    if (v.is_string()) {
        std::string s = v.get<std::string>();
        bool neg = false;
        if (!s.empty() && s[0] == '-') { neg = true; s = s.substr(1); }
        uint64_t x = 0;
        if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
            x = std::stoull(s.substr(2), nullptr, 16);
        else
            x = std::stoull(s, nullptr, 10);
        return neg ? (~x + 1) : x;
    }
    die("bad operand value");
}

// A lane set is a hex word ("0x..."), "none", or ranges ("0-9,12").
static std::vector<bool> parse_lane_set(const json& v, int n) {
    std::vector<bool> out(n, false);
    if (v.is_null()) return out;
    if (v.is_number()) {
        uint64_t w = parse_u64(v);
        for (int i = 0; i < n && i < 64; ++i) out[i] = (w >> i) & 1;
        return out;
    }
    std::string s = v.get<std::string>();
    if (s.empty() || s == "none") return out;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        uint64_t w = std::stoull(s.substr(2), nullptr, 16);
        for (int i = 0; i < n && i < 64; ++i) out[i] = (w >> i) & 1;
        return out;
    }
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ',')) {
        if (item.empty()) continue;
        auto dash = item.find('-');
        int lo = std::stoi(item.substr(0, dash));
        int hi = dash == std::string::npos ? lo : std::stoi(item.substr(dash + 1));
        for (int i = lo; i <= hi; ++i)
            if (i >= 0 && i < n) out[i] = true;
    }
    return out;
}

static std::vector<uint64_t> parse_per_lane(const json& round, const char* key, int n,
                                            uint64_t dflt) {
    std::vector<uint64_t> out(n, dflt);
    if (!round.contains(key)) return out;
    const json& v = round.at(key);
    if (v.is_array()) {
        for (int i = 0; i < n && i < static_cast<int>(v.size()); ++i) out[i] = parse_u64(v[i]);
    } else {
        uint64_t x = parse_u64(v);
        for (auto& o : out) o = x;
    }
    return out;
}

static std::string hex32(uint32_t x) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", x);
    return buf;
}

// ---------------------------------------------------------------------------
// Architectural state of one round
// ---------------------------------------------------------------------------

struct WarpState {
    uint32_t exited = 0;
    uint32_t inactive = 0;
    std::array<uint32_t, kWarp> mask{};
    std::array<uint64_t, kWarp> a{};
    std::array<int, kWarp> site{};
    uint32_t executing() const { return ~(exited | inactive); }
};

struct BlockState {
    int threads = 32;
    std::vector<bool> exited, inactive;
    std::vector<uint64_t> a;
};

struct RoundResult {
    bool hang = false;
    std::vector<std::optional<uint32_t>> d;
    std::vector<std::optional<int>> p;
    bool has_p = false;
};

// ---------------------------------------------------------------------------
// Hardware state that persists across instructions (rounds)
// ---------------------------------------------------------------------------

struct CamEntry {
    bool valid = false;
    uint32_t beat0 = 0, beat1 = 0;  // low beat, high beat
    uint32_t lanes = 0;
};

struct MatchUnit {
    std::array<CamEntry, kCamEntries> cam{};
    int used = 0;
    int rr = 0;  // replacement pointer
    void flush() {
        for (auto& e : cam) e = CamEntry{};
        used = 0;
        rr = 0;
    }
};

struct VoteUnit {
    uint32_t ballot = 0;
};

struct ReduxUnit {
    uint32_t acc = 0;
    bool acc_valid = false;
};

struct ConvBarrier {
    uint32_t arrival = 0;
    uint32_t expected = 0;
};

struct CtaBarrier {
    uint32_t arrive_cnt = 0;
    uint32_t expected_cnt = 0;
    bool expected_loaded = false;
    uint32_t popc_acc = 0;
    bool and_acc = true;
    bool or_acc = false;
};

struct Hardware {
    MatchUnit mu;
    VoteUnit vu;
    ReduxUnit ru;
    ConvBarrier cb;
    CtaBarrier bt;
    uint64_t cycle = 0;
    void reset() { *this = Hardware{}; }  // power-on / watchdog reset
};

// ---------------------------------------------------------------------------
// Warp-sync gate: forms the membermask groups and checks that each group can
// complete (every non-exited lane of the membermask arrived with that mask).
// ---------------------------------------------------------------------------

struct SyncGroup {
    uint32_t key = 0;          // membermask
    int site = 0;              // call site (only when the unit splits by site)
    uint32_t members = 0;      // executing lanes in this group
    uint32_t participants = 0; // lanes whose operands take part
};

static std::vector<SyncGroup> form_groups(const WarpState& w, bool split_by_site, bool& hang) {
    std::vector<SyncGroup> groups;
    const uint32_t exec = w.executing();
    for (int lane = 0; lane < kWarp; ++lane) {
        if (!has(exec, lane)) continue;
        bool found = false;
        for (auto& g : groups) {
            if (g.key == w.mask[lane] && (!split_by_site || g.site == w.site[lane])) {
                g.members |= bit(lane);
                found = true;
                break;
            }
        }
        if (!found) {
            SyncGroup g;
            g.key = w.mask[lane];
            g.site = split_by_site ? w.site[lane] : 0;
            g.members = bit(lane);
            groups.push_back(g);
        }
    }
    for (auto& g : groups) {
        uint32_t required = g.key & ~w.exited;
        if (split_by_site) {
            uint32_t other_site = 0;
            for (int lane = 0; lane < kWarp; ++lane)
                if (has(exec, lane) && w.site[lane] != g.site) other_site |= bit(lane);
            required &= ~other_site;
        }
        g.participants = required;
        if (required & ~g.members) hang = true;  // a peer never arrives
    }
    return groups;
}

// ---------------------------------------------------------------------------
// match.sync
// ---------------------------------------------------------------------------

static RoundResult run_match(Hardware& hw, const WarpState& w, bool is_all, bool b64) {
    RoundResult r;
    r.d.assign(kWarp, std::nullopt);
    r.p.assign(kWarp, std::nullopt);
    r.has_p = is_all;

    bool hang = false;
    auto groups = form_groups(w, bug(MATCH_SITE_SPLIT), hang);
    if (hang) { r.hang = true; return r; }

    const int capacity = bug(MATCH_CAM_8_ENTRIES) ? 8 : kCamEntries;
    hw.mu.flush();
    bool first_group = true;
    for (const auto& g : groups) {
        if (!(bug(MATCH_CAM_NOT_FLUSHED_PER_GROUP) && !first_group)) hw.mu.flush();
        first_group = false;

        uint32_t compare_set = g.participants;
        if (bug(MATCH_EXITED_LANES_IN_CAM)) compare_set |= g.key & w.exited;

        std::array<int, kWarp> class_id;
        class_id.fill(-1);
        std::array<uint32_t, kWarp> early_d{};
        bool pass_nonuniform = false;

        for (int p = 0; p < kPasses; ++p) {
            if (bug(MATCH_ALL_PER_PASS_COMPARE) && is_all) {
                if (hw.mu.used > 1) pass_nonuniform = true;
                hw.mu.flush();
            }
            for (int lane = kPassWidth * p; lane < kPassWidth * (p + 1); ++lane) {
                if (!has(compare_set, lane)) continue;
                // operand moves as beat 0 (low) then beat 1 (high)
                uint32_t beat0 = static_cast<uint32_t>(w.a[lane]);
                uint32_t beat1 = b64 ? static_cast<uint32_t>(w.a[lane] >> 32) : 0;
                if (bug(MATCH_B64_BEATS_SWAPPED_UPPER_HALF) && b64 && lane >= 16)
                    std::swap(beat0, beat1);
                if (bug(MATCH_ANY_B64_LO_BEAT_ONLY) && b64 && !is_all) beat1 = 0;
                if (bug(MATCH_ALL_B64_HI_BEAT_ONLY) && b64 && is_all) beat0 = 0;

                int idx = -1;
                for (int e = 0; e < capacity; ++e) {
                    const auto& ent = hw.mu.cam[e];
                    if (ent.valid && ent.beat0 == beat0 && ent.beat1 == beat1) { idx = e; break; }
                }
                if (idx < 0) {
                    if (hw.mu.used < capacity) {
                        idx = hw.mu.used++;
                    } else {
                        idx = hw.mu.rr;  // replacement: overwrite round-robin
                        hw.mu.rr = (hw.mu.rr + 1) % capacity;
                    }
                    hw.mu.cam[idx] = CamEntry{true, beat0, beat1, 0};
                }
                hw.mu.cam[idx].lanes |= bit(lane);
                class_id[lane] = idx;
            }
            hw.cycle++;
            // end of pass: early writeback snapshot
            for (int lane = kPassWidth * p; lane < kPassWidth * (p + 1); ++lane)
                if (class_id[lane] >= 0) early_d[lane] = hw.mu.cam[class_id[lane]].lanes;
        }
        if (bug(MATCH_ALL_PER_PASS_COMPARE) && is_all && hw.mu.used > 1) pass_nonuniform = true;

        if (!is_all) {
            for (int lane = 0; lane < kWarp; ++lane) {
                if (!has(g.members, lane)) continue;
                uint32_t d = 0;
                if (class_id[lane] >= 0) {
                    d = hw.mu.cam[class_id[lane]].lanes;
                    if (bug(MATCH_ANY_EARLY_WRITEBACK)) d = early_d[lane];
                }
                r.d[lane] = d;
            }
        } else {
            bool uniform = hw.mu.used <= 1;
            if (bug(MATCH_ALL_PER_PASS_COMPARE)) uniform = !pass_nonuniform;
            uint32_t all_mask = g.participants;
            if (bug(MATCH_ALL_D_KEEPS_EXITED)) all_mask = g.key;
            for (int lane = 0; lane < kWarp; ++lane) {
                if (!has(g.members, lane)) continue;
                r.d[lane] = uniform ? all_mask : 0u;
                r.p[lane] = uniform ? 1 : 0;
            }
        }
    }
    return r;
}

// ---------------------------------------------------------------------------
// vote.sync
// ---------------------------------------------------------------------------

enum class VoteMode { All, Any, Uni, Ballot };

static bool vote_pred(uint64_t a) {
    uint32_t x = static_cast<uint32_t>(a);
    if (bug(VOTE_PRED_BIT0)) return x & 1u;
    return x != 0;
}

// Assemble the ballot register one pass (byte) at a time for the lanes in
// `lanes`.  Returns the register; `raw` gets the un-negated ballot.
static uint32_t assemble_ballot(Hardware& hw, const WarpState& w, uint32_t lanes, bool neg,
                                VoteMode mode, uint32_t& raw) {
    uint32_t reg = hw.vu.ballot;
    if (!(bug(VOTE_BALLOT_ACCUMULATES) || bug(VOTE_BALLOT_IDLE_PASS_STALE))) reg = 0;
    const bool late_negate = bug(VOTE_BALLOT_NEGATE_LATE) && neg && mode == VoteMode::Ballot;
    raw = 0;
    for (int p = 0; p < kPasses; ++p) {
        if ((lanes & pass_bits(p)) == 0) continue;  // idle pass: not issued
        uint32_t partial = 0, raw_partial = 0;
        for (int i = 0; i < kPassWidth; ++i) {
            int lane = kPassWidth * p + i;
            if (!has(lanes, lane)) continue;
            bool pr = vote_pred(w.a[lane]);
            raw_partial |= static_cast<uint32_t>(pr) << i;
            if (neg && !late_negate) pr = !pr;
            partial |= static_cast<uint32_t>(pr) << i;
        }
        raw |= raw_partial << (kPassWidth * p);
        int shift = kPassWidth * p;
        if (bug(VOTE_BALLOT_PASS3_SHIFT) && mode == VoteMode::Ballot && p == 3) {
            reg |= partial << (kPassWidth * 2);
            hw.cycle++;
            continue;
        }
        if (bug(VOTE_BALLOT_ACCUMULATES))
            reg |= partial << shift;
        else
            reg = (reg & ~pass_bits(p)) | (partial << shift);
        hw.cycle++;
    }
    if (late_negate) reg = ~reg;
    return reg;
}

static RoundResult run_vote(Hardware& hw, const WarpState& w, VoteMode mode, bool neg) {
    RoundResult r;
    r.d.assign(kWarp, std::nullopt);

    bool hang = false;
    auto groups = form_groups(w, bug(VOTE_SITE_SPLIT), hang);
    if (hang) { r.hang = true; return r; }

    const uint32_t exec = w.executing();
    uint32_t raw = 0;
    // One warp-wide ballot register (or one per call site when split).
    std::vector<int> sites;
    if (bug(VOTE_SITE_SPLIT)) {
        for (int lane = 0; lane < kWarp; ++lane)
            if (has(exec, lane)) {
                bool seen = false;
                for (int s : sites) seen |= (s == w.site[lane]);
                if (!seen) sites.push_back(w.site[lane]);
            }
    } else {
        sites.push_back(0);
    }
    const uint32_t before = hw.vu.ballot;
    std::vector<uint32_t> regs, raws;
    for (int s : sites) {
        uint32_t lanes = exec;
        if (bug(VOTE_SITE_SPLIT)) {
            lanes = 0;
            for (int lane = 0; lane < kWarp; ++lane)
                if (has(exec, lane) && w.site[lane] == s) lanes |= bit(lane);
        }
        hw.vu.ballot = before;
        regs.push_back(assemble_ballot(hw, w, lanes, neg, mode, raw));
        raws.push_back(raw);
    }
    if (regs.empty()) return r;  // no lane executes this vote
    hw.vu.ballot = regs.back();

    for (const auto& g : groups) {
        size_t si = 0;
        if (bug(VOTE_SITE_SPLIT))
            for (size_t k = 0; k < sites.size(); ++k)
                if (sites[k] == g.site) si = k;
        const uint32_t ballot = regs[si];
        const uint32_t raw_ballot = raws[si];
        uint32_t P = g.participants;
        uint32_t B = ballot & P;
        if (bug(VOTE_ALL_READS_EXITED) && mode == VoteMode::All) {
            uint32_t ex = g.key & w.exited;
            for (int lane = 0; lane < kWarp; ++lane)
                if (has(ex, lane) && (vote_pred(w.a[lane]) != neg)) B |= bit(lane);
            P |= ex;
        }
        uint32_t result = 0;
        switch (mode) {
            case VoteMode::All: {
                uint32_t check = bug(VOTE_ALL_PASS3_DROPPED) ? 0x00ffffffu : 0xffffffffu;
                if (bug(VOTE_ALL_NEGATE_AFTER_REDUCE) && neg)
                    result = !(((raw_ballot & P) ^ P) & check) ? 0 : 1;
                else
                    result = ((B ^ P) & check) == 0;
                break;
            }
            case VoteMode::Any:
                result = bug(VOTE_ANY_WHOLE_REGISTER) ? (ballot != 0) : (B != 0);
                break;
            case VoteMode::Uni:
                result = bug(VOTE_UNI_TRUE_ONLY) ? (B == P) : (B == 0 || B == P);
                break;
            case VoteMode::Ballot:
                result = bug(VOTE_BALLOT_UNMASKED) ? ballot : (ballot & g.key);
                break;
        }
        for (int lane = 0; lane < kWarp; ++lane)
            if (has(g.members, lane)) r.d[lane] = result;
    }
    return r;
}

// ---------------------------------------------------------------------------
// redux.sync
// ---------------------------------------------------------------------------

enum class ReduxOp { Add, Min, Max, And, Or, Xor };

struct ReduxKind {
    ReduxOp op;
    bool is_signed;
};

static uint32_t redux_identity(ReduxKind k) {
    switch (k.op) {
        case ReduxOp::Add: return 0;
        case ReduxOp::Min:
            if (k.is_signed) return 0x7fffffffu;
            return bug(REDUX_MIN_U32_IDENTITY_SIGNED) ? 0x7fffffffu : 0xffffffffu;
        case ReduxOp::Max:
            if (k.is_signed) return bug(REDUX_MAX_S32_IDENTITY_ZERO) ? 0u : 0x80000000u;
            return 0;
        case ReduxOp::And: return 0xffffffffu;
        case ReduxOp::Or: return 0;
        case ReduxOp::Xor: return 0;
    }
    return 0;
}

// Bit-serial MSB-first comparator on two operands: returns the selected one
// (min or max).  Ties keep the first operand.
static uint32_t bitserial_select(uint32_t x, uint32_t y, bool is_max, bool is_signed, uint64_t& cycles) {
    const int last_bit = bug(REDUX_MINMAX_U32_UPPER16) && !is_signed ? 16 : 0;
    for (int b = 31; b >= last_bit; --b) {
        bool xb = (x >> b) & 1u, yb = (y >> b) & 1u;
        if (b == 31 && is_signed && !bug(REDUX_MINMAX_S32_NO_SIGN_FLIP)) { xb = !xb; yb = !yb; }
        cycles++;
        if (xb == yb) continue;
        // first differing bit decides: the operand holding the wanted bit wins
        return xb == is_max ? x : y;
    }
    return x;  // equal (as far as the comparator looked): keep the first operand
}

static uint32_t redux_alu(ReduxKind k, uint32_t acc, uint32_t v, uint64_t& cycles) {
    switch (k.op) {
        case ReduxOp::Add: {
            if (bug(REDUX_ADD_S32_SATURATES) && k.is_signed) {
                int64_t s = static_cast<int64_t>(static_cast<int32_t>(acc)) + static_cast<int32_t>(v);
                if (s > INT32_MAX) s = INT32_MAX;
                if (s < INT32_MIN) s = INT32_MIN;
                return static_cast<uint32_t>(static_cast<int32_t>(s));
            }
            return acc + v;
        }
        case ReduxOp::Min: return bitserial_select(acc, v, false, k.is_signed, cycles);
        case ReduxOp::Max: return bitserial_select(acc, v, true, k.is_signed, cycles);
        case ReduxOp::And: return acc & v;
        case ReduxOp::Or: return acc | v;
        case ReduxOp::Xor: return acc ^ v;
    }
    return acc;
}

// The pass-merge stage: the same ALU, except that add is built from two
// 16-bit halves.
static uint32_t redux_merge(ReduxKind k, uint32_t acc, uint32_t partial, uint64_t& cycles) {
    if (k.op == ReduxOp::Add && !(bug(REDUX_ADD_S32_SATURATES) && k.is_signed)) {
        uint32_t lo = (acc & 0xffffu) + (partial & 0xffffu);
        uint32_t carry = lo >> 16;
        if (bug(REDUX_ADD_CARRY_LOST)) carry = 0;
        uint32_t hi = (acc >> 16) + (partial >> 16) + carry;
        return (hi << 16) | (lo & 0xffffu);
    }
    return redux_alu(k, acc, partial, cycles);
}

static RoundResult run_redux(Hardware& hw, const WarpState& w, ReduxKind k) {
    RoundResult r;
    r.d.assign(kWarp, std::nullopt);

    bool hang = false;
    auto groups = form_groups(w, bug(REDUX_SITE_SPLIT), hang);
    if (hang) { r.hang = true; return r; }

    const uint32_t ident = redux_identity(k);
    hw.ru.acc_valid = false;
    for (const auto& g : groups) {
        uint32_t read_set = g.participants;
        if (bug(REDUX_ANDOR_READS_EXITED) && (k.op == ReduxOp::And || k.op == ReduxOp::Or))
            read_set |= g.key & w.exited;

        // per-pass partials over the 8-lane datapath
        std::array<uint32_t, kPasses> partial{};
        for (int p = 0; p < kPasses; ++p) {
            int first = kPassWidth * p, last = kPassWidth * (p + 1) - 1;
            if (bug(REDUX_OR_LANE8_DROPPED) && k.op == ReduxOp::Or && p == 1) first = 9;
            if (bug(REDUX_ADD_LANE23_TWICE) && k.op == ReduxOp::Add && !k.is_signed && p == 3)
                first = 23;
            uint32_t acc = ident;
            bool any = false;
            for (int lane = first; lane <= last; ++lane) {
                uint32_t v = has(read_set, lane) ? static_cast<uint32_t>(w.a[lane]) : ident;
                any |= has(read_set, lane);
                acc = redux_alu(k, acc, v, hw.cycle);
            }
            if (bug(REDUX_AND_IDLE_PASS_ZERO) && k.op == ReduxOp::And && !any) acc = 0;
            partial[p] = acc;
        }

        // fixed left-to-right merge tree into the accumulator register
        uint32_t acc = ident;
        if (bug(REDUX_ACC_NOT_CLEARED) && hw.ru.acc_valid) acc = hw.ru.acc;
        for (int p = 0; p < kPasses; ++p) {
            acc = redux_merge(k, acc, partial[p], hw.cycle);
            if (bug(REDUX_XOR_PASS0_TWICE) && k.op == ReduxOp::Xor && p == 0)
                acc = redux_merge(k, acc, partial[0], hw.cycle);
        }
        hw.ru.acc = acc;
        hw.ru.acc_valid = true;

        for (int lane = 0; lane < kWarp; ++lane) {
            if (!has(g.members, lane)) continue;
            uint32_t d = acc;
            if (bug(REDUX_MAX_U32_PASS3_WRITEBACK) && k.op == ReduxOp::Max && !k.is_signed && lane >= 24)
                d = partial[3];
            r.d[lane] = d;
        }
    }
    return r;
}

// ---------------------------------------------------------------------------
// bar.warp.sync: convergence barrier
// ---------------------------------------------------------------------------

static RoundResult run_bar_warp_sync(Hardware& hw, const WarpState& w) {
    RoundResult r;
    r.d.assign(kWarp, std::nullopt);
    const uint32_t exec = w.executing();

    hw.cb.arrival = 0;
    if (!bug(BWS_EXPECTED_NOT_CLEARED)) hw.cb.expected = 0;

    // exit bits as seen by the barrier
    uint32_t exit_seen = w.exited;
    if (bug(BWS_EXIT_BITS_PER_PASS)) {
        exit_seen = 0;
        for (int p = 0; p < kPasses; ++p)
            if (exec & pass_bits(p)) exit_seen |= w.exited & pass_bits(p);
    }

    if (bug(BWS_SITE_SPLIT)) {
        // each call site has its own arrival register
        for (int lane = 0; lane < kWarp; ++lane) {
            if (!has(exec, lane)) continue;
            uint32_t arrival_site = 0;
            for (int j = 0; j < kWarp; ++j)
                if (has(exec, j) && w.site[j] == w.site[lane]) arrival_site |= bit(j);
            uint32_t exp = w.mask[lane] & ~exit_seen;
            if ((arrival_site & exp) != exp) { r.hang = true; return r; }
        }
        for (int lane = 0; lane < kWarp; ++lane)
            if (has(exec, lane)) r.d[lane] = 0;
        return r;
    }

    for (int p = 0; p < kPasses; ++p) {
        for (int lane = kPassWidth * p; lane < kPassWidth * (p + 1); ++lane) {
            if (!has(exec, lane)) continue;
            hw.cb.arrival |= bit(lane);
            uint32_t exp = w.mask[lane];
            if (!bug(BWS_EXPECTED_KEEPS_EXITED)) exp &= ~exit_seen;
            if (bug(BWS_RELEASE_FROM_LAST_LANE))
                hw.cb.expected = exp;
            else
                hw.cb.expected |= exp;
        }
        hw.cycle++;
    }

    if ((hw.cb.arrival & hw.cb.expected) != hw.cb.expected) { r.hang = true; return r; }
    uint32_t released = bug(BWS_RELEASE_FROM_LAST_LANE) ? (hw.cb.expected & hw.cb.arrival) : hw.cb.arrival;
    if (exec & ~released) { r.hang = true; return r; }  // some lanes never leave
    for (int lane = 0; lane < kWarp; ++lane)
        if (has(released, lane)) r.d[lane] = 0;
    if (!bug(BWS_EXPECTED_NOT_CLEARED)) hw.cb.expected = 0;
    hw.cb.arrival = 0;
    return r;
}

// ---------------------------------------------------------------------------
// bar.sync / bar.red: block barrier table
// ---------------------------------------------------------------------------

enum class CtaOp { Sync, Popc, And, Or };

static bool cta_pred(uint64_t a) {
    int32_t x = static_cast<int32_t>(static_cast<uint32_t>(a));
    if (bug(CTA_PRED_POSITIVE_ONLY)) return x > 0;
    return x != 0;
}

static RoundResult run_cta_barrier(Hardware& hw, const BlockState& b, CtaOp op, bool neg) {
    RoundResult r;
    const int n = b.threads;
    r.d.assign(n, std::nullopt);
    const int warps = (n + kWarp - 1) / kWarp;

    int exited_count = 0;
    for (int t = 0; t < n; ++t) exited_count += b.exited[t];

    // expected-count register
    uint32_t expected = static_cast<uint32_t>(n - exited_count);
    if (bug(CTA_EXITED_WARP_GRANULARITY)) {
        expected = static_cast<uint32_t>(n);
        for (int wp = 0; wp < warps; ++wp) {
            int lo = wp * kWarp, hi = std::min(n, lo + kWarp);
            bool all_exited = true;
            for (int t = lo; t < hi; ++t) all_exited &= b.exited[t];
            if (all_exited) expected -= static_cast<uint32_t>(hi - lo);
        }
    }
    if (bug(CTA_EXPECTED_ROUNDED_TO_WARPS))
        expected = static_cast<uint32_t>(warps * kWarp - exited_count);
    if (!(bug(CTA_EXPECTED_NOT_RELOADED) && hw.bt.expected_loaded)) hw.bt.expected_cnt = expected;
    hw.bt.expected_loaded = true;

    // barrier instance starts
    hw.bt.arrive_cnt = 0;
    if (!bug(CTA_POPC_ACC_NOT_CLEARED)) hw.bt.popc_acc = 0;
    if (!bug(CTA_AND_ACC_NOT_RESET)) hw.bt.and_acc = true;
    hw.bt.or_acc = false;
    const bool or_late_negate = bug(CTA_OR_NEGATE_AFTER_REDUCE) && op == CtaOp::Or && neg;
    const bool popc_from_threads = bug(CTA_POPC_NEGATE_FROM_THREADS) && op == CtaOp::Popc && neg;

    // warps arrive one at a time; each warp is processed in 8-lane passes
    for (int wp = 0; wp < warps; ++wp) {
        int lo = wp * kWarp, hi = std::min(n, lo + kWarp);
        uint32_t cnt = 0, popc = 0;
        bool warp_and = true, warp_or = false, warp_has_exit = false;
        for (int t = lo; t < hi; ++t) {
            if (b.exited[t]) {
                warp_has_exit = true;
                if (bug(CTA_POPC_COUNTS_EXITED) && op == CtaOp::Popc) {
                    bool pr = cta_pred(b.a[t]);
                    if (neg) pr = !pr;
                    popc += pr;
                }
                continue;
            }
            if (b.inactive[t]) continue;
            cnt++;
            if (op == CtaOp::Sync) continue;
            bool pr = cta_pred(b.a[t]);
            if (neg && !or_late_negate && !popc_from_threads) pr = !pr;
            popc += pr;
            warp_and &= pr;
            warp_or |= pr;
        }
        hw.cycle += kPasses;
        hw.bt.arrive_cnt += cnt;
        if (bug(CTA_ARRIVAL_COUNTER_10BIT)) hw.bt.arrive_cnt &= 0x3ffu;
        hw.bt.popc_acc += popc;
        if (bug(CTA_POPC_ACC_8BIT)) hw.bt.popc_acc &= 0xffu;
        if (!(bug(CTA_AND_SKIPS_WARPS_WITH_EXITS) && op == CtaOp::And && warp_has_exit))
            hw.bt.and_acc = hw.bt.and_acc && warp_and;
        hw.bt.or_acc = hw.bt.or_acc || warp_or;
    }

    if (hw.bt.arrive_cnt != hw.bt.expected_cnt) { r.hang = true; return r; }

    uint32_t result = 0;
    switch (op) {
        case CtaOp::Sync: result = 0; break;
        case CtaOp::Popc:
            result = hw.bt.popc_acc;
            if (popc_from_threads) result = static_cast<uint32_t>(n) - hw.bt.popc_acc;
            break;
        case CtaOp::And: result = hw.bt.and_acc ? 1u : 0u; break;
        case CtaOp::Or:
            result = hw.bt.or_acc ? 1u : 0u;
            if (or_late_negate) result ^= 1u;
            break;
    }
    for (int t = 0; t < n; ++t)
        if (!b.exited[t] && !b.inactive[t]) r.d[t] = result;
    hw.bt.arrive_cnt = 0;
    return r;
}

// ---------------------------------------------------------------------------
// Vector decoding and dispatch
// ---------------------------------------------------------------------------

static WarpState decode_warp(const json& round, bool b64) {
    WarpState w;
    auto ex = parse_lane_set(round.value("exited", json("none")), kWarp);
    auto in = parse_lane_set(round.value("inactive", json("none")), kWarp);
    for (int i = 0; i < kWarp; ++i) {
        if (ex[i]) w.exited |= bit(i);
        if (in[i]) w.inactive |= bit(i);
    }
    auto masks = parse_per_lane(round, "mask", kWarp, 0xffffffffu);
    auto as = parse_per_lane(round, "a", kWarp, 0);
    auto sites = parse_per_lane(round, "site", kWarp, 0);
    for (int i = 0; i < kWarp; ++i) {
        w.mask[i] = static_cast<uint32_t>(masks[i]);
        w.a[i] = b64 ? as[i] : (as[i] & 0xffffffffu);
        w.site[i] = static_cast<int>(sites[i]);
    }
    return w;
}

static BlockState decode_block(const json& round) {
    BlockState b;
    b.threads = round.value("threads", 32);
    if (b.threads < 1) b.threads = 1;
    if (b.threads > 1024) b.threads = 1024;
    b.exited = parse_lane_set(round.value("exited", json("none")), b.threads);
    b.inactive = parse_lane_set(round.value("inactive", json("none")), b.threads);
    b.a = parse_per_lane(round, "a", b.threads, 0);
    return b;
}

static RoundResult run_round(Hardware& hw, const std::string& form, bool neg, const json& round) {
    auto starts = [&](const char* s) { return form.rfind(s, 0) == 0; };
    if (starts("match.")) {
        bool is_all = starts("match.all");
        bool b64 = form.find(".b64") != std::string::npos;
        return run_match(hw, decode_warp(round, b64), is_all, b64);
    }
    if (starts("vote.")) {
        VoteMode m = VoteMode::Ballot;
        if (starts("vote.sync.all")) m = VoteMode::All;
        else if (starts("vote.sync.any")) m = VoteMode::Any;
        else if (starts("vote.sync.uni")) m = VoteMode::Uni;
        return run_vote(hw, decode_warp(round, false), m, neg);
    }
    if (starts("redux.")) {
        ReduxKind k{ReduxOp::Add, form.find(".s32") != std::string::npos};
        if (starts("redux.sync.add")) k.op = ReduxOp::Add;
        else if (starts("redux.sync.min")) k.op = ReduxOp::Min;
        else if (starts("redux.sync.max")) k.op = ReduxOp::Max;
        else if (starts("redux.sync.and")) k.op = ReduxOp::And;
        else if (starts("redux.sync.or")) k.op = ReduxOp::Or;
        else if (starts("redux.sync.xor")) k.op = ReduxOp::Xor;
        return run_redux(hw, decode_warp(round, false), k);
    }
    if (starts("bar.warp.sync")) return run_bar_warp_sync(hw, decode_warp(round, false));
    CtaOp op = CtaOp::Sync;
    if (starts("bar.red.popc")) op = CtaOp::Popc;
    else if (starts("bar.red.and")) op = CtaOp::And;
    else if (starts("bar.red.or")) op = CtaOp::Or;
    return run_cta_barrier(hw, decode_block(round), op, neg);
}

static bool is_supported(const std::string& form) {
    static const char* kForms[] = {
        "match.any.sync.b32", "match.any.sync.b64", "match.all.sync.b32", "match.all.sync.b64",
        "vote.sync.all.pred", "vote.sync.any.pred", "vote.sync.uni.pred", "vote.sync.ballot.b32",
        "redux.sync.add.u32", "redux.sync.add.s32", "redux.sync.min.u32", "redux.sync.min.s32",
        "redux.sync.max.u32", "redux.sync.max.s32", "redux.sync.and.b32", "redux.sync.or.b32",
        "redux.sync.xor.b32", "bar.warp.sync", "bar.sync", "bar.red.popc.u32", "bar.red.and.pred",
        "bar.red.or.pred"};
    for (const char* f : kForms)
        if (form == f) return true;
    return false;
}

static json round_to_json(const RoundResult& r) {
    json o = json::object();
    if (r.hang) {
        o["hang"] = true;
        return o;
    }
    json d = json::array();
    for (const auto& x : r.d) d.push_back(x ? json(hex32(*x)) : json(nullptr));
    o["d"] = d;
    if (r.has_p) {
        json p = json::array();
        for (const auto& x : r.p) p.push_back(x ? json(*x) : json(nullptr));
        o["p"] = p;
    }
    return o;
}

static int list_bugs() {
    int n = 0;
    for (const auto& b : kBugs) {
        ++n;
        if (static_cast<int>(b.id) != n) die("bug table out of order");
        std::cout << n << '\t' << b.key << '\t' << b.forms << '\t' << b.description << '\n';
    }
    return 0;
}

int main(int argc, char** argv) {
    static_assert(sizeof(kBugs) / sizeof(kBugs[0]) == BUG_COUNT_PLUS_ONE - 1, "bug table size");
    if (argc == 2 && std::string(argv[1]) == "--list") return list_bugs();
    if (argc != 3) {
        std::cerr << "usage: sim --list | sim VECTORS.jsonl N\n";
        return 64;
    }
    g_bug = std::atoi(argv[2]);
    if (g_bug < 0 || g_bug >= BUG_COUNT_PLUS_ONE) {
        std::cerr << "sim: no bug " << g_bug << "\n";
        return 64;
    }
    std::ifstream in(argv[1]);
    if (!in) {
        std::cerr << "sim: cannot open " << argv[1] << "\n";
        return 66;
    }

    std::cout << json{{"schema", "warpspec-results/1"}}.dump() << '\n';
    std::string line;
    bool header = true;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        json v;
        try {
            v = json::parse(line);
        } catch (const std::exception&) {
            die("malformed JSON line");
        }
        if (header) {
            header = false;
            if (v.contains("schema")) continue;
        }
        json out = json::object();
        out["id"] = v.at("id");
        const std::string form = v.value("form", "");
        if (!is_supported(form)) {
            out["skipped"] = true;
            std::cout << out.dump() << '\n';
            continue;
        }
        const std::string instr = v.value("instruction", "");
        const bool neg = instr.find('!') != std::string::npos;
        const json& rounds = v.at("rounds");

        Hardware hw;  // a fresh SM for every vector
        std::vector<json> outs;
        for (const auto& round : rounds) {
            RoundResult r;
            try {
                r = run_round(hw, form, neg, round);
            } catch (const std::exception& e) {
                die(std::string("bad round in vector: ") + e.what());
            }
            outs.push_back(round_to_json(r));
            if (r.hang) hw.reset();  // watchdog reset, then the next round runs
        }
        if (outs.size() == 1) {
            for (auto& [k, val] : outs[0].items()) out[k] = val;
        } else {
            out["rounds"] = outs;
        }
        std::cout << out.dump() << '\n';
    }
    return 0;
}
