// Recorded kernel launches against their explorations (program_records.hpp).
#ifdef WARPSPEC_HAVE_KERNEL_REPLAY
#include "cli/program_records.hpp"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <thread>

#include "capture/format.hpp"
#include "capture/kernel_replay.hpp"
#include "cli/common.hpp"

namespace warpspec::cli {

RecordsVerdict replay_program_records(const std::string& index, bool sampled, uint64_t max_states,
                                      const std::string& indent) {
  std::vector<capture::KernelSet> sets;
  std::vector<capture::KernelSetReplay> done;
  programs::ExploreOptions options;
  options.max_states = max_states;
  Progress progress;
  try {
    sets = capture::read_kernel_sets(index);
    for (const auto& s : sets) {
      const unsigned every = sampled ? s.sample : 1;
      done.push_back(capture::replay_kernel_set(
          s, every, options,
          [&](std::size_t n) {
            progress.show("  " + s.name + ": " + std::to_string(n) + " kernels explored");
          },
          std::max(1u, std::min(2u, std::thread::hardware_concurrency()))));
      progress.clear();
    }
  } catch (const capture::MissingFile& e) {
    throw Failure{kExitNoInput, e.what()};
  } catch (const model::FormatError& e) {
    throw Failure{kExitDataError, e.what()};
  } catch (const model::InputError& e) {
    throw as_failure(e);
  }
  // One column per set, one row per verdict that occurs.
  std::cout << indent << std::left << std::setw(46) << "launches" << std::right;
  for (const auto& d : done) std::cout << std::setw(18) << d.name;
  std::cout << "\n";
  auto row = [&](const std::string& name, auto value) {
    std::cout << indent << std::left << std::setw(46) << name << std::right;
    for (const auto& d : done) std::cout << std::setw(18) << value(d);
    std::cout << "\n";
  };
  row("kernels explored", [](const auto& d) { return std::to_string(d.kernels); });
  if (std::any_of(done.begin(), done.end(), [](const auto& d) { return d.explored_again > 0; }))
    row("explored again to decide a launch",
        [](const auto& d) { return std::to_string(d.explored_again); });
  row("launches replayed", [&](const auto& d) {
    const unsigned every = sampled ? sets[&d - done.data()].sample : 1;
    return std::to_string(d.launches) + (every > 1 ? " (1 in " + std::to_string(every) + ")" : "");
  });
  for (auto v : capture::kLaunchVerdicts) {
    std::size_t any = 0;
    for (const auto& d : done) any += d.counts.count(v) ? d.counts.at(v) : 0;
    if (!any && !capture::contradicts(v)) continue;
    row(std::string(capture::verdict_text(v)),
        [v](const auto& d) { return std::to_string(d.counts.count(v) ? d.counts.at(v) : 0); });
  }
  row("seconds", [](const auto& d) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(1) << d.seconds;
    return s.str();
  });
  std::set<std::string> devices;
  std::size_t contradictions = 0, launches = 0, undecided = 0, outside = 0;
  for (const auto& d : done) {
    devices.insert(d.devices.begin(), d.devices.end());
    launches += d.launches;
    if (const auto it = d.counts.find(capture::LaunchVerdict::Outside); it != d.counts.end())
      outside += it->second;
    undecided += d.undecided.size();
    for (const auto& c : d.contradictions) {
      if (++contradictions <= 10)
        std::cout << indent << "  " << d.name << ": " << c.kernel << " run " << c.run << ": "
                  << capture::verdict_text(c.verdict)
                  << (c.detail.empty() ? "" : " (" + c.detail + ")") << "\n";
    }
  }
  std::size_t shown = 0;
  for (const auto& d : done)
    for (const auto& u : d.undecided)
      if (++shown <= 10)
        std::cout << indent << "  undecided: " << d.name << ": " << u.kernel << " run " << u.run
                  << ": " << capture::verdict_text(u.verdict) << " (" << u.detail << ")\n";
  if (shown > 10) std::cout << indent << "  ... and " << shown - 10 << " more undecided\n";
  for (const auto& d : devices) std::cout << indent << "recorded on " << d << "\n";
  std::cout << indent << contradictions << " of " << launches
            << " launches contradict a finished exploration";
  if (undecided)
    std::cout << " (" << undecided << " undecided: their exploration stopped at its limit first)";
  // No launch replayed (an empty index or records file), or only launches of kernels outside
  // the PTX subset, confirms nothing.
  const bool compared = launches > outside;
  std::cout << ": "
            << (contradictions ? "DISAGREES"
                : compared     ? "agrees"
                               : "NOTHING COMPARED")
            << "\n";
  return contradictions ? RecordsVerdict::Disagree
         : compared     ? RecordsVerdict::Agree
                        : RecordsVerdict::Nothing;
}

}  // namespace warpspec::cli
#endif
