#pragma once
// Subcommands register themselves here; main only wires the registry into CLI11.
#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace warpspec::cli {

/// Exit codes shared by every subcommand (documented in docs/cli.md).
enum ExitCode : int {
  kExitOk = 0,           ///< proved / agrees / evaluated without UB
  kExitRefuted = 1,      ///< refuted / mismatch found
  kExitUnknown = 2,      ///< solver answered unknown (timeout, resource limit)
  kExitUb = 3,           ///< evaluated; some UB clause fires
  kExitUnavailable = 4,  ///< evaluated; the form is not available on the chosen target/PTX
  kExitUsage = 64,       ///< bad command line or instruction text
  kExitDataError = 65,   ///< malformed input file
  kExitNoInput = 66,     ///< input file missing or unreadable
  kExitInternal = 70,    ///< internal error (a bug in warpspec)
  kExitNoMemory = 71,    ///< the system would not give the memory the work needs
  kExitCantCreate = 73,  ///< output file could not be written
};

/// Checks a path option: an empty value is refused (64), never read as the option left out
/// (`vectors --in ''` would otherwise generate a whole suite).
inline const CLI::Validator kPath(
    [](std::string& s) { return s.empty() ? std::string("an empty path") : std::string(); },
    "PATH");

/// A failure a subcommand reports to the user: one message, one exit code.
struct Failure {
  int code;
  std::string message;
};

/// A subcommand: `setup` declares its options on `sub` and returns the action run when chosen.
struct Command {
  std::string name;
  std::string summary;
  int order;  ///< position in --help
  std::function<std::function<int()>(CLI::App& sub)> setup;
};

/// The process-wide registry. Each subcommand file adds one entry at static-initialisation time.
std::vector<Command>& registry();

/// Registers a subcommand; use as `const bool NAME_registered = add_command({...});` (one name per
/// file, so that the files can be compiled as one unit).
bool add_command(Command c);

}  // namespace warpspec::cli
