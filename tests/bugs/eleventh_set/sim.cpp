// sim.cpp -- "xbar": a behavioural model of a warp's register-shuffle crossbar.
//
// Written from the manual sections alone (PTX ISA: shfl.sync; CUDA C++ guide:
// the warp shuffle functions) and from the warpspec-vectors/1 and
// warpspec-results/1 file formats.
//
// Micro-architecture story.  A cycle-level GPU simulator models shfl.sync as
// four pipeline stages that every executing lane passes through:
//
//   1. operand latch   -- each lane's b, c and membermask are latched; c is
//                         split into its clamp field and its segment field;
//   2. index unit      -- the source lane j is formed from the lane id, the
//                         offset/lane operand and the segment (per .mode);
//   3. bound unit      -- j is compared with the segment's bound, giving the
//                         in-range bit that becomes p and steers the read;
//   4. crossbar read   -- the lane reads operand a of lane j (its own lane
//                         when out of range) and writes it back to d.
//
// A "sync unit" in front of it checks the membermasks of the lanes that
// arrive.  The deliberately wrong variants ("bugs") are mistakes a modeller
// makes in one of those stages: field widths, shift amounts, signedness,
// off-by-one bounds, a crossbar that only routes inside a segment, operand
// latches shared by the whole warp, write-back that races the read, a sync
// unit that is stricter than the manual, and so on.  Each bug is one change
// against the correct model (bug 0).  A few entries are marked "NOT A BUG":
// they change only what the manual leaves undefined, and a conformance suite
// must let them pass.
//
// Usage:  sim --list
//         sim VECTORS.jsonl N      (N = 0: the correct model)

#include <nlohmann/json.hpp>

#include <bit>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

using json = nlohmann::json;
using u32 = uint32_t;
using i32 = int32_t;

namespace {

enum Bug : int {
  NONE = 0,
  // operand latch
  B_ALL_BITS,           // b used whole, not its low five bits
  B_SIX_BITS,           // b masked with 0x3f
  CLAMP_SIX_BITS,       // clamp field taken as c[5:0]
  SEG_SHIFT_SEVEN,      // segment field taken as c[11:7]
  SEG_FOUR_BITS,        // segment field masked with 0xf
  SEG_IGNORED,          // segment field never read (whole warp is one segment)
  SEG_AS_WIDTH_MINUS_1, // c[12:8] read as the in-segment lane mask (width-1)
  C_FIELDS_SWAPPED,     // clamp from c[12:8], segment mask from c[4:0]
  CLAMP_IGNORED,        // clamp assumed 0 for .up and 31 otherwise
  B_FROM_FIRST_LANE,    // b latched once for the warp from the first executing lane
  C_FROM_FIRST_LANE,    // c latched once for the warp from the first executing lane
  // index unit
  UP_READS_UPWARD,      // .up computes lane + b
  DOWN_WRAPS_5BIT,      // .down sum kept in five bits (wraps to low lanes)
  IDX_LANE_PLUS_B,      // .idx computes lane + b
  IDX_NO_WRAP,          // .idx: segment start + b without masking b to the segment
  IDX_ABSOLUTE,         // .idx: b is an absolute lane, segment start not added
  IDX_SEG_NOT_INVERTED, // .idx: b & segmask instead of b & ~segmask
  IDX_RANKS_MEMBERMASK, // .idx: j-th member of the membermask instead of lane j
  BFLY_WITHIN_SEGMENT,  // .bfly: b's segment bits dropped before the xor
  // bound unit
  UP_OFF_BY_ONE,        // .up in range only when j > bound
  UP_UNSIGNED,          // .up compare done on unsigned j (negative j is huge)
  DOWN_STRICT,          // .down in range only when j < bound
  BFLY_NO_BOUND,        // .bfly always in range (xor stays in the warp)
  BFLY_OWN_SEGMENT,     // .bfly also requires j >= segment start
  IDX_NO_BOUND,         // .idx always in range (it wraps inside the segment)
  MAXLANE_NO_BASE,      // bound = clamp & ~segmask, segment start not or-ed in
  P_INVERTED,           // p = !in_range
  P_ALWAYS_TRUE,        // p = 1
  OOB_ZERO,             // out of range: d = 0 instead of own a
  OOB_READS_BOUND,      // out of range: read the bound lane instead of own lane
  P_FALSE_ABSENT_SRC,   // p cleared when the lane read does not execute
  OUTSIDE_MASK_OOB,     // a source outside the reader's membermask counts as out of range
  // crossbar read / write-back
  IN_PLACE_UPDATE,      // d written back into the a array while later lanes still read it
  COPY_NAN_QUIET,       // value routed through a float path: NaN payloads quietened
  COPY_FTZ,             // value routed through a float path: subnormals flushed to zero
  // sync unit
  REFUSE_PARTIAL_MASK,  // round refused (UB) unless membermask == executing lanes
  PARTIAL_MASK_GARBAGE, // lane whose membermask != executing lanes gets own a, p = 0
  EXITED_NAMED_IS_UB,   // an exited lane named in a membermask is taken as absent (UB)
  ONE_MASK_PER_WARP,    // executing lanes with different membermasks taken as UB
  // not bugs
  NB_ZERO_ABSENT,       // d = 0 where the lane read is absent or outside the mask
  NB_OWN_ABSENT,        // d = own a where the lane read is absent or outside the mask
  NB_SEG_SIX_BITS,      // segment field taken as c[13:8]
  NB_DOWN_FLOOR,        // .down also requires j >= segment start
  NB_NO_UB_CHECK,       // sync unit never reports UB
  NB_ABSENT_READS_GARBAGE, // absent source lane reads a fixed junk pattern
  BUG_COUNT
};

struct BugInfo {
  int n;
  const char* key;
  const char* forms;
  const char* desc;
};

constexpr const char* ALL = "shfl.sync.up.b32,shfl.sync.down.b32,shfl.sync.bfly.b32,shfl.sync.idx.b32";
constexpr const char* NOT_UP = "shfl.sync.down.b32,shfl.sync.bfly.b32,shfl.sync.idx.b32";

const BugInfo kBugs[] = {
  {B_ALL_BITS, "b_all_bits", ALL, "operand b used as a full 32-bit value instead of its low five bits"},
  {B_SIX_BITS, "b_six_bits", ALL, "operand b masked with 0x3f, so bit 5 leaks into the source lane"},
  {CLAMP_SIX_BITS, "clamp_six_bits", ALL, "clamp field latched as c[5:0]: bit 5 lifts the bound past lane 31"},
  {SEG_SHIFT_SEVEN, "segmask_shift_seven", ALL, "segment mask extracted as (c >> 7) & 0x1f instead of c[12:8]"},
  {SEG_FOUR_BITS, "segmask_four_bits", ALL, "segment mask extracted as (c >> 8) & 0xf, dropping c[12]"},
  {SEG_IGNORED, "segmask_ignored", ALL, "segment field never read: the whole warp is one segment (CUDA width dropped)"},
  {SEG_AS_WIDTH_MINUS_1, "segmask_as_width_minus_one", ALL, "c[12:8] taken as width-1 (the in-segment lane bits), i.e. the complement of the segment mask"},
  {C_FIELDS_SWAPPED, "c_fields_swapped", ALL, "clamp read from c[12:8] and segment mask from c[4:0]"},
  {CLAMP_IGNORED, "clamp_ignored", ALL, "clamp field never read: 0 assumed for .up and 31 for the other modes"},
  {B_FROM_FIRST_LANE, "b_from_first_lane", ALL, "b latched once per warp from the lowest executing lane, as if it were uniform"},
  {C_FROM_FIRST_LANE, "c_from_first_lane", ALL, "c latched once per warp from the lowest executing lane, as if it were uniform"},
  {UP_READS_UPWARD, "up_reads_upward", "shfl.sync.up.b32", ".up forms lane + b, reading from higher lanes like .down"},
  {DOWN_WRAPS_5BIT, "down_wraps_five_bits", "shfl.sync.down.b32", ".down sum kept in a 5-bit adder, so lane + b wraps to low lanes and is in range"},
  {IDX_LANE_PLUS_B, "idx_lane_plus_b", "shfl.sync.idx.b32", ".idx forms lane + b (an offset) instead of a lane inside the segment"},
  {IDX_NO_WRAP, "idx_no_wrap", "shfl.sync.idx.b32", ".idx adds all of b to the segment start without wrapping it inside the segment"},
  {IDX_ABSOLUTE, "idx_absolute_lane", "shfl.sync.idx.b32", ".idx uses b's in-segment bits as an absolute lane, the segment start not or-ed in"},
  {IDX_SEG_NOT_INVERTED, "idx_segmask_not_inverted", "shfl.sync.idx.b32", ".idx keeps b & segmask instead of b & ~segmask"},
  {IDX_RANKS_MEMBERMASK, "idx_ranks_membermask", "shfl.sync.idx.b32", ".idx reads the j-th member of the membermask (coalesced-group rank) instead of lane j"},
  {BFLY_WITHIN_SEGMENT, "bfly_xor_within_segment", "shfl.sync.bfly.b32", ".bfly drops b's segment bits before the xor, so it never leaves its segment"},
  {UP_OFF_BY_ONE, "up_bound_off_by_one", "shfl.sync.up.b32", ".up in range only when j > bound (lane at exactly the bound reads its own a)"},
  {UP_UNSIGNED, "up_unsigned_compare", "shfl.sync.up.b32", ".up compares lane - b as unsigned: a negative j is always in range and wraps to a high lane"},
  {DOWN_STRICT, "down_bound_strict", "shfl.sync.down.b32", ".down in range only when j < bound"},
  {BFLY_NO_BOUND, "bfly_no_bound", "shfl.sync.bfly.b32", ".bfly always in range: reads from higher segments and past the clamp"},
  {BFLY_OWN_SEGMENT, "bfly_own_segment_only", "shfl.sync.bfly.b32", ".bfly also requires j at or above the segment start, refusing reads from lower segments"},
  {IDX_NO_BOUND, "idx_no_bound", "shfl.sync.idx.b32", ".idx always in range, the clamp not compared"},
  {MAXLANE_NO_BASE, "bound_without_segment_base", ALL, "bound computed as clamp & ~segmask, the segment start not or-ed in"},
  {P_INVERTED, "p_inverted", ALL, "p written as the complement of the in-range bit"},
  {P_ALWAYS_TRUE, "p_always_true", ALL, "p always 1"},
  {OOB_ZERO, "out_of_range_zero", ALL, "out of range, d is 0 instead of the lane's own a"},
  {OOB_READS_BOUND, "out_of_range_reads_bound", ALL, "out of range, the read is clamped to the bound lane instead of the lane's own"},
  {P_FALSE_ABSENT_SRC, "p_false_for_absent_source", ALL, "p cleared when the lane read does not execute (p is defined even where d is not)"},
  {OUTSIDE_MASK_OOB, "outside_membermask_out_of_range", ALL, "a source lane outside the reader's membermask is taken as out of range: own a, p = 0"},
  {IN_PLACE_UPDATE, "in_place_write_back", ALL, "lanes written back in ascending order into the array later lanes still read"},
  {COPY_NAN_QUIET, "copy_quietens_nan", ALL, "value moved through a float register: a signalling NaN gets its quiet bit set"},
  {COPY_FTZ, "copy_flushes_subnormals", ALL, "value moved through a float register with flush-to-zero: subnormal patterns become signed zero"},
  {REFUSE_PARTIAL_MASK, "refuse_partial_membermask", ALL, "round refused as UB whenever a membermask differs from the set of executing lanes"},
  {PARTIAL_MASK_GARBAGE, "partial_membermask_no_route", ALL, "a lane whose membermask differs from the executing lanes is not routed: own a, p = 0"},
  {EXITED_NAMED_IS_UB, "exited_named_is_ub", ALL, "an exited lane named in a membermask is taken as a missing peer (UB reported)"},
  {ONE_MASK_PER_WARP, "one_membermask_per_warp", ALL, "executing lanes with different membermasks reported as UB even when their groups are disjoint"},
  {NB_ZERO_ABSENT, "nb_zero_for_absent_source", ALL, "NOT A BUG: d = 0 where the lane read does not execute or is outside the membermask"},
  {NB_OWN_ABSENT, "nb_own_for_absent_source", ALL, "NOT A BUG: d = own a where the lane read does not execute or is outside the membermask"},
  {NB_SEG_SIX_BITS, "nb_segmask_six_bits", ALL, "NOT A BUG: segment mask taken as c[13:8]; the extra bit never meets a 5-bit lane number"},
  {NB_DOWN_FLOOR, "nb_down_floor_check", "shfl.sync.down.b32", "NOT A BUG: .down also requires j >= segment start, which lane + b always is"},
  {NB_NO_UB_CHECK, "nb_no_ub_check", ALL, "NOT A BUG: the sync unit never reports UB; rounds with UB get computed values"},
  {NB_ABSENT_READS_GARBAGE, "nb_absent_reads_junk", ALL, "NOT A BUG: the lane read, when absent or outside the membermask, yields 0xdeadbeef"},
};
static_assert(sizeof(kBugs) / sizeof(kBugs[0]) == BUG_COUNT - 1);

int BUG = 0;
bool is(Bug b) { return BUG == b; }

enum class Mode { Up, Down, Bfly, Idx, Other };

Mode mode_of(const std::string& form) {
  if (form == "shfl.sync.up.b32") return Mode::Up;
  if (form == "shfl.sync.down.b32") return Mode::Down;
  if (form == "shfl.sync.bfly.b32") return Mode::Bfly;
  if (form == "shfl.sync.idx.b32") return Mode::Idx;
  return Mode::Other;
}

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

// The operands of "shfl.sync.MODE.b32 d|p, a, b, c, m;" after the opcode, trimmed.
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

// One value for all lanes, or an array of 32; an operand the round does not list is an
// immediate of the instruction text.
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
    u32 x = to_u32(v);
    for (auto& o : out) o = x;
  }
  return out;
}

bool bit(u32 m, u32 i) { return (m >> i) & 1u; }

struct Warp {
  u32 exited = 0, inactive = 0, exec = 0;
  std::vector<u32> mask, a, b, c;
};

// The sync unit: does this round have undefined behaviour?
bool sync_unit_reports_ub(const Warp& w) {
  if (is(NB_NO_UB_CHECK)) return false;
  for (u32 L = 0; L < 32; ++L) {
    if (!bit(w.exec, L)) continue;
    const u32 m = w.mask[L];
    if (!bit(m, L)) return true;                                   // own lane not named
    if (is(REFUSE_PARTIAL_MASK) && m != w.exec) return true;
    if (is(ONE_MASK_PER_WARP)) {
      for (u32 k = 0; k < 32; ++k)
        if (bit(w.exec, k) && w.mask[k] != m) return true;
    }
    for (u32 k = 0; k < 32; ++k) {
      if (!bit(m, k)) continue;
      if (bit(w.exited, k)) {
        if (is(EXITED_NAMED_IS_UB)) return true;
        continue;                                                  // exited lanes are not waited for
      }
      if (!bit(w.exec, k)) return true;                            // named, alive, absent
      if (w.mask[k] != m) return true;                             // named, with another mask
    }
  }
  return false;
}

u32 float_path(u32 x) {
  const u32 exp = (x >> 23) & 0xffu, man = x & 0x7fffffu;
  if (is(COPY_NAN_QUIET) && exp == 0xffu && man != 0) return x | 0x400000u;
  if (is(COPY_FTZ) && exp == 0 && man != 0) return x & 0x80000000u;
  return x;
}

// n-th (from 0) set bit of m, or -1.
int nth_member(u32 m, u32 n) {
  for (u32 k = 0; k < 32; ++k)
    if (bit(m, k)) {
      if (n == 0) return static_cast<int>(k);
      --n;
    }
  return -1;
}

struct LaneResult {
  u32 d;
  bool p;
};

json run_round(Mode mode, const std::vector<std::string>& ops, bool writes_p, const json& round) {
  auto op = [&](size_t i) { return i < ops.size() ? ops[i] : std::string(); };
  Warp w;
  w.exited = round.contains("exited") ? to_u32(round["exited"]) : 0;
  w.inactive = round.contains("inactive") ? to_u32(round["inactive"]) : 0;
  w.exec = ~(w.exited | w.inactive);
  w.a = per_lane(round, "a", op(1));
  w.b = per_lane(round, "b", op(2));
  w.c = per_lane(round, "c", op(3));
  w.mask = per_lane(round, "mask", op(4));

  if (sync_unit_reports_ub(w)) return json{{"ub", true}};

  const int first = w.exec ? std::countr_zero(w.exec) : 0;
  std::vector<u32> src_a = w.a;  // the crossbar's read port
  json d = json::array(), p = json::array();

  for (u32 lane = 0; lane < 32; ++lane) {
    if (!bit(w.exec, lane)) {
      d.push_back(nullptr);
      p.push_back(nullptr);
      continue;
    }
    const u32 m = w.mask[lane];
    const u32 braw = is(B_FROM_FIRST_LANE) ? w.b[first] : w.b[lane];
    const u32 craw = is(C_FROM_FIRST_LANE) ? w.c[first] : w.c[lane];

    // 1. operand latch
    u32 bval = braw & 0x1fu;
    if (is(B_ALL_BITS)) bval = braw;
    if (is(B_SIX_BITS)) bval = braw & 0x3fu;
    u32 cval = craw & 0x1fu;
    u32 seg = (craw >> 8) & 0x1fu;
    if (is(CLAMP_SIX_BITS)) cval = craw & 0x3fu;
    if (is(SEG_SHIFT_SEVEN)) seg = (craw >> 7) & 0x1fu;
    if (is(SEG_FOUR_BITS)) seg = (craw >> 8) & 0xfu;
    if (is(NB_SEG_SIX_BITS)) seg = (craw >> 8) & 0x3fu;
    if (is(SEG_IGNORED)) seg = 0;
    if (is(SEG_AS_WIDTH_MINUS_1)) seg = ~seg & 0x1fu;
    if (is(C_FIELDS_SWAPPED)) {
      cval = (craw >> 8) & 0x1fu;
      seg = craw & 0x1fu;
    }
    if (is(CLAMP_IGNORED)) cval = mode == Mode::Up ? 0u : 0x1fu;

    const u32 lo = lane & seg;                        // segment start
    u32 bound = lo | (cval & ~seg);                   // clamp inside the segment
    if (is(MAXLANE_NO_BASE)) bound = cval & ~seg;

    // 2. index unit and 3. bound unit
    i32 j = 0;        // source lane, signed: .up may go below 0
    bool in = false;  // in range
    switch (mode) {
      case Mode::Up: {
        if (is(UP_READS_UPWARD)) {
          j = static_cast<i32>(lane + bval);
        } else {
          j = static_cast<i32>(lane) - static_cast<i32>(bval);
        }
        if (is(UP_UNSIGNED)) {
          const u32 ju = lane - bval;
          in = ju >= bound;
          j = static_cast<i32>(ju & 0x1fu);
        } else if (is(UP_OFF_BY_ONE)) {
          in = j > static_cast<i32>(bound);
        } else {
          in = j >= static_cast<i32>(bound);
        }
        break;
      }
      case Mode::Down: {
        u32 ju = lane + bval;
        if (is(DOWN_WRAPS_5BIT)) ju &= 0x1fu;
        j = static_cast<i32>(ju);
        in = is(DOWN_STRICT) ? ju < bound : ju <= bound;
        if (is(NB_DOWN_FLOOR)) in = in && ju >= lo;
        break;
      }
      case Mode::Bfly: {
        u32 x = bval;
        if (is(BFLY_WITHIN_SEGMENT)) x &= ~seg;
        const u32 ju = lane ^ x;
        j = static_cast<i32>(ju);
        in = ju <= bound;
        if (is(BFLY_NO_BOUND)) in = true;
        if (is(BFLY_OWN_SEGMENT)) in = in && ju >= lo;
        break;
      }
      case Mode::Idx: {
        u32 ju = lo | (bval & ~seg);
        if (is(IDX_LANE_PLUS_B)) ju = lane + bval;
        if (is(IDX_NO_WRAP)) ju = lo + bval;
        if (is(IDX_ABSOLUTE)) ju = bval & ~seg;
        if (is(IDX_SEG_NOT_INVERTED)) ju = lo | (bval & seg);
        j = static_cast<i32>(ju);
        in = ju <= bound;
        if (is(IDX_NO_BOUND)) in = true;
        if (in && is(IDX_RANKS_MEMBERMASK)) {
          const int r = nth_member(m, ju);
          if (r < 0) {
            in = false;
          } else {
            j = r;
          }
        }
        break;
      }
      case Mode::Other:
        break;
    }
    if (in && is(OUTSIDE_MASK_OOB) && (j < 0 || j > 31 || !bit(m, static_cast<u32>(j)))) in = false;
    if (is(PARTIAL_MASK_GARBAGE) && m != w.exec) in = false;

    // 4. crossbar read
    u32 src = lane;
    if (in) src = static_cast<u32>(j) & 0x1fu;  // the read port has five address bits
    if (!in && is(OOB_READS_BOUND)) src = bound & 0x1fu;
    const bool present = bit(w.exec, src) && bit(m, src);
    u32 value = src_a[src];
    if (!in && is(OOB_ZERO)) value = 0;
    if (!present && is(NB_ZERO_ABSENT)) value = 0;
    if (!present && is(NB_OWN_ABSENT)) value = w.a[lane];
    if (!present && is(NB_ABSENT_READS_GARBAGE)) value = 0xdeadbeefu;
    value = float_path(value);

    bool pval = in;
    if (is(P_INVERTED)) pval = !in;
    if (is(P_ALWAYS_TRUE)) pval = true;
    if (is(P_FALSE_ABSENT_SRC) && !bit(w.exec, src)) pval = false;

    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", value);
    d.push_back(buf);
    p.push_back(pval ? 1 : 0);
    if (is(IN_PLACE_UPDATE)) src_a[lane] = value;
  }
  if (!writes_p) return json{{"d", d}};
  return json{{"d", d}, {"p", p}};
}

json run_vector(const json& v) {
  const std::string form = v.value("form", "");
  const Mode mode = mode_of(form);
  if (mode == Mode::Other) return json{{"id", v["id"]}, {"skipped", true}};
  const std::vector<std::string> ops = operands(v.value("instruction", ""));
  // p is written only when the destination names one: "d|p" (not "d", not "d|_").
  bool writes_p = false;
  if (!ops.empty()) {
    const size_t bar = ops[0].find('|');
    writes_p = bar != std::string::npos && ops[0].substr(bar + 1) != "_";
  }
  json rounds = json::array();
  for (const auto& r : v["rounds"]) rounds.push_back(run_round(mode, ops, writes_p, r));
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
