#include "checker/implementation.hpp"

namespace warpspec::checker {

std::shared_ptr<const Implementation> model_implementation() {
  static const auto impl = [] {
    auto m = std::make_shared<Implementation>();
    m->name = "model";
    m->warp_symbolic = SpecWarp{};
    m->cta_symbolic = SpecCta{};
    // The concrete side goes through the model's public entry points, so a replay exercises
    // exactly what `warpspec eval` runs.
    m->warp_concrete = [](const model::Concrete&, const spec::Instr& in, const model::Warp& w,
                          bool pre_volta) {
      return model::evaluate(in, w, pre_volta ? spec::Target{60, 0} : spec::kDefaultTarget).outcome;
    };
    m->cta_concrete = [](const model::Concrete&, const spec::Instr& in, const model::Cta& c) {
      return model::evaluate_cta(in, c).outcome;
    };
    return std::shared_ptr<const Implementation>(std::move(m));
  }();
  return impl;
}

}  // namespace warpspec::checker
