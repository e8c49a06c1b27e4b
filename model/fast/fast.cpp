#include "model/fast/fast.hpp"

#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>

#include "model/fast/avx512.hpp"

namespace warpspec::fast {

std::string_view isa_name(Isa isa) {
  return isa == Isa::Avx512 ? "avx512" : "portable";
}

bool isa_supported(Isa isa) {
  static const bool avx512 = avx512::supported();
  return isa == Isa::Portable || avx512;
}

Isa best_isa() {
  static const Isa best = [] {
    const char* forced = std::getenv("WARPSPEC_FAST_ISA");
    if (forced && std::string_view(forced) == "portable") return Isa::Portable;
    return isa_supported(Isa::Avx512) ? Isa::Avx512 : Isa::Portable;
  }();
  return best;
}

namespace {

// The model's own messages, so that a caller switching implementations sees no difference.
void require_warp_form(const spec::Instr& in) {
  if (!spec::is_warp_form(in.form))
    throw std::invalid_argument(std::string(spec::form_info(in.form).name) +
                                " is a block-wide barrier: use evaluate_cta");
}

// The catalog's verdict, remembered for the last form and target asked about on this thread:
// building it formats text, which would otherwise cost as much as evaluating a warp.
spec::AvailabilityVerdict availability(spec::FormId form, spec::Target target,
                                       spec::PtxVersion ptx) {
  struct Last {
    spec::FormId form;
    spec::Target target;
    spec::PtxVersion ptx;
    spec::AvailabilityVerdict verdict;
  };
  thread_local std::optional<Last> last;
  if (!last || last->form != form || !(last->target == target) || last->ptx != ptx)
    last =
        Last{form, target, ptx, spec::check_availability(spec::form_info(form).avail, target, ptx)};
  return last->verdict;
}

}  // namespace

spec::AvailabilityVerdict evaluate_batch(const spec::Instr& in, std::span<const model::Warp> warps,
                                         std::span<WarpLanes> out, spec::Target target,
                                         spec::PtxVersion ptx, Isa isa) {
  require_warp_form(in);
  if (out.size() < warps.size())
    throw std::invalid_argument("evaluate_batch: the output holds fewer results than warps");
  if (!isa_supported(isa))
    throw std::invalid_argument("evaluate_batch: this CPU cannot run the " +
                                std::string(isa_name(isa)) + " kernels");
  const bool pre_volta = spec::is_pre_volta(target);
  if (isa == Isa::Avx512) {
    avx512::evaluate(in, pre_volta, warps.data(), warps.size(), out.data());
  } else {
    for (std::size_t k = 0; k < warps.size(); ++k)
      out[k] = evaluate_lanes(model::Concrete{}, in, warps[k], pre_volta);
  }
  return availability(in.form, target, ptx);
}

spec::AvailabilityVerdict evaluate_batch(const spec::Instr& in, std::span<const model::Warp> warps,
                                         std::span<WarpLanes> out, spec::Target target,
                                         spec::PtxVersion ptx) {
  return evaluate_batch(in, warps, out, target, ptx, best_isa());
}

model::WarpResult to_result(const spec::Instr& in, const WarpLanes& lanes,
                            spec::AvailabilityVerdict availability, const WarpLanes* high) {
  model::WarpResult r{};
  r.instr = in;
  auto& o = r.outcome;
  o.d = lanes.d;
  if (high) o.d_hi.assign(high->d.begin(), high->d.end());
  for (unsigned i = 0; i < spec::kWarpSize; ++i) {
    o.p[i] = ((lanes.p >> i) & 1u) != 0;
    o.executes[i] = ((lanes.executes >> i) & 1u) != 0;
  }
  const auto clauses = ub_clauses(in.form);
  o.ub.reserve(clauses.size());
  if (lanes.ub_lanes() != 0) r.ub.reserve(clauses.size());
  for (std::size_t c = 0; c < clauses.size(); ++c) {
    o.ub.push_back({clauses[c], lanes.ub[c]});
    if (lanes.ub[c] != 0) r.ub.push_back({clauses[c], lanes.ub[c]});
  }
  if (const auto loose = loose_d_clause(in.form)) o.loose_d.push_back({*loose, lanes.loose_d});
  r.availability = std::move(availability);
  return r;
}

model::WarpResult evaluate(const spec::Instr& in, const model::Warp& w, spec::Target target,
                           spec::PtxVersion ptx) {
  WarpLanes lanes, high;
  auto verdict = evaluate_batch(in, std::span(&w, 1), std::span(&lanes, 1), target, ptx);
  if (!in.wide) return to_result(in, lanes, std::move(verdict));
  evaluate_high_words(in, w, high, target, ptx);
  return to_result(in, lanes, std::move(verdict), &high);
}

void evaluate_high_words(const spec::Instr& in, const model::Warp& w, WarpLanes& out,
                         spec::Target target, spec::PtxVersion ptx) {
  const auto words = spec::high_words(model::Concrete{}, w);
  (void)evaluate_batch(in, std::span(&words, 1), std::span(&out, 1), target, ptx);
}

model::CtaResult evaluate_cta(const spec::Instr& in, const model::Cta& c, spec::Target target,
                              spec::PtxVersion ptx) {
  const auto& f = spec::form_info(in.form);
  if (spec::is_warp_form(in.form))
    throw std::invalid_argument(std::string(f.name) + " is a warp form: use evaluate");
  model::check_cta_shape(c);
  const auto lanes = evaluate_cta_words(model::Concrete{}, in, c);
  const std::size_t n = c.arrive.size();
  auto bit = [](const std::vector<uint32_t>& words, std::size_t t) {
    return ((words[t / 32] >> (t % 32)) & 1u) != 0;
  };
  model::CtaResult r{};
  r.instr = in;
  r.outcome.d = lanes.d;
  r.outcome.any_ub = lanes.any_ub;
  r.outcome.executes.resize(n);
  for (std::size_t t = 0; t < n; ++t) r.outcome.executes[t] = bit(lanes.executes, t);
  r.outcome.ub.reserve(lanes.ub.size());
  for (const auto& [clause, words] : lanes.ub) {
    spec::CtaUbTerm<model::Concrete> term{clause, std::vector<bool>(n)};
    for (std::size_t t = 0; t < n; ++t) term.threads[t] = bit(words, t);
    r.outcome.ub.push_back(std::move(term));
  }
  r.ub = model::cta_findings(r.outcome);
  r.availability = spec::check_availability(f.avail, target, ptx);
  return r;
}

}  // namespace warpspec::fast
