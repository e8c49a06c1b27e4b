#pragma once
// Helpers the subcommands share: instruction parsing with caret diagnostics, target options,
// and mapping input errors to exit codes.
#include <string>

#include "cli/command.hpp"
#include "model/state_io.hpp"
#include "spec/instr_parse.hpp"
#include "spec/target.hpp"
#ifdef WARPSPEC_HAVE_CHECKER
#include "checker/prover.hpp"
#endif

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

/// One line of progress on standard error, rewritten in place, for work that runs longer than a
/// few seconds; nothing at all when standard error is not a terminal (logs and pipes stay
/// clean). The line is cleared when the work ends or the object goes.
class Progress {
 public:
  Progress();
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  /// Replaces the line with `text` (cut to the terminal's usual width).
  void show(const std::string& text);
  /// Clears the line.
  void clear();

 private:
  bool tty_;
  bool shown_ = false;
};

#ifdef WARPSPEC_HAVE_CHECKER
/// checker::prove_all with a Progress line: how many properties are done, and the latest.
std::vector<checker::Verdict> prove_with_progress(const std::vector<const checker::Property*>& props,
                                                  const checker::ProveOptions& opt);
#endif

}  // namespace warpspec::cli
