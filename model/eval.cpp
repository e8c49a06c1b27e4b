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
  resize_cta(c, n);
  return c;
}

void resize_cta(Cta& c, std::size_t n, uint32_t pred) {
  c.arrive.resize(n, true);
  c.exited.resize(n, false);
  c.pred.resize(n, pred);
  c.bar.resize(n, 0);
  c.count.resize(n, 0);
  c.partner.resize(n, false);
}

void check_cta_shape(const Cta& c) {
  const auto n = c.arrive.size();
  if (n == 0 || n > kMaxCtaThreads || c.exited.size() != n || c.pred.size() != n ||
      c.bar.size() != n || c.count.size() != n || c.partner.size() != n)
    throw std::invalid_argument(
        "a block holds 1 to 1024 threads, each with arrive/exited/pred/bar/count/partner");
}

std::vector<CtaFinding> cta_findings(const spec::CtaOutcome<Concrete>& o) {
  std::vector<CtaFinding> out;
  for (const auto& term : o.ub) {
    CtaFinding fnd{term.clause, {}};
    for (unsigned t = 0; t < term.threads.size(); ++t)
      if (term.threads[t]) fnd.threads.push_back(t);
    if (!fnd.threads.empty()) out.push_back(std::move(fnd));
  }
  return out;
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
  check_cta_shape(c);
  CtaResult r{
      in, spec::eval_cta(Concrete{}, in, c), {}, spec::check_availability(f.avail, target, ptx)};
  r.ub = cta_findings(r.outcome);
  return r;
}

}  // namespace warpspec::model
