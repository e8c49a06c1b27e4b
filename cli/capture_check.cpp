// warpspec capture-check: replays hardware captures (docs/capture-format.md) against the model.
// Every lane whose result the spec defines must agree exactly; lanes the spec leaves undefined
// are counted and shown as observations, never as failures.
#ifdef WARPSPEC_HAVE_CAPTURE_FORMAT
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <memory>

#include "capture/replay.hpp"
#include "cli/command.hpp"
#include "cli/program_records.hpp"
#include "model/output.hpp"
#ifdef WARPSPEC_HAVE_FAST
#include "model/fast/fast.hpp"
#endif

namespace warpspec::cli {
namespace {

int run_capture_check(const std::vector<std::string>& inputs, std::size_t max_mismatches,
                      bool show_observed, const std::string& facts, const std::string& impl,
                      const std::string& programs, bool sampled, uint64_t max_states) {
  if (inputs.empty() && programs.empty())
    throw Failure{kExitUsage, "give capture files or folders, --programs INDEX, or both"};
  // What the kernel records say: some launch contradicts its exploration, or none was replayed.
  bool records_disagree = false, records_empty = false;
#ifdef WARPSPEC_HAVE_KERNEL_REPLAY
  if (!programs.empty()) {
    std::cout << "capture-check: recorded kernel launches (" << programs
              << ") replayed against their explorations\n\n";
    const auto v = replay_program_records(programs, sampled, max_states, "");
    records_disagree = v == RecordsVerdict::Disagree;
    records_empty = v == RecordsVerdict::Nothing;
    if (inputs.empty())
      return records_disagree ? kExitRefuted : records_empty ? kExitUnknown : kExitOk;
    std::cout << "\n";
  }
#else
  (void)sampled, (void)max_states;
  if (!programs.empty()) throw Failure{kExitUsage, "--programs: this build has no programs/"};
#endif
  capture::Replayer::Options opt{max_mismatches, show_observed || !facts.empty() ? 2u : 1u};
  std::unique_ptr<capture::Replayer> rp;
  if (impl == "model") {
    rp = std::make_unique<capture::Replayer>(opt);
  } else {
#ifdef WARPSPEC_HAVE_FAST
    rp = std::make_unique<capture::Replayer>(
        [](const spec::Instr& in, const model::Warp& w, spec::Target t, spec::PtxVersion v) {
          return fast::evaluate(in, w, t, v);
        },
        [](const spec::Instr& in, const model::Cta& c, spec::Target t, spec::PtxVersion v) {
          return fast::evaluate_cta(in, c, t, v);
        },
        opt);
#else
    throw Failure{kExitUsage, "--impl fast: this build has no fast implementation"};
#endif
  }
  std::size_t files = 0;
  try {
    for (const auto& in : inputs) {
      auto list = capture::capture_files(in);
      if (list.empty())
        throw capture::MissingFile(in + ": no *.jsonl or *.jsonl.gz capture files in it");
      for (const auto& f : list) rp->add_file(f), ++files;
    }
  } catch (const capture::MissingFile& e) {
    throw Failure{kExitNoInput, e.what()};
  } catch (const capture::FormatError& e) {
    throw Failure{kExitDataError, e.what()};
  }
  const auto& r = *rp;
  std::cout << "capture-check: " << files << " file(s) replayed against the " << impl;
  for (const auto& d : r.devices()) std::cout << "; " << d;
  std::cout << "\n\n";
  std::cout << capture::summary_table(r);

  const auto total = r.total();
  if (!r.mismatches().empty()) {
    std::cout << "\nFirst mismatches (defined lanes where the hardware and the " << impl
              << " differ):\n";
    for (const auto& s : r.mismatches()) {
      std::cout << "\n";
      std::cout << capture::lane_table(s, false);
    }
  }
  if (!r.observations().empty()) {
    std::cout << "\nUndefined lanes observed (not failures: what the hardware did where the spec "
                 "pins nothing down):\n";
    for (const auto& [_, ob] : r.observations()) {
      std::cout << "  " << ob.form << " " << ob.tag << ": " << ob.lanes << " lane(s) in "
                << ob.states << " state(s) [";
      for (std::size_t k = 0; k < ob.clauses.size(); ++k)
        std::cout << (k ? ", " : "") << spec::clause_info(ob.clauses[k]).key;
      std::cout << "]";
      const bool block = ob.came_back || ob.stuck;
      if (ob.faulted_states) {
        // A fault is a trap's error name, or the harness's word that the launch never returned.
        const bool hung = std::all_of(ob.faults.begin(), ob.faults.end(),
                                      [](const std::string& f) { return f.starts_with("hang"); });
        std::cout << (hung ? "; the launch did not return (" : "; the launch trapped (");
        for (std::size_t k = 0; k < ob.faults.size(); ++k)
          std::cout << (k ? ", " : "") << ob.faults[k];
        std::cout << ") in " << ob.faulted_states << " of " << ob.states << " state(s)";
        if (!block) std::cout << ", taking " << ob.lost_lanes << " defined lane(s) with it";
      }
      if (block) {
        // A block barrier: who came back from the barrier, and what the instruction gave them.
        std::cout << "; " << ob.came_back << " thread(s) came back, " << ob.stuck
                  << " still waiting; d as the formula gives it on "
                  << ob.reproduced[static_cast<int>(capture::Reading::AsWritten)] << ", zero on "
                  << ob.reproduced[static_cast<int>(capture::Reading::Zero)];
      } else if (ob.faulted_states < ob.states) {
        std::cout << "; returned lanes reproduced by:";
        for (int k = 0; k < static_cast<int>(capture::Reading::Count_); ++k)
          std::cout << " " << capture::reading_name(capture::Reading(k)) << " " << ob.reproduced[k];
        if (ob.group_states)
          std::cout << "; joins-group reproduces every lane of " << ob.group_states_whole << " of "
                    << ob.group_states << " one-group state(s)";
        if (ob.beside_lanes)
          std::cout << "; " << ob.beside_lanes
                    << " defined lane(s) beside them disagree with the model";
      }
      std::cout << "\n";
      if (show_observed)
        for (const auto& ex : ob.examples) {
          std::cout << "\n";
          std::cout << capture::lane_table(ex, true);
          std::cout << "\n";
        }
    }
    if (!show_observed) std::cout << "  (--observed shows example lane tables)\n";
  }
  if (!r.open_d().empty()) {
    std::cout << "\nShuffle lanes whose d the spec leaves open (p compared where recorded; d is "
                 "what the hardware returned):\n";
    for (const auto& [_, ob] : r.open_d()) {
      std::cout << "  " << ob.form << ", source " << capture::open_source_name(ob.source) << ": "
                << ob.lanes << " lane(s) in " << ob.states << " state(s); d was";
      for (int k = 0; k < static_cast<int>(capture::OpenValue::Count_); ++k)
        std::cout << (k ? "," : "") << " " << capture::open_value_name(capture::OpenValue(k)) << " "
                  << ob.matched[k] << " (only " << ob.only[k] << ")";
      std::cout << ", none of these " << ob.none << "\n";
      if (show_observed)
        for (const auto* list : {&ob.examples, &ob.none_examples})
          for (const auto& ex : *list) std::cout << "\n" << capture::lane_table(ex, true) << "\n";
    }
    if (!show_observed) std::cout << "  (--observed shows example lane tables)\n";
  }
  if (!r.leaders().empty()) {
    std::cout << "\nLeaders elected in defined states (any lane of the membermask is allowed, the "
                 "same one every time; the model elects the lowest):\n";
    for (const auto& [_, ob] : r.leaders())
      std::cout << "  " << ob.form << ": " << ob.elections
                << " election(s) of two or more lanes in " << ob.states
                << " state(s): the membermask's lowest lane " << ob.lowest << ", its highest "
                << ob.highest << ", another " << ob.other << "; " << ob.single
                << " single-lane election(s)\n";
  }
  auto unconfirmed = capture::unconfirmed_forms(r);
  if (!unconfirmed.empty()) {
    std::cout << "\nNot confirmed on hardware by these captures:";
    for (auto f : unconfirmed) std::cout << " " << spec::form_info(f).name;
    std::cout << "\n";
  }
  if (!facts.empty() && !model::write_file_atomically(facts, capture::observations_json(r) + "\n"))
    throw Failure{kExitCantCreate, facts + ": cannot write"};
  const bool bad = total.mismatched > 0 || total.unavailable > 0 || records_disagree;
  // Captures without a defined lane (no records, or every lane undefined) confirm nothing, nor
  // do kernel records of which none was replayed.
  const bool nothing = !bad && total.lanes == 0 && (programs.empty() || records_empty);
  std::cout << "\n"
            << (bad       ? "MISMATCH: "
                : nothing ? "NOTHING COMPARED: "
                          : "AGREE: ")
            << total.agreed << " of " << total.lanes << " defined lanes agree, " << total.mismatched
            << " mismatch";
  if (total.beside_ub)
    std::cout << " (" << total.beside_ub << " of them in states where UB fires on another lane)";
  std::cout << ", " << total.undefined << " undefined lanes observed";
  if (total.d_open) std::cout << ", " << total.d_open << " shuffle lanes with d open observed";
  std::cout << "\n";
  return bad ? kExitRefuted : nothing ? kExitUnknown : kExitOk;
}

const bool capture_check_registered = add_command(
    {"capture-check", "Replay hardware captures against the model (exit 1 on any mismatch)", 60,
     [](CLI::App& sub) {
       auto inputs = std::make_shared<std::vector<std::string>>();
       auto max = std::make_shared<std::size_t>(5);
       auto observed = std::make_shared<bool>(false);
       auto facts = std::make_shared<std::string>();
       auto impl = std::make_shared<std::string>("model");
       auto programs = std::make_shared<std::string>();
       auto sampled = std::make_shared<bool>(false);
       auto max_states = std::make_shared<uint64_t>(20000);
       sub.add_option("FILE", *inputs, "Capture files (.jsonl or .jsonl.gz) or folders of them");
       sub.add_option("--programs", *programs,
                      "Also replay recorded kernel launches: an index of kernel sets such as "
                      "tests/data/programs/hardware.json (each launch's memory must be an "
                      "outcome `warpspec run` predicts, each hang a predicted deadlock or UB)")
           ->check(kPath);
       sub.add_flag("--sampled", *sampled,
                    "With --programs: replay only the sample of launches each set names");
       sub.add_option("--max-states", *max_states,
                      "With --programs: states per kernel's exploration before it stops")
           ->capture_default_str();
       sub.add_option("--max-mismatches", *max, "Lane tables to print for mismatching states")
           ->capture_default_str();
       sub.add_flag("--observed", *observed, "Print example lane tables of undefined lanes");
       sub.add_option("--facts", *facts,
                      "Write the findings as JSON (warpspec-observed/1) to this file")
           ->check(kPath);
       sub.add_option("--impl", *impl, "What to replay against: model or fast")
           ->check(CLI::IsMember({"model", "fast"}))
           ->capture_default_str();
       sub.footer(
           "Exit codes: 0 every defined lane agrees, 1 a defined lane mismatches (or a form the "
           "model says the target lacks was captured, or a kernel launch contradicts its "
           "finished exploration), 2 nothing compared (the captures hold no defined lane), 64 "
           "neither captures nor --programs given, 65 malformed capture "
           "file (file:line and "
           "what was expected), 66 missing file.");
       return [=] {
         return run_capture_check(*inputs, *max, *observed, *facts, *impl, *programs, *sampled,
                                  *max_states);
       };
     }});

}  // namespace
}  // namespace warpspec::cli
#endif  // WARPSPEC_HAVE_CAPTURE_FORMAT
