#pragma once
// RapidCheck generators for warp and block states that lean towards the corners: few distinct
// values, 64-bit values that differ only in their high 32 bits, +-0.0 and NaN payloads,
// INT_MIN/INT_MAX/0/all ones; empty, full, one-lane, holed and contiguous masks; exited lanes
// inside a mask, lanes passing different masks, executing lanes missing from their own mask, and
// lanes at different call sites. Every draw goes through RapidCheck, so failures shrink.
#include <rapidcheck.h>

#include <array>
#include <cstdint>
#include <vector>

#include "model/eval.hpp"
#include "spec/catalog.hpp"
#include "spec/target.hpp"

namespace warpspec::test {

/// One warp instruction on one warp state, for one target.
struct WarpCase {
  spec::Instr instr;
  model::Warp warp;
  spec::Target target = spec::kDefaultTarget;
  spec::PtxVersion ptx = spec::kLatestPtx;
};

/// One block-wide barrier on one block state, for one target.
struct CtaCase {
  spec::Instr instr;
  model::Cta cta;
  spec::Target target = spec::kDefaultTarget;
  spec::PtxVersion ptx = spec::kLatestPtx;
};

namespace gen {

using rc::Gen;

/// 32-bit words: mostly 0, 1, 2, INT_MAX, INT_MIN (and its neighbour), -2, all ones; else any.
inline Gen<uint32_t> word32() {
  return rc::gen::weightedOneOf<uint32_t>(
      {{3, rc::gen::element<uint32_t>(0u, 1u, 2u, 0x7fffffffu, 0x80000000u, 0x80000001u,
                                      0xfffffffeu, 0xffffffffu)},
       {1, rc::gen::arbitrary<uint32_t>()}});
}

/// binary32 bit patterns: +-0.0, +-inf, NaNs of several payloads and both signs (the canonical
/// one included), +-1.0, the smallest denormals, the largest finite values; else any.
inline Gen<uint32_t> f32_bits() {
  return rc::gen::weightedOneOf<uint32_t>(
      {{4, rc::gen::element<uint32_t>(0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u,
                                      0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x7fffffffu,
                                      0xffffffffu, 0x3f800000u, 0xbf800000u, 0x00000001u,
                                      0x80000001u, 0x7f7fffffu, 0xff7fffffu)},
       {1, rc::gen::arbitrary<uint32_t>()}});
}

/// binary64 bit patterns: +-0.0, +-inf, NaN payloads, +-1.0.
inline Gen<uint64_t> f64_bits() {
  return rc::gen::element<uint64_t>(0x0ull, 0x8000000000000000ull, 0x7ff0000000000000ull,
                                    0xfff0000000000000ull, 0x7ff8000000000000ull,
                                    0xfff8000000000000ull, 0x7ff0000000000001ull,
                                    0x3ff0000000000000ull, 0xbff0000000000000ull);
}

/// A 32-bit word carried in the 64-bit operand, with garbage above bit 31 now and then (32-bit
/// forms must ignore it).
inline Gen<uint64_t> in_low_half(Gen<uint32_t> low) {
  return rc::gen::exec([low] {
    const uint64_t high = *rc::gen::weightedElement<uint64_t>(
        {{6, 0}, {1, 1}, {1, 0xffffffffull}, {1, 0x80000000ull}});
    return uint64_t{*low} | high << 32;
  });
}

/// 64-bit words: corners, double bit patterns, and words whose high half alone is set.
inline Gen<uint64_t> word64() {
  return rc::gen::weightedOneOf<uint64_t>(
      {{3, in_low_half(word32())},
       {1, f64_bits()},
       {1, rc::gen::map(word32(), [](uint32_t h) { return uint64_t{h} << 32; })},
       {1, rc::gen::arbitrary<uint64_t>()}});
}

/// One operand value for a form's source type (predicates: 0 and non-zero patterns, including
/// one whose only set bits are above bit 31).
inline Gen<uint64_t> operand(spec::OperandType t) {
  switch (t) {
    case spec::OperandType::B64:
      return word64();
    case spec::OperandType::F32:
      return in_low_half(f32_bits());
    case spec::OperandType::Pred:
      return rc::gen::weightedOneOf<uint64_t>(
          {{6, rc::gen::element<uint64_t>(0, 1)},
           {1, rc::gen::element<uint64_t>(uint64_t{1} << 32, 0x80000000ull, ~uint64_t{0})},
           {1, rc::gen::arbitrary<uint64_t>()}});
    default:
      return in_low_half(word32());
  }
}

/// Another value that equals `v` in its low 32 bits but not in its high 32 bits.
inline uint64_t high_half_twin(uint64_t v, uint32_t delta) {
  return v ^ (uint64_t{delta | 1u} << 32);
}

/// The 32 operands of a warp: from a pool of one to three values (for .b64, the later ones often
/// differing from the first only in the high half), or each lane its own value.
inline Gen<std::array<uint64_t, 32>> operands(spec::OperandType t) {
  return rc::gen::exec([t] {
    std::array<uint64_t, 32> a{};
    if (*rc::gen::weightedElement<bool>({{3, true}, {1, false}})) {
      std::vector<uint64_t> pool{*operand(t)};
      const int n = *rc::gen::inRange(1, 4);
      for (int k = 1; k < n; ++k)
        pool.push_back(*rc::gen::weightedElement<bool>({{1, true}, {2, false}})
                           ? high_half_twin(pool[0], *rc::gen::arbitrary<uint32_t>())
                           : *operand(t));
      const auto pick = *rc::gen::container<std::vector<int>>(
          32, rc::gen::inRange(0, static_cast<int>(pool.size())));
      for (unsigned i = 0; i < 32; ++i) a[i] = pool[static_cast<std::size_t>(pick[i])];
    } else {
      const auto each = *rc::gen::container<std::vector<uint64_t>>(32, operand(t));
      for (unsigned i = 0; i < 32; ++i) a[i] = each[i];
    }
    return a;
  });
}

/// Membermasks: empty, full, one lane, a contiguous run, full with a few holes, or any word.
inline Gen<uint32_t> lane_mask() {
  return rc::gen::weightedOneOf<uint32_t>(
      {{1, rc::gen::just(0u)},
       {4, rc::gen::just(0xffffffffu)},
       {2, rc::gen::map(rc::gen::inRange(0, 32), [](int i) { return uint32_t{1} << i; })},
       {2, rc::gen::exec([] {
          const int lo = *rc::gen::inRange(0, 32), len = *rc::gen::inRange(1, 33 - lo);
          return static_cast<uint32_t>(((uint64_t{1} << len) - 1) << lo);
        })},
       {2, rc::gen::exec([] {
          uint32_t m = 0xffffffffu;
          for (int k = *rc::gen::inRange(1, 4); k > 0; --k)
            m &= ~(uint32_t{1} << *rc::gen::inRange(0, 32));
          return m;
        })},
       {2, rc::gen::arbitrary<uint32_t>()}});
}

/// How the lanes' membermasks relate.
enum class Layout : uint8_t {
  Converged,   ///< one mask: the executing lanes, maybe with exited lanes inside it
  Groups,      ///< a diverged warp: 2-4 groups, each lane passing its group's mask
  SharedMask,  ///< one arbitrary mask for every lane (often UB)
  PerLane,     ///< each lane its own arbitrary mask (mostly UB)
};

/// Lane statuses, membermasks and call sites of a warp (operands left at 0). With `tidy`, only
/// the converged and diverged layouts and no lane going its own way: warps that are mostly free
/// of UB, for laws about defined results.
inline Gen<model::Warp> warp_shape(bool tidy = false) {
  return rc::gen::exec([tidy] {
    using model::LaneStatus;
    model::Warp w{};
    const auto status = rc::gen::weightedElement<LaneStatus>(
        {{10, LaneStatus::Executes}, {3, LaneStatus::Exited}, {2, LaneStatus::Inactive}});
    const bool everyone = *rc::gen::weightedElement<bool>({{2, true}, {3, false}});
    const auto statuses = everyone ? std::vector<LaneStatus>(32, LaneStatus::Executes)
                                   : *rc::gen::container<std::vector<LaneStatus>>(32, status);
    uint32_t execs = 0, exited = 0;
    for (unsigned i = 0; i < 32; ++i) {
      model::set_status(w, i, statuses[i]);
      if (statuses[i] == LaneStatus::Executes) execs |= uint32_t{1} << i;
      if (statuses[i] == LaneStatus::Exited) exited |= uint32_t{1} << i;
    }
    const auto layout = tidy ? *rc::gen::element(Layout::Converged, Layout::Groups)
                             : *rc::gen::weightedElement<Layout>({{4, Layout::Converged},
                                                                  {3, Layout::Groups},
                                                                  {2, Layout::SharedMask},
                                                                  {1, Layout::PerLane}});
    switch (layout) {
      case Layout::Converged: {
        const uint32_t m = execs | (exited & *rc::gen::arbitrary<uint32_t>());
        w.mask.fill(m);
        break;
      }
      case Layout::Groups: {
        const int k = *rc::gen::inRange(2, 5);
        const bool runs = *rc::gen::arbitrary<bool>();
        const auto scattered = *rc::gen::container<std::vector<int>>(32, rc::gen::inRange(0, k));
        std::array<uint32_t, 4> group_mask{};
        std::array<int, 32> group{};
        for (unsigned i = 0; i < 32; ++i) {
          group[i] = runs ? static_cast<int>(i) * k / 32 : scattered[i];
          if ((execs | exited) >> i & 1u)
            group_mask[static_cast<std::size_t>(group[i])] |= uint32_t{1} << i;
        }
        for (unsigned i = 0; i < 32; ++i)
          w.mask[i] = group_mask[static_cast<std::size_t>(group[i])];
        break;
      }
      case Layout::SharedMask:
        w.mask.fill(*lane_mask());
        break;
      case Layout::PerLane: {
        const auto each = *rc::gen::container<std::vector<uint32_t>>(32, lane_mask());
        for (unsigned i = 0; i < 32; ++i) w.mask[i] = each[i];
        break;
      }
    }
    // A few lanes that go their own way: one bit flipped, their own bit dropped, another mask.
    for (int t = tidy ? 0 : *rc::gen::weightedElement<int>({{6, 0}, {2, 1}, {1, 2}, {1, 3}}); t > 0;
         --t) {
      const auto lane = static_cast<unsigned>(*rc::gen::inRange(0, 32));
      switch (*rc::gen::inRange(0, 3)) {
        case 0:
          w.mask[lane] ^= uint32_t{1} << *rc::gen::inRange(0, 32);
          break;
        case 1:
          w.mask[lane] &= ~(uint32_t{1} << lane);
          break;
        default:
          w.mask[lane] = *lane_mask();
          break;
      }
    }
    // Mostly one call site; sometimes lanes reach the instruction from two or three.
    if (*rc::gen::weightedElement<bool>({{4, false}, {1, true}})) {
      const auto sites = *rc::gen::container<std::vector<uint32_t>>(32, rc::gen::inRange(0u, 3u));
      for (unsigned i = 0; i < 32; ++i) w.site[i] = sites[i];
    }
    return w;
  });
}

/// A warp state whose operands suit source type `t` (`tidy` as for `warp_shape`).
inline Gen<model::Warp> warp(spec::OperandType t, bool tidy = false) {
  return rc::gen::exec([t, tidy] {
    model::Warp w = *warp_shape(tidy);
    w.a = *operands(t);
    return w;
  });
}

/// A shuffle's b: the lane offsets and indexes programs use (0-31), the same with bits above
/// b[4:0] set (ignored), and any word.
inline Gen<uint32_t> shfl_b() {
  return rc::gen::weightedOneOf<uint32_t>(
      {{4, rc::gen::element<uint32_t>(0u, 1u, 2u, 4u, 8u, 16u, 31u)},
       {3, rc::gen::inRange<uint32_t>(0u, 64u)},
       {1, rc::gen::element<uint32_t>(0x20u, 0x3fu, 0x80000001u, 0xffffffe0u, 0xffffffffu)},
       {1, rc::gen::arbitrary<uint32_t>()}});
}

/// A shuffle's c: the widths of __shfl_*_sync (segment mask 32 - width at c[12:8], clamp 0
/// for .up and 31 otherwise), any segment mask with any clamp (holed ones included), the
/// same with bits outside c[12:8] and c[4:0] set (ignored), and any word.
inline Gen<uint32_t> shfl_c() {
  return rc::gen::weightedOneOf<uint32_t>(
      {{3, rc::gen::exec([] {
          const uint32_t width = uint32_t{1} << *rc::gen::inRange(0, 6);
          return (32 - width) << 8 | (*rc::gen::arbitrary<bool>() ? 0x1fu : 0u);
        })},
       {3, rc::gen::exec([] {
          return *rc::gen::inRange<uint32_t>(0u, 32u) << 8 | *rc::gen::inRange<uint32_t>(0u, 32u);
        })},
       {1, rc::gen::exec([] {
          const uint32_t junk = *rc::gen::arbitrary<uint32_t>() & ~0x1f1fu;
          return junk | *rc::gen::inRange<uint32_t>(0u, 32u) << 8 |
                 *rc::gen::inRange<uint32_t>(0u, 32u);
        })},
       {1, rc::gen::arbitrary<uint32_t>()}});
}

/// Fills a shuffle's per-lane b and c: mostly one value for the warp, as programs pass them;
/// else b per lane (the indexes of a gather), or both per lane.
inline void shfl_operands(model::Warp& w) {
  const int shape = *rc::gen::weightedElement<int>({{3, 0}, {2, 1}, {1, 2}});
  const uint32_t b = *shfl_b(), c = *shfl_c();
  const auto bs = shape >= 1 ? *rc::gen::container<std::vector<uint32_t>>(32, shfl_b())
                             : std::vector<uint32_t>(32, b);
  const auto cs = shape == 2 ? *rc::gen::container<std::vector<uint32_t>>(32, shfl_c())
                             : std::vector<uint32_t>(32, c);
  for (unsigned i = 0; i < 32; ++i) {
    w.b[i] = bs[i];
    w.c[i] = cs[i];
  }
}

/// Targets: mostly sm_90, also sm_6x (convergence rules), sm_70/80, and the sm_100 a/f targets
/// of the .f32 reductions.
inline Gen<spec::Target> target() {
  return rc::gen::weightedElement<spec::Target>({{6, {90, 0}},
                                                 {3, {60, 0}},
                                                 {1, {70, 0}},
                                                 {1, {80, 0}},
                                                 {2, {100, 'a'}},
                                                 {1, {100, 'f'}},
                                                 {1, {30, 0}}});
}

/// PTX ISA versions around the ones that introduced the forms.
inline Gen<spec::PtxVersion> ptx() {
  return rc::gen::weightedElement<spec::PtxVersion>(
      {{6, spec::kLatestPtx}, {1, {6, 0}}, {1, {7, 0}}, {1, {8, 6}}});
}

/// The operand choices of form `f`: `!a` where allowed, the d|p destinations of match.all, and
/// (unless `no_immediate`) now and then an immediate membermask.
inline Gen<spec::Instr> instr(spec::FormId f, bool no_immediate = false) {
  return rc::gen::exec([f, no_immediate] {
    const auto& info = spec::form_info(f);
    spec::Instr in;
    in.form = f;
    in.negate = info.negatable && *rc::gen::arbitrary<bool>();
    if (info.optional_p) {
      const int dests = *rc::gen::inRange(0, 3);  // d, d|p, _|p
      in.write_d = dests != 2;
      in.write_p = dests != 0;
    }
    if (!no_immediate && info.family != spec::Family::CtaBarrier &&
        *rc::gen::weightedElement<bool>({{7, false}, {1, true}}))
      in.imm_mask = *lane_mask();
    if (spec::has_operands_bc(f)) {  // b and c written as immediates, as often as not
      if (*rc::gen::arbitrary<bool>()) in.imm_b = *shfl_b();
      if (*rc::gen::arbitrary<bool>()) in.imm_c = *shfl_c();
    }
    return in;
  });
}

/// A case of warp form `f` (with b and c for the shuffles).
inline Gen<WarpCase> warp_case(spec::FormId f) {
  return rc::gen::exec([f] {
    WarpCase c{*instr(f), *warp(spec::form_info(f).a_type), *target(), *ptx()};
    if (spec::has_operands_bc(f)) shfl_operands(c.warp);
    return c;
  });
}

/// A case of warp form `f` that is usually free of UB (three in four are tidy, the rest
/// anything): for laws about defined results, which say nothing where UB fires.
inline Gen<WarpCase> law_case(spec::FormId f) {
  return rc::gen::weightedOneOf<WarpCase>(
      {{3, rc::gen::exec([f] {
          WarpCase c{*instr(f, true), *warp(spec::form_info(f).a_type, true), *target(), *ptx()};
          if (spec::has_operands_bc(f)) shfl_operands(c.warp);
          return c;
        })},
       {1, warp_case(f)}});
}

/// A case of warp form `f` on sm_90 whose operands are all 0 or 1 (for laws that read values as
/// predicates), usually free of UB as in `law_case`.
inline Gen<WarpCase> zero_one_case(spec::FormId f) {
  return rc::gen::exec([f] {
    const bool tidy = *rc::gen::weightedElement<bool>({{3, true}, {1, false}});
    WarpCase c{*instr(f, tidy), *warp_shape(tidy), spec::kDefaultTarget, spec::kLatestPtx};
    const auto bits = *rc::gen::container<std::vector<int>>(32, rc::gen::inRange(0, 2));
    for (unsigned i = 0; i < 32; ++i) c.warp.a[i] = static_cast<uint64_t>(bits[i]);
    return c;
  });
}

/// Block states: 1 to 1024 threads (leaning to whole warps), mostly all arriving, some exited
/// (often a tail, as after an early return), now and then a thread that never arrives, and
/// predicates that are all zero, all non-zero (INT_MIN included) or mixed.
inline Gen<model::Cta> cta() {
  return rc::gen::exec([] {
    const auto n = static_cast<std::size_t>(
        *rc::gen::weightedOneOf<int>({{3, rc::gen::element(32, 64, 128, 256)},
                                      {1, rc::gen::element(1, 1024)},
                                      {2, rc::gen::inRange(1, 129)}}));
    model::Cta c = model::make_cta(n);
    if (*rc::gen::weightedElement<bool>({{2, false}, {1, true}})) {
      const auto from = static_cast<std::size_t>(*rc::gen::inRange<int>(0, static_cast<int>(n)));
      for (std::size_t t = from; t < n; ++t) c.exited[t] = true;
    }
    for (int k = *rc::gen::weightedElement<int>({{3, 0}, {1, 1}, {1, 3}}); k > 0; --k)
      c.exited[static_cast<std::size_t>(*rc::gen::inRange<int>(0, static_cast<int>(n)))] = true;
    for (int k = *rc::gen::weightedElement<int>({{6, 0}, {1, 1}, {1, 2}}); k > 0; --k)
      c.arrive[static_cast<std::size_t>(*rc::gen::inRange<int>(0, static_cast<int>(n)))] = false;
    const auto pattern = *rc::gen::inRange(0, 4);
    if (pattern == 1) std::fill(c.pred.begin(), c.pred.end(), *word32() | 1u);
    if (pattern >= 2) {
      const auto some = *rc::gen::container<std::vector<uint32_t>>(
          std::min<std::size_t>(n, 128),
          pattern == 2 ? rc::gen::element<uint32_t>(0u, 1u) : word32());
      for (std::size_t t = 0; t < n; ++t) c.pred[t] = some[t % some.size()];
    }
    return c;
  });
}

/// A block-barrier instruction of form `f` and a state for it: __syncthreads' barrier 0 without a
/// count, or a named barrier with an immediate or register number and count. Named states lean
/// to what warp-specialised code does: whole warps at the barrier, whole warps elsewhere, some
/// warps arriving through the partner form, counts that match the arrivals, and now and then a
/// count or number that is off (not a multiple of 32, zero, too large, above 15, mixed), and the
/// first and last of the sixteen barriers.
inline Gen<CtaCase> cta_case(spec::FormId f) {
  return rc::gen::exec([f] {
    auto in = *instr(f);
    auto c = *cta();
    const bool arrive = f == spec::FormId::BarArrive;
    const int shape = arrive ? *rc::gen::inRange(1, 4) : *rc::gen::inRange(0, 4);
    in.imm_bar.reset();
    in.has_count = shape >= 1;
    if (shape == 0 || shape == 1) in.imm_bar = *rc::gen::inRange<uint32_t>(0, 16);
    const std::size_t n = c.arrive.size(), warps = (n + 31) / 32;
    std::vector<uint32_t> warp_bar(warps), warp_count(warps);
    // Elsewhere and partner warps, and the count the arrivals fill.
    std::size_t at = 0;
    for (std::size_t w = 0; w < warps; ++w) {
      const int role = *rc::gen::weightedElement<int>({{5, 0}, {2, 1}, {2, 2}});
      warp_bar[w] = *rc::gen::weightedElement<uint32_t>({{8, 1}, {2, 2}, {1, 0}, {1, 15}, {1, 16}});
      for (std::size_t t = w * 32; t < n && t < w * 32 + 32; ++t) {
        if (role == 1 && in.has_count) c.arrive[t] = false;
        if (role == 2 && in.has_count && shape != 0) c.partner[t] = true;
      }
      if (!(role == 1 && in.has_count)) ++at;
    }
    const uint32_t fitting = static_cast<uint32_t>(32 * std::max<std::size_t>(at, 1));
    const uint32_t count = *rc::gen::weightedElement<uint32_t>(
        {{12, fitting}, {2, 32}, {1, fitting + 16}, {1, 0}, {1, fitting + 32 * 40}});
    for (std::size_t w = 0; w < warps; ++w)
      warp_count[w] = *rc::gen::weightedElement<uint32_t>({{10, count}, {1, count + 32}});
    if (shape == 1) in.imm_count = count;
    // Now and then the first warp's threads each name a barrier of their own (0 to 17).
    const bool scattered = *rc::gen::weightedElement<bool>({{4, false}, {1, true}});
    for (std::size_t t = 0; t < n; ++t) {
      c.bar[t] = scattered && t < 32 ? *rc::gen::inRange<uint32_t>(0, 18) : warp_bar[t / 32];
      c.count[t] = warp_count[t / 32];
    }
    if (in.imm_bar && *rc::gen::weightedElement<bool>({{9, false}, {1, true}})) in.imm_bar = 0;
    return CtaCase{in, c, *target(), *ptx()};
  });
}

}  // namespace gen
}  // namespace warpspec::test
