#pragma once
// One entry point per reader of user input. Each feeds arbitrary bytes to the reader the way the
// command-line tool does and checks the reader's contract: the input is accepted, or it is
// rejected with the project's own error naming the place. Anything else (a crash, an uncaught
// exception, a message without its place, a value that does not read back once written) is a bug.
// The same functions run under libFuzzer (fuzz/) and over the regression files in
// tests/data/regressions/ (tests/harden/).
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace warpspec::fuzz {

/// A broken reader contract; its message says which.
class Violation : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

/// An instruction text (line 1) and operand values read with its syntax (further lines).
void instr(std::string_view data);
/// The command-line state syntax: lines hold instruction, --a, --mask, --masks, --exited,
/// --inactive, --sites and --threads, in that order.
void state_flags(std::string_view data);
/// A JSON warp- or block-state file, read as `warpspec eval --state` reads it.
void state_json(std::string_view data);
/// A vector file, each line read (expectations and whole vectors), and each vector read written
/// again and read back.
void vectors(std::string_view data);
/// A results file, read line by line and checked against a fixed vector file.
void results(std::string_view data);
/// A capture file (plain or gzip), read and replayed as `warpspec capture-check` does.
void capture(std::string_view data);

/// A named entry point.
struct Target {
  const char* name;
  void (*run)(std::string_view);
};

/// Every entry point, by the name of its corpus folder.
std::span<const Target> targets();

}  // namespace warpspec::fuzz
