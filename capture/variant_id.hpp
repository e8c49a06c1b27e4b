#pragma once
// The ways the harness runs an instruction, as plain integers: this header is shared by the CUDA
// kernels and the host code, so it holds nothing but the enum and the immediates the named
// barriers are compiled with.

namespace warpspec::capture {

/// One harness variant: a form plus how it is written (PTX text or intrinsic, `!a` or not).
enum class VariantId : int {
  // warp forms, inline PTX
  MatchAnyB32,
  MatchAnyB64,
  MatchAllB32,
  MatchAllB64,
  // warp forms through the float and double overloads of the match intrinsics
  MatchAnyF32,
  MatchAnyF64,
  MatchAllF32,
  MatchAllF64,
  VoteAll,
  VoteAllNeg,
  VoteAny,
  VoteAnyNeg,
  VoteUni,
  VoteUniNeg,
  VoteBallot,
  VoteBallotNeg,
  ReduxAddU32,
  ReduxAddS32,
  ReduxMinU32,
  ReduxMinS32,
  ReduxMaxU32,
  ReduxMaxS32,
  ReduxAnd,
  ReduxOr,
  ReduxXor,
  BarWarpSync,
  Activemask,
  ActivemaskIntr,
  ShflUp,
  ShflDown,
  ShflBfly,
  ShflIdx,
  // the shuffles through the `int` intrinsics, with a width per lane
  ShflUpIntr,
  ShflDownIntr,
  ShflXorIntr,
  ShflIdxIntr,
  ElectSync,
  // block barriers
  BarSyncPtx,
  BarSyncIntr,
  BarRedPopcIntr,
  BarRedPopcNeg,
  BarRedAndIntr,
  BarRedAndNeg,
  BarRedOrIntr,
  BarRedOrNeg,
  // block barriers with a barrier number and a thread count (bar.arrive first: its row came with
  // the form)
  BarArrivePtx,
  BarArriveImm,
  BarArriveAligned,
  BarSyncNamed,
  BarSyncNamedImm,
  BarSyncNamedNoCount,
  BarSyncAligned,
  BarRedPopcNamed,
  BarRedPopcNamedNeg,
  BarRedPopcNamedImm,
  BarRedPopcNamedNoCount,
  BarRedPopcAligned,
  BarRedAndNamed,
  BarRedAndNamedNeg,
  BarRedAndNamedImm,
  BarRedOrNamed,
  BarRedOrNamedNeg,
  BarRedOrNamedImm,
  Count_
};

/// Number of variants.
inline constexpr int kVariantCount = static_cast<int>(VariantId::Count_);
/// The first block-barrier variant; every variant before it is a warp form.
inline constexpr int kFirstCtaVariant = static_cast<int>(VariantId::BarSyncPtx);
/// The first named-barrier variant: from here on the block barriers name their barrier and
/// thread count, and threads may sit elsewhere or arrive through the partner form. The variants
/// between kFirstCtaVariant and this one are the __syncthreads family (barrier 0, no count).
inline constexpr int kFirstNamedVariant = static_cast<int>(VariantId::BarArrivePtx);

/// The barrier numbers and thread counts the immediate variants (`bar.sync A, B;`) are compiled
/// with: each pair is one kernel, so the generator draws from these alone.
struct NamedImmediate {
  unsigned a, b;
};
inline constexpr NamedImmediate kNamedImmediates[] = {{0, 64},  {1, 32},  {2, 96},
                                                      {3, 128}, {7, 256}, {15, 1024}};
inline constexpr int kNamedImmediateCount =
    static_cast<int>(sizeof(kNamedImmediates) / sizeof(kNamedImmediates[0]));

}  // namespace warpspec::capture
