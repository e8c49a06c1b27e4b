#pragma once
// Unknown inputs. A launch may leave some parameters unknown: a scalar's value, or every word of a
// buffer. The machine still runs one concrete input, but beside each register, parameter and byte
// of memory it carries the number of a term: how the value follows from the unknowns (0: it follows
// from none, the concrete value is all there is). The terms are built through this interface,
// which checker/program_inputs.cpp implements with Z3; the thread-local arithmetic it reads is
// programs/alu.hpp, the text the machine runs.
//
// Wherever a value decides something (a branch, an address, a divisor being zero, any operand of
// a collective or a barrier), the machine pins its term to the value it has in this run. Every
// input that keeps every pin of a walk makes the walk take the same steps everywhere; only the
// values that decided nothing differ. So the pins of one walk describe a class of inputs that has
// the walk's outcomes, up to those values.
#include <array>
#include <cstdint>

#include "model/eval.hpp"
#include "programs/program.hpp"

namespace warpspec::programs {

/// Builds and records terms over a launch's unknowns (see above). Term 0 is never a term.
class Terms {
 public:
  virtual ~Terms() = default;
  /// The unknown value of scalar parameter `param` (zero-extended to 64 bits), or of 32-bit word
  /// `word` of buffer parameter `param`; 0 when that parameter is known.
  virtual uint32_t input(unsigned param, uint64_t word) = 0;
  /// What `in` (alu::value) computes from its sources: per source, a term or 0 with its value.
  virtual uint32_t value(const Instruction& in, const std::array<uint32_t, 4>& terms,
                         const std::array<uint64_t, 4>& values) = 0;
  /// `term` cut to its low `bits` bits.
  virtual uint32_t cut(uint32_t term, unsigned bits) = 0;
  /// 1 where `term` is 0, else 0 (a `!%p` source).
  virtual uint32_t is_zero(uint32_t term) = 0;
  /// Byte `k` of `term`.
  virtual uint32_t byte(uint32_t term, unsigned k) = 0;
  /// The little-endian word of `n` bytes (terms, or 0 and the byte's value), sign-extended when
  /// `is_signed`.
  virtual uint32_t join(const uint32_t* terms, const uint8_t* values, unsigned n,
                        bool is_signed) = 0;
  /// The warp collective `instr` as the run evaluated it on `w` (result `r`), where the source
  /// operand of lane j is term `a[j]` (0: w.a[j]): per lane, the terms of d and p (0 where they
  /// follow from no unknown). Pins what the outcome's UB and definedness rest on.
  virtual void collective(const spec::Instr& instr, const model::Warp& w, spec::Target target,
                          const std::array<uint32_t, 32>& a, const model::WarpResult& r,
                          std::array<uint32_t, 32>& d, std::array<uint32_t, 32>& p) = 0;
  /// The walk relied on `term` having `value`.
  virtual void pin(uint32_t term, uint64_t value) = 0;
  /// The walk relied on `term` being zero (when `zero`) or not.
  virtual void pin_zero(uint32_t term, bool zero) = 0;
  /// The walk relied on `term` lying in [lo, hi) (when `inside`), or not: lo <= term < hi in
  /// 64-bit arithmetic that wraps (so hi < lo names a range across 0).
  virtual void pin_range(uint32_t term, uint64_t lo, uint64_t hi, bool inside) = 0;
  /// The walk relied on `term + offset` being a multiple of `bytes` (a power of 2), or not.
  virtual void pin_aligned(uint32_t term, uint64_t offset, unsigned bytes, bool aligned) = 0;
};

}  // namespace warpspec::programs
