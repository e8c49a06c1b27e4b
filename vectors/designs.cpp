#include "vectors/designs.hpp"

#include <functional>

#include "spec/redux.hpp"
#include "vectors/generate.hpp"

namespace warpspec::vectors {

namespace {

using model::LaneStatus;

// ---------------------------------------------------------------- warps

// A warp whose lanes are all alive but inactive, with empty membermasks.
model::Warp idle_warp() {
  model::Warp w = model::make_warp(0);
  for (unsigned i = 0; i < 32; ++i) model::set_status(w, i, LaneStatus::Inactive);
  return w;
}

// The lanes of `lanes` execute with membermask `mask`.
void group(model::Warp& w, uint32_t lanes, uint32_t mask) {
  for (unsigned i = 0; i < 32; ++i)
    if ((lanes >> i) & 1u) {
      model::set_status(w, i, LaneStatus::Executes);
      w.mask[i] = mask;
    }
}

void exit_lanes(model::Warp& w, uint32_t lanes) {
  for (unsigned i = 0; i < 32; ++i)
    if ((lanes >> i) & 1u) model::set_status(w, i, LaneStatus::Exited);
}

model::Warp grouped(uint32_t lanes, uint32_t mask) {
  model::Warp w = idle_warp();
  group(w, lanes, mask);
  return w;
}

// Who executes with which membermask, who has exited, and from which call site.
std::vector<model::Warp> layouts() {
  std::vector<model::Warp> out;
  out.push_back(grouped(~0u, ~0u));  // the whole warp
  {
    auto w = grouped(~0u, ~0u);  // exited lanes inside the mask
    exit_lanes(w, 0xf0000000u);
    out.push_back(w);
  }
  out.push_back(grouped(1u << 5, 1u << 5));          // one lane alone
  out.push_back(grouped(0x80000000u, 0x80000000u));  // lane 31 alone
  out.push_back(grouped(0x0000ffffu, 0x0000ffffu));  // the low half
  {
    auto w = grouped(0xffff0000u, 0xffff0000u);  // the high half, the low half exited
    exit_lanes(w, 0x0000ffffu);
    out.push_back(w);
  }
  {
    auto w = grouped(0x00ffff00u, 0x00ffff00u);  // the middle, some lanes exited outside
    exit_lanes(w, 0x000000ffu);
    out.push_back(w);
  }
  out.push_back(grouped(0x55555555u, 0x55555555u));  // every other lane
  {
    auto w = grouped(0x0000ffffu, 0x0000ffffu);  // two groups with their own masks
    group(w, 0xffff0000u, 0xffff0000u);
    out.push_back(w);
  }
  {
    auto w = grouped(0x55555555u, 0x55555555u);  // two groups of 16 and 15 whose lanes interleave
    group(w, 0x2aaaaaaau, 0x2aaaaaaau);
    out.push_back(w);
  }
  {
    auto w = grouped(1u << 17, ~0u);  // one survivor with the full mask
    exit_lanes(w, ~(1u << 17));
    out.push_back(w);
  }
  {
    auto w = grouped(~0u, ~0u);  // two call sites
    for (unsigned i = 16; i < 32; ++i) w.site[i] = 1;
    out.push_back(w);
  }
  out.push_back(grouped(0x7ffffffeu, 0x7ffffffeu));  // neither lane 0 nor lane 31
  {
    auto w = grouped(0xffff00ffu, 0xffff00ffu);  // a hole, an exited lane inside
    exit_lanes(w, 1u << 3);
    out.push_back(w);
  }
  // Undefined: a lane with another mask, a lane outside its own mask, a named lane absent.
  {
    auto w = grouped(~0u, ~0u);
    w.mask[3] = 0x0000ffffu;
    out.push_back(w);
  }
  {
    auto w = grouped(~0u, ~0u);
    w.mask[0] = 0xfffffffeu;
    out.push_back(w);
  }
  out.push_back(grouped(0x0000ffffu, ~0u));
  return out;
}

using Pattern = std::function<uint64_t(unsigned)>;

// Operand patterns per lane for an instruction's source.
std::vector<Pattern> patterns(const spec::ParsedInstr& in) {
  const auto& f = spec::form_info(in.instr.form);
  const auto syn = spec::value_syntax(in);
  if (syn.none) return {[](unsigned) { return uint64_t{0}; }};
  if (syn.is_pred)
    return {
        [](unsigned) { return uint64_t{1}; }, [](unsigned) { return uint64_t{0}; },
        [](unsigned i) { return uint64_t{i % 2}; }, [](unsigned i) { return uint64_t{i == 0}; },
        [](unsigned i) { return uint64_t{i == 31}; }, [](unsigned i) { return uint64_t{i < 28}; },
        [](unsigned i) { return uint64_t{i < 16}; },
        // Predicates given as integers: true when non-zero, whatever bit 0 or the low byte hold.
        [](unsigned i) { return uint64_t{i % 2 ? 2u : 0u}; },
        [](unsigned i) { return uint64_t{i % 2 ? 0x100u : 6u}; },
        // The sign bit alone: true, though every narrower field of it is 0 and it is negative.
        [](unsigned i) { return uint64_t{i % 2 ? 0x80000000u : 0u}; }};
  if (syn.is_float)
    return {[](unsigned i) -> uint64_t { return i % 2 ? 0x80000000u : 0u; },
            [](unsigned i) -> uint64_t { return i % 3 == 0 ? 0x7fc00123u : 0x3f800000u + i; },
            [](unsigned i) -> uint64_t { return i % 2 ? 0xffc00000u : 0x40000000u; },
            [](unsigned i) -> uint64_t { return i % 2 ? 0x7fc00001u : 0xffc00002u; },
            [](unsigned i) -> uint64_t {
              return i % 3 == 0 ? 0x7f800000u : i % 3 == 1 ? 0xff800000u : 0x3f800000u;
            },
            [](unsigned i) -> uint64_t {
              return i % 3 == 0 ? 0x00000001u : i % 3 == 1 ? 0x80000003u : 0x3f000000u;
            },
            [](unsigned i) -> uint64_t {
              return i % 3 == 0 ? 0xc0400000u : i % 3 == 1 ? 0x40000000u : 0xbfc00000u;
            },
            // Magnitudes that grow (shrink) with the lane, signs alternating: the winner of
            // max (min), with or without .abs, is the highest lane.
            [](unsigned i) -> uint64_t {
              return (i % 2 ? 0x80000000u : 0u) | (0x3f800000u + (i << 20));
            },
            [](unsigned i) -> uint64_t {
              return (i % 2 ? 0x80000000u : 0u) | (0x42000000u - (i << 16));
            },
            [](unsigned i) -> uint64_t { return 0x3f800000u + (i << 20); },
            [](unsigned i) -> uint64_t { return 0x42000000u - (i << 16); }};
  const bool wide = syn.bits == 64;
  const uint64_t ones = wide ? ~0ull : 0xffffffffull;
  const uint64_t top = wide ? 1ull << 63 : 0x80000000ull;
  const uint64_t identity = f.family == spec::Family::Redux ? spec::redux_identity(f) : 0;
  return {
      [=](unsigned) { return wide ? 0x5a5a5a5a5a5a5a5aull : 0x5a5a5a5aull; },
      [=](unsigned i) { return (i * 0x9e3779b97f4a7c15ull + 0x1234567ull) & ones; },
      [](unsigned i) { return uint64_t{i % 20 + 1}; },
      [=](unsigned i) {
        return i % 2 ? 0x12345678ull : (wide ? 0xabcd00000000abcdull : 0xabcdull);
      },
      [=](unsigned i) {
        const uint64_t b[] = {0, ones, top, top - 1};
        return b[i % 4];
      },
      [](unsigned i) { return 0x1234ull | uint64_t{i % 2} << 16; },
      [=](unsigned i) { return 5 | (i % 2 ? top : 0); },
      [](unsigned i) { return 7 | uint64_t{i % 2} << 32; },
      [](unsigned i) { return 7ull << 32 | (i % 2); },
      [=](unsigned) { return wide ? 0x7ff8000000000001ull : 0x7fc00001ull; },
      [=](unsigned i) { return i % 2 ? top : 0; },
      [](unsigned) { return uint64_t{0x80000001u}; },
      [](unsigned i) { return uint64_t{i % 2 ? 0xfffffff0u : 5u}; },
      [](unsigned i) { return uint64_t{i + 1}; },
      [](unsigned i) { return uint64_t{64 - i}; },
      [=](unsigned) { return uint64_t{identity}; },
      [](unsigned i) { return uint64_t{i % 2 ? 3u : 6u}; },
      [](unsigned i) { return uint64_t{i % 2 ? 1u : 2u}; },
      [](unsigned i) { return uint64_t{i % 3}; },
  };
}

std::vector<std::vector<Round>> warp_designs(const spec::ParsedInstr& in) {
  const auto ls = layouts();
  const auto ps = patterns(in);
  model::Warp pairs = idle_warp();
  for (unsigned i = 0; i < 32; i += 2) group(pairs, 3u << i, 3u << i);
  // The patterns' values cut to the operand's width (a 32-bit source holds 32 bits).
  const uint64_t width = spec::value_syntax(in).bits == 64 ? ~0ull : 0xffffffffull;
  const auto with_values = [&](const model::Warp& layout, const Pattern& p) {
    model::Warp w = layout;
    for (unsigned i = 0; i < 32; ++i) w.a[i] = p(i) & width;
    return w;
  };
  std::vector<std::vector<Round>> out;
  for (const auto& l : ls)
    for (const auto& p : ps) out.push_back({Round{with_values(l, p), {}}});
  // Two rounds: the whole warp, then the low half (or two groups, then the whole warp; or the
  // whole warp, then what is left after four lanes exit) with the next pattern, so that results,
  // membermasks and the living lanes change from one round to the next.
  for (std::size_t k = 0; k < ps.size(); ++k) {
    const auto& next = ps[(k + 1) % ps.size()];
    out.push_back({Round{with_values(ls[0], ps[k]), {}}, Round{with_values(ls[4], next), {}}});
    out.push_back({Round{with_values(ls[8], ps[k]), {}}, Round{with_values(ls[0], next), {}}});
    out.push_back({Round{with_values(ls[0], ps[k]), {}}, Round{with_values(ls[1], next), {}}});
    // Sixteen groups of two lanes, then the same with each lane's operand swapped with its
    // partner's: where one lane of a pair decides (a minimum, the one false vote), the other
    // decides in the next round, so that every lane decides once.
    const auto swapped = [&](unsigned i) { return ps[k](i ^ 1u); };
    out.push_back({Round{with_values(pairs, ps[k]), {}}, Round{with_values(pairs, swapped), {}}});
  }
  // match: sixteen pairs a round, each pair's two values differing in one bit alone, until every
  // bit of the operand has been the only difference once (two rounds for .b32, four for .b64).
  if (spec::form_info(in.instr.form).family == spec::Family::Match) {
    const unsigned bits = spec::value_syntax(in).bits;
    std::vector<Round> rounds;
    for (unsigned r = 0; r * 16 < bits; ++r) {
      model::Warp w = pairs;
      for (unsigned j = 0; j < 16; ++j) {
        const uint64_t base = ((j + 1) * 0x9e3779b97f4a7c15ull) & width;
        w.a[2 * j] = base;
        w.a[2 * j + 1] = base ^ (uint64_t{1} << (16 * r + j));
      }
      rounds.push_back(Round{w, {}});
    }
    out.push_back(std::move(rounds));
  }
  // Three rounds: two groups, the whole warp, the two groups again (a membermask that comes back
  // after another, and lanes that lead once and follow later).
  out.push_back({Round{with_values(ls[8], ps[0]), {}}, Round{with_values(ls[0], ps[0]), {}},
                 Round{with_values(ls[8], ps[0]), {}}});
  return out;
}

// ---------------------------------------------------------------- blocks

enum class Arrival { All, ExitedInEveryWarp, LastWarpExited, One, None, Missing };

model::Cta block(std::size_t n, Arrival a, const std::function<uint32_t(std::size_t)>& pred,
                 bool stale_flipped = true) {
  model::Cta c = model::make_cta(n);
  for (std::size_t t = 0; t < n; ++t) c.pred[t] = pred(t);
  auto exit = [&](std::size_t t) {
    c.exited[t] = true;
    c.arrive[t] = false;
    // An exited thread's stale predicate is the other one, or (unflipped) the same as the rest.
    if (stale_flipped) c.pred[t] = c.pred[t] ? 0 : 1;
  };
  switch (a) {
    case Arrival::All:
      break;
    case Arrival::ExitedInEveryWarp:
      for (std::size_t w = 0; w < n; w += 32) exit(std::min(w + 31, n - 1));
      break;
    case Arrival::LastWarpExited:
      if (n > 32)
        for (std::size_t t = (n - 1) / 32 * 32; t < n; ++t) exit(t);
      break;
    case Arrival::One:
      for (std::size_t t = 0; t < n; ++t)
        if (t != n / 2) exit(t);
      break;
    case Arrival::None:
      for (auto&& x : c.arrive) x = false;
      break;
    case Arrival::Missing:
      c.arrive[1] = false;
      break;
  }
  return c;
}

std::vector<std::vector<Round>> block_designs() {
  const std::function<uint32_t(std::size_t)> preds[] = {
      [](std::size_t) { return 1u; },
      [](std::size_t) { return 0u; },
      [](std::size_t t) { return static_cast<uint32_t>(t % 2); },
      [](std::size_t) { return 2u; },
      [](std::size_t t) { return t % 3 == 0 ? 0xffffffffu : 0u; },
      [](std::size_t t) { return t % 2 ? 0u : 0x80000000u; },
  };
  std::vector<std::vector<Round>> out;
  for (std::size_t n : {32, 33, 64, 96, 256, 1024})
    for (auto a : {Arrival::All, Arrival::ExitedInEveryWarp, Arrival::LastWarpExited, Arrival::One,
                   Arrival::None, Arrival::Missing}) {
      for (const auto& p : preds) out.push_back({Round{{}, block(n, a, p)}});
      // The last thread alone passes the other predicate: the last (partial) warp decides.
      for (uint32_t last : {0u, 1u})
        out.push_back(
            {Round{{}, block(n, a, [=](std::size_t t) { return t + 1 == n ? last : 1u - last; })}});
    }
  // Exited threads whose last predicates agree with the arriving ones: only who counts decides.
  for (std::size_t n : {64, 96})
    for (auto a : {Arrival::ExitedInEveryWarp, Arrival::LastWarpExited})
      out.push_back({Round{{}, block(n, a, preds[0], false)}});
  // Two barriers in a row whose answers differ, with every thread at both or with threads
  // exiting between them.
  for (std::size_t k = 0; k < std::size(preds); ++k) {
    const auto& next = preds[(k + 1) % std::size(preds)];
    out.push_back(
        {Round{{}, block(64, Arrival::All, preds[k])}, Round{{}, block(64, Arrival::All, next)}});
    for (auto a : {Arrival::ExitedInEveryWarp, Arrival::LastWarpExited})
      out.push_back({Round{{}, block(96, Arrival::All, preds[k])}, Round{{}, block(96, a, next)}});
  }
  return out;
}

// ---------------------------------------------------------------- named barriers

/// What a warp does at a named barrier.
enum class Role { Arrive, Partner, Elsewhere, Exited };

/// A warp's part in a named-barrier design: its role, barrier number and count registers, and
/// threads of it that have exited or stand elsewhere.
struct WarpPart {
  Role role = Role::Arrive;
  uint32_t bar = 1, count = 64;
  std::vector<unsigned> exited{}, elsewhere{}, partner{};  ///< lanes apart from the warp's role
};

model::Cta named_block(std::size_t n, const std::vector<WarpPart>& warps,
                       const std::function<uint32_t(std::size_t)>& pred) {
  model::Cta c = model::make_cta(n);
  for (std::size_t t = 0; t < n; ++t) {
    const auto& w = warps[std::min(t / 32, warps.size() - 1)];
    const auto lane = static_cast<unsigned>(t % 32);
    c.pred[t] = pred(t);
    c.bar[t] = w.bar;
    c.count[t] = w.count;
    c.partner[t] = w.role == Role::Partner;
    c.arrive[t] = w.role == Role::Arrive || w.role == Role::Partner;
    c.exited[t] = w.role == Role::Exited;
    if (std::find(w.exited.begin(), w.exited.end(), lane) != w.exited.end())
      c.exited[t] = true, c.arrive[t] = false;
    if (std::find(w.elsewhere.begin(), w.elsewhere.end(), lane) != w.elsewhere.end())
      c.arrive[t] = false;
    if (std::find(w.partner.begin(), w.partner.end(), lane) != w.partner.end())
      c.partner[t] = !c.partner[t];
  }
  return c;
}

/// Block states for a named barrier (a and b given): a count smaller than the block with the
/// other warps elsewhere, bar.arrive partners, warps with exited threads that still count whole,
/// several phases, too few arrivals, a warp that does not gather, two barriers side by side,
/// and (through the count and number registers) every count and number rule. The instruction's
/// immediates, when it has them, override the registers: these designs hold count 64 and barrier
/// 1 there.
std::vector<std::vector<Round>> named_designs() {
  using R = Role;
  const std::function<uint32_t(std::size_t)> preds[] = {
      [](std::size_t) { return 1u; },
      [](std::size_t t) { return static_cast<uint32_t>(t % 2); },
      [](std::size_t t) { return t < 32 ? 0u : 3u; },
      [](std::size_t) { return 0u; },
  };
  const WarpPart A{}, P{R::Partner}, E{R::Elsewhere}, X{R::Exited};
  auto with = [](WarpPart w, auto&& f) {
    f(w);
    return w;
  };
  const std::vector<std::pair<std::size_t, std::vector<WarpPart>>> shapes = {
      {128, {A, A, E, E}},  // count < block
      {128, {E, A, E, A}},  // not the first warps
      {128, {P, A, E, E}},  // producer, consumer
      {128, {A, P, X, E}},
      {128,
       {with(A,
             [](auto& w) {
               w.exited = {3, 17, 31};
             }),
        A, E, E}},                                                    // exited threads
      {48, {A, A}},                                                   // a partial warp
      {128, {A, A, A, A}},                                            // two phases
      {128, {A, A, A, E}},                                            // half a phase left
      {128, {A, E, E, E}},                                            // too few
      {128, {with(A, [](auto& w) { w.elsewhere = {5}; }), A, E, E}},  // a warp apart
      {128, {A, A, with(A, [](auto& w) { w.bar = 2; }), with(A, [](auto& w) { w.bar = 2; })}},
      {128, {A, A, with(A, [](auto& w) { w.bar = 2, w.count = 32; }), E}},  // two barriers
      {128, {with(A, [](auto& w) { w.count = 48; }), with(A, [](auto& w) { w.count = 48; }), E, E}},
      {128, {with(A, [](auto& w) { w.count = 0; }), with(A, [](auto& w) { w.count = 0; }), E, E}},
      {64, {with(A, [](auto& w) { w.count = 256; }), with(A, [](auto& w) { w.count = 256; })}},
      {128, {A, with(A, [](auto& w) { w.count = 96; }), E, E}},  // mixed counts
      {128, {with(A, [](auto& w) { w.bar = 16; }), with(A, [](auto& w) { w.bar = 16; }), E, E}},
      {128, {P, P, E, E}},  // partners alone
      {128, {with(P, [](auto& w) { w.elsewhere = {9}; }), A, E, E}},
      {1024, {A, A, E}},                                      // a whole block
      {96, {A, P, X}},                                        // a warp gone
      {64, {with(A, [](auto& w) { w.partner = {28}; }), A}},  // one warp, two forms
      {128, {A, with(P, [](auto& w) { w.bar = 2; }), with(A, [](auto& w) { w.bar = 2; }), E}},
      // The largest count: every thread of the largest block at one barrier.
      {1024, {with(A, [](auto& w) { w.count = 1024; })}},
      // Two barriers with their own counts, the lowest thread's the larger.
      {96, {A, A, with(A, [](auto& w) { w.bar = 2, w.count = 32; })}},
      {32,
       {with(A,
             [](auto& w) {  // one thread left
               w.count = 32;
               for (unsigned l = 1; l < 32; ++l) w.exited.push_back(l);
             })}},
  };
  std::vector<std::vector<Round>> out;
  for (const auto& [n, warps] : shapes)
    for (const auto& p : preds) out.push_back({Round{{}, named_block(n, warps, p)}});
  // Barriers 1 and 9, which agree in their low three bits, their warps interleaved and their
  // answers apart (1's warps pass false, 9's true): merged, they would fill phases of other
  // warps than either does alone.
  const WarpPart nine = with(A, [](auto& w) { w.bar = 9; });
  out.push_back({Round{{}, named_block(128, {A, nine, A, nine}, [](std::size_t t) {
                         return static_cast<uint32_t>(t / 32 % 2);
                       })}});
  // Two barriers in a row with different answers: the second with a warp's threads exited.
  out.push_back({Round{{}, named_block(128, {A, A, E, E}, preds[0])},
                 Round{{}, named_block(128, {A, A, E, E}, preds[1])}});
  out.push_back({Round{{}, named_block(128, {A, A, E, E}, preds[2])},
                 Round{{}, named_block(128, shapes[4].second, preds[0])}});
  return out;
}

}  // namespace

std::vector<spec::ParsedInstr> cover_instructions(spec::FormId form) {
  auto out = instructions_for(form);
  const auto& f = spec::form_info(form);
  if (f.family == spec::Family::CtaBarrier && f.negatable)
    out.push_back(
        std::get<spec::ParsedInstr>(spec::parse_instruction(std::string(f.name) + " d, 0, !a;")));
  return out;
}

std::vector<std::vector<Round>> cover_designs(const spec::ParsedInstr& in) {
  if (!spec::is_warp_form(in.instr.form))
    return in.instr.has_count || !in.instr.imm_bar ? named_designs() : block_designs();
  return warp_designs(in);
}

}  // namespace warpspec::vectors
