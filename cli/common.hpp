#pragma once
// Helpers the subcommands share: instruction parsing with caret diagnostics, target options,
// and mapping input errors to exit codes.
#include <string>

#include "cli/command.hpp"
#include "model/state_io.hpp"
#include "spec/instr_parse.hpp"
#include "spec/target.hpp"

namespace warpspec::cli {

/// Parses an instruction from the command line or throws a usage Failure (64) that shows the
/// text with a caret under the offending column. `origin` names the argument ("instruction"):
/// the message starts "origin:1:column: ".
spec::ParsedInstr parse_or_fail(const std::string& text, const std::string& origin);
/// The same for the "instruction" of a state file (exit 65): the message starts with the file,
/// line and column of the offending character, and the JSON path.
spec::ParsedInstr parse_or_fail(const model::JsonState& js);

/// Parses --target/--ptx values (empty: default) or throws a usage Failure.
spec::Target target_or_fail(const std::string& text, spec::Target fallback);
/// Same for the PTX ISA version.
spec::PtxVersion ptx_or_fail(const std::string& text, spec::PtxVersion fallback);

/// A number from the command line: decimal (a leading '-' gives two's complement) or 0x hex;
/// else throws a usage Failure naming `what`.
uint64_t number_or_fail(const std::string& text, const std::string& what);

/// The forms whose catalog entry has clause `id`, as "a, b or c".
std::string forms_with(spec::ClauseId id);

/// Converts an InputError into the matching Failure (64 for command lines, 65 for files).
Failure as_failure(const model::InputError& e);

}  // namespace warpspec::cli
