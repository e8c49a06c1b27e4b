#pragma once
// The fast implementation: the same inputs and answers as the model (model/eval.hpp), computed
// bit-parallel on whole lane sets, with AVX-512 kernels where the CPU has them. It is not the
// spec: it is checked against the model (tests/fast) and, through model/fast/generic.hpp, proved
// equal to it.
//
// "Equal" is Alive2's order: the same UB findings (clause and lanes), the same executing lanes,
// and the same d (and p of match.all) on every lane whose result the model defines. On other
// lanes d and p are whatever the fast algorithm leaves there; in fact they match the model on
// every executing lane on which no UB clause fires (`Lanes::lanes_without_ub`).
#include <cstdint>
#include <span>
#include <string_view>

#include "model/concrete.hpp"
#include "model/eval.hpp"
#include "model/fast/generic.hpp"

namespace warpspec::fast {

/// The lean per-warp result of a batch: d per lane, p/executes/UB lanes as words.
using WarpLanes = Lanes<model::Concrete, spec::kWarpSize>;

/// Which code computes a batch.
enum class Isa : uint8_t {
  Portable,  ///< generic.hpp instantiated with machine words; runs everywhere
  Avx512,    ///< vector kernels (AVX-512 F/BW/VL/CD/VBMI, GFNI, BMI2); needs such a CPU
};

/// "portable" or "avx512".
std::string_view isa_name(Isa isa);
/// True when this CPU (and OS) can run the kernels of `isa`.
bool isa_supported(Isa isa);
/// The fastest supported Isa; Portable when the environment variable WARPSPEC_FAST_ISA is
/// "portable".
Isa best_isa();

/// Evaluates a warp form on `w`, as `model::evaluate` does (same exception for block-wide forms,
/// same availability verdict, UB findings in the same order). A 64-bit shuffle overload
/// (Instr::wide) runs the b32 batch twice, the second time on spec::high_words(w).
model::WarpResult evaluate(const spec::Instr& in, const model::Warp& w,
                           spec::Target target = spec::kDefaultTarget,
                           spec::PtxVersion ptx = spec::kLatestPtx);

/// Evaluates a block-wide barrier form, as `model::evaluate_cta` does.
model::CtaResult evaluate_cta(const spec::Instr& in, const model::Cta& c,
                              spec::Target target = spec::kDefaultTarget,
                              spec::PtxVersion ptx = spec::kLatestPtx);

/// Evaluates one instruction on each of `warps`, writing `out[k]` for `warps[k]` (`out` must be
/// at least as long). For a 64-bit shuffle overload (Instr::wide) this is its first shuffle, of
/// the low words; the second is the same call on spec::high_words of each warp. Returns the
/// availability verdict, which is the same for every warp. Throws std::invalid_argument for
/// block-wide forms or a short `out`.
spec::AvailabilityVerdict evaluate_batch(const spec::Instr& in, std::span<const model::Warp> warps,
                                         std::span<WarpLanes> out,
                                         spec::Target target = spec::kDefaultTarget,
                                         spec::PtxVersion ptx = spec::kLatestPtx);

/// Same, with the kernels of a given Isa (which must be supported).
spec::AvailabilityVerdict evaluate_batch(const spec::Instr& in, std::span<const model::Warp> warps,
                                         std::span<WarpLanes> out, spec::Target target,
                                         spec::PtxVersion ptx, Isa isa);

/// The second shuffle of a 64-bit shuffle overload (Instr::wide): the b32 batch on
/// spec::high_words(w), whose d is the overload's high word.
void evaluate_high_words(const spec::Instr& in, const model::Warp& w, WarpLanes& out,
                         spec::Target target, spec::PtxVersion ptx);

/// Turns a lean result back into the model's answer for the same instruction and target; for a
/// 64-bit shuffle overload, `high` is the lean result of its second shuffle (its d is d_hi).
model::WarpResult to_result(const spec::Instr& in, const WarpLanes& lanes,
                            spec::AvailabilityVerdict availability,
                            const WarpLanes* high = nullptr);

}  // namespace warpspec::fast
