#pragma once
// How a failing case reads: the instruction, the target, and the (shrunk) state as a lane table
// with the model's answer. RapidCheck finds `showValue` by argument-dependent lookup and prints
// it as the counterexample, followed by the line that reproduces the run.
#include <exception>
#include <ostream>
#include <sstream>

#include "model/render.hpp"
#include "support/generators.hpp"

namespace warpspec::test {

/// "vote.sync.all.pred with !a, membermask 0x0000ffff, on sm_60, PTX ISA 8.8"
inline std::string describe(const spec::Instr& in, spec::Target target, spec::PtxVersion ptx) {
  std::ostringstream os;
  os << spec::form_info(in.form).name;
  if (in.negate) os << " with !a";
  if (in.imm_mask) os << ", membermask " << model::format_lanes(*in.imm_mask) << " (immediate)";
  if (in.imm_b) os << ", b " << *in.imm_b << " (immediate)";
  if (in.imm_c) os << ", c 0x" << std::hex << *in.imm_c << std::dec << " (immediate)";
  os << ", on " << spec::to_string(target) << ", PTX ISA " << spec::to_string(ptx);
  return os.str();
}

/// The case as a lane table with the model's results and findings.
inline void showValue(const WarpCase& c, std::ostream& os) {
  os << describe(c.instr, c.target, c.ptx) << "\n";
  try {
    const auto r = model::evaluate(c.instr, c.warp, c.target, c.ptx);
    os << model::lane_table(c.instr, c.warp, &r) << model::findings_text(r);
  } catch (const std::exception& e) {
    os << model::lane_table(c.instr, c.warp) << "(the model refuses it: " << e.what() << ")\n";
  }
}

/// The case as a thread table with the model's results and findings.
inline void showValue(const CtaCase& c, std::ostream& os) {
  os << describe(c.instr, c.target, c.ptx) << ", " << c.cta.arrive.size() << " threads\n";
  try {
    const auto r = model::evaluate_cta(c.instr, c.cta, c.target, c.ptx);
    os << model::cta_table(c.instr, c.cta, &r) << model::findings_text(r);
  } catch (const std::exception& e) {
    os << model::cta_table(c.instr, c.cta, nullptr) << "(the model refuses it: " << e.what()
       << ")\n";
  }
}

}  // namespace warpspec::test
