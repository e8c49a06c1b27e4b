#include "model/eval.hpp"

#include <stdexcept>

#include "spec/semantics.hpp"

namespace warpspec::model {

std::string_view status_name(LaneStatus s) {
  switch (s) {
    case LaneStatus::Executes:
      return "executes";
    case LaneStatus::Exited:
      return "exited";
    case LaneStatus::Inactive:
      return "inactive";
  }
  return "?";
}

LaneStatus status(const Warp& w, unsigned lane) {
  if (w.exited[lane]) return LaneStatus::Exited;
  return w.exec[lane] ? LaneStatus::Executes : LaneStatus::Inactive;
}

void set_status(Warp& w, unsigned lane, LaneStatus s) {
  w.exec[lane] = s == LaneStatus::Executes;
  w.exited[lane] = s == LaneStatus::Exited;
}

Warp make_warp(uint32_t mask) {
  Warp w{};
  for (unsigned i = 0; i < spec::kWarpSize; ++i) {
    w.exec[i] = true;
    w.mask[i] = mask;
  }
  return w;
}

Cta make_cta(std::size_t n) {
  Cta c;
  c.arrive.assign(n, true);
  c.exited.assign(n, false);
  c.pred.assign(n, 0);
  return c;
}

WarpResult evaluate(const spec::Instr& in, const Warp& w, spec::Target target,
                    spec::PtxVersion ptx) {
  const auto& f = spec::form_info(in.form);
  if (!spec::is_warp_form(in.form))
    throw std::invalid_argument(std::string(f.name) + " is a block-wide barrier: use evaluate_cta");
  WarpResult r{in,
               spec::evaluate_warp(Concrete{}, in, w, spec::is_pre_volta(target)),
               {},
               spec::check_availability(f.avail, target, ptx)};
  for (const auto& t : r.outcome.ub)
    if (t.lanes != 0) r.ub.push_back({t.clause, t.lanes});
  return r;
}

CtaResult evaluate_cta(const spec::Instr& in, const Cta& c, spec::Target target,
                       spec::PtxVersion ptx) {
  const auto& f = spec::form_info(in.form);
  if (spec::is_warp_form(in.form))
    throw std::invalid_argument(std::string(f.name) + " is a warp form: use evaluate");
  if (c.arrive.size() != c.exited.size() || c.arrive.size() != c.pred.size() || c.arrive.empty() ||
      c.arrive.size() > kMaxCtaThreads)
    throw std::invalid_argument("a block holds 1 to 1024 threads, each with arrive/exited/pred");
  CtaResult r{
      in, spec::eval_cta(Concrete{}, in, c), {}, spec::check_availability(f.avail, target, ptx)};
  if (r.outcome.any_ub) {
    CtaFinding fnd{spec::ClauseId::CtaUbNotReached, {}};
    for (unsigned t = 0; t < c.arrive.size(); ++t)
      if (r.outcome.ub_not_reached[t]) fnd.threads.push_back(t);
    r.ub.push_back(std::move(fnd));
  }
  return r;
}

}  // namespace warpspec::model
