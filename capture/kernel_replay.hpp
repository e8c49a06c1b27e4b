#pragma once
// Whole kernels launched on a GPU (capture/harness/run_kernels.cpp) replayed against their
// explorations (`warpspec run`): every completed launch must leave memory that some schedule
// predicts, every hang must be a predicted deadlock or undefined behaviour, and a launch that
// failed must be a kernel with undefined behaviour. `warpspec capture-check --programs` and
// `warpspec report` print what this finds; the program tests hold it to zero contradictions.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "programs/explore.hpp"

namespace warpspec::capture {

/// What one recorded launch shows against its kernel's exploration.
enum class LaunchVerdict : uint8_t {
  Predicted,          ///< completed with memory that a completing schedule gives
  PredictedBounded,   ///< the same, found by an exploration that stopped at a limit
  NotAmongBounded,    ///< memory none of a bounded exploration's outcomes gives (undecided)
  NotPredicted,       ///< memory no schedule gives, from a finished exploration: a contradiction
  HangPredicted,      ///< hung, and some schedule deadlocks or reaches undefined behaviour
  HangUnfinished,     ///< hung, and the exploration stopped at a limit before finding why
  HangNotPredicted,   ///< hung, though every schedule completes cleanly: a contradiction
  TrapPredicted,      ///< the launch failed, and some schedule reaches undefined behaviour
  TrapUnfinished,     ///< the launch failed, and the exploration stopped at a limit before
                      ///< finding undefined behaviour
  MemoryUnpredicted,  ///< completed; a race or undefined behaviour leaves memory unpredicted
  Outside,            ///< the kernel's PTX is outside the subset the reader takes
  Error               ///< the launch failed though no schedule reaches undefined behaviour
};

/// Every verdict, in the order reports list them.
inline constexpr LaunchVerdict kLaunchVerdicts[] = {
    LaunchVerdict::Predicted,        LaunchVerdict::PredictedBounded,
    LaunchVerdict::NotAmongBounded,  LaunchVerdict::NotPredicted,
    LaunchVerdict::HangPredicted,    LaunchVerdict::HangUnfinished,
    LaunchVerdict::HangNotPredicted, LaunchVerdict::TrapPredicted,
    LaunchVerdict::TrapUnfinished,   LaunchVerdict::MemoryUnpredicted,
    LaunchVerdict::Outside,          LaunchVerdict::Error};

/// A short phrase for the verdict, as the reports print it.
std::string_view verdict_text(LaunchVerdict v);

/// The verdict contradicts a finished exploration: the model, or the record, is wrong.
bool contradicts(LaunchVerdict v);

/// One line of the kernel runner's output.
struct LaunchRecord {
  std::string kernel;
  unsigned run = 0;
  std::string status;  ///< "completed", "hang" or "error"
  std::string error;   ///< the driver's message, for "error"
  /// Per kernel parameter: its buffer's final words, or nullopt for a scalar.
  std::vector<std::optional<std::vector<uint32_t>>> buffers;
  std::string device, driver;
};

/// Parses one runner line; throws model::FormatError naming `file` and `line`.
LaunchRecord parse_launch_record(std::string_view text, const std::string& file, std::size_t line);

/// What `r` shows against `x`, the exploration of its kernel.
LaunchVerdict judge(const LaunchRecord& r, const programs::Exploration& x);

/// A set of recorded launches: the manifests that name the kernels (PTX beside them, plain or
/// gzipped) and the runner's record files.
struct KernelSet {
  std::string name;
  std::vector<std::filesystem::path> manifests;
  std::vector<std::filesystem::path> records;
  unsigned sample = 1;  ///< replay every sample-th launch (where the set says the report should)
};

/// The sets of a hardware index file (tests/data/programs/hardware.json): {"sets": [{"name",
/// "manifests": [...], "records": [...], "sample"}]}, paths relative to the index. Throws
/// model::InputError (data, naming the index's line, column and JSON path) or MissingFile.
std::vector<KernelSet> read_kernel_sets(const std::filesystem::path& index);

/// A launch whose verdict contradicts its kernel's finished exploration, or one left undecided
/// because the exploration stopped at a limit first.
struct Contradiction {
  std::string kernel;
  unsigned run = 0;
  LaunchVerdict verdict{};
  std::string detail;  ///< the driver's message where the launch failed; the walk's limits
                       ///< where it is undecided
};

/// The launch is neither predicted nor contradicted: its exploration stopped at a limit first.
bool undecided(LaunchVerdict v);

/// What replaying one set found.
struct KernelSetReplay {
  std::string name;
  std::size_t kernels = 0;  ///< distinct kernels explored
  /// Kernels explored a second time, with larger limits, to decide launches the first
  /// exploration left undecided (that walk stops once they are decided).
  std::size_t explored_again = 0;
  std::size_t launches = 0;  ///< launches replayed
  std::map<LaunchVerdict, std::size_t> counts;
  std::vector<Contradiction> contradictions;
  std::vector<Contradiction> undecided;  ///< launches undecided(), with their walk's limits
  std::set<std::string> devices;         ///< "DEVICE (driver D)" of the records
  double seconds = 0;
};

/// Replays every `every`-th launch of `set` (1: all of them), each kernel explored with
/// `options` (and again with ten times the states and every grouping of up to 7 threads at an
/// __activemask where a launch is left undecided), on `workers` threads. `progress` (when set) is
/// called now and then, on the calling thread, with the number of kernels explored so far. Throws
/// model::InputError (data) on a bad manifest, model::FormatError on a bad record line, or
/// MissingFile.
KernelSetReplay replay_kernel_set(const KernelSet& set, unsigned every,
                                  const programs::ExploreOptions& options,
                                  const std::function<void(std::size_t)>& progress = {},
                                  unsigned workers = 1);

}  // namespace warpspec::capture
