#pragma once
// Reading warp and block states as people and programs write them: concise command-line lists
// ("5*2,6*", lane sets "0-3,7" or "0xff") and JSON files (docs/json-schema.md).
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "model/eval.hpp"
#include "model/json_file.hpp"
#include "spec/instr_parse.hpp"
#include "spec/target.hpp"

namespace warpspec::model {

/// Bad input a user can fix. `data` separates malformed files (exit 65) from bad command-line
/// text (exit 64); the message already names the place (flag, file:line:column or JSON path).
class InputError : public std::runtime_error {
 public:
  InputError(std::string msg, bool data) : std::runtime_error(std::move(msg)), data_(data) {}
  /// True for a malformed file, false for a malformed command line.
  bool data() const { return data_; }

 private:
  bool data_;
};

/// Expands a per-lane list: comma-separated items, `V*N` repeats V N times, a final `V*` fills
/// the remaining lanes, and a single plain item applies to every lane. Throws InputError
/// (naming `what`) unless exactly `n` items result.
std::vector<std::string> expand_list(std::string_view list, std::size_t n, std::string_view what);

/// Parses a lane set over `n` lanes: `none`, `all`, a hex word `0x...` (n <= 32), or ranges
/// such as `0-3,7`. Throws InputError naming `what`.
std::vector<bool> parse_lane_set(std::string_view text, std::size_t n, std::string_view what);

/// The state given by command-line flags; empty strings mean "not given".
struct StateFlags {
  std::string a;            ///< per-lane source operands (list syntax)
  std::string mask;         ///< one membermask for every lane
  std::string masks;        ///< per-lane membermasks (list syntax)
  std::string exited;       ///< lane set of exited lanes
  std::string inactive;     ///< lane set of lanes alive but not executing the instruction
  std::string sites;        ///< per-lane call-site ids (list syntax)
  std::string b;            ///< shuffles: per-lane b (list syntax) when b is a register
  std::string c;            ///< shuffles: per-lane c (list syntax) when c is a register
  std::size_t threads = 0;  ///< block size for the block barriers (0: 32)
  std::string bar;          ///< block barriers: per-thread a (list syntax) when a is a register
  std::string count;        ///< block barriers: per-thread b (list syntax) when b is a register
  std::string partner;      ///< block barriers: threads that use the partner form (lane set)
};

/// Builds a warp from flags for instruction `p`. Throws InputError (data = false).
Warp warp_from_flags(const spec::ParsedInstr& p, const StateFlags& f);

/// Builds a block from flags for a block-barrier instruction `p`. Throws InputError.
Cta cta_from_flags(const spec::ParsedInstr& p, const StateFlags& f);

/// What a JSON state file holds before the instruction is known.
struct JsonState {
  std::string file;  ///< for messages
  std::optional<std::string> instruction;
  std::optional<spec::Target> target;
  std::optional<spec::PtxVersion> ptx;
  std::shared_ptr<const JsonFile> doc;  ///< the document, kept for the second pass
};

/// First pass over a JSON state file ("-" for standard input): syntax, schema tag, instruction,
/// target and ptx. Throws InputError (data = true) with file:line:column for syntax errors, and
/// MissingInput when the file cannot be opened.
JsonState read_state_file_header(const std::string& path);
/// The same first pass over a document already in memory; `file` names it in messages.
JsonState read_state_text(std::string text, const std::string& file);

/// Second pass: the lanes (or threads) of the file, read with instruction `p`'s value syntax.
Warp warp_from_json(const JsonState& js, const spec::ParsedInstr& p);
/// Second pass for the block barriers.
Cta cta_from_json(const JsonState& js, const spec::ParsedInstr& p);

}  // namespace warpspec::model
