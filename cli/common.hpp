#pragma once
// Helpers the subcommands share: instruction parsing with caret diagnostics, target options,
// and mapping input errors to exit codes.
#include <string>

#include "cli/command.hpp"
#include "model/state_io.hpp"
#include "spec/instr_parse.hpp"
#include "spec/target.hpp"

namespace warpspec::cli {

/// Parses an instruction or throws a Failure (exit `code`: 64 for the command line, 65 for a file)
/// that shows the text with a caret under the offending column. `origin` names where the text
/// came from ("instruction" or "file.json").
spec::ParsedInstr parse_or_fail(const std::string& text, const std::string& origin,
                                int code = kExitUsage);

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
