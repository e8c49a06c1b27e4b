#include "vectors/coverpoint_predicates.hpp"

#include <algorithm>
#include <bit>
#include <map>

#include "spec/redux.hpp"
#include "spec/shfl.hpp"

namespace warpspec::vectors::detail {

namespace {

// A changed block's answers differ from the expectation on a thread that executes in both and
// whose result the expectation defines.
bool differs_where_defined(const spec::CtaOutcome<model::Concrete>& o, const vectors::Expected& e) {
  for (std::size_t t = 0; t < e.defined.size() && t < o.d.size(); ++t)
    if (e.defined[t] && o.executes[t] && o.d[t] != e.d[t]) return true;
  return false;
}

using C = CoverpointId;
using spec::FormId;

// ---------------------------------------------------------------- facts of one round

// A warp round as the coverpoints read it.
struct WarpRound {
  const model::Warp* w = nullptr;
  const Expected* e = nullptr;
  uint32_t execs = 0, exited = 0, defined = 0;
  uint32_t named = 0;  // union of the executing lanes' membermasks
  std::array<uint32_t, 32> mask{}, part{};
  std::vector<uint32_t> groups;  // distinct participant sets of defined lanes
};

bool bit(uint32_t m, unsigned i) {
  return ((m >> i) & 1u) != 0;
}

template <class F>
bool any_lane(uint32_t lanes, F&& f) {
  for (unsigned i = 0; i < 32; ++i)
    if (bit(lanes, i) && f(i)) return true;
  return false;
}

// A run of set bits: (lowest lane, highest lane), or nullopt when the bits have a hole.
std::optional<std::pair<unsigned, unsigned>> run_of(uint32_t m) {
  if (m == 0) return std::nullopt;
  const unsigned lo = static_cast<unsigned>(std::countr_zero(m));
  const uint32_t shifted = m >> lo;
  if ((shifted & (shifted + 1)) != 0) return std::nullopt;
  return std::pair{lo, 31u - static_cast<unsigned>(std::countl_zero(m))};
}

bool f32_nan(uint64_t x) {
  return spec::f32_is_nan(model::Concrete{}, static_cast<uint32_t>(x));
}

bool f64_nan(uint64_t x) {
  return spec::f64_is_nan(model::Concrete{}, x);
}

// The sibling of an .f32 redux form with .abs or .NaN toggled.
FormId f32_sibling(FormId form, bool toggle_abs, bool toggle_nan) {
  const auto& f = spec::form_info(form);
  for (const auto& g : spec::kForms)
    if (g.family == f.family && g.mode == f.mode && g.a_type == f.a_type &&
        g.abs == (f.abs != toggle_abs) && g.nan == (f.nan != toggle_nan))
      return g.id;
  return form;
}

class Reader {
 public:
  Reader(const Vector& v, const std::vector<Expected>& e, spec::Target t, spec::PtxVersion p)
      : v_(v), e_(e), t_(t), p_(p), f_(spec::form_info(v.instr.instr.form)), ub_(has_ub(e)) {
    if (v.is_cta()) return;
    for (std::size_t k = 0; k < v.rounds.size() && k < e.size(); ++k) {
      WarpRound r;
      r.w = &v.rounds[k].warp;
      r.e = &e[k];
      for (unsigned i = 0; i < 32; ++i) {
        r.exited |= uint32_t{r.w->exited[i]} << i;
        r.execs |= uint32_t{r.w->exec[i] && !r.w->exited[i]} << i;
        r.defined |= uint32_t{e[k].defined[i] != 0} << i;
        r.mask[i] = v.instr.instr.imm_mask ? *v.instr.instr.imm_mask : r.w->mask[i];
      }
      for (unsigned i = 0; i < 32; ++i) {
        r.part[i] = r.mask[i] & ~r.exited;
        if (bit(r.execs, i)) r.named |= r.mask[i];
        if (bit(r.defined, i) &&
            std::find(r.groups.begin(), r.groups.end(), r.part[i]) == r.groups.end())
          r.groups.push_back(r.part[i]);
      }
      warps_.push_back(std::move(r));
    }
  }

  bool holds(CoverpointId id) const {
    if (coverpoint_info(id).ub != ub_) return false;
    return v_.is_cta() ? block(id) : warp(id);
  }

 private:
  // Lane j's operand as the form reads it: 64 or 32 bits, or the (negated) predicate.
  uint64_t value(const WarpRound& r, unsigned j) const {
    const uint64_t a = r.w->a[j];
    if (f_.a_type == spec::OperandType::B64) return a;
    if (f_.a_type == spec::OperandType::Pred) return uint64_t{(a != 0) != v_.instr.instr.negate};
    return a & 0xffffffffu;
  }
  unsigned width() const { return f_.a_type == spec::OperandType::B64 ? 64 : 32; }
  uint64_t top() const { return uint64_t{1} << (width() - 1); }

  std::vector<uint64_t> values(const WarpRound& r, uint32_t group) const {
    std::vector<uint64_t> out;
    for (unsigned j = 0; j < 32; ++j)
      if (bit(group, j)) out.push_back(value(r, j));
    return out;
  }

  // Some defined lane of some round satisfies f(round, lane).
  template <class F>
  bool any_defined(F&& f) const {
    for (const auto& r : warps_)
      if (any_lane(r.defined, [&](unsigned i) { return f(r, i); })) return true;
    return false;
  }
  template <class F>
  bool any_executing(F&& f) const {
    for (const auto& r : warps_)
      if (any_lane(r.execs, [&](unsigned i) { return f(r, i); })) return true;
    return false;
  }
  // Some participant set of a defined lane satisfies f(values).
  template <class F>
  bool any_group(F&& f) const {
    for (const auto& r : warps_)
      for (auto g : r.groups)
        if (f(values(r, g))) return true;
    return false;
  }
  template <class F>
  bool any_round(F&& f) const {
    for (const auto& r : warps_)
      if (f(r)) return true;
    return false;
  }
  // Some defined lane (or thread) of any round has a result that satisfies f(d).
  template <class F>
  bool any_result(F&& f) const {
    for (const auto& r : e_)
      for (std::size_t i = 0; i < r.defined.size(); ++i)
        if (r.defined[i] && f(r.d[i])) return true;
    return false;
  }
  // Some lane defined here gets other answers from the two changed copies of the vector.
  bool answers_differ(const std::vector<Expected>& x, const std::vector<Expected>& y) const {
    for (std::size_t k = 0; k < e_.size(); ++k)
      for (std::size_t i = 0; i < e_[k].defined.size(); ++i)
        if (e_[k].defined[i] && (x[k].d[i] != y[k].d[i] || x[k].p[i] != y[k].p[i])) return true;
    return false;
  }
  // Some defined lane gets another answer from a changed copy of the vector.
  bool changed_differs(const Vector& w) const { return answers_differ(expected(w, t_, p_), e_); }
  // The source predicate is negated, and the same vector without the negation answers otherwise.
  bool negation_matters() const {
    if (!v_.instr.instr.negate) return false;
    Vector w = v_;
    w.instr.instr.negate = false;
    return changed_differs(w);
  }
  bool other_form_differs(FormId other) const {
    Vector w = v_;
    w.instr.instr.form = other;
    return changed_differs(w);
  }
  // The exited lanes come back and execute, so that the membermasks that name them take them in,
  // and that changes an answer; with their stale operands otherwise than with zeros, so that
  // their operands, not only their presence, show.
  bool exited_would_matter() const {
    if (!any_round([](const WarpRound& r) { return (r.exited & r.named) != 0; })) return false;
    Vector w = v_, z;
    for (auto& r : w.rounds)
      for (unsigned j = 0; j < 32; ++j)
        if (r.warp.exited[j]) model::set_status(r.warp, j, model::LaneStatus::Executes);
    z = w;
    for (std::size_t k = 0; k < z.rounds.size(); ++k)
      for (unsigned j = 0; j < 32; ++j)
        if (v_.rounds[k].warp.exited[j]) z.rounds[k].warp.a[j] = 0;
    const auto stale = expected(w, t_, p_);
    return answers_differ(stale, e_) && answers_differ(stale, expected(z, t_, p_));
  }

  // The model's answers when the exited lanes some membermask names take part after all, each
  // with the operand `op(round, lane)` (nullopt: that lane stays out). Each such lane executes
  // with the membermask and call site of a lane that names it, so that bringing it back adds no
  // undefined behaviour; nullopt when no lane comes back or the changed state is undefined.
  template <class Op>
  std::optional<std::vector<Expected>> exited_taking_part(Op&& op) const {
    Vector w = v_;
    bool any = false;
    for (std::size_t k = 0; k < warps_.size(); ++k) {
      const auto& r = warps_[k];
      auto& x = w.rounds[k].warp;
      for (unsigned j = 0; j < 32; ++j) {
        if (!bit(r.exited & r.named, j)) continue;
        const std::optional<uint64_t> o = op(k, j);
        if (!o) continue;
        unsigned namer = 0;
        while (!(bit(r.execs, namer) && bit(r.mask[namer], j))) ++namer;
        model::set_status(x, j, model::LaneStatus::Executes);
        x.mask[j] = r.mask[namer];
        x.site[j] = x.site[namer];
        x.a[j] = *o;
        any = true;
      }
    }
    if (!any) return std::nullopt;
    auto e = expected(w, t_, p_);
    if (has_ub(e)) return std::nullopt;
    return e;
  }
  // Some defined lane gets another answer when the exited lanes take part with `op`'s operands.
  template <class Op>
  bool exited_operands_matter(Op&& op) const {
    const auto e = exited_taking_part(op);
    return e && answers_differ(*e, e_);
  }
  // Some defined lane gets another answer when every operand is read through `cut`.
  template <class Cut>
  bool operands_cut_differ(Cut&& cut) const {
    Vector w = v_;
    for (auto& r : w.rounds)
      for (auto& a : r.warp.a) a = cut(a);
    return changed_differs(w);
  }

  // Another value for lane j's operand that takes it out of the combination: the reduction's
  // identity; for a vote, the vote that changes nothing (false for .any and .ballot, true for
  // .all, another taking-part lane's for .uni); for match, a value no lane of the round holds.
  // nullopt when there is none (a .uni lane alone).
  std::optional<uint64_t> other_operand(const WarpRound& r, unsigned j) const {
    const uint64_t a = r.w->a[j];
    if (f_.family == spec::Family::Vote) {
      bool neutral = f_.mode == spec::Mode::All;
      if (f_.mode == spec::Mode::Uni) {
        const uint32_t others = r.part[j] & ~(1u << j);
        if (!others) return std::nullopt;
        neutral = value(r, static_cast<unsigned>(std::countr_zero(others))) != 0;
      }
      return uint64_t{neutral != v_.instr.instr.negate};  // the operand that votes `neutral`
    }
    if (f_.family == spec::Family::Redux) return spec::redux_identity(f_);
    const uint64_t ones = width() == 64 ? ~0ull : 0xffffffffull;
    uint64_t x = (a ^ 0x5a5a5a5a5a5a5a5aull) & ones;
    while (any_lane(~0u, [&](unsigned i) { return (r.w->a[i] & ones) == x; })) x = (x + 1) & ones;
    return x;
  }
  // Every lane, in some round, decides the defined result of another lane.
  bool every_lane_matters() const {
    // Cheap refusals first: every lane must execute, with a partner, in some round.
    uint32_t paired = 0;
    for (const auto& r : warps_)
      for (unsigned j = 0; j < 32; ++j)
        if (bit(r.execs, j) && (r.part[j] & ~(1u << j))) paired |= 1u << j;
    if (paired != ~0u) return false;
    uint32_t matters = 0;
    for (std::size_t k = 0; k < warps_.size() && matters != ~0u; ++k) {
      const auto& r = warps_[k];
      for (unsigned j = 0; j < 32; ++j) {
        if (bit(matters, j) || !bit(r.execs, j)) continue;
        Vector w;
        w.instr = v_.instr;
        w.rounds = {v_.rounds[k]};
        const auto other = other_operand(r, j);
        if (!other) continue;
        w.rounds[0].warp.a[j] = *other;
        const auto x = expected(w, t_, p_);
        if (has_ub(x)) continue;
        const bool other_changes = any_lane(r.defined & ~(1u << j), [&](unsigned i) {
          return x[0].d[i] != r.e->d[i] || x[0].p[i] != r.e->p[i];
        });
        if (other_changes) matters |= 1u << j;
      }
    }
    return matters == ~0u;
  }

  bool warp(CoverpointId id) const;
  bool shuffle(CoverpointId id) const;
  bool block(CoverpointId id) const;
  bool sequence(CoverpointId id) const;

  const Vector& v_;
  const std::vector<Expected>& e_;
  spec::Target t_;
  spec::PtxVersion p_;
  const spec::FormInfo& f_;
  bool ub_;
  std::vector<WarpRound> warps_;
};

bool contains(const std::vector<uint64_t>& xs, uint64_t x) {
  return std::find(xs.begin(), xs.end(), x) != xs.end();
}

std::map<uint64_t, std::size_t> counts_of(const std::vector<uint64_t>& xs) {
  std::map<uint64_t, std::size_t> out;
  for (auto x : xs) ++out[x];
  return out;
}

template <class F>
bool any_pair(const std::vector<uint64_t>& xs, F&& f) {
  for (std::size_t i = 0; i < xs.size(); ++i)
    for (std::size_t j = i + 1; j < xs.size(); ++j)
      if (f(xs[i], xs[j])) return true;
  return false;
}

bool Reader::warp(CoverpointId id) const {
  const uint64_t top = this->top();
  const uint64_t ones = width() == 64 ? ~0ull : 0xffffffffull;
  switch (id) {
    case C::MaskFull:
      return any_defined([](const WarpRound& r, unsigned i) { return r.mask[i] == ~0u; });
    case C::MaskOneLane:
      return any_defined([](const WarpRound& r, unsigned i) { return r.mask[i] == 1u << i; });
    case C::MaskLane31Alone:
      return any_defined(
          [](const WarpRound& r, unsigned i) { return i == 31 && r.mask[i] == 0x80000000u; });
    case C::MaskContiguousLow:
    case C::MaskContiguousHigh:
    case C::MaskContiguousMiddle:
      return any_defined([&](const WarpRound& r, unsigned i) {
        const auto run = run_of(r.mask[i]);
        if (!run) return false;
        const unsigned len = run->second - run->first + 1;
        if (id == C::MaskContiguousLow) return run->first == 0 && len >= 2 && len <= 31;
        if (id == C::MaskContiguousHigh) return run->second == 31 && len >= 2 && len <= 31;
        return run->first > 0 && run->second < 31 && len >= 2;
      });
    case C::MaskHoles:
      return any_defined(
          [](const WarpRound& r, unsigned i) { return r.mask[i] != 0 && !run_of(r.mask[i]); });
    case C::MaskTwoGroups:
      return any_defined([](const WarpRound& r, unsigned i) {
        return any_lane(r.defined, [&](unsigned j) { return (r.mask[i] & r.mask[j]) == 0; });
      });
    case C::MaskInterleavedGroups:
      return any_defined([](const WarpRound& r, unsigned i) {
        return any_lane(r.defined, [&](unsigned j) {
          const uint32_t a = r.part[i], b = r.part[j];  // the lanes each group waits for
          if (a == 0 || b == 0 || (a & b) != 0 || std::popcount(a) == std::popcount(b))
            return false;
          const auto lo = [](uint32_t m) { return std::countr_zero(m); };
          const auto hi = [](uint32_t m) { return 31 - std::countl_zero(m); };
          return lo(a) < hi(b) && lo(b) < hi(a);
        });
      });
    case C::MaskDiffersBetweenLanes:
      return any_executing([](const WarpRound& r, unsigned i) {
        return any_lane(r.mask[i] & r.execs,
                        [&](unsigned j) { return j != i && r.mask[j] != r.mask[i]; });
      });
    case C::MaskSelfMissing:
      return any_executing([](const WarpRound& r, unsigned i) { return !bit(r.mask[i], i); });
    case C::MaskNamesAbsentLane:
      return any_executing(
          [](const WarpRound& r, unsigned i) { return (r.mask[i] & ~r.exited & ~r.execs) != 0; });

    case C::StatusExitedInMask:
      return any_defined(
          [](const WarpRound& r, unsigned i) { return (r.mask[i] & r.exited) != 0; });
    case C::StatusExitedOutsideMask:
      return any_round(
          [](const WarpRound& r) { return r.defined != 0 && (r.exited & ~r.named) != 0; });
    case C::StatusInactive:
      return any_round(
          [](const WarpRound& r) { return r.defined != 0 && (~r.execs & ~r.exited) != 0; });
    case C::StatusAllExecute:
      return any_round([](const WarpRound& r) { return r.execs == ~0u; });
    case C::StatusSoleSurvivor:
      return any_round([](const WarpRound& r) {
        return std::popcount(r.execs) == 1 && r.exited == ~r.execs &&
               r.mask[std::countr_zero(r.execs)] == ~0u;
      });

    case C::ResultExcludeLane0:
      return any_defined([](const WarpRound& r, unsigned i) { return !bit(r.part[i], 0); });
    case C::ResultExcludeLane31:
      return any_defined([](const WarpRound& r, unsigned i) { return !bit(r.part[i], 31); });
    case C::ResultOneParticipant:
      return any_defined([](const WarpRound& r, unsigned i) { return r.part[i] == 1u << i; });
    case C::ResultGroupNotPowerOfTwo:
      return any_defined([&](const WarpRound& r, unsigned i) {
        const auto n = static_cast<unsigned>(std::popcount(r.part[i]));
        return n >= 3 && !std::has_single_bit(n) &&
               !any_lane(r.part[i], [&](unsigned j) { return value(r, j) == 0; });
      });
    case C::StatusExitedOperandMatters:
      return exited_would_matter();
    case C::ResultEveryLaneMatters:
      return every_lane_matters();
    case C::ResultBallotBitsInIdleGroup:
      // Bits of an aligned group of 8 lanes in one round's ballot; in the next round no lane of
      // the group executes, yet a defined lane's membermask names lanes of it (exited ones).
      for (std::size_t k = 0; k + 1 < warps_.size(); ++k)
        for (unsigned g = 0; g < 32; g += 8) {
          const uint32_t group = 0xffu << g;
          const auto& now = warps_[k];
          const auto& next = warps_[k + 1];
          if (next.execs & group) continue;
          if (any_lane(now.defined, [&](unsigned i) { return (now.e->d[i] & group) != 0; }) &&
              any_lane(next.defined, [&](unsigned j) { return (next.mask[j] & group) != 0; }))
            return true;
        }
      return false;
    case C::StatusExitedMatterUnderFullMask: {
      // The exited lanes come back with their own operands; a full-mask lane's answer changes.
      const auto e = exited_taking_part([&](std::size_t k, unsigned j) -> std::optional<uint64_t> {
        return v_.rounds[k].warp.a[j];
      });
      if (!e) return false;
      for (std::size_t k = 0; k < warps_.size(); ++k)
        if (any_lane(warps_[k].defined, [&](unsigned i) {
              return warps_[k].mask[i] == ~0u &&
                     ((*e)[k].d[i] != e_[k].d[i] || (*e)[k].p[i] != e_[k].p[i]);
            }))
          return true;
      return false;
    }
    case C::StatusExitedZeroMatters:
      return exited_operands_matter(
          [](std::size_t, unsigned) { return std::optional<uint64_t>{0}; });
    case C::SeqExitedLastOperandMatters:
      // A lane that executed in the round before joins with the operand it passed there.
      return exited_operands_matter([&](std::size_t k, unsigned j) -> std::optional<uint64_t> {
        if (k == 0 || !bit(warps_[k - 1].execs, j)) return std::nullopt;
        return v_.rounds[k - 1].warp.a[j];
      });
    case C::APredBit0Misleads:
      return operands_cut_differ([](uint64_t a) { return a & 1u; });
    case C::APredLowByteMisleads:
      return operands_cut_differ([](uint64_t a) { return a & 0xffu; });
    case C::APredSignBitDecides:
      // Only a predicate of 0x80000000 turns false when its bit 31 is cut away.
      return operands_cut_differ([](uint64_t a) { return a & 0x7fffffffu; });

    case C::AAllEqual:
      return any_group([](const auto& xs) { return xs.size() >= 2 && counts_of(xs).size() == 1; });
    case C::ATwoClasses:
      return any_group([](const auto& xs) {
        const auto c = counts_of(xs);
        return c.size() == 2 && c.begin()->second >= 2 && c.rbegin()->second >= 2;
      });
    case C::AMoreThan16Distinct:
      return any_group([](const auto& xs) { return counts_of(xs).size() > 16; });
    case C::A32Distinct:
      return any_group([](const auto& xs) { return counts_of(xs).size() == 32; });
    case C::ASignedBoundaries:
      return any_group([&](const auto& xs) {
        return contains(xs, 0) && contains(xs, ones) && contains(xs, top) && contains(xs, top - 1);
      });
    case C::ALowBitsAgree:
      return any_group([](const auto& xs) {
        return any_pair(xs,
                        [](uint64_t x, uint64_t y) { return x != y && ((x ^ y) & 0xffff) == 0; });
      });
    case C::AEveryBitDecides: {
      // The bits for which some group's values are exactly two that differ there alone.
      uint64_t shown = 0;
      for (const auto& r : warps_)
        for (auto g : r.groups) {
          const auto c = counts_of(values(r, g));
          const uint64_t x = c.size() == 2 ? c.begin()->first ^ c.rbegin()->first : 0;
          if (std::has_single_bit(x)) shown |= x;
        }
      return shown == ones;
    }
    case C::ASignBitOnly:
      return any_group([&](const auto& xs) {
        return any_pair(xs, [&](uint64_t x, uint64_t y) { return (x ^ y) == top; });
      });
    case C::AB64EqualLowDifferHigh:
      return any_group([](const auto& xs) {
        return any_pair(xs, [](uint64_t x, uint64_t y) {
          return x != y && static_cast<uint32_t>(x) == static_cast<uint32_t>(y);
        });
      });
    case C::AB64EqualHighDifferLow:
      return any_group([](const auto& xs) {
        return any_pair(xs,
                        [](uint64_t x, uint64_t y) { return x != y && (x >> 32) == (y >> 32); });
      });
    case C::ANanBitsEqual:
      return any_group([&](const auto& xs) {
        for (const auto& [x, n] : counts_of(xs))
          if (n >= 2 && (width() == 64 ? f64_nan(x) : f32_nan(x))) return true;
        return false;
      });
    case C::ASignedZeros:
      return any_group([&](const auto& xs) { return contains(xs, 0) && contains(xs, top); });

    case C::ResultAnySelfOnly:
      return any_defined([](const WarpRound& r, unsigned i) {
        return std::popcount(r.part[i]) >= 2 && r.e->d[i] == 1u << i;
      });
    case C::ResultAnyThreeClasses:
      return any_group([](const auto& xs) { return counts_of(xs).size() >= 3; });
    case C::ResultAllAgree:
      return any_defined([](const WarpRound& r, unsigned i) {
        return std::popcount(r.part[i]) >= 2 && r.e->d[i] != 0;
      });
    case C::ResultAllDiffer:
      return any_defined([](const WarpRound& r, unsigned i) { return r.e->d[i] == 0; });

    case C::AMixedPredicates:
      return any_group([](const auto& xs) { return counts_of(xs).size() == 2; });
    case C::ResultTrue:
      return any_result([](uint32_t d) { return d != 0; });
    case C::ResultFalse:
      return any_result([](uint32_t d) { return d == 0; });
    case C::ResultBallotEmpty:
      return any_result([](uint32_t d) { return d == 0; });
    case C::ResultBallotFull:
      return any_result([](uint32_t d) { return d == ~0u; });
    case C::ResultBallotBit31:
      return any_result([](uint32_t d) { return bit(d, 31) && d != ~0u; });
    case C::ResultUniTrueWithExitedInMask:
      return any_defined([&](const WarpRound& r, unsigned i) {
        return r.e->d[i] == 1 && any_lane(r.mask[i] & r.exited,
                                          [&](unsigned j) { return value(r, j) != value(r, i); });
      });
    case C::ResultTrueOverExitedInMask:
      return any_defined([&](const WarpRound& r, unsigned i) {
        const uint32_t gone = r.mask[i] & r.exited;
        return r.e->d[i] == 1 && gone != 0 &&
               any_lane(r.part[i], [&](unsigned j) { return value(r, j) == 1; }) &&
               !any_lane(gone, [&](unsigned j) { return value(r, j) != 1; });
      });
    case C::ASingleTrue:
      return any_group([](const auto& xs) {
        return xs.size() >= 2 && std::count(xs.begin(), xs.end(), uint64_t{1}) == 1;
      });
    case C::ASingleTrueLane0:
      for (const auto& r : warps_)
        for (auto g : r.groups) {
          if (!bit(g, 0) || std::popcount(g) < 2 || value(r, 0) != 1) continue;
          const auto xs = values(r, g);
          if (std::count(xs.begin(), xs.end(), uint64_t{1}) == 1) return true;
        }
      return false;
    case C::InstrNegatedMixed:
      return v_.instr.instr.negate &&
             any_group([](const auto& xs) { return counts_of(xs).size() == 2; });
    case C::InstrNegationMatters:
      return negation_matters();
    case C::InstrNegatedExited:
      return v_.instr.instr.negate && any_defined([](const WarpRound& r, unsigned i) {
               return (r.mask[i] & r.exited) != 0;
             });
    case C::InstrNegated:
      return v_.instr.instr.negate && !warps_.empty() && any_result([](uint32_t) { return true; });

    case C::ResultAddWraps:
      return any_group([&](const auto& xs) {
        int64_t sum = 0;
        for (auto x : xs)
          sum += f_.a_type == spec::OperandType::S32
                     ? int64_t{static_cast<int32_t>(static_cast<uint32_t>(x))}
                     : static_cast<int64_t>(x);
        return f_.a_type == spec::OperandType::S32 ? sum < INT32_MIN || sum > INT32_MAX
                                                   : sum > int64_t{UINT32_MAX};
      });
    case C::ResultMinMaxSignMatters:
      return any_group([&](const auto& xs) {
        const bool max = f_.mode == spec::Mode::Max;
        auto u = xs.front();
        auto s = xs.front();
        for (auto x : xs) {
          const auto sx = static_cast<int32_t>(static_cast<uint32_t>(x));
          const auto ss = static_cast<int32_t>(static_cast<uint32_t>(s));
          if (max ? x > u : x < u) u = x;
          if (max ? sx > ss : sx < ss) s = x;
        }
        return u != s;
      });
    case C::ResultZeroWouldChangeWholeWarp:
      return any_defined([&](const WarpRound& r, unsigned i) {
        if (r.part[i] != 0xffffffffu) return false;
        const auto d = r.e->d[i];
        const bool is_signed = f_.a_type == spec::OperandType::S32;
        if (f_.mode == spec::Mode::Min) return is_signed ? static_cast<int32_t>(d) > 0 : d != 0;
        return is_signed && static_cast<int32_t>(d) < 0;  // an unsigned max starts at 0 rightly
      });
    case C::ResultAtIdentity:
      return any_defined([&](const WarpRound& r, unsigned i) {
        return std::popcount(r.part[i]) >= 2 && r.e->d[i] == spec::redux_identity(f_);
      });
    case C::ResultWinnerLastLaneOnly:
      return any_defined([&](const WarpRound& r, unsigned i) {
        const uint32_t part = r.part[i];
        if (std::popcount(part) < 2 || f32_nan(r.e->d[i])) return false;
        const unsigned last = 31u - static_cast<unsigned>(std::countl_zero(part));
        auto key = [&](unsigned j) {
          const auto x = static_cast<uint32_t>(value(r, j));
          return f_.abs ? x & 0x7fffffffu : x;
        };
        if (key(last) != r.e->d[i]) return false;
        return !any_lane(part, [&](unsigned j) { return j != last && key(j) == r.e->d[i]; });
      });
    case C::ResultBitwiseNewValue:
      return any_defined([&](const WarpRound& r, unsigned i) {
        return std::popcount(r.part[i]) >= 2 && !contains(values(r, r.part[i]), r.e->d[i]);
      });
    case C::ResultAndZeroFromNonzero:
      return any_defined([&](const WarpRound& r, unsigned i) {
        return r.e->d[i] == 0 && !contains(values(r, r.part[i]), 0);
      });
    case C::ResultXorZeroFromNonzero:
      return any_defined([&](const WarpRound& r, unsigned i) {
        const auto xs = values(r, r.part[i]);
        return r.e->d[i] == 0 && std::any_of(xs.begin(), xs.end(), [](uint64_t x) { return x; });
      });

    case C::ANanPayload:
      return any_group([](const auto& xs) {
        return std::any_of(xs.begin(), xs.end(),
                           [](uint64_t x) { return f32_nan(x) && x != spec::kCanonicalNanF32; });
      });
    case C::ANegativeNan:
      return any_group([](const auto& xs) {
        return std::any_of(xs.begin(), xs.end(),
                           [](uint64_t x) { return f32_nan(x) && bit(x, 31); });
      });
    case C::AAllNan:
      return any_group([](const auto& xs) {
        return xs.size() >= 2 && std::all_of(xs.begin(), xs.end(), f32_nan);
      });
    case C::ANanAmongNumbers:
      return any_group([](const auto& xs) {
        return std::any_of(xs.begin(), xs.end(), f32_nan) &&
               !std::all_of(xs.begin(), xs.end(), f32_nan);
      });
    case C::AInfinity:
      return any_group([](const auto& xs) {
        return std::any_of(xs.begin(), xs.end(),
                           [](uint64_t x) { return (x & 0x7fffffffu) == 0x7f800000u; });
      });
    case C::ASubnormal:
      return any_group([](const auto& xs) {
        return std::any_of(xs.begin(), xs.end(), [](uint64_t x) {
          return (x & 0x7f800000u) == 0 && (x & 0x007fffffu) != 0;
        });
      });
    case C::ANegativeNumbers:
      return any_group([](const auto& xs) {
        return std::any_of(xs.begin(), xs.end(), [](uint64_t x) {
          return bit(static_cast<uint32_t>(x), 31) && !f32_nan(x) && x != 0x80000000u;
        });
      });
    case C::ResultZeroSignDecides:
      return any_defined([&](const WarpRound& r, unsigned i) {
        auto xs = values(r, r.part[i]);
        if (f_.abs)  // the zeros as the reduction sees them
          for (auto& x : xs) x &= 0x7fffffffu;
        const auto d = r.e->d[i];
        return contains(xs, 0) && contains(xs, 0x80000000u) && (d == 0 || d == 0x80000000u);
      });
    case C::ResultAbsChangesAnswer:
      return other_form_differs(f32_sibling(v_.instr.instr.form, true, false));
    case C::ResultNanQualifierDecides:
      return other_form_differs(f32_sibling(v_.instr.instr.form, false, true));

    case C::SeqTwoRoundsStaleWouldShow:
    case C::SeqMaskChanges:
    case C::SeqResultBitCleared:
    case C::SeqResultBitSet:
    case C::SeqExitBetweenRounds:
    case C::SeqExitedStillNamed:
      return sequence(id);
    case C::SeqCallSiteSplit: {
      const bool split = any_defined([](const WarpRound& r, unsigned i) {
        return any_lane(r.part[i], [&](unsigned j) { return r.w->site[j] != r.w->site[i]; });
      });
      if (!split || f_.mode == spec::Mode::None) return split;
      // A form with a result: keeping each call site's lanes to themselves must change one.
      Vector w = v_;
      keep_call_sites_apart(w);
      const auto apart = expected(w, t_, p_);
      return !has_ub(apart) && answers_differ(apart, e_);
    }
    case C::ElectLeaderNotLowestExecuting:
      return any_defined([](const WarpRound& r, unsigned i) {
        return r.e->d[i] != static_cast<uint32_t>(std::countr_zero(r.execs));
      });
    case C::ElectMaskElectsAgain:
      for (std::size_t k = 0; k < warps_.size(); ++k)
        for (std::size_t l = k + 1; l < warps_.size(); ++l)
          if (any_lane(warps_[k].defined, [&](unsigned i) {
                return any_lane(warps_[l].defined,
                                [&](unsigned j) { return warps_[l].mask[j] == warps_[k].mask[i]; });
              }))
            return true;
      return false;
    case C::ElectExitedBelowLeader:
      return any_defined([](const WarpRound& r, unsigned i) {
        return r.e->d[i] < 32 && (r.exited & ((1u << r.e->d[i]) - 1u)) != 0;
      });
    case C::ElectLeaderThenFollower:
      for (std::size_t k = 0; k < warps_.size(); ++k)
        for (std::size_t l = k + 1; l < warps_.size(); ++l)
          if (any_lane(warps_[k].defined & warps_[l].defined,
                       [&](unsigned i) { return warps_[k].e->p[i] && !warps_[l].e->p[i]; }))
            return true;
      return false;
    case C::ElectMaskReturnsAfterAnother:
      for (std::size_t k = 0; k + 2 < warps_.size(); ++k)
        for (std::size_t m = k + 1; m + 1 < warps_.size(); ++m)
          for (std::size_t l = m + 1; l < warps_.size(); ++l)
            if (any_lane(warps_[k].defined, [&](unsigned i) {
                  const uint32_t mask = warps_[k].mask[i];
                  return any_lane(warps_[l].defined,
                                  [&](unsigned j) { return warps_[l].mask[j] == mask; }) &&
                         any_lane(warps_[m].defined,
                                  [&](unsigned j) { return warps_[m].mask[j] != mask; });
                }))
              return true;
      return false;
    case C::ActivemaskExitedLane:
      return any_round([](const WarpRound& r) { return r.defined != 0 && r.exited != 0; });
    case C::ActivemaskTwoSites:
      return any_defined([](const WarpRound& r, unsigned i) {
        return any_lane(r.execs, [&](unsigned j) { return r.w->site[j] != r.w->site[i]; });
      });
    case C::ActivemaskLoneLane:
      return any_round([](const WarpRound& r) {
        return std::popcount(r.execs) == 1 && r.defined != 0 && (~r.execs & ~r.exited) != 0;
      });
    case C::ShflBBeyond31:
    case C::ShflUpBelowZero:
    case C::ShflSegmentBelowWarp:
    case C::ShflOddSegmentMask:
    case C::ShflClampCutsSegment:
    case C::ShflOutOfRange:
    case C::ShflFromLowerSegment:
    case C::ShflIdxWraps:
    case C::ShflSourceOutsideMask:
    case C::ShflSourceNotExecuting:
    case C::ShflBDiffersBetweenLanes:
    case C::ShflCDiffersBetweenLanes:
    case C::ShflCopiesNanOrNegativeZero:
    case C::ShflDownPastLane31:
    case C::ShflCBitBesideField:
    case C::ShflReadsChangedLowerLane:
    case C::ShflReadsChangedHigherLane:
      return shuffle(id);
    default:
      return false;
  }
}

// The shuffle's coverpoints: each lane's source as spec::shfl_source computes it, from the
// lane's own b and c, and what that source would be with one operand changed.
bool Reader::shuffle(CoverpointId id) const {
  const model::Concrete cd;
  const auto mode = f_.mode;
  const auto& in = v_.instr.instr;
  auto b_of = [&](const WarpRound& r, unsigned i) {
    return spec::operand_b(model::Concrete{}, in, *r.w, i);
  };
  auto c_of = [&](const WarpRound& r, unsigned i) {
    return spec::operand_c(model::Concrete{}, in, *r.w, i);
  };
  auto a_of = [](const WarpRound& r, unsigned j) { return static_cast<uint32_t>(r.w->a[j]); };
  auto source = [&](unsigned i, uint32_t b, uint32_t c) {
    return spec::shfl_source(cd, mode, i, b, c);
  };
  // The answer (d, p) a lane would get with b and c as given.
  auto answer = [&](const WarpRound& r, unsigned i, uint32_t b, uint32_t c) {
    const auto s = source(i, b, c);
    return std::pair{a_of(r, s.lane), s.in_range};
  };
  auto d_defined = [](const WarpRound& r, unsigned i) { return r.e->d_defined[i] != 0; };
  auto seg_of = [](uint32_t c) { return (c >> 8) & 0x1fu; };
  // A lane whose d is pinned and whose answer changes when b or c is changed by `f`.
  auto changes = [&](auto&& f) {
    return any_defined([&](const WarpRound& r, unsigned i) {
      if (!d_defined(r, i)) return false;
      const uint32_t b = b_of(r, i), c = c_of(r, i);
      auto [b2, c2] = f(b, c);
      return (b2 != b || c2 != c) && answer(r, i, b, c) != answer(r, i, b2, c2);
    });
  };
  switch (id) {
    case C::ShflBBeyond31:
      // Read whole, such a b sends every mode out of range: the lane would read itself.
      return any_defined([&](const WarpRound& r, unsigned i) {
        const auto s = source(i, b_of(r, i), c_of(r, i));
        return b_of(r, i) >= 32 && d_defined(r, i) && s.in_range && a_of(r, s.lane) != a_of(r, i);
      });
    case C::ShflUpBelowZero:
      return any_defined([&](const WarpRound& r, unsigned i) { return (b_of(r, i) & 0x1f) > i; });
    case C::ShflSegmentBelowWarp:
      return changes([](uint32_t b, uint32_t c) { return std::pair{b, c & ~0x1f00u}; });
    case C::ShflOddSegmentMask:
      return any_defined([&](const WarpRound& r, unsigned i) {
        const uint32_t seg = seg_of(c_of(r, i));
        return seg != 0 && ((~seg & 0x1fu) & ((~seg & 0x1fu) + 1)) != 0;
      });
    case C::ShflClampCutsSegment:
      return any_defined([&](const WarpRound& r, unsigned i) {
        const uint32_t c = c_of(r, i), free = ~seg_of(c) & 0x1fu, clamp = c & free;
        const uint32_t edge = mode == spec::Mode::Up ? 0u : free;
        return clamp != 0 && clamp != free && d_defined(r, i) &&
               answer(r, i, b_of(r, i), c) != answer(r, i, b_of(r, i), (c & ~0x1fu) | edge);
      });
    case C::ShflOutOfRange:
      return any_defined([&](const WarpRound& r, unsigned i) {
        const uint32_t b = b_of(r, i) & 0x1f, c = c_of(r, i), seg = seg_of(c);
        const uint32_t raw = mode == spec::Mode::Up     ? i - b
                             : mode == spec::Mode::Down ? i + b
                             : mode == spec::Mode::Bfly ? i ^ b
                                                        : (i & seg) + b;
        const uint32_t wrapped = (i & seg) | (raw & ~seg & 0x1fu);
        return !r.e->p[i] && a_of(r, i) != 0 && a_of(r, i) != a_of(r, wrapped);
      });
    case C::ShflFromLowerSegment:
      return any_defined([&](const WarpRound& r, unsigned i) {
        const auto s = source(i, b_of(r, i), c_of(r, i));
        return d_defined(r, i) && s.in_range && s.lane < (i & seg_of(c_of(r, i))) &&
               a_of(r, s.lane) != a_of(r, i);
      });
    case C::ShflIdxWraps:
      return any_defined([&](const WarpRound& r, unsigned i) {
        const uint32_t b = b_of(r, i) & 0x1f, seg = seg_of(c_of(r, i));
        const auto s = source(i, b_of(r, i), c_of(r, i));
        const uint32_t unwrapped = (i & seg) + b;
        return (b & seg) != 0 && d_defined(r, i) && s.in_range &&
               (unwrapped > 31 || a_of(r, unwrapped) != a_of(r, s.lane));
      });
    case C::ShflSourceOutsideMask:
    case C::ShflSourceNotExecuting:
      return any_defined([&](const WarpRound& r, unsigned i) {
        const auto s = source(i, b_of(r, i), c_of(r, i));
        const bool executes = bit(r.execs, s.lane);
        return s.in_range &&
               (id == C::ShflSourceNotExecuting ? !executes : executes && !bit(r.mask[i], s.lane));
      });
    case C::ShflBDiffersBetweenLanes:
    case C::ShflCDiffersBetweenLanes:
      return any_round([&](const WarpRound& r) {
        if (r.defined == 0) return false;
        const unsigned first = static_cast<unsigned>(std::countr_zero(r.defined));
        const bool is_b = id == C::ShflBDiffersBetweenLanes;
        const uint32_t x = is_b ? b_of(r, first) : c_of(r, first);
        return any_lane(r.defined,
                        [&](unsigned i) { return (is_b ? b_of(r, i) : c_of(r, i)) != x; });
      });
    case C::ShflCopiesNanOrNegativeZero:
      return any_defined([&](const WarpRound& r, unsigned i) {
        const uint32_t d = r.e->d[i];
        return d_defined(r, i) && (d == 0x80000000u || (f32_nan(d) && d != spec::kCanonicalNanF32));
      });
    case C::ShflDownPastLane31:
      return any_defined([&](const WarpRound& r, unsigned i) {
        const uint32_t sum = i + (b_of(r, i) & 0x1f);
        return sum > 31 && a_of(r, sum & 31u) != a_of(r, i);
      });
    case C::ShflCBitBesideField:
      return any_defined([&](const WarpRound& r, unsigned i) {
        const uint32_t c = c_of(r, i), b = b_of(r, i) & 0x1f;
        if (!d_defined(r, i) || (c & 0x2020u) == 0) return false;
        // The lane arithmetic with a six-bit clamp and segment mask, and the lane kept to 0-63.
        const int64_t lane = i, clamp = c & 0x3f, seg = (c >> 8) & 0x3f, first = lane & seg;
        const int64_t bound = first | (clamp & ~seg);
        int64_t j = mode == spec::Mode::Up     ? lane - b
                    : mode == spec::Mode::Down ? lane + b
                    : mode == spec::Mode::Bfly ? lane ^ b
                                               : first | (b & ~seg);
        const bool ok = mode == spec::Mode::Up ? j >= bound : j <= bound;
        const uint32_t wide = a_of(r, ok ? static_cast<unsigned>(j) & 31u : i);
        return std::pair{wide, ok} != answer(r, i, b_of(r, i), c);
      });
    case C::ShflReadsChangedLowerLane:
    case C::ShflReadsChangedHigherLane:
      return any_defined([&](const WarpRound& r, unsigned i) {
        const auto s = source(i, b_of(r, i), c_of(r, i));
        const unsigned j = s.lane;
        const bool side = id == C::ShflReadsChangedLowerLane ? j < i : j > i;
        return d_defined(r, i) && side && bit(r.defined, j) && r.e->d_defined[j] &&
               r.e->d[j] != a_of(r, j);
      });
    default:
      return false;
  }
}

bool Reader::sequence(CoverpointId id) const {
  for (std::size_t k = 1; k < e_.size(); ++k) {
    const auto& a = e_[k - 1];
    const auto& b = e_[k];
    const std::size_t n = std::min(a.defined.size(), b.defined.size());
    for (std::size_t i = 0; i < n; ++i) {
      if (id == C::SeqTwoRoundsStaleWouldShow && a.defined[i] && b.defined[i] &&
          (a.d[i] != b.d[i] || (v_.instr.instr.write_p && a.p[i] != b.p[i])))
        return true;
      if (id == C::SeqMaskChanges && !v_.is_cta() && a.executes[i] && b.executes[i] &&
          warps_[k - 1].mask[i] != warps_[k].mask[i])
        return true;
      if (a.defined[i] && b.defined[i]) {
        const bool p = v_.instr.instr.write_p;
        if (id == C::SeqResultBitCleared && ((a.d[i] & ~b.d[i]) != 0 || (p && a.p[i] && !b.p[i])))
          return true;
        if (id == C::SeqResultBitSet && ((b.d[i] & ~a.d[i]) != 0 || (p && b.p[i] && !a.p[i])))
          return true;
      }
      if (id == C::SeqExitedStillNamed && !v_.is_cta() && a.executes[i] &&
          v_.rounds[k].warp.exited[i] && bit(warps_[k].named, static_cast<unsigned>(i)))
        return true;
      if (id == C::SeqExitBetweenRounds && a.executes[i] &&
          (v_.is_cta() ? v_.rounds[k].cta.exited[i] : v_.rounds[k].warp.exited[i]))
        return true;
    }
  }
  return false;
}

bool Reader::block(CoverpointId id) const {
  // A changed block state (instruction `in`) is undefined, or answers otherwise on a thread the
  // expectation defines.
  auto outcome_differs = [&](const spec::Instr& in, const model::Cta& c, const Expected& e) {
    const auto r = model::evaluate_cta(in, c, t_, p_);
    return r.outcome.any_ub || differs_where_defined(r.outcome, e);
  };
  auto any_round = [&](auto&& f) {
    for (std::size_t k = 0; k < v_.rounds.size() && k < e_.size(); ++k)
      if (f(v_.rounds[k].cta, e_[k])) return true;
    return false;
  };
  auto size_is = [&](std::size_t n) {
    return any_round([&](const model::Cta& c, const Expected&) { return c.arrive.size() == n; });
  };
  // Threads that arrive, that have exited, and that are alive but elsewhere.
  struct Census {
    std::size_t arrive = 0, exited = 0, missing = 0;
  };
  auto census = [](const model::Cta& c) {
    Census s;
    for (std::size_t t = 0; t < c.arrive.size(); ++t) {
      if (c.exited[t])
        ++s.exited;
      else if (c.arrive[t])
        ++s.arrive;
      else
        ++s.missing;
    }
    return s;
  };
  auto any_arriving_pred = [&](auto&& f) {
    return any_round([&](const model::Cta& c, const Expected&) {
      for (std::size_t t = 0; t < c.arrive.size(); ++t)
        if (c.arrive[t] && !c.exited[t] && f(c.pred[t])) return true;
      return false;
    });
  };
  // Some round answers otherwise when its block is changed by `change` (which returns false when
  // it changes nothing); a changed block that is undefined answers nothing.
  auto changed_block_differs = [&](auto&& change) {
    for (std::size_t k = 0; k < v_.rounds.size() && k < e_.size(); ++k) {
      model::Cta c = v_.rounds[k].cta;
      if (census(c).arrive == 0 || !change(k, c)) continue;
      const auto r = model::evaluate_cta(v_.instr.instr, c, t_, p_);
      if (r.ub.empty() && differs_where_defined(r.outcome, e_[k])) return true;
    }
    return false;
  };
  auto exited_join = [&](auto&& pred_of) {
    return changed_block_differs([&](std::size_t k, model::Cta& c) {
      bool any = false;
      for (std::size_t t = 0; t < c.arrive.size(); ++t)
        if (c.exited[t])
          if (const std::optional<uint32_t> p = pred_of(k, t)) {
            c.exited[t] = false, c.arrive[t] = true, c.pred[t] = *p;
            any = true;
          }
      return any;
    });
  };
  auto partial_warp = [](const model::Cta& c) {
    return c.arrive.size() % 32 != 0 ? c.arrive.size() / 32 * 32 : c.arrive.size();
  };
  switch (id) {
    case C::BlockExitedZeroMatters:
      return exited_join([](std::size_t, std::size_t) { return std::optional<uint32_t>{0}; });
    case C::SeqExitedLastOperandMatters:
      // A thread that arrived at the barrier before joins with the predicate it passed there.
      return exited_join([&](std::size_t k, std::size_t t) -> std::optional<uint32_t> {
        if (k == 0) return std::nullopt;
        const auto& prev = v_.rounds[k - 1].cta;
        if (t >= prev.arrive.size() || !prev.arrive[t] || prev.exited[t]) return std::nullopt;
        return prev.pred[t];
      });
    case C::SeqWarpGoneLastOperandsMatter:
      // As above, but only threads whose whole warp has exited, each of which arrived before.
      return exited_join([&](std::size_t k, std::size_t t) -> std::optional<uint32_t> {
        if (k == 0) return std::nullopt;
        const auto& prev = v_.rounds[k - 1].cta;
        const auto& now = v_.rounds[k].cta;
        const std::size_t w0 = t / 32 * 32;
        for (std::size_t u = w0; u < w0 + 32 && u < now.arrive.size(); ++u)
          if (!now.exited[u] || u >= prev.arrive.size() || !prev.arrive[u] || prev.exited[u])
            return std::nullopt;
        return prev.pred[t];
      });
    case C::BlockPartialWarpMatters:
      return changed_block_differs([&](std::size_t, model::Cta& c) {
        const std::size_t from = partial_warp(c);
        for (std::size_t t = from; t < c.arrive.size(); ++t)
          c.exited[t] = true, c.arrive[t] = false;
        return from < c.arrive.size();
      });
    case C::BlockPhantomThreadsMatter:
      for (uint32_t phantom : {0u, 1u})
        if (changed_block_differs([&](std::size_t, model::Cta& c) {
              const std::size_t n = c.arrive.size(), full = (n + 31) / 32 * 32;
              model::resize_cta(c, full, phantom);
              return full > n;
            }))
          return true;
      return false;
    case C::APredBit0Misleads:
      return changed_block_differs([](std::size_t, model::Cta& c) {
        for (auto& p : c.pred) p &= 1u;
        return true;
      });
    case C::BlockCountAbove511:
      return any_result([](uint32_t d) { return d > 511; });
    case C::BlockCount1024:
      return any_result([](uint32_t d) { return d == 1024; });
    case C::BlockThreads32:
      return size_is(32);
    case C::BlockThreads33:
      return size_is(33);
    case C::BlockThreads64:
      return size_is(64);
    case C::BlockThreads96:
      return size_is(96);
    case C::BlockThreads256:
      return size_is(256);
    case C::BlockThreads1024:
      return size_is(1024);
    case C::BlockPartialLastWarp:
      return any_round([](const model::Cta& c, const Expected&) { return c.arrive.size() % 32; });
    case C::BlockAllArrive:
      return any_round([&](const model::Cta& c, const Expected&) {
        return census(c).arrive == c.arrive.size();
      });
    case C::BlockExitedInEveryWarp:
      return any_round([&](const model::Cta& c, const Expected&) {
        if (census(c).arrive == 0) return false;
        for (std::size_t w = 0; w < c.arrive.size(); w += 32) {
          bool exited = false;
          for (std::size_t t = w; t < std::min(w + 32, c.arrive.size()); ++t)
            exited = exited || c.exited[t];
          if (!exited) return false;
        }
        return true;
      });
    case C::BlockOneArrives:
      return any_round([&](const model::Cta& c, const Expected&) {
        const auto s = census(c);
        return s.arrive == 1 && s.exited + 1 == c.arrive.size();
      });
    case C::BlockNoneArrive:
      return any_round([&](const model::Cta& c, const Expected&) {
        const auto s = census(c);
        return s.arrive == 0 && s.missing > 0;
      });
    case C::BlockThreadMissing:
      return any_round([&](const model::Cta& c, const Expected&) {
        const auto s = census(c);
        return s.arrive > 0 && s.missing > 0;
      });
    case C::BlockWholeWarpExited:
      return any_round([&](const model::Cta& c, const Expected&) {
        const auto s = census(c);
        if (s.arrive == 0 || s.missing != 0) return false;
        bool whole = false;
        for (std::size_t w = 0; w < c.arrive.size(); w += 32) {
          std::size_t exited = 0, n = std::min(w + 32, c.arrive.size()) - w;
          for (std::size_t t = w; t < w + n; ++t) exited += c.exited[t];
          if (exited != 0 && exited != n) return false;  // a warp partly exited
          whole = whole || exited == n;
        }
        return whole;
      });
    case C::BlockExitedPredMatters:
      return any_round([&](const model::Cta& c, const Expected& e) {
        const auto s = census(c);
        if (s.arrive == 0 || s.exited == 0) return false;
        model::Cta all = c;
        for (std::size_t t = 0; t < c.arrive.size(); ++t)
          if (c.exited[t]) all.exited[t] = false, all.arrive[t] = true;
        return differs_where_defined(model::evaluate_cta(v_.instr.instr, all, t_, p_).outcome, e);
      });
    case C::BlockPredNotBool:
      return any_arriving_pred([](uint32_t p) { return p > 1; });
    case C::BlockPredEvenNonzero:
      return any_arriving_pred([](uint32_t p) { return p != 0 && (p & 1u) == 0; });
    case C::BlockLowByteMisleads:
      return any_round([&](const model::Cta& c, const Expected& e) {
        if (census(c).arrive == 0) return false;
        model::Cta low = c;
        for (auto& p : low.pred) p &= 0xffu;
        return differs_where_defined(model::evaluate_cta(v_.instr.instr, low, t_, p_).outcome, e);
      });
    case C::BlockCountAbove255:
      return any_result([](uint32_t d) { return d > 255; });
    case C::BlockCountOperandAbove511:
      return any_round([&](const model::Cta& c, const Expected& e) {
        spec::Instr in = v_.instr.instr;
        if (!in.has_count) return false;
        bool big = false;
        model::Cta cut = c;
        if (in.imm_count) {
          big = *in.imm_count >= 512;
          in.imm_count = *in.imm_count & 0x1ffu;
        } else {
          for (std::size_t t = 0; t < c.arrive.size(); ++t) {
            big = big || (c.arrive[t] && !c.exited[t] && c.count[t] >= 512);
            cut.count[t] &= 0x1ffu;
          }
        }
        return big && outcome_differs(in, cut, e);
      });
    case C::BlockBarrierNumbersAlias:
      return !v_.instr.instr.imm_bar && any_round([&](const model::Cta& c, const Expected& e) {
        // The barrier numbers threads stand at, as bits of a word (numbers 0 to 15).
        uint32_t at = 0;
        for (std::size_t t = 0; t < c.arrive.size(); ++t)
          if (c.arrive[t] && !c.exited[t] && c.bar[t] < 16) at |= 1u << c.bar[t];
        if ((at & (at >> 8) & 0xffu) == 0) return false;  // no two agree in their low three bits
        // And the two give their threads different answers, so that any merging of them (one
        // count over all, or phases filled in arrival order) shows.
        bool apart = false;
        for (std::size_t t = 0; t < c.arrive.size() && !apart; ++t)
          for (std::size_t u = 0; u < c.arrive.size() && !apart; ++u)
            apart = e.defined[t] && e.defined[u] && c.bar[t] < 16 && c.bar[u] != c.bar[t] &&
                    (c.bar[u] & 7u) == (c.bar[t] & 7u) && e.d[t] != e.d[u];
        if (!apart) return false;
        model::Cta cut = c;
        for (auto& b : cut.bar) b &= 7u;
        return outcome_differs(v_.instr.instr, cut, e);
      });
    case C::BlockBarriersDifferInCount:
      return !v_.instr.instr.imm_bar && v_.instr.instr.has_count && !v_.instr.instr.imm_count &&
             any_round([&](const model::Cta& c, const Expected& e) {
               std::optional<std::size_t> first;
               bool differ = false;
               for (std::size_t t = 0; t < c.arrive.size(); ++t) {
                 if (!c.arrive[t] || c.exited[t]) continue;
                 if (!first) first = t;
                 differ = differ || (c.bar[t] != c.bar[*first] && c.count[t] != c.count[*first]);
               }
               if (!differ) return false;
               model::Cta cut = c;
               for (auto& n : cut.count) n = c.count[*first];
               return outcome_differs(v_.instr.instr, cut, e);
             });
    case C::ResultCountZero:
      return any_result([](uint32_t d) { return d == 0; });
    case C::ResultCountAll:
      return any_round([&](const model::Cta& c, const Expected& e) {
        const auto s = census(c);
        return s.arrive > 32 && e.d.front() == s.arrive;
      });
    case C::ResultTrue:
      return any_result([](uint32_t d) { return d != 0; });
    case C::ResultFalse:
      return any_result([](uint32_t d) { return d == 0; });
    case C::InstrNegated:
      return v_.instr.instr.negate && any_result([](uint32_t) { return true; });
    case C::InstrNegatedMixed:
      return v_.instr.instr.negate && any_round([&](const model::Cta& c, const Expected&) {
               bool yes = false, no = false;
               for (std::size_t t = 0; t < c.arrive.size(); ++t)
                 if (c.arrive[t] && !c.exited[t]) (c.pred[t] ? yes : no) = true;
               return yes && no;
             });
    case C::BlockAndSharedBitEven:
      return !v_.instr.instr.negate && any_round([&](const model::Cta& c, const Expected&) {
        uint32_t all = ~0u;
        bool arrives = false, even = false;
        for (std::size_t t = 0; t < c.arrive.size(); ++t) {
          if (!c.arrive[t] || c.exited[t]) continue;
          arrives = true;
          all &= c.pred[t];
          even = even || (c.pred[t] & 1u) == 0;
        }
        return arrives && even && all != 0;
      });
    case C::BlockAndTrueOverExited:
      return any_round([&](const model::Cta& c, const Expected& e) {
        const auto s = census(c);
        if (s.arrive == 0 || s.exited == 0 || e.d.empty() || e.d.front() != 1) return false;
        for (std::size_t t = 0; t < c.arrive.size(); ++t)
          if (c.exited[t] && (c.pred[t] != 0) == v_.instr.instr.negate) return false;
        return true;
      });
    case C::InstrNegationMatters:
      return negation_matters();
    case C::InstrNegatedExited:
      return v_.instr.instr.negate && any_round([&](const model::Cta& c, const Expected&) {
               const auto s = census(c);
               return s.arrive > 0 && s.exited > 0;
             });
    case C::SeqTwoRoundsStaleWouldShow:
    case C::SeqResultBitCleared:
    case C::SeqResultBitSet:
    case C::SeqExitBetweenRounds:
      return sequence(id);
    default:
      return false;
  }
}

}  // namespace

std::vector<CoverpointId> holding(const Vector& v, const std::vector<Expected>& e,
                                  spec::Target target, spec::PtxVersion ptx,
                                  std::span<const CoverpointId> ids) {
  const Reader r(v, e, target, ptx);
  std::vector<CoverpointId> out;
  for (auto id : ids)
    if (r.holds(id)) out.push_back(id);
  return out;
}

}  // namespace warpspec::vectors::detail
