#pragma once
// A kernel as the step semantics reads it: the `.entry` of a PTX module in the subset that
// `nvcc -ptx` emits for small kernels, with registers numbered, labels resolved to instruction
// indices and every collective parsed against the catalog. The reader (ptx_reader.hpp) builds it;
// the machine (machine.hpp) runs it.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "spec/instr_parse.hpp"

namespace warpspec::programs {

/// Where an instruction or declaration was written: 1-based line and column of the PTX text.
struct SourceLoc {
  unsigned line = 0;
  unsigned column = 0;
};

/// A line of the CUDA source an instruction came from, where the PTX carries line information
/// (`nvcc -lineinfo`): the `.file` number and line of its `.loc`, or of the call site it was
/// inlined at (an intrinsic's body is inlined from a CUDA header). File 0: none.
struct SourceLine {
  uint32_t file = 0;
  unsigned line = 0;
};

/// The type qualifier of an instruction or a register (`.u32`, `.s64`, `.pred`, ...).
enum class Type : uint8_t { Pred, B8, B16, B32, B64, U8, U16, U32, U64, S8, S16, S32, S64 };

/// Width in bits of a type (1 for .pred).
constexpr unsigned bits(Type t) {
  switch (t) {
    case Type::Pred:
      return 1;
    case Type::B8:
    case Type::U8:
    case Type::S8:
      return 8;
    case Type::B16:
    case Type::U16:
    case Type::S16:
      return 16;
    case Type::B32:
    case Type::U32:
    case Type::S32:
      return 32;
    case Type::B64:
    case Type::U64:
    case Type::S64:
      return 64;
  }
  return 0;
}
/// True for the signed integer types.
constexpr bool is_signed(Type t) {
  return t == Type::S8 || t == Type::S16 || t == Type::S32 || t == Type::S64;
}
/// ".u32" and the like.
std::string_view type_name(Type t);

/// The special registers a kernel may read. Only the x dimension varies: blocks and grids are
/// one-dimensional, so `%tid.y`, `%ntid.y`, ... read 0 or 1 as a 1-D launch gives them.
enum class Special : uint8_t {
  TidX,
  TidY,
  TidZ,
  NtidX,
  NtidY,
  NtidZ,
  CtaidX,
  CtaidY,
  CtaidZ,
  NctaidX,
  NctaidY,
  NctaidZ,
  LaneId,
  WarpId,
  NwarpId,
};

/// A source or destination operand.
struct Operand {
  enum class Kind : uint8_t {
    None,
    Reg,      ///< `reg`; `negate` for `!%p` predicate sources
    Imm,      ///< `imm`, the bits as written (negative decimals in two's complement)
    Special,  ///< `special`
    Shared,   ///< the address of `.shared` variable `symbol` in the shared window
    Param,    ///< the `.param` named `symbol` (only as `ld.param`'s address)
  };
  Kind kind = Kind::None;
  uint32_t reg = 0;
  uint64_t imm = 0;
  Special special = Special::TidX;
  uint32_t symbol = 0;
  bool negate = false;
};

/// State spaces of loads and stores.
enum class Space : uint8_t { Param, Global, Shared, Generic };

/// Comparisons of `setp`.
enum class Cmp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs };

/// The operations of the subset. Arithmetic wraps at the instruction type's width; `Mul` has a
/// `MulMode` (`.lo`, `.hi`, `.wide`), and `Mad` too.
enum class Op : uint8_t {
  Mov,
  Cvta,
  Cvt,
  Add,
  Sub,
  Mul,
  Mad,
  Div,
  Rem,
  Min,
  Max,
  Neg,
  Abs,
  And,
  Or,
  Xor,
  Not,
  Shl,
  Shr,
  Bfe,  ///< bit field extract: a, bit position, length
  Bfi,  ///< bit field insert: a into b, bit position, length
  Setp,
  Selp,
  Ld,
  St,
  Bra,
  Ret,
  Exit,
  Collective,  ///< any form of the catalog (spec::FormId), operands in `collective`
};

/// With `.wide`, `Instruction::type` is the sources' type as written (`mul.wide.u32`: .u32); the
/// destination, and mad's addend, are twice as wide.
enum class MulMode : uint8_t { Lo, Hi, Wide };

/// A collective as the catalog parses it, with its register operands as register indices.
struct Collective {
  spec::ParsedInstr parsed;
  std::optional<uint32_t> d, p, a;                 ///< destination, predicate destination, source
  std::optional<uint32_t> mask, b, c, bar, count;  ///< operands written as registers
};

/// One instruction. `dst` and `src` follow the PTX operand order; a load's or store's address is
/// `addr` plus `offset`.
struct Instruction {
  Op op = Op::Mov;
  Type type = Type::B32;         ///< the instruction's (destination) type
  Type src_type = Type::B32;     ///< cvt's source type; setp's and selp's operand type
  Cmp cmp = Cmp::Eq;             ///< setp
  MulMode mul = MulMode::Lo;     ///< mul, mad
  Space space = Space::Generic;  ///< ld, st, cvta (`cvta.to.global`: Global, `cvta.shared`: Shared)
  bool to_generic = false;       ///< cvta without `.to`: from `space` to generic
  std::optional<Operand> guard;  ///< `@%p` / `@!%p`: a Reg operand
  std::vector<Operand> dst;      ///< one destination (setp: p, and q when written `p|q`)
  std::vector<Operand> src;
  Operand addr;          ///< ld/st: base (Reg, Shared or Param)
  int64_t offset = 0;    ///< ld/st: `[base+offset]`
  uint32_t target = 0;   ///< bra: index of the instruction the label names
  bool uniform = false;  ///< `bra.uni`
  bool strong = false;   ///< ld/st `.volatile`: relaxed at system scope, not a plain access
  std::optional<Collective> collective;
  SourceLoc loc;
  SourceLine source;  ///< the CUDA line, where the PTX has `.loc` directives
  std::string text;   ///< the instruction as written, trimmed, for messages
};

/// A register declared by `.reg .type %name<n>;` (one entry per numbered register) or
/// `.reg .type %name;`.
struct Register {
  std::string name;
  Type type = Type::B32;
};

/// A kernel parameter: name, type and byte offset in the parameter space.
struct Param {
  std::string name;
  Type type = Type::U64;
  uint32_t offset = 0;
};

/// A `.shared` variable: name, size and offset in the block's shared window.
struct SharedVar {
  std::string name;
  uint32_t size = 0;
  uint32_t align = 1;
  uint32_t offset = 0;
};

/// One kernel (`.entry`).
struct Program {
  std::string name;
  std::string target;   ///< from `.target`, e.g. "sm_90"
  std::string version;  ///< from `.version`, e.g. "9.0"
  std::vector<Param> params;
  std::vector<Register> regs;
  std::vector<SharedVar> shared;
  uint32_t shared_bytes = 0;  ///< the whole shared window
  std::vector<Instruction> code;
  SourceLoc loc;                          ///< where the `.entry` is
  std::map<uint32_t, std::string> files;  ///< the `.file` table: number to path
};

/// The name, without its folders, of the `.file` numbered `file`; empty where the table has none.
inline std::string source_file_name(const Program& p, uint32_t file) {
  const auto f = p.files.find(file);
  if (f == p.files.end()) return {};
  const auto slash = f->second.find_last_of('/');
  return f->second.substr(slash == std::string::npos ? 0 : slash + 1);
}

}  // namespace warpspec::programs
