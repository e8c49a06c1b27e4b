#pragma once
// Reads one instruction as a person writes it: PTX text ("match.all.sync.b64 d|p, a, m;") or a
// CUDA intrinsic call ("__match_any_sync(0xffffffff, (float)x)"). Everything is checked against
// the catalog: an unknown qualifier or an operand that does not fit the form is an error with a
// column, never a guess.
#include <cstddef>
#include <string>
#include <string_view>
#include <variant>

#include "spec/catalog.hpp"
#include "spec/warp_state.hpp"

namespace warpspec::spec {

/// Where and why an instruction text was rejected; `column` is 1-based.
struct ParseError {
  std::size_t column = 1;
  std::string message;
};

/// A parsed instruction: the instance to evaluate and how it was written.
struct ParsedInstr {
  Instr instr;
  const IntrinsicInfo* intrinsic = nullptr;  ///< set when written as an intrinsic call
  std::string d_register;  ///< PTX text: the destination d's register name ("_" for the sink)
  std::string p_register;  ///< PTX text: the predicate destination's name, when written
  std::string a_register;  ///< PTX text: the source operand's register name, when the form has one
  std::string mask_register;   ///< the membermask's register name when it is not an immediate
  std::string b_register;      ///< shuffles: b's register name when it is not an immediate
  std::string c_register;      ///< shuffles: c's register name when it is not an immediate
  std::string bar_register;    ///< block barriers: a's register name when it is not an immediate
  std::string count_register;  ///< block barriers: b's register name when it is not an immediate
  std::string text;  ///< canonical spelling, e.g. "vote.sync.ballot.b32 d, !a, 0xffffffff;"
  /// Block barriers: written .aligned (every bar spelling and __syncthreads is; barrier without
  /// .aligned is not, and lets threads reach one barrier from different instructions).
  bool aligned = true;
};

/// Parses PTX text or an intrinsic call; returns the instruction or the first error.
std::variant<ParsedInstr, ParseError> parse_instruction(std::string_view text);

/// Input text as a message shows it: at most `max_chars` characters (a multi-byte character
/// counts once), control bytes written as \xNN, "..." when cut; never the whole of a huge or
/// hostile input. With `ascii`, bytes above 0x7f are written as \xNN too (text that may not be
/// UTF-8).
std::string shown_text(std::string_view t, bool ascii = false, std::size_t max_chars = 80);

/// How a per-lane source operand of `p` is written: its width, whether plain decimals are
/// floating-point values, and whether it is a predicate.
struct ValueSyntax {
  int bits = 32;          ///< 32 or 64
  bool is_float = false;  ///< decimals are float (bits 32) or double (bits 64) values
  bool is_pred = false;   ///< 0/1/true/false (or a 0x string of value 0 or 1)
  bool none = false;      ///< the form has no source operand
};

/// The operand syntax of a parsed instruction (intrinsic types win over the PTX type).
ValueSyntax value_syntax(const ParsedInstr& p);

/// Parses one operand value as raw bits. Accepts decimal and 0x-hex integers (negative decimals
/// in two's complement), and for float operands decimal/inf/nan values; 0x-hex is always the
/// exact bit pattern. Returns an error message (empty on success) and the bits through `out`.
std::string parse_value(std::string_view text, const ValueSyntax& syn, uint64_t& out);

}  // namespace warpspec::spec
