#pragma once
// The recorded kernel launches (tests/data/programs/hardware.json) replayed against their
// explorations, as `capture-check --programs` and `report` print them.
#ifdef WARPSPEC_HAVE_KERNEL_REPLAY
#include <cstdint>
#include <string>

namespace warpspec::cli {

/// Replays every set of the index at `index` (each set's own sample of its launches where
/// `sampled`, else every launch), explored with at most `max_states` states, and prints a table
/// of verdicts with `indent` before each line. True when no launch contradicts a finished
/// exploration. Throws Failure (65, 66) on a bad file.
bool replay_program_records(const std::string& index, bool sampled, uint64_t max_states,
                            const std::string& indent);

}  // namespace warpspec::cli
#endif
