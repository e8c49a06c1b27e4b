// sim.cpp -- "leader": a CPU emulator's elect.sync.
//
// Written from the manual section alone (PTX ISA: elect.sync) and from the
// warpspec-vectors/1 and warpspec-results/1 file formats.
//
// What the section asks, in short: the lanes named by a membermask pick one
// of them as leader; every one of them gets the leader's lane number in d
// (unless d is the sink '_') and a predicate p that holds on the leader alone.
// Which lane leads is not said, only that a given membermask always picks the
// same one.  A lane missing from its own membermask is undefined behaviour,
// and since the instruction waits for every lane its membermask names, a
// named lane that does not execute it is too (here an exited lane counts as
// one that does not execute it: it can never arrive).
//
// Emulator story.  A warp runs on one host thread.  When the executing lanes
// reach elect.sync, a "sync unit" checks the membermasks, groups the lanes
// into rendezvous by membermask, and each rendezvous asks a "pick unit" for a
// leader: a find-first-set over the membermask (the lowest lane).  Then every
// lane of the rendezvous writes d and p to its own registers.  The wrong
// variants ("bugs") are the mistakes such an emulator makes: a rendezvous
// keyed by the wrong thing, a find-first-set with the wrong width, sign or
// base, registers written for some lanes only, state kept from one
// instruction to the next, a sync unit that is stricter than the text or
// that waits for the wrong lanes.  Each bug is one change against the
// correct emulator (bug 0), except where its description says it is one
// change against one of the NOT-A-BUG pick policies (the highest lane).
// The entries marked "NOT A BUG" change only what the text leaves open (the
// choice of leader, as long as it is a function of the membermask alone; the
// sink form's d; rounds with undefined behaviour): a conformance checker must
// let them pass.
//
// Usage:  sim --list
//         sim VECTORS.jsonl N      (N = 0: the correct emulator)

#include <nlohmann/json.hpp>

#include <bit>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

using json = nlohmann::json;
using u32 = uint32_t;
using u64 = uint64_t;
using i32 = int32_t;
using i64 = int64_t;

namespace {

enum Bug : int {
  NONE = 0,
  // who holds the election
  MASK_IGNORED = 1,        // one election over every executing lane
  PER_CALL_SITE,           // one election per membermask and call site
  LIVE_LANES,              // the election runs over every living lane of the warp
  EXITED_ELECTED,          // exited lanes join the candidates
  SHARED_MASK_REGISTER,    // one membermask register per warp, last writer wins
  MASK_LOW_HALF,           // 16-bit pick unit: the mask's high half is dropped
  AMONG_PEERS,             // each lane elects among its peers, itself left out
  NO_WAIT,                 // lanes elect before the others have arrived
  // the pick unit
  FFS_ONE_BASED,           // ffs() used as a lane number: lowest lane + 1
  SIGNED_GUARD,            // isolated lowest bit tested with a signed > 0
  HIGHEST_SIGN_EXTENDED,   // (highest policy) mask widened to 64 bits through int32
  HIGHEST_CLZ,             // (highest policy) clz(m) used as the lane
  HIGHEST_POPCOUNT,        // (highest policy) popc(m) - 1 used as the lane
  // what d holds
  D_AS_MASK,               // d = 1 << leader
  D_OWN_RANK,              // d = the lane's own rank within the membermask
  D_ZERO,                  // d = 0
  D_OWN_LANE,              // d = the lane's own number
  D_ONE_BASED,             // d = leader + 1, p right
  // what p holds
  P_EVERY_LANE,            // p true on every lane
  P_INVERTED,              // p false on the leader, true on the others
  P_WARP_LOWEST,           // p from the warp's lowest executing lane
  P_PER_CALL_SITE,         // p from the lowest lane of the mask at the lane's call site
  P_ONLY_SET,              // p written only on the leader; the others keep the old value
  // state between instructions
  ROUND_ROBIN,             // the k-th election of a mask picks its k-th member
  RANDOM_LEADER,           // a seeded generator picks a member at each election
  STALE_LEADER,            // the first leader of the warp is kept for later elections
  STALE_LEADER_IF_MEMBER,  // the last leader kept when it is in the new mask
  DEPENDS_ON_OTHER_GROUPS, // lowest lane if the group holds the warp's lowest lane, else highest
  SINK_OTHER_LEADER,       // '_|p' elects the highest lane, 'd|p' the lowest
  // the sync unit
  HANG_ON_INACTIVE,        // waits for every living lane of the warp
  HANG_ON_EXITED,          // waits for exited lanes too
  UB_UNLESS_FULL,          // UB unless the membermask is 0xffffffff
  UB_TWO_GROUPS,           // UB when executing lanes pass different membermasks
  UB_EXITED_ANYWHERE,      // UB when any lane of the warp has exited
  UB_SELF_BIT_REVERSED,    // self check reads the mask MSB-first
  // not bugs
  NB_HIGHEST,              // the highest lane of the membermask
  NB_HASH,                 // a member picked by a fixed hash of the membermask
  NB_SECOND_LOWEST,        // the second-lowest lane when there are two or more
  NB_FULL_MASK_LANE31,     // lane 31 for the full mask, the lowest lane otherwise
  NB_PARITY,               // highest lane for an even count of lanes, lowest for an odd one
  NB_NO_UB_CHECK,          // never reports UB
  NB_EXITED_EXCUSED,       // an exited lane named in a membermask is not waited for
  NB_SINK_D_JUNK,          // '_|p': a d is written anyway, and it is junk
  NB_HANG_ON_UB,           // a round with UB hangs instead of being reported
  BUG_COUNT
};

struct BugInfo {
  int n;
  const char* key;
  const char* forms;
  const char* desc;
};

constexpr const char* F = "elect.sync";

const BugInfo kBugs[] = {
  {MASK_IGNORED, "membermask_ignored", F, "one election over every executing lane of the warp, whatever the membermask"},
  {PER_CALL_SITE, "election_per_call_site", F, "rendezvous keyed by membermask and call site: lanes of one mask arriving from two branches elect two leaders"},
  {LIVE_LANES, "elects_among_live_lanes", F, "the candidates are every lane of the warp that has not exited (inactive lanes and other masks' lanes included)"},
  {EXITED_ELECTED, "exited_lanes_are_candidates", F, "the candidates are the membermask's lanes and the exited lanes (counted as arrived): an exited lane below the mask is elected"},
  {SHARED_MASK_REGISTER, "one_mask_register_per_warp", F, "one membermask register per warp, written by each executing lane in turn: every lane elects from the highest executing lane's mask"},
  {MASK_LOW_HALF, "mask_high_half_dropped", F, "16-bit pick unit: the leader is the lowest lane of the mask's low half, and 0 when the low half is empty"},
  {AMONG_PEERS, "elects_among_peers", F, "each lane elects the lowest lane of its membermask other than itself (the peers it waits for)"},
  {NO_WAIT, "elects_before_all_arrive", F, "no wait: lanes run from lane 31 down and each elects the lowest lane of its mask that has arrived, i.e. itself"},
  {FFS_ONE_BASED, "leader_is_ffs", F, "the leader is ffs(membermask), one-based: the lane above the lowest member, for d and p alike"},
  {SIGNED_GUARD, "signed_guard_drops_lane31", F, "the lowest member isolated as m & -m in an int and guarded with > 0 against an empty mask: a lowest member at lane 31 gives lane 0"},
  {HIGHEST_SIGN_EXTENDED, "highest_lane_sign_extended", F, "(one change against the highest-lane policy) the mask widened to 64 bits through int32 before 63 - clz: lane 31 in the mask elects lane 63"},
  {HIGHEST_CLZ, "highest_lane_as_clz", F, "(one change against the highest-lane policy) clz(m) taken as the lane, without 31 - clz(m)"},
  {HIGHEST_POPCOUNT, "highest_lane_as_popcount", F, "(one change against the highest-lane policy) the highest lane taken as popc(m) - 1, right only for masks that start at lane 0 with no gap"},
  {D_AS_MASK, "d_as_leader_mask", F, "d holds the leader as a one-bit mask (1 << lane) instead of its lane number"},
  {D_OWN_RANK, "d_own_rank_in_mask", F, "d holds the lane's own rank within its membermask (a coalesced group's thread rank)"},
  {D_ZERO, "d_always_zero", F, "d holds 0 on every lane (the leader's rank, which the lowest-lane policy makes 0, taken for its lane)"},
  {D_OWN_LANE, "d_own_lane", F, "d holds the lane's own number; p is right"},
  {D_ONE_BASED, "d_one_based", F, "d holds the leader's lane number plus one; p is set on the leader itself"},
  {P_EVERY_LANE, "p_on_every_lane", F, "p is true on every lane of the election"},
  {P_INVERTED, "p_inverted", F, "p is false on the leader and true on the other lanes"},
  {P_WARP_LOWEST, "p_from_warp_lowest_lane", F, "p is set on the warp's lowest executing lane, not on each election's leader; d is right"},
  {P_PER_CALL_SITE, "p_per_call_site", F, "p is set on the lowest lane of the membermask at the lane's own call site; d is right"},
  {P_ONLY_SET, "p_written_only_on_leader", F, "p is written only on the leader; the other lanes keep the predicate of their previous elect (false at launch)"},
  {ROUND_ROBIN, "leader_round_robin", F, "the k-th election with a membermask (from launch) picks the mask's k-th member, modulo its size"},
  {RANDOM_LEADER, "leader_random", F, "a seeded generator picks a member of the mask at each election, advancing from launch"},
  {STALE_LEADER, "leader_kept_from_first_call", F, "the warp's first leader is kept in a register and given again by every later election, whatever its mask"},
  {STALE_LEADER_IF_MEMBER, "leader_kept_while_member", F, "the warp's last leader is kept in a register and given again when it is in the new mask (lowest lane otherwise)"},
  {DEPENDS_ON_OTHER_GROUPS, "leader_depends_on_other_groups", F, "the lowest lane when the mask holds the warp's lowest executing lane, else the highest: the same mask elects differently beside other groups"},
  {SINK_OTHER_LEADER, "sink_form_elects_highest", F, "'_|p' is emulated by another path that elects the highest lane, 'd|p' the lowest: the same mask elects two lanes"},
  {HANG_ON_INACTIVE, "waits_for_inactive_lanes", F, "the rendezvous waits for every living lane of the warp: a lane that stays away hangs it"},
  {HANG_ON_EXITED, "waits_for_exited_lanes", F, "the rendezvous counts the warp's lanes from launch and an exit never deregisters one: it hangs once a lane has exited"},
  {UB_UNLESS_FULL, "ub_unless_full_mask", F, "the sync unit supports only the full warp: any other membermask is reported as UB"},
  {UB_TWO_GROUPS, "ub_on_two_groups", F, "executing lanes that pass different membermasks are reported as UB, disjoint groups included"},
  {UB_EXITED_ANYWHERE, "ub_on_exited_lane", F, "an exited lane is reported as an absent peer whether or not a membermask names it"},
  {UB_SELF_BIT_REVERSED, "ub_self_check_bit_reversed", F, "the check that a lane is in its own membermask reads bit 31 - lane (the mask read MSB-first)"},
  {NB_HIGHEST, "nb_highest_lane", F, "NOT A BUG: the highest lane of the membermask leads"},
  {NB_HASH, "nb_hash_of_mask", F, "NOT A BUG: the leader is the member whose rank is a fixed hash of the membermask, modulo the mask's size"},
  {NB_SECOND_LOWEST, "nb_second_lowest", F, "NOT A BUG: the second-lowest lane leads when the mask names two or more lanes"},
  {NB_FULL_MASK_LANE31, "nb_full_mask_elects_lane31", F, "NOT A BUG: a fast path for the full mask elects lane 31; other masks elect their lowest lane"},
  {NB_PARITY, "nb_parity_policy", F, "NOT A BUG: the highest lane for a mask with an even number of lanes, the lowest for an odd one"},
  {NB_NO_UB_CHECK, "nb_no_ub_check", F, "NOT A BUG: the sync unit never reports UB; rounds with UB get computed values"},
  {NB_EXITED_EXCUSED, "nb_exited_named_excused", F, "NOT A BUG: an exited lane named in a membermask is not waited for (as in the other warp forms) and is never elected"},
  {NB_SINK_D_JUNK, "nb_sink_form_writes_junk_d", F, "NOT A BUG: for '_|p' a d is written anyway, 0xdeadbeef on every lane; p is right"},
  {NB_HANG_ON_UB, "nb_hangs_on_ub", F, "NOT A BUG: a round with UB hangs (the rendezvous waits for a lane that never comes) instead of being reported"},
};
static_assert(sizeof(kBugs) / sizeof(kBugs[0]) == BUG_COUNT - 1);

int BUG = 0;
bool is(Bug b) { return BUG == b; }

u32 to_u32(const json& v) {
  if (v.is_string()) return static_cast<u32>(std::stoull(v.get<std::string>(), nullptr, 0));
  if (v.is_number_unsigned()) return static_cast<u32>(v.get<uint64_t>());
  if (v.is_number_integer()) return static_cast<u32>(v.get<int64_t>());
  if (v.is_boolean()) return v.get<bool>() ? 1u : 0u;
  throw std::runtime_error("not a 32-bit value: " + v.dump());
}

// A PTX integer literal (0x.., 0b.., octal, decimal, optional sign and U suffix), if it is one.
std::optional<u32> ptx_literal(std::string t) {
  while (!t.empty() && (t.back() == 'U' || t.back() == 'u')) t.pop_back();
  if (t.empty()) return std::nullopt;
  bool neg = false;
  size_t i = 0;
  if (t[0] == '-' || t[0] == '+') {
    neg = t[0] == '-';
    i = 1;
  }
  std::string body = t.substr(i);
  if (body.empty() || !std::isdigit(static_cast<unsigned char>(body[0]))) return std::nullopt;
  int base = 10;
  if (body.size() > 1 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X')) {
    base = 16;
    body = body.substr(2);
  } else if (body.size() > 1 && body[0] == '0' && (body[1] == 'b' || body[1] == 'B')) {
    base = 2;
    body = body.substr(2);
  } else if (body.size() > 1 && body[0] == '0') {
    base = 8;
    body = body.substr(1);
  }
  if (body.empty()) return std::nullopt;
  size_t used = 0;
  unsigned long long x = 0;
  try {
    x = std::stoull(body, &used, base);
  } catch (...) {
    return std::nullopt;
  }
  if (used != body.size()) return std::nullopt;
  return static_cast<u32>(neg ? 0ull - x : x);
}

// The operands of "elect.sync d|p, m;" after the opcode, trimmed.
std::vector<std::string> operands(const std::string& text) {
  std::vector<std::string> out;
  size_t sp = text.find_first_of(" \t");
  if (sp == std::string::npos) return out;
  std::string cur;
  for (size_t i = sp; i < text.size(); ++i) {
    const char ch = text[i];
    if (ch == ',' || ch == ';') {
      out.push_back(cur);
      cur.clear();
      if (ch == ';') break;
    } else if (!std::isspace(static_cast<unsigned char>(ch))) {
      cur += ch;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// One value for all lanes, or an array of 32; absent: the operand's immediate (or 0).
std::vector<u32> per_lane(const json& round, const char* key, const std::string& operand = "") {
  std::vector<u32> out(32, 0);
  if (!round.contains(key)) {
    if (auto x = ptx_literal(operand))
      for (auto& o : out) o = *x;
    return out;
  }
  const json& v = round[key];
  if (v.is_array()) {
    for (size_t i = 0; i < 32 && i < v.size(); ++i) out[i] = to_u32(v[i]);
  } else {
    const u32 x = to_u32(v);
    for (auto& o : out) o = x;
  }
  return out;
}

bool bit(u32 m, u32 i) { return i < 32 && ((m >> i) & 1u); }
u32 lowest(u32 m) { return static_cast<u32>(std::countr_zero(m)); }        // 32 when empty
u32 highest(u32 m) { return m ? 31u - static_cast<u32>(std::countl_zero(m)) : 32u; }

// The n-th member (from 0) of m, n taken modulo the size of m.
u32 nth_member(u32 m, u32 n) {
  const u32 size = static_cast<u32>(std::popcount(m));
  if (size == 0) return 32;
  n %= size;
  for (u32 k = 0; k < 32; ++k)
    if (bit(m, k)) {
      if (n == 0) return k;
      --n;
    }
  return 32;
}

// Per-warp state that lives from launch (one vector) to the end of the program.
struct WarpRegs {
  std::map<u32, u32> elections_of_mask;  // ROUND_ROBIN
  bool leader_valid = false;             // STALE_LEADER, STALE_LEADER_IF_MEMBER
  u32 leader_reg = 0;
  std::vector<bool> p_reg = std::vector<bool>(32, false);  // P_ONLY_SET
};

// One generator for the whole run (RANDOM_LEADER): seeded, so the run is reproducible.
u64 rng_state = 0x2545f4914f6cdd1dull;
u32 next_random() {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return static_cast<u32>(rng_state >> 32);
}

struct Warp {
  u32 exited = 0, inactive = 0, exec = 0;
  std::vector<u32> mask, site;
  bool sink = false;  // '_|p'
};

// The sync unit: does this round have undefined behaviour?
bool sync_unit_reports_ub(const Warp& w) {
  if (is(NB_NO_UB_CHECK)) return false;
  if (is(UB_EXITED_ANYWHERE) && w.exited != 0) return true;
  for (u32 L = 0; L < 32; ++L) {
    if (!bit(w.exec, L)) continue;
    const u32 m = w.mask[L];
    const u32 self = is(UB_SELF_BIT_REVERSED) ? 31 - L : L;
    if (!bit(m, self)) return true;                  // the lane is not in its own mask
    if (is(UB_UNLESS_FULL) && m != 0xffffffffu) return true;
    if (is(UB_TWO_GROUPS)) {
      for (u32 k = 0; k < 32; ++k)
        if (bit(w.exec, k) && w.mask[k] != m) return true;
    }
    for (u32 k = 0; k < 32; ++k) {
      if (!bit(m, k)) continue;
      if (is(NB_EXITED_EXCUSED) && bit(w.exited, k)) continue;
      if (!bit(w.exec, k)) return true;              // named, and never arrives
      if (w.mask[k] != m) return true;               // named, with another mask
    }
  }
  return false;
}

// The pick unit: the leader among the candidates m (a lane number; 32 or more
// when no lane of the warp can lead).
u32 pick(u32 m, const Warp& w, WarpRegs& regs) {
  if (is(FFS_ONE_BASED)) return static_cast<u32>(__builtin_ffs(static_cast<int>(m)));
  if (is(SIGNED_GUARD)) {
    const i32 low = static_cast<i32>(m & (0u - m));
    return low > 0 ? lowest(static_cast<u32>(low)) : 0u;
  }
  if (is(HIGHEST_SIGN_EXTENDED)) {
    const i64 wide = static_cast<i64>(static_cast<i32>(m));
    return wide ? 63u - static_cast<u32>(std::countl_zero(static_cast<u64>(wide))) : 64u;
  }
  if (is(HIGHEST_CLZ)) return static_cast<u32>(std::countl_zero(m));
  if (is(HIGHEST_POPCOUNT)) return static_cast<u32>(std::popcount(m)) - 1u;
  if (is(MASK_LOW_HALF)) {
    const u32 low = m & 0xffffu;
    return low ? lowest(low) : 0u;
  }
  if (is(ROUND_ROBIN)) return nth_member(m, regs.elections_of_mask[m]++);
  if (is(RANDOM_LEADER)) return nth_member(m, next_random());
  if (is(STALE_LEADER)) {
    if (!regs.leader_valid) {
      regs.leader_reg = lowest(m);
      regs.leader_valid = true;
    }
    return regs.leader_reg;
  }
  if (is(STALE_LEADER_IF_MEMBER)) {
    if (!regs.leader_valid || !bit(m, regs.leader_reg)) {
      regs.leader_reg = lowest(m);
      regs.leader_valid = true;
    }
    return regs.leader_reg;
  }
  if (is(DEPENDS_ON_OTHER_GROUPS)) return bit(m, lowest(w.exec)) ? lowest(m) : highest(m);
  if (is(SINK_OTHER_LEADER)) return w.sink ? highest(m) : lowest(m);
  if (is(NB_HIGHEST)) return highest(m);
  if (is(NB_HASH)) return nth_member(m, (m * 0x9e3779b1u) >> 27);
  if (is(NB_SECOND_LOWEST)) return std::popcount(m) >= 2 ? lowest(m & (m - 1)) : lowest(m);
  if (is(NB_FULL_MASK_LANE31)) return m == 0xffffffffu ? 31u : lowest(m);
  if (is(NB_PARITY)) return std::popcount(m) % 2 == 0 ? highest(m) : lowest(m);
  if (is(NB_EXITED_EXCUSED)) return lowest(m & ~w.exited);
  return lowest(m);
}

// The candidates a lane's rendezvous elects from.
u32 candidates(u32 lane, const Warp& w) {
  const u32 m = w.mask[lane];
  if (is(MASK_IGNORED)) return w.exec;
  if (is(LIVE_LANES)) return ~w.exited;
  if (is(EXITED_ELECTED)) return m | w.exited;
  if (is(SHARED_MASK_REGISTER)) return w.mask[highest(w.exec)];
  if (is(PER_CALL_SITE)) {
    u32 same_site = 0;
    for (u32 k = 0; k < 32; ++k)
      if (w.site[k] == w.site[lane]) same_site |= 1u << k;
    return m & same_site;
  }
  if (is(AMONG_PEERS)) return m & ~(1u << lane);
  return m;
}

std::string hex(u32 x) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", x);
  return buf;
}

// One round; sets `hang` when the round does not complete.
json run_round(const std::vector<std::string>& ops, bool sink, const json& round, WarpRegs& regs,
               bool& hang) {
  auto op = [&](size_t i) { return i < ops.size() ? ops[i] : std::string(); };
  Warp w;
  w.sink = sink;
  w.exited = round.contains("exited") ? to_u32(round["exited"]) : 0;
  w.inactive = round.contains("inactive") ? to_u32(round["inactive"]) : 0;
  w.exec = ~(w.exited | w.inactive);
  w.mask = per_lane(round, "mask", op(1));
  w.site = per_lane(round, "site");

  if (sync_unit_reports_ub(w)) {
    if (is(NB_HANG_ON_UB)) {
      hang = true;
      return json{{"hang", true}};
    }
    return json{{"ub", true}};
  }
  if ((is(HANG_ON_INACTIVE) && (w.inactive & ~w.exited) != 0) ||
      (is(HANG_ON_EXITED) && w.exited != 0)) {
    hang = true;
    return json{{"hang", true}};
  }

  // One election per rendezvous, in the order of the rendezvous' lowest lane.
  std::map<std::pair<u32, u32>, u32> leader_of;  // (candidates, lane for AMONG_PEERS) -> leader
  std::vector<u32> leader(32, 0);
  for (u32 lane = 0; lane < 32; ++lane) {
    if (!bit(w.exec, lane)) continue;
    const u32 c = candidates(lane, w);
    const std::pair<u32, u32> key{c, is(AMONG_PEERS) ? lane : 0u};
    auto it = leader_of.find(key);
    if (it == leader_of.end()) it = leader_of.emplace(key, pick(c, w, regs)).first;
    leader[lane] = it->second;
  }
  if (is(NO_WAIT))
    for (u32 lane = 31; lane < 32; --lane)
      if (bit(w.exec, lane)) leader[lane] = lane;  // arrived so far: the lanes above it, and itself

  json d = json::array(), p = json::array();
  const u32 warp_lowest = lowest(w.exec);
  for (u32 lane = 0; lane < 32; ++lane) {
    if (!bit(w.exec, lane)) {
      d.push_back(nullptr);
      p.push_back(nullptr);
      continue;
    }
    const u32 m = w.mask[lane];
    const u32 L = leader[lane];
    u32 dval = L;
    if (is(D_AS_MASK)) dval = L < 32 ? 1u << L : 0u;
    if (is(D_OWN_RANK)) dval = static_cast<u32>(std::popcount(m & ((1u << lane) - 1u)));
    if (is(D_ZERO)) dval = 0;
    if (is(D_OWN_LANE)) dval = lane;
    if (is(D_ONE_BASED)) dval = L + 1;
    if (is(NB_SINK_D_JUNK) && sink) dval = 0xdeadbeefu;

    bool pval = lane == L;
    if (is(P_EVERY_LANE)) pval = true;
    if (is(P_INVERTED)) pval = lane != L;
    if (is(P_WARP_LOWEST)) pval = lane == warp_lowest;
    if (is(P_PER_CALL_SITE)) {
      u32 same_site = 0;
      for (u32 k = 0; k < 32; ++k)
        if (w.site[k] == w.site[lane]) same_site |= 1u << k;
      pval = lane == lowest(m & same_site);
    }
    if (is(P_ONLY_SET)) {
      if (lane == L) regs.p_reg[lane] = true;
      pval = regs.p_reg[lane];
    }

    d.push_back(hex(dval));
    p.push_back(pval ? 1 : 0);
  }
  if (sink && !is(NB_SINK_D_JUNK)) return json{{"p", p}};
  return json{{"d", d}, {"p", p}};
}

json run_vector(const json& v) {
  const std::string form = v.value("form", "");
  if (form != "elect.sync") return json{{"id", v["id"]}, {"skipped", true}};
  const std::vector<std::string> ops = operands(v.value("instruction", ""));
  // d is the sink when the destination is written "_|p".
  const bool sink = !ops.empty() && ops[0].rfind("_|", 0) == 0;
  WarpRegs regs;
  json rounds = json::array();
  bool hang = false;
  for (const auto& r : v["rounds"]) {
    rounds.push_back(run_round(ops, sink, r, regs, hang));
    if (hang) break;  // the rounds after a hang do not run
  }
  return json{{"id", v["id"]}, {"rounds", rounds}};
}

}  // namespace

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
  if (BUG < 0 || BUG >= BUG_COUNT) {
    std::fprintf(stderr, "no bug %d (0..%d)\n", BUG, BUG_COUNT - 1);
    return 2;
  }
  std::ifstream f(argv[1]);
  if (!f) {
    std::fprintf(stderr, "cannot open %s\n", argv[1]);
    return 2;
  }
  std::cout << json{{"schema", "warpspec-results/1"}}.dump() << "\n";
  std::string line;
  bool first = true;
  while (std::getline(f, line)) {
    if (line.empty()) continue;
    json v = json::parse(line);
    if (first) {
      first = false;
      if (v.contains("schema")) continue;
    }
    if (!v.contains("rounds")) continue;
    std::cout << run_vector(v).dump() << "\n";
  }
  return 0;
}
