#include "vectors/vector.hpp"

#include "spec/cta.hpp"

#include <array>
#include <bit>
#include <cstring>
#include <stdexcept>
#include <string>

#include "model/fast/fast.hpp"
#include "spec/elect.hpp"

namespace warpspec::vectors {

std::vector<LaneRecord> lane_records(const Vector& v, const Round& r) {
  std::vector<LaneRecord> out(round_width(v, r));
  for (std::size_t i = 0; i < out.size(); ++i) {
    auto& x = out[i];
    if (v.is_cta()) {
      x.status = r.cta.exited[i] ? 1 : r.cta.arrive[i] ? 0 : 2;
      x.a = r.cta.pred[i];
      x.b = spec::operand_bar(model::Concrete{}, v.instr.instr, r.cta, i);
      x.c = v.instr.instr.has_count ? spec::operand_count(model::Concrete{}, v.instr.instr, r.cta, i)
                                    : 0;
      x.partner = r.cta.partner[i];
    } else {
      x.status = r.warp.exited[i] ? 1 : r.warp.exec[i] ? 0 : 2;
      x.a = r.warp.a[i];
      x.mask = v.instr.instr.imm_mask.value_or(r.warp.mask[i]);
      x.site = r.warp.site[i];
      x.b = spec::operand_b(model::Concrete{}, v.instr.instr, r.warp, i);
      x.c = spec::operand_c(model::Concrete{}, v.instr.instr, r.warp, i);
    }
  }
  return out;
}

std::size_t round_width(const Vector& v, const Round& r) {
  return v.is_cta() ? r.cta.arrive.size() : spec::kWarpSize;
}

void bits_to_flags(const uint32_t* words, std::size_t n, uint8_t* out) {
  // Eight flags at a time from a table of the 256 bytes spread out, one bit per byte.
  static constexpr auto kSpread = [] {
    std::array<uint64_t, 256> t{};
    for (unsigned b = 0; b < 256; ++b) {
      std::array<uint8_t, 8> flags{};
      for (unsigned i = 0; i < 8; ++i) flags[i] = (b >> i) & 1u;
      t[b] = std::bit_cast<uint64_t>(flags);
    }
    return t;
  }();
  std::size_t t = 0;
  for (; t + 8 <= n; t += 8) {
    const uint64_t f = kSpread[(words[t / 32] >> (t % 32)) & 0xffu];
    std::memcpy(out + t, &f, 8);
  }
  for (; t < n; ++t) out[t] = (words[t / 32] >> (t % 32)) & 1u;
}

namespace {

// elect.sync: each lane's leader may be any lane of its membermask (Expected::choice).
void add_choice(const spec::Instr& in, const model::Warp& w, Expected& e) {
  e.choice.clear();
  if (!spec::has_chosen_leader(in.form)) return;
  e.choice.resize(spec::kWarpSize);
  for (unsigned i = 0; i < spec::kWarpSize; ++i) e.choice[i] = in.imm_mask.value_or(w.mask[i]);
}

// The expectations of every round, from the model's evaluators of warp and block forms.
template <class WarpEval, class CtaEval>
std::vector<Expected> expected_by(const Vector& v, WarpEval&& warp_eval, CtaEval&& cta_eval) {
  std::vector<Expected> out;
  for (const auto& r : v.rounds) {
    Expected e;
    if (v.is_cta()) {
      auto res = cta_eval(v.instr.instr, r.cta);
      const auto n = r.cta.arrive.size();
      e.d.assign(res.outcome.d.begin(), res.outcome.d.end());
      e.p.assign(n, 0);
      e.executes.assign(res.outcome.executes.begin(), res.outcome.executes.end());
      for (std::size_t t = 0; t < n; ++t) e.defined.push_back(res.outcome.defined(t));
      e.d_defined = e.defined;
      for (const auto& u : res.ub) e.ub.push_back({u.clause, u.threads});
    } else {
      e = expected_round(v.instr.instr, r.warp, warp_eval(v.instr.instr, r.warp));
    }
    out.push_back(std::move(e));
  }
  return out;
}

// One warp round from the fast implementation's lean answer, as fast::to_result reads it: UB
// findings in the order of ub_clauses(form), defined lanes those that execute when no clause
// fires.
void from_lanes(spec::FormId form, const fast::WarpLanes& l, Expected& e) {
  constexpr unsigned n = spec::kWarpSize;
  const uint32_t defined = l.defined(), d_defined = l.d_defined();
  e.d.assign(l.d.begin(), l.d.end());
  e.p.resize(n);
  e.executes.resize(n);
  e.defined.resize(n);
  bits_to_flags(&l.p, n, e.p.data());
  bits_to_flags(&l.executes, n, e.executes.data());
  bits_to_flags(&defined, n, e.defined.data());
  e.d_defined.resize(n);
  bits_to_flags(&d_defined, n, e.d_defined.data());
  const auto clauses = fast::ub_clauses(form);
  std::size_t u = 0;
  for (std::size_t c = 0; c < clauses.size(); ++c) {
    if (l.ub[c] == 0) continue;
    if (e.ub.size() <= u) e.ub.resize(u + 1);
    e.ub[u].first = clauses[c];
    auto& lanes = e.ub[u++].second;
    lanes.clear();
    for (uint32_t w = l.ub[c]; w; w &= w - 1) lanes.push_back(std::countr_zero(w));
  }
  e.ub.resize(u);
}

// One block round, as fast::evaluate_cta reads the lean answer: per-thread d, every UB clause
// with the threads it fires on, and no thread defined once any fires.
void from_cta_lanes(const fast::CtaLanes<model::Concrete>& l, std::size_t n, Expected& e) {
  e.d.assign(l.d.begin(), l.d.end());
  e.p.assign(n, 0);
  e.executes.resize(n);
  bits_to_flags(l.executes.data(), n, e.executes.data());
  e.ub.clear();
  if (!l.any_ub) {
    e.defined = e.executes;
    e.d_defined = e.defined;
    return;
  }
  e.defined.assign(n, 0);
  e.d_defined.assign(n, 0);
  for (const auto& [clause, words] : l.ub) {
    std::vector<unsigned> threads;
    for (std::size_t t = 0; t < n; ++t)
      if ((words[t / 32] >> (t % 32)) & 1u) threads.push_back(static_cast<unsigned>(t));
    if (!threads.empty()) e.ub.push_back({clause, std::move(threads)});
  }
}

}  // namespace

Expected expected_round(const spec::Instr& in, const model::Warp& w, const model::WarpResult& res) {
  Expected e;
  e.d_hi = res.outcome.d_hi;
  for (unsigned i = 0; i < spec::kWarpSize; ++i) {
    e.d.push_back(res.outcome.d[i]);
    e.p.push_back(res.outcome.p[i]);
    e.executes.push_back(res.outcome.executes[i]);
    e.defined.push_back(res.defined(i));
    e.d_defined.push_back(res.d_defined(i));
  }
  add_choice(in, w, e);
  for (const auto& u : res.ub) {
    std::vector<unsigned> lanes;
    for (unsigned i = 0; i < 32; ++i)
      if ((u.lanes >> i) & 1u) lanes.push_back(i);
    e.ub.push_back({u.clause, lanes});
  }
  return e;
}

std::vector<Expected> expected(const Vector& v, spec::Target target, spec::PtxVersion ptx) {
  return expected_by(
      v,
      [&](const spec::Instr& in, const model::Warp& w) {
        return model::evaluate(in, w, target, ptx);
      },
      [&](const spec::Instr& in, const model::Cta& c) {
        return model::evaluate_cta(in, c, target, ptx);
      });
}

std::vector<Expected> expected_fast(const Vector& v, spec::Target target, spec::PtxVersion ptx) {
  std::vector<Expected> out;
  expected_fast(v, target, ptx, out);
  return out;
}

void expected_fast(const Vector& v, spec::Target target, spec::PtxVersion ptx,
                   std::vector<Expected>& out) {
  // The lean answers (fast.hpp), read as fast::evaluate and fast::evaluate_cta read them, without
  // building the model's result types for every round.
  const auto& in = v.instr.instr;
  out.resize(v.rounds.size());
  for (std::size_t k = 0; k < v.rounds.size(); ++k) {
    const auto& r = v.rounds[k];
    if (v.is_cta()) {
      const auto n = r.cta.arrive.size();
      if (r.cta.exited.size() != n || r.cta.pred.size() != n || n == 0 || n > model::kMaxCtaThreads)
        throw std::invalid_argument(
            "a block holds 1 to 1024 threads, each with arrive/exited/pred");
      from_cta_lanes(fast::evaluate_cta_words(model::Concrete{}, in, r.cta), n, out[k]);
    } else {
      fast::WarpLanes lanes;
      (void)fast::evaluate_batch(in, std::span(&r.warp, 1), std::span(&lanes, 1), target, ptx);
      from_lanes(in.form, lanes, out[k]);
      add_choice(in, r.warp, out[k]);
      out[k].d_hi.clear();
      if (in.wide) {  // the second b32 shuffle, of the high words: its d is the high word
        fast::evaluate_high_words(in, r.warp, lanes, target, ptx);
        out[k].d_hi.assign(lanes.d.begin(), lanes.d.end());
      }
    }
  }
}

bool has_ub(const std::vector<Expected>& e) {
  for (const auto& r : e)
    if (!r.ub.empty()) return true;
  return false;
}

std::vector<Observed> as_observed(const std::vector<Expected>& e) {
  std::vector<Observed> out;
  for (const auto& r : e) out.push_back({r.d, r.p, r.executes, !r.ub.empty(), false, r.d_hi});
  return out;
}

namespace {

// The walk of `compare` round by round, with the comparison of values on a defined round whose
// every defined lane has a result left to `values`.
template <class Values>
Mismatch compare_defined(const std::vector<Expected>& e, const std::vector<Observed>& o,
                         Values&& values) {
  if (o.size() != e.size()) {  // readers give every round; a caller's short list has no result
    Mismatch m;
    m.kind = Mismatch::Kind::Missing;
    m.round = std::min(o.size(), e.size());
    m.what = "result";
    return m;
  }
  for (std::size_t k = 0; k < e.size(); ++k) {
    const auto& x = e[k];
    const auto& y = o[k];
    // Rounds with UB are not compared: the implementation may do anything there, hang included,
    // and after a hang the later rounds never run.
    if (!x.ub.empty()) {
      if (y.hang) return {};
      continue;
    }
    // 1. Completion: the specification says a defined round completes on every lane.
    //    A round on which no lane executes promises no result: a hang or a UB report there keeps
    //    no lane from one (the rounds after a hang, which never ran, are held to theirs).
    if (std::find(x.defined.begin(), x.defined.end(), 1) == x.defined.end()) continue;
    if (y.hang) {
      Mismatch h{Mismatch::Kind::Hang, k, {}, "hang"};
      for (unsigned i = 0; i < x.defined.size(); ++i)
        if (x.defined[i] && (i >= y.present.size() || !y.present[i])) h.lanes.push_back(i);
      return h;
    }
    // 2. UB: an implementation may always stay silent, but must not call a defined round
    //    undefined.
    if (y.ub_reported) return {Mismatch::Kind::Ub, k, {}, "ub"};
    // 3. Defined-ness: every defined lane must have a result.
    Mismatch miss{Mismatch::Kind::Missing, k, {}, "result"};
    for (unsigned i = 0; i < x.defined.size(); ++i)
      if (x.defined[i] && (i >= y.present.size() || !y.present[i])) miss.lanes.push_back(i);
    if (!miss.lanes.empty()) return miss;
    // 4. Values on defined lanes.
    if (auto m = values(k, x, y); m.kind != Mismatch::Kind::None) return m;
  }
  return {};
}

// elect.sync, one defined round whose every defined lane has a result: the values the text
// allows (Expected::choice). Each lane's leader is its d, or where d is the sink the one lane
// of its membermask that reports p. The leader must be a lane of the membermask, the lanes of
// one election must agree on it, p must hold on it alone, and a membermask must elect the same
// lane as in every earlier round (`leaders`).
Mismatch compare_election(std::size_t k, const Expected& x, const Observed& y, bool check_d,
                          LeaderMemo& leaders) {
  constexpr uint32_t kNone = 0xffffffffu;
  const unsigned n = static_cast<unsigned>(x.defined.size());
  std::vector<uint32_t> leader(n, kNone);
  for (unsigned i = 0; i < n; ++i) {
    if (!x.defined[i]) continue;
    if (check_d) {
      leader[i] = y.d[i];
    } else {
      for (unsigned j = 0; j < n; ++j)
        if ((x.choice[i] >> j) & 1u && j < y.p.size() && y.present[j] && y.p[j])
          leader[i] = leader[i] == kNone ? j : kNone - 1;  // two lanes claim it: no leader
    }
  }
  // The rule each departing lane breaks: the leader is no lane of the membermask (elected from
  // the lanes executing, or from nowhere), the election disagrees with itself or with an earlier
  // one of the same membermask, or p is not on the leader alone.
  Mismatch dm{Mismatch::Kind::Value, k, {}, check_d ? "d" : "p"};
  Mismatch pm{Mismatch::Kind::Value, k, {}, "p", spec::ClauseId::ElectPred};
  std::map<uint32_t, uint32_t> here;  // membermask -> the leader its first lane named
  uint32_t executing = 0;
  for (unsigned i = 0; i < n; ++i) executing |= x.executes[i] ? 1u << i : 0u;
  for (unsigned i = 0; i < n; ++i) {
    if (!x.defined[i]) continue;
    const uint32_t mask = x.choice[i], l = leader[i];
    const bool in_mask = spec::names_a_lane_of<model::Concrete, spec::kWarpSize>({}, mask, l);
    const auto [at, fresh] = here.emplace(mask, l);
    const auto seen = leaders.find(mask);
    std::optional<spec::ClauseId> broken;
    if (!in_mask && !check_d)  // p on no lane of the membermask, or on several
      broken = spec::ClauseId::ElectPred;
    else if (!in_mask)
      broken = l < 32 && ((executing >> l) & 1u) ? spec::ClauseId::ElectParticipants
                                                  : spec::ClauseId::ElectLeader;
    else if (!fresh && at->second != l)
      broken = spec::ClauseId::ElectLeader;
    else if (seen != leaders.end() && seen->second != l)
      broken = spec::ClauseId::ElectDeterministic;
    if (broken) {
      dm.lanes.push_back(i);
      if (!dm.clause) dm.clause = broken;
    } else if (check_d && !spec::elect_choice_admissible<model::Concrete, spec::kWarpSize>(
                              {}, mask, i, l, y.p[i] != 0)) {
      pm.lanes.push_back(i);  // the leader is a lane of the mask, so p is what is wrong
    }
  }
  if (!dm.lanes.empty()) return dm;
  if (!pm.lanes.empty()) return pm;
  for (const auto& [mask, l] : here) leaders.emplace(mask, l);
  return {};
}

}  // namespace

Mismatch compare(const spec::Instr& in, const std::vector<Expected>& e,
                 const std::vector<Observed>& o, LeaderMemo* leaders) {
  if (spec::has_chosen_leader(in.form)) {
    LeaderMemo own;
    return compare_defined(e, o, [&](std::size_t k, const Expected& x, const Observed& y) {
      return compare_election(k, x, y, spec::writes_d(in),
                              leaders ? *leaders : own);
    });
  }
  const bool check_d = spec::writes_d(in);
  const bool check_p = in.write_p;
  Mismatch m;
  // Most observations agree: one pass that builds nothing, and the detailed walk below only for
  // a round that departs.
  if (o.size() == e.size()) {
    bool agree = true;
    for (std::size_t k = 0; k < e.size() && agree; ++k) {
      const auto& x = e[k];
      const auto& y = o[k];
      if (!x.ub.empty()) continue;
      if (y.ub_reported || y.hang) agree = false;
      for (unsigned i = 0; i < x.defined.size() && agree; ++i) {
        if (!x.defined[i]) continue;
        if (i >= y.present.size() || !y.present[i])
          agree = false;
        else if ((check_d && x.d_defined[i] && !same_d(x, y, i)) || (check_p && y.p[i] != x.p[i]))
          agree = false;
      }
    }
    if (agree) return m;
  }
  return compare_defined(e, o, [&](std::size_t k, const Expected& x, const Observed& y) {
    Mismatch dm{Mismatch::Kind::Value, k, {}, "d"};
    Mismatch pm{Mismatch::Kind::Value, k, {}, "p"};
    for (unsigned i = 0; i < x.defined.size(); ++i) {
      if (!x.defined[i]) continue;
      if (check_d && x.d_defined[i] && !same_d(x, y, i)) dm.lanes.push_back(i);
      if (check_p && y.p[i] != x.p[i]) pm.lanes.push_back(i);
    }
    return !dm.lanes.empty() ? dm : !pm.lanes.empty() ? pm : Mismatch{};
  });
}

void own_masks(Vector& v) {
  if (!v.instr.instr.imm_mask) return;
  for (auto& r : v.rounds) r.warp.mask.fill(*v.instr.instr.imm_mask);
  v.instr.instr.imm_mask.reset();
}

void keep_call_sites_apart(Vector& v) {
  own_masks(v);
  for (auto& r : v.rounds)
    for (unsigned i = 0; i < 32; ++i)
      for (unsigned j = 0; j < 32; ++j)
        if (r.warp.site[j] != r.warp.site[i]) r.warp.mask[i] &= ~(1u << j);
}

std::size_t vector_size(const Vector& v) {
  std::size_t n = 0;
  for (const auto& r : v.rounds) {
    if (v.is_cta()) {
      n += r.cta.arrive.size();
    } else {
      for (unsigned i = 0; i < spec::kWarpSize; ++i) n += r.warp.exec[i] && !r.warp.exited[i];
    }
  }
  return n;
}

std::string vector_difference(const Vector& a, const Vector& b) {
  if (a.id != b.id) return "id";
  if (a.instr.text != b.instr.text) return "instruction";
  if (a.source != b.source) return "source";
  if (a.clauses != b.clauses) return "clauses";
  if (a.rounds.size() != b.rounds.size()) return "rounds";
  for (std::size_t k = 0; k < a.rounds.size(); ++k) {
    const auto& x = a.rounds[k];
    const auto& y = b.rounds[k];
    const std::string at = "rounds[" + std::to_string(k) + "].";
    if (x.cta.arrive != y.cta.arrive) return at + "cta.arrive";
    if (x.cta.exited != y.cta.exited) return at + "cta.exited";
    if (x.cta.pred != y.cta.pred) return at + "cta.pred";
    for (unsigned i = 0; i < spec::kWarpSize; ++i) {
      const char* field = x.warp.exec[i] != y.warp.exec[i]       ? "exec"
                          : x.warp.exited[i] != y.warp.exited[i] ? "exited"
                          : x.warp.mask[i] != y.warp.mask[i]     ? "mask"
                          : x.warp.a[i] != y.warp.a[i]           ? "a"
                          : x.warp.site[i] != y.warp.site[i]     ? "site"
                          : x.warp.b[i] != y.warp.b[i]           ? "b"
                          : x.warp.c[i] != y.warp.c[i]           ? "c"
                                                                 : nullptr;
      if (field) return at + "warp." + field + "[" + std::to_string(i) + "]";
    }
  }
  return {};
}

}  // namespace warpspec::vectors
