#pragma once
// The recorded kernel launches (tests/data/programs/hardware.json) replayed against their
// explorations, as `capture-check --programs` and `report` print them.
#ifdef WARPSPEC_HAVE_KERNEL_REPLAY
#include <cstdint>
#include <string>

namespace warpspec::cli {

/// What the recorded launches say of the explorations.
enum class RecordsVerdict {
  Agree,     ///< launches were replayed, and none contradicts a finished exploration
  Disagree,  ///< some launch contradicts its finished exploration
  Nothing,   ///< no launch was replayed: nothing is confirmed
};

/// Replays every set of the index at `index` (each set's own sample of its launches where
/// `sampled`, else every launch), explored with at most `max_states` states, and prints a table
/// of verdicts with `indent` before each line. Throws Failure (65, 66) on a bad file.
RecordsVerdict replay_program_records(const std::string& index, bool sampled, uint64_t max_states,
                                      const std::string& indent);

}  // namespace warpspec::cli
#endif
