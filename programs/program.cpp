#include "programs/program.hpp"

namespace warpspec::programs {

std::string_view type_name(Type t) {
  switch (t) {
    case Type::Pred:
      return ".pred";
    case Type::B8:
      return ".b8";
    case Type::B16:
      return ".b16";
    case Type::B32:
      return ".b32";
    case Type::B64:
      return ".b64";
    case Type::U8:
      return ".u8";
    case Type::U16:
      return ".u16";
    case Type::U32:
      return ".u32";
    case Type::U64:
      return ".u64";
    case Type::S8:
      return ".s8";
    case Type::S16:
      return ".s16";
    case Type::S32:
      return ".s32";
    case Type::S64:
      return ".s64";
  }
  return "?";
}

}  // namespace warpspec::programs
