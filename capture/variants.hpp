#pragma once
// The harness's variants as data: which form each runs, how it is written, and what values the
// generator draws for its operand.
#include <array>
#include <optional>
#include <string_view>

#include "capture/format.hpp"
#include "capture/variant_id.hpp"
#include "spec/catalog.hpp"

namespace warpspec::capture {

/// What kind of operand values the generator draws.
enum class ValueKind : uint8_t { None, B32, B64, F32, F64, Pred };

/// How a named block barrier writes its barrier number a and thread count b.
enum class NamedOperands : uint8_t {
  None,             ///< not a named barrier (warp forms, the __syncthreads family)
  Registers,        ///< `a, b` in registers, one value per thread
  Immediates,       ///< `A, B` immediates, one pair of kNamedImmediates per kernel
  RegisterNoCount,  ///< `a` in a register, no thread count
};

/// One variant: the form, how the harness writes it, and its operand kind.
struct Variant {
  VariantId id;
  std::string_view name;  ///< file-safe name, e.g. "match.any.sync.b32-float"
  spec::FormId form;
  Via via;
  std::string_view text;  ///< PTX line (via ptx) or intrinsic name (via intrinsic)
  spec::CType ctype;      ///< intrinsic value type (Void for PTX)
  bool negate;
  bool write_p;  ///< match.all written `d|p`
  ValueKind values;
  NamedOperands operands = NamedOperands::None;  ///< named block barriers: how a and b are written
};

namespace detail {
using V = VariantId;
using F = spec::FormId;
using T = spec::CType;
using K = ValueKind;
constexpr Via P = Via::Ptx;
constexpr Via I = Via::Intrinsic;
constexpr NamedOperands R = NamedOperands::Registers;
constexpr NamedOperands M = NamedOperands::Immediates;
constexpr NamedOperands R1 = NamedOperands::RegisterNoCount;
}  // namespace detail

// clang-format off
inline constexpr std::array<Variant, kVariantCount> kVariants = [] {
  using namespace detail;
  return std::array<Variant, kVariantCount>{{
    {V::MatchAnyB32, "match.any.sync.b32", F::MatchAnyB32, P, "match.any.sync.b32 d, a, membermask;", T::Void, false, false, K::B32},
    {V::MatchAnyB64, "match.any.sync.b64", F::MatchAnyB64, P, "match.any.sync.b64 d, a, membermask;", T::Void, false, false, K::B64},
    {V::MatchAllB32, "match.all.sync.b32", F::MatchAllB32, P, "match.all.sync.b32 d|p, a, membermask;", T::Void, false, true, K::B32},
    {V::MatchAllB64, "match.all.sync.b64", F::MatchAllB64, P, "match.all.sync.b64 d|p, a, membermask;", T::Void, false, true, K::B64},
    {V::MatchAnyF32, "match.any.sync.b32-float", F::MatchAnyB32, I, "__match_any_sync", T::Float, false, false, K::F32},
    {V::MatchAnyF64, "match.any.sync.b64-double", F::MatchAnyB64, I, "__match_any_sync", T::Double, false, false, K::F64},
    {V::MatchAllF32, "match.all.sync.b32-float", F::MatchAllB32, I, "__match_all_sync", T::Float, false, true, K::F32},
    {V::MatchAllF64, "match.all.sync.b64-double", F::MatchAllB64, I, "__match_all_sync", T::Double, false, true, K::F64},
    {V::VoteAll, "vote.sync.all.pred", F::VoteAll, P, "vote.sync.all.pred d, a, membermask;", T::Void, false, false, K::Pred},
    {V::VoteAllNeg, "vote.sync.all.pred-neg", F::VoteAll, P, "vote.sync.all.pred d, !a, membermask;", T::Void, true, false, K::Pred},
    {V::VoteAny, "vote.sync.any.pred", F::VoteAny, P, "vote.sync.any.pred d, a, membermask;", T::Void, false, false, K::Pred},
    {V::VoteAnyNeg, "vote.sync.any.pred-neg", F::VoteAny, P, "vote.sync.any.pred d, !a, membermask;", T::Void, true, false, K::Pred},
    {V::VoteUni, "vote.sync.uni.pred", F::VoteUni, P, "vote.sync.uni.pred d, a, membermask;", T::Void, false, false, K::Pred},
    {V::VoteUniNeg, "vote.sync.uni.pred-neg", F::VoteUni, P, "vote.sync.uni.pred d, !a, membermask;", T::Void, true, false, K::Pred},
    {V::VoteBallot, "vote.sync.ballot.b32", F::VoteBallot, P, "vote.sync.ballot.b32 d, a, membermask;", T::Void, false, false, K::Pred},
    {V::VoteBallotNeg, "vote.sync.ballot.b32-neg", F::VoteBallot, P, "vote.sync.ballot.b32 d, !a, membermask;", T::Void, true, false, K::Pred},
    {V::ReduxAddU32, "redux.sync.add.u32", F::ReduxAddU32, P, "redux.sync.add.u32 d, a, membermask;", T::Void, false, false, K::B32},
    {V::ReduxAddS32, "redux.sync.add.s32", F::ReduxAddS32, P, "redux.sync.add.s32 d, a, membermask;", T::Void, false, false, K::B32},
    {V::ReduxMinU32, "redux.sync.min.u32", F::ReduxMinU32, P, "redux.sync.min.u32 d, a, membermask;", T::Void, false, false, K::B32},
    {V::ReduxMinS32, "redux.sync.min.s32", F::ReduxMinS32, P, "redux.sync.min.s32 d, a, membermask;", T::Void, false, false, K::B32},
    {V::ReduxMaxU32, "redux.sync.max.u32", F::ReduxMaxU32, P, "redux.sync.max.u32 d, a, membermask;", T::Void, false, false, K::B32},
    {V::ReduxMaxS32, "redux.sync.max.s32", F::ReduxMaxS32, P, "redux.sync.max.s32 d, a, membermask;", T::Void, false, false, K::B32},
    {V::ReduxAnd, "redux.sync.and.b32", F::ReduxAnd, P, "redux.sync.and.b32 d, a, membermask;", T::Void, false, false, K::B32},
    {V::ReduxOr, "redux.sync.or.b32", F::ReduxOr, P, "redux.sync.or.b32 d, a, membermask;", T::Void, false, false, K::B32},
    {V::ReduxXor, "redux.sync.xor.b32", F::ReduxXor, P, "redux.sync.xor.b32 d, a, membermask;", T::Void, false, false, K::B32},
    {V::BarWarpSync, "bar.warp.sync", F::BarWarpSync, P, "bar.warp.sync membermask;", T::Void, false, false, K::None},
    {V::Activemask, "activemask.b32", F::Activemask, P, "activemask.b32 d;", T::Void, false, false, K::None},
    {V::ActivemaskIntr, "activemask.b32-activemask", F::Activemask, I, "__activemask", T::Void, false, false, K::None},
    {V::ShflUp, "shfl.sync.up.b32", F::ShflUp, P, "shfl.sync.up.b32 d|p, a, b, c, membermask;", T::Void, false, true, K::B32},
    {V::ShflDown, "shfl.sync.down.b32", F::ShflDown, P, "shfl.sync.down.b32 d|p, a, b, c, membermask;", T::Void, false, true, K::B32},
    {V::ShflBfly, "shfl.sync.bfly.b32", F::ShflBfly, P, "shfl.sync.bfly.b32 d|p, a, b, c, membermask;", T::Void, false, true, K::B32},
    {V::ShflIdx, "shfl.sync.idx.b32", F::ShflIdx, P, "shfl.sync.idx.b32 d|p, a, b, c, membermask;", T::Void, false, true, K::B32},
    {V::ShflUpIntr, "shfl.sync.up.b32-shfl_up", F::ShflUp, I, "__shfl_up_sync", T::Int, false, false, K::B32},
    {V::ShflDownIntr, "shfl.sync.down.b32-shfl_down", F::ShflDown, I, "__shfl_down_sync", T::Int, false, false, K::B32},
    {V::ShflXorIntr, "shfl.sync.bfly.b32-shfl_xor", F::ShflBfly, I, "__shfl_xor_sync", T::Int, false, false, K::B32},
    {V::ShflIdxIntr, "shfl.sync.idx.b32-shfl", F::ShflIdx, I, "__shfl_sync", T::Int, false, false, K::B32},
    {V::ElectSync, "elect.sync", F::ElectSync, P, "elect.sync d|p, membermask;", T::Void, false, true, K::None},
    {V::BarSyncPtx, "bar.sync", F::BarSync, P, "bar.sync 0;", T::Void, false, false, K::Pred},
    {V::BarSyncIntr, "bar.sync-syncthreads", F::BarSync, I, "__syncthreads", T::Void, false, false, K::Pred},
    {V::BarRedPopcIntr, "bar.red.popc.u32-syncthreads_count", F::BarRedPopc, I, "__syncthreads_count", T::Int, false, false, K::Pred},
    {V::BarRedPopcNeg, "bar.red.popc.u32-neg", F::BarRedPopc, P, "bar.red.popc.u32 d, 0, !a;", T::Void, true, false, K::Pred},
    {V::BarRedAndIntr, "bar.red.and.pred-syncthreads_and", F::BarRedAnd, I, "__syncthreads_and", T::Int, false, false, K::Pred},
    {V::BarRedAndNeg, "bar.red.and.pred-neg", F::BarRedAnd, P, "bar.red.and.pred d, 0, !a;", T::Void, true, false, K::Pred},
    {V::BarRedOrIntr, "bar.red.or.pred-syncthreads_or", F::BarRedOr, I, "__syncthreads_or", T::Int, false, false, K::Pred},
    {V::BarRedOrNeg, "bar.red.or.pred-neg", F::BarRedOr, P, "bar.red.or.pred d, 0, !a;", T::Void, true, false, K::Pred},
    {V::BarArrivePtx, "bar.arrive", F::BarArrive, P, "bar.arrive a, b;", T::Void, false, false, K::None, R},
    {V::BarArriveImm, "bar.arrive-imm", F::BarArrive, P, "bar.arrive A, B;", T::Void, false, false, K::None, M},
    {V::BarArriveAligned, "bar.arrive-barrier.cta.aligned", F::BarArrive, P, "barrier.cta.arrive.aligned a, b;", T::Void, false, false, K::None, R},
    {V::BarSyncNamed, "bar.sync-named", F::BarSync, P, "bar.sync a, b;", T::Void, false, false, K::None, R},
    {V::BarSyncNamedImm, "bar.sync-named-imm", F::BarSync, P, "bar.sync A, B;", T::Void, false, false, K::None, M},
    {V::BarSyncNamedNoCount, "bar.sync-named-nocount", F::BarSync, P, "bar.sync a;", T::Void, false, false, K::None, R1},
    {V::BarSyncAligned, "bar.sync-barrier.cta.aligned", F::BarSync, P, "barrier.cta.sync.aligned a, b;", T::Void, false, false, K::None, R},
    {V::BarRedPopcNamed, "bar.red.popc.u32-named", F::BarRedPopc, P, "bar.red.popc.u32 d, a, b, c;", T::Void, false, false, K::Pred, R},
    {V::BarRedPopcNamedNeg, "bar.red.popc.u32-named-neg", F::BarRedPopc, P, "bar.red.popc.u32 d, a, b, !c;", T::Void, true, false, K::Pred, R},
    {V::BarRedPopcNamedImm, "bar.red.popc.u32-named-imm", F::BarRedPopc, P, "bar.red.popc.u32 d, A, B, c;", T::Void, false, false, K::Pred, M},
    {V::BarRedPopcNamedNoCount, "bar.red.popc.u32-named-nocount", F::BarRedPopc, P, "bar.red.popc.u32 d, a, c;", T::Void, false, false, K::Pred, R1},
    {V::BarRedPopcAligned, "bar.red.popc.u32-barrier.cta.aligned", F::BarRedPopc, P, "barrier.cta.red.popc.aligned.u32 d, a, b, c;", T::Void, false, false, K::Pred, R},
    {V::BarRedAndNamed, "bar.red.and.pred-named", F::BarRedAnd, P, "bar.red.and.pred d, a, b, c;", T::Void, false, false, K::Pred, R},
    {V::BarRedAndNamedNeg, "bar.red.and.pred-named-neg", F::BarRedAnd, P, "bar.red.and.pred d, a, b, !c;", T::Void, true, false, K::Pred, R},
    {V::BarRedAndNamedImm, "bar.red.and.pred-named-imm", F::BarRedAnd, P, "bar.red.and.pred d, A, B, c;", T::Void, false, false, K::Pred, M},
    {V::BarRedOrNamed, "bar.red.or.pred-named", F::BarRedOr, P, "bar.red.or.pred d, a, b, c;", T::Void, false, false, K::Pred, R},
    {V::BarRedOrNamedNeg, "bar.red.or.pred-named-neg", F::BarRedOr, P, "bar.red.or.pred d, a, b, !c;", T::Void, true, false, K::Pred, R},
    {V::BarRedOrNamedImm, "bar.red.or.pred-named-imm", F::BarRedOr, P, "bar.red.or.pred d, A, B, c;", T::Void, false, false, K::Pred, M},
  }};
}();
// clang-format on

/// True when PTX text `text` writes form `form`: its name, or for a block barrier the
/// `barrier.cta.X.aligned` spelling of `bar.X` (the parser reads both as one form).
constexpr bool spells_form(std::string_view text, std::string_view form) {
  if (text.starts_with(form)) return true;
  constexpr std::string_view kLong = "barrier.cta.", kAligned = ".aligned";
  if (!form.starts_with("bar.") || !text.starts_with(kLong)) return false;
  const std::string_view rest = text.substr(kLong.size()), op = form.substr(4);
  const auto at = rest.find(kAligned);
  if (at == std::string_view::npos || at > op.size()) return false;
  return rest.substr(0, at) == op.substr(0, at) &&
         rest.substr(at + kAligned.size()).starts_with(op.substr(at));
}

constexpr bool variants_in_order() {
  for (int i = 0; i < kVariantCount; ++i) {
    const Variant& v = kVariants[i];
    if (static_cast<int>(v.id) != i) return false;
    if (spec::is_warp_form(v.form) != (i < kFirstCtaVariant)) return false;
    if ((v.operands != NamedOperands::None) != (i >= kFirstNamedVariant)) return false;
    if (v.via == Via::Ptx && !spells_form(v.text, spec::form_info(v.form).name)) return false;
    // An intrinsic variant is an overload of the catalog.
    if (v.via == Via::Intrinsic) {
      bool found = false;
      for (const auto& i : spec::kIntrinsics)
        found = found || (i.name == v.text && i.form == v.form &&
                          (v.ctype == spec::CType::Void || i.value_type == v.ctype));
      if (!found) return false;
    }
  }
  return true;
}
static_assert(
    variants_in_order(),
    "one row per VariantId, in order: warp forms, the __syncthreads family, named barriers");
static_assert(spells_form("barrier.cta.red.popc.aligned.u32 d, a, b, c;", "bar.red.popc.u32") &&
              spells_form("barrier.cta.sync.aligned a;", "bar.sync") &&
              !spells_form("barrier.cta.sync a;", "bar.sync") &&
              !spells_form("barrier.cta.arrive.aligned a, b;", "bar.sync"));

// The harness runs on an H100: every catalog form an sm_90 part can run has a variant, so a form
// added to the catalog without one does not compile.
constexpr bool every_sm90_form_has_a_variant() {
  for (const auto& f : spec::kForms) {
    if (f.avail.rule != spec::ArchRule::AtLeast || f.avail.min_sm > 90) continue;
    bool found = false;
    for (const auto& v : kVariants) found = found || v.form == f.id;
    if (!found) return false;
  }
  return true;
}
static_assert(every_sm90_form_has_a_variant(),
              "a catalog form the H100 runs has no harness variant");

/// The row of a variant.
constexpr const Variant& variant_info(VariantId id) {
  return kVariants[static_cast<int>(id)];
}

/// True for the named block barriers (barrier number, thread count, partners, threads elsewhere).
constexpr bool is_named(const Variant& v) {
  return v.operands != NamedOperands::None;
}

/// Looks a variant up by its name.
std::optional<VariantId> find_variant(std::string_view name);

/// Forms of the catalog no variant covers (those an sm_90 part cannot run: the .f32 redux forms).
std::vector<spec::FormId> uncovered_forms();

}  // namespace warpspec::capture
