#pragma once
// The ways the harness runs an instruction, as plain integers: this header is shared by the CUDA
// kernels and the host code, so it holds nothing but the enum.

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
  BarArrivePtx,
  Count_
};

/// Number of variants.
inline constexpr int kVariantCount = static_cast<int>(VariantId::Count_);
/// The first block-barrier variant; every variant before it is a warp form.
inline constexpr int kFirstCtaVariant = static_cast<int>(VariantId::BarSyncPtx);

}  // namespace warpspec::capture
