// warpspec: wires the registered subcommands into one CLI11 application.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <exception>
#include <iostream>
#include <new>

#include "cli/command.hpp"
#include "model/input.hpp"
#include "model/output.hpp"
#include "model/process.hpp"
#include "model/state_io.hpp"

namespace warpspec::cli {

std::vector<Command>& registry() {
  static std::vector<Command> commands;
  return commands;
}

bool add_command(Command c) {
  registry().push_back(std::move(c));
  return true;
}

}  // namespace warpspec::cli

int main(int argc, char** argv) {
  using namespace warpspec::cli;
  warpspec::model::keep_freed_memory();
  // A closed pipe on standard output is a failed write (exit 73, docs/cli.md), not a signal.
  std::signal(SIGPIPE, SIG_IGN);
  // A closed standard input keeps its descriptor free, and the first input file opened would
  // take it: `-` would then read that file. Hold it with a descriptor that cannot be read, so
  // that `-` stays unreadable (exit 66) and every file gets a descriptor of its own.
  if (::fcntl(STDIN_FILENO, F_GETFD) == -1 && errno == EBADF) ::open("/dev/null", O_WRONLY);
  CLI::App app{
      "warpspec: an executable reference for NVIDIA's warp-level synchronization and "
      "communication primitives (match.sync, vote.sync, redux.sync, shfl.sync, elect.sync, "
      "activemask, bar.warp.sync and the block barriers)."};
  app.require_subcommand(1);
  app.footer(
      "Exit codes: 0 ok/proved/agrees, 1 refuted/mismatch, 2 unknown, 3 UB found, 4 form not "
      "available on the target, 64 usage, 65 bad input data, 66 missing input, 70 internal, 71 "
      "out of memory, 73 cannot write output. See docs/cli.md.");
  auto commands = registry();
  std::sort(commands.begin(), commands.end(),
            [](const Command& a, const Command& b) { return a.order < b.order; });
  std::function<int()> action;
  for (auto& c : commands) {
    CLI::App* sub = app.add_subcommand(c.name, c.summary);
    auto run = c.setup(*sub);
    sub->callback([&action, run] { action = run; });
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  }
  try {
    const int rc = action ? action() : kExitUsage;
    // What went to standard output must have arrived (a full device, a closed pipe).
    std::string why;
    if (!warpspec::model::stdout_ok(why)) {
      std::cerr << "warpspec: standard output: " << why << "\n";
      return kExitCantCreate;
    }
    return rc;
  } catch (const Failure& f) {
    std::cerr << "warpspec: " << f.message << "\n";
    return f.code;
  } catch (const warpspec::model::MissingInput& e) {
    // The input errors a subcommand did not word itself keep their meaning: never "internal".
    std::cerr << "warpspec: " << e.what() << "\n";
    return kExitNoInput;
  } catch (const warpspec::model::FormatError& e) {
    std::cerr << "warpspec: " << e.what() << "\n";
    return kExitDataError;
  } catch (const warpspec::model::InputError& e) {
    std::cerr << "warpspec: " << e.what() << "\n";
    return as_failure(e).code;
  } catch (const std::bad_alloc&) {
    // Not a bug: an input too large for the memory this process may take (ulimit, cgroup).
    std::cerr << "warpspec: out of memory: the input or the work it asks for needs more memory "
                 "than this process may use\n";
    return kExitNoMemory;
  } catch (const std::exception& e) {
    std::cerr << "warpspec: internal error: " << e.what() << "\n";
    return kExitInternal;
  }
}
