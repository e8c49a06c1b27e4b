#include "capture/generate.hpp"

#include <algorithm>
#include <bit>
#include <random>

#include "capture/generate_detail.hpp"

namespace warpspec::capture {

namespace {
constexpr unsigned kW = spec::kWarpSize;
using model::LaneStatus;
constexpr StateSet kAllSets[] = {
    StateSet::Main,           StateSet::TwoSite,          StateSet::ProbeSelfOutside,
    StateSet::ProbeEmptyMask, StateSet::ProbeExitedOnly,  StateSet::ProbeNamesExited,
    StateSet::ProbeNamesIdle, StateSet::ProbeMaskMismatch};

using detail::Rng;
using detail::set_invocation;

uint32_t range_mask(unsigned lo, unsigned hi) {  // lanes [lo, hi)
  uint64_t m = ((uint64_t{1} << hi) - 1) & ~((uint64_t{1} << lo) - 1);
  return static_cast<uint32_t>(m);
}

// ---------------------------------------------------------------- operand values

constexpr uint32_t kCorner32[] = {0u,          1u,          2u,          0x7fffffffu,
                                  0x80000000u, 0x80000001u, 0xffffffffu, 0xfffffffeu,
                                  0x55555555u, 0xaaaaaaaau, 0x0000ffffu, 0xffff0000u};
constexpr uint64_t kCorner64[] = {0ull,
                                  1ull,
                                  0x100000000ull,
                                  0xffffffffull,
                                  0xffffffff00000000ull,
                                  ~0ull,
                                  0x8000000000000000ull,
                                  0x7fffffffffffffffull,
                                  0x0000000100000001ull,
                                  0x8000000000000001ull};
// +0, -0, quiet NaNs with and without payload and sign, a signalling NaN, the canonical NaN,
// infinities, 1.0 and -1.0, the smallest denormals.
constexpr uint32_t kCornerF32[] = {0x00000000u, 0x80000000u, 0x7fc00000u, 0xffc00000u, 0x7fc00001u,
                                   0x7f800001u, 0x7fffffffu, 0x7f800000u, 0xff800000u, 0x3f800000u,
                                   0xbf800000u, 0x00000001u, 0x80000001u};
constexpr uint64_t kCornerF64[] = {
    0x0000000000000000ull, 0x8000000000000000ull, 0x7ff8000000000000ull, 0xfff8000000000000ull,
    0x7ff8000000000001ull, 0x7ff0000000000001ull, 0x7ff8000100000000ull, 0x7ff0000000000000ull,
    0xfff0000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull, 0x0000000000000001ull,
    0x3ff0000000000001ull};
using detail::kPredTrue;

/// One value of the kind: a corner, or a random word.
uint64_t one_value(Rng& g, ValueKind k) {
  switch (k) {
    case ValueKind::B32:
      return g.chance(60) ? g.pick(kCorner32) : g.u32();
    case ValueKind::B64:
      if (g.chance(30)) return g.pick(kCorner64);
      if (g.chance(30)) return uint64_t{g.pick(kCorner32)} << (g.chance(50) ? 32 : 0);
      return g.u64();
    case ValueKind::F32:
      return g.chance(75) ? g.pick(kCornerF32) : g.u32();
    case ValueKind::F64:
      return g.chance(75) ? g.pick(kCornerF64) : g.u64();
    case ValueKind::Pred:
      return g.chance(50) ? 0 : g.pick(kPredTrue);
    case ValueKind::None:
      return 0;
  }
  return 0;
}

/// Values of lanes that agree in the low 32 bits and differ only in the high half.
std::vector<uint64_t> high_half_family(Rng& g, bool is_f64) {
  uint64_t base = is_f64 ? g.pick(kCornerF64) : (g.chance(50) ? g.pick(kCorner64) : g.u64());
  std::vector<uint64_t> out{base};
  const uint64_t flips[] = {1ull << 32, 1ull << 63, 0xffffffff00000000ull,
                            1ull << (32 + g.below(32))};
  for (unsigned k = 0; k < 1 + g.below(3); ++k) out.push_back(base ^ flips[g.below(4)]);
  return out;
}

/// Fills the 32 operands by one of several styles, chosen per state; returns the style's name.
std::string fill_values(Rng& g, ValueKind k, std::array<uint64_t, kW>& a) {
  if (k == ValueKind::None) {
    a.fill(0);
    return "";
  }
  const bool wide = k == ValueKind::B64 || k == ValueKind::F64;
  if (k == ValueKind::Pred) {
    switch (g.below(6)) {
      case 0:
        for (auto& x : a) x = g.pick(kPredTrue);
        return "all-true";
      case 1:
        a.fill(0);
        return "all-false";
      case 2:
        a.fill(0);
        a[g.below(kW)] = g.pick(kPredTrue);
        return "one-true";
      case 3:
        for (auto& x : a) x = g.pick(kPredTrue);
        a[g.below(kW)] = 0;
        return "one-false";
      default:
        for (auto& x : a) x = one_value(g, k);
        return "mixed";
    }
  }
  switch (g.below(wide ? 7 : 6)) {
    case 0:
      a.fill(one_value(g, k));
      return "equal";
    case 1: {  // all equal but one: the case match.all must refuse
      a.fill(one_value(g, k));
      uint64_t other = one_value(g, k);
      if (other == a[0]) other ^= wide ? (1ull << 32) : 1u;
      a[g.below(kW)] = other;
      return "one-differs";
    }
    case 2: {
      std::vector<uint64_t> pool;
      for (unsigned i = 0; i < 2 + g.below(2); ++i) pool.push_back(one_value(g, k));
      for (auto& x : a) x = pool[g.below(static_cast<unsigned>(pool.size()))];
      return "few";
    }
    case 3:
      for (auto& x : a) x = one_value(g, k);
      return "corners";
    case 4:
      for (auto& x : a) x = wide ? g.u64() : g.u32();
      return "random";
    case 5:
      for (auto& x : a) x = g.below(4);
      return "small";
    default: {
      auto fam = high_half_family(g, k == ValueKind::F64);
      for (auto& x : a) x = fam[g.below(static_cast<unsigned>(fam.size()))];
      return "high-half";
    }
  }
}

// ---------------------------------------------------------------- shuffle operands

/// A shuffle's values: lane-distinct most of the time, so that d shows which lane was read.
std::string fill_shuffle_values(Rng& g, std::array<uint64_t, kW>& a) {
  switch (g.below(8)) {
    case 0:
    case 1:
    case 2:
    case 3:
      // The lane number in the low five bits, random bits above: distinct, and never 0.
      for (unsigned i = 0; i < kW; ++i) a[i] = (g.u32() & ~0x1fu) | i;
      if (a[0] == 0) a[0] = 0x20;
      return "distinct";
    case 4:
      for (unsigned i = 0; i < kW; ++i) a[i] = i;
      return "lane-ids";
    case 5: {
      // Float bit patterns (NaN payloads, -0.0, denormals) that a copy must keep as they are.
      const unsigned k = g.below(std::size(kCornerF32));
      for (unsigned i = 0; i < kW; ++i) a[i] = kCornerF32[(i + k) % std::size(kCornerF32)];
      return "float-bits";
    }
    case 6:
      for (auto& x : a) x = g.u32();
      return "random";
    default:
      return fill_values(g, ValueKind::B32, a);  // equal, few, corners, small...
  }
}

/// A width for an intrinsic: a power of two, the tile's width (when the lanes form tiles) more
/// often than the others.
uint32_t one_width(Rng& g, unsigned tile) {
  return tile && g.chance(50) ? tile : 1u << g.below(6);
}

/// A shuffle's b: within 0..31, past 31 (only the low five bits count), or a large word.
uint32_t one_b(Rng& g, std::string& kind) {
  constexpr uint32_t kLarge[] = {0xffffffffu, 0x80000000u, 0x7fffffffu, 0xffffffe0u,
                                 0xffffffe1u, 0x00000100u, 0x0001001fu};
  switch (g.below(7)) {
    case 0:
    case 1:
    case 2:
      kind = "small";
      return g.below(32);
    case 3:
      kind = "wide";
      return 32 + g.below(32);
    case 4:
      kind = "large";
      return g.pick(kLarge);
    case 5:
      kind = "large";
      return g.u32();
    default:
      kind = "small";
      return g.pick({0u, 1u, 2u, 16u, 31u});
  }
}

/// A shift within a segment of `width` lanes: the offsets reductions and scans use (1, 2, 4, ...)
/// or any below the width; the shuffle then mostly stays in range.
uint32_t near_b(Rng& g, uint32_t width) {
  const unsigned k = static_cast<unsigned>(std::countr_zero(width));
  if (k == 0) return 0;
  return g.chance(50) ? 1u << g.below(k) : g.below(width);
}

/// A shuffle's c: a width's segment mask with the intrinsics' clamp or another one, an odd
/// segment mask, a clamp alone, or bits set outside the ten that count. `width` receives the
/// segment's width where c has a width's segment mask, else 32.
uint32_t one_c(Rng& g, spec::FormId form, unsigned tile, std::string& kind, uint32_t& width) {
  width = one_width(g, tile);
  const uint32_t lowered = spec::shfl_c_of_width(width, spec::form_info(form).mode);
  switch (g.below(20)) {
    case 0:
    case 1:
    case 2:
    case 3:
    case 4:
    case 5:
    case 6:
    case 7:
      kind = "width";
      return lowered;
    case 8:
    case 9:
    case 10:
      kind = "width-clamp";
      return (lowered & ~0x1fu) | g.below(32);
    case 11:
    case 12:
    case 13:
      kind = "odd";  // any five-bit segment mask, e.g. 0b10101
      width = 32;
      return (g.below(32) << 8) | g.below(32);
    case 14:
    case 15:
      kind = "clamp";
      width = 32;
      return g.below(32);
    case 16:
    case 17:
      kind = "junk";
      return lowered | (g.u32() & ~0x1f1fu);
    default:
      kind = "random";
      width = 32;
      return g.u32();
  }
}

/// Draws b and c (and, for an intrinsic, the width each lane passes) for a shuffle state, the
/// same on every lane or lane by lane; returns the tag's part, e.g. "/b-wide/c-odd". c comes
/// first: where it gives segments of a width, some b are drawn as shifts within them.
std::string draw_shuffle_operands(Rng& g, const Variant& v, WarpRecord& r, unsigned tile) {
  std::string b_tag, c_tag, kind;
  uint32_t width = 32;
  const bool c_per_lane = g.chance(25);
  if (v.via == Via::Intrinsic) {
    r.width.emplace();
    auto& w = *r.width;
    if (c_per_lane)
      for (auto& x : w) x = one_width(g, tile);
    else
      w.fill(one_width(g, tile));
    for (unsigned i = 0; i < kW; ++i)
      r.c[i] = spec::shfl_c_of_width(w[i], spec::form_info(v.form).mode);
    width = c_per_lane ? 32 : w[0];
    c_tag = c_per_lane ? "w-lanes" : "w" + std::to_string(w[0]);
  } else if (c_per_lane) {
    uint32_t ignored = 0;
    for (auto& x : r.c) x = one_c(g, v.form, tile, kind, ignored);
    c_tag = "c-lanes";
  } else {
    r.c.fill(one_c(g, v.form, tile, kind, width));
    c_tag = "c-" + kind;
  }
  switch (g.below(10)) {
    case 0:
    case 1:
    case 2:
      r.b.fill(one_b(g, kind));
      b_tag = kind;
      break;
    case 3:
    case 4:
    case 5:
      r.b.fill(near_b(g, width));
      b_tag = "near";
      break;
    case 6:
    case 7:
      for (auto& x : r.b) x = one_b(g, kind);
      b_tag = "lanes";
      break;
    case 8:
      for (auto& x : r.b) x = near_b(g, width);
      b_tag = "lanes-near";
      break;
    default: {
      // A permutation of the lanes (for .idx: every lane reads another one), maybe past 31.
      const uint32_t mul = 1 + 2 * g.below(16), add = g.below(64);
      for (unsigned i = 0; i < kW; ++i) r.b[i] = (i * mul + add) & 63;
      b_tag = "perm";
      break;
    }
  }
  return "/b-" + b_tag + "/" + c_tag;
}

/// Shuffles: takes one to three executing lanes out of the instruction, now and then, so that
/// their neighbours read a lane that does not take part: an exited lane (it may stay named in its
/// group's mask) or an inactive one (no longer named). Returns "+holes", or "" when none.
std::string punch_holes(Rng& g, WarpRecord& r, std::vector<uint32_t>& groups, uint32_t& exited) {
  uint32_t exec = 0;
  for (auto grp : groups) exec |= grp;
  if (!g.chance(40) || std::popcount(exec) < 2) return "";
  for (unsigned k = 0, n = 1 + g.below(3); k < n && std::popcount(exec) > 1; ++k) {
    const unsigned x = g.lane_in(exec);
    const uint32_t bit = 1u << x;
    exec &= ~bit;
    for (auto& grp : groups) {
      if (!(grp & bit)) continue;
      grp &= ~bit;
      if (g.chance(50)) {
        r.status[x] = LaneStatus::Exited;
        exited |= bit;
      } else {
        r.status[x] = LaneStatus::Inactive;
        for (unsigned i = 0; i < kW; ++i)
          if ((grp >> i) & 1u) r.mask[i] &= ~bit;
      }
    }
  }
  std::erase(groups, 0u);
  return "+holes";
}

// ---------------------------------------------------------------- lanes and masks

/// Which lanes have exited before the instruction.
uint32_t choose_exited(Rng& g) {
  switch (g.below(20)) {
    case 0:
    case 1:
    case 2:
    case 3:
    case 4:
    case 5:
    case 6:
    case 7:
    case 8:
      return 0;
    case 9:
    case 10:
    case 11: {
      uint32_t m = 0;
      for (unsigned k = 0; k < 1 + g.below(3); ++k) m |= 1u << g.below(kW);
      return m;
    }
    case 12:
    case 13:
      return g.subset(~0u, 50);
    case 14: {
      unsigned lo = g.below(kW), hi = lo + 1 + g.below(kW - lo);
      return range_mask(lo, hi);
    }
    case 15:
      return g.chance(50) ? 0xffff0000u : 0x0000ffffu;
    case 16:
      return g.chance(50) ? 0x55555555u : 0xaaaaaaaau;
    default: {  // all but one or two lanes: near-empty masks once exited lanes are left out
      uint32_t keep = 1u << g.below(kW);
      if (g.chance(50)) keep |= 1u << g.below(kW);
      return ~keep;
    }
  }
}

/// Groups of executing lanes: disjoint subsets of `alive`. Each group later gets one mask.
std::vector<uint32_t> choose_groups(Rng& g, uint32_t alive, std::string& pattern,
                                    std::vector<uint32_t>& tiles) {
  std::vector<uint32_t> groups;
  tiles.clear();
  switch (g.below(9)) {
    case 0:
    case 1:
      pattern = "full";
      groups.push_back(alive);
      break;
    case 2:
      pattern = "single";
      groups.push_back(1u << g.lane_in(alive));
      break;
    case 3: {
      pattern = "contiguous";
      unsigned lo = g.below(kW), hi = lo + 1 + g.below(kW - lo);
      groups.push_back(range_mask(lo, hi) & alive);
      tiles.push_back(range_mask(lo, hi));
      break;
    }
    case 4:
      pattern = "holed";
      groups.push_back(g.subset(alive, g.pick({30u, 50u, 80u, 95u})));
      break;
    case 5:
    case 6: {
      const unsigned width = g.pick({2u, 4u, 8u, 16u});
      pattern = "tiles" + std::to_string(width);
      for (unsigned lo = 0; lo < kW; lo += width) {
        const uint32_t tile = range_mask(lo, lo + width);
        if (g.chance(85)) groups.push_back(tile & alive), tiles.push_back(tile);
      }
      break;
    }
    case 7:
      pattern = "even-odd";
      groups.push_back(alive & 0x55555555u);
      groups.push_back(alive & 0xaaaaaaaau);
      tiles = {0x55555555u, 0xaaaaaaaau};
      break;
    default: {
      pattern = "partition";
      const unsigned k = 2 + g.below(3);
      std::vector<uint32_t> parts(k, 0);
      for (unsigned i = 0; i < kW; ++i)
        if ((alive >> i) & 1u) parts[g.below(k)] |= 1u << i;
      for (auto p : parts)
        if (g.chance(85)) groups.push_back(p);
      break;
    }
  }
  // Empty groups execute nothing; keep tiles aligned with groups.
  std::vector<uint32_t> g2, t2;
  for (std::size_t i = 0; i < groups.size(); ++i)
    if (groups[i]) {
      g2.push_back(groups[i]);
      if (i < tiles.size()) t2.push_back(tiles[i]);
    }
  if (t2.size() != g2.size()) t2.clear();
  tiles = t2;
  return g2;
}

/// A group's membermask: the group plus some exited lanes (exited lanes may be named freely).
uint32_t group_mask(Rng& g, uint32_t group, uint32_t exited, std::optional<uint32_t> tile) {
  switch (g.below(4)) {
    case 0:
      return group;
    case 1:
      return group | exited;
    case 2:
      return tile ? group | (*tile & exited) : group | g.subset(exited, 50);
    default:
      return group | g.subset(exited, 30);
  }
}

/// A safe state for a warp variant; with `two_site`, each mask's lanes come from two branches.
// Two-branch arrival: each group's lanes reach the instruction from branch 0 or 1 at random,
// and every group of two or more lanes has one lane on each. False when no group has two lanes.
bool split_across_sites(Rng& g, WarpRecord& r, const std::vector<uint32_t>& groups) {
  bool split = false;
  for (auto grp : groups) {
    for (unsigned i = 0; i < kW; ++i)
      if ((grp >> i) & 1u) r.site[i] = g.below(2);
    if (std::popcount(grp) >= 2) {
      const unsigned x = g.lane_in(grp);
      unsigned y = g.lane_in(grp);
      while (y == x) y = g.lane_in(grp);
      r.site[x] = 0, r.site[y] = 1;
      split = true;
    }
  }
  return split;
}

WarpRecord main_state(Rng& g, const Variant& v, bool two_site) {
  WarpRecord r;
  uint32_t exited = 0, alive = 0;
  std::vector<uint32_t> groups, tiles;
  std::string pattern;
  do {
    exited = choose_exited(g);
    alive = ~exited;
    groups = choose_groups(g, alive, pattern, tiles);
  } while (groups.empty());
  r.status.fill(LaneStatus::Inactive);
  r.mask.fill(0);
  for (unsigned i = 0; i < kW; ++i)
    if ((exited >> i) & 1u) r.status[i] = LaneStatus::Exited;
  for (std::size_t k = 0; k < groups.size(); ++k) {
    const uint32_t m =
        group_mask(g, groups[k], exited, tiles.empty() ? std::nullopt : std::optional(tiles[k]));
    for (unsigned i = 0; i < kW; ++i)
      if ((groups[k] >> i) & 1u) r.status[i] = LaneStatus::Executes, r.mask[i] = m;
  }
  // The shuffles draw what only they need after everything the other forms draw, so that a seed
  // gives those forms the states it always gave them.
  const bool shuffle = spec::has_operands_bc(v.form);
  const std::string holes = shuffle ? punch_holes(g, r, groups, exited) : "";
  // Lanes that do not execute pass a mask too (the harness ignores it); a random one shows that.
  for (unsigned i = 0; i < kW; ++i)
    if (r.status[i] != LaneStatus::Executes) r.mask[i] = g.chance(50) ? 0 : g.u32();
  std::string tag = pattern + holes;
  if (exited) tag += "+exited";
  // Two-branch arrival: lanes of one mask reach the instruction from two different branches.
  if (two_site) {
    const bool split = split_across_sites(g, r, groups);
    if (!split) return main_state(g, v, two_site);  // needs a group of two or more lanes
    tag += "+two-site";
  }
  const std::string style = shuffle ? fill_shuffle_values(g, r.a) : fill_values(g, v.values, r.a);
  if (!style.empty()) tag += "/" + style;
  if (shuffle) {
    const bool tiled = pattern.starts_with("tiles") && !tiles.empty();
    tag += draw_shuffle_operands(g, v, r, tiled ? std::popcount(tiles[0]) : 0);
  }
  r.tag = tag;
  return r;
}

// ---------------------------------------------------------------- elect.sync

bool is_elect(const Variant& v) {
  return spec::form_info(v.form).family == spec::Family::Elect;
}

/// A defined elect.sync state. Each group's membermask names exactly its own lanes: an exited
/// lane named would be UB here, unlike for the other forms, so exited lanes and lanes that sit
/// the instruction out are never named. Besides the groups every form gets: lane 31 alone (with
/// or without the rest of the warp as a second group), runs that end at lane 31, and holes (lanes
/// taken out of a group, exited or left inactive, and out of its mask).
WarpRecord elect_state(Rng& g, bool two_site) {
  WarpRecord r;
  uint32_t exited = 0;
  std::vector<uint32_t> groups, tiles;
  std::string pattern;
  do {
    exited = choose_exited(g);
    const uint32_t top = 1u << 31;
    switch (g.below(12)) {
      case 0:
        pattern = "lane31";
        exited &= ~top;
        groups = {top};
        tiles.clear();
        if (g.chance(50) && (~exited & ~top)) groups.push_back(~exited & ~top), pattern += "+rest";
        break;
      case 1: {
        pattern = "top-run";
        const unsigned lo = g.below(kW);
        groups = {range_mask(lo, kW) & ~exited};
        tiles.clear();
        std::erase(groups, 0u);
        break;
      }
      default:
        groups = choose_groups(g, ~exited, pattern, tiles);
        break;
    }
  } while (groups.empty());
  std::string holes;
  if (g.chance(30)) {
    uint32_t exec = 0;
    for (auto grp : groups) exec |= grp;
    for (unsigned k = 0, n = 1 + g.below(3); k < n && std::popcount(exec) > 1; ++k) {
      const uint32_t bit = 1u << g.lane_in(exec);
      exec &= ~bit;
      for (auto& grp : groups) grp &= ~bit;
      if (g.chance(50)) exited |= bit;  // else it stays alive, outside every mask
    }
    std::erase(groups, 0u);
    holes = "+holes";
  }
  r.status.fill(LaneStatus::Inactive);
  for (unsigned i = 0; i < kW; ++i) {
    if ((exited >> i) & 1u) r.status[i] = LaneStatus::Exited;
    // Lanes that do not execute pass a mask too (the harness ignores it); a random one shows that.
    r.mask[i] = g.chance(50) ? 0 : g.u32();
  }
  for (auto grp : groups)
    for (unsigned i = 0; i < kW; ++i)
      if ((grp >> i) & 1u) r.status[i] = LaneStatus::Executes, r.mask[i] = grp;
  std::string tag = pattern + holes;
  if (exited) tag += "+exited";
  if (two_site) {
    // As for the other forms: lanes of one mask from two branches, the group's lowest lane (the
    // model's leader) on either.
    const bool split = split_across_sites(g, r, groups);
    if (!split) return elect_state(g, two_site);
    tag += "+two-site";
  }
  r.a.fill(0);
  r.tag = tag;
  return r;
}

/// A defined state of the variant's form.
WarpRecord defined_state(Rng& g, const Variant& v, bool two_site) {
  return is_elect(v) ? elect_state(g, two_site) : main_state(g, v, two_site);
}

uint32_t lanes_where(const WarpRecord& r, LaneStatus s) {
  uint32_t out = 0;
  for (unsigned i = 0; i < kW; ++i)
    if (r.status[i] == s) out |= 1u << i;
  return out;
}

/// Gives every lane that passes membermask `from` the membermask `to` instead.
void widen_group(WarpRecord& r, uint32_t from, uint32_t to) {
  for (unsigned i = 0; i < kW; ++i)
    if (r.status[i] == LaneStatus::Executes && r.mask[i] == from) r.mask[i] = to;
}

/// elect.sync: one group's membermask also names lanes that do not execute the instruction:
/// exited ones (ProbeNamesExited) or one that is alive elsewhere (ProbeNamesIdle). Half the time
/// a named lane lies below the group's lowest lane, so that it is the lane the model would elect
/// if it took part; the tag then ends in "/below".
std::optional<WarpRecord> absent_probe(Rng& g, StateSet set) {
  WarpRecord r = elect_state(g, false);
  const uint32_t exec = lanes_where(r, LaneStatus::Executes);
  const uint32_t from = r.mask[g.lane_in(exec)];
  const uint32_t below = (from & (0u - from)) - 1;  // the lanes under the group's lowest
  uint32_t pool = set == StateSet::ProbeNamesExited ? lanes_where(r, LaneStatus::Exited)
                                                    : lanes_where(r, LaneStatus::Inactive);
  if (!pool) return std::nullopt;
  if (g.chance(50) && (pool & below)) pool &= below;
  uint32_t add = 0;
  if (set == StateSet::ProbeNamesExited) {
    switch (g.below(3)) {
      case 0:
        add = pool;
        break;
      case 1:
        add = pool & (0u - pool);  // the lowest
        break;
      default:
        add = 1u << g.lane_in(pool);
        break;
    }
  } else {
    add = 1u << g.lane_in(pool);  // one idle lane: each may be one more lane that never comes
  }
  widen_group(r, from, from | add);
  r.tag = std::string("probe/") + std::string(state_set_name(set)).substr(6) +
          ((add & below) ? "/below" : "");
  return r;
}

/// elect.sync: two to four lanes that name each other with different membermasks, each in its
/// own; the other lanes sit the instruction out or have exited and are never named. Shapes: one
/// lane's mask inside another's ("nested", e.g. lane 0 {0,1}, lane 1 {1}), a chain of overlapping
/// masks (lane 0 {0,1}, lane 1 {0,1,2}, lane 2 {2}), and masks drawn at random.
std::optional<WarpRecord> mismatch_probe(Rng& g) {
  WarpRecord r;
  const uint32_t exited = g.chance(30) ? choose_exited(g) : 0;
  const uint32_t alive = ~exited;
  if (std::popcount(alive) < 4) return std::nullopt;
  const unsigned n = 2 + g.below(3);
  std::vector<unsigned> lanes;
  uint32_t cluster = 0;
  const bool adjacent = g.chance(50);
  const unsigned start = g.lane_in(alive);
  for (unsigned k = 0; lanes.size() < n && k < 64; ++k) {
    const unsigned x = adjacent ? (start + k) % kW : g.lane_in(alive);
    if (!((alive >> x) & 1u) || ((cluster >> x) & 1u)) continue;
    lanes.push_back(x);
    cluster |= 1u << x;
  }
  if (lanes.size() < 2) return std::nullopt;
  std::sort(lanes.begin(), lanes.end());
  std::string shape;
  std::vector<uint32_t> mask(lanes.size());
  const std::size_t m = lanes.size();
  auto bit = [&](std::size_t k) { return 1u << lanes[k]; };
  switch (g.below(4)) {
    case 0:
      shape = "nested";  // each lane names itself and the lanes above it
      for (std::size_t k = 0; k < m; ++k)
        for (std::size_t j = k; j < m; ++j) mask[k] |= bit(j);
      break;
    case 1:
      shape = "nested-down";  // each lane names itself and the lanes below it
      for (std::size_t k = 0; k < m; ++k)
        for (std::size_t j = 0; j <= k; ++j) mask[k] |= bit(j);
      break;
    case 2:
      shape = "chain";  // the odd lanes name both neighbours, the even ones the next lane only
      for (std::size_t k = 0; k < m; ++k) {
        mask[k] = bit(k);
        if (k + 1 < m) mask[k] |= bit(k + 1);
        if (k % 2 == 1) mask[k] |= bit(k - 1);
      }
      break;
    default:
      shape = "random";
      for (std::size_t k = 0; k < m; ++k) mask[k] = bit(k) | g.subset(cluster, 50);
      break;
  }
  bool mismatch = false;  // some lane names another that passes a different mask
  for (std::size_t k = 0; k < m; ++k)
    for (std::size_t j = 0; j < m; ++j)
      mismatch = mismatch || (j != k && (mask[k] & bit(j)) && mask[j] != mask[k]);
  if (!mismatch) return std::nullopt;
  r.status.fill(LaneStatus::Inactive);
  for (unsigned i = 0; i < kW; ++i) {
    if ((exited >> i) & 1u) r.status[i] = LaneStatus::Exited;
    r.mask[i] = g.chance(50) ? 0 : g.u32();
  }
  for (std::size_t k = 0; k < lanes.size(); ++k)
    r.status[lanes[k]] = LaneStatus::Executes, r.mask[lanes[k]] = mask[k];
  r.a.fill(0);
  r.tag = "probe/mask-mismatch/" + shape;
  return r;
}

/// Turns one inactive lane of a main state into a lane the spec leaves undefined.
std::optional<WarpRecord> probe_state(Rng& g, const Variant& v, StateSet set) {
  if (set == StateSet::ProbeNamesExited || set == StateSet::ProbeNamesIdle)
    return absent_probe(g, set);
  if (set == StateSet::ProbeMaskMismatch) return mismatch_probe(g);
  // One call site: one undefined ingredient at a time.
  WarpRecord r = defined_state(g, v, false);
  uint32_t inactive = 0, exited = 0, exec = 0;
  for (unsigned i = 0; i < kW; ++i) {
    if (r.status[i] == LaneStatus::Inactive) inactive |= 1u << i;
    if (r.status[i] == LaneStatus::Exited) exited |= 1u << i;
    if (r.status[i] == LaneStatus::Executes) exec |= 1u << i;
  }
  if (!inactive) return std::nullopt;
  const unsigned x = g.lane_in(inactive);
  uint32_t m = 0;
  switch (set) {
    case StateSet::ProbeSelfOutside:
      m = r.mask[g.lane_in(exec)];
      break;
    case StateSet::ProbeEmptyMask:
      m = 0;
      break;
    case StateSet::ProbeExitedOnly:
      if (!exited) return std::nullopt;
      m = g.chance(50) ? exited : (1u << g.lane_in(exited));
      break;
    default:
      break;
  }
  r.status[x] = LaneStatus::Executes;
  r.mask[x] = m;
  r.tag = std::string("probe/") + std::string(state_set_name(set)).substr(6);
  return r;
}

// ---------------------------------------------------------------- blocks

constexpr unsigned kCtaSizes[] = {1,   2,   31,  32,  33,  64,  65,  96,   128,  160, 255,
                                  256, 257, 384, 512, 513, 640, 768, 1000, 1023, 1024};

CtaRecord cta_state(Rng& g) {
  CtaRecord r;
  const unsigned n = g.pick(kCtaSizes);
  std::string pattern;
  std::vector<bool> ex(n, false);
  switch (g.below(9)) {
    case 0:
      pattern = "none";
      break;
    case 1:
      pattern = "sparse";
      for (auto&& e : ex) e = g.chance(5);
      break;
    case 2:
      pattern = "dense";
      for (auto&& e : ex) e = g.chance(50);
      break;
    case 3: {
      pattern = "whole-warps";
      for (unsigned w = 0; w * kW < n; ++w)
        if (g.chance(50))
          for (unsigned t = w * kW; t < std::min(n, (w + 1) * kW); ++t) ex[t] = true;
      break;
    }
    case 4:
      pattern = "all-but-one";
      ex.assign(n, true);
      ex[g.below(n)] = false;
      break;
    case 5: {
      pattern = "all-but-one-warp";
      ex.assign(n, true);
      const unsigned w = g.below((n + kW - 1) / kW);
      for (unsigned t = w * kW; t < std::min(n, (w + 1) * kW); ++t) ex[t] = false;
      break;
    }
    case 6: {
      pattern = "tail";
      const unsigned keep = 1 + g.below(n);
      for (unsigned t = keep; t < n; ++t) ex[t] = true;
      break;
    }
    case 7:
      pattern = "alternate";
      for (unsigned t = 0; t < n; ++t) ex[t] = (t & 1u) != 0;
      break;
    default: {
      pattern = "partial-warps";  // each warp keeps a random run of lanes
      for (unsigned w = 0; w * kW < n; ++w) {
        const unsigned lo = g.below(kW), hi = lo + 1 + g.below(kW - lo);
        for (unsigned i = 0; i < kW && w * kW + i < n; ++i) ex[w * kW + i] = i < lo || i >= hi;
      }
      break;
    }
  }
  if (std::find(ex.begin(), ex.end(), false) == ex.end()) ex[g.below(n)] = false;
  r.exited = ex;
  r.pred.assign(n, 0);
  const std::string style = detail::fill_block_preds(g, r.pred);
  r.d.assign(n, 0);
  r.tag = std::to_string(n) + "/" + pattern + "/" + style;
  return r;
}

}  // namespace

std::string_view state_set_name(StateSet s) {
  switch (s) {
    case StateSet::Main:
      return "main";
    case StateSet::TwoSite:
      return "two-site";
    case StateSet::ProbeSelfOutside:
      return "probe-self-outside";
    case StateSet::ProbeEmptyMask:
      return "probe-empty-mask";
    case StateSet::ProbeExitedOnly:
      return "probe-exited-only";
    case StateSet::ProbeNamesExited:
      return "probe-names-exited";
    case StateSet::ProbeNamesIdle:
      return "probe-names-idle";
    case StateSet::ProbeMaskMismatch:
      return "probe-mask-mismatch";
  }
  return "?";
}

std::optional<StateSet> find_state_set(std::string_view name) {
  for (auto s : kAllSets)
    if (state_set_name(s) == name) return s;
  return std::nullopt;
}

std::vector<StateSet> state_sets(const Variant& v) {
  std::vector<StateSet> out;
  for (auto s : kAllSets) {
    const bool probe = s != StateSet::Main && s != StateSet::TwoSite;
    const bool elect_only = s >= StateSet::ProbeNamesExited;
    // A probe puts a lane outside its membermask, or names lanes in it: a form without one has
    // nothing to probe. Only elect.sync makes naming an exited lane UB.
    if ((probe && !spec::has_membermask(v.form)) || (elect_only && !is_elect(v))) continue;
    out.push_back(s);
  }
  return out;
}

bool runs_alone(StateSet s) {
  return s == StateSet::ProbeMaskMismatch;
}

bool probe_fires(StateSet set, spec::FormId form, spec::ClauseId clause) {
  const std::string_view key = spec::clause_info(clause).key;
  const bool elect = spec::form_info(form).family == spec::Family::Elect;
  switch (set) {
    case StateSet::Main:
    case StateSet::TwoSite:
      return false;
    case StateSet::ProbeSelfOutside:
    case StateSet::ProbeEmptyMask:
      return key.ends_with(".ub.self_not_in_mask");
    case StateSet::ProbeExitedOnly:
      // elect.sync does not excuse the exited lanes the mask names.
      return key.ends_with(".ub.self_not_in_mask") || (elect && key.ends_with(".ub.peer_absent"));
    case StateSet::ProbeNamesExited:
    case StateSet::ProbeNamesIdle:
      return key.ends_with(".ub.peer_absent");
    case StateSet::ProbeMaskMismatch:
      return key.ends_with(".ub.mask_mismatch");
  }
  return false;
}

std::vector<WarpRecord> generate_warp_states(const Variant& v, StateSet set, uint64_t seed,
                                             std::size_t n) {
  Rng g{std::mt19937_64(seed)};
  std::vector<WarpRecord> out;
  while (out.size() < n) {
    std::optional<WarpRecord> r;
    if (set == StateSet::Main || set == StateSet::TwoSite)
      r = defined_state(g, v, set == StateSet::TwoSite);
    else
      r = probe_state(g, v, set);
    if (!r) continue;
    set_invocation(*r, v);
    r->has_d = true;
    r->has_p = v.write_p;
    if (hang_risk(*r, set)) continue;  // never expected; the harness refuses such states anyway
    out.push_back(std::move(*r));
  }
  return out;
}

std::vector<CtaRecord> generate_cta_states(const Variant& v, uint64_t seed, std::size_t n) {
  if (is_named(v)) return generate_cta_states(v, CtaSet::Main, seed, n);
  Rng g{std::mt19937_64(seed)};
  std::vector<CtaRecord> out;
  while (out.size() < n) {
    CtaRecord r = cta_state(g);
    set_invocation(r, v);
    out.push_back(std::move(r));
  }
  return out;
}

std::optional<std::string> hang_risk(const WarpRecord& r, StateSet set) {
  bool any = false;
  for (unsigned i = 0; i < kW; ++i) {
    if (r.status[i] != LaneStatus::Executes) continue;
    any = true;
    const uint32_t m = r.mask[i];
    if (!((m >> i) & 1u) && (set == StateSet::Main || set == StateSet::TwoSite))
      return "lane " + std::to_string(i) + " executes outside its own membermask";
    for (unsigned j = 0; j < kW; ++j) {
      if (j == i || !((m >> j) & 1u) || r.status[j] == LaneStatus::Exited) continue;
      if (r.status[j] != LaneStatus::Executes) {
        if (set == StateSet::ProbeNamesIdle) continue;
        return "lane " + std::to_string(i) + " names lane " + std::to_string(j) +
               ", which is alive but does not execute";
      }
      if (r.mask[j] != m && set != StateSet::ProbeMaskMismatch)
        return "lane " + std::to_string(i) + " names lane " + std::to_string(j) +
               ", which executes with another membermask";
    }
  }
  if (!any) return "no lane executes";
  return std::nullopt;
}

std::optional<std::string> hang_risk(const CtaRecord& r) {
  const std::size_t n = r.exited.size();
  if (n == 0 || n > model::kMaxCtaThreads) return "bad block size";
  if (r.pred.size() != n || r.d.size() != n)
    return "one predicate and one result per thread expected";
  for (const auto* v : {&r.elsewhere, &r.partner})
    if (!v->empty() && v->size() != n) return "one status per thread expected";
  for (const auto* v : {&r.bar, &r.count})
    if (!v->empty() && v->size() != n) return "one operand per thread expected";
  bool any = false;
  for (std::size_t t = 0; t < n; ++t) any = any || r.arrives(t);
  if (!any) return "no thread reaches the barrier";
  return std::nullopt;
}

}  // namespace warpspec::capture
