#include "spec/catalog.hpp"

namespace warpspec::spec {

std::optional<FormId> find_form(std::string_view name) {
  for (const auto& f : kForms)
    if (f.name == name) return f.id;
  return std::nullopt;
}

std::optional<ClauseId> find_clause(std::string_view key) {
  for (const auto& c : kClauses)
    if (c.key == key) return c.id;
  return std::nullopt;
}

std::string_view ctype_name(CType t) {
  switch (t) {
    case CType::Void:
      return "void";
    case CType::Int:
      return "int";
    case CType::Unsigned:
      return "unsigned";
    case CType::Long:
      return "long";
    case CType::UnsignedLong:
      return "unsigned long";
    case CType::LongLong:
      return "long long";
    case CType::UnsignedLongLong:
      return "unsigned long long";
    case CType::Float:
      return "float";
    case CType::Double:
      return "double";
  }
  return "?";
}

std::span<const IntrinsicInfo> all_intrinsics() {
  return kIntrinsics;
}

std::string_view family_name(Family f) {
  switch (f) {
    case Family::Match:
      return "match";
    case Family::Vote:
      return "vote";
    case Family::Redux:
      return "redux";
    case Family::WarpBarrier:
      return "warp barrier";
    case Family::CtaBarrier:
      return "block barrier";
    case Family::Activemask:
      return "active mask";
    case Family::Shfl:
      return "shuffle";
    case Family::Elect:
      return "election";
  }
  return "?";
}

std::string_view operand_type_name(OperandType t) {
  switch (t) {
    case OperandType::None:
      return "-";
    case OperandType::B32:
      return "b32";
    case OperandType::B64:
      return "b64";
    case OperandType::Pred:
      return "pred";
    case OperandType::U32:
      return "u32";
    case OperandType::S32:
      return "s32";
    case OperandType::F32:
      return "f32";
  }
  return "?";
}

std::string_view result_type_name(ResultType t) {
  switch (t) {
    case ResultType::None:
      return "-";
    case ResultType::Mask32:
      return "mask32";
    case ResultType::Pred:
      return "pred";
    case ResultType::B32:
      return "b32";
    case ResultType::U32:
      return "u32";
    case ResultType::S32:
      return "s32";
    case ResultType::F32:
      return "f32";
  }
  return "?";
}

std::string_view clause_kind_name(ClauseKind k) {
  switch (k) {
    case ClauseKind::Semantic:
      return "semantic";
    case ClauseKind::Undefined:
      return "undefined-behaviour";
    case ClauseKind::UndefinedValue:
      return "undefined-value";
  }
  return "?";
}

}  // namespace warpspec::spec
