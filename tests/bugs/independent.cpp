#include "bugs/independent.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <optional>
#include <sstream>

#include "vectors/check.hpp"
#include "vectors/format.hpp"

namespace warpspec::bugs {

namespace {

using spec::FormId;
using spec::Mode;
using vectors::Observed;

constexpr unsigned kLanes = spec::kWarpSize;

// The form names, as the table lists them.
constexpr std::string_view kMatchAny32 = "match.any.sync.b32", kMatchAny64 = "match.any.sync.b64",
                           kMatchAll32 = "match.all.sync.b32", kMatchAll64 = "match.all.sync.b64";
constexpr std::string_view kVoteAll = "vote.sync.all.pred", kVoteAny = "vote.sync.any.pred",
                           kVoteUni = "vote.sync.uni.pred", kVoteBallot = "vote.sync.ballot.b32";
constexpr std::string_view kAddU = "redux.sync.add.u32", kAddS = "redux.sync.add.s32",
                           kMinU = "redux.sync.min.u32", kMinS = "redux.sync.min.s32",
                           kMaxU = "redux.sync.max.u32", kMaxS = "redux.sync.max.s32",
                           kAnd = "redux.sync.and.b32", kOr = "redux.sync.or.b32",
                           kXor = "redux.sync.xor.b32";
constexpr std::string_view kSyncwarp = "bar.warp.sync", kBarSync = "bar.sync",
                           kPopc = "bar.red.popc.u32", kRedAnd = "bar.red.and.pred",
                           kRedOr = "bar.red.or.pred";

using Names = std::vector<std::string_view>;
const Names kAllMatch{kMatchAny32, kMatchAny64, kMatchAll32, kMatchAll64};
const Names kAllRedux{kAddU, kAddS, kMinU, kMinS, kMaxU, kMaxS, kAnd, kOr, kXor};
const Names kAllCta{kBarSync, kPopc, kRedAnd, kRedOr};
const Names kCtaReductions{kPopc, kRedAnd, kRedOr};

// clang-format off
const std::vector<BugInfo> kBugs{
  // ---- match.sync
  {Bug::Match64HighHalfOnly, "match64_high_half_only",
   ".b64 operands are read from the wrong register of the pair: only the high 32 bits are compared",
   {kMatchAny64, kMatchAll64}, {"match.compare.bits", "match.any.result", "match.all.result"}},
  {Bug::MatchAnyLoopTo30, "match_any_loop_to_30",
   "match.any builds d with a lane loop that stops at 30 (j < 31): lane 31 is never in d",
   {kMatchAny32, kMatchAny64}, {"match.any.result", "match.participants"}},
  {Bug::MatchAllRefLane0, "match_all_ref_lane0",
   "match.all compares every participant with lane 0's register instead of a participant's value",
   {kMatchAll32, kMatchAll64}, {"match.all.result", "match.all.pred"}},
  {Bug::MatchAllActiveMask, "match_all_active_mask",
   "match.all returns the warp's active (executing) lanes instead of the participants when all agree",
   {kMatchAll32, kMatchAll64}, {"match.all.result", "match.participants"}},
  {Bug::MatchMaskOfFirstLane, "match_mask_of_first_lane",
   "the membermask is taken as warp-uniform: the lowest executing lane's mask serves every lane",
   kAllMatch, {"match.participants", "match.any.result", "match.all.result"}},
  {Bug::MatchAllSingletonFalse, "match_all_singleton_false",
   "match.all looks for a second lane holding the value, so a lone participant gets d = 0, p = 0",
   {kMatchAll32, kMatchAll64}, {"match.all.result", "match.all.pred"}},
  // ---- vote.sync
  {Bug::VoteAnyAtLeastTwo, "vote_any_at_least_two",
   "vote.any is true only when at least two participants hold the predicate",
   {kVoteAny}, {"vote.any"}},
  {Bug::VoteAllAgainstMembermask, "vote_all_against_membermask",
   "vote.all compares the ballot with the raw membermask: an exited lane in the mask reads as false",
   {kVoteAll}, {"vote.all", "vote.participants"}},
  {Bug::VoteUniAgainstMembermask, "vote_uni_against_membermask",
   "vote.uni tests ballot == 0 || ballot == membermask: exited lanes in the mask break 'all true'",
   {kVoteUni}, {"vote.uni", "vote.participants"}},
  {Bug::VoteBallotMsbFirst, "vote_ballot_msb_first",
   "vote.ballot writes lane j's predicate to bit 31 - j",
   {kVoteBallot}, {"vote.ballot"}},
  {Bug::VoteNegateAfterVote, "vote_negate_after_vote",
   "{!}a is applied to the vote's result (and to the whole ballot word) instead of each predicate",
   {kVoteAll, kVoteAny, kVoteUni, kVoteBallot}, {"vote.negate"}},
  {Bug::VoteBallotMaskOfLane0, "vote_ballot_mask_of_lane0",
   "vote.ballot filters the predicates with lane 0's membermask register for every lane",
   {kVoteBallot}, {"vote.participants", "vote.ballot"}},
  {Bug::VoteBallotOrAccumulates, "vote_ballot_or_accumulates",
   "vote.ballot ORs into the destination register without clearing it: bits set by an earlier "
   "ballot stay set",
   {kVoteBallot}, {"vote.ballot"}},
  // ---- redux.sync
  {Bug::ReduxLane0Skipped, "redux_lane0_skipped",
   "the reduction loop starts at lane 1: lane 0's value never enters the result",
   kAllRedux, {"redux.participants"}},
  {Bug::ReduxAndStartsZero, "redux_and_starts_zero",
   ".and starts its accumulator at 0 instead of all ones",
   {kAnd}, {"redux.bitwise"}},
  {Bug::ReduxMinS32StartsAllOnes, "redux_min_s32_starts_all_ones",
   "min.s32 shares min.u32's identity 0xffffffff, which is -1 as a signed value",
   {kMinS}, {"redux.minmax.int"}},
  {Bug::ReduxMaxS32StartsNegMax, "redux_max_s32_starts_neg_max",
   "max.s32 starts from -INT_MAX instead of INT_MIN (the -max() for lowest() slip)",
   {kMaxS}, {"redux.minmax.int"}},
  {Bug::ReduxMinU32StartsIntMax, "redux_min_u32_starts_int_max",
   "min.u32 shares min.s32's identity 0x7fffffff: values above it can never be the minimum",
   {kMinU}, {"redux.minmax.int"}},
  {Bug::ReduxXorStartsAllOnes, "redux_xor_starts_all_ones",
   ".xor starts its accumulator at all ones (the .and identity), so every result is inverted",
   {kXor}, {"redux.bitwise"}},
  {Bug::ReduxS32CompareBySubtraction, "redux_s32_compare_by_subtraction",
   "min/max.s32 order x before y when (int32)(x - y) < 0, which is wrong when the difference overflows",
   {kMinS, kMaxS}, {"redux.minmax.int"}},
  {Bug::ReduxMaskMsbFirst, "redux_mask_msb_first",
   "redux decodes the membermask MSB first: bit 31 - j names lane j",
   kAllRedux, {"redux.participants"}},
  {Bug::ReduxCount5Bit, "redux_count_5bit",
   "the participant count is a 5-bit field: 32 participants wrap to 0 and the result is 0",
   kAllRedux, {"redux.participants", "redux.add", "redux.minmax.int", "redux.bitwise"}},
  // ---- bar.warp.sync
  {Bug::SyncwarpWholeWarp, "syncwarp_whole_warp",
   "__syncwarp waits for every non-exited lane of the warp, whatever the mask",
   {kSyncwarp}, {"syncwarp.exited_ok"}},
  {Bug::SyncwarpMaskMsbFirst, "syncwarp_mask_msb_first",
   "__syncwarp decodes the mask MSB first and waits for the mirrored lanes",
   {kSyncwarp}, {"syncwarp.exited_ok"}},
  {Bug::SyncwarpSelfCheckTo30, "syncwarp_self_check_to_30",
   "the own-bit check loops j < 31, so lane 31 is reported outside its mask (UB on a defined round)",
   {kSyncwarp}, {"syncwarp.exited_ok", "syncwarp.ub.self_not_in_mask"}},
  {Bug::SyncwarpSharedCounter, "syncwarp_shared_counter",
   "one arrival counter per warp serves every mask: interleaved groups never see their count",
   {kSyncwarp}, {"syncwarp.exited_ok"}},
  {Bug::SyncwarpCounter5Bit, "syncwarp_counter_5bit",
   "the arrival counter has 5 bits: a group of 32 lanes wraps to 0 and is never released",
   {kSyncwarp}, {"syncwarp.exited_ok"}},
  // ---- bar.sync / bar.red
  {Bug::CtaPopc8Bit, "cta_popc_8bit",
   "__syncthreads_count counts in an 8-bit register: 256 or more true predicates wrap",
   {kPopc}, {"cta.count"}},
  {Bug::CtaPopcCountsWarps, "cta_popc_counts_warps",
   "__syncthreads_count adds one per warp whose vote.any is true instead of one per thread",
   {kPopc}, {"cta.count"}},
  {Bug::CtaPartialWarpDropped, "cta_partial_warp_dropped",
   "the block is walked in whole warps (threads / 32): a partly filled last warp neither counts "
   "nor is released",
   kAllCta, {"cta.participants", "cta.count", "cta.and", "cta.or"}},
  {Bug::CtaPredLowBit, "cta_pred_low_bit",
   "the int predicate is read as a PTX predicate from its low bit: even non-zero values are false",
   kCtaReductions, {"cta.count", "cta.and", "cta.or"}},
  {Bug::CtaPopcAsPredicate, "cta_popc_as_predicate",
   "__syncthreads_count shares the .or path and returns 1 instead of the count",
   {kPopc}, {"cta.count"}},
  {Bug::CtaRoundsUpToWarps, "cta_rounds_up_to_warps",
   "the barrier expects the thread count rounded up to whole warps: a block of 33 threads waits "
   "for 64 arrivals",
   kAllCta, {"cta.participants"}},
  {Bug::CtaPartlyExitedWarpWaits, "cta_partly_exited_warp_waits",
   "exited threads are discounted only when their whole warp has exited; otherwise the barrier "
   "waits for them",
   kAllCta, {"cta.participants"}},
  {Bug::CtaWarpLocalReduction, "cta_warp_local_reduction",
   "the block-wide step is missing: each thread gets the reduction over its own warp only",
   kCtaReductions, {"cta.count", "cta.and", "cta.or"}},
  {Bug::CtaLastThreadDropped, "cta_last_thread_dropped",
   "the reduction loop stops at threads - 2 (t < n - 1): the last thread's predicate is lost",
   kCtaReductions, {"cta.participants", "cta.count", "cta.and", "cta.or"}},
  {Bug::CtaExpectedCountCached, "cta_expected_count_cached",
   "the expected arrival count is computed at the block's first barrier and reused: threads that "
   "exit later are still waited for",
   kAllCta, {"cta.participants"}},
};
// clang-format on

uint32_t bit(unsigned i) {
  return uint32_t{1} << i;
}

bool has(uint32_t set, unsigned i) {
  return ((set >> i) & 1u) != 0;
}

uint32_t reverse_bits(uint32_t x) {
  uint32_t r = 0;
  for (unsigned i = 0; i < kLanes; ++i)
    if (has(x, i)) r |= bit(kLanes - 1 - i);
  return r;
}

int32_t as_signed(uint32_t x) {
  return static_cast<int32_t>(x);
}

// One warp round as the simulator sees it: lane sets and per-lane registers.
struct WarpRound {
  uint32_t exited = 0;
  uint32_t exec = 0;
  std::array<uint32_t, kLanes> mask{};
  std::array<uint64_t, kLanes> a{};
  std::array<uint32_t, kLanes> site{};
};

WarpRound load(const spec::Instr& in, const model::Warp& w) {
  WarpRound r;
  for (unsigned i = 0; i < kLanes; ++i) {
    if (w.exited[i])
      r.exited |= bit(i);
    else if (w.exec[i])
      r.exec |= bit(i);
    r.mask[i] = in.imm_mask ? *in.imm_mask : w.mask[i];
    r.a[i] = w.a[i];
    r.site[i] = w.site[i];
  }
  return r;
}

// One instance of an implementation: the state it keeps between rounds lives here.
class Sim {
 public:
  Sim(const spec::ParsedInstr& in, Bug b)
      : in_(in.instr), f_(spec::form_info(in.instr.form)), bug_(applies(b) ? b : Bug::None) {}

  Observed warp_round(const model::Warp& w);
  Observed cta_round(const model::Cta& c);

 private:
  bool applies(Bug b) const {
    if (b == Bug::None) return false;
    const auto& forms = bug_info(b).forms;
    return std::find(forms.begin(), forms.end(), f_.name) != forms.end();
  }
  bool is(Bug b) const { return bug_ == b; }

  uint32_t decoded_mask(const WarpRound& r, unsigned lane) const;
  bool own_bit_ok(uint32_t mask, unsigned lane) const;
  uint32_t resumed_lanes(const WarpRound& r) const;
  void match(const WarpRound& r, uint32_t resumed, Observed& o);
  void vote(const WarpRound& r, uint32_t resumed, Observed& o);
  void redux(const WarpRound& r, uint32_t resumed, Observed& o);

  spec::Instr in_;
  const spec::FormInfo& f_;
  Bug bug_;
  // State kept between rounds; only the bugs that forget to reset it let it show.
  std::array<uint32_t, kLanes> d_regs_{};    // the destination registers (VoteBallotOrAccumulates)
  std::optional<std::size_t> cta_expected_;  // CtaExpectedCountCached
};

// The membermask lane `lane` works with once the instruction has decoded it.
uint32_t Sim::decoded_mask(const WarpRound& r, unsigned lane) const {
  if (is(Bug::ReduxMaskMsbFirst) || is(Bug::SyncwarpMaskMsbFirst))
    return reverse_bits(r.mask[lane]);
  if (is(Bug::MatchMaskOfFirstLane) && r.exec != 0)
    return r.mask[static_cast<unsigned>(std::countr_zero(r.exec))];
  return r.mask[lane];
}

// The debug check that an executing lane names itself in its membermask.
bool Sim::own_bit_ok(uint32_t mask, unsigned lane) const {
  if (is(Bug::SyncwarpSelfCheckTo30)) {
    for (unsigned j = 0; j < kLanes - 1; ++j)
      if (j == lane && has(mask, j)) return true;
    return false;
  }
  return has(mask, lane);
}

// Every .sync instruction first waits until the non-exited lanes named in its membermask have
// arrived. A lane whose named lanes never all arrive stays blocked (a hang).
uint32_t Sim::resumed_lanes(const WarpRound& r) const {
  const bool syncwarp = f_.id == FormId::BarWarpSync;
  uint32_t resumed = 0;
  if (is(Bug::SyncwarpSharedCounter)) {
    // Lanes arrive in lane order at one counter; it releases the waiting lanes whenever it
    // equals the arriving lane's expected count, then starts again from 0.
    unsigned count = 0;
    uint32_t waiting = 0;
    for (unsigned i = 0; i < kLanes; ++i) {
      if (!has(r.exec, i)) continue;
      ++count;
      waiting |= bit(i);
      if (count == static_cast<unsigned>(std::popcount(decoded_mask(r, i) & ~r.exited))) {
        resumed |= waiting;
        waiting = 0;
        count = 0;
      }
    }
    return resumed;
  }
  for (unsigned i = 0; i < kLanes; ++i) {
    if (!has(r.exec, i)) continue;
    uint32_t need = decoded_mask(r, i) & ~r.exited;
    if (is(Bug::SyncwarpWholeWarp)) need = ~r.exited;
    bool released = (need & ~r.exec) == 0;
    // A 5-bit arrival counter never reaches 32.
    if (syncwarp && is(Bug::SyncwarpCounter5Bit) && std::popcount(need) == 32) released = false;
    if (released) resumed |= bit(i);
  }
  return resumed;
}

Observed Sim::warp_round(const model::Warp& w) {
  const auto r = load(in_, w);
  Observed o;
  o.d.assign(kLanes, 0);
  o.p.assign(kLanes, 0);
  o.present.assign(kLanes, 0);
  if (f_.family == spec::Family::Activemask) {
    // No membermask and no waiting: each lane sees the executing lanes of its own call site.
    for (unsigned i = 0; i < kLanes; ++i) {
      if (!has(r.exec, i)) continue;
      o.present[i] = 1;
      for (unsigned j = 0; j < kLanes; ++j)
        if (has(r.exec, j) && r.site[j] == r.site[i]) o.d[i] |= bit(j);
    }
    return o;
  }
  for (unsigned i = 0; i < kLanes; ++i)
    if (has(r.exec, i) && !own_bit_ok(r.mask[i], i)) o.ub_reported = true;
  const uint32_t resumed = resumed_lanes(r);
  o.hang = resumed != r.exec;
  for (unsigned i = 0; i < kLanes; ++i) o.present[i] = has(resumed, i);
  switch (f_.family) {
    case spec::Family::Match:
      match(r, resumed, o);
      break;
    case spec::Family::Vote:
      vote(r, resumed, o);
      break;
    case spec::Family::Redux:
      redux(r, resumed, o);
      break;
    default:
      break;  // bar.warp.sync: resuming is the whole result
  }
  return o;
}

void Sim::match(const WarpRound& r, uint32_t resumed, Observed& o) {
  const bool b64 = f_.a_type == spec::OperandType::B64;
  auto key = [&](unsigned j) -> uint64_t {
    if (!b64) return r.a[j] & 0xffffffffu;
    return is(Bug::Match64HighHalfOnly) ? r.a[j] >> 32 : r.a[j];
  };
  for (unsigned i = 0; i < kLanes; ++i) {
    if (!has(resumed, i)) continue;
    const uint32_t group = decoded_mask(r, i) & ~r.exited;
    if (f_.mode == Mode::Any) {
      uint32_t d = 0;
      const unsigned last = is(Bug::MatchAnyLoopTo30) ? kLanes - 1 : kLanes;
      for (unsigned j = 0; j < last; ++j)
        if (has(group, j) && key(j) == key(i)) d |= bit(j);
      o.d[i] = d;
    } else {
      const unsigned first = group ? static_cast<unsigned>(std::countr_zero(group)) : i;
      const uint64_t ref = is(Bug::MatchAllRefLane0) ? key(0) : key(first);
      bool same = true;
      for (unsigned j = 0; j < kLanes; ++j)
        if (has(group, j) && key(j) != ref) same = false;
      if (is(Bug::MatchAllSingletonFalse) && std::popcount(group) < 2) same = false;
      o.d[i] = !same ? 0 : is(Bug::MatchAllActiveMask) ? r.exec : group;
      o.p[i] = same;
    }
  }
}

void Sim::vote(const WarpRound& r, uint32_t resumed, Observed& o) {
  const bool negate_after = is(Bug::VoteNegateAfterVote) && in_.negate;
  auto pred = [&](unsigned j) { return (r.a[j] != 0) != (in_.negate && !negate_after); };
  for (unsigned i = 0; i < kLanes; ++i) {
    if (!has(resumed, i)) continue;
    const uint32_t mask = decoded_mask(r, i);
    uint32_t group = mask & ~r.exited;
    if (is(Bug::VoteBallotMaskOfLane0)) group = r.mask[0] & ~r.exited;
    uint32_t ballot = 0;
    for (unsigned j = 0; j < kLanes; ++j)
      if (has(group, j) && pred(j)) ballot |= is(Bug::VoteBallotMsbFirst) ? bit(31 - j) : bit(j);
    uint32_t d = 0;
    switch (f_.mode) {
      case Mode::All:
        d = is(Bug::VoteAllAgainstMembermask) ? ballot == mask : ballot == group;
        break;
      case Mode::Any:
        d = is(Bug::VoteAnyAtLeastTwo) ? std::popcount(ballot) >= 2 : ballot != 0;
        break;
      case Mode::Uni:
        d = ballot == 0 || ballot == (is(Bug::VoteUniAgainstMembermask) ? mask : group);
        break;
      default:
        d = is(Bug::VoteBallotOrAccumulates) ? d_regs_[i] | ballot : ballot;
        break;
    }
    if (negate_after) d = f_.mode == Mode::Ballot ? ~d : uint32_t{d == 0};
    o.d[i] = d_regs_[i] = d;
  }
}

void Sim::redux(const WarpRound& r, uint32_t resumed, Observed& o) {
  const bool is_signed = f_.a_type == spec::OperandType::S32;
  auto less = [&](uint32_t x, uint32_t y) {
    if (!is_signed) return x < y;
    if (is(Bug::ReduxS32CompareBySubtraction)) return as_signed(x - y) < 0;
    return as_signed(x) < as_signed(y);
  };
  uint32_t identity = 0;
  switch (f_.mode) {
    case Mode::Min:
      // The signed identity is INT_MAX, the unsigned one all ones; the two bugs swap them.
      identity = (is_signed ? !is(Bug::ReduxMinS32StartsAllOnes) : is(Bug::ReduxMinU32StartsIntMax))
                     ? 0x7fffffffu
                     : 0xffffffffu;
      break;
    case Mode::Max:
      identity = !is_signed ? 0u : is(Bug::ReduxMaxS32StartsNegMax) ? 0x80000001u : 0x80000000u;
      break;
    case Mode::And:
      identity = is(Bug::ReduxAndStartsZero) ? 0u : 0xffffffffu;
      break;
    case Mode::Xor:
      identity = is(Bug::ReduxXorStartsAllOnes) ? 0xffffffffu : 0u;
      break;
    default:
      break;
  }
  for (unsigned i = 0; i < kLanes; ++i) {
    if (!has(resumed, i)) continue;
    const uint32_t group = decoded_mask(r, i) & ~r.exited;
    uint32_t acc = identity;
    unsigned count = 0;
    for (unsigned j = is(Bug::ReduxLane0Skipped) ? 1 : 0; j < kLanes; ++j) {
      if (!has(group, j)) continue;
      const auto x = static_cast<uint32_t>(r.a[j]);
      ++count;
      switch (f_.mode) {
        case Mode::Add:
          acc += x;
          break;
        case Mode::Min:
          if (less(x, acc)) acc = x;
          break;
        case Mode::Max:
          if (less(acc, x)) acc = x;
          break;
        case Mode::And:
          acc &= x;
          break;
        case Mode::Or:
          acc |= x;
          break;
        default:
          acc ^= x;
          break;
      }
    }
    if (is(Bug::ReduxCount5Bit) && (count & 31u) == 0) acc = 0;
    o.d[i] = acc;
  }
}

Observed Sim::cta_round(const model::Cta& c) {
  const std::size_t n = c.arrive.size();
  constexpr std::size_t kWarp = kLanes;
  Observed o;
  o.d.assign(n, 0);
  o.p.assign(n, 0);
  o.present.assign(n, 0);
  auto executes = [&](std::size_t t) { return c.arrive[t] && !c.exited[t]; };
  // The threads the walk covers: all of them, or only the whole warps.
  const std::size_t walked = is(Bug::CtaPartialWarpDropped) ? n / kWarp * kWarp : n;
  // How many arrivals the barrier waits for, and how many it gets.
  std::size_t expected = 0, arrived = 0;
  for (std::size_t t = 0; t < walked; ++t) {
    bool counted = !c.exited[t];
    if (is(Bug::CtaPartlyExitedWarpWaits) && c.exited[t]) {
      const std::size_t w0 = t / kWarp * kWarp, w1 = std::min(n, w0 + kWarp);
      bool whole = true;
      for (std::size_t u = w0; u < w1; ++u) whole = whole && c.exited[u];
      counted = !whole;
    }
    expected += counted;
    arrived += executes(t);
  }
  if (is(Bug::CtaRoundsUpToWarps)) expected += (kWarp - n % kWarp) % kWarp;
  if (is(Bug::CtaExpectedCountCached)) {
    if (!cta_expected_) cta_expected_ = expected;
    expected = *cta_expected_;
  }
  if (arrived < expected) {  // never released
    o.hang = true;
    return o;
  }
  auto truth = [&](std::size_t t) {
    const bool v = is(Bug::CtaPredLowBit) ? (c.pred[t] & 1u) != 0 : c.pred[t] != 0;
    return v != in_.negate;
  };
  // The reduction over the threads [lo, hi) that take part.
  const std::size_t last = is(Bug::CtaLastThreadDropped) && walked > 0 ? walked - 1 : walked;
  auto reduce = [&](std::size_t lo, std::size_t hi) -> uint32_t {
    hi = std::min(hi, last);
    uint32_t count = 0, all = 1, any = 0, warps = 0;
    for (std::size_t t = lo; t < hi; ++t) {
      if (!executes(t)) continue;
      count += truth(t);
      all &= truth(t);
      any |= truth(t);
    }
    for (std::size_t w0 = lo; w0 < hi; w0 += kWarp) {
      bool warp_any = false;
      for (std::size_t t = w0; t < std::min(hi, w0 + kWarp); ++t)
        warp_any = warp_any || (executes(t) && truth(t));
      warps += warp_any;
    }
    switch (f_.mode) {
      case Mode::Popc:
        if (is(Bug::CtaPopcCountsWarps)) return warps;
        if (is(Bug::CtaPopcAsPredicate)) return count != 0;
        if (is(Bug::CtaPopc8Bit)) return count & 0xffu;
        return count;
      case Mode::And:
        return all;
      case Mode::Or:
        return any;
      default:
        return 0;  // bar.sync
    }
  };
  const uint32_t block = reduce(0, n);
  for (std::size_t t = 0; t < n; ++t) {
    if (!executes(t)) continue;
    if (t >= walked) {  // never released
      o.hang = true;
      continue;
    }
    const std::size_t w0 = t / kWarp * kWarp;
    o.d[t] = is(Bug::CtaWarpLocalReduction) ? reduce(w0, w0 + kWarp) : block;
    o.present[t] = 1;
  }
  return o;
}

// The vectors of a vector file's text.
std::vector<vectors::Vector> read_suite(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  std::vector<vectors::Vector> out;
  std::size_t line_no = 0;
  std::optional<vectors::VectorReader> reader;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (!reader) {
      reader.emplace("vectors.jsonl", vectors::parse_header(line, "vectors.jsonl"));
      continue;
    }
    out.push_back(reader->full(line, line_no));
  }
  return out;
}

// The first set was written before the shuffles, elect.sync and the named block barriers (a
// barrier number other than 0, a thread count, bar.arrive) were in the catalog: it skips them.
bool known_to_the_set(const vectors::Vector& v) {
  const auto& in = v.instr.instr;
  const auto fam = spec::form_info(in.form).family;
  if (fam == spec::Family::Shfl || fam == spec::Family::Elect) return false;
  if (fam != spec::Family::CtaBarrier) return true;
  return in.imm_bar && *in.imm_bar == 0 && !in.has_count && in.form != spec::FormId::BarArrive;
}

std::string results_of(const std::vector<vectors::Vector>& vs, Bug b) {
  std::string out;
  for (const auto& v : vs)
    out += !known_to_the_set(v) ? "{\"id\":" + std::to_string(v.id) + ",\"skipped\":true}\n"
                                : result_text(v, run(v, b)) + "\n";
  return out;
}

}  // namespace

const std::vector<BugInfo>& bug_table() {
  return kBugs;
}

const BugInfo& bug_info(Bug b) {
  for (const auto& x : kBugs)
    if (x.id == b) return x;
  static const BugInfo none{Bug::None, "none", "the correct implementation", {}, {}};
  return none;
}

std::vector<vectors::Observed> run(const vectors::Vector& v, Bug b) {
  Sim sim(v.instr, b);
  std::vector<Observed> out;
  for (const auto& r : v.rounds)
    out.push_back(v.is_cta() ? sim.cta_round(r.cta) : sim.warp_round(r.warp));
  return out;
}

std::string result_text(const vectors::Vector& v, const std::vector<vectors::Observed>& rounds) {
  // result_line writes a round's "hang" and "ub" along with its d and p.
  const auto& f = spec::form_info(v.instr.instr.form);
  return vectors::result_line(v.id, rounds, f.d_type == spec::ResultType::Pred,
                              v.instr.instr.write_p);
}

std::string results_for(const std::string& vectors_jsonl_text, Bug b) {
  return results_of(read_suite(vectors_jsonl_text), b);
}

std::vector<BugOutcome> measure(const std::string& vectors_jsonl_text) {
  const auto suite = read_suite(vectors_jsonl_text);
  std::vector<BugOutcome> out;
  for (const auto& info : kBugs) {
    std::istringstream vin(vectors_jsonl_text), rin(results_of(suite, info.id));
    const auto rep = vectors::check(vin, "vectors.jsonl", rin, "results.jsonl");
    BugOutcome b;
    b.id = info.id;
    b.key = info.key;
    b.mismatches = rep.mismatches;
    b.killed = rep.mismatches > 0;
    auto add = [](std::vector<std::string>& xs, std::string x) {
      if (std::find(xs.begin(), xs.end(), x) == xs.end()) xs.push_back(std::move(x));
    };
    for (const auto& [form, tally] : rep.forms)
      if (tally.mismatch > 0) b.forms.emplace_back(spec::form_info(form).name);
    for (const auto& f : rep.failures) {
      for (const auto& x : f.smallest) add(b.kinds, x.mismatch.what);
      for (const auto& c : f.diagnosis.clauses)
        add(b.clauses, std::string(spec::clause_info(c.clause).key));
      for (auto m : f.diagnosis.mutants) add(b.mutants, std::string(vectors::mutant_info(m).key));
    }
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace warpspec::bugs
