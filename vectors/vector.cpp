#include "vectors/vector.hpp"

#include "model/fast/fast.hpp"

namespace warpspec::vectors {

std::size_t round_width(const Vector& v, const Round& r) {
  return v.is_cta() ? r.cta.arrive.size() : spec::kWarpSize;
}

namespace {

// The expectations of every round, from evaluators of warp and block forms with the model's
// interface (the model itself, or the fast implementation proved equal to it).
template <class WarpEval, class CtaEval>
std::vector<Expected> expected_by(const Vector& v, WarpEval&& warp_eval, CtaEval&& cta_eval) {
  std::vector<Expected> out;
  for (const auto& r : v.rounds) {
    Expected e;
    if (v.is_cta()) {
      auto res = cta_eval(v.instr.instr, r.cta);
      const auto n = r.cta.arrive.size();
      e.d.assign(n, res.outcome.d);
      e.p.assign(n, 0);
      e.executes.assign(res.outcome.executes.begin(), res.outcome.executes.end());
      for (std::size_t t = 0; t < n; ++t)
        e.defined.push_back(res.outcome.executes[t] && !res.outcome.ub_not_reached[t]);
      for (const auto& u : res.ub) e.ub.push_back({u.clause, u.threads});
    } else {
      auto res = warp_eval(v.instr.instr, r.warp);
      for (unsigned i = 0; i < spec::kWarpSize; ++i) {
        e.d.push_back(res.outcome.d[i]);
        e.p.push_back(res.outcome.p[i]);
        e.executes.push_back(res.outcome.executes[i]);
        e.defined.push_back(res.defined(i));
      }
      for (const auto& u : res.ub) {
        std::vector<unsigned> lanes;
        for (unsigned i = 0; i < 32; ++i)
          if ((u.lanes >> i) & 1u) lanes.push_back(i);
        e.ub.push_back({u.clause, lanes});
      }
    }
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace

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
  return expected_by(
      v,
      [&](const spec::Instr& in, const model::Warp& w) {
        return fast::evaluate(in, w, target, ptx);
      },
      [&](const spec::Instr& in, const model::Cta& c) {
        return fast::evaluate_cta(in, c, target, ptx);
      });
}

bool has_ub(const std::vector<Expected>& e) {
  for (const auto& r : e)
    if (!r.ub.empty()) return true;
  return false;
}

std::vector<Observed> as_observed(const std::vector<Expected>& e) {
  std::vector<Observed> out;
  for (const auto& r : e) out.push_back({r.d, r.p, r.executes, !r.ub.empty()});
  return out;
}

Mismatch compare(const spec::ParsedInstr& in, const std::vector<Expected>& e,
                 const std::vector<Observed>& o) {
  const auto& f = spec::form_info(in.instr.form);
  const bool check_d = f.d_type != spec::ResultType::None && in.instr.write_d;
  const bool check_p = in.instr.write_p;
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
        else if ((check_d && y.d[i] != x.d[i]) || (check_p && y.p[i] != x.p[i]))
          agree = false;
      }
    }
    if (agree) return m;
  }
  if (o.size() != e.size()) {  // readers give every round; a caller's short list has no result
    m.kind = Mismatch::Kind::Missing;
    m.round = std::min(o.size(), e.size());
    m.what = "result";
    return m;
  }
  for (std::size_t k = 0; k < e.size(); ++k) {
    const auto& x = e[k];
    const auto& y = o[k];
    // Rounds with UB are not compared: the implementation may do anything there, hang included.
    if (!x.ub.empty()) continue;
    // 1. Completion: the specification says a defined round completes on every lane.
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
    Mismatch dm{Mismatch::Kind::Value, k, {}, "d"};
    Mismatch pm{Mismatch::Kind::Value, k, {}, "p"};
    for (unsigned i = 0; i < x.defined.size(); ++i) {
      if (!x.defined[i]) continue;
      if (check_d && y.d[i] != x.d[i]) dm.lanes.push_back(i);
      if (check_p && y.p[i] != x.p[i]) pm.lanes.push_back(i);
    }
    if (!dm.lanes.empty()) return dm;
    if (!pm.lanes.empty()) return pm;
  }
  return m;
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

}  // namespace warpspec::vectors
